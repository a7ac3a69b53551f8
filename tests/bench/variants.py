#!/usr/bin/env python3
"""Speed on games we have not tuned for: every corpus game, disguised.

The corpus is what the engine was tuned on. A game from another server is
the same kind of text with other names, other letter case and its rules in
another order, which must not change how fast we play it. For every corpus
game this script writes a *variant* (--variants, default
target/variants/DIR/NAME.kif) that

 - renames every symbol but the GDL keywords and the numbers (relations,
   functions, constants, roles, variables) to an opaque name of its own
   (`qa41f0c2`), so no name the engine might recognise is left;
 - writes each symbol occurrence in random letter case (`LeGaL`, `?QX3`);
 - shuffles the rules and facts (the `role` facts keep their order, which
   is the order of the roles) and the conditions of every rule body and of
   every `or`,

all with a generator seeded by the game's name (same variants every run).
Then, for every variant `gdl check` accepts, it measures
`gdl bench VARIANT --engine reasoner` and `--engine auto` (one thread,
--seconds each) and compares them with the original game's row of the
speed table (tests/bench/speed.jsonl, written by speed.py in an earlier
run): the variant against the original on our side (the surface form must
not matter: ideally 1x) and the variant against the oracle on the original
(the Prolog reasoner on the text its author ordered for it: the target "no
game below 1x the oracle" must hold on variants too).

Results go to --json (default tests/bench/variants.jsonl, one row per game,
resumable like speed.py) and the markdown report --out (default
tests/bench/VARIANTS.md). `--write-only` writes the variants and stops (for
`tests/conformance/run.py --corpus target/variants`, which checks them
against the oracle).

Python 3 standard library only.
"""
import argparse
import datetime
import hashlib
import json
import os
import random
import shlex
import sys
import time

import speed

HERE = speed.HERE
REPO = speed.REPO
# GDL's keywords, and GDL-II's: `sees` and the role `random` (nature), which must keep their names.
KEYWORDS = {'role', 'init', 'true', 'does', 'next', 'legal', 'goal', 'terminal', 'base', 'input',
            'distinct', 'or', 'not', 'and', '<=', 'sees', 'random'}


# ------------------------------------------------------------------ reading and writing KIF

def tokens(text):
    """The tokens of a KIF text: '(', ')' and atoms; comments dropped."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ';':
            while i < n and text[i] != '\n':
                i += 1
        elif c in '()':
            yield c
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();':
                j += 1
            yield text[i:j]
            i = j


def parse(text):
    """The top-level sentences of a KIF text as nested lists of atoms."""
    stack = [[]]
    for tok in tokens(text):
        if tok == '(':
            stack.append([])
        elif tok == ')':
            if len(stack) == 1:
                raise ValueError('unbalanced )')
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ValueError('unbalanced (')
    return stack[0]


def show(sexp):
    return '(' + ' '.join(show(x) for x in sexp) + ')' if isinstance(sexp, list) else sexp


# ------------------------------------------------------------------ disguising a game

class Disguise:
    """One game's renaming, letter case and order, from a generator seeded by its name."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.salt = seed
        self.names = {}
        self.used = set()

    def name(self, atom):
        low = atom.lower()
        if low in KEYWORDS or low.lstrip('-').isdigit():
            return low
        if low not in self.names:
            var = low.startswith('?')
            k = 0
            while True:
                digest = hashlib.sha1(('%s|%s|%d' % (self.salt, low, k)).encode()).hexdigest()
                new = ('?q' if var else 'q') + digest[:7]
                if new not in self.used:
                    break
                k += 1
            self.used.add(new)
            self.names[low] = new
        return self.names[low]

    def case(self, atom):
        r = self.rng.random()
        if r < 0.3:
            return atom.upper()
        if r < 0.6:
            return ''.join(c.upper() if self.rng.random() < 0.5 else c for c in atom)
        return atom

    def term(self, sexp):
        """Renamed and re-cased, with the conditions of rules and `or`s shuffled."""
        if not isinstance(sexp, list):
            return self.case(self.name(sexp))
        out = [self.term(x) for x in sexp]
        head = sexp[0].lower() if sexp and not isinstance(sexp[0], list) else None
        if head == '<=' and len(out) > 3:
            body = out[2:]
            self.rng.shuffle(body)
            out = out[:2] + body
        elif head == 'or' and len(out) > 2:
            alts = out[1:]
            self.rng.shuffle(alts)
            out = out[:1] + alts
        return out

    def game(self, sentences):
        """The disguised sentences: roles first in their order, the rest shuffled."""
        def is_role(s):
            return isinstance(s, list) and s and not isinstance(s[0], list) and s[0].lower() == 'role'
        roles = [self.term(s) for s in sentences if is_role(s)]
        rest = [self.term(s) for s in sentences if not is_role(s)]
        self.rng.shuffle(rest)
        return roles + rest


