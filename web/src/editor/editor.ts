// The rules editor: CodeMirror 6 with GDL highlighting, bracket matching, undo history and
// the lint gutter. The engine (started before the editor) says which syntax the text is in,
// which picks the highlighting. The page owns linting: it loads the text into the engine (debounced)
// and hands the diagnostics back with `showDiagnostics`.

import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, indentUnit } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { detectSyntax, type Located } from '../engine/engine';
import { gdlHighlight, gdlLanguages, type Syntax } from './gdl-language';

export interface Editor {
  view: EditorView;
  text(): string;
  /** Replaces the whole text as one undoable change. */
  setText(text: string): void;
  showDiagnostics(diags: Located[]): void;
  /** Selects `from..to` and scrolls it into view. */
  reveal(from: number, to: number): void;
}

export function createEditor(parent: HTMLElement, doc: string, onChange: (text: string) => void): Editor {
  const language = new Compartment();
  let syntax: Syntax = detectSyntax(doc);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        indentUnit.of('    '),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        lintGutter(),
        language.of(gdlLanguages[syntax]),
        gdlHighlight,
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ 'aria-label': 'GDL rules', spellcheck: 'false', tabindex: '0' }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          const text = u.state.doc.toString();
          const s = detectSyntax(text);
          if (s !== syntax) {
            syntax = s;
            // Dispatching inside an update is not allowed: switch right after it.
            queueMicrotask(() => view.dispatch({ effects: language.reconfigure(gdlLanguages[s]) }));
          }
          onChange(text);
        }),
      ],
    }),
  });

  // When the editor gets shorter (the list of problems under it grows, a lesson opens) while
  // someone types, the line they type on stays in view.
  new ResizeObserver(() => {
    if (view.hasFocus) view.dispatch({ effects: EditorView.scrollIntoView(view.state.selection.main.head, { y: 'nearest' }) });
  }).observe(view.dom);

  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, scrollIntoView: true });
    },
    showDiagnostics(diags) {
      const len = view.state.doc.length;
      const cm: Diagnostic[] = diags.map((d) => {
        const from = Math.min(d.from, len);
        // An empty span (end of text) still needs a visible mark.
        const to = Math.min(Math.max(d.to, from), len);
        return { from, to, severity: d.severity, message: d.message, source: d.code };
      });
      view.dispatch(setDiagnostics(view.state, cm));
    },
    reveal(from, to) {
      const len = view.state.doc.length;
      view.dispatch({ selection: EditorSelection.single(Math.min(from, len), Math.min(to, len)), scrollIntoView: true });
      view.focus();
    },
  };
}
