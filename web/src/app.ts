// The page's game: the rules the editor holds, loaded into the engine 150 ms after typing
// stops; that one load gives the diagnostics (editor marks and the problem list), the roles,
// and a fresh game on which the moves played so far are replayed, so fixing a rule keeps the
// position. App owns that session and the moves kept, and wires the panes to it; the panes
// do their own drawing. The rules, the moves, the board view and the role viewed as (GDL-II)
// are autosaved; a share link carries the same four things. What that role knows is worked
// out in a worker (it can take long), never on the page's thread.

import type { BoardView } from './play/board';
import { byId } from './dom';
import { createEditor, type Editor } from './editor/editor';
import { Session, errorMessage, formatText, type Capabilities, type Knowledge, type LoadResult, type MatchRecord, type View } from './engine/engine';
import { wireToolbar } from './editor/toolbar';
import { examples } from './editor/examples';
import { AnalysisPane } from './analysis/analysis';
import { GroundPane } from './ground/ground';
import { GroundClient } from './ground/client';
import { LessonPane } from './lessons/lessons';
import { MatchPane } from './players/match';
import { TournamentPane } from './players/tournament';
import { OpenedLog } from './players/game-log';
import { PlayPane } from './play/play';
import { PlayoutsPane } from './playouts/playouts';
import { decodeShare, type Shared } from './storage/share';
import { openShareDialog, wireShareDialog } from './storage/share-dialog';
import { Autosave } from './storage/autosave';
import { Seats } from './players/seats';
import { randomSeed } from './players/protocol';
import { runTask, type Running } from './analysis/tasks';
import { renderProblems, renderSyntax } from './editor/problems';
import { autoChoice, engineNote, networkHere, quickEngine, workerEngine, type AutoPick } from './engine/auto';
import { GraphPane } from './graph/pane';
import { showBanner, toast } from './notices';
import { Tabs } from './tabs';
import { openPlayerLink } from './student/panel';

const LINT_DELAY_MS = 150;
/** Longest a call into the engine on the main thread may take (loading, one move): the
 * page never freezes longer. Playouts and grounding run in workers, without it. */
const MAIN_THREAD_MILLIS = 3000;
/** Most positions the "Best moves" solver searches. */
const SOLVE_BUDGET = 2_000_000;
/** Best moves searches at most this long (milliseconds, loading the game included), then
 * says how big the game is (which takes about 0.15 s more). */
const SOLVE_MILLIS = 1300;
/** Most possible states of a role worked out exactly; beyond, a sample of this many. */
const KNOWS_LIMIT = 1000;
/** What roles know at positions seen lately (going back and forth redraws at once). */
const KNOWS_CACHE = 64;

/** Figures read by the browser tests and the benchmark. */
export interface Metrics {
  loads: number;
  lastUpdateMs: number;
  text: () => string;
}

export class App {
  #editor: Editor;
  #session = new Session(MAIN_THREAD_MILLIS);
  #play: PlayPane;
  #seats: Seats;
  #ground: GroundPane;
  #grounder: GroundClient;
  #graph = new GraphPane();
  #tabs: Tabs;
  #autosave: Autosave;
  /** What `auto` picks for the loaded rules. */
  #pick: AutoPick = null;
  #loaded: LoadResult | null = null;
  #loadedText = '';
  /** The moves of the last game shown, kept while the rules have errors. */
  #kept: { moves: string[][]; step: number } = { moves: [], step: 0 };
  /** The log of the game last opened from a match or a tournament, beside the moves played. */
  #openedLog = new OpenedLog(byId('opened-log'));
  #orientation: BoardView = { swap: false, flip: false };
  #scale = 1;
  #lintTimer = 0;
  #solver: Running | null = null;
  /** GDL-II: the role the Play pane shows the game as (null: the referee). */
  #viewAs: string | null = null;
  #knowing: Running | null = null;
  #known = new Map<string, Knowledge | string>();
  #module: WebAssembly.Module;

