// The Match pane: N games between two computer players from the initial state, seats
// alternating, played by a pool of workers (one per core, navigator.hardwareConcurrency);
// a results table (wins, draws, losses, points and mean score with 95% intervals) and a
// bar chart of each player's wins, draws and losses, updated as games end; the same per seat;
// and the games themselves, each of which opens in the Play pane. A long match on the
// reasoner moves to the propositional network ground in the background (see `start`).
// A seat may be a remote player (remote.ts): the match is then refereed by core's referee over
// the GGP protocol in one worker, on the clocks given, its messages in a log under the results.
// A seat may be a student's player (`my:NAME`): the match is then played on this thread,
// refereed step by step by core (driven.ts), on the same clocks.

import { byId, download, h } from '../dom';
import { RefereeMatch, Session, errorMessage, matchGameId, matchSeats, matchTally, matchTallyByRole, matchVerdict, playerCatalogue, playerLabel, type MatchGame, type MatchRecord, type Tally } from '../engine/engine';
import { MY_PLAYER, openStudent, studentEntrants } from '../student/seat';
import { playDriven, type Answerer, type Seat } from './driven';
import { gameLog } from './game-log';
import { randomSeed, share, startPlayers, type Players, type PlayersReply, type PlayersTask, type Remote } from './protocol';
import { MessageLog, abortSoon, addressBox, clockBoxes, newRemote, remoteSeat } from './remote';
import { UpgradeController } from '../engine/upgrade';

/** Most games in one match. */
const MAX_GAMES = 1000;

export class MatchPane {
  /** The workers playing the match's games. */
  #pool: Players[] = [];
  /** Moves a long match to the network (see `start`). */
  #upgrade = new UpgradeController();
  /** The remote player each seat would have, and the match's clocks for them. */
  #remotes: Record<string, Remote> = { 'ma-a': newRemote(), 'ma-b': newRemote() };
  #clocks = { startClock: 10, playClock: 3 };
  /** The refusal on screen, asking for a remote check, if any. */
  #refusal: HTMLElement | null = null;
  #log = new MessageLog(byId<HTMLDetailsElement>('ma-log'));
  /** The game being refereed with remote players: its match id and where they are reached.
   * Stop, or leaving the page, aborts it. */
  #inGame: { id: string; targets: string[] } | null = null;
  /** The number of the match played on this thread (driven.ts); a new one, or Stop, ends it. */
  #driven = 0;

  constructor(
    private module: WebAssembly.Module,
    private rules: () => { text: string; roles: string[] } | null,
    /** The engine the workers open the loaded rules with: what `auto` picked, the reasoner
     * while it decides (the upgrade then moves the match to the network if auto picks it). */
    private engine: () => string,
    /** Opens a game, its joint moves from the start, in the Play pane, with its record if any. */
    private open: (moves: string[][], record: MatchRecord | null) => void,
  ) {
    // Every player of core's catalogue, for any game (one that cannot play the game loaded
    // refuses it in core's words), with its note where it is not for every game; a remote
    // player's address is asked for next.
    const catalogue = playerCatalogue(null);
    ['ma-a', 'ma-b'].forEach((id, side) => {
      const select = byId<HTMLSelectElement>(id);
      select.replaceChildren(
        ...catalogue.kinds.flatMap((kind) =>
          kind.choices.length === 0
            ? [h('option', { value: kind.name }, `${kind.label}…`)]
            : kind.choices.map((c) => h('option', { value: c.spec, selected: c.spec === catalogue.matched[side] }, kind.note ? `${c.label} (${kind.note})` : c.label)),
        ),
        h('optgroup', { label: 'my players' }),
      );
      select.addEventListener('change', () => this.#renderRemotes());
      // The student's players, as saved when the menu opens.
      const mine = () => select.querySelector('optgroup')?.replaceChildren(...studentEntrants().map((p) => h('option', { value: p.value, selected: p.value === select.value }, p.label)));
      mine();
      select.addEventListener('focus', mine);
    });
    byId('match-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#start();
    });
    byId('ma-stop').addEventListener('click', () => this.#finish('Stopped.'));
    addEventListener('pagehide', () => this.#finish(''));
  }

  /** The engine's name of the player chosen in select `id` (a remote player: its address). */
  #seat(id: string): string {
    const value = byId<HTMLSelectElement>(id).value;
    return value === 'remote' ? this.#remotes[id].url : value;
  }

  /** The seats' remote players chosen. */
  #remoteSeats(): string[] {
    return ['ma-a', 'ma-b'].filter((id) => byId<HTMLSelectElement>(id).value === 'remote');
  }

