//! `gdl check`: the game's errors and warnings, and whether it has any error.

use crate::args::CheckArgs;
use crate::load::{diagnostics_json, print_diagnostics, read, Failure, Outcome};
use serde_json::json;

pub fn run(args: &CheckArgs) -> Outcome {
    let file = &args.file;
    let text = read(file)?;
    let diags = gdl_core::check(&text);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if args.json {
        println!("{}", json!({"ok": errors == 0, "diagnostics": diagnostics_json(&text, &diags)}));
    } else {
        print_diagnostics(file, &text, &diags);
        let warnings = diags.len() - errors;
        eprintln!("{}: {errors} error(s), {warnings} warning(s)", file.display());
    }
    if errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}
