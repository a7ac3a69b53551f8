// The Match tab's tournament: entrants (the catalogue's players; remote addresses, checked
// with INFO as the Match tab's are, their messages in a log) on the editor's game and library
// games, every game of core's schedule played by a pool of workers
// (one to navigator.hardwareConcurrency - 1; one at a time with a remote entrant, which plays
// one match at a time), a progress bar with an estimate of the time left, and the leaderboard
// core computes (the page never tallies). The record is saved in localStorage after every
// game, so a reload offers to resume it without losing a finished game; it downloads as JSON
// (`gdl tournament`'s record) and CSV. Each finished game opens in the Play pane. A student's
// player may enter (`my:NAME`): its games are played on this thread (driven.ts), refereed by
// core as its tournament sets each game up, the others still in workers (after them, one at a
// time, when a remote player is entered too: it is reached from this thread as well).

import { byId, download, h } from '../dom';
import {
  errorMessage,
  playerCatalogue,
  playerLabel,
  RefereeMatch,
  Session,
  tournamentCsv,
  tournamentFinish,
  tournamentGameId,
  tournamentLeaderboard,
  tournamentMissing,
  tournamentStart,
  type Finished,
  type Fixture,
  type MatchRecord,
  type Plan,
  type Standing,
  type TournamentRecord,
} from '../engine/engine';
import { examples } from '../editor/examples';
import { randomSeed, startPlayers, type Players, type PlayersReply } from './protocol';
import { MessageLog, abortSoon, reach, remoteSeat } from './remote';
import { MY_PLAYER, openStudent, studentEntrants } from '../student/seat';
import { playDriven, type Answerer, type Seat } from './driven';
import { gameLog } from './game-log';
import './tournament.css';

/** Where the tournament's record and its games' rules are kept between visits. */
const STORE = 'gdl.tournament';
/** The editor's game as the game list names it. */
const EDITOR = 'the editor’s game';

/** What is saved: the record (core's JSON, as `gdl tournament --record` writes it) and the
 * rules of each game by its name. */
interface Saved {
  record: string;
  rules: Record<string, string>;
}

export class TournamentPane {
  #pool: Players[] = [];
  #record: TournamentRecord | null = null;
  #rules: Record<string, string> = {};
  /** Games being played, by their number, and when this run started and how many it finished. */
  #playing = new Set<number>();
  /** Where the page reaches the remote entrants of this run (told ABORT of games stopped). */
  #targets: string[] = [];
  #run = { started: 0, finished: 0, workers: 1 };
  /** Counts the runs stopped, so that a run checking addresses knows it was. */
  #runs = 0;
  /** The messages to remote entrants. */
  #log = new MessageLog(byId<HTMLDetailsElement>('to-log'));

