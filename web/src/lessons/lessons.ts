// The Lessons menu: opens a lesson (its text, its starter rules in the editor), checks the
// learner's rules against the lesson's requirements (check.ts, in a worker) or, in a lesson on
// players, plays the player of My players in matches (player-check.ts), and keeps the
// progress in the browser.

import { byId, h } from '../dom';
import { showView } from '../layout';
import type { Verdict } from './check';
import { lessons, type Lesson, type MatchCheck } from './data';
import { draftPlayer, editedPlayer } from '../student/panel';
import { loadProgress, saveProgress, type Progress } from '../storage/storage';
import { runTask, type Running } from '../analysis/tasks';

export interface LessonHost {
  /** Puts rules into the editor as a fresh game. */
  open(text: string): void;
  /** The editor's current rules. */
  text(): string;
}

/** The menu and the lesson panel above the editor. */
export class LessonPane {
  #progress: Progress = loadProgress();
  #lesson: Lesson | null = null;
  #checking: Pick<Running, 'stop'> | null = null;

  constructor(
    private module: WebAssembly.Module,
    private host: LessonHost,
  ) {
    byId<HTMLSelectElement>('lessons').addEventListener('change', (e) => {
      const select = e.target as HTMLSelectElement;
      const lesson = lessons.find((l) => l.id === select.value);
      select.value = '';
      if (lesson) this.#start(lesson);
    });
    byId('lesson-check').addEventListener('click', () => this.#check());
    byId('lesson-reset').addEventListener('click', () => this.#lesson && this.#reset(this.#lesson));
    byId('lesson-next').addEventListener('click', () => {
      const next = lessons[lessons.findIndex((l) => l.id === this.#lesson?.id) + 1];
      if (next) this.#start(next);
    });
    byId('lesson-close').addEventListener('click', () => this.#show(null));
    byId('lesson-fold').addEventListener('click', () => this.#fold(!byId('lesson-text').hidden));
    this.#renderMenu();
    this.#show(lessons.find((l) => l.id === this.#progress.open) ?? null);
  }

  /** Opens a lesson with its starter rules (a lesson on players: its game in the editor, its
   * starter player in My players). */
  #start(lesson: Lesson): void {
    this.#reset(lesson);
    this.#show(lesson);
    showView('rules');
  }

  #reset(lesson: Lesson): void {
    if (!lesson.match) return this.host.open(lesson.starter);
    this.host.open(lesson.match.game);
    void draftPlayer(lesson.title.toLowerCase(), lesson.starter);
  }

  #show(lesson: Lesson | null): void {
    this.#checking?.stop();
    this.#checking = null;
    this.#lesson = lesson;
    this.#progress.open = lesson?.id ?? null;
    saveProgress(this.#progress);
    const panel = byId('lesson');
    panel.hidden = !lesson;
    if (!lesson) return;
    const n = lessons.indexOf(lesson) + 1;
    byId('lesson-title').textContent = `Lesson ${n} of ${lessons.length}: ${lesson.title}`;
    this.#fold(false);
    byId('lesson-text').replaceChildren(...lesson.text.map((p) => h('p', {}, p)));
    const results = byId('lesson-results');
    results.removeAttribute('data-state');
    const texts = lesson.match ? [lesson.match.text] : lesson.requirements.map((r) => r.text);
    results.replaceChildren(...texts.map((text) => h('li', { class: 'todo' }, h('span', { class: 'mark', 'aria-hidden': 'true' }, '○'), text)));
    byId('lesson-next').hidden = n === lessons.length;
    this.#renderStatus();
  }

  /** Checks the editor's rules in a worker; a new check or another lesson cancels it. */
  #check(): void {
    const lesson = this.#lesson;
    if (!lesson) return;
    this.#checking?.stop();
    byId('lesson-results').setAttribute('data-state', 'checking');
    this.#renderStatus('Checking…');
    if (lesson.match) return void this.#checkPlayer(lesson, lesson.match);
    const task = { kind: 'lesson' as const, requirements: lesson.requirements };
    this.#checking = runTask({ module: this.module, rules: this.host.text(), engine: 'auto', moves: [], task }, (reply) => {
      this.#checking = null;
      if (reply.type === 'checked') this.#showVerdicts(lesson, reply.verdicts);
      else this.#renderStatus(`The check could not run: ${reply.type === 'error' ? reply.message : reply.type}.`);
    });
  }

  /** Plays the player in My players against the lesson's opponent (player-check.ts). */
  async #checkPlayer(lesson: Lesson, match: MatchCheck): Promise<void> {
    const code = await editedPlayer();
    if (code === null) return this.#renderStatus('Write your player in the Play tab\'s My players box first.');
    let stopped = false;
    const running = { stop: () => (stopped = true) };
    this.#checking = running;
    const { checkPlayer } = await import('./player-check');
    const progress = (k: number) => this.#renderStatus(`Playing game ${k} of ${match.games}…`);
    const result = await checkPlayer(match, code, progress, () => stopped).catch((e: Error) => ({ ok: false, why: `the check could not run: ${e.message}`, games: [] }));
    if (stopped) return;
    this.#checking = null;
    this.#showVerdicts(lesson, [{ text: match.text, ok: result.ok, why: result.why }], result.games);
  }

  #showVerdicts(lesson: Lesson, verdicts: Verdict[], games: string[] = []): void {
    const results = byId('lesson-results');
    results.setAttribute('data-state', 'checked');
    results.replaceChildren(
      ...verdicts.map((v) =>
        h(
          'li',
          { class: v.ok ? 'pass' : 'fail' },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, v.ok ? '✓' : '✗'),
          v.text,
          v.ok ? null : h('span', { class: 'why' }, ` — ${v.why}.`),
        ),
      ),
      games.length ? h('li', { class: 'games' }, h('details', {}, h('summary', {}, `The ${games.length} games`), h('ol', {}, ...games.map((g) => h('li', {}, g))))) : '',
    );
    const passed = verdicts.every((v) => v.ok);
    if (passed && !this.#progress.done.includes(lesson.id)) this.#progress.done.push(lesson.id);
    saveProgress(this.#progress);
    this.#renderMenu();
    this.#renderStatus(passed ? 'Well done: every requirement holds.' : 'Not yet: see the requirements marked ✗.');
    // The verdicts in view: the text folds away (Show text brings it back).
    this.#fold(true);
    byId('lesson').scrollTop = 0;
  }

  /** Hides (or shows) the lesson's text; the requirements and their verdicts stay. */
  #fold(hide: boolean): void {
    byId('lesson-text').hidden = hide;
    const b = byId('lesson-fold');
    b.textContent = hide ? 'Show text' : 'Hide text';
    b.setAttribute('aria-expanded', String(!hide));
  }

  #renderStatus(note = ''): void {
    const done = this.#progress.done.includes(this.#lesson?.id ?? '');
    byId('lesson-status').textContent = [done ? '✓ Done.' : '', note].filter(Boolean).join(' ');
  }

  #renderMenu(): void {
    const select = byId<HTMLSelectElement>('lessons');
    const count = lessons.filter((l) => this.#progress.done.includes(l.id)).length;
    select.title = `Lessons: ${count} of ${lessons.length} done`;
    select.replaceChildren(
      h('option', { value: '' }, `Lessons ${count}/${lessons.length}`),
      ...lessons.map((l, i) => h('option', { value: l.id }, `${this.#progress.done.includes(l.id) ? '✓' : '○'} ${i + 1}. ${l.title}`)),
    );
  }
}
