// Checks a learner's rules against a lesson's requirements with the engine. Runs in the
// analyses worker (analysis/analysis-worker.ts), so a slow check never freezes the page.

import { Session, errorMessage } from '../engine/engine';
import type { Check, Requirement } from './data';

export interface Verdict {
  text: string;
  ok: boolean;
  /** What went wrong, in words. */
  why: string;
}

/** Items most shown in a verdict's list. */
const SHOWN = 4;

/** "a, b, c" or, for a long list, "a, b, c, d and 5 more". */
export function some(items: string[]): string {
  if (items.length <= SHOWN + 1) return items.join(', ');
  return `${items.slice(0, SHOWN).join(', ')} and ${items.length - SHOWN} more`;
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
      const roles = s.view().roles;
      return roles.join(' ') === check.roles.join(' ') ? '' : `the roles are ${roles.join(', ') || 'missing'}`;
    }
    case 'state': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const state = s.view().state;
      const missing = check.has.filter((f) => !state.includes(f));
      if (missing.length) return `the state lacks ${some(missing)}`;
      const extra = (check.lacks ?? []).filter((f) => state.includes(f));
      if (extra.length) return `the state still holds ${some(extra)}`;
      if (check.size !== undefined && state.length !== check.size) return `the state has ${state.length} fluents, not ${check.size}`;
      return '';
    }
    case 'legal': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const view = s.view();
      const legal = view.legal[view.roles.indexOf(check.role)];
      if (!legal) return `there is no role ${check.role}`;
      if (check.count !== undefined && legal.length !== check.count) return `${check.role} has ${legal.length} legal moves, not ${check.count}`;
      const missing = (check.has ?? []).filter((m) => !legal.includes(m));
      return missing.length ? `${check.role} cannot play ${some(missing)}` : '';
    }
    case 'outcome': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      const view = s.view();
      if (!view.terminal) return 'the game is not over after these moves';
      const wrong = Object.entries(check.goals).filter(([role, value]) => {
        const goals = view.goals?.[view.roles.indexOf(role)] ?? [];
        return goals.length !== 1 || goals[0] !== value;
      });
      return wrong.length ? wrong.map(([role, value]) => `${role} should score ${value}, not ${(view.goals?.[view.roles.indexOf(role)] ?? []).join(' and ') || 'nothing'}`).join('; ') : '';
    }
    case 'sees': {
      const bad = replay(s, check.after);
      if (bad) return bad;
      // Whether the role perceives `p` with the last move: the engine's explanation says.
      const sees = (p: string): boolean => s.explain(`(sees ${check.role} ${p})`, check.after.length - 1).holds;
      const missing = (check.has ?? []).filter((p) => !sees(p));
      if (missing.length) return `${check.role} does not see ${some(missing)}`;
      const extra = (check.lacks ?? []).filter(sees);
      return extra.length ? `${check.role} sees ${some(extra)}, which it must not see here` : '';
    }
    case 'ends': {
      s.goTo(0);
      s.seed(1);
      const batch = s.playouts(check.playouts, check.maxSteps);
      return batch.cut ? `${batch.cut} of ${batch.playouts} random games were still going after ${check.maxSteps} moves` : '';
    }
    case 'well-formed': {
      const report = s.analyze(50_000, 500, 200, 1);
      const failed = report.checks.filter((c) => c.required && c.outcome !== 'holds');
      return failed.map((c) => `${c.name}${c.role ? ` (${c.role})` : ''}: ${c.detail}`).join('; ');
    }
  }
}

/** Checks `text` against every requirement; the first verdict says whether the rules load. */
export function checkLesson(s: Session, requirements: Requirement[], text: string): Verdict[] {
  const loaded = s.load(text);
  const first: Verdict = {
    text: 'The rules load without errors.',
    ok: loaded.ok,
    why: loaded.ok ? '' : `${loaded.errors} error${loaded.errors === 1 ? '' : 's'}: see the list under the editor`,
  };
  return [
    first,
    ...requirements.map((r) => {
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
