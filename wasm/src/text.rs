//! Text for the editor: its syntax as core detects it, and diagnostics, whose byte spans
//! become UTF-16 offsets (what CodeMirror and JavaScript strings count) plus 1-based line
//! and column for display.

use gdl_core::diagnostic::{Diagnostic, LineIndex, Severity};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The syntax of `text` as the engine reads it: `"prefix"` if the first character outside
/// comments and whitespace is `(` (or there is none), else `"infix"`.
#[wasm_bindgen(js_name = detectSyntax, unchecked_return_type = "\"prefix\" | \"infix\"")]
pub fn detect_syntax(text: &str) -> String {
    gdl_core::play::text::syntax_name(gdl_core::parse::detect_syntax(text)).to_string()
}

/// One diagnostic as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct EditorDiagnostic {
    #[tsify(type = "\"error\" | \"warning\"")]
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    /// UTF-16 offsets into the text: `from..to`.
    pub from: u32,
    pub to: u32,
    /// 1-based; columns count characters, as `gdl check` prints them.
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// Converts every diagnostic of `text` for the editor, in the order given.
pub fn editor_diagnostics(text: &str, diags: &[Diagnostic]) -> Vec<EditorDiagnostic> {
    let bytes: Vec<u32> = diags.iter().flat_map(|d| [d.span.start, d.span.end]).collect();
    let utf16 = utf16_offsets(text, &bytes);
    let lines = LineIndex::new(text);
    diags
        .iter()
        .zip(utf16.chunks(2))
        .map(|(d, u)| {
            let (line, column) = lines.line_col(d.span.start);
            let (end_line, end_column) = lines.line_col(d.span.end);
            EditorDiagnostic {
                severity: d.severity,
                code: d.code,
                message: d.message.clone(),
                from: u[0],
                to: u[1].max(u[0]),
                line,
                column,
                end_line,
                end_column,
            }
        })
        .collect()
}

/// The UTF-16 offset of each byte offset (clamped to the text; an offset inside a
/// character counts as that character's start). One pass over the text, whatever the count.
pub fn utf16_offsets(text: &str, bytes: &[u32]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    gdl_core::order::sort_by_key(&mut order, |&i| bytes[i]);
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
    use gdl_core::diagnostic::Span;

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
        let got = editor_diagnostics(text, &[d]);
        assert_eq!((got[0].from, got[0].to), (13, 17));
        assert_eq!((got[0].line, got[0].column, got[0].end_line, got[0].end_column), (3, 1, 3, 5));
    }
}
