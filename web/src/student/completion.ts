// Completion of the student's API in the player editor, read from the API module's own
// source (api.ts): each member of `Game`, its signature and its comment. Nothing is kept by
// hand here, so the completion follows the API as it changes.

import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';

/** The members of the interface `name` in TypeScript source `source`, with their comments. */
export function apiMembers(source: string, name = 'Game'): Completion[] {
  const start = source.indexOf(`export interface ${name} {`);
  if (start < 0) return [];
  const body = source.slice(start, source.indexOf('\n}', start));
  const members: Completion[] = [];
  const member = /\/\*\* ([^\n]*?) \*\/\n\s*(readonly )?(\w+)(\??)(\([^\n]*?\))?: ([^\n]*);/g;
  for (const m of body.matchAll(member)) {
    const [, doc, , label, , params, type] = m;
    members.push({ label, type: params ? 'method' : 'property', detail: params ? `${params}: ${type}` : `: ${type}`, info: doc, apply: params ? `${label}(` : label });
  }
  return members;
}

/** Completes `game.` with the members of `Game`. */
export function gameCompletion(members: Completion[]): (context: CompletionContext) => CompletionResult | null {
  return (context) => {
    const word = context.matchBefore(/\bgame\.\w*/);
    if (!word) return null;
    return { from: word.from + 'game.'.length, options: members, validFor: /^\w*$/ };
  };
}
