import { describe, expect, it } from 'vitest';
import { autoOrientation, boardFacts, cellKey, detectGrid, groupFluents, layout, mapMoves, orderAxis, shareText } from './board';
import { COLOURS, MAX_MAPPED, abbreviations, boardStyle, chessPiece, colourHint, chessSymbol, cleanDisplayMap, inferEmpty, type DisplayMap } from './pieces';
import { parseTerm } from './terms';

describe('terms', () => {
  it('read canonical ground terms and refuse others', () => {
    expect(parseTerm('(cell 1 (f a) x)')).toEqual({ name: 'cell', args: ['1', { name: 'f', args: ['a'] }, 'x'] });
    expect(parseTerm('noop')).toBe('noop');
    expect(parseTerm('(cell 1')).toBeNull();
    expect(parseTerm('a b')).toBeNull();
  });
});

describe('grids', () => {
  const ttt = ['(cell 1 1 x)', '(cell 1 2 b)', '(cell 2 1 b)', '(cell 2 2 o)', '(cell 3 3 b)', '(control o)'];

  it('find a 3-argument coordinate relation and fill numeric gaps', () => {
    const g = detectGrid(ttt)!;
    expect(g.relation).toBe('cell');
    expect(g.xs).toEqual(['1', '2', '3']);
    expect(g.ys).toEqual(['1', '2', '3']);
    expect(g.pieces.get(cellKey('2', '2'))).toEqual(['o']);
    expect(g.others).toEqual(['(control o)']);
  });

  it('take empty rows from the domain and letters as coordinates', () => {
    const g = detectGrid(['(at a 1 wp)'], ['(at a 1 wp)', '(at b 4 bp)', '(at c 2 wp)'])!;
    expect(g.xs).toEqual(['a', 'b', 'c']);
    expect(g.ys).toEqual(['1', '2', '3', '4']);
  });

  it('find no grid where there is none', () => {
    expect(detectGrid(['(heap a 3)', '(heap b 4)', '(control first)'])).toBeNull();
    expect(detectGrid(['(cell 1 1 x)'])).toBeNull();
  });

  it('map cell moves, from-to moves and column moves to cells', () => {
    const g = detectGrid(ttt)!;
    const m = mapMoves(g, [['(mark 1 2)', '(move 1 1 2 1)', '(drop 3)', 'noop'], ['noop']]);
    expect(m.targets.get(cellKey('1', '2'))).toEqual([{ role: 0, move: '(mark 1 2)' }]);
    expect(m.sources.get(cellKey('1', '1'))).toEqual([{ role: 0, move: '(move 1 1 2 1)', to: cellKey('2', '1') }]);
    expect(m.targets.get(cellKey('3', '2'))).toEqual([{ role: 0, move: '(drop 3)' }]);
    expect([...m.targets.values()].flat().some((b) => b.move === 'noop')).toBe(false);
  });

  it('lay out rows and columns as oriented', () => {
    const g = detectGrid(ttt)!;
    const plain = layout(g, { swap: false, flip: false });
    expect(plain.rows).toEqual(['1', '2', '3']);
    expect(plain.key('3', '1')).toBe(cellKey('1', '3'));
    const turned = layout(g, { swap: true, flip: true });
    expect(turned.rows).toEqual(['3', '2', '1']);
    expect(turned.key('3', '1')).toBe(cellKey('3', '1'));
  });
});

