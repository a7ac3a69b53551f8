// The Lessons menu: opens a lesson (its text, its starter rules in the editor), checks the
// learner's rules against the lesson's requirements with the engine, and keeps the progress
// in the browser.

import { byId, h } from './dom';
import { Session, api, errorMessage } from './engine';
import { lessons, type Check, type Lesson } from './lesson-data';
import { loadProgress, saveProgress, type Progress } from './storage';

export interface Verdict {
  text: string;
  ok: boolean;
  /** What went wrong, in words. */
  why: string;
}

/** Plays `after` from the initial state; returns an error text when a move is not legal. */
function replay(s: Session, after: string[][] | undefined): string | null {
  const moves = after ?? [];
  const played = s.replay(moves);
  if (played < moves.length) return `the moves ${moves[played].join(', ')} are not legal after ${played} step${played === 1 ? '' : 's'}`;
  return null;
}

/** Checks one requirement on the loaded session; returns what went wrong, or '' if it holds. */
function verdict(s: Session, check: Check): string {
  switch (check.kind) {
    case 'roles': {
      const roles = api.view(s).roles;
      return roles.join(' ') === check.roles.join(' ') ? '' : `the roles are ${roles.join(', ') || 'missing'}`;
    }
    case 'state': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const state = api.view(s).state;
      const missing = check.has.filter((f) => !state.includes(f));
      if (missing.length) return `the state lacks ${missing.join(', ')}`;
      const extra = (check.lacks ?? []).filter((f) => state.includes(f));
      if (extra.length) return `the state still holds ${extra.join(', ')}`;
      if (check.size !== undefined && state.length !== check.size) return `the state has ${state.length} fluents, not ${check.size}`;
      return '';
    }
    case 'legal': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const view = api.view(s);
      const legal = view.legal[view.roles.indexOf(check.role)];
      if (!legal) return `there is no role ${check.role}`;
      const missing = (check.has ?? []).filter((m) => !legal.includes(m));
      if (missing.length) return `${check.role} cannot play ${missing.join(', ')}`;
      if (check.count !== undefined && legal.length !== check.count) return `${check.role} has ${legal.length} legal moves, not ${check.count}`;
      return '';
    }
    case 'outcome': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const view = api.view(s);
      if (!view.terminal) return 'the game is not over after these moves';
      const wrong = Object.entries(check.goals).filter(([role, value]) => {
        const goals = view.goals?.[view.roles.indexOf(role)] ?? [];
        return goals.length !== 1 || goals[0] !== value;
      });
      return wrong.length ? wrong.map(([role, value]) => `${role} should score ${value}, not ${(view.goals?.[view.roles.indexOf(role)] ?? []).join(' and ') || 'nothing'}`).join('; ') : '';
    }
    case 'ends': {
      s.goTo(0);
      s.seed(1);
      const batch = api.playouts(s, check.playouts, check.maxSteps);
      return batch.cut ? `${batch.cut} of ${batch.playouts} random games were still going after ${check.maxSteps} moves` : '';
    }
    case 'well-formed': {
      const report = api.analyze(s, 50_000, 500, 200, 1);
      const failed = report.checks.filter((c) => c.required && c.outcome !== 'holds');
      return failed.map((c) => `${c.name}${c.role ? ` (${c.role})` : ''}: ${c.detail}`).join('; ');
    }
  }
}

/** Checks `text` against every requirement of `lesson`; the first verdict says whether the rules load. */
export function checkLesson(s: Session, lesson: Lesson, text: string): Verdict[] {
  const loaded = api.load(s, text);
  const first: Verdict = {
    text: 'The rules load without errors.',
    ok: loaded.ok,
    why: loaded.ok ? '' : `${loaded.errors} error${loaded.errors === 1 ? '' : 's'}: see the list under the editor`,
  };
  return [
    first,
    ...lesson.requirements.map((r) => {
      if (!loaded.ok) return { text: r.text, ok: false, why: 'the rules must load first' };
      let why: string;
      try {
        why = verdict(s, r.check);
      } catch (e) {
        why = errorMessage(e);
      }
      return { text: r.text, ok: why === '', why };
    }),
  ];
}

