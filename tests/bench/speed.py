#!/usr/bin/env python3
"""Speed table: our reasoner against the reference oracle on the whole corpus.

For every corpus game (`../shared/corpus/*/*.kif`, or those chosen with
--games) that `gdl check GAME --json` accepts (exit 0):

 1. `gdl bench GAME --engine reasoner --seconds S --max-steps K --json`
    (our first-order reasoner: playouts per CPU second, load time);
 2. `oracle bench GAME --seconds S --max-steps K` (the SWI-Prolog reference
    reasoner, ../shared/oracle: playouts / cpu_seconds);
 3. `gdl bench GAME --engine auto --seconds S2 --max-steps K --json`
    (what users get: the engine `auto` picks, its load time and rate).

ratio = ours (reasoner) / oracle, both in playouts per CPU second of the
measuring process (the machine is shared). Both benches always finish the
playout they started, so a side that "makes 0 playouts" is one that ran into
the time limit (--timeout + S wall seconds per command): its rate is then
given as an upper bound "< 1/c", c = CPU seconds the process group had used
when it was killed (loading included), and the ratio as a bound too.

Builds nothing: pass --gdl (default target/release/gdl of this repository).
Results go to a JSON Lines file (--json, default tests/bench/speed.jsonl),
one row per game, appended as each game finishes; a later row for the same
game replaces an earlier one. Without --games a run skips the games already
in that file (so an interrupted run resumes); with --games the chosen games
are measured again; --redo measures everything again. The markdown table
(--out, default tests/bench/SPEED.md) is always regenerated from every row
of the JSON file; --report-only just regenerates it.

Python 3 standard library only.
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import platform
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS_DIRS = ('ggp-base', 'ggp-base-tests', 'ggp-repository')

# Targets of the issue ("Measure").
TARGET_RATIO_MIN = 1.0
TARGET_MEDIAN = 5.0
TARGET_LOAD_MS = 1000.0
CHECK_TIMEOUT = 60  # wall seconds for `gdl check`


def rel(path):
    """A path as short as possible for the report (relative to the repo when inside it)."""
    p = os.path.abspath(path)
    r = os.path.relpath(p, REPO)
    return r if not r.startswith('..' + os.sep + '..') else p


# ------------------------------------------------------------------ running

def group_cpu_seconds(pgid):
    """CPU seconds (user + system, own + waited-for children) of every live process of a group."""
    tick = os.sysconf('SC_CLK_TCK')
    total = 0.0
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % pid) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(')') + 2:].split()
        # fields[0] is field 3 (state): pgrp is field 5, utime..cstime fields 14..17.
        try:
            if int(fields[2]) != pgid:
                continue
            total += sum(int(x) for x in fields[11:15]) / tick
        except (IndexError, ValueError):
            continue
    return total


def run_cmd(argv, timeout):
    """Run argv in its own process group; on timeout note the group's CPU time and kill it.

    Returns (status, exit code, stdout, stderr, wall seconds, cpu seconds at kill or None),
    status one of ok, error (non-zero exit), timeout, missing (cannot start)."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return 'missing', None, '', str(e), 0.0, None
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        cpu = group_cpu_seconds(p.pid)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return ('timeout', None, out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace'),
                time.monotonic() - t0, cpu)
    wall = time.monotonic() - t0
    status = 'ok' if p.returncode == 0 else 'error'
    return status, p.returncode, out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace'), wall, None


def last_json(text):
    """The last line of text that parses as a JSON object, or None."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith('{'):
            try:
                return json.loads(line)
            except ValueError:
                pass
    return None


def short_error(out, err):
    """A one-line reason from a failed command's output."""
    js = last_json(out)
    if js and isinstance(js.get('diagnostics'), list) and js['diagnostics']:
        d = js['diagnostics'][0]
        return ' '.join(str(d.get(k, '')) for k in ('code', 'message')).strip()
    lines = [l.strip() for l in (err + '\n' + out).splitlines() if l.strip()]
    msg = lines[-1] if lines else 'no output'
    for l in lines:  # prefer the first line that names an error
        if 'error' in l.lower() or l.startswith('gdl:'):
            msg = l
            break
    return msg[:200]