def write_variant(game, path, out_path):
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    sentences = parse(text)
    d = Disguise('variant|' + game)
    lines = [show(s) for s in d.game(sentences)]
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'w', encoding='utf-8') as f:
        f.write('; a disguised variant of %s, written by tests/bench/variants.py\n' % game)
        f.write('\n'.join(lines) + '\n')


# ------------------------------------------------------------------ measuring

def measure(game, path, args):
    row = {'game': game, 'file': path, 'date': datetime.datetime.now().isoformat(timespec='seconds'),
           'seconds': args.seconds, 'max_steps': args.max_steps, 'commit': speed.git_commit()}
    status, code, out, err, _, _ = speed.run_cmd([args.gdl, 'check', path, '--json'], speed.CHECK_TIMEOUT)
    row['check'] = {'status': status, 'exit': code}
    if status != 'ok':
        row['check']['error'] = 'timeout' if status == 'timeout' else speed.short_error(out, err)
        return row
    limit = args.timeout + args.seconds
    common = ['--json', '--threads', '1', '--seconds', str(args.seconds), '--max-steps', str(args.max_steps)]
    row['reasoner'] = speed.bench_side([args.gdl, 'bench', path, '--engine', 'reasoner'] + common, limit, 'gdl')
    row['auto'] = speed.bench_side([args.gdl, 'bench', path, '--engine', 'auto'] + common, limit, 'gdl')
    return row


def rate(side):
    """An exact rate (playouts per CPU second), or None for a bound or an error."""
    if not isinstance(side, dict) or side.get('status') != 'ok' or side.get('bound'):
        return None
    return side.get('rate')


def ratio(a, b):
    return a / b if a and b else None


# ------------------------------------------------------------------ report

