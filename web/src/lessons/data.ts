// The lessons: short guided steps from "roles and init" to "a complete game" and "find the
// bug". Each has its text, starter rules, and the requirements the engine checks
// (lessons.ts); then lessons on players, checked by matches (player-check.ts). Their solutions
// live in tests/browser/lessons/ and tests/browser/player-lessons.test.mjs, used only by the tests.

import { example } from '../editor/examples';

/** What the engine checks on the learner's rules. Moves (`after`) are joint moves, one
 * move per role in the order of the roles, played from the initial state. */
export type Check =
  | { kind: 'roles'; roles: string[] }
  | { kind: 'state'; after?: string[][]; has: string[]; lacks?: string[]; size?: number }
  | { kind: 'legal'; after?: string[][]; role: string; count?: number; has?: string[] }
  | { kind: 'outcome'; after: string[][]; goals: Record<string, number> }
  /** GDL-II: what `role` perceives with the last joint move of `after` (`has`), and not (`lacks`). */
  | { kind: 'sees'; after: string[][]; role: string; has?: string[]; lacks?: string[] }
  | { kind: 'ends'; playouts: number; maxSteps: number }
  | { kind: 'well-formed' };

export interface Requirement {
  text: string;
  check: Check;
}

/** A lesson on players: the student's player (the My players editor) plays `games` games of
 * `game` against core's player `opponent` or the lesson's `rival` (player-check.ts); its role alternates unless
 * `seat` fixes it. It passes when it never faults (a late, missing or illegal move) and:
 * `no-fault` nothing more; `varied` its first moves differ (`varied` distinct or more);
 * `wins` it wins `wins` games or more; `never-loses` it never loses. */
export interface MatchCheck {
  text: string;
  game: string;
  opponent: string;
  games: number;
  seat?: number;
  /** The code of the lesson's own player, in a sandbox of its own, at the opponent's seat
   * instead of `opponent`. */
  rival?: string;
  startClock: number;
  playClock: number;
  expect: 'no-fault' | 'varied' | 'wins' | 'never-loses';
  varied: number;
  wins: number;
  /** With `expect: 'wins'`: only a game won within this many joint moves counts. */
  within?: number;
}

export interface Lesson {
  id: string;
  title: string;
  /** Paragraphs. */
  text: string[];
  /** Rules to start from, or (a lesson on players, with `match`) a player's code. */
  starter: string;
  requirements: Requirement[];
  match?: MatchCheck;
}

const TTT_ROLES_AND_INIT = `(role x)
(role o)

(index 1)
(index 2)
(index 3)

(<= (init (cell ?x ?y b)) (index ?x) (index ?y))
(init (control x))
`;

const TTT_LEGAL = `${TTT_ROLES_AND_INIT}
(opponent x o)
(opponent o x)

(<= (legal ?p (mark ?x ?y))
    (true (control ?p))
    (true (cell ?x ?y b)))
(<= (legal ?p noop)
    (opponent ?p ?q)
    (true (control ?q)))
`;

const TTT_NEXT = `${TTT_LEGAL}
(<= (next (cell ?x ?y ?p))
    (does ?p (mark ?x ?y)))
(<= (next (cell ?x ?y ?s))
    (true (cell ?x ?y ?s))
    (not (marked ?x ?y)))
(<= (marked ?x ?y)
    (does ?p (mark ?x ?y)))
(<= (next (control ?q))
    (true (control ?p))
    (opponent ?p ?q))
`;

const X_WINS_ROW = [
  ['(mark 1 1)', 'noop'],
  ['noop', '(mark 1 2)'],
  ['(mark 2 1)', 'noop'],
  ['noop', '(mark 2 2)'],
  ['(mark 3 1)', 'noop'],
];

/** Race to five: the first player adds 2, the second 2, the first 1 and wins. */
const raceWon = (winner: string, loser: string): Requirement => ({
  text: `With 2, 2 and 1, ${winner} reaches 5 and wins.`,
  check: { kind: 'outcome', after: [['(add 2)', 'noop'], ['noop', '(add 2)'], ['(add 1)', 'noop']], goals: { [winner]: 100, [loser]: 0 } },
});