def bench_side(argv, timeout, kind):
    """One bench command -> a dict: status, rate (playouts per CPU s), cpu, playouts, ..."""
    status, code, out, err, wall, kill_cpu = run_cmd(argv, timeout)
    r = {'status': status, 'wall': round(wall, 3)}
    if status == 'ok':
        js = last_json(out)
        if js is None:
            r.update(status='error', error='no JSON in the output: ' + short_error(out, err))
            return r
        cpu = js.get('cpu_seconds')
        playouts = js.get('playouts', 0)
        r.update(playouts=playouts, cpu=cpu, avg_length=js.get('avg_length'), cut=js.get('cut'))
        if kind == 'gdl':
            r.update(rate=js.get('playouts_per_cpu_sec'), rate_wall=js.get('playouts_per_sec'),
                     load_ms=js.get('load_ms'), engine=js.get('engine'))
            net = js.get('network')
            if isinstance(net, dict):
                r['strategy'] = net.get('strategy')
        else:
            r.update(rate=(playouts / cpu) if cpu else None, rate_wall=js.get('playouts_per_sec'),
                     mode=js.get('mode'))
        if not playouts:
            r['bound'] = True
            r['rate'] = 1.0 / cpu if cpu else None
    elif status == 'timeout':
        r.update(playouts=0, cpu=round(kill_cpu, 3), bound=True,
                 rate=(1.0 / kill_cpu) if kill_cpu else None,
                 error='timeout after %.0f s wall (%.1f CPU s, loading included)' % (wall, kill_cpu or 0))
    else:
        # gdl prints diagnostics (JSON on stdout) when the game does not load, and
        # "gdl: ..." on stderr when a playout stops after loading (e.g. no legal move).
        js = last_json(out) if kind == 'gdl' else None
        phase = 'load' if (js and 'diagnostics' in js) or kind != 'gdl' else 'run'
        r.update(exit=code, error=short_error(out, err), phase=phase)
    return r


def measure(game, path, args):
    row = {'game': game, 'file': path, 'date': datetime.datetime.now().isoformat(timespec='seconds'),
           'seconds': args.seconds, 'auto_seconds': args.auto_seconds, 'max_steps': args.max_steps,
           'commit': git_commit()}
    status, code, out, err, wall, _ = run_cmd([args.gdl, 'check', path, '--json'], CHECK_TIMEOUT)
    row['check'] = {'status': status, 'exit': code}
    if status != 'ok':
        row['check']['error'] = ('timeout' if status == 'timeout' else short_error(out, err))
        return row
    limit = args.timeout + max(args.seconds, args.auto_seconds)
    common = ['--seconds', str(args.seconds), '--max-steps', str(args.max_steps)]
    # One thread: the rates compare one engine with the oracle's one process.
    row['reasoner'] = bench_side([args.gdl, 'bench', path, '--engine', 'reasoner', '--json', '--threads', '1'] + common,
                                 limit, 'gdl')
    row['oracle'] = bench_side([args.oracle, 'bench', path] + common, limit, 'oracle')
    row['auto'] = bench_side([args.gdl, 'bench', path, '--engine', 'auto', '--json', '--threads', '1', '--seconds',
                              str(args.auto_seconds), '--max-steps', str(args.max_steps)], limit, 'gdl')
    return row


_commit = None


def git_commit():
    global _commit
    if _commit is None:
        try:
            _commit = subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'],
                                     capture_output=True, text=True).stdout.strip() or '?'
        except OSError:
            _commit = '?'
    return _commit


# ------------------------------------------------------------------ corpus and cache

def corpus_games(corpus):
    games = []
    for d in CORPUS_DIRS:
        base = os.path.join(corpus, d)
        if not os.path.isdir(base):
            continue
        for name in sorted(os.listdir(base)):
            if name.endswith('.kif'):
                games.append((d + '/' + name[:-4], os.path.join(base, name)))
    return games


def select(games, patterns):
    if not patterns:
        return games
    pats = [p for arg in patterns for p in arg.split(',') if p]
    return [g for g in games if any(p.lower() in g[0].lower() for p in pats)]


def load_rows(path):
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                rows[r['game']] = r  # newer rows replace older ones
    return rows


