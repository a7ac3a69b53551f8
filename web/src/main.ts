// GDL Playground's page: wires the editor, the engine (gdl-wasm) and the panes together.
//
// Flow: every edit is loaded into the engine 150 ms after typing stops; that one load gives
// the diagnostics (editor marks and the problem list), the roles, and a fresh game on which
// the moves played so far are replayed, so fixing a rule keeps the position. The rules, the
// moves and the board view are autosaved; a share link carries the same three things.

import './style.css';
import type { BoardView } from './play/board';
import { byId, h } from './dom';
import { createEditor, type Editor } from './editor/editor';
import { Session, api, errorMessage, formatText, startEngine, type Capabilities, type LoadResult, type View } from './engine/engine';
import { DEFAULT_EXAMPLE, example, exampleGroups, examples } from './editor/examples';
import { AnalysisPane } from './analysis/analysis';
import { GroundPane, groundMetrics } from './ground/ground';
import { GroundClient } from './ground/client';
import type { EngineChoice } from './ground/protocol';
import { LessonPane } from './lessons/lessons';
import { MatchPane } from './players/match';
import { PlayPane } from './play/play';
import { PlayoutsPane } from './playouts/playouts';
import { LONG_LINK, MAX_LINK, ShareError, decodeShare, encodeShare, type Shared } from './storage/share';
import { registerOffline } from './storage/offline';
import { loadSaved, save } from './storage/storage';
import { Seats } from './players/seats';
import { runTask, type Running } from './analysis/tasks';

const LINT_DELAY_MS = 150;
/** Longest a call into the engine on the main thread may take (loading, one move): the
 * page never freezes longer. Playouts and grounding run in workers, without it. */
const MAIN_THREAD_MILLIS = 3000;
const SAVE_DELAY_MS = 300;
/** Longest the propositional network may take to build (in the grounding worker) for the
 * page's own session to build it too; slower games play on the reasoner here, and on the
 * network in the workers (Best moves, Analysis). */
const MAIN_ENGINE_MS = 500;
/** Most positions the "Best moves" solver searches. */
const SOLVE_BUDGET = 2_000_000;

/** Figures read by the browser tests and the benchmark. */
const metrics = { readyMs: 0, lastUpdateMs: 0, loads: 0, text: () => '', ground: groundMetrics };
(window as unknown as { gdlPlayground: typeof metrics }).gdlPlayground = metrics;

function showBanner(text: string): void {
  byId('banner-text').textContent = text;
  byId('banner').hidden = false;
}

