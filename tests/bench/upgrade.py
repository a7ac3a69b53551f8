#!/usr/bin/env python3
"""Long runs: what the background upgrade gives the games `auto` leaves on the reasoner.

For every game whose `auto` row in tests/bench/speed.jsonl ran the reasoner
(or those chosen with --games), two benches in the same run, one after the other:

 1. `gdl bench GAME --seconds S --json` (auto, upgrading after the default
    second of play: the game ground in full in the background, the run moved to
    the network if measured faster);
 2. the same with `--upgrade-after 1e9` (never: the reasoner all along).

ratio = playouts/s of (1) / playouts/s of (2), both over the whole run (the
seconds on the reasoner before the network was ready included). The markdown
table (--out, default tests/bench/UPGRADE.md) gives each game's rates, the
engine it ended on, when it moved, and why not when it stayed; the raw rows go
beside it (upgrade.jsonl).

Builds nothing: pass --gdl (default target/release/gdl). Python 3 standard
library only.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(REPO, '..', 'shared', 'corpus')


def commit():
    return subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=REPO, capture_output=True,
                          text=True).stdout.strip()


def bench(gdl, game, seconds, threads, never):
    args = [gdl, 'bench', os.path.join(CORPUS, game + '.kif'), '--seconds', str(seconds), '--json']
    args += ['--threads', str(threads)] + (['--upgrade-after', '1e9'] if never else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=seconds * 4 + 120)
    if p.returncode != 0:
        return {'error': (p.stderr.strip().splitlines() or ['exit %d' % p.returncode])[-1]}
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gdl', default=os.path.join(REPO, 'target', 'release', 'gdl'))
    ap.add_argument('--seconds', type=float, default=20.0)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--games', nargs='*', help='corpus names like ggp-base/amazons (default: auto on the reasoner)')
    ap.add_argument('--out', default=os.path.join(HERE, 'UPGRADE.md'))
    ap.add_argument('--report-only', action='store_true', help='regenerate the table from upgrade.jsonl')
    a = ap.parse_args()
    raw = os.path.splitext(a.out)[0].lower() + '.jsonl'
    games = a.games
    if not games:
        rows = [json.loads(l) for l in open(os.path.join(HERE, 'speed.jsonl'))]
        games = sorted(r['game'] for r in rows if (r.get('auto') or {}).get('engine') == 'reasoner')
    results = []
    if a.report_only:
        rows = [json.loads(l) for l in open(raw)]
        results = [(r['game'], r['upgrade'], r['reasoner_only']) for r in rows]
        a.seconds, a.threads, made = rows[0]['seconds'], rows[0]['threads'], rows[0]['commit']
    else:
        made = commit()
    for g in [] if a.report_only else games:
        up, never = bench(a.gdl, g, a.seconds, a.threads, False), bench(a.gdl, g, a.seconds, a.threads, True)
        results.append((g, up, never))
        print(g, up.get('engine'), up.get('playouts_per_sec'), never.get('playouts_per_sec'), file=sys.stderr)

    def rate(r):
        x = r.get('playouts_per_sec')
        if x is None:
            return '-'
        return '%.3g' % x if x < 1e3 else '%.3g k' % (x / 1e3) if x < 1e6 else '%.3g M' % (x / 1e6)

    lines = ['# Long runs: the background upgrade', '',
             '- Date: %s' % datetime.datetime.fromtimestamp(os.path.getmtime(raw) if a.report_only else
                                                        datetime.datetime.now().timestamp()).strftime('%Y-%m-%d %H:%M'),
             '- Command: `python3 tests/bench/upgrade.py --seconds %g --threads %d` (commit %s)' % (
                 a.seconds, a.threads, made),
             '- Per game: `gdl bench GAME --seconds %g --threads %d --json`, with the upgrade (the default: '
             'after 1 s of play the game is ground in full in the background and the run moves to the network '
             'if it is measured faster) and without (`--upgrade-after 1e9`), one after the other. '
             'Rates are playouts per second over the whole run, the seconds before the network was ready '
             'included.' % (a.seconds, a.threads),
             '- A game that does not move pays for trying: the run loses the CPU the grounding, the '
             'network\'s build and its measurement took (one core of two, for as long as they run: chess '
             'fails after about 18 s alone). The longer the run, the smaller that share; '
             '`--upgrade-after inf` turns the upgrade off.', '']
    ratios = [u['playouts_per_sec'] / n['playouts_per_sec'] for _, u, n in results
              if u.get('playouts_per_sec') and n.get('playouts_per_sec')]
    moved = [g for g, u, _ in results if u.get('upgraded_after_seconds') is not None]
    tried = [g for g, u, _ in results if u.get('upgrade') not in (None, 'moved')]
    slower = sorted(r for r in ratios if r < 0.95)
    lines += ['| figure | value |', '| --- | --- |',
              '| games | %d (`auto` plays them on the reasoner) |' % len(results),
              '| moved to the network | %d: %s |' % (len(moved), ', '.join(moved) or 'none'),
              '| tried and stayed on the reasoner (the run paid the grounding) | %d |' % len(tried),
              '| nothing to try (`auto` measured the network slower) | %d |'
              % sum(1 for _, u, _ in results if u.get('upgrade') is None),
              '| ratio: median, geometric mean | %.2fx, %.2fx |' % (
                  statistics.median(ratios) if ratios else 0, statistics.geometric_mean(ratios) if ratios else 0),
              '| ratio below 0.95x | %d (lowest %s) |' % (len(slower), '%.2fx' % slower[0] if slower else '-'), '']
    if not a.report_only:
        with open(raw, 'w') as f:
            for g, u, n in results:
                f.write(json.dumps({'game': g, 'upgrade': u, 'reasoner_only': n, 'seconds': a.seconds,
                                    'threads': a.threads, 'commit': made}) + '\n')
    lines += ['| game | with upgrade (playouts/s) | reasoner only | ratio | engine at the end | moved at | why not |',
              '| --- | --- | --- | --- | --- | --- | --- |']
    for g, u, n in results:
        ratio = '%.2fx' % (u['playouts_per_sec'] / n['playouts_per_sec']) \
            if u.get('playouts_per_sec') and n.get('playouts_per_sec') else '-'
        at = u.get('upgraded_after_seconds')
        why = u.get('error') or {None: 'nothing to try (`auto` measured the network slower)', 'moved': ''}.get(
            u.get('upgrade'), u.get('upgrade'))
        why = why.replace('|', '\\|')
        why = why if len(why) <= 160 else why[:157] + '...'
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            g, rate(u), rate(n), ratio, u.get('engine', '-'), '-' if at is None else '%.1f s' % at, why))
    with open(a.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