def compact(path, rows):
    """Rewrite the cache with one row per game (sorted by game)."""
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        for g in sorted(rows):
            f.write(json.dumps(rows[g], sort_keys=True) + '\n')
    os.replace(tmp, path)


# ------------------------------------------------------------------ report

def fmt_rate(x):
    if x is None:
        return ''
    for div, unit in ((1e6, ' M'), (1e3, ' k')):
        if x >= div:
            v = x / div
            return ('%.3g' % v) + unit if v < 100 else '%.0f%s' % (v, unit)
    if x >= 100:
        return '%.0f' % x
    if x >= 10:
        return '%.1f' % x
    return '%.3g' % x


def fmt_side(side):
    if not side:
        return ''
    if side.get('rate') is None:
        return side.get('status', '')
    return ('< ' if side.get('bound') else '') + fmt_rate(side['rate'])


def fmt_ratio(x):
    if x >= 100:
        return '%.0fx' % x
    if x >= 10:
        return '%.1fx' % x
    return '%.2fx' % x


def fmt_ms(x):
    if x is None:
        return ''
    return '%.0f' % x if x >= 10 else '%.1f' % x


def ratio_of(row):
    """(value, kind) with kind exact, lower (ratio > value), upper (ratio < value) or None."""
    a, b = row.get('reasoner') or {}, row.get('oracle') or {}
    ra, rb = a.get('rate'), b.get('rate')
    if not ra or not rb:
        return None, None
    ba, bb = bool(a.get('bound')), bool(b.get('bound'))
    if ba and bb:
        return None, None
    if ba:
        return ra / rb, 'upper'
    if bb:
        return ra / rb, 'lower'
    return ra / rb, 'exact'


def fmt_ratio_kind(value, kind):
    if kind is None:
        return '?'
    return {'exact': '', 'upper': '< ', 'lower': '> '}[kind] + fmt_ratio(value)


def notes(row):
    out = []
    for name in ('reasoner', 'oracle', 'auto'):
        s = row.get(name) or {}
        if s.get('status') in ('timeout', 'error', 'missing'):
            out.append('%s: %s' % (name, s.get('error') or s.get('status')))
    o = row.get('oracle') or {}
    if o.get('mode') and o.get('mode') != 'sld':
        out.append('oracle mode %s' % o['mode'])
    a, r = row.get('auto') or {}, row.get('reasoner') or {}
    # Averages over many playouts of the same random policy should agree.
    la, lo = r.get('avg_length'), o.get('avg_length')
    if la and lo and r.get('playouts', 0) >= 30 and o.get('playouts', 0) >= 30:
        if abs(la - lo) > 0.25 * max(la, lo) and abs(la - lo) > 2:
            out.append('average length differs: ours %.1f, oracle %.1f' % (la, lo))
    cuts = ['%s %d/%d' % (name, s['cut'], s.get('playouts', 0))
            for name, s in (('ours', r), ('oracle', o)) if s.get('cut')]
    if cuts:
        out.append('cut at %d steps: %s' % (row.get('max_steps', 0), ', '.join(cuts)))
    return '; '.join(out)


def load_unfinished(side):
    """True when a gdl bench side never reported its load (timeout, or failed while loading)."""
    st = side.get('status')
    if st == 'ok':
        return False
    if st == 'error':
        phase = side.get('phase') or ('run' if (side.get('error') or '').startswith('gdl:') else 'load')
        return phase == 'load'
    return True


def median(xs):
    return statistics.median(xs) if xs else None


def machine_note():
    model = '?'
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    model = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return '%d cores (%s), %s, shared with other jobs' % (os.cpu_count() or 0, model, platform.system())