export interface LessonHost {
  /** Puts rules into the editor as a fresh game. */
  open(text: string): void;
  /** The editor's current rules. */
  text(): string;
}

/** The menu and the lesson panel above the editor. */
export class LessonPane {
  private progress: Progress = loadProgress();
  private lesson: Lesson | null = null;

  constructor(
    private session: Session,
    private host: LessonHost,
  ) {
    byId<HTMLSelectElement>('lessons').addEventListener('change', (e) => {
      const select = e.target as HTMLSelectElement;
      const lesson = lessons.find((l) => l.id === select.value);
      select.value = '';
      if (lesson) this.start(lesson);
    });
    byId('lesson-check').addEventListener('click', () => this.check());
    byId('lesson-reset').addEventListener('click', () => this.lesson && this.host.open(this.lesson.starter));
    byId('lesson-next').addEventListener('click', () => {
      const next = lessons[lessons.findIndex((l) => l.id === this.lesson?.id) + 1];
      if (next) this.start(next);
    });
    byId('lesson-close').addEventListener('click', () => this.show(null));
    this.renderMenu();
    this.show(lessons.find((l) => l.id === this.progress.open) ?? null);
  }

  /** Opens a lesson with its starter rules. */
  private start(lesson: Lesson): void {
    this.host.open(lesson.starter);
    this.show(lesson);
  }

  private show(lesson: Lesson | null): void {
    this.lesson = lesson;
    this.progress.open = lesson?.id ?? null;
    saveProgress(this.progress);
    const panel = byId('lesson');
    panel.hidden = !lesson;
    if (!lesson) return;
    const n = lessons.indexOf(lesson) + 1;
    byId('lesson-title').textContent = `Lesson ${n} of ${lessons.length}: ${lesson.title}`;
    byId('lesson-text').replaceChildren(...lesson.text.map((p) => h('p', {}, p)));
    byId('lesson-results').replaceChildren(
      ...lesson.requirements.map((r) => h('li', { class: 'todo' }, h('span', { class: 'mark', 'aria-hidden': 'true' }, '○'), r.text)),
    );
    byId('lesson-next').hidden = n === lessons.length;
    this.renderStatus();
  }

  private check(): void {
    const lesson = this.lesson;
    if (!lesson) return;
    const verdicts = checkLesson(this.session, lesson, this.host.text());
    byId('lesson-results').replaceChildren(
      ...verdicts.map((v) =>
        h(
          'li',
          { class: v.ok ? 'pass' : 'fail' },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, v.ok ? '✓' : '✗'),
          v.text,
          v.ok ? null : h('span', { class: 'why' }, ` — ${v.why}.`),
        ),
      ),
    );
    const passed = verdicts.every((v) => v.ok);
    if (passed && !this.progress.done.includes(lesson.id)) this.progress.done.push(lesson.id);
    saveProgress(this.progress);
    this.renderMenu();
    this.renderStatus(passed ? 'Well done: every requirement holds.' : 'Not yet: see the requirements marked ✗.');
  }

  private renderStatus(note = ''): void {
    const done = this.progress.done.includes(this.lesson?.id ?? '');
    byId('lesson-status').textContent = [done ? '✓ Done.' : '', note].filter(Boolean).join(' ');
  }

  private renderMenu(): void {
    const select = byId<HTMLSelectElement>('lessons');
    const count = lessons.filter((l) => this.progress.done.includes(l.id)).length;
    select.replaceChildren(
      h('option', { value: '' }, `Lessons (${count}/${lessons.length} done)…`),
      ...lessons.map((l, i) => h('option', { value: l.id }, `${this.progress.done.includes(l.id) ? '✓' : '○'} ${i + 1}. ${l.title}`)),
    );
  }
}