def write_report(rows, originals, args, command, games, elapsed):
    fr, fm = speed.fmt_rate, speed.fmt_ms
    fx = lambda x: '' if x is None else speed.fmt_ratio(x)
    table, vs_self, vs_oracle, auto_self = [], [], [], []
    rejected, errors, engine_changed, slow_load = [], [], [], []
    for game, _ in games:
        row = rows.get(game)
        if row is None:
            continue
        orig = originals.get(game, {})
        if 'reasoner' not in row:
            if 'reasoner' in orig:
                rejected.append(game)
            continue
        ours, auto = rate(row['reasoner']), rate(row['auto'])
        o_ours, o_oracle, o_auto = rate(orig.get('reasoner')), rate(orig.get('oracle')), rate(orig.get('auto'))
        for side in ('reasoner', 'auto'):
            if row[side].get('status') != 'ok':
                errors.append('%s (%s: %s)' % (game, side, row[side].get('error', row[side].get('status'))))
        r_self, r_oracle, r_auto = ratio(ours, o_ours), ratio(ours, o_oracle), ratio(auto, o_auto)
        if r_self:
            vs_self.append(r_self)
        if r_oracle:
            vs_oracle.append((r_oracle, game))
        if r_auto:
            auto_self.append(r_auto)
        engine, o_engine = row['auto'].get('engine'), (orig.get('auto') or {}).get('engine')
        if engine and o_engine and engine != o_engine:
            engine_changed.append('%s (%s, was %s)' % (game, engine, o_engine))
        load = row['auto'].get('load_ms')
        if load is not None and load > speed.TARGET_LOAD_MS:
            slow_load.append('%s (%s)' % (game, fm(load)))
        table.append((r_oracle if r_oracle is not None else float('inf'), game,
                      '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                          game, fr(ours), fr(o_ours), fx(r_self), fr(o_oracle), fx(r_oracle),
                          engine or '', fr(auto), fx(r_auto), fm(load))))
    below = [g for r, g in vs_oracle if r < speed.TARGET_RATIO_MIN]
    med = speed.median([r for r, _ in vs_oracle]) if vs_oracle else None

    def spread(xs):
        xs = sorted(xs)
        if not xs:
            return 'none'
        q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]
        return 'min %s, 10%% %s, median %s, 90%% %s, max %s' % (
            fx(xs[0]), fx(q(0.1)), fx(speed.median(xs)), fx(q(0.9)), fx(xs[-1]))

    L = ['# Speed on disguised games: the corpus renamed, re-cased and reordered', '']
    L.append('- Date: %s%s' % (datetime.datetime.now().isoformat(sep=' ', timespec='seconds'),
                                '' if elapsed is None else ' (this run took %.0f s)' % elapsed))
    L.append('- Command: `%s`' % command)
    L.append('- Variants: every symbol but the keywords and numbers renamed to an opaque name, every '
             'occurrence in random letter case, rules, rule bodies and `or`s shuffled (roles keep their '
             'order); seeded by the game name, written to `%s`. See the docstring of '
             '`tests/bench/variants.py`.' % speed.rel(args.variants))
    L.append('- Per variant: `gdl check`, then `gdl bench VARIANT --engine reasoner|auto --threads 1 '
             '--seconds %s --max-steps %d --json`; the original game\'s figures (ours and the oracle\'s) '
             'come from `%s` (speed.py, an earlier run on the same machine). Rates are playouts per CPU '
             'second; both benches play random playouts, so the two sides play different games of the '
             'same rules.' % (args.seconds, args.max_steps, speed.rel(args.speed_json)))
    L.append('- %s' % speed.machine_note())
    L.append('')
    L.append('## Summary')
    L.append('')
    L.append('| figure | value | target |')
    L.append('| --- | --- | --- |')
    L.append('| variants measured | %d of %d games | |' % (len(table), len(games)))
    L.append('| accepted as original, refused as variant | %d%s | none |' % (
        len(rejected), (': ' + ', '.join(rejected)) if rejected else ''))
    L.append('| bench errors | %d%s | none |' % (len(errors), (': ' + '; '.join(errors)) if errors else ''))
    L.append('| variant (reasoner) below 1x the oracle on the original | %d%s | none |' % (
        len(below), (': ' + ', '.join(below)) if below else ''))
    L.append('| median, variant (reasoner) against the oracle | %s | ≥ 5x |' % fx(med))
    L.append('| variant against original, reasoner | %s | about 1x |' % spread(vs_self))
    L.append('| variant against original, `auto` | %s | about 1x |' % spread(auto_self))
    L.append('| `auto` picks another engine than on the original | %d%s | |' % (
        len(engine_changed), (': ' + ', '.join(engine_changed)) if engine_changed else ''))
    L.append('| `auto` load over 1 s | %d%s | none |' % (
        len(slow_load), (': ' + ', '.join(slow_load)) if slow_load else ''))
    L.append('')
    L.append('## Per game (worst against the oracle first)')
    L.append('')
    L.append('| game | variant reasoner /s | original reasoner /s | variant / original | oracle /s (original) '
             '| variant / oracle | auto engine | variant auto /s | auto variant / original | auto load |')
    L.append('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for _, _, line in sorted(table):
        L.append(line)
    with open(args.out, 'w') as f:
        f.write('\n'.join(L) + '\n')
    return {'measured': len(table), 'below_1x': len(below), 'median': med, 'rejected': len(rejected),
            'errors': len(errors)}


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description='Speed on disguised corpus games (renamed, re-cased, reordered).')
    ap.add_argument('--gdl', default=os.path.join(REPO, 'target', 'release', 'gdl'))
    ap.add_argument('--corpus', default=os.path.join(REPO, '..', 'shared', 'corpus'))
    ap.add_argument('--variants', default=os.path.join(REPO, 'target', 'variants'),
                    help='where the variants are written (default target/variants)')
    ap.add_argument('--seconds', type=float, default=1, help='bench time per engine (default 1)')
    ap.add_argument('--max-steps', type=int, default=1000)
    ap.add_argument('--timeout', type=float, default=60, help='wall seconds per command on top of --seconds')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--games', nargs='*', default=None, help='only games whose "dir/name" contains one of these')
    ap.add_argument('--redo', action='store_true')
    ap.add_argument('--json', default=os.path.join(HERE, 'variants.jsonl'))
    ap.add_argument('--speed-json', default=os.path.join(HERE, 'speed.jsonl'),
                    help="the original games' rows (speed.py's JSON, default tests/bench/speed.jsonl)")
    ap.add_argument('--out', default=os.path.join(HERE, 'VARIANTS.md'))
    ap.add_argument('--write-only', action='store_true', help='write the variants and stop')
    ap.add_argument('--report-only', action='store_true')
    args = ap.parse_args()
    args.gdl = os.path.abspath(args.gdl)
    command = 'python3 ' + ' '.join(shlex.quote(a) for a in
                                    [os.path.relpath(os.path.abspath(sys.argv[0]), REPO)] + sys.argv[1:])
    originals = speed.corpus_games(os.path.abspath(args.corpus))
    if not originals:
        sys.exit('variants.py: no .kif files under %s' % args.corpus)
    games = []
    for game, path in originals:
        out_path = os.path.join(args.variants, game + '.kif')
        if not args.report_only:
            write_variant(game, path, out_path)
        games.append((game, out_path))
    if args.write_only:
        print('variants.py: %d variants written under %s' % (len(games), args.variants), file=sys.stderr)
        return
    rows = speed.load_rows(args.json)
    t0 = time.monotonic()
    if not args.report_only:
        todo = speed.select(games, args.games)
        if args.games is None and not args.redo:
            todo = [g for g in todo if g[0] not in rows]
        print('variants.py: %d games to measure' % len(todo), file=sys.stderr)
        speed.measure_all(todo, measure, args, rows,
                          lambda row: 'measured' if 'reasoner' in row else 'rejected')
    summary = write_report(rows, speed.load_rows(args.speed_json), args, command, games,
                           None if args.report_only else time.monotonic() - t0)
    print(json.dumps(summary), file=sys.stderr)


if __name__ == '__main__':
    main()
