// Explanations in the play pane: why an atom holds (the rule instance and the facts that
// satisfy its body) or does not (each rule's first failing condition). Each premise about
// an atom opens its own explanation below it, one level at a time.

import { h } from '../dom';
import type { Explanation } from '../engine/engine';

export interface ExplainActions {
  /** The explanation of `atom` at `step`, or an error message. */
  explain(atom: string, step: number): Explanation | string;
  /** Shows line `line` of the rules in the editor. */
  reveal(line: number): void;
  /** Puts `pattern` (a condition with variables) in the question box, to ask about an instance. */
  ask(pattern: string): void;
}

function where(e: Explanation): string {
  if (e.in_move) return `in move ${e.step + 1}`;
  return e.step === 0 ? 'at the start' : `after move ${e.step}`;
}

/** One explanation, with buttons that unfold the premises' explanations. */
export function explanationView(e: Explanation, actions: ExplainActions): HTMLElement {
  const derivations = e.derivations.map((d) => {
    const premises = d.premises.map((p, i) => {
      const failing = d.failed === i;
      const nested = h('div', { class: 'why-nested' });
      let open = false;
      const toggle =
        p.atom !== null &&
        h(
          'button',
          {
            type: 'button',
            class: 'why-open link',
            'aria-expanded': 'false',
            title: `Why ${p.atom_holds ? '' : 'not '}${p.atom}?`,
            onclick: (ev: Event) => {
              const b = ev.currentTarget as HTMLButtonElement;
              open = !open;
              b.setAttribute('aria-expanded', String(open));
              b.textContent = open ? 'hide' : 'why?';
              if (!open) {
                nested.replaceChildren();
                return;
              }
              const x = actions.explain(p.atom as string, p.step);
              nested.replaceChildren(typeof x === 'string' ? h('p', { class: 'warn' }, x) : explanationView(x, actions));
            },
          },
          'why?',
        );
      // A condition with variables: ask about one of its instances.
      const pattern = p.atom === null && p.literal.includes('?') ? p.literal.replace(/^\(not (.*)\)$/, '$1') : null;
      const instance = pattern !== null && h('button', { type: 'button', class: 'why-open link', title: `Ask why about an instance of ${pattern}`, onclick: () => actions.ask(pattern) }, 'ask about an instance');
      return h(
        'li',
        { class: `premise ${p.holds ? 'yes' : 'no'}${failing ? ' failing' : ''}` },
        h('span', { class: 'mark', 'aria-label': p.holds ? 'holds' : 'does not hold' }, p.holds ? '✓' : '✗'),
        h('code', {}, p.literal),
        failing ? h('span', { class: 'fails' }, ' fails here') : '',
        toggle || instance ? ' ' : '',
        toggle,
        instance,
        nested,
      );
    });
    const source =
      d.line > 0
        ? h('button', { type: 'button', class: 'link rule-line', onclick: () => actions.reveal(d.line), title: 'Show this rule in the editor' }, `Rule on line ${d.line}`)
        : h('span', { class: 'muted' }, 'By definition');
    return h(
      'div',
      { class: 'derivation' },
      h('p', { class: 'rule' }, source, ': ', h('code', {}, d.line > 0 ? d.instance : d.rule)),
      premises.length ? h('ul', { class: 'premises' }, ...premises) : '',
      d.note ? h('p', { class: 'muted' }, d.note) : '',
    );
  });
  return h(
    'div',
    { class: `why-node ${e.holds ? 'yes' : 'no'}`, 'data-atom': e.atom },
    h('p', { class: 'why-summary' }, h('strong', {}, e.holds ? '✓ ' : '✗ '), e.summary, h('span', { class: 'muted' }, ` (${where(e)})`)),
    ...derivations,
  );
}
