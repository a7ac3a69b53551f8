import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlayerGame, RefereeMatch, initSync, messageKind } from '../../pkg/gdl_wasm.js';
import { PlayerRunner, STARTER, loadPlayer, type Game, type PlayerEngine } from './api';
import { apiMembers } from './completion';
import apiSource from './api.ts?raw';

const game = (name: string) => readFileSync(new URL(`../../../games/${name}.kif`, import.meta.url), 'utf8');
const engine: PlayerEngine = { startGame: (start, seed) => new PlayerGame(start, seed), messageKind };

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../pkg/gdl_wasm_bg.wasm', import.meta.url)) });
});

/** Plays a whole match of `rules` refereed by core between `players` (one runner per role):
 * the faults, as core words them. */
function referee(rules: string, players: PlayerRunner[], seed = 3): string[] {
  const m = new RefereeMatch(rules, 'm1', 10, 3, seed);
  const faults: string[] = [];
  players.forEach((p, r) => expect(p.answer(m.startMessage(r)).reply).toBe('ready'));
  while (!m.over) {
    const joint = players.map((p, r) => {
      const a = p.answer(m.playMessage(r));
      const judged = m.answered(r, a.reply ?? undefined, a.failed === null ? null : { kind: 'failed', why: a.failed }, 1);
      if (judged.fault) faults.push(judged.fault);
      return judged.move;
    });
    m.advance(joint);
  }
  players.forEach((p, r) => expect(p.answer(m.stopMessage(r)).reply).toBe('done'));
  m.free();
  return faults;
}