describe('axis order', () => {
  const files = ['zulu', 'kilo', 'bravo', 'yankee', 'alpha', 'mike', 'echo', 'delta'];

  it('follows the game\'s own chain over the values, whatever they are called, and fills its gaps', () => {
    expect(orderAxis(['alpha', 'zulu', 'yankee'], [files])).toEqual(['zulu', 'kilo', 'bravo', 'yankee', 'alpha']);
    expect(orderAxis(new Set(files).values(), [['1', '2'], files])).toEqual(files);
    // Numbers follow a chain too: a game counting down.
    expect(orderAxis(['1', '3', '2'], [['3', '2', '1', '0']])).toEqual(['3', '2', '1']);
  });

  it('takes the shortest chain holding every value, and none that misses one', () => {
    const steps = Array.from({ length: 60 }, (_, i) => String(i));
    const rows = ['8', '7', '6', '5', '4', '3', '2', '1'];
    expect(orderAxis(['2', '5', '1'], [steps, rows])).toEqual(['5', '4', '3', '2', '1']);
    expect(orderAxis(['2', '5', '9'], [rows])).toEqual(['2', '3', '4', '5', '6', '7', '8', '9']);
    // A long chain is followed but its gaps are not filled beyond a board's side.
    expect(orderAxis(['50', '0'], [[...steps].reverse()])).toEqual(['50', '0']);
  });

  it('falls back to numbers, then to text with numbers in it compared as numbers', () => {
    expect(orderAxis(['3', '1', '40'])).toEqual(['1', '3', '40']);
    expect(orderAxis(['c', 'a', 'b'])).toEqual(['a', 'b', 'c']);
    expect(orderAxis(['a10', 'a2', 'a1'])).toEqual(['a1', 'a2', 'a10']);
  });

  it('lays out an obfuscated chess board, facts in any order, so that a move of one file moves one column', () => {
    const back = ['r', 'n', 'b', 'q', 'k', 'b', 'n', 'r'];
    const ranks = ['uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho'];
    const start: string[] = [];
    files.forEach((f, i) =>
      ranks.forEach((r, j) => start.push(`(sq ${f} ${r} ${j === 0 ? `w${back[i]}` : j === 1 ? 'wp' : j === 6 ? 'bp' : j === 7 ? `b${back[i]}` : 'e'})`)),
    );
    const shuffled = start.map((f, i) => [f, (i * 37) % 64] as const).sort((a, b) => a[1] - b[1]).map(([f]) => f);
    const g = detectGrid(shuffled, [], [ranks, files])!;
    expect(g.xs).toEqual(files);
    expect(g.ys).toEqual(ranks);
    // Without the chains the files would be sorted alphabetically: g1 → f3 would jump columns.
    expect(detectGrid(shuffled)!.xs).toEqual([...files].sort());
    const style = boardStyle(boardFacts(g, shuffled, [], ['white', 'black']));
    expect(style.scheme).toBe('chess');
    // White at the bottom: the first rank is the last row drawn.
    const o = autoOrientation(g, shuffled, style);
    expect(o).toEqual({ swap: false, flip: true });
    const { rows, cols } = layout(g, o);
    expect(rows.at(-1)).toBe('uno');
    const moves = mapMoves(g, [['(move echo uno mike tres)'], ['noop']]);
    const [{ to }] = moves.sources.get(cellKey('echo', 'uno'))!;
    const [tx, ty] = to.split('\u0000');
    expect(cols.indexOf(tx) - cols.indexOf('echo')).toBe(-1);
    expect(rows.indexOf(ty) - rows.indexOf('uno')).toBe(-2);
  });

  it('puts the side that moves first at the bottom whatever the names: its pieces are where its opening moves start', () => {
    // A disguised chess: opaque names, the first mover's men on the last two ranks listed,
    // ranks as the first argument; only the opening moves tell whose men are whose.
    const ranks = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
    const files = ['f1', 'f2', 'f3', 'f4'];
    const start: string[] = [];
    ranks.forEach((r, i) => files.forEach((f) => start.push(`(zq ${r} ${f} ${i <= 1 ? 'qa' : i >= 4 ? 'qb' : 'qe'})`)));
    const g = detectGrid(start, [], [ranks])!;
    const style = boardStyle(boardFacts(g, start, [], ['qx', 'qy']));
    const opening = [files.map((f) => `(qm q5 ${f} q4 ${f})`), ['qnoop']];
    const o = autoOrientation(g, start, style, opening);
    expect(o).toEqual({ swap: true, flip: false });
    expect(layout(g, o).rows.at(-1)).toBe('q6');
    // The second role moving first instead (its role listed second): still the mover at the bottom.
    const o2 = autoOrientation(g, start, style, [['qnoop'], files.map((f) => `(qm q2 ${f} q3 ${f})`)]);
    expect(layout(g, o2).rows.at(-1)).toBe('q1');
    // No opening move from a cell (tic-tac-toe): as the game lists it.
    expect(autoOrientation(g, start, style, [['(qmark q1 f1)'], ['qnoop']])).toEqual({ swap: false, flip: false });
  });

  it('puts white at the bottom when the ranks are the first argument', () => {
    const start: string[] = [];
    for (let r = 1; r <= 8; r++) for (let f = 1; f <= 8; f++) start.push(`(cell ${r} ${f} ${r === 8 ? (f === 5 ? 'wk' : 'wr') : r === 1 ? (f === 5 ? 'bk' : 'bq') : 'b'})`);
    const g = detectGrid(start)!;
    const o = autoOrientation(g, start, boardStyle(boardFacts(g, start, [], ['white', 'black'])));
    expect(o).toEqual({ swap: true, flip: false });
    expect(layout(g, o).rows.at(-1)).toBe('8');
  });
});

