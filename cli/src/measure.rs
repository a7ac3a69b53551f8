//! The process's clocks and memory, for the figures commands report: milliseconds since
//! start (the clock of `--max-millis`), CPU seconds used, peak resident memory.

use std::sync::OnceLock;
use std::time::Instant;

/// Milliseconds since the first call: the clock of `--max-millis`.
pub fn now_ms() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// CPU time used by this process so far (user + system), where the platform tells.
pub fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes into the struct we pass.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return Some(t(usage.ru_utime) + t(usage.ru_stime));
        }
    }
    None
}

/// The process's peak resident memory (Linux), if known.
pub fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
