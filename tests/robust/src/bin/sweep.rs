//! The mutated-corpus sweep: every game file under the given directories, mutated by
//! deleting, duplicating or swapping random tokens, goes through check, load, a few random
//! moves, grounding and the ground engine ([`gdl_robust::exercise`]). Each game runs in a
//! child process watched by this one, so a panic, a crash or a hang is counted, never
//! fatal; the counts go to a Markdown table.
//!
//!   sweep [--per-op N] [--seed S] [--millis MS] [--watchdog SECS] [--out FILE.md] DIR...
//!
//! Exit status 1 if any input panicked, crashed, hung or made the engines disagree.

use gdl_core::rng::Rng;
use gdl_robust::{exercise, Budget, Outcome};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const OPS: [&str; 3] = ["delete", "duplicate", "swap"];

struct Args {
    per_op: usize,
    seed: u64,
    millis: f64,
    watchdog: u64,
    out: Option<PathBuf>,
    dirs: Vec<PathBuf>,
    /// Child mode: mutate this one file, starting at mutation `from`.
    child: Option<(PathBuf, usize)>,
}

fn parse_args() -> Args {
    let mut a = Args { per_op: 3, seed: 1, millis: 1000.0, watchdog: 60, out: None, dirs: Vec::new(), child: None };
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>, name: &str| -> f64 {
        v.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} needs a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--per-op" => a.per_op = num(it.next(), "--per-op") as usize,
            "--seed" => a.seed = num(it.next(), "--seed") as u64,
            "--millis" => a.millis = num(it.next(), "--millis"),
            "--watchdog" => a.watchdog = num(it.next(), "--watchdog") as u64,
            "--out" => a.out = it.next().map(PathBuf::from),
            "--child" => {
                let file = it.next().map(PathBuf::from).expect("--child FILE FROM");
                a.child = Some((file, num(it.next(), "--child FROM") as usize));
            }
            _ => a.dirs.push(PathBuf::from(arg)),
        }
    }
    a
}

