//! Diagnostics: errors and warnings as data, each with a byte span into the source text.
//!
//! Every stage (parser, validator) returns its findings as a `Vec<Diagnostic>` instead of
//! stopping at the first problem; `LineIndex` turns byte offsets into 1-based line and column,
//! and `located` gives each diagnostic its place as every face shows it.

use serde::Serialize;

/// A half-open byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum Severity {
    Error,
    Warning,
}

/// One finding about the source text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable short name of the check, e.g. `unsafe-variable`.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, code, message: message.into(), span }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, code, message: message.into(), span }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Converts byte offsets into 1-based line and column (columns count characters).
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, line_starts }
    }

    /// `(line, column)`, both 1-based.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// `file:line:col: error: message`, the form compilers print.
    pub fn render(&self, file: &str, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start);
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!("{file}:{line}:{col}: {sev}[{}]: {}", d.code, d.message)
    }
}

/// A diagnostic with its place in the text: byte offsets (`start..end`), UTF-16 offsets
/// (`from..to`, what editors and JavaScript strings count), and 1-based line and column
/// (columns count characters) of both ends: what `gdl check --json` prints and the editor marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Located {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    pub start: u32,
    pub end: u32,
    pub from: u32,
    pub to: u32,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// Every diagnostic of `text` with its place, in the order given.
pub fn located(text: &str, diags: &[Diagnostic]) -> Vec<Located> {
    let bytes: Vec<u32> = diags.iter().flat_map(|d| [d.span.start, d.span.end]).collect();
    let utf16 = utf16_offsets(text, &bytes);
    let lines = LineIndex::new(text);
    (diags.iter().zip(utf16.chunks(2)))
        .map(|(d, u)| {
            let (line, column) = lines.line_col(d.span.start);
            let (end_line, end_column) = lines.line_col(d.span.end);
            let (start, end, from, to) = (d.span.start, d.span.end, u[0], u[1].max(u[0]));
            let (severity, code, message) = (d.severity, d.code, d.message.clone());
            Located { severity, code, message, start, end, from, to, line, column, end_line, end_column }
        })
        .collect()
}

/// The UTF-16 offset of each byte offset (clamped to the text; an offset inside a
/// character counts as that character's start). One pass over the text, whatever the count.
fn utf16_offsets(text: &str, bytes: &[u32]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    crate::order::sort_by_key(&mut order, |&i| bytes[i]);
    let mut out = vec![0; bytes.len()];
    let mut chars = text.char_indices().peekable();
    let mut units = 0u32;
    for i in order {
        let target = (bytes[i] as usize).min(text.len());
        while let Some(&(at, c)) = chars.peek() {
            if at + c.len_utf8() > target {
                break;
            }
            units += c.len_utf16() as u32;
            chars.next();
        }
        out[i] = units;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one_and_handles_crlf_and_utf8() {
        let text = "ab\r\ncé d\nx";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(4), (2, 1));
        // 'd' is after "cé " (é is two bytes): byte 8, column 4.
        assert_eq!(idx.line_col(8), (2, 4));
        assert_eq!(idx.line_col(10), (3, 1));
        assert_eq!(idx.line_col(999), (3, 2));
    }

    #[test]
    fn utf16_offsets_count_code_units_in_any_order() {
        // 'é' is 2 bytes and 1 unit; '😀' is 4 bytes and 2 units.
        let text = "aé😀b";
        assert_eq!(utf16_offsets(text, &[7, 0, 1, 3, 8, 99]), vec![4, 0, 1, 2, 5, 5]);
        // Inside a character: that character's start.
        assert_eq!(utf16_offsets(text, &[2, 5]), vec![1, 2]);
    }

    #[test]
    fn diagnostics_carry_offsets_and_lines() {
        let text = "; é\n(role x)\n(foo";
        let d = Diagnostic::error("syntax", Span::new(14, 18), "unclosed");
        let got = located(text, &[d]);
        assert_eq!((got[0].start, got[0].end, got[0].from, got[0].to), (14, 18, 13, 17));
        assert_eq!((got[0].line, got[0].column, got[0].end_line, got[0].end_column), (3, 1, 3, 5));
    }
}