  /** The address boxes of the remote seats, and the clocks. */
  #renderRemotes(): void {
    const ids = this.#remoteSeats();
    const row = (id: string) => {
      const name = id === 'ma-a' ? 'player A' : 'player B';
      const changed = (r: Remote) => {
        this.#remotes[id] = r;
        // A refusal that asked for this check goes once the check has answered.
        if (r.target !== null && this.#refusal?.isConnected) this.#refusal.remove();
      };
      return h('div', { class: 'remote-seat' }, `${name[0].toUpperCase()}${name.slice(1)}: `, addressBox(this.module, `Address of ${name}`, this.#remotes[id], this.#log, changed));
    };
    const clocks = ids.length > 0 && h('div', { class: 'remote-seat' }, clockBoxes(this.#clocks, (c) => (this.#clocks = c), 'the match'));
    byId('ma-remote').replaceChildren(...ids.map(row), clocks || '');
  }

  #start(): void {
    const game = this.rules();
    const out = byId('ma-results');
    if (game === null) {
      out.replaceChildren(h('p', { class: 'warn' }, 'The rules have errors: fix them to play a match.'));
      return;
    }
    const remote = this.#remoteSeats().map((id) => this.#remotes[id]);
    const refused = remote.some((r) => r.target === null)
      ? "Give each remote player's address and wait for its check (available or busy)."
      : remote.length === 2 && remote[0].url === remote[1].url
        ? 'A remote player plays one match at a time: give the two seats different players.'
        : null;
    if (refused) {
      this.#refusal = h('p', { class: 'warn' }, refused);
      out.replaceChildren(this.#refusal);
      return;
    }
    this.#finish('');
    this.#log.clear();
    const rules = game.text;
    const engine = this.engine();
    const chosen = [this.#seat('ma-a'), this.#seat('ma-b')];
    const targets = Object.fromEntries(remote.map((r) => [r.url, r.target as string]));
    if (chosen.some((c) => c.startsWith(MY_PLAYER))) {
      void this.#startDriven(rules, chosen, game.roles, targets);
      return;
    }
    const players = chosen.join(',');
    const count = Math.min(MAX_GAMES, Math.max(1, Math.round(Number(byId<HTMLInputElement>('ma-games').value) || 10)));
    // A remote player plays one match at a time: its games go one after another.
    const workers = remote.length > 0 ? 1 : Math.max(1, Math.min(count, navigator.hardwareConcurrency || 1));
    // A seed given replays the match move for move, here or with `gdl match --seed`.
    const seedText = byId<HTMLInputElement>('ma-seed').value.trim();
    const seed = /^\d+$/.test(seedText) ? Number(seedText) : randomSeed();
    /** The games ended so far, by their number. */
    const games: MatchGame[] = [];
    const numbers: number[] = [];
    const records: (MatchRecord | null)[] = [];
    const played = new Set<number>();
    const progress = byId<HTMLProgressElement>('ma-progress');
    progress.max = count;
    progress.value = 0;
    progress.hidden = false;
    this.#setRunning(true);
    let where = `${workers} worker${workers > 1 ? 's' : ''} with engine ${engine}`;
    out.replaceChildren(h('p', { class: 'muted' }, `Playing ${count} games on ${where}…`));
    let running = workers;
    const id = `playground.${Date.now()}`;
    const kind = (games: number[]): PlayersTask =>
      remote.length > 0
        ? { kind: 'referee', players, targets, terms: { id, start_clock: this.#clocks.startClock, play_clock: this.#clocks.playClock, max_steps: 1000, seed }, games }
        : { kind: 'games', players, seed, games, maxSteps: 1000 };
    const task = (mine: number[]) => {
      // Its match id is the referee's (core's protocol::game).
      if (remote.length > 0) this.#inGame = { id: matchGameId(id, mine[0]), targets: Object.values(targets) };
      return { module: this.module, rules, engine, moves: [], task: kind(mine) };
    };
    const onReply = (reply: PlayersReply) => {
      if (reply.type === 'game' && !played.has(reply.index)) {
        played.add(reply.index);
        games.push(reply.game);
        numbers.push(reply.index);
        records.push(reply.record ?? null);
        progress.value = games.length;
        this.#show(chosen, game.roles, games, numbers, records, count, where, seed);
      } else if (reply.type === 'exchange') {
        this.#log.add(reply.exchange);
      } else if (reply.type === 'fault') {
        this.#log.fault(reply.message);
      } else if (reply.type === 'result') {
        this.#log.result(reply.line);
      } else if (reply.type === 'error') {
        this.#finish(`The match stopped: ${reply.message}`);
      } else if (reply.type === 'done' && remote.length > 0) {
        // One game per task: a worker told to stop in the middle of a synchronous request runs
        // on to the end of its task, which must then be one game, not the rest of the match.
        this.#inGame = null;
        if (played.size < count) this.#pool[0]?.send(task([played.size]));
        else this.#finish('');
      } else if (reply.type === 'done' && --running === 0) {
        this.#finish('');
      }
    };
    if (remote.length > 0) {
      this.#pool.push(startPlayers(task([0]), onReply, (m) => m.type !== 'error'));
      return;
    }
    for (let w = 0; w < workers; w++) this.#pool.push(startPlayers(task(share(count, w, workers)), onReply));
    // A long match on the reasoner asks one more worker for a network (the one auto picks, or
    // the full grounding's if measured faster): that worker plays the games left alone.
    if (engine === 'propnet') return;
    this.#upgrade.schedule(
      rules,
      (answered, failed) => {
        let moved = false;
        return startPlayers({ module: this.module, rules, engine: 'auto', moves: [], task: { kind: 'upgrade' } }, (reply) => {
          if (moved) return onReply(reply);
          if (reply.type !== 'upgraded') return failed();
          moved = reply.moved;
          answered(reply.moved, reply.note);
        });
      },
      (upgrader, note) => {
        for (const p of this.#pool) p.stop();
        this.#pool = [upgrader];
        const left = Array.from({ length: count }, (_, g) => g).filter((g) => !played.has(g));
        where = `${where}, then the last ${left.length} on one worker with engine ${note}`;
        running = 1;
        upgrader.send(task(left));
      },
    );
  }

  /** A match with a student's player: its games one after another on this thread (the
   * sandbox lives in the page), refereed step by step by core (driven.ts) on the clocks given
   * for remote players (a remote player met here is reached from this thread, at `targets`);
   * the players' logs and faults go to the message log. */
  async #startDriven(rules: string, chosen: string[], roles: string[], targets: Record<string, string>): Promise<void> {
    const count = Math.min(MAX_GAMES, Math.max(1, Math.round(Number(byId<HTMLInputElement>('ma-games').value) || 10)));
    const seedText = byId<HTMLInputElement>('ma-seed').value.trim();
    const seed = /^\d+$/.test(seedText) ? Number(seedText) : randomSeed();
    const progress = byId<HTMLProgressElement>('ma-progress');
    Object.assign(progress, { max: count, value: 0, hidden: false });
    this.#setRunning(true);
    const run = ++this.#driven;
    const where = 'this page, one at a time';
    byId('ma-results').replaceChildren(h('p', { class: 'muted' }, `Playing ${count} games on ${where}…`));
    const session = new Session();
    // Each player answering the protocol (a sandbox, a remote player's worker), for the whole match.
    const opened: Answerer[] = [];
    try {
      if (!session.load(rules).ok) throw new Error('the rules do not load');
      // One sandbox per student's player, for the whole match (a player meeting itself: two).
      const seats = await Promise.all(
        chosen.map(async (c): Promise<Seat> => {
          if (!(c in targets) && !c.startsWith(MY_PLAYER)) return { spec: c };
          const player = c in targets ? remoteSeat(this.module, targets[c], c, this.#log) : await openStudent(c.slice(MY_PLAYER.length), (line) => this.#log.fault(line));
          opened.push(player);
          return { player, who: c in targets ? c : playerLabel(c) };
        }),
      );
      const games: MatchGame[] = [];
      const numbers: number[] = [];
      const records: MatchRecord[] = [];
      const id = `playground.${Date.now()}`;
      for (let g = 0; g < count && run === this.#driven; g++) {
        const at = matchSeats(chosen.length, roles, g);
        const terms = { ...this.#clocks, seed: seed + g, maxSteps: 1000 };
        const referee = new RefereeMatch(rules, matchGameId(id, g), terms.startClock, terms.playClock, terms.seed);
        const who = at.map((p: number | null) => (p === null ? { spec: 'random' } : seats[p]));
        // The record names each seat's player as the match does (nature: random).
        const names = at.map((p: number | null) => (p === null ? 'random' : chosen[p]));
        const driven = await playDriven(session, referee, who, at, terms)
          .then((d) => ({ ...d, record: referee.record(names) }))
          .finally(() => referee.free());
        if (run !== this.#driven) return;
        for (const { kind, text } of driven.log) this.#log[kind](kind === 'note' ? `game ${g + 1}: ${text}` : text);
        games.push(driven.game);
        numbers.push(g);
        records.push(driven.record);
        progress.value = games.length;
        this.#show(chosen, roles, games, numbers, records, count, where, seed);
      }
      if (run === this.#driven) this.#finish('');
    } catch (e) {
      if (run === this.#driven) this.#finish(`The match stopped: ${errorMessage(e)}`);
    } finally {
      for (const p of opened) p.close();
      session.free();
    }
  }

  /** The tally of `games` between the `chosen` players so far (game `numbers[i]` is `games[i]`,
   * its record `records[i]` when refereed), played on `where` (workers and engine): per player,
   * per seat, and the games themselves, each with its log. */
  #show(chosen: string[], roles: string[], games: MatchGame[], numbers: number[], records: (MatchRecord | null)[], count: number, where: string, seed: number): void {
    const players = chosen.join(',');
    const tallies = matchTally(players, games);
    const pm = (e: { mean: number; plus_minus: number }, scale: number) => `${(scale * e.mean).toFixed(1)} ± ${(scale * e.plus_minus).toFixed(1)}`;
    const bySeat = h(
      'details',
      { class: 'match-seats', id: 'ma-seats' },
      h('summary', {}, 'Results per seat'),
      h(
        'table',
        { class: 'match-table' },
        h('thead', {}, h('tr', {}, ...['seat', 'player', 'games', 'wins', 'draws', 'losses', 'mean score (95% CI)'].map((t) => h('th', {}, t)))),
        h(
          'tbody',
          {},
          ...matchTallyByRole(players, roles, games).flatMap((rt) =>
            rt.tallies.filter((t) => t.games > 0).map((t) => h('tr', { 'data-role': rt.role }, h('td', {}, rt.role), h('td', {}, playerLabel(t.player)), ...[t.games, t.wins, t.draws, t.losses].map((n) => h('td', {}, String(n))), h('td', {}, pm(t.score, 1)))),
          ),
        ),
      ),
    );
    const order = numbers.map((n, i) => [n, i]).sort((a, b) => a[0] - b[0]);
    const gameList = h(
      'details',
      { class: 'match-games', id: 'ma-games-list' },
      h('summary', {}, `Games (${games.length})`),
      h(
        'ol',
        {},
        ...order.map(([n, i]) => {
          const g = games[i];
          const who = roles.map((r, k) => `${r}: ${g.seats[k] === null ? 'nature' : playerLabel(chosen[g.seats[k] as number])}`).join(', ');
          const end = `${matchVerdict(roles, g).text}${g.goals ? ` (goals ${g.goals.join(' / ')})` : ''}`;
          const record = records[i];
          return h('li', { value: n + 1, 'data-game': n }, `${who} · ${g.length} moves · ${end} `, h('button', { type: 'button', class: 'small', onclick: () => this.open(g.moves, record) }, 'Open in Play'), record && gameLog(record));
        }),
      ),
    );
    const table = h(
      'table',
      { class: 'match-table' },
      h('thead', {}, h('tr', {}, ...['player', 'games', 'wins', 'draws', 'losses', 'points % (95% CI)', 'mean score (95% CI)'].map((t) => h('th', {}, t)))),
      h('tbody', {}, ...tallies.map((t) => h('tr', {}, h('td', {}, playerLabel(t.player)), ...[t.games, t.wins, t.draws, t.losses].map((n) => h('td', {}, String(n))), h('td', {}, pm(t.points, 100)), h('td', {}, pm(t.score, 1))))),
    );
    const bar = (t: Tally) => {
      const part = (n: number, cls: string, label: string) => n > 0 && h('span', { class: `bar ${cls}`, style: `width: ${(100 * n) / t.games}%`, title: `${n} ${label}` }, String(n));
      return h('div', { class: 'chart-row' }, h('span', { class: 'chart-label' }, playerLabel(t.player)), h('div', { class: 'chart-bar' }, part(t.wins, 'win', 'wins'), part(t.draws, 'draw', 'draws'), part(t.losses, 'loss', 'losses')));
    };
    byId('ma-results').replaceChildren(
      h('p', { class: 'muted', id: 'ma-where' }, `${games.length} of ${count} games on ${where}; seats alternate between games; seed ${seed}.`),
      table,
      h('div', { class: 'match-chart', 'aria-label': 'Wins, draws and losses per player' }, ...tallies.map(bar)),
      h('p', { class: 'muted chart-key' }, h('span', { class: 'key win' }), ' wins ', h('span', { class: 'key draw' }), ' draws ', h('span', { class: 'key loss' }), ' losses'),
      bySeat,
      gameList,
      recordButton(order.map(([, i]) => records[i])),
    );
  }

  /** Stops every worker; `message`, if any, is shown under the results. Remote players still
   * in a match are told it is aborted. */
  #finish(message: string): void {
    this.#driven++;
    // A game ended was stopped (STOP); one in course, or whose START is on its way, is aborted.
    for (const target of this.#inGame?.targets ?? []) abortSoon(target, this.#inGame?.id ?? '');
    this.#inGame = null;
    for (const p of this.#pool) p.stop();
    this.#pool = [];
    this.#upgrade.stop();
    this.#setRunning(false);
    byId('ma-progress').hidden = true;
    if (message) byId('ma-results').append(h('p', { class: 'warn' }, message));
  }

  #setRunning(on: boolean): void {
    byId<HTMLButtonElement>('ma-run').disabled = on;
    byId<HTMLButtonElement>('ma-stop').disabled = !on;
  }
}

/** "Download record": the games' records as `gdl match --record` writes them; or, for a match
 * whose games were not refereed by the protocol (no remote or student's player), why there is none. */
function recordButton(records: (MatchRecord | null)[]): HTMLElement {
  const matches = records.filter((r): r is MatchRecord => r !== null);
  if (matches.length === 0 || matches.length < records.length) return h('p', { class: 'muted' }, 'A record of each game is kept when the match is refereed by the protocol (with a remote or a student’s player).');
  const file = { game: 'the editor’s game', matches };
  return h('p', {}, h('button', { type: 'button', id: 'ma-record', onclick: () => download('match.json', `${JSON.stringify(file, null, 2)}\n`, 'application/json') }, 'Download record'));
}