def write_report(rows, args, command, all_games, started, elapsed):
    games_in_corpus = len(all_games)
    checked = [r for r in rows.values() if 'check' in r]
    accepted = [r for r in checked if r['check'].get('status') == 'ok']
    rejected = sorted((r for r in checked if r['check'].get('status') != 'ok'), key=lambda r: r['game'])

    ratios = []  # (value, kind, row)
    for r in accepted:
        v, k = ratio_of(r)
        ratios.append((v, k, r))
    exact = sorted(v for v, k, _ in ratios if k == 'exact')
    below_sure = [(v, k, r) for v, k, r in ratios if k in ('exact', 'upper') and v < TARGET_RATIO_MIN]
    unknown = [(v, k, r) for v, k, r in ratios if k is None]
    # Games without a ratio because our side has no rate (an oracle that cannot play a game
    # is no speed to fall below).
    ours_unknown = [r for v, k, r in ratios if k is None and not (r.get('reasoner') or {}).get('rate')]
    # What users get: the engine `auto` picks, against the oracle (both per CPU second).
    below_auto = sorted(
        (r['auto']['rate'] / r['oracle']['rate'], r['game']) for _, _, r in ratios
        if (r.get('auto') or {}).get('status') == 'ok' and (r.get('oracle') or {}).get('status') == 'ok'
        and r['oracle'].get('rate') and r['auto']['rate'] / r['oracle']['rate'] < TARGET_RATIO_MIN)
    bounded = [(v, k, r) for v, k, r in ratios if k in ('upper', 'lower')]
    # Median over every game with a ratio: a bound sorts at its value (a "< x" game is at most
    # x, a "> x" one at least x); it is reported as a bound only when it is the middle element.
    med_all = median(sorted(v for v, k, _ in ratios if k is not None))
    geo = math.exp(sum(math.log(v) for v in exact) / len(exact)) if exact else None

    auto_engines = {}
    for r in accepted:
        a = r.get('auto') or {}
        if a.get('status') == 'ok':
            e = a.get('engine')
        elif a.get('status') == 'error' and not load_unfinished(a):
            e = 'unknown (a playout stopped with an error)'
        else:
            e = 'failed (%s)' % a.get('status')
        auto_engines[e] = auto_engines.get(e, 0) + 1

    def loads(name):
        return sorted((s['load_ms'], r['game']) for r in accepted
                      for s in [r.get(name) or {}] if s.get('load_ms') is not None)
    load_auto, load_reasoner = loads('auto'), loads('reasoner')
    over_auto = [(ms, g) for ms, g in load_auto if ms > TARGET_LOAD_MS]
    over_reasoner = [(ms, g) for ms, g in load_reasoner if ms > TARGET_LOAD_MS]
    # A side that never finished loading (timeout or error) counts as over too.
    noload_auto = [r['game'] for r in accepted if load_unfinished(r.get('auto') or {})]
    noload_reasoner = [r['game'] for r in accepted if load_unfinished(r.get('reasoner') or {})]
    # Loaded, then a playout stopped with an error: no rate and no load time reported.
    run_errors = [r['game'] for r in accepted
                  if any((r.get(n) or {}).get('status') == 'error' and not load_unfinished(r.get(n) or {})
                         for n in ('reasoner', 'auto'))]
    oracle_failed = [r['game'] for r in accepted if (r.get('oracle') or {}).get('status') != 'ok']
    timeouts = [(r['game'], n) for r in accepted for n in ('reasoner', 'oracle', 'auto')
                if (r.get(n) or {}).get('status') == 'timeout']

    dates = sorted(r.get('date', '') for r in rows.values() if r.get('date'))
    secs = sorted(set(r.get('seconds') for r in accepted))
    asecs = sorted(set(r.get('auto_seconds') for r in accepted))
    steps = sorted(set(r.get('max_steps') for r in accepted))
    commits = sorted(set(r.get('commit') for r in rows.values() if r.get('commit')))
    try:
        built = datetime.datetime.fromtimestamp(os.path.getmtime(args.gdl)).isoformat(sep=' ', timespec='seconds')
    except OSError:
        built = '?'

    L = []
    L.append('# Speed: our reasoner against the oracle, every corpus game')
    L.append('')
    L.append('- Date: %s (rows measured %s to %s%s)' % (
        started, dates[0] if dates else '?', dates[-1] if dates else '?',
        '; this run took %.0f s' % elapsed if elapsed else ''))
    L.append('- Command: `%s`' % command)
    L.append('- Repository: %s; `gdl` binary (`%s`) built %s; oracle `%s` (SWI-Prolog)' % (
        ', '.join(commits) or '?', rel(args.gdl), built, rel(args.oracle)))
    L.append('- Machine: %s. Rates are playouts per CPU second of the measuring process on both '
             'sides (`playouts_per_cpu_sec` of `gdl bench`, `playouts / cpu_seconds` of `oracle bench`), '
             'one command at a time (%d job%s).' % (machine_note(), args.jobs, '' if args.jobs == 1 else 's'))
    L.append('- Per game: `gdl check GAME --json`; if accepted, `gdl bench GAME --engine reasoner --seconds %s '
             '--max-steps %s --json` (ours), `oracle bench GAME --seconds %s --max-steps %s` (oracle), '
             '`gdl bench GAME --engine auto --seconds %s --max-steps %s --json` (what users get). '
             'Random playouts from the initial state, seed 1 on both sides.' % (
                 '/'.join(map(str, secs)) or args.seconds, '/'.join(map(str, steps)) or args.max_steps,
                 '/'.join(map(str, secs)) or args.seconds, '/'.join(map(str, steps)) or args.max_steps,
                 '/'.join(map(str, asecs)) or args.auto_seconds, '/'.join(map(str, steps)) or args.max_steps))
    L.append('- ratio = ours / oracle. Both benches finish the playout they started, so a side with no '
             'playout is one that hit the time limit (%s s + the bench time, wall): its rate is shown as '
             '"< 1/c" with c the CPU seconds its processes had used when killed (loading included), and '
             'the ratio as a bound ("<" or ">").' % args.timeout)
    L.append('- Load = `load_ms` of `gdl bench` (reading, checking, preparing the engine; for `auto` '
             'also grounding and building the network), wall clock.')
    L.append('- Regenerate: `python3 tests/bench/speed.py --seconds 1` after `cargo build --release -p gdl-cli` '
             '(resumes from `tests/bench/speed.jsonl`; `--games NAME` remeasures a few, `--redo` all).')
    L.append('')
    L.append('## Summary')
    L.append('')
    L.append('| figure | value | target |')
    L.append('| --- | --- | --- |')
    L.append('| games | %d files in the corpus; %d checked; %d accepted by `gdl check` | |' % (
        games_in_corpus, len(checked), len(accepted)))
    L.append('| with a ratio | %d (%d exact, %d bounds); %d without (an error or timeout on our side, '
             'or on both) | |' % (len(ratios) - len(unknown), len(exact), len(bounded), len(unknown)))
    L.append('| our playouts stopped by an error after loading | %d%s | |' % (
        len(run_errors), (': ' + ', '.join(run_errors)) if run_errors else ''))
    L.append('| oracle failed (error or timeout) | %d%s | |' % (
        len(oracle_failed), (': ' + ', '.join(oracle_failed)) if oracle_failed else ''))
    L.append('| commands over the time limit | %d%s | |' % (
        len(timeouts), (': ' + ', '.join('%s (%s)' % t for t in timeouts)) if timeouts else ''))
    L.append('| below 1x the oracle | %d | none: %s |' % (
        len(below_sure), 'met' if not below_sure and not ours_unknown else 'not met'))
    L.append('| below 1x the oracle with the engine `auto` picks (what users get) | %d%s | |' % (
        len(below_auto), (': ' + ', '.join('%s (%s)' % (g, fmt_ratio(v)) for v, g in below_auto)) if below_auto else ''))
    L.append('| median ratio | %s | ≥ 5x: %s |' % (
        fmt_ratio(med_all) if med_all else '?',
        'met' if med_all and med_all >= TARGET_MEDIAN else 'not met'))
    L.append('| median ratio, exact ratios only | %s | |' % (fmt_ratio(median(exact)) if exact else '?'))
    L.append('| geometric mean ratio, exact ratios only | %s | |' % (fmt_ratio(geo) if geo else '?'))
    L.append('| ratio quartiles (exact) | %s | |' % (
        ', '.join(fmt_ratio(q) for q in statistics.quantiles(exact, n=4)) if len(exact) >= 2 else '?'))
    L.append('| `auto` picks | %s | |' % ', '.join('%s %d' % (e, n) for e, n in
                                                  sorted(auto_engines.items(), key=lambda x: -x[1])))
    for name, ld, over, noload in (('auto', load_auto, over_auto, noload_auto),
                                   ('reasoner', load_reasoner, over_reasoner, noload_reasoner)):
        L.append('| load, `%s` | median %s ms, max %s ms (%s) | |' % (
            name, fmt_ms(median([m for m, _ in ld])), fmt_ms(ld[-1][0]) if ld else '?',
            ld[-1][1] if ld else '?'))
        L.append('| load over 1 s, `%s` | %d%s | none: %s |' % (
            name, len(over),
            ' (+%d that did not finish loading: timeout or load error)' % len(noload) if noload else '',
            'met' if not over and not noload else 'not met'))
    L.append('')

    # Every game, slowest ratio first; games without a ratio at the end.
    def key(item):
        v, k, r = item
        return (0 if k is not None else 1, v if v is not None else 0, r['game'])
    ordered = sorted(ratios, key=key)
    head = ('| game | ours /s | oracle /s | ratio | auto engine | auto /s | auto load ms | '
            'reasoner load ms | avg length ours / oracle | notes |')
    sep = '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'

    def line(v, k, r):
        a, o, s = r.get('auto') or {}, r.get('oracle') or {}, r.get('reasoner') or {}
        lens = '%s / %s' % ('%.1f' % s['avg_length'] if s.get('avg_length') is not None else '',
                            '%.1f' % o['avg_length'] if o.get('avg_length') is not None else '')
        return '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['game'], fmt_side(s), fmt_side(o), fmt_ratio_kind(v, k),
            a.get('engine') or a.get('status', ''), fmt_side(a) if a.get('status') == 'ok' else '',
            fmt_ms(a.get('load_ms')), fmt_ms(s.get('load_ms')), lens if lens != ' / ' else '', notes(r))

    if below_sure:
        L.append('## Below 1x the oracle (%d)' % len(below_sure))
        L.append('')
        L.append(head)
        L.append(sep)
        for v, k, r in sorted(below_sure, key=key):
            L.append(line(v, k, r))
        L.append('')
    if over_auto or noload_auto or over_reasoner:
        L.append('## Load over 1 s')
        L.append('')
        L.append('| game | auto engine | auto load ms | reasoner load ms |')
        L.append('| --- | --- | --- | --- |')
        slow = sorted(set(g for _, g in over_auto) | set(noload_auto) | set(g for _, g in over_reasoner))
        for g in sorted(slow, key=lambda g: -max((rows[g].get('auto') or {}).get('load_ms') or 1e12,
                                                    (rows[g].get('reasoner') or {}).get('load_ms') or 0)):
            a, s = rows[g].get('auto') or {}, rows[g].get('reasoner') or {}
            L.append('| %s | %s | %s | %s |' % (g, a.get('engine') or a.get('status', ''),
                                               fmt_ms(a.get('load_ms')) or a.get('status', ''),
                                               fmt_ms(s.get('load_ms')) or s.get('status', '')))
        L.append('')
    L.append('## Every game, slowest ratio first')
    L.append('')
    L.append(head)
    L.append(sep)
    for v, k, r in ordered:
        L.append(line(v, k, r))
    L.append('')
    if rejected:
        L.append('## Not measured: not accepted by `gdl check` (%d)' % len(rejected))
        L.append('')
        L.append('| game | reason |')
        L.append('| --- | --- |')
        for r in rejected:
            L.append('| %s | %s |' % (r['game'], (r['check'].get('error') or '').replace('|', '\\|')))
        L.append('')
    text = '\n'.join(L)
    with open(args.out, 'w') as f:
        f.write(text)
    return {'accepted': len(accepted), 'below': len(below_sure), 'median': med_all, 'geo': geo,
            'auto': auto_engines, 'over_auto': len(over_auto), 'over_reasoner': len(over_reasoner)}