/** Fluents `(rel x y v)` for a side×side board filled by `at(x, y)`. */
function board(rel: string, side: number, at: (x: number, y: number) => string): string[] {
  const out: string[] = [];
  for (let x = 1; x <= side; x++) for (let y = 1; y <= side; y++) out.push(`(${rel} ${x} ${y} ${at(x, y)})`);
  return out;
}

/** The style of the board found in `start` (also the current state unless `now` is given). */
function styleOf(start: string[], roles: string[], opts: { domain?: string[]; now?: string[]; user?: DisplayMap } = {}) {
  const g = detectGrid(opts.now ?? start, opts.domain)!;
  return boardStyle(boardFacts(g, start, opts.domain ?? [], roles), opts.user);
}

describe('the empty value', () => {
  it('is a conventional blank name when the start has one', () => {
    expect(inferEmpty([['b'], ['b'], ['x']], 9)).toBe('b');
    // Pegs fill most holes of peg solitaire, but the hole is called so.
    expect(inferEmpty([['peg'], ['peg'], ['peg'], ['hole']], 4)).toBe('hole');
  });

  it('is otherwise the value filling most cells, if it fills half the board or more', () => {
    expect(inferEmpty([['qzx'], ['qzx'], ['qzx'], ['wiv']], 4)).toBe('qzx');
    expect(inferEmpty([['qzx'], ['qzx'], ['wiv'], ['wiv']], 4)).toBeNull();
    // Walls of a maze listed, free squares not: the walls are not the empty value.
    expect(inferEmpty([['wall'], ['wall'], ['robot']], 25)).toBeNull();
  });

  it('is inferred in an obfuscated game: renamed symbols, upper case, the empty marker not b', () => {
    const start = board('ZQRT', 8, (x, y) => (x >= 4 && x <= 5 && y >= 4 && y <= 5 ? ((x + y) % 2 ? 'VOLP' : 'KRAX') : 'MUNG'));
    const s = styleOf(start, ['ALPHA', 'OMEGA']);
    expect(s.empty).toBe('MUNG');
    expect(s.glyph('MUNG')).toEqual({ shape: 'blank' });
    // Two values on an 8×8 board: stones, black and white, on a chequered board.
    expect(s.scheme).toBe('stones');
    expect(s.chequered).toBe(true);
    expect(new Set([s.glyph('VOLP').colour, s.glyph('KRAX').colour])).toEqual(new Set([COLOURS.black, COLOURS.white]));
    // Only the inferred value is left undrawn: a piece called `b` appearing later is drawn.
    expect(s.glyph('b').shape).toBe('text');
  });

  it('falls back to blank names in games that list only occupied cells', () => {
    const start = board('cellholds', 8, (x) => (x <= 2 ? 'white' : x >= 7 ? 'black' : '')).filter((f) => !f.endsWith(' )'));
    const s = styleOf(start, ['white', 'black']);
    expect(s.empty).toBeNull();
    expect(s.glyph('white')).toEqual({ shape: 'stone', colour: COLOURS.white });
    expect(s.glyph('b').shape).toBe('blank');
  });
});