describe("the student's player API", () => {
  it('plays tic-tac-toe to the end with the starter player, without a fault', () => {
    const players = [1, 2].map((seed) => new PlayerRunner(engine, loadPlayer(STARTER), () => performance.now(), seed));
    expect(referee(game('tictactoe'), players)).toEqual([]);
  });

  it("draws the starter's moves from the seed: the same seed replays a run, each match differs", () => {
    // x's opening move in each of `matches` matches, x played by the starter seeded `seed`.
    const openings = (seed: number, matches: number) => {
      const x = new PlayerRunner(engine, loadPlayer(STARTER), () => performance.now(), seed);
      const o = new PlayerRunner(engine, loadPlayer(STARTER), () => performance.now(), 99);
      return Array.from({ length: matches }, (_, k) => {
        const m = new RefereeMatch(game('tictactoe'), `m${k}`, 10, 3, 1);
        x.answer(m.startMessage(0));
        o.answer(m.startMessage(1));
        const move = x.answer(m.playMessage(0)).reply;
        x.answer(m.abortMessage());
        o.answer(m.abortMessage());
        m.free();
        return move;
      });
    };
    const run = openings(5, 12);
    expect(openings(5, 12)).toEqual(run);
    expect(new Set(run).size).toBeGreaterThan(2);
  });

  it('has a failing player replaced by the referee, in its words', () => {
    const broken = new PlayerRunner(engine, { play: () => { throw new Error('oops'); } }, () => performance.now());
    const faults = referee(game('tictactoe'), [broken, new PlayerRunner(engine, loadPlayer(STARTER), () => performance.now())]);
    expect(faults.length).toBeGreaterThan(0);
    expect(faults[0]).toContain('the player failed: oops');
  });

  it('searches: legal, next, terminal, goals and playouts on the engine', () => {
    const seen: Record<string, unknown> = {};
    const runner = new PlayerRunner(engine, {
      play: (g: Game) => {
        const s = g.current();
        const moves = g.legal(s, g.role);
        const after = g.next(s, g.roles.map((r) => g.legal(s, r)[0]));
        seen.roles = g.roles;
        seen.moves = moves.length;
        seen.fluents = g.fluents(s);
        seen.terminal = g.terminal(after);
        seen.goal = g.goal(s, g.role);
        const means = g.playouts(s, 200);
        seen.means = means.length;
        seen.sum = Math.round(means.reduce((a, b) => a + b, 0));
        g.log('thought', { playouts: 200 });
        return moves[0];
      },
    }, () => performance.now());
    const m = new RefereeMatch(game('tictactoe'), 'm1', 10, 3, 1);
    runner.answer(m.startMessage(0));
    const a = runner.answer(m.playMessage(0));
    expect(a.reply).toBe('(mark 1 1)');
    expect(a.logs.map((l) => [l.step, l.text, l.values])).toEqual([[0, 'thought', { playouts: 200 }]]);
    expect(seen).toMatchObject({ roles: ['x', 'o'], moves: 9, terminal: false, goal: 50, means: 2 });
    expect(seen.fluents).toContain('(cell 1 1 b)');
    // Tic-tac-toe's goals add up to 100 in every ending.
    expect(seen.sum).toBe(100);
    m.free();
  });

  it('gives the factors of the game: moves per role and fluents of each independent subgame', () => {
    const found: ReturnType<Game['factors']>[] = [];
    const runner = (rules: string, role: number) => {
      const m = new RefereeMatch(rules, 'm1', 10, 3, 1);
      const r = new PlayerRunner(engine, { play: (g) => (found.push(g.factors()), g.legal(g.hidden ? g.guesses(1)[0] : g.current(), g.role)[0]) }, () => performance.now());
      r.answer(m.startMessage(role));
      expect(r.answer(m.playMessage(role)).failed).toBe(null);
      m.free();
    };
    runner(game('doubletictactoe'), 0);
    runner(game('tictactoe'), 1);
    runner(game('lamptictactoe'), 0);
    const [double, single, lamps] = found;
    expect(double.length).toBe(2);
    expect(double.map((f) => [f.moves.x.length, f.moves.o.length, f.fluents.length])).toEqual([[9, 9, 27], [9, 9, 27]]);
    const boards = double.map((f) => new Set(f.moves.x.map((mv) => mv.split(' ')[1])));
    expect(boards.map((b) => [...b])).toEqual([['1'], ['2']]);
    expect(double[0].fluents.every((fl) => fl.startsWith(`(cell ${[...boards[0]][0]} `))).toBe(true);
    expect(single.length).toBe(1);
    expect(single[0].moves.x).toContain('(mark 1 1)');
    // Both boards decide the outcome; of the board and its sixteen lamps, only the board does.
    expect(double.map((f) => f.relevant)).toEqual([true, true]);
    expect(lamps.map((f) => f.relevant)).toEqual([true, ...Array(16).fill(false)]);
    expect(lamps[1].moves.o).toEqual(['(switch 1)']);
  });

  it('says why a player fails, and which call was wrong', () => {
    const runner = new PlayerRunner(engine, { play: (g) => g.legal(g.current(), 'nobody')[0] }, () => performance.now());
    const m = new RefereeMatch(game('tictactoe'), 'm1', 10, 3, 1);
    runner.answer(m.startMessage(0));
    expect(runner.answer(m.playMessage(0)).failed).toBe("the player failed: there is no role 'nobody': the roles are x, o");
    expect(() => loadPlayer('function start() {}')).toThrow('the player defines no function play(game)');
    m.free();
  });

  it('in a GDL-II game gives only the role its history: the true state is out of reach', () => {
    // Monty Hall: the candidate picks door 1; the host hides the car behind door 1 or door 2,
    // and opens door 3 both times. The candidate's view must be the same in both games.
    const rules = game('montyhall');
    const views: string[] = [];
    for (const car of [1, 2]) {
      const m = new RefereeMatch(rules, 'm1', 10, 3, 1);
      let view = '';
      const runner = new PlayerRunner(engine, {
        play: (g) => {
          expect(g.hidden).toBe(true);
          expect(() => g.current()).toThrow('this game hides the position');
          const guesses = g.guesses(20).map((s) => g.fluents(s).join(' ')).sort();
          view = JSON.stringify({ history: g.history(), guesses: [...new Set(guesses)], keys: Object.keys(g).sort() });
          return g.step === 0 ? '(choose 1)' : g.legal(g.guesses(1)[0], g.role)[0];
        },
      }, () => performance.now(), 5);
      runner.answer(m.startMessage(0));
      for (const joint of [['(choose 1)', `(hide ${car})`], ['noop', '(open 3)']]) {
        expect(runner.answer(m.playMessage(0)).failed).toBe(null);
        m.advance(joint);
      }
      expect(runner.answer(m.playMessage(0)).failed).toBe(null);
      views.push(view);
      m.free();
    }
    expect(views[0]).toBe(views[1]);
    // The guesses are the states the candidate cannot tell apart: the car behind 1 or 2.
    expect(views[0]).toContain('(car 1)');
    expect(views[0]).toContain('(car 2)');
    expect(views[0]).not.toContain('(car 3)');
  });

  it("completes the API from the API module's own source", () => {
    const members = apiMembers(apiSource);
    expect(members.map((m) => m.label)).toEqual(['roles', 'role', 'step', 'hidden', 'initial', 'current', 'legal', 'next', 'terminal', 'goal', 'goals', 'fluents', 'playout', 'playouts', 'history', 'guesses', 'random', 'factors', 'timeLeft', 'log']);
    expect(members.find((m) => m.label === 'legal')).toMatchObject({ detail: '(state: State, role: string): string[]', info: 'The legal moves of `role` in `state`, sorted.' });
  });
});
