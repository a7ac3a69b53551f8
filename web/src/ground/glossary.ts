// The words of the Grounded rules pane, each in a sentence a student understands: a list
// that folds open under the stages, and the link each stage has to the word it is about.

import { h } from '../dom';

/** Each word and what it means. */
const WORDS: [string, string][] = [
  ['rule', "A rule (<= head condition …) says that its head holds whenever all its conditions hold."],
  ['fact', 'A fact, or atom, is a relation with its values, such as (cell 1 1 x): in a given position it holds or it does not.'],
  ['fluent', 'A fluent is a fact of the state, read with (true …); the moves change which fluents hold from one step to the next.'],
  ['static', 'A static relation is one no move can change, such as (succ 1 2): it is worked out once, before the game starts.'],
  ['variable', 'A variable is a name starting with ?, such as ?x, that stands for any value the rule can use there.'],
  ['instance', 'An instance of a rule is the rule with a value put in place of each of its variables.'],
  ['ground', 'Ground means without variables: grounding writes every rule once for each of its instances, so that playing is only looking facts up.'],
  ['base and input', "The game's 'base' facts are every fluent a state may hold, and its 'input' facts every move a role may make."],
  ['network', 'A propositional network is the ground rules wired as a circuit: each fact is a wire, each rule an AND gate, each relation with several rules an OR gate.'],
];

/** The word each stage is about. */
const STAGE_WORDS: Record<string, string> = {
  normalised: 'rule',
  fixed: 'static',
  specialised: 'static',
  decomposed: 'variable',
  domains: 'base and input',
  instantiated: 'instance',
  pruned: 'rule',
  unfolded: 'variable',
  ground: 'ground',
  network: 'network',
};

const id = (word: string) => `gv-word-${word.replace(/\s+/g, '-')}`;

/** The folded list of words. */
export function glossary(): HTMLElement {
  return h(
    'details',
    { class: 'gv-glossary', id: 'gv-glossary' },
    h('summary', {}, 'Words used here'),
    h('dl', {}, ...WORDS.map(([word, text]) => h('div', { id: id(word), tabindex: '-1' }, h('dt', {}, word), h('dd', {}, text)))),
  );
}

/** A link from stage `stage` to the word it is about (opens the list there), or nothing. */
export function stageWord(stage: string): HTMLElement | string {
  const word = STAGE_WORDS[stage];
  if (!word) return '';
  const open = () => {
    const list = document.getElementById('gv-glossary') as HTMLDetailsElement | null;
    const entry = document.getElementById(id(word));
    if (!list || !entry) return;
    list.open = true;
    entry.scrollIntoView({ block: 'nearest' });
    entry.focus();
  };
  return h('button', { type: 'button', class: 'link gv-stage-word', onclick: open }, `What is “${word}”?`);
}