let toastTimer = 0;
function toast(text: string): void {
  const t = byId('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (t.hidden = true), 6000);
}

class App {
  private editor: Editor;
  private session = new Session(MAIN_THREAD_MILLIS);
  private play: PlayPane;
  private seats: Seats;
  private ground: GroundPane;
  private grounder: GroundClient;
  /** What `auto` picks for the loaded rules (from the grounding worker), or why it could not tell. */
  private choice: EngineChoice | string | null = null;
  private graphFocus: string | null = null;
  private loaded: LoadResult | null = null;
  private loadedText = '';
  /** The moves of the last game shown, kept while the rules have errors. */
  private kept: { moves: string[][]; step: number } = { moves: [], step: 0 };
  private orientation: BoardView = { swap: false, flip: false };
  private scale = 1;
  private lintTimer = 0;
  private saveTimer = 0;
  private tab = 'play';
  private graphStale = true;
  private solver: Running | null = null;
  private selectTab: (id: string) => void = () => {};

  constructor(
    module: WebAssembly.Module,
    caps: Capabilities,
    start: Shared & { view: BoardView },
    scale: number,
  ) {
    this.orientation = start.view;
    this.kept = { moves: start.moves, step: start.step };
    this.play = new PlayPane({
      play: (joint) => this.update(() => api.play(this.session, joint)),
      undo: () => this.update(() => api.undo(this.session)),
      redo: () => this.update(() => api.redo(this.session)),
      goTo: (step) => this.update(() => api.goTo(this.session, step)),
      orient: (o) => {
        this.orientation = o;
        this.scheduleSave();
      },
      explain: (atom, step) => {
        try {
          return api.explain(this.session, atom, step);
        } catch (e) {
          return errorMessage(e);
        }
      },
      reveal: (line) => this.revealLine(line),
      solve: () => this.solve(module),
      preview: (chosen) => this.ground.preview(chosen),
      showGround: (atom) => {
        this.selectTab('ground');
        this.ground.showAtom(atom);
      },
      cancelSolve: () => {
        this.solver?.stop();
        this.solver = null;
        this.play.solving(false);
      },
    });
    this.play.setOrientation(this.orientation, false);
    // Computers at the seats play the position shown: the rules loaded. The panes run what
    // the editor holds, typed a moment ago or not.
    this.seats = new Seats(module, () => (this.loaded?.ok ? this.loadedText : null), (role, move) => this.play.choose(role, move));
    const typed = () => (this.current()?.ok ? this.loadedText : null);
    new MatchPane(module, typed);
    this.grounder = new GroundClient(module);
    this.ground = new GroundPane(this.grounder, {
      play: (joint) => this.update(() => api.play(this.session, joint)),
      cancel: () => {
        this.grounder.stop();
        this.ground.cancelled();
        if (this.choice === null) {
          this.choice = 'grounding was cancelled';
          this.showEngine();
        }
      },
      showMoveRules: () => this.selectTab('ground'),
      showInGraph: (relation) => {
        this.graphFocus = relation;
        this.selectTab('graph');
      },
    });
    new PlayoutsPane(module, caps, () => {
      const game = this.current();
      return game?.ok ? { text: this.loadedText, roles: game.roles } : null;
    });
    new AnalysisPane(module, typed, () => this.workerEngine(), (moves) => this.openPath(moves));
    this.editor = createEditor(byId('editor'), start.rules, () => this.onEdit());
    metrics.text = () => this.editor.text();
    this.setScale(scale);
    this.wireToolbar();
    this.wireTabs();
    new LessonPane(module, {
      open: (text) => this.openRules(text, { swap: false, flip: false }),
      text: () => this.editor.text(),
    });
    this.reload();
    addEventListener('pagehide', () => this.saveNow());
    addEventListener('hashchange', () => this.openLink(location.hash));
  }

  private onEdit(): void {
    clearTimeout(this.lintTimer);
    this.lintTimer = window.setTimeout(() => this.reload(), LINT_DELAY_MS);
    this.scheduleSave();
  }

  /** The rules as the editor holds them now: edits still waiting for the lint delay are
   * loaded first, so that a run started right after typing runs what was typed. */
  private current(): LoadResult | null {
    if (this.editor.text() !== this.loadedText) this.reload();
    return this.loaded;
  }

  /** Loads the editor's text into the engine and refreshes every view of it. */
  reload(): void {
    clearTimeout(this.lintTimer);
    const text = this.editor.text();
    const res = api.load(this.session, text);
    // New rules: thinking computers start again on them (or stop, if they have errors).
    this.seats.clear();
    metrics.loads++;
    this.loaded = res;
    this.loadedText = text;
    this.editor.showDiagnostics(res.diagnostics);
    this.renderProblems(res);
    this.renderSyntax(res.syntax);
    this.choice = null;
    if (res.ok) {
      this.startGrounding(text, res.syntax);
      this.ground.loaded();
    } else {
      this.grounder.stop();
      this.ground.noRules();
    }
    if (res.ok) {
      try {
        this.play.setDomain(this.session.domain(), api.view(this.session).state);
        const played = this.session.replay(this.kept.moves);
        if (played < this.kept.moves.length && this.kept.moves.length > 0) {
          toast(`${played} of the ${this.kept.moves.length} moves played before could be replayed with these rules; the game continues from there.`);
        }
        this.show(api.goTo(this.session, Math.min(this.kept.step, played)));
      } catch (e) {
        this.play.showMessage(`The game cannot be played: ${errorMessage(e)}`);
      }
    } else {
      this.play.showMessage(`Fix the ${res.errors === 1 ? 'error' : `${res.errors} errors`} in the rules to play. The moves played so far are kept.`);
    }
    this.graphStale = true;
    this.refreshTab();
  }

  /** Loads the rules in the grounding worker: it says which engine `auto` picks, and grounds
   * them for the grounded-rules pane when that asks. */
  private startGrounding(text: string, syntax: 'prefix' | 'infix'): void {
    this.grounder.load(text, syntax, {
      phase: (p) => this.ground.grounding(p),
      engine: (choice) => {
        this.choice = choice;
        this.adoptEngine();
      },
      ready: (program) => this.ground.ready(program),
      error: (message) => {
        if (this.choice === null) this.choice = `the game could not be grounded: ${message}`;
        this.ground.failed(message);
        this.showEngine();
      },
    });
  }

  /** Plays on the propositional network when `auto` picks it and it builds quickly. */
  private adoptEngine(): void {
    const c = this.choice;
    if (typeof c !== 'object' || c === null || c.engine !== 'propnet' || c.engineMs > MAIN_ENGINE_MS) return this.showEngine();
    try {
      this.session.setEngine('auto');
      const played = this.session.replay(this.kept.moves);
      this.show(api.goTo(this.session, Math.min(this.kept.step, played)));
    } catch (e) {
      toast(`The propositional network could not be used: ${errorMessage(e)}`);
    }
  }

  /** The engine workers should use: what `auto` picked, once known. */
  private workerEngine(): string {
    return typeof this.choice === 'object' && this.choice !== null ? this.choice.engine : 'auto';
  }

  /** Why this engine plays, for the engine line (after the engine's name). */
  private engineNote(view: View): string {
    const c = this.choice;
    const why = (note: string) => (note.startsWith(`${view.engine} `) ? note.slice(view.engine.length + 1) : note);
    if (view.engine !== 'reasoner') return `${why(view.engineNote)}; chosen by auto: the game grounds`;
    if (c === null) return 'for now: auto is grounding the game in a worker to see whether the propositional network can play it';
    if (typeof c === 'string') return `(${c})`;
    if (c.engine === 'propnet') return `on this page: the propositional network takes ${c.engineMs.toFixed(0)} ms to build, so Best moves and Analysis use it in their workers`;
    return why(c.engineNote);
  }

  private showEngine(): void {
    try {
      if (this.loaded?.ok) this.show(api.view(this.session));
    } catch {
      // No position to show: the play pane says why.
    }
  }

  private show(view: View): void {
    this.play.render({ ...view, engineNote: this.engineNote(view) });
    this.ground.setPosition(view);
    this.seats.update(view);
    this.kept = { moves: view.history, step: view.step };
    this.scheduleSave();
  }

  /** Runs a play action and shows its view; measures click-to-update time. */
  private update(action: () => View): void {
    const t0 = performance.now();
    try {
      this.show(action());
    } catch (e) {
      toast(errorMessage(e));
    }
    metrics.lastUpdateMs = performance.now() - t0;
  }

  /** Solves the position shown, in a worker; the answer is dropped if the position changed. */
  private solve(module: WebAssembly.Module): void {
    if (!this.loaded?.ok) return;
    this.solver?.stop();
    const step = this.kept.step;
    const moves = this.kept.moves.slice(0, step);
    const key = JSON.stringify(moves);
    this.play.solving(true);
    this.solver = runTask({ module, rules: this.loadedText, engine: this.workerEngine(), moves, task: { kind: 'solve', budget: SOLVE_BUDGET } }, (reply) => {
      this.solver = null;
      if (JSON.stringify(this.kept.moves.slice(0, this.kept.step)) !== key) return this.play.solving(false);
      if (reply.type === 'solved') this.play.showSolution(reply.solution, step);
      else if (reply.type === 'error') this.play.showSolution(`The position could not be solved: ${reply.message}`, step);
    });
  }

  /** Plays a witness path from the analysis pane and shows it in the play pane. */
  private openPath(moves: string[][]): void {
    if (!this.loaded?.ok) return;
    const played = this.session.replay(moves);
    this.show(api.goTo(this.session, played));
    this.selectTab('play');
    if (played < moves.length) toast(`Only ${played} of the ${moves.length} moves are legal with the current rules.`);
  }

  /** Selects line `line` of the rules in the editor. */
  private revealLine(line: number): void {
    const text = this.editor.text();
    let from = 0;
    for (let i = 1; i < line && from >= 0; i++) from = text.indexOf('\n', from) + 1;
    const end = text.indexOf('\n', from);
    this.editor.reveal(from, end < 0 ? text.length : end);
  }

  private renderProblems(res: LoadResult): void {
    const status = byId('status');
    status.classList.toggle('bad', !res.ok);
    if (res.ok) {
      const w = res.warnings ? ` · ${res.warnings} warning${res.warnings === 1 ? '' : 's'}` : '';
      status.textContent = `✓ Valid: ${res.roles.length} role${res.roles.length === 1 ? '' : 's'} (${res.roles.join(', ')})${w}`;
    } else {
      status.textContent = `✗ ${res.errors} error${res.errors === 1 ? '' : 's'}${res.warnings ? `, ${res.warnings} warning${res.warnings === 1 ? '' : 's'}` : ''}`;
    }
    const list = byId('problems');
    list.replaceChildren(
      ...res.diagnostics.map((d) =>
        h(
          'button',
          { type: 'button', class: `problem ${d.severity}`, onclick: () => this.editor.reveal(d.from, d.to) },
          h('span', { class: 'where' }, `Line ${d.line}, column ${d.column}`),
          h('span', { class: 'sev' }, `${d.severity}[${d.code}]`),
          h('span', { class: 'what' }, d.message),
        ),
      ),
    );
  }

  private renderSyntax(syntax: 'prefix' | 'infix'): void {
    byId('to-prefix').setAttribute('aria-pressed', String(syntax === 'prefix'));
    byId('to-infix').setAttribute('aria-pressed', String(syntax === 'infix'));
  }

  private convert(to: 'prefix' | 'infix'): void {
    if (this.loaded?.syntax === to) return;
    try {
      this.editor.setText(formatText(this.editor.text(), to));
      this.reload();
      toast(`Converted to ${to} syntax. Undo in the editor (Ctrl+Z) brings the previous text back.`);
    } catch (e) {
      toast(errorMessage(e));
    }
  }

  private wireToolbar(): void {
    const select = byId<HTMLSelectElement>('examples');
    select.append(
      ...exampleGroups().map((g) => h('optgroup', { label: g.label }, ...g.examples.map((e) => h('option', { value: e.id, title: e.summary }, e.title)))),
    );
    select.addEventListener('change', () => {
      const ex = example(select.value);
      select.value = '';
      if (!ex) return;
      this.openRules(ex.text, ex.view);
      toast(`Loaded ${ex.title}. Undo in the editor (Ctrl+Z) brings your previous rules back.`);
    });
    byId('to-prefix').addEventListener('click', () => this.convert('prefix'));
    byId('to-infix').addEventListener('click', () => this.convert('infix'));
    byId('smaller').addEventListener('click', () => this.setScale(this.scale - 0.1));
    byId('larger').addEventListener('click', () => this.setScale(this.scale + 0.1));
    byId('banner-close').addEventListener('click', () => (byId('banner').hidden = true));
    byId('share').addEventListener('click', () => this.share());
    byId('share-copy').addEventListener('click', () => {
      const input = byId<HTMLInputElement>('share-link');
      input.select();
      navigator.clipboard?.writeText(input.value).then(
        () => (byId('share-note').textContent = 'Copied to the clipboard.'),
        () => (byId('share-note').textContent = 'Select the link and copy it (Ctrl+C).'),
      );
    });
  }

  /** Puts new rules in the editor as a fresh game (an example, a lesson). */
  private openRules(text: string, view: BoardView): void {
    this.kept = { moves: [], step: 0 };
    this.orientation = view;
    this.play.setOrientation(view, false);
    this.editor.setText(text);
    this.reload();
  }

  private setScale(s: number): void {
    this.scale = Math.round(Math.min(1.8, Math.max(0.7, s)) * 10) / 10;
    document.documentElement.style.setProperty('--scale', String(this.scale));
    this.scheduleSave();
  }

  private wireTabs(): void {
    const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const select = (tab: HTMLButtonElement) => {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        byId(t.getAttribute('aria-controls')!).hidden = !on;
      }
      this.tab = tab.id.replace('tab-', '');
      this.refreshTab();
    };
    this.selectTab = (id) => {
      const tab = tabs.find((t) => t.id === `tab-${id}`);
      if (tab) select(tab);
    };
    tabs.forEach((t, i) => {
      t.tabIndex = t.getAttribute('aria-selected') === 'true' ? 0 : -1;
      t.addEventListener('click', () => select(t));
      t.addEventListener('keydown', (e) => {
        const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
        if (!d) return;
        const next = tabs[(i + d + tabs.length) % tabs.length];
        next.focus();
        select(next);
      });
    });
  }

  /** Draws the visible pane if what it shows depends on the text. */
  private refreshTab(): void {
    this.ground.setVisible(this.tab === 'ground');
    if (this.tab === 'graph' && this.graphStale) {
      this.graphStale = false;
      void this.drawGraph(this.editor.text());
    } else if (this.tab === 'graph' && this.graphFocus) {
      void this.focusGraph();
    }
  }

  /** Highlights the relation asked for from the grounded-rules pane. */
  private async focusGraph(): Promise<void> {
    const id = this.graphFocus;
    this.graphFocus = null;
    if (!id) return;
    const { highlightRelation } = await import('./graph/graph');
    if (!highlightRelation(id)) toast(`${id} is not in the rule graph: the grounder made it (a part of a rule, or a copy for some constants).`);
  }

  private async drawGraph(text: string): Promise<void> {
    const msg = byId('graph-message');
    let graph;
    try {
      graph = api.ruleGraph(text);
    } catch (e) {
      msg.textContent = errorMessage(e);
      msg.hidden = false;
      return;
    }
    msg.hidden = true;
    const { drawGraph } = await import('./graph/graph');
    drawGraph(byId('graph'), graph);
    if (this.graphFocus) void this.focusGraph();
  }

  private share(): void {
    const hash = encodeShare({ rules: this.editor.text(), moves: this.kept.moves, step: this.kept.step, view: this.orientation });
    const link = `${location.origin}${location.pathname}#${hash}`;
    const input = byId<HTMLInputElement>('share-link');
    input.value = link.length > MAX_LINK ? '' : link;
    byId('share-note').textContent =
      link.length > MAX_LINK
        ? `These rules are too large for a link (${Math.round(link.length / 1e6)} million characters, more than browsers accept). Share the rules as a file instead.`
        : link.length > LONG_LINK
        ? `This link is long (${Math.round(link.length / 1000)} thousand characters): some chat and mail programs cut long links. Test it before sending.`
        : `${link.length.toLocaleString('en')} characters.`;
    byId<HTMLDialogElement>('share-dialog').showModal();
    input.select();
  }

  /** Opens a share link pasted into this tab's address bar. */
  openLink(hash: string): void {
    if (hash.length <= 1) return;
    try {
      const s = decodeShare(hash);
      history.replaceState(null, '', location.pathname + location.search);
      this.kept = { moves: s.moves, step: s.step };
      if (s.view) this.play.setOrientation(s.view);
      this.editor.setText(s.rules);
      this.reload();
      toast('Opened the shared game.');
    } catch (e) {
      showBanner(errorMessage(e));
    }
  }

  private scheduleSave(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  private saveNow(): void {
    clearTimeout(this.saveTimer);
    if (!this.editor) return;
    const ok = save({ rules: this.editor.text(), moves: this.kept.moves, step: this.kept.step, view: this.orientation, scale: this.scale });
    if (!ok) byId('status').textContent += ' · autosave failed: the browser refuses to store data';
  }
}

/** Where the first rules come from: a share link, else the autosave, else tic-tac-toe. */
function startingPoint(): { start: Shared & { view: BoardView }; scale: number; linkError: string | null; fromLink: boolean } {
  const saved = loadSaved();
  const scale = typeof saved?.scale === 'number' ? saved.scale : 1;
  let linkError: string | null = null;
  if (location.hash.length > 1) {
    try {
      const s = decodeShare(location.hash);
      // The link has been read: a reload now shows the autosaved work, edits included.
      history.replaceState(null, '', location.pathname + location.search);
      return { start: { ...s, view: s.view ?? { swap: false, flip: false } }, scale, linkError, fromLink: true };
    } catch (e) {
      linkError = e instanceof ShareError ? e.message : `The share link could not be opened: ${errorMessage(e)}`;
    }
  }
  if (saved?.rules !== undefined) {
    const moves = Array.isArray(saved.moves) ? saved.moves : [];
    const view = saved.view ?? { swap: false, flip: false };
    return { start: { rules: saved.rules, moves, step: saved.step ?? moves.length, view }, scale, linkError, fromLink: false };
  }
  const ex = example(DEFAULT_EXAMPLE) ?? examples[0];
  return { start: { rules: ex?.text ?? '', moves: [], step: 0, view: ex?.view ?? { swap: false, flip: false } }, scale, linkError, fromLink: false };
}

async function boot(): Promise<void> {
  const { start, scale, linkError, fromLink } = startingPoint();
  if (linkError) showBanner(`${linkError} Showing ${loadSaved() ? 'your last saved rules' : 'tic-tac-toe'} instead.`);
  const module = await startEngine();
  new App(module, api.capabilities(), start, scale);
  if (fromLink) toast('Opened the shared game.');
  metrics.readyMs = performance.now();
  document.body.dataset.ready = 'true';
  registerOffline();
}

boot().catch((e) => {
  byId('status').textContent = 'The engine could not start.';
  showBanner(`The engine could not start: ${errorMessage(e)}. Try a recent version of Chrome, Firefox, Safari or Edge.`);
});