describe('pieces', () => {
  it('read chess piece names in any case and spelling', () => {
    const names = ['wk', 'BQ', 'white_king', 'whiteKing', 'king_black', 'black knight', '(white rook)', 'bb', 'wp', 'WHITE-PAWN', '(king white)'];
    expect(names.map((n) => chessPiece(n))).toEqual([
      { white: true, kind: 0 },
      { white: false, kind: 1 },
      { white: true, kind: 0 },
      { white: true, kind: 0 },
      { white: false, kind: 0 },
      { white: false, kind: 4 },
      { white: true, kind: 2 },
      { white: false, kind: 3 },
      { white: true, kind: 5 },
      { white: true, kind: 5 },
      { white: true, kind: 0 },
    ]);
    for (const n of ['b', 'black', 'white', 'x', 'wall', 'knight']) expect(chessPiece(n)).toBeNull();
    expect(chessSymbol({ white: true, kind: 0 })).toBe('♔\uFE0E');
    expect(chessSymbol({ white: false, kind: 5 })).toBe('♟\uFE0E');
  });

  it('draw a chess game with Unicode pieces on a chequered board', () => {
    const back = ['r', 'n', 'b', 'q', 'k', 'b', 'n', 'r'];
    const files = 'abcdefgh';
    const start: string[] = [];
    for (let f = 0; f < 8; f++)
      for (let r = 1; r <= 8; r++) {
        const v = r === 1 ? `w${back[f]}` : r === 2 ? 'wp' : r === 7 ? 'bp' : r === 8 ? `b${back[f]}` : 'b';
        start.push(`(cell ${files[f]} ${r} ${v})`);
      }
    const s = styleOf(start, ['white', 'black']);
    expect(s.scheme).toBe('chess');
    expect(s.chequered).toBe(true);
    expect(s.empty).toBe('b');
    expect(s.glyph('wk').text).toBe('♔\uFE0E');
    expect(s.glyph('bn').text).toBe('♞\uFE0E');
    expect(s.glyph('bb').text).toBe('♝\uFE0E');
  });

  it('draw cells with a value in two arguments, (cell a 1 white rook)', () => {
    const start = ['(cell a 1 white king)', '(cell b 1 white rook)', '(cell a 2 black king)', '(cell b 2 blank)'];
    const g = detectGrid(start)!;
    expect(g.pieces.get(cellKey('a', '1'))).toEqual(['white king']);
    const s = styleOf(start, ['white', 'black']);
    expect(s.scheme).toBe('chess');
    expect(s.glyph('black king').text).toBe('♚\uFE0E');
  });

  it('keep X and O marks on small boards and make stones of two values on large ones', () => {
    const ttt = styleOf(board('cell', 3, () => 'b'), ['x', 'o'], { domain: board('cell', 3, () => 'x').concat(board('cell', 3, () => 'o')) });
    expect(ttt.scheme).toBe('marks');
    expect(ttt.glyph('x')).toEqual({ shape: 'text', text: 'X', colour: '#0b57d0' });
    const go = styleOf(board('point', 9, (x, y) => (x === 5 && y === 5 ? 'x' : x === 4 && y === 4 ? 'o' : 'e')), ['o', 'x']);
    expect(go.scheme).toBe('stones');
    expect(go.chequered).toBe(false);
    // The first role plays black.
    expect(go.glyph('o').colour).toBe(COLOURS.black);
    expect(go.glyph('x').colour).toBe(COLOURS.white);
    // Names that say their colour keep it, whatever the order: checkers' wp and bp.
    const checkers = styleOf(board('cell', 8, (x, y) => (y <= 3 && (x + y) % 2 ? 'bp' : y >= 6 && (x + y) % 2 ? 'wp' : 'b')), ['white', 'black']);
    expect(checkers.glyph('wp').colour).toBe(COLOURS.white);
    expect(checkers.glyph('bp').colour).toBe(COLOURS.black);
    expect(['redstone', 'piece_blue', 'wk', 'bx', 'x', 'wall'].map(colourHint)).toEqual([COLOURS.red, COLOURS.blue, COLOURS.white, COLOURS.black, undefined, undefined]);
    // Colour names keep their colour.
    const othello = styleOf(board('cell', 8, (x, y) => (x === 4 && y === 4 ? 'red' : x === 5 && y === 5 ? 'black' : 'green')), ['black', 'red']);
    expect(othello.empty).toBe('green');
    expect(othello.glyph('red').colour).toBe(COLOURS.red);
  });
});

