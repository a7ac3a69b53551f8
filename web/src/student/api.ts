// The student's player API: what a player written in JavaScript is given (`Game`), what it
// gives back (`Player`), and the runner that answers a referee's GGP messages with it
// (`PlayerRunner`). It uses no DOM and no page state, only an engine's `PlayerGame` (core's
// protocol player, `wasm/src/student.rs`) and a clock, so that it runs the same in the page's
// sandboxed worker (`sandbox-worker.ts`) and in a node script. The referee is elsewhere: it
// judges every reply, and replaces a late, missing or illegal move in its own words.
//
// In a GDL-II game (with `sees`) the messages carry only the role's own moves and percepts,
// and the engine keeps no position: `current()` refuses, and every state a player can name was
// reached by its own calls or guessed from its history (`guesses`). A player is honest by
// construction.

import type { Factors, GameInfo } from '../../pkg/gdl_wasm.js';

/** A state of the game: a number naming it for the whole match (usable as a key). */
export type State = number;

/** An independent subgame (a factor): its moves, per role, and its fluents, as texts. */
export interface Factor {
  moves: Record<string, string[]>;
  fluents: string[];
  /** Whether the game's end or a goal reads this factor: if not, its moves never change the outcome. */
  relevant: boolean;
}

/** What a player logs: its text and the values it chose to report, at step `step`. */
export interface LogEntry {
  step: number;
  text: string;
  values: Record<string, unknown> | null;
  /** Milliseconds since the message arrived. */
  millis: number;
}

// The game as a player sees it. The editor's completion lists these members with their
// comments (read from this file): keep one comment per member.
/** The game a player plays, as its role sees it. */
export interface Game {
  /** The roles, in the order of the rules. */
  readonly roles: string[];
  /** Your role. */
  readonly role: string;
  /** Joint moves played so far. */
  readonly step: number;
  /** Whether the game hides the position (GDL-II): you know only your moves and percepts. */
  readonly hidden: boolean;
  /** The initial state. */
  initial(): State;
  /** The position now (in a GDL-II game it is hidden: this throws; use guesses). */
  current(): State;
  /** The legal moves of `role` in `state`, sorted. */
  legal(state: State, role: string): string[];
  /** The state after `joint` (one move per role, in the order of `roles`) in `state`. */
  next(state: State, joint: string[]): State;
  /** Whether `state` is terminal. */
  terminal(state: State): boolean;
  /** The goal value (0..100) of `role` in `state`. */
  goal(state: State, role: string): number;
  /** Every role's goal value in `state`, in the order of `roles`. */
  goals(state: State): number[];
  /** The fluents true in `state`, as texts such as "(cell 1 1 x)". */
  fluents(state: State): string[];
  /** The goal values reached by one random playout from `state`, per role. */
  playout(state: State): number[];
  /** The mean goal value of `count` random playouts from `state`, per role (fast: on the engine). */
  playouts(state: State, count: number): number[];
  /** Your own moves so far and what you perceived after each (GDL-II; empty lists otherwise). */
  history(): { moves: string[]; percepts: string[][] };
  /** Up to `count` states the game may be in, guessed from your history alone (the position in a game without sees). */
  guesses(count: number): State[];
  /** A whole number from 0 to `count` - 1, drawn at random from the match's seed (the same seed plays the same games again). */
  random(count: number): number;
  /** The game's independent subgames (factors), found in the rules: moves per role and fluents of each (none apart: one factor). */
  factors(): Factor[];
  /** Milliseconds left of the play clock (of the start clock in start). */
  timeLeft(): number;
  /** Writes `text`, and any `values` you report, into your seat's message log. */
  log(text: string, values?: Record<string, unknown>): void;
}

/** A player: `play` chooses a legal move of `game.role` at the position now. */
export interface Player {
  /** Called once at the start of a match, within the start clock. */
  start?(game: Game): void;
  /** Your move: one of `game.legal(game.current(), game.role)`, as a text. */
  play(game: Game): string;
  /** Called once at the end of a match. */
  stop?(game: Game): void;
}

/** An engine's game of one match, as `wasm/src/student.rs` gives it (roles by number). */
export interface PlayerGameLike {
  readonly info: GameInfo;
  factors(): Factors;
  follow(message: string): string;
  sent(move: string): void;
  initial(): number;
  current(): number;
  legal(state: number, role: number): string[];
  next(state: number, joint: string[]): number;
  terminal(state: number): boolean;
  goals(state: number): Float64Array | number[];
  fluents(state: number): string[];
  playouts(state: number, count: number): Float64Array | number[];
  guesses(count: number): Uint32Array | number[];
  random(count: number): number;
  free(): void;
}

/** What the runner needs of an engine: a game from a START (`seed`: its random draws), and
 * the kind of a message (`start`, `play`, `stop`, `abort`, `info`). */
export interface PlayerEngine {
  startGame(start: string, seed: number): PlayerGameLike;
  messageKind(message: string): string;
}

/** A reply to a message, or why there is none (`failed`, which the referee words), with what
 * the player logged meanwhile. */
