import { describe, expect, it } from 'vitest';
import { exampleGroups, examples } from './examples';
import { lessons } from '../lessons/data';

describe('lessons', () => {
  it('are 6 to 9 steps on rules with distinct ids, starter rules and requirements', () => {
    const onRules = lessons.filter((l) => !l.match);
    expect(onRules.length).toBeGreaterThanOrEqual(6);
    expect(onRules.length).toBeLessThanOrEqual(9);
    expect(new Set(lessons.map((l) => l.id)).size).toBe(lessons.length);
    for (const l of onRules) {
      expect(l.starter.trim(), l.id).not.toBe('');
      expect(l.text.length, l.id).toBeGreaterThan(0);
      expect(l.requirements.length, l.id).toBeGreaterThan(0);
    }
  });

  it('then lessons on players: a starter player, a game and a match that can be won', () => {
    const onPlayers = lessons.filter((l) => l.match);
    expect(onPlayers.map((l) => l.id)).toEqual(['player-legal', 'player-random', 'player-lookahead', 'player-minimax', 'player-heuristic', 'player-montecarlo', 'player-factoring']);
    for (const l of onPlayers) {
      const m = l.match!;
      expect(l.starter, l.id).toMatch(/^function play\(game\)/m);
      expect(m.game, l.id).toMatch(/^\(role /m);
      if (m.rival !== undefined) expect(m.rival, l.id).toMatch(/^function play\(game\)/m);
      expect(m.wins, l.id).toBeLessThanOrEqual(m.games);
      expect(m.varied, l.id).toBeLessThanOrEqual(m.games);
    }
  });

  it('start the lesson on percepts from Monty Hall without its sees rules', () => {
    const sees = lessons.find((l) => l.id === 'sees');
    expect(sees?.starter).toMatch(/^; Lesson 7: what each role sees/);
    expect(sees?.starter).toMatch(/Write the sees rules here/);
    expect(sees?.starter).not.toMatch(/^\(<= \(sees/m);
    expect(sees?.starter).toMatch(/^\(role random\)/m);
  });

  it('take the find-the-bug starters from the bug- examples', () => {
    const bugs = lessons.filter((l) => l.id.startsWith('bug-'));
    expect(bugs.length).toBeGreaterThan(0);
    for (const l of bugs) expect(l.starter).toBe(examples.find((e) => e.id === l.id)?.text);
  });
});

describe('examples', () => {
  it('have a title and a one-line summary from their first two comment lines', () => {
    const ttt = examples.find((e) => e.id === 'tictactoe');
    expect(ttt?.title).toBe('Tic-tac-toe');
    expect(ttt?.summary).toMatch(/^Three in a row/);
    expect(examples.every((e) => e.summary.length > 20)).toBe(true);
  });

  it('are each in one menu group; the bug- games make up "Find the bug"', () => {
    const grouped = exampleGroups().flatMap((g) => g.examples.map((e) => e.id));
    expect(grouped.slice().sort()).toEqual(examples.map((e) => e.id).sort());
    const bugs = exampleGroups().find((g) => g.label === 'Find the bug')?.examples.map((e) => e.id);
    expect(bugs?.slice().sort()).toEqual(examples.filter((e) => e.id.startsWith('bug-')).map((e) => e.id).sort());
  });
});
