//! `gdl ground`: the game's rules instantiated: the ground program (prefix, infix or JSON
//! lines), or the grounder's statistics with its time and memory.

use crate::args::{GroundArgs, GroundFormat};
use crate::load::{report, validated, Failure, Outcome};
use crate::measure::{cpu_seconds, peak_memory_kb};
use anyhow::Context;
use gdl_core::parse::Syntax;
use serde_json::json;
use std::time::Instant;

pub fn run(args: &GroundArgs) -> Outcome {
    let file = &args.file;
    let json = args.stats || matches!(args.format, GroundFormat::Json);
    let (text, description) = validated(file, json)?;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let ground = match gdl_core::ground::ground(&description, args.options(), &now, &mut |_| {}) {
        Ok(g) => g,
        Err(d) => {
            report(file, &text, &[d], json);
            return Err(Failure::Invalid);
        }
    };
    let mut stats = serde_json::to_value(&ground.stats).context("statistics")?;
    stats["total_ms"] = json!(now());
    stats["cpu_ms"] = json!(cpu_seconds().zip(cpu_start).map(|(end, start)| (end - start) * 1000.0));
    stats["peak_memory_kb"] = json!(peak_memory_kb());
    if args.stats {
        println!("{stats}");
        return Ok(());
    }
    match args.format {
        GroundFormat::Prefix => print!("{}", ground.print(Syntax::Prefix)),
        GroundFormat::Infix => print!("{}", ground.print(Syntax::Infix)),
        GroundFormat::Json => {
            let lines: Vec<String> = ground.print(Syntax::Prefix).lines().map(str::to_owned).collect();
            println!("{}", json!({"rules": lines, "stats": stats}));
        }
    }
    Ok(())
}