describe('draughts, cloths and names', () => {
  it('draw draughts as discs on the squares the men stand on, kings crowned', () => {
    // Checkers lite: only occupied squares listed, men on (column + row) even.
    const start: string[] = [];
    for (let x = 1; x <= 6; x++) for (let y = 1; y <= 6; y++) if ((x + y) % 2 === 0 && (y <= 2 || y >= 5)) start.push(`(cell ${x} ${y} ${y <= 2 ? 'white' : 'black'})`);
    const g = detectGrid(start)!;
    const s = boardStyle(boardFacts(g, start, [], ['white', 'black']));
    expect(s.scheme).toBe('draughts');
    expect(s.chequered).toBe(true);
    // (1, 1): indices 0 + 0: the men's squares are the dark ones.
    expect(s.darkParity).toBe(0);
    expect(s.glyph('white')).toEqual({ shape: 'stone', colour: COLOURS.white });
    expect(s.glyph('black')).toEqual({ shape: 'stone', colour: COLOURS.black });
    expect(autoOrientation(g, start, s)).toEqual({ swap: false, flip: true });
    // The corpus's checkers: wp, bp, and kings wk, bk that appear later.
    const corpus = board('cell', 8, (x, y) => ((x + y) % 2 === 1 ? (y <= 3 ? 'wp' : y >= 6 ? 'bp' : 'b') : 'b'));
    const c = styleOf(corpus, ['white', 'black'], { domain: ['(cell 1 8 wk)', '(cell 2 1 bk)'] });
    expect(c.scheme).toBe('draughts');
    expect(c.darkParity).toBe(1);
    expect(c.glyph('wp')).toEqual({ shape: 'stone', colour: COLOURS.white });
    expect(c.glyph('bk')).toEqual({ shape: 'stone', colour: COLOURS.black, text: '♚\uFE0E' });
    // Othello's four stones stand on both colours: not draughts.
    const othello = styleOf(board('cell', 8, (x, y) => (x === 4 && y === 4 ? 'w' : x === 4 && y === 5 ? 'k' : x === 5 && y === 5 ? 'w' : x === 5 && y === 4 ? 'k' : 'b')), ['k', 'w']);
    expect(othello.scheme).toBe('stones');
  });

  it('colour the board with an empty value that names a colour, never a brown chessboard', () => {
    const s = styleOf(board('cell', 8, (x, y) => (x === 4 && y === 4 ? 'white' : x === 5 && y === 4 ? 'black' : x === 4 && y === 5 ? 'black' : x === 5 && y === 5 ? 'white' : 'green')), ['black', 'white']);
    expect(s.empty).toBe('green');
    expect(s.cloth).toBe(COLOURS.green);
    expect(s.chequered).toBe(false);
    expect(s.glyph('white')).toEqual({ shape: 'stone', colour: COLOURS.white });
    expect(styleOf(board('cell', 8, () => 'b'), ['x', 'o']).cloth).toBeNull();
  });

  it('draw roles by initials that tell them apart, and abbreviate long names', () => {
    const krieg = styleOf(board('cell', 4, (x) => (x === 1 ? 'xplayer' : x === 2 ? 'oplayer' : 'b')), ['xplayer', 'oplayer']);
    expect(krieg.glyph('xplayer')).toEqual({ shape: 'text', text: 'X', colour: '#0b57d0' });
    expect(krieg.glyph('oplayer').text).toBe('O');
    const same = styleOf(board('cell', 3, (x) => (x === 1 ? 'bob' : x === 2 ? 'bill' : 'e')), ['bob', 'bill']);
    expect(same.glyph('bill').text).toBe('bill');
    const one = (name: string, max: number) => abbreviations([name], max).get(name);
    expect(one('pawn', 5)).toBe('pawn');
    expect(one('white_rook_moved', 5)).toBe('WRM');
    expect(one('blackKnight', 4)).toBe('BK');
    expect(one('supercalifragilistic', 5)).toBe('su');
  });

  it('abbreviate the names of a game to labels that are short and all different', () => {
    const check = (names: string[], max: number) => {
      const labels = abbreviations(names, max);
      expect([...labels.keys()].sort()).toEqual([...new Set(names)].sort());
      expect(new Set(labels.values()).size).toBe(labels.size);
      for (const [name, label] of labels) {
        expect([...label].length).toBeLessThanOrEqual(max);
        if ([...name].length <= max) expect(label).toBe(name);
      }
      return labels;
    };
    // Disguised chess pieces (tests/bench/variants.py): one letter in common, then hex.
    const disguised = check(['qf89fc7b', 'q140a0d3', 'qe8012a9', 'q7be8db1', 'q6935a13', 'qe80a11c', 'qca4fe6b', 'q5345874', 'q3909e26', 'b'], 4);
    expect(disguised.get('qf89fc7b')).toBe('qf');
    // Two that share their first four letters: numbered.
    expect([disguised.get('qe8012a9'), disguised.get('qe80a11c')]).toEqual(['qe81', 'qe82']);
    expect(disguised.get('b')).toBe('b');
    // Same initials, same beginnings, a name that is another's label: still all different.
    check(['white_rook', 'wide_road', 'WR', 'thumb_left', 'thumb_right', 'thumbnail', 'thumbs'], 3);
    check(['aaaaaa1', 'aaaaaa2', 'aaaaaa3', 'aa1', 'aa2'], 3);
    // Coordinates of a disguised board: none cut to 'thub…'.
    expect(Object.fromEntries(check(['thub', 'thumb', 'ingle', 'ingot'], 3))).toEqual({ thub: 'th1', thumb: 'th2', ingle: 'in1', ingot: 'in2' });
  });
});