export interface Answer {
  reply: string | null;
  failed: string | null;
  logs: LogEntry[];
}

/** Reads a player's code: it defines `function play(game)`, and may define `start(game)`
 * and `stop(game)`. The error says what is missing. */
export function loadPlayer(code: string): Player {
  const made = new Function(
    `"use strict";\n${code}\n;return { start: typeof start === 'function' ? start : undefined, play: typeof play === 'function' ? play : undefined, stop: typeof stop === 'function' ? stop : undefined };`,
  )() as Partial<Player>;
  if (typeof made.play !== 'function') throw new Error('the player defines no function play(game): write one that returns a legal move');
  return made as Player;
}

/** The message of anything thrown. */
function said(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Answers a referee's messages with a player: START makes the match's game, PLAY asks the
 * player for its move, STOP and ABORT end the match. `follow` only brings the game to a
 * message without asking the player (a worker restarted after a late move catches up). */
export class PlayerRunner {
  #game: PlayerGameLike | null = null;
  /** Matches started: the n-th draws from seed + n, so each match differs and a run replays. */
  #matches = 0;
  #logs: LogEntry[] = [];
  #arrived = 0;
  #clock = 0;

  constructor(
    private engine: PlayerEngine,
    private player: Player,
    /** Milliseconds (performance.now()). */
    private now: () => number,
    /** The first match's seed. */
    private seed = 1,
  ) {}

  answer(message: string, follow = false): Answer {
    this.#arrived = this.now();
    this.#logs = [];
    const done = (reply: string | null, failed: string | null = null): Answer => ({ reply, failed, logs: this.#logs });
    try {
      const kind = this.engine.messageKind(message);
      if (kind === 'info') return done(this.#game ? 'busy' : 'available');
      if (kind === 'start') {
        this.#game?.free();
        this.#game = this.engine.startGame(message, (this.seed + this.#matches++) % 2 ** 32);
        this.#clock = this.#game.info.startClock * 1000;
        if (!follow) this.player.start?.(this.#view());
        return done('ready');
      }
      const game = this.#game;
      if (!game) return done(null, 'no match here: START it first');
      const next = game.follow(message);
      this.#clock = game.info.playClock * 1000;
      if (next === 'abort' || next === 'stop') {
        if (next === 'stop' && !follow) this.player.stop?.(this.#view());
        game.free();
        this.#game = null;
        return done(next === 'stop' ? 'done' : 'aborted');
      }
      if (follow) return done(null);
      const move = String(this.player.play(this.#view()));
      game.sent(move);
      return done(move);
    } catch (e) {
      return done(null, `the player failed: ${said(e)}`);
    }
  }

  /** The game as the player sees it now. */
  #view(): Game {
    const g = this.#game as PlayerGameLike;
    const { roles, role: mine, step, hidden } = g.info;
    const role = (name: string) => {
      const r = roles.indexOf(name);
      if (r < 0) throw new Error(`there is no role '${name}': the roles are ${roles.join(', ')}`);
      return r;
    };
    return {
      roles,
      role: roles[mine],
      step,
      hidden,
      initial: () => g.initial(),
      current: () => g.current(),
      legal: (s, r) => g.legal(s, role(r)),
      next: (s, joint) => g.next(s, joint),
      terminal: (s) => g.terminal(s),
      goal: (s, r) => g.goals(s)[role(r)],
      goals: (s) => [...g.goals(s)],
      fluents: (s) => g.fluents(s),
      playout: (s) => [...g.playouts(s, 1)],
      playouts: (s, count) => [...g.playouts(s, count)],
      history: () => {
        const { moves, percepts } = g.info;
        return { moves, percepts };
      },
      guesses: (count) => [...g.guesses(count)],
      random: (count) => g.random(count),
      factors: () => factorsByRole(g.factors(), roles),
      timeLeft: () => this.#arrived + this.#clock - this.now(),
      log: (text, values) => {
        this.#logs.push({ step, text: String(text), values: values ?? null, millis: this.now() - this.#arrived });
      },
    };
  }
}

/** Each factor of `found` with its moves grouped by role (every role listed, in order). A
 * game without factors apart is one factor: all its moves and fluents. */
function factorsByRole(found: Factors, roles: string[]): Factor[] {
  return found.factors.map((f, k) => {
    const moves: Record<string, string[]> = Object.fromEntries(roles.map((r) => [r, []]));
    for (const m of f.moves) moves[m.role].push(m.move);
    return { moves, fluents: f.fluents, relevant: found.relevant.includes(k) };
  });
}

/** The starter player: a legal move chosen at random. */
export const STARTER = `// A random player: it plays one of its legal moves at random.
// game.legal(state, role) lists the moves; game.current() is the position now (in a game
// with hidden moves, a state guessed from what you saw stands for it).
function play(game) {
  const state = game.hidden ? game.guesses(1)[0] : game.current();
  const moves = game.legal(state, game.role);
  const move = moves[game.random(moves.length)];
  game.log('chose at random', { among: moves.length, timeLeft: Math.round(game.timeLeft()) });
  return move;
}
`;