const bug = (id: string): string => example(id)?.text ?? '';

/** Monty Hall without its `sees` rules: the lesson on percepts starts here. */
const MONTY_WITHOUT_SEES = (example('montyhall')?.text ?? '')
  .replace(/^; -+ what each role sees\n(?:\(<= \(sees.*\n)+/m, '; ---------------------------------------------------------------- what each role sees\n; Write the sees rules here.\n')
  .replace(/^; Monty Hall\n/, '; Lesson 7: what each role sees (GDL-II)\n');

/** The candidate picks door 1 while the car goes behind door 2; the host opens door 3. */
const MONTY_OPEN_3 = [
  ['(choose 1)', '(hide 2)'],
  ['noop', '(open 3)'],
];

/** The starter of the lessons after one-step lookahead: that lesson's solution. */
const LOOKAHEAD = `// One-step lookahead: a move that wins at once, else the first.
function play(game) {
  const state = game.current();
  const moves = game.legal(state, game.role);
  for (const move of moves) {
    const joint = game.roles.map((r) => (r === game.role ? move : game.legal(state, r)[0]));
    if (game.goal(game.next(state, joint), game.role) === 100) return move;
  }
  return moves[0];
}
`;

/** The lesson's minimax, the rival of Monte Carlo: alpha-beta two moves deep, a state not over
 * valued 50, ties going to the centre. It takes a win in one move and stops a loss in one,
 * and sees no further. */
const SHALLOW_MINIMAX = `function search(game, state, me, depth, alpha, beta) {
  if (game.terminal(state)) return game.goal(state, me);
  if (depth === 0) return 50;
  const joints = game.roles.map((r) => game.legal(state, r));
  const mover = Math.max(0, joints.findIndex((ms) => ms.length > 1));
  const mine = game.roles[mover] === me;
  let best = mine ? -1 : 101;
  for (const move of joints[mover]) {
    const v = search(game, game.next(state, joints.map((ms, r) => (r === mover ? move : ms[0]))), me, depth - 1, alpha, beta);
    if (mine) alpha = Math.max(alpha, (best = Math.max(best, v)));
    else beta = Math.min(beta, (best = Math.min(best, v)));
    if (alpha >= beta) break;
  }
  return best;
}
function play(game) {
  const state = game.current(), me = game.role;
  const moves = game.legal(state, me);
  const values = moves.map((move) => search(game, game.next(state, game.roles.map((r) => (r === me ? move : game.legal(state, r)[0]))), me, 1, -1, 101));
  // Among the best, the move nearest the middle of the list (in connect four, the centre).
  const best = Math.max(...values), middle = (moves.length - 1) / 2;
  const ties = moves.map((_, i) => i).filter((i) => values[i] === best);
  return moves[ties.reduce((a, b) => (Math.abs(b - middle) < Math.abs(a - middle) ? b : a))];
}
`;

/** The starter of the lesson on factoring: minimax with alpha-beta over the whole game (the
 * lesson on minimax solved), which the lamps overwhelm. */
const WHOLE_MINIMAX = `// Minimax with alpha-beta over the whole game; the exact values of states are kept.
const exact = new Map();
function start(game) {
  exact.clear();
}
function value(game, state, me, alpha, beta) {
  if (game.terminal(state)) return game.goal(state, me);
  if (exact.has(state)) return exact.get(state);
  const joints = game.roles.map((r) => game.legal(state, r));
  const mover = Math.max(0, joints.findIndex((ms) => ms.length > 1));
  const mine = game.roles[mover] === me;
  let best = mine ? -1 : 101;
  const [a0, b0] = [alpha, beta];
  for (const move of joints[mover]) {
    const v = value(game, game.next(state, joints.map((ms, r) => (r === mover ? move : ms[0]))), me, alpha, beta);
    if (mine) { best = Math.max(best, v); alpha = Math.max(alpha, v); } else { best = Math.min(best, v); beta = Math.min(beta, v); }
    if (alpha >= beta) break;
  }
  // Only a value found inside the window it was searched with is exact.
  if (best > a0 && best < b0) exact.set(state, best);
  return best;
}
function play(game) {
  const state = game.current(), me = game.role;
  let choice = null, alpha = -1;
  for (const move of game.legal(state, me)) {
    const next = game.next(state, game.roles.map((r) => (r === me ? move : game.legal(state, r)[0])));
    const v = value(game, next, me, alpha, 101);
    if (choice === null || v > alpha) [choice, alpha] = [move, v];
  }
  return choice;
}
`;

export const lessons: Lesson[] = [
  {
    id: 'roles-init',
    title: 'Roles and the initial state',
    text: [
      'A GDL game starts by naming its players with role facts, such as (role x), and its initial state with init. The state is a set of facts called fluents: (cell 1 1 b) says that cell (1, 1) is blank, (control x) that x is to move.',
      'Add the second player, o, and make all nine cells of a 3 × 3 board blank at the start. Instead of nine init facts, one rule can do it: (<= (init (cell ?x ?y b)) (index ?x) (index ?y)) holds for every pair of indices.',
    ],
    starter: `; Lesson 1: roles and the initial state
; Name both players: x is here, add o.
(role x)

; The coordinates of the board.
(index 1)
(index 2)
(index 3)

; The initial state: x moves first. Add the nine blank cells (cell ?x ?y b).
(init (control x))
`,
    requirements: [
      { text: 'The roles are x and o, in that order.', check: { kind: 'roles', roles: ['x', 'o'] } },
      {
        text: 'The initial state has the nine blank cells and (control x): ten fluents.',
        check: { kind: 'state', has: ['(cell 1 1 b)', '(cell 2 3 b)', '(cell 3 3 b)', '(control x)'], size: 10 },
      },
    ],
  },
  {
    id: 'legal',
    title: 'Legal moves',
    text: [
      '(legal ROLE MOVE) says which moves a role may make. The body of a legal rule looks at the current state through (true FLUENT).',
      'Let the player in control mark any blank cell with (mark ?x ?y). In GDL every role moves in every step, so the other player needs a move too: noop ("no operation"). The facts (opponent x o) and (opponent o x) help to say "the other player is in control".',
    ],
    starter: `; Lesson 2: legal moves
${TTT_ROLES_AND_INIT}
(opponent x o)
(opponent o x)

; Write the legal moves here:
; the player in control may play (mark ?x ?y) on a blank cell,
; the other player plays noop.
`,
    requirements: [
      { text: 'x has 9 legal moves in the initial state.', check: { kind: 'legal', role: 'x', count: 9, has: ['(mark 2 2)'] } },
      { text: 'o has exactly one legal move in the initial state: noop.', check: { kind: 'legal', role: 'o', count: 1, has: ['noop'] } },
    ],
  },
  {
    id: 'next',
    title: 'The next state',
    text: [
      'After a move, the new state holds exactly the fluents F for which (next F) holds. (does ROLE MOVE) says which move a role made. A fluent that no next rule derives disappears, so untouched cells need a rule that keeps them: a "frame rule".',
      'Write next rules so that the marked cell gets the player\'s symbol, every other cell keeps its content, and control passes to the opponent.',
    ],
    starter: `; Lesson 3: the next state
${TTT_LEGAL}
; Write the next rules here: the marked cell, the other cells, control.
`,
    requirements: [
      {
        text: 'After x plays (mark 1 1): cell (1, 1) holds x, the other cells are still there, o is in control.',
        check: { kind: 'state', after: [['(mark 1 1)', 'noop']], has: ['(cell 1 1 x)', '(cell 2 2 b)', '(control o)'], lacks: ['(cell 1 1 b)', '(control x)'], size: 10 },
      },
      { text: 'Then o has 8 legal moves.', check: { kind: 'legal', after: [['(mark 1 1)', 'noop']], role: 'o', count: 8 } },
      {
        text: 'After o answers (mark 2 2), both marks are on the board and x is in control again.',
        check: { kind: 'state', after: [['(mark 1 1)', 'noop'], ['noop', '(mark 2 2)']], has: ['(cell 1 1 x)', '(cell 2 2 o)', '(control x)'], size: 10 },
      },
    ],
  },
  {
    id: 'goals',
    title: 'Ending the game: terminal and goal',
    text: [
      'terminal says when the game is over; (goal ROLE VALUE) gives each role a score from 0 to 100 in the final state. The rules for (line ?p), three of ?p\'s marks in a row, are written for you.',
      'Make the game end when a player has a line or the board is full. A player with a line scores 100 and the other 0; a full board without a line gives 50 to both. Tip: (not (line x)) holds when x has no line.',
    ],
    starter: `; Lesson 4: terminal and goal
${TTT_NEXT}
(<= (line ?p) (role ?p) (index ?y)
    (true (cell 1 ?y ?p)) (true (cell 2 ?y ?p)) (true (cell 3 ?y ?p)))
(<= (line ?p) (role ?p) (index ?x)
    (true (cell ?x 1 ?p)) (true (cell ?x 2 ?p)) (true (cell ?x 3 ?p)))
(<= (line ?p) (role ?p)
    (true (cell 1 1 ?p)) (true (cell 2 2 ?p)) (true (cell 3 3 ?p)))
(<= (line ?p) (role ?p)
    (true (cell 1 3 ?p)) (true (cell 2 2 ?p)) (true (cell 3 1 ?p)))
(<= open (true (cell ?x ?y b)))

; Write terminal and goal here.
`,
    requirements: [
      { text: 'When x completes the first row, the game is over: x scores 100, o 0.', check: { kind: 'outcome', after: X_WINS_ROW, goals: { x: 100, o: 0 } } },
      { text: 'The game must terminate: 200 random games all end within 9 moves.', check: { kind: 'ends', playouts: 200, maxSteps: 9 } },
      { text: 'The game is well formed: it ends, every role can move, every final state has one goal per role, and each role can win.', check: { kind: 'well-formed' } },
    ],
  },
  {
    id: 'simultaneous',
    title: 'Simultaneous moves',
    text: [
      'In GDL all roles move at once in every step; taking turns is only a convention (noop). Without control and noop, both players really choose together.',
      'Write one round of rock-paper-scissors for left and right: both may throw rock, paper or scissors; the next state remembers the throws, with (threw ROLE THROW); the game ends after the round. The winner scores 100 and the loser 0, equal throws 50 each. The facts (beats A B) are given.',
    ],
    starter: `; Lesson 5: simultaneous moves
(role left)
(role right)

(throw rock)
(throw paper)
(throw scissors)

(beats rock scissors)
(beats scissors paper)
(beats paper rock)

(init start)

; Write legal, next, terminal and goal here.
`,
    requirements: [
      { text: 'left can throw rock, paper or scissors at the start.', check: { kind: 'legal', role: 'left', count: 3, has: ['rock', 'paper', 'scissors'] } },
      { text: 'right has the same three moves.', check: { kind: 'legal', role: 'right', count: 3, has: ['rock', 'paper', 'scissors'] } },
      { text: 'Rock against scissors: the game is over, left scores 100, right 0.', check: { kind: 'outcome', after: [['rock', 'scissors']], goals: { left: 100, right: 0 } } },
      { text: 'Paper against paper: 50 each.', check: { kind: 'outcome', after: [['paper', 'paper']], goals: { left: 50, right: 50 } } },
    ],
  },
  {
    id: 'complete',
    title: 'A complete game',
    text: [
      'Now a whole game on your own: Race to five. A counter starts at 0, (count 0). The players first and second take turns; the one in control adds 1 or 2 with (add 1) or (add 2), never passing 5; the other plays noop. Whoever makes the counter exactly 5 wins 100, the other gets 0.',
      'The succ facts give you arithmetic: (succ 2 3) says 3 follows 2. A rule (plus ?n 2 ?m) can be built from two succ steps.',
    ],
    starter: `; Lesson 6: a complete game, race to five
(role first)
(role second)

(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)

; The initial state, legal, next, terminal and goal: all yours.
`,
    requirements: [
      { text: 'The initial state is (count 0) with first in control.', check: { kind: 'state', has: ['(count 0)', '(control first)'], size: 2 } },
      { text: 'first may add 1 or 2 at the start.', check: { kind: 'legal', role: 'first', count: 2, has: ['(add 1)', '(add 2)'] } },
      raceWon('first', 'second'),
      { text: 'The game is well formed (the Analysis pane shows the details).', check: { kind: 'well-formed' } },
    ],
  },
  {
    id: 'sees',
    title: 'What each role sees (GDL-II)',
    text: [
      'GDL-II adds two things to GDL. The role random is nature: nobody sits there, and each of its legal moves is played with equal chance. And (sees ROLE PERCEPT) says what a role perceives when a joint move is played: a role knows its own moves and its percepts, nothing else. Without any sees rule a GDL-II role sees nothing at all.',
      'Here is Monty Hall without its percepts. Write the sees rules: when the host (random) plays (open ?d), the candidate sees (opened ?d); at the last step, whatever the candidate plays, it sees where the car was, (car ?d). The candidate must never see (car ?d) before that: it would make the game trivial.',
    ],
    starter: MONTY_WITHOUT_SEES,
    requirements: [
      { text: 'When the host opens door 3, the candidate sees (opened 3).', check: { kind: 'sees', after: MONTY_OPEN_3, role: 'candidate', has: ['(opened 3)'], lacks: ['(opened 2)', '(car 2)'] } },
      { text: 'When the car is hidden, the candidate does not see where.', check: { kind: 'sees', after: MONTY_OPEN_3.slice(0, 1), role: 'candidate', lacks: ['(car 2)', '(hide 2)', '(opened 2)'] } },
      { text: 'After its last move the candidate sees the car behind door 2.', check: { kind: 'sees', after: [...MONTY_OPEN_3, ['switch', 'noop']], role: 'candidate', has: ['(car 2)'] } },
      { text: 'Switching from door 1 to door 2 wins: the candidate scores 100.', check: { kind: 'outcome', after: [...MONTY_OPEN_3, ['switch', 'noop']], goals: { candidate: 100 } } },
    ],
  },
  {
    id: 'bug-unsafe',
    title: 'Find the bug: an unsafe rule',
    text: [
      'This race to five does not load. Read the error under the editor: it names the rule and the variable. A rule is safe when every variable in it gets its values from a positive condition of its body.',
      'Fix the rule so that the game loads and plays as its comments say.',
    ],
    starter: bug('bug-unsafe'),
    requirements: [
      { text: 'right plays noop while left is in control.', check: { kind: 'legal', role: 'right', count: 1, has: ['noop'] } },
      raceWon('left', 'right'),
      { text: 'The game is well formed.', check: { kind: 'well-formed' } },
    ],
  },
  {
    id: 'bug-unreachable',
    title: 'Find the bug: a goal nobody reaches',
    text: [
      'This tic-tac-toe loads and plays, yet something is wrong: run the Analysis pane and read which check fails. A game is well formed only if every role can score 100 on some line of play.',
      'Find the rules that make o\'s win impossible and fix them.',
    ],
    starter: bug('bug-unreachable'),
    requirements: [
      {
        text: 'When o completes the second column, o scores 100 and x 0.',
        check: {
          kind: 'outcome',
          after: [['(mark 1 1)', 'noop'], ['noop', '(mark 2 1)'], ['(mark 1 2)', 'noop'], ['noop', '(mark 2 2)'], ['(mark 3 3)', 'noop'], ['noop', '(mark 2 3)']],
          goals: { x: 0, o: 100 },
        },
      },
      { text: 'The game is well formed: each role can win.', check: { kind: 'well-formed' } },
    ],
  },
  ...playerLessons(),
];

/** Tic-tac-toe, where x (to move) wins at once with (mark 1 3) and nowhere else. */
function oneMoveFromWinning(ttt: string): string {
  const cells = ['(cell 1 1 x)', '(cell 1 2 x)', '(cell 2 1 o)', '(cell 2 2 o)', '(cell 1 3 b)', '(cell 2 3 b)', '(cell 3 1 b)', '(cell 3 2 b)', '(cell 3 3 b)'];
  return ttt.replace('(<= (init (cell ?c ?r b)) (index ?c) (index ?r))', cells.map((c) => `(init ${c})`).join('\n'));
}

/** The lessons on players: the student writes a player in the My players editor (Play tab)
 * and Check plays it against one of core's players (player-check.ts). */
function playerLessons(): Lesson[] {
  const ttt = example('tictactoe')?.text ?? '';
  const connectFour = example('connectfour')?.text ?? '';
  const lamps = example('lamptictactoe')?.text ?? '';
  const clocks = { startClock: 5, playClock: 3, varied: 0, wins: 0 };
  return [
    {
      id: 'player-legal',
      title: 'A legal player',
      text: [
        "A player is JavaScript: play(game) returns one of its role's legal moves, as text. Write it in the Play tab's My players box (the API is in its completion: type game.). Check plays it against a random player on tic-tac-toe, refereed as any remote player: a late, missing or illegal move is a fault.",
        'This starter always marks the same cell, which is illegal once that cell is taken. Make it play a legal move every turn: the first of game.legal(game.current(), game.role) will do.',
      ],
      starter: "// Always the top-left cell: illegal once it is taken.\nfunction play(game) {\n  return '(mark 1 1)';\n}\n",
      requirements: [],
      match: { text: 'In 4 games of tic-tac-toe against random, every move is legal and in time.', game: ttt, opponent: 'random', games: 4, expect: 'no-fault', ...clocks },
    },
    {
      id: 'player-random',
      title: 'A random player',
      text: [
        'A legal player that always takes the first move is easy to beat: it plays the same game every time. Make it choose among its legal moves at random: game.random(n) draws a whole number from 0 to n - 1 (drawn from the seed of the match, so a run of games can be replayed).',
      ],
      starter: '// The first legal move, every time.\nfunction play(game) {\n  return game.legal(game.current(), game.role)[0];\n}\n',
      requirements: [],
      match: { text: 'In 10 games of tic-tac-toe, it opens with at least 3 different moves, all legal.', game: ttt, opponent: 'random', games: 10, expect: 'varied', ...clocks, varied: 3 },
    },
    {
      id: 'player-lookahead',
      title: 'One-step lookahead',
      text: [
        'A random player misses a win in front of it. Look one step ahead: for each of your legal moves, build the joint move (the others play their only move here, noop) with game.next(state, joint), and take a move after which game.goal(next, game.role) is 100.',
        "Check plays x in a tic-tac-toe that starts one move from x's win (and o's): x must take it every game.",
      ],
      starter: '// A random player.\nfunction play(game) {\n  const moves = game.legal(game.current(), game.role);\n  return moves[game.random(moves.length)];\n}\n',
      requirements: [],
      match: { text: 'Playing x, one move from winning, it wins all 5 games against random at its first move.', game: oneMoveFromWinning(ttt), opponent: 'random', games: 5, seat: 0, expect: 'wins', ...clocks, wins: 5, within: 1 },
    },
    {
      id: 'player-minimax',
      title: 'Minimax with alpha-beta',
      text: [
        'Look to the end of the game: minimax gives a state the goal you get when both sides play their best (you take the highest value, your opponent the lowest), and alpha-beta skips the moves that cannot change the result. States are numbers: a Map of the values already found saves much work (empty it in start(game): the numbers of states and your role hold for one match only).',
        'Tic-tac-toe is small enough to search whole within the play clock (game.timeLeft() says what is left). Check plays 20 games against random, taking x and o in turn.',
      ],
      starter: LOOKAHEAD,
      requirements: [],
      match: { text: 'In 20 games of tic-tac-toe against random, it never loses.', game: ttt, opponent: 'random', games: 20, expect: 'never-loses', ...clocks, playClock: 10 },
    },
    {
      id: 'player-heuristic',
      title: 'Depth-limited search with a heuristic',
      text: [
        'Connect four is too big to search to the end. Search a few moves deep, as in minimax, and where you stop give the state a value between 0 and 100 from a heuristic: mobility (how many moves you have against your opponent), focus (how few your opponent has), goal proximity (game.goal of a state not over yet), or what you know of the game (discs near the centre count more: game.fluents(state) lists them). Watch game.timeLeft(): a deeper search that runs out of time loses its move.',
        'Check plays 10 games of connect four against random, as red and yellow in turn.',
      ],
      starter: LOOKAHEAD,
      requirements: [],
      match: { text: 'In 10 games of connect four against random, it wins 9 or more.', game: connectFour, opponent: 'random', games: 10, expect: 'wins', ...clocks, wins: 9 },
    },
    {
      id: 'player-montecarlo',
      title: 'Monte Carlo search',
      text: [
        'A heuristic is a guess written by hand. Monte Carlo search guesses by playing: for each of your moves, play many random games to the end from the state it leads to (game.playouts(state, n) gives their mean goals, fast), and take the move whose games went best. Keep going while game.timeLeft() allows, with a margin. MCTS goes further: it grows a tree of the moves tried, and spends its playouts on the promising ones (UCT).',
        "Check plays 4 games of connect four against the lesson's minimax, which looks two moves ahead (it takes a win and stops a loss in one move), as red and yellow in turn.",
      ],
      starter: LOOKAHEAD,
      requirements: [],
      match: { text: "In 4 games of connect four against the lesson's minimax, it wins 3 or more.", game: connectFour, opponent: 'random', rival: SHALLOW_MINIMAX, games: 4, expect: 'wins', ...clocks, wins: 3 },
    },
    {
      id: 'player-factoring',
      title: 'Factoring: search what decides the game',
      text: [
        'This tic-tac-toe has sixteen lamps beside the board: instead of marking a cell, the player in control may switch a lamp on. Neither the end of the game nor any goal reads the lamps, yet a search of the whole game tries every lamp at every turn, in every order: each lamp doubles the states. The starter, the minimax that solved tic-tac-toe at once, now runs out of its clock at its first move.',
        'game.factors() lists the independent subgames found in the rules (factoring, Cox et al. 2009): here the board, and each lamp apart. Each has its moves per role, its fluents, and relevant: whether the end or a goal reads it. A move of a factor that is not relevant changes nothing the outcome depends on: leave those moves out of your search (keep them when nothing else is legal), and the search is as small as plain tic-tac-toe.',
        'Why it is safe here: a lamp is a pass, and in tic-tac-toe a pass never helps (an extra mark of yours never hurts you), so an opponent who switches a lamp only hands you a move. In a game where passing can matter (zugzwang), leaving such moves out is a heuristic. And when several factors decide the game together, as the two boards of double tic-tac-toe that share the turn, searching each board apart and playing on the best one is only a heuristic: a threat on one board must be answered there, or the move on the other board must come with a bigger threat.',
        'Check plays 4 games against MCTS (uct:1000), as x and o in turn, with 3 seconds a move.',
      ],
      starter: WHOLE_MINIMAX,
      requirements: [],
      match: { text: 'In 4 games of tic-tac-toe with lamps against MCTS, it never loses and never runs out of time.', game: lamps, opponent: 'uct:1000', games: 4, expect: 'never-loses', ...clocks },
    },
  ];
}