describe('the display mapping', () => {
  it('wins over the automatic display', () => {
    const user: DisplayMap = { x: { shape: 'text', text: '★', colour: '#ff0000' }, b: { shape: 'stone', colour: '#00ff00' } };
    const s = styleOf(board('cell', 3, () => 'b'), ['x', 'o'], { user });
    expect(s.glyph('x')).toEqual(user.x);
    expect(s.auto('x')).toEqual({ shape: 'text', text: 'X', colour: '#0b57d0' });
    expect(s.glyph('b')).toEqual(user.b);
    expect(s.glyph('o').text).toBe('O');
    expect(s.glyph('constructor').text).toBe('constructor');
  });

  it('read from anywhere keeps only well-formed entries', () => {
    const dirty = {
      x: { shape: 'text', text: '♛♛♛♛♛♛♛♛♛♛', colour: '#ABCDEF' },
      o: { shape: 'stone', colour: 'red; background: url(evil)' },
      e: { shape: 'script' },
      n: 'nothing',
      b: { shape: 'blank' },
    };
    expect(cleanDisplayMap(dirty)).toEqual({ x: { shape: 'text', text: '♛♛♛♛♛♛♛♛', colour: '#abcdef' }, o: { shape: 'stone' }, b: { shape: 'blank' } });
    expect(cleanDisplayMap('x')).toEqual({});
    expect(Object.getPrototypeOf(cleanDisplayMap(JSON.parse('{"__proto__": {"shape": "blank"}}')))).toBe(Object.prototype);
    expect(cleanDisplayMap(null)).toEqual({});
    expect(Object.keys(cleanDisplayMap(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`v${i}`, { shape: 'blank' }]))))).toHaveLength(MAX_MAPPED);
  });
});

describe('belief boards', () => {
  it('carry the share of each piece of a cell, and of each fluent of a list', () => {
    const fluents = ['(cell 1 1 x)', '(cell 1 2 b)', '(cell 1 2 o)', '(cell 2 1 b)', '(cell 2 2 b)', '(step 2)'];
    const g = detectGrid(fluents, [], [], [1, 0.25, 0.75, 1, 1, 1])!;
    expect(g.pieces.get(cellKey('1', '2'))).toEqual(['b', 'o']);
    expect(g.shares.get(cellKey('1', '2'))).toEqual([0.25, 0.75]);
    expect(g.shares.get(cellKey('1', '1'))).toEqual([1]);
    // A state: every share is 1.
    expect(detectGrid(fluents)!.shares.get(cellKey('1', '2'))).toEqual([1, 1]);
    expect(groupFluents(['(car 1)', '(car 2)', '(chosen 1)'], [0.5, 0.5, 1])).toEqual([
      ['car', ['1', '2'], [0.5, 0.5]],
      ['chosen', ['1'], [1]],
    ]);
  });

  it('say shares as people read them', () => {
    expect([0.5, 1 / 3, 0.004, 0.996, 1].map(shareText)).toEqual(['50%', '33%', '<1%', '>99%', '100%']);
  });
});