  constructor(
    private module: WebAssembly.Module,
    private editorGame: () => { text: string; roles: string[] } | null,
    /** Opens a game (its rules, its joint moves from the start, its record) in the Play pane. */
    private open: (rules: string, moves: string[][], record: MatchRecord) => void,
  ) {
    const catalogue = playerCatalogue(null);
    const add = byId<HTMLSelectElement>('to-add');
    add.replaceChildren(
      h('option', { value: '' }, 'Add a player…'),
      ...catalogue.kinds.flatMap((kind) => kind.choices.map((c) => h('option', { value: c.spec }, c.label))),
      h('optgroup', { label: 'my players' }),
    );
    // The student's players, as saved when the menu opens.
    add.addEventListener('focus', () => add.querySelector('optgroup')?.replaceChildren(...studentEntrants().map((p) => h('option', { value: p.value }, p.label))));
    byId<HTMLSelectElement>('to-add').addEventListener('change', (e) => {
      const select = e.target as HTMLSelectElement;
      const box = byId<HTMLInputElement>('to-entrants');
      if (select.value) box.value = [box.value.trim(), select.value].filter((s) => s !== '').join(', ');
      select.value = '';
    });
    byId<HTMLSelectElement>('to-library').replaceChildren(...examples.filter((e) => !e.id.startsWith('bug-')).map((e) => h('option', { value: e.id }, e.title)));
    byId('tournament-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#start();
    });
    byId('to-stop').addEventListener('click', () => this.#stop('Stopped; the games finished are kept, and Resume plays the rest.'));
    byId('to-resume').addEventListener('click', () => void this.#resume());
    byId('to-json').addEventListener('click', () => this.#download(false));
    byId('to-csv').addEventListener('click', () => this.#download(true));
    addEventListener('pagehide', () => this.#stop(''));
    this.#restore();
  }

  /** A tournament saved by an earlier visit: its leaderboard, and Resume if games are left. */
  #restore(): void {
    const text = localStorage.getItem(STORE);
    if (text === null) return;
    try {
      const saved = JSON.parse(text) as Saved;
      const record = JSON.parse(saved.record) as TournamentRecord;
      // Core checks it (a damaged record is refused in words).
      tournamentMissing(record);
      this.#record = record;
      this.#rules = saved.rules;
      byId<HTMLDetailsElement>('to-section').open = true;
      this.#show();
    } catch (e) {
      localStorage.removeItem(STORE);
      byId('to-results').replaceChildren(h('p', { class: 'warn' }, `The tournament saved here could not be read, and was dropped: ${errorMessage(e)}`));
    }
  }

  #start(): void {
    const out = byId('to-results');
    const chosen: { name: string; text: string }[] = [];
    if (byId<HTMLInputElement>('to-editor').checked) {
      const game = this.editorGame();
      if (game === null) {
        out.replaceChildren(h('p', { class: 'warn' }, 'The rules in the editor have errors: fix them, or leave the editor’s game out.'));
        return;
      }
      chosen.push({ name: EDITOR, text: game.text });
    }
    for (const option of byId<HTMLSelectElement>('to-library').selectedOptions) {
      const e = examples.find((x) => x.id === option.value);
      // Named by its file in the repository, as `gdl tournament` names it from there.
      if (e) chosen.push({ name: `games/${e.id}.kif`, text: e.text });
    }
    const seedText = byId<HTMLInputElement>('to-seed').value.trim();
    try {
      const games = chosen.map(({ name, text }) => ({ name, roles: roles(text) }));
      const plan: Plan = {
        games,
        entrants: [byId<HTMLInputElement>('to-entrants').value],
        games_per_pairing: Math.max(1, Math.round(Number(byId<HTMLInputElement>('to-per-pairing').value) || 1)),
        seed: /^\d+$/.test(seedText) ? Number(seedText) : randomSeed(),
        start_clock: 10,
        play_clock: 3,
        max_steps: 1000,
      };
      this.#record = tournamentStart(plan);
    } catch (e) {
      out.replaceChildren(h('p', { class: 'warn' }, errorMessage(e)));
      return;
    }
    this.#rules = Object.fromEntries(chosen.map((g) => [g.name, g.text]));
    this.#save();
    void this.#resume();
  }

  /** Plays the games the record misses. Each remote entrant's address is checked first, to
   * find where the page reaches it (directly, or through the relay); one that cannot be
   * reached still plays, and the referee reports its faults. */
  async #resume(): Promise<void> {
    const record = this.#record;
    if (record === null) return;
    this.#stop('');
    this.#log.clear();
    const remotes = record.plan.entrants.filter((e) => e.startsWith('http://'));
    this.#setRunning(true);
    const run = this.#runs;
    const reached = await Promise.all(remotes.map((url) => reach(this.module, url, this.#log)));
    // Stopped, or started again, while the addresses were checked.
    if (run !== this.#runs) return;
    const targets = Object.fromEntries(reached.map((r, i) => [remotes[i], r.target ?? remotes[i]]));
    this.#targets = Object.values(targets);
    const missing: Fixture[] = tournamentMissing(record);
    const plan = record.plan;
    if (missing.length === 0) return this.#finish();
    // Games with a student's player are played on this thread, where its sandbox lives.
    const student = (f: Fixture) => f.seats.some((p) => p !== null && plan.entrants[p].startsWith(MY_PLAYER));
    const queue = missing.filter((f) => !student(f));
    const cores = navigator.hardwareConcurrency || 2;
    const workers = queue.length === 0 ? 0 : remotes.length > 0 ? 1 : Math.max(1, Math.min(queue.length, cores - 1));
    this.#run = { started: performance.now(), finished: 0, workers };
    this.#setRunning(true);
    const next = (worker: Players | null): void => {
      const fixture = queue.shift();
      if (fixture === undefined) {
        worker?.stop();
        if (this.#playing.size === 0) this.#finish();
        return;
      }
      this.#playing.add(fixture.number);
      const rules = this.#rules[record.plan.games[fixture.game].name];
      const request = { module: this.module, rules, engine: 'auto', moves: [], task: { kind: 'tournament' as const, plan, game: fixture.number, targets } };
      if (worker) return worker.send(request);
      let me: Players | null = null;
      // The worker waits for its next game after each message (exchanges and faults come first).
      me = startPlayers(request, (reply) => this.#reply(reply, () => next(me)), (m) => m.type !== 'error');
      this.#pool.push(me);
    };
    const startWorkers = () => {
      for (let w = 0; w < workers; w++) next(null);
    };
    const driven = missing.filter(student);
    // A remote player plays one game at a time: with one entered, the games on this thread
    // come first, then the worker's, one after another.
    if (remotes.length > 0) void this.#playDriven(driven, run, queue, targets).then(() => run === this.#runs && startWorkers());
    else {
      startWorkers();
      void this.#playDriven(driven, run, queue, targets);
    }
    this.#show();
  }

  /** Plays the games of `fixtures` (each with a student's player) one after another on this
   * thread (driven.ts), each refereed by core as its tournament sets it up; `queue`: the
   * workers' games still to start; `targets`: where each remote entrant is reached. */
  async #playDriven(fixtures: Fixture[], run: number, queue: Fixture[], targets: Record<string, string>): Promise<void> {
    const plan = this.#record?.plan;
    if (fixtures.length === 0 || !plan) return;
    // Counted as in play from now, so that the workers' last game does not end the run.
    for (const f of fixtures) this.#playing.add(f.number);
    // Each entrant answering the protocol (a student's sandbox, a remote player's worker), for all its games.
    const opened = new Map<string, Answerer>();
    const sessions = new Map<string, Session>();
    const seat = async (entrant: string): Promise<Seat> => {
      const remote = entrant in targets;
      if (!remote && !entrant.startsWith(MY_PLAYER)) return { spec: entrant };
      if (!opened.has(entrant)) {
        opened.set(entrant, remote ? remoteSeat(this.module, targets[entrant], entrant, this.#log) : await openStudent(entrant.slice(MY_PLAYER.length), (line) => this.#log.fault(line)));
      }
      return { player: opened.get(entrant) as Answerer, who: remote ? entrant : playerLabel(entrant) };
    };
    try {
      for (const fixture of fixtures) {
        if (run !== this.#runs) return;
        const name = plan.games[fixture.game].name;
        const rules = this.#rules[name];
        if (!sessions.has(name)) {
          const session = new Session();
          sessions.set(name, session);
          if (!session.load(rules).ok) throw new Error(`${name} does not load`);
        }
        const seats = await Promise.all(fixture.seats.map((p) => (p === null ? { spec: 'random' } : seat(plan.entrants[p]))));
        const referee = RefereeMatch.tournament(rules, plan, fixture);
        try {
          const terms = { startClock: plan.start_clock, playClock: plan.play_clock, seed: plan.seed + fixture.number, maxSteps: plan.max_steps };
          const driven = await playDriven(sessions.get(name) as Session, referee, seats, fixture.seats, terms);
          if (run !== this.#runs) return;
          for (const { kind, text } of driven.log) this.#log[kind](`game ${fixture.number + 1}: ${text}`);
          this.#playing.delete(fixture.number);
          this.#add(referee.finished());
        } finally {
          referee.free();
        }
      }
      if (run === this.#runs && queue.length === 0 && this.#playing.size === 0) this.#finish();
    } catch (e) {
      if (run === this.#runs) this.#stop(`The tournament stopped: ${errorMessage(e)}. The games finished are kept; Resume plays the rest.`);
    } finally {
      for (const p of opened.values()) p.close();
      for (const s of sessions.values()) s.free();
    }
  }

  /** A worker's reply; `more` gives it its next game. */
  #reply(reply: PlayersReply, more: () => void): void {
    if (reply.type === 'finished') {
      this.#playing.delete(reply.game);
      this.#add(reply.finished);
      more();
    } else if (reply.type === 'exchange') {
      this.#log.add(reply.exchange);
    } else if (reply.type === 'fault') {
      this.#log.fault(reply.message);
    } else if (reply.type === 'error') {
      this.#stop(`The tournament stopped: ${reply.message}. The games finished are kept; Resume plays the rest.`);
    }
  }

  #add(finished: Finished): void {
    if (this.#record === null) return;
    this.#record = tournamentFinish(this.#record, finished);
    this.#run.finished++;
    this.#save();
    this.#show();
  }

  #finish(): void {
    this.#stop('');
    this.#show();
  }

  #save(): void {
    if (this.#record === null) return;
    const saved: Saved = { record: JSON.stringify(this.#record), rules: this.#rules };
    try {
      localStorage.setItem(STORE, JSON.stringify(saved));
    } catch {
      // Storage full or refused: the tournament goes on; the downloads still hold it.
    }
  }

  /** Stops every worker; `message`, if any, is shown under the leaderboard. */
  #stop(message: string): void {
    this.#runs++;
    for (const p of this.#pool) p.stop();
    // Games stopped in the middle: their remote players are told, so that they are free.
    const plan = this.#record?.plan;
    if (plan) for (const n of this.#playing) for (const target of this.#targets) abortSoon(target, tournamentGameId(plan, n));
    this.#pool = [];
    this.#playing.clear();
    this.#setRunning(false);
    if (message) byId('to-results').append(h('p', { class: 'warn' }, message));
  }

  #setRunning(on: boolean): void {
    byId<HTMLButtonElement>('to-run').disabled = on;
    byId<HTMLButtonElement>('to-stop').disabled = !on;
    const left = this.#record !== null && !on && this.#record.finished.length < this.#record.schedule.length;
    byId<HTMLButtonElement>('to-resume').hidden = !left;
    for (const id of ['to-json', 'to-csv']) byId<HTMLButtonElement>(id).disabled = this.#record === null;
  }

  /** The progress, the time left, the leaderboard per game and overall, and the games. */
  #show(): void {
    const record = this.#record;
    if (record === null) return;
    const board = tournamentLeaderboard(record);
    const progress = byId<HTMLProgressElement>('to-progress');
    progress.max = board.scheduled;
    progress.value = board.played;
    progress.hidden = false;
    const running = this.#pool.length > 0;
    let status = `${board.played} of ${board.scheduled} games played; entrants ${record.plan.entrants.join(', ')}; seed ${record.plan.seed}.`;
    if (running && this.#run.finished > 0) {
      const perGame = (performance.now() - this.#run.started) / this.#run.finished;
      const seconds = Math.round((perGame * (board.scheduled - board.played)) / 1000);
      status += ` About ${seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`} left.`;
    }
    const boards = board.per_game.length > 1 ? [...board.per_game.map((b) => [`Game: ${b.game}`, b.standings] as const), ['Overall', board.overall] as const] : [['Leaderboard', board.overall] as const];
    const finished = [...record.finished].sort((a, b) => a.fixture - b.fixture);
    byId('to-results').replaceChildren(
      h('p', { class: 'muted', id: 'to-status' }, status),
      ...boards.map(([title, standings]) => h('div', { class: 'to-board' }, h('h4', {}, title), table(standings))),
      h(
        'details',
        { class: 'match-games', id: 'to-games' },
        h('summary', {}, `Games (${finished.length})`),
        h(
          'ol',
          {},
          ...finished.map((f) => {
            const name = record.plan.games[record.schedule[f.fixture].game].name;
            const who = f.record.roles.map((r, k) => `${r}: ${f.record.players[k]}`).join(', ');
            const goals = f.record.goals ? `goals ${f.record.goals.join(' / ')}` : 'cut at the move limit';
            const moves = f.record.steps.map((s) => s.moves);
            return h(
              'li',
              { value: f.fixture + 1, 'data-game': f.fixture },
              `${name} · ${who} · ${moves.length} moves · ${goals} `,
              h('button', { type: 'button', class: 'small', onclick: () => this.open(this.#rules[name], moves, f.record) }, 'Open in Play'),
              gameLog(f.record),
            );
          }),
        ),
      ),
    );
    this.#setRunning(running);
  }

  #download(csv: boolean): void {
    if (this.#record === null) return;
    const text = csv ? tournamentCsv(this.#record) : JSON.stringify(this.#record, null, 2);
    download(`tournament.${csv ? 'csv' : 'json'}`, text, csv ? 'text/csv' : 'application/json');
  }
}

/** The roles of a game's rules (core reads them). */
function roles(text: string): string[] {
  const session = new Session();
  try {
    const loaded = session.load(text);
    if (!loaded.ok) throw new Error('a chosen game has errors in its rules');
    return loaded.roles;
  } finally {
    session.free();
  }
}

/** The standings as a table: rank, entrant, games, wins, draws, losses, points, rating (each
 * with its 95% interval) and faults (their words on hover). */
function table(standings: Standing[]): HTMLElement {
  const pm = (mean: number, plusMinus: number, scale: number, digits: number) => `${(scale * mean).toFixed(digits)} ± ${(scale * plusMinus).toFixed(digits)}`;
  const heads = ['#', 'entrant', 'games', 'W', 'D', 'L', 'points %', 'rating', 'faults'];
  const titles = ['rank', 'entrant', 'games', 'wins', 'draws', 'losses', 'points per game, % (95% interval)', 'Bradley–Terry rating, Elo scale (95% interval)', 'faults by kind: late, illegal, unreachable (hover for the referee’s words)'];
  return h(
    'div',
    { class: 'to-scroll' },
    h(
      'table',
      { class: 'match-table to-table' },
      h('thead', {}, h('tr', {}, ...heads.map((t, i) => h('th', { title: titles[i] }, t)))),
      h(
        'tbody',
        {},
        ...standings.map((s) => {
          const t = s.tally;
          const rating = s.rating ? `${s.rating.elo >= 0 ? '+' : ''}${Math.round(s.rating.elo) || 0} ± ${Math.round(s.rating.plus_minus)}` : '–';
          return h(
            'tr',
            { 'data-entrant': t.player },
            h('td', {}, String(s.rank)),
            h('td', { title: t.player }, playerLabel(t.player)),
            ...[t.games, t.wins, t.draws, t.losses].map((n) => h('td', {}, String(n))),
            h('td', {}, pm(t.points.mean, t.points.plus_minus, 100, 0)),
            h('td', {}, rating),
            h('td', { title: s.faults.join('\n') }, s.fault_counts.text),
          );
        }),
      ),
    ),
  );
}
