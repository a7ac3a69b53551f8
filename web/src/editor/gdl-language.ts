// GDL highlighting for CodeMirror 6, in both syntaxes: KIF prefix `(<= (legal ?p noop) ...)`
// and the infix form `legal(P, noop) :- ...`. A stream tokenizer per syntax; the editor
// switches between them when the text's syntax, as the engine detects it, changes.

import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StreamParser } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

export type Syntax = 'prefix' | 'infix';

/** Relations GDL gives a meaning to. */
const KEYWORDS = new Set(['role', 'init', 'true', 'next', 'legal', 'does', 'goal', 'terminal', 'base', 'input']);
const LOGIC = new Set(['not', 'or', 'and', 'distinct']);

interface State {
  /** The previous token was `(`: a relation or function name comes next (prefix). */
  head: boolean;
}

function parser(syntax: Syntax): StreamParser<State> {
  const infix = syntax === 'infix';
  return {
    name: `gdl-${syntax}`,
    startState: () => ({ head: false }),
    token(stream, state) {
      if (stream.eatSpace()) return null;
      const head = state.head;
      state.head = false;
      const ch = stream.peek();
      if (ch === ';' || ch === '%') {
        stream.skipToEnd();
        return 'comment';
      }
      if (ch === '(' || ch === ')') {
        stream.next();
        state.head = ch === '(' && !infix;
        return 'paren';
      }
      if (ch === '"') {
        stream.next();
        while (!stream.eol() && stream.next() !== '"');
        return 'string';
      }
      if (stream.match('<=') || stream.match(':-')) return 'operator';
      if (ch === '&' || ch === '~') {
        stream.next();
        return 'operator';
      }
      if (ch === ',') {
        stream.next();
        return 'punctuation';
      }
      if (ch === '?') {
        stream.next();
        stream.match(/^[^\s();?"%,&~]*/);
        return 'variableName';
      }
      const word = stream.match(/^[^\s();?"%,&~]+/) as RegExpMatchArray | null;
      if (!word) {
        stream.next();
        return null;
      }
      let w = word[0];
      if (infix && w.length > 1 && w.endsWith('.')) {
        stream.backUp(1);
        w = w.slice(0, -1);
      }
      if (infix && w === '.') return 'operator';
      const lower = w.toLowerCase();
      if (KEYWORDS.has(lower)) return 'keyword';
      if (LOGIC.has(lower)) return 'operatorKeyword';
      if (/^-?\d+$/.test(w)) return 'number';
      if (infix && /^[A-Z_]/.test(w)) return 'variableName';
      if (head || (infix && stream.peek() === '(')) return 'function';
      return 'atom';
    },
    tokenTable: { function: t.function(t.variableName), paren: t.paren },
    languageData: { commentTokens: { line: ';' }, closeBrackets: { brackets: ['('] } },
  };
}

export const gdlLanguages: Record<Syntax, StreamLanguage<State>> = {
  prefix: StreamLanguage.define(parser('prefix')),
  infix: StreamLanguage.define(parser('infix')),
};

/** Colours chosen for a projector: strong contrast, comments still readable. */
export const gdlHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: t.comment, color: '#5c6f5c', fontStyle: 'italic' },
    { tag: t.keyword, color: '#7a1fa2', fontWeight: '600' },
    { tag: t.operatorKeyword, color: '#b3261e', fontWeight: '600' },
    { tag: t.operator, color: '#b3261e' },
    { tag: t.variableName, color: '#0b57d0' },
    { tag: t.function(t.variableName), color: '#1d1b20', fontWeight: '600' },
    { tag: t.number, color: '#a15c00' },
    { tag: t.string, color: '#a15c00' },
    { tag: t.atom, color: '#00695c' },
    { tag: t.paren, color: '#6b6b6b' },
    { tag: t.punctuation, color: '#6b6b6b' },
  ]),
);