  constructor(
    module: WebAssembly.Module,
    caps: Capabilities,
    start: Shared & { view: BoardView },
    scale: number,
    private metrics: Metrics,
  ) {
    this.#module = module;
    // Moves drawn at random in play (nature's, Random move) come from the engine's generator.
    this.#session.seedDraws(randomSeed());
    this.#orientation = start.view;
    this.#viewAs = start.as ?? null;
    this.#kept = { moves: start.moves, step: start.step };
    this.#autosave = new Autosave(() =>
      this.#editor ? { rules: this.#editor.text(), moves: this.#kept.moves, step: this.#kept.step, view: this.#orientation, scale: this.#scale, as: this.#viewAs } : null,
    );
    this.#tabs = new Tabs(() => this.#refreshTab());
    this.#play = new PlayPane({
      play: (joint) => this.#update(() => this.#session.play(joint)),
      undo: () => this.#update(() => this.#session.undo()),
      redo: () => this.#update(() => this.#session.redo()),
      goTo: (step) => this.#update(() => this.#session.goTo(step)),
      restart: () =>
        this.#update(() => {
          this.#session.replay([]);
          return this.#session.view();
        }),
      draw: (role) => this.#session.randomMove(role),
      orient: (o) => {
        this.#orientation = o;
        this.#autosave.schedule();
      },
      explain: (atom, step) => {
        try {
          return this.#session.explain(atom, step);
        } catch (e) {
          return errorMessage(e);
        }
      },
      reveal: (line) => this.#revealLine(line),
      solve: () => this.#solve(module),
      preview: (chosen) => this.#ground.preview(chosen),
      viewAs: (role) => {
        this.#viewAs = role;
        this.#autosave.schedule();
        if (role === null) {
          this.#knowing?.stop();
          this.#knowing = null;
        }
        if (this.#loaded?.ok) {
          const view = this.#session.view();
          this.#groundAt(view);
          this.#knows(view);
        }
      },
      showGround: (atom) => {
        this.#tabs.select('ground');
        this.#ground.showAtom(atom);
      },
      cancelSolve: () => {
        this.#solver?.stop();
        this.#solver = null;
        this.#play.solving(false);
      },
    });
    this.#play.setOrientation(this.#orientation, false);
    this.#play.setViewAs(this.#viewAs, false);
    // Computers at the seats play the position shown: the rules loaded. The panes run what
    // the editor holds, typed a moment ago or not.
    this.#seats = new Seats(
      module,
      () => (this.#loaded?.ok ? this.#loadedText : null),
      () => quickEngine(this.#pick),
      (role, move) => this.#play.choose(role, move),
      (byHand) => this.#play.setNatureByHand(byHand),
      (role) => this.#session.randomMove(role),
    );
    const typed = () => (this.#current()?.ok ? this.#loadedText : null);
    const typedGame = () => {
      const game = this.#current();
      return game?.ok ? { text: this.#loadedText, roles: game.roles } : null;
    };
    new MatchPane(module, typedGame, () => quickEngine(this.#pick), (moves, record) => this.#openPath(moves, record));
    new TournamentPane(module, typedGame, (rules, moves, record) => {
      // A library game of the tournament first goes into the editor, drawn as its example is.
      if (rules !== this.#loadedText) this.#openRules(rules, examples.find((e) => e.text === rules)?.view ?? this.#orientation);
      this.#openPath(moves, record);
    });
    this.#grounder = new GroundClient(module);
    this.#ground = new GroundPane(this.#grounder, {
      play: (joint) => this.#update(() => this.#session.play(joint)),
      cancel: () => {
        this.#grounder.stop();
        this.#ground.cancelled();
        if (this.#pick === null) {
          this.#pick = 'grounding was cancelled';
          this.#showEngine();
        }
      },
      showMoveRules: () => this.#tabs.select('ground'),
      showInGraph: (relation) => {
        this.#graph.highlight(relation);
        this.#tabs.select('graph');
      },
      retry: (scale) => {
        if (!this.#loaded?.ok) return;
        this.#startGrounding(this.#loadedText, this.#loaded.syntax);
        this.#ground.loaded(scale);
      },
    });
    new PlayoutsPane(
      module,
      caps,
      typedGame,
      () => {
        const choice = autoChoice(this.#pick);
        return choice && { engine: choice.engine, note: choice.engineNote };
      },
    );
    new AnalysisPane(module, typed, () => workerEngine(this.#pick), (moves) => this.#openPath(moves));
    this.#editor = createEditor(byId('editor'), start.rules, () => this.#onEdit());
    metrics.text = () => this.#editor.text();
    this.#setScale(scale);
    wireToolbar({
      open: (ex) => {
        this.#openRules(ex.text, ex.view);
        toast(`Loaded ${ex.title}. Undo in the editor (Ctrl+Z) brings your previous rules back.`);
      },
      convert: (to) => this.#convert(to),
      zoom: (step) => this.#setScale(this.#scale + step / 10),
      share: () => openShareDialog({ rules: this.#editor.text(), moves: this.#kept.moves, step: this.#kept.step, view: this.#orientation, as: this.#viewAs ?? undefined }),
    });
    wireShareDialog();
    new LessonPane(module, {
      open: (text) => this.#openRules(text, { swap: false, flip: false }),
      text: () => this.#editor.text(),
    });
    this.#reload();
    addEventListener('hashchange', () => this.#openLink(location.hash));
  }

  #onEdit(): void {
    clearTimeout(this.#lintTimer);
    this.#lintTimer = window.setTimeout(() => this.#reload(), LINT_DELAY_MS);
    this.#autosave.schedule();
  }

  /** The rules as the editor holds them now: edits still waiting for the lint delay are
   * loaded first, so that a run started right after typing runs what was typed. */
  #current(): LoadResult | null {
    if (this.#editor.text() !== this.#loadedText) this.#reload();
    return this.#loaded;
  }

  /** Loads the editor's text into the engine and refreshes every view of it. */
  #reload(): void {
    clearTimeout(this.#lintTimer);
    const text = this.#editor.text();
    const res = this.#session.load(text);
    // New rules: thinking computers start again on them (or stop, if they have errors).
    this.#seats.clear();
    this.metrics.loads++;
    this.#loaded = res;
    this.#loadedText = text;
    this.#editor.showDiagnostics(res.diagnostics);
    renderProblems(res, this.#editor);
    renderSyntax(res.syntax);
    this.#pick = null;
    if (res.ok) {
      this.#startGrounding(text, res.syntax);
      this.#ground.loaded();
    } else {
      this.#grounder.stop();
      this.#ground.noRules();
    }
    if (res.ok) {
      try {
        const first = this.#session.view();
        this.#play.setDomain(this.#session.domain(), first.state, first.legal);
        const played = this.#session.replay(this.#kept.moves);
        if (played < this.#kept.moves.length && this.#kept.moves.length > 0) {
          toast(`${played} of the ${this.#kept.moves.length} moves played before could be replayed with these rules; the game continues from there.`);
        }
        this.#show(this.#session.goTo(Math.min(this.#kept.step, played)));
      } catch (e) {
        this.#play.showMessage(`The game cannot be played: ${errorMessage(e)}`);
      }
    } else {
      this.#play.showMessage(`Fix the ${res.errors === 1 ? 'error' : `${res.errors} errors`} in the rules to play. The moves played so far are kept.`);
    }
    this.#graph.invalidate();
    this.#refreshTab();
  }

  /** Loads the rules in the grounding worker: it says which engine `auto` picks, and grounds
   * them for the grounded-rules pane when that asks. */
  #startGrounding(text: string, syntax: 'prefix' | 'infix'): void {
    this.#grounder.load(text, syntax, {
      phase: (p) => this.#ground.grounding(p),
      engine: (choice) => {
        this.#pick = choice;
        this.#adoptEngine();
      },
      ready: (program) => this.#ground.ready(program),
      error: (message) => {
        if (this.#pick === null) this.#pick = `the game could not be grounded: ${message}`;
        this.#ground.failed(message);
        this.#showEngine();
      },
    });
  }

  /** Plays on the propositional network when `auto` picks it and it builds quickly. */
  #adoptEngine(): void {
    if (!networkHere(this.#pick)) return this.#showEngine();
    try {
      this.#session.setEngine('auto');
      const played = this.#session.replay(this.#kept.moves);
      this.#show(this.#session.goTo(Math.min(this.#kept.step, played)));
    } catch (e) {
      toast(`The propositional network could not be used: ${errorMessage(e)}`);
    }
  }

  #showEngine(): void {
    try {
      if (this.#loaded?.ok) this.#show(this.#session.view());
    } catch {
      // No position to show: the play pane says why.
    }
  }

  /** The Grounded rules pane follows the position: lit against it unless a role views it. */
  #groundAt(view: View): void {
    this.#ground.setPosition(view, this.#play.hiding(view) ? this.#viewAs : null);
  }

  #show(view: View): void {
    this.#play.render({ ...view, engineNote: engineNote(this.#pick, view) });
    this.#groundAt(view);
    this.#seats.update(view);
    this.#knows(view);
    this.#kept = { moves: view.history, step: view.step };
    this.#openedLog.show(view.history, view.step);
    this.#autosave.schedule();
  }

  /** Runs a play action and shows its view; measures click-to-update time. */
  #update(action: () => View): void {
    const t0 = performance.now();
    try {
      this.#show(action());
    } catch (e) {
      toast(errorMessage(e));
    }
    this.metrics.lastUpdateMs = performance.now() - t0;
  }

  /** Solves the position shown, in a worker; the answer is dropped if the position changed. */
  #solve(module: WebAssembly.Module): void {
    if (!this.#loaded?.ok) return;
    this.#solver?.stop();
    const step = this.#kept.step;
    const moves = this.#kept.moves.slice(0, step);
    const key = JSON.stringify(moves);
    this.#play.solving(true);
    this.#solver = runTask({ module, rules: this.#loadedText, engine: quickEngine(this.#pick), moves, task: { kind: 'solve', budget: SOLVE_BUDGET, millis: SOLVE_MILLIS, requestedAt: Date.now() } }, (reply) => {
      this.#solver = null;
      if (JSON.stringify(this.#kept.moves.slice(0, this.#kept.step)) !== key) return this.#play.solving(false);
      if (reply.type === 'solved') this.#play.showSolution(reply.solution, step);
      else if (reply.type === 'error') this.#play.showSolution(`The position could not be solved: ${reply.message}`, step);
    });
  }

  /** GDL-II, seen as a role: works out what it knows at the position shown, in a worker (the
   * answer is dropped if the position or the role changed meanwhile). */
  #knows(view: View): void {
    const role = this.#viewAs;
    if (role === null || !view.percepts || !view.roles.includes(role) || !this.#loaded?.ok) return;
    const moves = view.history.slice(0, view.step);
    const key = `${this.#loadedText}\n${role}\n${JSON.stringify(moves)}`;
    const known = this.#known.get(key);
    if (known !== undefined) return this.#play.showKnowledge(role, view.step, known);
    this.#knowing?.stop();
    this.#knowing = runTask({ module: this.#module, rules: this.#loadedText, engine: quickEngine(this.#pick), moves, task: { kind: 'knows', role, limit: KNOWS_LIMIT, seed: 1 } }, (reply) => {
      this.#knowing = null;
      const k = reply.type === 'knows' ? reply.knowledge : reply.type === 'error' ? `What ${role} knows could not be worked out: ${reply.message}` : null;
      if (k === null) return;
      if (this.#known.size >= KNOWS_CACHE) this.#known.delete(this.#known.keys().next().value!);
      this.#known.set(key, k);
      this.#play.showKnowledge(role, view.step, k);
    });
  }

  /** Plays a witness path from the analysis pane and shows it in the play pane. */
  /** Opens a game, its joint moves from the start, in the Play pane, with its log if its record is given. */
  #openPath(moves: string[][], record: MatchRecord | null = null): void {
    if (!this.#loaded?.ok) return;
    this.#openedLog.open(moves, record);
    const played = this.#session.replay(moves);
    this.#show(this.#session.goTo(played));
    this.#tabs.select('play');
    if (played < moves.length) toast(`Only ${played} of the ${moves.length} moves are legal with the current rules.`);
  }

  /** Selects line `line` of the rules in the editor. */
  #revealLine(line: number): void {
    const text = this.#editor.text();
    let from = 0;
    for (let i = 1; i < line && from >= 0; i++) from = text.indexOf('\n', from) + 1;
    const end = text.indexOf('\n', from);
    this.#editor.reveal(from, end < 0 ? text.length : end);
  }

  #convert(to: 'prefix' | 'infix'): void {
    if (this.#loaded?.syntax === to) return;
    try {
      this.#editor.setText(formatText(this.#editor.text(), to));
      this.#reload();
      toast(`Converted to ${to} syntax. Undo in the editor (Ctrl+Z) brings the previous text back.`);
    } catch (e) {
      toast(errorMessage(e));
    }
  }

  /** Puts new rules in the editor as a fresh game (an example, a lesson). */
  #openRules(text: string, view: BoardView): void {
    this.#kept = { moves: [], step: 0 };
    this.#orientation = view;
    this.#play.setOrientation(view, false);
    this.#viewAs = null;
    this.#play.setViewAs(null, false);
    this.#editor.setText(text);
    this.#reload();
  }

  #setScale(s: number): void {
    this.#scale = Math.round(Math.min(1.8, Math.max(0.7, s)) * 10) / 10;
    document.documentElement.style.setProperty('--scale', String(this.#scale));
    this.#autosave.schedule();
  }

  /** Draws the visible pane if what it shows depends on the text. */
  #refreshTab(): void {
    this.#ground.setVisible(this.#tabs.current === 'ground');
    if (this.#tabs.current === 'graph') this.#graph.show(this.#editor.text());
  }

  /** Opens a share link pasted into this tab's address bar. */
  #openLink(hash: string): void {
    if (hash.length <= 1 || openPlayerLink(hash)) return;
    try {
      const s = decodeShare(hash);
      history.replaceState(null, '', location.pathname + location.search);
      this.#kept = { moves: s.moves, step: s.step };
      if (s.view) this.#play.setOrientation(s.view);
      this.#viewAs = s.as ?? null;
      this.#play.setViewAs(this.#viewAs, false);
      this.#editor.setText(s.rules);
      this.#reload();
      toast('Opened the shared game.');
    } catch (e) {
      showBanner(errorMessage(e));
    }
  }
}