def measure_all(todo, measure_game, args, rows, describe):
    """Measures every (game, path) of todo with measure_game(game, path, args), args.jobs at
    once; each row goes to rows and, as it finishes, to the JSON Lines cache args.json (a
    later row for a game replaces an earlier one, so an interrupted run resumes), with a
    progress line ending in describe(row); the cache is compacted at the end."""
    lock = threading.Lock()
    done = [0]
    with open(args.json, 'a') as cache, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(measure_game, g, p, args) for g, p in todo]
        for fut in concurrent.futures.as_completed(futures):
            row = fut.result()
            with lock:
                rows[row['game']] = row
                cache.write(json.dumps(row, sort_keys=True) + '\n')
                cache.flush()
                done[0] += 1
                print('[%d/%d] %s: %s' % (done[0], len(todo), row['game'], describe(row)),
                      file=sys.stderr, flush=True)
    compact(args.json, rows)


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description='Per-game speed table: our reasoner against the oracle.')
    ap.add_argument('--gdl', default=os.path.join(REPO, 'target', 'release', 'gdl'),
                    help='the gdl binary (default: target/release/gdl of this repository; not built here)')
    ap.add_argument('--oracle', default=os.path.join(REPO, '..', 'shared', 'oracle', 'oracle'),
                    help='the oracle CLI (default: ../shared/oracle/oracle)')
    ap.add_argument('--corpus', default=os.path.join(REPO, '..', 'shared', 'corpus'),
                    help='corpus root with %s (default: ../shared/corpus)' % ', '.join(CORPUS_DIRS))
    ap.add_argument('--seconds', type=float, default=2, help='bench time per side (default 2)')
    ap.add_argument('--auto-seconds', type=float, default=None,
                    help='bench time of the auto engine (default: --seconds)')
    ap.add_argument('--max-steps', type=int, default=1000,
                    help='playout length limit, both sides (default 1000, both tools\' default)')
    ap.add_argument('--timeout', type=float, default=60,
                    help='wall seconds per command on top of the bench time (default 60)')
    ap.add_argument('--jobs', type=int, default=1, help='games measured at once (default 1)')
    ap.add_argument('--games', nargs='*', default=None,
                    help='only games whose "dir/name" contains one of these substrings '
                         '(comma-separated or several); they are measured again')
    ap.add_argument('--redo', action='store_true', help='measure games already in the JSON file again')
    ap.add_argument('--json', default=os.path.join(HERE, 'speed.jsonl'),
                    help='JSON Lines cache of rows (default tests/bench/speed.jsonl)')
    ap.add_argument('--out', default=os.path.join(HERE, 'SPEED.md'),
                    help='markdown table (default tests/bench/SPEED.md)')
    ap.add_argument('--report-only', action='store_true',
                    help='measure nothing, regenerate the markdown from the JSON file')
    args = ap.parse_args()
    if args.auto_seconds is None:
        args.auto_seconds = args.seconds
    args.gdl = os.path.abspath(args.gdl)
    args.oracle = os.path.abspath(args.oracle)
    started = datetime.datetime.now().isoformat(sep=' ', timespec='seconds')
    command = 'python3 ' + ' '.join(shlex.quote(a) for a in
                                    [os.path.relpath(os.path.abspath(sys.argv[0]), REPO)] + sys.argv[1:])

    args.corpus = os.path.abspath(args.corpus)
    all_games = corpus_games(args.corpus)
    if not all_games:
        sys.exit('speed.py: no .kif files under %s' % args.corpus)
    rows = load_rows(args.json)
    t0 = time.monotonic()
    if not args.report_only:
        for tool in (args.gdl, args.oracle):
            if not os.access(tool, os.X_OK):
                sys.exit('speed.py: %s is not an executable (build with cargo build --release -p gdl-cli)' % tool)
        todo = select(all_games, args.games)
        if args.games is None and not args.redo:
            todo = [g for g in todo if g[0] not in rows]
        print('speed.py: %d games to measure (%d rows cached in %s)' % (len(todo), len(rows), rel(args.json)),
              file=sys.stderr)

        def describe(row):
            v, k = ratio_of(row)
            return fmt_ratio_kind(v, k) if 'reasoner' in row else 'rejected (%s)' % row['check'].get('error')
        measure_all(todo, measure, args, rows, describe)
    summary = write_report(rows, args, command, all_games, started,
                           None if args.report_only else time.monotonic() - t0)
    print(json.dumps(summary), file=sys.stderr)


if __name__ == '__main__':
    main()
