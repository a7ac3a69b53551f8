// Ground terms as the engine prints them (canonical prefix text: `(cell 1 2 x)`, `noop`),
// read back into a small tree so that the page can find boards and map moves to cells.

export type Term = string | { name: string; args: Term[] };

/** Reads one canonical ground term; `null` if the text is not one. */
export function parseTerm(text: string): Term | null {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const read = (): Term | null => {
    const t = tokens[i++];
    if (t === undefined || t === ')') return null;
    if (t !== '(') return t;
    const name = tokens[i++];
    if (name === undefined || name === '(' || name === ')') return null;
    const args: Term[] = [];
    while (tokens[i] !== ')') {
      if (i >= tokens.length) return null;
      const a = read();
      if (a === null) return null;
      args.push(a);
    }
    i++;
    return { name, args };
  };
  const term = read();
  return term !== null && i === tokens.length ? term : null;
}

export function termName(t: Term): string {
  return typeof t === 'string' ? t : t.name;
}

export function termArgs(t: Term): Term[] {
  return typeof t === 'string' ? [] : t.args;
}

export function termText(t: Term): string {
  return typeof t === 'string' ? t : `(${t.name} ${t.args.map(termText).join(' ')})`;
}
