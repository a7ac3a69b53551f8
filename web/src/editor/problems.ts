// Under the editor: the status line (valid, with the roles, or how many errors), the list of
// problems (a click selects the text at fault), and which syntax the rules are written in.

import { byId, h } from '../dom';
import type { LoadResult } from '../engine/engine';
import type { Editor } from './editor';

export function renderProblems(res: LoadResult, editor: Editor): void {
  const status = byId('status');
  status.classList.toggle('bad', !res.ok);
  const w = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const text = res.ok
    ? `✓ Valid: ${w(res.roles.length, 'role')} (${res.roles.join(', ')})${res.warnings ? ` · ${w(res.warnings, 'warning')}` : ''}`
    : `✗ ${w(res.errors, 'error')}${res.warnings ? `, ${w(res.warnings, 'warning')}` : ''}`;
  status.replaceChildren(h('span', {}, text));
  // The status shows one line: all of it on hover.
  status.title = text;
  const list = byId('problems');
  list.replaceChildren(
    ...res.diagnostics.map((d) =>
      h(
        'button',
        { type: 'button', class: `problem ${d.severity}`, onclick: () => editor.reveal(d.from, d.to) },
        h('span', { class: 'where' }, `Line ${d.line}, column ${d.column}`),
        h('span', { class: 'sev' }, `${d.severity}[${d.code}]`),
        h('span', { class: 'what' }, d.message),
      ),
    ),
  );
}

export function renderSyntax(syntax: 'prefix' | 'infix'): void {
  byId('to-prefix').setAttribute('aria-pressed', String(syntax === 'prefix'));
  byId('to-infix').setAttribute('aria-pressed', String(syntax === 'infix'));
}