/// Tokens of a text: names, single punctuation characters, and the whitespace between.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let kind = |c: char| {
        if c.is_whitespace() {
            0
        } else if c.is_alphanumeric() || matches!(c, '?' | '_' | '-' | '+' | '.' | '<' | '=') {
            1
        } else {
            2
        }
    };
    let mut prev = None;
    for (i, c) in text.char_indices() {
        let k = kind(c);
        if i > start && (prev != Some(k) || k == 2) {
            out.push(&text[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Mutation number `k` of `text`: operation `k % 3` at places drawn from `seed` and `k`.
fn mutate(text: &str, seed: u64, k: usize) -> String {
    let mut toks = tokens(text);
    let words: Vec<usize> = (0..toks.len()).filter(|&i| !toks[i].trim().is_empty()).collect();
    if words.is_empty() {
        return text.to_string();
    }
    let mut rng = Rng::new(seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let i = words[rng.below(words.len())];
    match OPS[k % 3] {
        "delete" => {
            toks.remove(i);
        }
        "duplicate" => {
            let t = toks[i];
            toks.insert(i, " ");
            toks.insert(i, t);
        }
        _ => {
            let j = words[rng.below(words.len())];
            toks.swap(i, j);
        }
    }
    toks.concat()
}

fn file_seed(path: &Path, seed: u64) -> u64 {
    path.to_string_lossy().bytes().fold(seed, |h, b| h.wrapping_mul(31).wrapping_add(b.into()))
}

/// Child mode: one line per mutation, `k<TAB>outcome<TAB>ms<TAB>detail`, flushed at once.
fn child(args: &Args, file: &Path, from: usize) {
    let text = String::from_utf8_lossy(&std::fs::read(file).expect("readable file")).into_owned();
    let budget = Budget::sweep(args.millis);
    let seed = file_seed(file, args.seed);
    std::panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout().lock();
    for k in from..OPS.len() * args.per_op {
        let mutated = mutate(&text, seed, k);
        let t0 = Instant::now();
        let result = std::panic::catch_unwind(|| exercise(&mutated, seed, &budget));
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let (label, detail) = match result {
            Ok(Outcome::Disagree(why)) => ("DISAGREE", why),
            Ok(o) => (o.label(), String::new()),
            Err(p) => {
                let msg =
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                ("panic", msg.unwrap_or_default())
            }
        };
        let detail = detail.replace(['\n', '\t'], " ");
        writeln!(out, "{k}\t{label}\t{ms:.1}\t{detail}").and_then(|()| out.flush()).expect("stdout");
    }
}

fn game_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            game_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "kif" || e == "gdl") {
            out.push(p);
        }
    }
}

/// One mutation's result, as the parent records it.
struct Row {
    file: PathBuf,
    k: usize,
    label: String,
    ms: f64,
    detail: String,
}

/// Runs the children for one file, restarting after a hang or a crash.
fn sweep_file(args: &Args, file: &Path, rows: &mut Vec<Row>) {
    let total = OPS.len() * args.per_op;
    let mut next = 0;
    while next < total {
        let mut cmd = Command::new(std::env::current_exe().expect("own path"));
        cmd.args(["--child", &file.to_string_lossy(), &next.to_string()]);
        cmd.args(["--per-op", &args.per_op.to_string(), "--seed", &args.seed.to_string()]);
        cmd.args(["--millis", &args.millis.to_string()]);
        let mut proc = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn the child");
        let (tx, rx) = mpsc::channel();
        let stdout = proc.stdout.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let failed = loop {
            match rx.recv_timeout(Duration::from_secs(args.watchdog)) {
                Ok(line) => {
                    let f: Vec<&str> = line.splitn(4, '\t').collect();
                    let (Some(k), Some(label), Some(ms)) = (f.first(), f.get(1), f.get(2)) else { continue };
                    let k: usize = k.parse().unwrap_or(next);
                    let detail = f.get(3).unwrap_or(&"").to_string();
                    rows.push(Row {
                        file: file.to_path_buf(),
                        k,
                        label: label.to_string(),
                        ms: ms.parse().unwrap_or(0.0),
                        detail,
                    });
                    next = k + 1;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break Some("hang"),
                Err(mpsc::RecvTimeoutError::Disconnected) => break (next < total).then_some("crash"),
            }
        };
        let _ = proc.kill();
        let status = proc.wait();
        if let Some(label) = failed {
            let detail = match (label, status) {
                ("crash", Ok(s)) => format!("child exited with {s}"),
                _ => format!("no answer within {} s", args.watchdog),
            };
            let ms = if label == "hang" { args.watchdog as f64 * 1e3 } else { 0.0 };
            rows.push(Row { file: file.to_path_buf(), k: next, label: label.into(), ms, detail });
            next += 1;
        }
    }
}

const COLUMNS: [&str; 9] = [
    "rejected",
    "limit",
    "game error",
    "played + grounded",
    "played, ground error",
    "DISAGREE",
    "panic",
    "crash",
    "hang",
];

fn table(args: &Args, files: usize, rows: &[Row], seconds: f64) -> String {
    let mut counts: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for r in rows {
        *counts.entry((r.k % 3, r.label.as_str())).or_default() += 1;
    }
    let mut s = format!(
        "Mutated-corpus sweep: {files} game files, {} mutations each ({} per operation), seed {}, \
         {} ms per request, watchdog {} s; {} inputs in {seconds:.0} s.\n\n| operation | inputs | {} |\n|---|---:|{}\n",
        3 * args.per_op,
        args.per_op,
        args.seed,
        args.millis,
        args.watchdog,
        rows.len(),
        COLUMNS.join(" | "),
        "---:|".repeat(COLUMNS.len()),
    );
    for (op, name) in OPS.iter().chain(&["all"]).enumerate() {
        let count = |label: &str| -> usize {
            counts.iter().filter(|((o, l), _)| (op == 3 || *o == op) && *l == label).map(|(_, n)| n).sum()
        };
        let inputs: usize = COLUMNS.iter().map(|c| count(c)).sum();
        let cells: Vec<String> = COLUMNS.iter().map(|c| count(c).to_string()).collect();
        s.push_str(&format!("| {name} | {inputs} | {} |\n", cells.join(" | ")));
    }
    let bad: Vec<&Row> =
        rows.iter().filter(|r| matches!(r.label.as_str(), "panic" | "crash" | "hang" | "DISAGREE")).collect();
    if !bad.is_empty() {
        s.push_str("\nFailures (reproduce with `sweep --child FILE K` and the same options):\n\n");
        for r in bad {
            s.push_str(&format!("- {} #{} {}: {}\n", r.file.display(), r.k, r.label, r.detail));
        }
    }
    let mut slow: Vec<&Row> = rows.iter().collect();
    slow.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    s.push_str("\nSlowest inputs: ");
    let names: Vec<String> =
        slow.iter().take(5).map(|r| format!("{} #{} ({:.1} s)", r.file.display(), r.k, r.ms / 1e3)).collect();
    s.push_str(&names.join(", "));
    s.push('\n');
    s
}

fn main() {
    let args = parse_args();
    if let Some((file, from)) = &args.child {
        child(&args, file, *from);
        return;
    }
    let mut files = Vec::new();
    for d in &args.dirs {
        game_files(d, &mut files);
    }
    assert!(!files.is_empty(), "no .kif or .gdl files under {:?}", args.dirs);
    let t0 = Instant::now();
    let mut rows = Vec::new();
    for (i, f) in files.iter().enumerate() {
        sweep_file(&args, f, &mut rows);
        eprint!("\r{}/{} files, {} inputs", i + 1, files.len(), rows.len());
    }
    eprintln!();
    let report = table(&args, files.len(), &rows, t0.elapsed().as_secs_f64());
    print!("{report}");
    if let Some(out) = &args.out {
        std::fs::write(out, &report).expect("write the table");
    }
    let bad = rows.iter().any(|r| matches!(r.label.as_str(), "panic" | "crash" | "hang" | "DISAGREE"));
    std::process::exit(i32::from(bad));
}
