//! `gdl fmt`: the game printed in prefix (KIF) or infix syntax.

use crate::args::{FmtArgs, Form};
use crate::load::{print_diagnostics, read, Failure, Outcome};
use gdl_core::diagnostic::Diagnostic;
use gdl_core::parse::{parse, Syntax};

pub fn run(args: &FmtArgs) -> Outcome {
    let text = read(&args.file)?;
    let parsed = parse(&text);
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        print_diagnostics(&args.file, &text, &parsed.diagnostics);
        return Err(Failure::Invalid);
    }
    let syntax = match args.to {
        Form::Prefix => Syntax::Prefix,
        Form::Infix => Syntax::Infix,
    };
    print!("{}", gdl_core::print::print(&parsed.description, syntax));
    Ok(())
}
