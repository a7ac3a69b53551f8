#!/usr/bin/env python3
"""Conformance harness: our `gdl` reasoner against the reference oracle.

For every corpus game (or the games named on the command line):

 1. `gdl check GAME --json`. Exit 1 = the game is rejected (first error's
    code and message). A rejection is correct ("rejected-ok") when the game
    is truly invalid: one of EXPECTED_INVALID, or a game the oracle cannot
    play at all (translation/Prolog error), or a game that an independent
    check in this script finds not to be valid stratified GDL (arities
    differ, unsafe variable, cycle through negation; see `gdl_validity`).
    Any other rejection is "rejected-wrongly".
 2. `gdl playout GAME --count 5 --seed 1 --max-steps 300 --trace T1`,
    then `oracle check GAME T1`                (our trace, oracle judges).
 3. `oracle playout GAME --count 5 --seed 1 --max-steps 300 > T2`,
    then `gdl replay GAME T2`                  (oracle trace, we judge).

--gdl2 runs the GDL-II games of ../shared/corpus-gdl2 (percepts included: the
oracle checks each step's `sees`) and writes their table as the last section of
STATUS.md, leaving the rest of it as it is (a corpus run keeps that section).

--library runs the games of games/ (all but the deliberately broken bug-*
games) instead of the corpus: they are ours, so any result but pass fails the
run (a rejection or an oracle problem included).

Results: pass, fail-ours-vs-oracle (step 2 mismatch), fail-oracle-vs-ours
(step 3 mismatch), rejected-ok, rejected-wrongly, gdl-error, gdl-timeout,
oracle-timeout, oracle-error. oracle-* results do not count against us.

Writes a markdown table (default tests/conformance/STATUS.md), a JSON Lines
file with the full results under tests/conformance/out/, and keeps the
traces and command logs of every game that did not pass under
tests/conformance/out/<dir>/<game>/. Exit status 0 iff no game counts
against us (2 for usage errors).

Python 3 standard library only.
"""
import argparse
import concurrent.futures
import datetime
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

SCRIPT = os.path.realpath(__file__)
HERE = os.path.dirname(SCRIPT)
REPO = os.path.dirname(os.path.dirname(HERE))  # two dirs above the script
CORPUS_DIRS = ['ggp-base', 'ggp-base-tests', 'ggp-repository']

COUNT, SEED, MAX_STEPS = 5, 1, 300
DETAIL_CHARS = 150

# Games that are invalid GDL and must be rejected by `gdl check`.
EXPECTED_INVALID = {
    'ggp-base-tests/test_invalid_function_arities_differ',
    'ggp-base-tests/test_invalid_sentence_arities_differ',
}

# --sample: a fixed, diverse set of games on which the oracle is fast
# (each well under a few seconds for 5 playouts of at most 300 steps).
SAMPLE = [
    # ggp-base-tests: every game (the ggp-base prover test cases: distinct
    # first in a body, not distinct, recursion, function terms, base/input,
    # the two invalid descriptions)
    'ggp-base-tests/3puzzle',            # base/input
    'ggp-base-tests/8puzzle',            # base/input, or
    'ggp-base-tests/connectFour',
    'ggp-base-tests/exercise_2_1',       # base/input
    'ggp-base-tests/knightsTour',        # base/input
    'ggp-base-tests/test_case_1a',
    'ggp-base-tests/test_case_1b',
    'ggp-base-tests/test_case_2a',
    'ggp-base-tests/test_case_2b',
    'ggp-base-tests/test_case_2c',
    'ggp-base-tests/test_case_3a',
    'ggp-base-tests/test_case_5a',       # recursion with function terms
    'ggp-base-tests/test_case_5b',
    'ggp-base-tests/test_case_5c',       # recursion
    'ggp-base-tests/test_case_5d',       # mutual recursion
    'ggp-base-tests/test_case_5e',       # left recursion
    'ggp-base-tests/test_clean_not_distinct',
    'ggp-base-tests/test_distinct_beginning_rule',
    'ggp-base-tests/test_invalid_function_arities_differ',
    'ggp-base-tests/test_invalid_sentence_arities_differ',
    'ggp-base-tests/ticTacToe',          # or
    # ggp-base
    'ggp-base/tictactoe',
    'ggp-base/tictactoe2',               # or
    'ggp-base/connectFour',
    'ggp-base/conn4',                    # or
    'ggp-base/breakthrough',
    'ggp-base/eightPuzzle',              # or
    'ggp-base/checkersTiny',             # or, recursion
    'ggp-base/3pConnectFour',            # 3 players
    'ggp-base/tictactoe_3player',        # 3 players
    'ggp-base/4pttc',                    # 4 players
    'ggp-base/knightwar',                # 5 players
    'ggp-base/tictactoe_3d_small_6player',  # 6 players
    'ggp-base/roshambo2',                # simultaneous, recursion
    'ggp-base/gt_prisoner',              # simultaneous
    'ggp-base/ticTacToeParallel',        # simultaneous
    'ggp-base/blocksWorldParallel',
    'ggp-base/hanoi',                    # state-dependent recursion
    'ggp-base/nim1',                     # recursion
    'ggp-base/coins',                    # or, state-dependent recursion
    'ggp-base/hitori',                   # or, recursion with counters
    'ggp-base/aipsrovers01',             # function terms
    'ggp-base/pawntoqueen',              # function terms, or, recursion
    'ggp-base/pawn_whopping',            # function terms, or
    'ggp-base/snake2p',                  # recursive goal
    'ggp-base/test_case_3c',             # undefined relation, or
    'ggp-base/test_case_4a',             # base
    'ggp-base/factoringGeorgeForman',
    # ggp-repository (mostly base/input)
    'ggp-repository/breakthroughSmall',
    'ggp-repository/connectFourSimultaneous',  # simultaneous
    'ggp-repository/2pffa.v1',           # or, function terms
    'ggp-repository/4pffa.v1',           # 4 players, or
    'ggp-repository/chineseCheckers2',
    'ggp-repository/amazons_8x8',        # function terms, recursion
    'ggp-repository/englishDraughts',    # function terms, or
    'ggp-repository/urmAdd',             # function terms
    'ggp-repository/atariGoVariant_7x7', # state-dependent recursion
    'ggp-repository/gt_staghunt',        # simultaneous
    'ggp-repository/hex',
    'ggp-repository/futoshiki4',         # goal depends on not goal
]

AGAINST_US = ['fail-ours-vs-oracle', 'fail-oracle-vs-ours', 'fail-ground-vs-reasoner',
              'fail-propnet-vs-reasoner', 'fail-propnet-vs-oracle',
              'rejected-wrongly', 'gdl-error', 'gdl-timeout']
ORACLE_PROBLEMS = ['oracle-timeout', 'oracle-error']
ALL_RESULTS = ['pass', 'rejected-ok'] + AGAINST_US + ORACLE_PROBLEMS

print_lock = threading.Lock()


def log(msg):
    with print_lock:
        print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Running commands

class Run:
    def __init__(self, argv, rc, out, err, seconds, timed_out):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err
        self.seconds, self.timed_out = seconds, timed_out


def run_cmd(argv, timeout, stdout_path=None, cwd=None):
    """Run argv in its own process group; kill the whole group on timeout."""
    t0 = time.monotonic()
    fout = open(stdout_path, 'wb') if stdout_path else None
    try:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                             stdout=fout if fout else subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=cwd,
                             start_new_session=True)
        timed_out = False
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = p.communicate()
    finally:
        if fout:
            fout.close()
    dt = time.monotonic() - t0
    dec = lambda b: (b or b'').decode('utf-8', 'replace')  # noqa: E731
    return Run(argv, p.returncode, dec(out), dec(err), dt, timed_out)


def short(s, n=DETAIL_CHARS):
    s = ' '.join((s or '').split())
    return s if len(s) <= n else s[:n - 3] + '...'


def first_fail_line(text):
    for line in text.splitlines():
        if 'FAIL' in line:
            return line.strip()
    return None


def last_line(*texts):
    for t in texts:
        lines = [l for l in (t or '').splitlines() if l.strip()]
        if lines:
            return lines[-1].strip()
    return ''


# --------------------------------------------------------------------------
# Independent validity check (does not use gdl or the oracle): is the game
# stratified, safe GDL with consistent arities? Used only to judge whether a
# rejection by `gdl check` is correct.

KEYWORD_ARITY = {'role': 1, 'init': 1, 'true': 1, 'next': 1, 'legal': 2,
                 'goal': 2, 'does': 2, 'terminal': 0, 'base': 1, 'input': 2}


class KifSyntaxError(Exception):
    pass


def parse_kif(text):
    text = re.sub(r';[^\n]*', ' ', text)
    toks = re.findall(r'\(|\)|[^\s()]+', text)
    stack = [[]]
    for t in toks:
        if t == '(':
            stack.append([])
        elif t == ')':
            if len(stack) < 2:
                raise KifSyntaxError('unbalanced )')
            x = stack.pop()
            stack[-1].append(x)
        else:
            stack[-1].append(t.lower())
    if len(stack) != 1:
        raise KifSyntaxError('unbalanced (')
    return stack[0]


def norm(x):
    """(f) is read as the constant f."""
    if isinstance(x, list):
        if len(x) == 1 and isinstance(x[0], str):
            return x[0]
        return [norm(y) for y in x]
    return x


def term_vars(t, acc):
    if isinstance(t, str):
        if t.startswith('?'):
            acc.add(t)
    else:
        for y in t:
            term_vars(y, acc)
    return acc


def gdl_validity(path):
    """Return a list of problems (strings); empty = valid stratified GDL."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            forms = [norm(x) for x in parse_kif(f.read())]
    except (KifSyntaxError, RecursionError) as e:
        return ['syntax: %s' % e]
    problems = []
    rel_arity = {}   # name -> {arity: example}
    fn_arity = {}
    edges = {}       # head rel -> {(body rel, negative)}

    def note_fn(t):
        if isinstance(t, list):
            if not t or not isinstance(t[0], str):
                problems.append('malformed term %s' % t)
                return
            fn_arity.setdefault(t[0], set()).add(len(t) - 1)
            for y in t[1:]:
                note_fn(y)

    def note_rel(s):
        if isinstance(s, str):
            name, args = s, []
        elif s and isinstance(s[0], str):
            name, args = s[0], s[1:]
        else:
            problems.append('malformed sentence %s' % (s,))
            return None
        rel_arity.setdefault(name, set()).add(len(args))
        for y in args:
            note_fn(y)
        return name

    def body_info(lit, neg, rels, negvars):
        """Collect relations used (with polarity) and the vars of not/distinct;
        return the set of variables the literal binds."""
        if isinstance(lit, list) and lit and lit[0] == 'not' and len(lit) == 2:
            body_info(lit[1], True, rels, negvars)
            term_vars(lit[1], negvars)
            return set()
        if isinstance(lit, list) and lit and lit[0] in ('or', 'and'):
            subs = [body_info(x, neg, rels, negvars) for x in lit[1:]]
            if not subs:
                return set()
            if lit[0] == 'and':
                return set().union(*subs)
            return set.intersection(*subs)
        if isinstance(lit, list) and lit and lit[0] == 'distinct':
            term_vars(lit, negvars)
            return set()
        name = note_rel(lit)
        if name is not None and name not in ('true', 'does'):
            rels.add((name, neg))
        return set() if neg else term_vars(lit, set())

    for i, form in enumerate(forms):
        if isinstance(form, list) and form and form[0] == '<=':
            if len(form) < 2:
                problems.append('empty rule')
                continue
            head, body = form[1], form[2:]
        else:
            head, body = form, []
        hname = note_rel(head)
        if hname is None:
            continue
        rels, negvars, bound = set(), set(), set()
        for lit in body:
            bound |= body_info(lit, False, rels, negvars)
        edges.setdefault(hname, set()).update(rels)
        unsafe = (term_vars(head, set()) | negvars) - bound
        if unsafe:
            problems.append('unsafe variable %s in rule for %s' %
                            (' '.join(sorted(unsafe)), hname))

    for name, ars in sorted(rel_arity.items()):
        if name in KEYWORD_ARITY and ars != {KEYWORD_ARITY[name]}:
            problems.append('keyword %s used with %s arguments' %
                            (name, sorted(ars)))
        elif len(ars) > 1:
            problems.append('relation %s used with %s arguments' %
                            (name, sorted(ars)))
    for name, ars in sorted(fn_arity.items()):
        if len(ars) > 1:
            problems.append('function %s used with %s arguments' %
                            (name, sorted(ars)))

    # cycles through negation (Tarjan SCC on relation names)
    index, low, onstack, stack, comp = {}, {}, set(), [], {}
    counter = [0]
    nodes = set(edges) | {r for es in edges.values() for r, _ in es}

    def strong(v):
        work = [(v, iter(sorted(r for r, _ in edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        onstack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    onstack.add(w)
                    work.append((w, iter(sorted(r for r, _ in edges.get(w, ())))))
                    advanced = True
                    break
                elif w in onstack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp[w] = node
                    if w == node:
                        break

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    for h, es in sorted(edges.items()):
        for r, neg in sorted(es):
            if neg and comp.get(r) == comp.get(h):
                problems.append('%s depends on %s through not inside a '
                                'recursion (not stratified)' % (h, r))
    return problems


# --------------------------------------------------------------------------
# One game

def verdict(r, what, timeout_kind, fail_kind, error_kind, T):
    """The outcome of a checking command (oracle check, gdl replay): exit 0 passes, exit 1
    names the first mismatch, anything else is an error of the checker."""
    if r.timed_out:
        return (timeout_kind, '%s timed out after %g s' % (what, T))
    if r.rc == 0:
        return ('pass', '')
    if r.rc == 1:
        return (fail_kind, '%s: %s' % (what, first_fail_line(r.out) or last_line(r.out, r.err)))
    return (error_kind, '%s exit %s: %s' % (what, r.rc, last_line(r.err, r.out)))


def check_ground(path, work, t1, opts, record, res):
    """Grounds the game and compares the ground engine's playouts with the reasoner's.
    Fills res['ground'] = {rules, ms, peak_kb, error, same}; returns outcomes."""
    T = opts.timeout
    g = {'rules': None, 'ms': None, 'cpu_ms': None, 'peak_kb': None, 'error': '', 'same': None}
    res['ground'] = g
    r = run_cmd([opts.gdl, 'ground', path, '--stats'], T)
    record('gdl-ground', r)
    if r.timed_out:
        g['error'] = 'timed out after %g s' % T
        return []
    if r.rc != 0:
        g['error'] = short(last_line(r.err, r.out))
        try:
            diags = json.loads(r.out).get('diagnostics', [])
            if diags:
                g['error'] = short(diags[0].get('message', ''))
        except (ValueError, AttributeError):
            pass
        return []
    try:
        stats = json.loads(r.out)
        g['rules'], g['ms'], g['peak_kb'] = stats['rules'], stats['total_ms'], stats.get('peak_memory_kb')
        g['cpu_ms'] = stats.get('cpu_ms')
    except (ValueError, KeyError):
        g['error'] = 'unreadable statistics: ' + short(r.out)
        return []
    if not os.path.exists(t1):
        return []
    t3 = os.path.join(work, 'ground.jsonl')
    r = run_cmd([opts.gdl, 'playout', path, '--engine', 'ground', '--count', str(COUNT),
                 '--seed', str(SEED), '--max-steps', str(MAX_STEPS), '--trace', t3], T)
    record('gdl-playout-ground', r)
    if r.timed_out or r.rc != 0:
        # Too slow or too big to play here: a limit of the engine (GROUND.md says so), not a
        # disagreement; only differing traces count against us. The propositional network,
        # compiled from the same ground program, still plays and is checked.
        g['error'] = short('ground engine playout: ' + ('timed out' if r.timed_out else last_line(r.err, r.out)))
        return check_propnet(path, work, t1, opts, record, res)
    propnet = check_propnet(path, work, t1, opts, record, res)
    with open(t1, 'rb') as a, open(t3, 'rb') as b:
        g['same'] = a.read() == b.read()
    if g['same']:
        return [('pass', '')] + propnet
    o = run_cmd([opts.oracle, 'check', path, t3], T)
    record('oracle-check-ground', o)
    verdict = first_fail_line(o.out) or last_line(o.out, o.err)
    return [('fail-ground-vs-reasoner', 'ground traces differ from the reasoner\'s; oracle on them: ' + verdict)] + propnet


def check_propnet(path, work, t1, opts, record, res):
    """The same playouts with the propositional network: byte-identical to the reasoner's
    trace, and the oracle checks them. Fills res['propnet'] = {same, error}; returns outcomes."""
    T = opts.timeout
    p = {'same': None, 'error': ''}
    res['propnet'] = p
    t4 = os.path.join(work, 'propnet.jsonl')
    r = run_cmd([opts.gdl, 'playout', path, '--engine', 'propnet', '--count', str(COUNT),
                 '--seed', str(SEED), '--max-steps', str(MAX_STEPS), '--trace', t4], T)
    record('gdl-playout-propnet', r)
    if r.timed_out or r.rc != 0:
        p['error'] = short('timed out' if r.timed_out else last_line(r.err, r.out))
        return [('gdl-timeout' if r.timed_out else 'gdl-error', 'propnet playout: ' + p['error'])]
    with open(t1, 'rb') as a, open(t4, 'rb') as b:
        p['same'] = a.read() == b.read()
    out = [] if p['same'] else [('fail-propnet-vs-reasoner', 'propnet traces differ from the reasoner\'s')]
    if opts.ground_only:
        return out
    o = run_cmd([opts.oracle, 'check', path, t4], T)
    record('oracle-check-propnet', o)
    out.append(verdict(o, 'oracle check (propnet)', 'oracle-timeout', 'fail-propnet-vs-oracle',
                       'oracle-error', T))
    return out


def run_game(game, path, opts, tmproot):
    """Returns a result dict."""
    dirname, name = game.split('/', 1)
    work = os.path.join(tmproot, dirname, name)
    os.makedirs(work, exist_ok=True)
    res = {'game': game, 'file': path, 'result': None, 'ours_s': None,
           'oracle_s': None, 'replay_s': None, 'check_s': None,
           'detail': '', 'steps': []}
    logf = open(os.path.join(work, 'commands.log'), 'w', encoding='utf-8')

    def record(step, r):
        res['steps'].append({'step': step, 'argv': r.argv, 'rc': r.rc,
                             'seconds': round(r.seconds, 3),
                             'timed_out': r.timed_out})
        logf.write('$ %s\n# rc=%s %.2fs%s\n--- stdout\n%s\n--- stderr\n%s\n\n'
                   % (shlex.join(r.argv), r.rc, r.seconds,
                      ' TIMEOUT' if r.timed_out else '',
                      r.out[-20000:], r.err[-20000:]))
        logf.flush()

    T = opts.timeout
    try:
        # 1. check
        r = run_cmd([opts.gdl, 'check', path, '--json'], T)
        record('check', r)
        res['check_s'] = r.seconds
        if r.timed_out:
            res['result'] = 'gdl-timeout'
            res['detail'] = 'gdl check timed out after %g s' % T
            return res
        if r.rc == 1:
            code, msg = '?', last_line(r.err, r.out)
            try:
                diags = json.loads(r.out).get('diagnostics', [])
                errs = [d for d in diags if d.get('severity') == 'error']
                if errs:
                    code = errs[0].get('code', '?')
                    msg = 'line %s: %s' % (errs[0].get('line'),
                                           errs[0].get('message', ''))
            except (ValueError, AttributeError):
                pass
            res['rejected'] = {'code': code, 'message': msg}
            why = None
            if game in EXPECTED_INVALID:
                why = 'expected invalid'
            elif opts.library:
                pass  # our own games are all meant to be valid
            else:
                problems = gdl_validity(path)
                res['validity'] = problems
                if problems:
                    why = 'independent check: ' + problems[0]
                elif not opts.ground_only:
                    o = run_cmd([opts.oracle, 'playout', path, '--count', '1',
                                 '--seed', str(SEED), '--max-steps',
                                 str(MAX_STEPS)], T,
                                stdout_path=os.path.join(work, 'oracle-probe.jsonl'))
                    record('oracle-probe', o)
                    if not o.timed_out and o.rc in (3, 4):
                        why = 'oracle cannot play it: ' + last_line(o.err)
            if why:
                res['result'] = 'rejected-ok'
                res['detail'] = '%s (%s): %s' % (code, why, msg)
            else:
                res['result'] = 'rejected-wrongly'
                res['detail'] = '%s: %s' % (code, msg)
            return res
        if r.rc != 0:
            res['result'] = 'gdl-error'
            res['detail'] = 'gdl check exit %s: %s' % (r.rc, last_line(r.err, r.out))
            return res
        problems = gdl_validity(path)
        if problems:
            res['validity'] = problems

        outcomes = []  # (result, detail) per step, 'pass' when fine
        oracle_s = 0.0
        # 2. our playout, oracle checks it
        t1 = os.path.join(work, 'ours.jsonl')
        r = run_cmd([opts.gdl, 'playout', path, '--engine', 'reasoner', '--count', str(COUNT),
                     '--seed', str(SEED), '--max-steps', str(MAX_STEPS),
                     '--trace', t1], T)
        record('gdl-playout', r)
        res['ours_s'] = r.seconds
        if r.timed_out:
            outcomes.append(('gdl-timeout', 'gdl playout timed out after %g s' % T))
        elif r.rc != 0:
            outcomes.append(('gdl-error', 'gdl playout exit %s: %s'
                             % (r.rc, last_line(r.err, r.out))))
        elif not opts.ground_only:
            o = run_cmd([opts.oracle, 'check', path, t1], T)
            record('oracle-check', o)
            oracle_s += o.seconds
            outcomes.append(verdict(o, 'oracle check', 'oracle-timeout', 'fail-ours-vs-oracle',
                                    'oracle-error', T))
        # 2b. the grounder: ground program statistics, then the same playouts on the
        # ground program must give a byte-identical trace (else the oracle checks it).
        if not opts.no_ground:
            outcomes.extend(check_ground(path, work, t1, opts, record, res))
        if opts.ground_only:
            return finish(res, outcomes, problems)
        # 3. oracle playout, we replay it
        t2 = os.path.join(work, 'oracle.jsonl')
        o = run_cmd([opts.oracle, 'playout', path, '--count', str(COUNT),
                     '--seed', str(SEED), '--max-steps', str(MAX_STEPS)], T,
                    stdout_path=t2)
        record('oracle-playout', o)
        oracle_s += o.seconds
        if o.timed_out:
            outcomes.append(('oracle-timeout', 'oracle playout timed out after %g s' % T))
        elif o.rc != 0:
            outcomes.append(('oracle-error', 'oracle playout exit %s: %s'
                             % (o.rc, last_line(o.err))))
        else:
            r = run_cmd([opts.gdl, 'replay', path, t2, '--engine', 'reasoner'], T)
            record('gdl-replay', r)
            res['replay_s'] = r.seconds
            outcomes.append(verdict(r, 'gdl replay', 'gdl-timeout', 'fail-oracle-vs-ours',
                                    'gdl-error', T))
        res['oracle_s'] = oracle_s
        return finish(res, outcomes, problems)
    except Exception as e:  # a bug in this harness: report, do not crash
        res['result'] = 'gdl-error'
        res['detail'] = 'harness error: %s: %s' % (type(e).__name__, e)
        return res
    finally:
        logf.close()
        res['work'] = work


def finish(res, outcomes, problems):
    """The game's result: the first outcome against us, else an oracle problem, else pass."""
    res['outcomes'] = outcomes
    bad = [x for x in outcomes if x[0] in AGAINST_US]
    orc = [x for x in outcomes if x[0] in ORACLE_PROBLEMS]
    chosen = (bad or orc or [('pass', '')])[0]
    res['result'] = chosen[0]
    others = [x for x in outcomes if x[0] != 'pass' and x is not chosen]
    res['detail'] = '; '.join([chosen[1]] + ['also %s: %s' % x for x in others])
    if res['result'] == 'pass' and problems:
        res['detail'] = 'accepted, though the independent check says: ' + problems[0]
    return res


# --------------------------------------------------------------------------
# Game selection

def all_games(corpus):
    games = {}
    for d in CORPUS_DIRS:
        full = os.path.join(corpus, d)
        for f in sorted(os.listdir(full)):
            if f.endswith('.kif'):
                games['%s/%s' % (d, f[:-4])] = os.path.join(full, f)
    return games


GDL2_DIR = 'corpus-gdl2'
GDL2_SECTION = '## GDL-II games (../shared/corpus-gdl2)'


def gdl2_games(corpus):
    """The GDL-II games beside the corpus, as corpus-gdl2/NAME."""
    d = os.path.join(os.path.dirname(corpus), GDL2_DIR)
    return {'%s/%s' % (GDL2_DIR, f[:-4]): os.path.join(d, f) for f in sorted(os.listdir(d))
            if f.endswith('.kif')}


def library_games():
    """games/*.kif except the deliberately broken bug-* games, as games/NAME."""
    d = os.path.join(REPO, 'games')
    return {'games/' + f[:-4]: os.path.join(d, f) for f in sorted(os.listdir(d))
            if f.endswith('.kif') and not f.startswith('bug-')}


def select(args, corpus):
    if args.library:
        return library_games()
    if args.gdl2:
        return gdl2_games(corpus)
    games = all_games(corpus)
    if args.sample:
        missing = [g for g in SAMPLE if g not in games]
        if missing:
            sys.exit('sample games not found in the corpus: %s' % missing)
        return {g: games[g] for g in SAMPLE}
    if not args.games:
        return games
    chosen = {}
    for a in args.games:
        hit = {}
        if os.path.isfile(a) and a.endswith('.kif'):
            p = os.path.realpath(a)
            g = '%s/%s' % (os.path.basename(os.path.dirname(p)),
                           os.path.basename(p)[:-4])
            hit = {g: p}
        else:
            key = a[:-4] if a.endswith('.kif') else a
            key = key.rstrip('/')
            if key in CORPUS_DIRS:
                hit = {g: p for g, p in games.items() if g.startswith(key + '/')}
            elif key in games:
                hit = {key: games[key]}
            else:
                hit = {g: p for g, p in games.items()
                       if g.split('/', 1)[1] == key or fnmatch.fnmatchcase(g, key)
                       or fnmatch.fnmatchcase(g.split('/', 1)[1], key)}
        if not hit:
            print('no game matches %r' % a, file=sys.stderr)
            sys.exit(2)
        chosen.update(hit)
    return chosen


# --------------------------------------------------------------------------
# Report

def fmt_s(x):
    return '' if x is None else '%.1f' % x


def md_cell(s):
    return (s or '').replace('\\', '\\\\').replace('|', '\\|').replace('\n', ' ')


def git_info():
    try:
        head = subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(['git', '-C', REPO, 'status', '--porcelain',
                                '--untracked-files=no'],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + (' (with uncommitted changes)' if dirty else '')
    except Exception:
        return 'unknown'


def binary_mtime(path):
    try:
        return datetime.datetime.fromtimestamp(
            os.path.getmtime(path)).strftime('%Y-%m-%d %H:%M:%S')
    except OSError:
        return '?'


def write_ground(path, results, command, started):
    rows = [r for r in results if 'ground' in r]
    grounded = [r for r in rows if r['ground']['rules'] is not None]
    fast = [r for r in grounded if r['ground']['ms'] < 1000]
    fast_cpu = [r for r in grounded if (r['ground'].get('cpu_ms') or r['ground']['ms']) < 1000]
    same = [r for r in grounded if r['ground']['same']]
    pn_same = [r for r in grounded if r.get('propnet', {}).get('same')]
    valid = [r for r in results if r['result'] not in ('rejected-ok',)]
    # Memory above the process's own (the smallest peak seen) per ground rule, on programs
    # large enough for the baseline not to dominate.
    base_kb = min((r['ground']['peak_kb'] for r in grounded if r['ground']['peak_kb']), default=0)
    big = sorted((r['ground']['peak_kb'] - base_kb) * 1024.0 / r['ground']['rules']
                 for r in grounded if r['ground']['rules'] >= 100000 and r['ground']['peak_kb'])
    pct = lambda n: '%d of %d valid games (%.1f%%); %.1f%% of all %d files' % (  # noqa: E731
        n, len(valid), 100.0 * n / max(1, len(valid)), 100.0 * n / max(1, len(results)), len(results))
    L = ['# Grounder sweep', '',
         '- Date: %s' % started, '- Command: `%s`' % command,
         '- Per game: `gdl ground FILE --stats` (native release build), then the same playouts as the '
         'conformance run on the ground program (`--engine ground`), compared byte for byte with '
         "the reasoner's trace.",
         '- "ms" is wall-clock time, "cpu ms" the process\'s CPU time: the sweep runs 2 games at once '
         'on a 2-core machine often loaded by other work, so CPU time is the steadier figure.', '',
         '| figure | value |', '| --- | --- |',
         '| ground | %s |' % pct(len(grounded)),
         '| ground in under 1 s (wall) | %s |' % pct(len(fast)),
         '| ground in under 1 s (CPU) | %s |' % pct(len(fast_cpu)),
         '| identical traces on the ground program | %d of %d |' % (len(same), len(grounded)),
         '| identical traces with the propositional network (`--engine propnet`) | %d of %d |'
         % (len(pn_same), len(grounded)),
         '| peak memory per ground rule, programs of 100k+ rules | %s |' % (
             'median %.0f B, max %.0f B (%d programs; above a %.1f MB process baseline)' % (
                 big[len(big) // 2], big[-1], len(big), base_kb / 1024.0) if big else 'n/a'), '',
         '| game | ground rules | ms | cpu ms | peak MB | traces | propnet traces | error |',
         '| --- | --- | --- | --- | --- | --- | --- | --- |']
    for r in sorted(rows, key=lambda r: r['game']):
        g = r['ground']
        mb = '' if g['peak_kb'] is None else '%.1f' % (g['peak_kb'] / 1024.0)
        ms = '' if g['ms'] is None else '%.1f' % g['ms']
        cpu = '' if g.get('cpu_ms') is None else '%.0f' % g['cpu_ms']
        word = {None: '', True: 'identical', False: 'DIFFER'}
        pn = r.get('propnet', {})
        error = '; '.join(x for x in (g['error'], pn.get('error') and 'propnet: ' + pn['error']) if x)
        L.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['game'], '' if g['rules'] is None else g['rules'], ms, cpu, mb, word[g['same']],
            word[pn.get('same')], md_cell(error)))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(L) + '\n')


def propnet_table(games, opts, path, count, command, started):
    """Playouts per CPU second of the propositional network and of the reasoner on the first
    `count` games (corpus order) that ground; one command at a time, so the figures compare."""
    rows = []
    for game, p in sorted(games.items()):
        if len(rows) == count:
            break
        r = run_cmd([opts.gdl, 'ground', p, '--stats'], opts.timeout)
        if r.timed_out or r.rc != 0:
            continue
        row = {'game': game, 'rules': json.loads(r.out)['rules']}
        for engine in ('propnet', 'reasoner'):
            b = run_cmd([opts.gdl, 'bench', p, '--engine', engine, '--seconds', '1', '--threads', '1', '--json'],
                        opts.timeout)
            try:
                row[engine] = json.loads(b.out)
            except ValueError:
                row[engine] = {'error': 'timed out' if b.timed_out else short(last_line(b.err, b.out))}
        rows.append(row)
        log('%-55s %s' % (game, ' '.join('%s %s' % (e, fmt_rate(row[e])) for e in ('propnet', 'reasoner'))))
    L = ['# Propositional network: playouts per second', '',
         '- Date: %s' % started, '- Command: `%s`' % command,
         '- The first %d corpus games (in corpus order) that `gdl ground` grounds. Per game and '
         'engine: `gdl bench GAME --engine propnet|reasoner --seconds 1 --json`, one command at a '
         'time (the machine is shared: playouts per CPU second is the figure to compare).' % count,
         '- network: gates / fluents (permanent) / moves; build = ground program to network '
         '(ms); strategy = how one state at a time is evaluated (the measured choice: play, '
         'traces, search). `gdl bench` runs the propnet\'s playouts 64 at once (lanes, see '
         'ARCHITECTURE.md), the reasoner\'s one after another.', '',
         '| game | ground rules | network | build ms | strategy | propnet playouts/CPU-s | '
         'reasoner playouts/CPU-s | ratio |', '| --- | --- | --- | --- | --- | --- | --- | --- |']
    for row in rows:
        pn, re_ = row['propnet'], row['reasoner']
        n = pn.get('network') or {}
        net = '%s / %s (%s) / %s' % (n.get('gates'), n.get('fluents'), n.get('permanent'), n.get('moves')) if n else ''
        a, b = pn.get('playouts_per_cpu_sec'), re_.get('playouts_per_cpu_sec')
        ratio = '%.0f×' % (a / b) if a and b else ''
        L.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
            row['game'], row['rules'], net, '%.1f' % n['build_ms'] if n else '', n.get('strategy', ''),
            fmt_rate(pn), fmt_rate(re_), ratio))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(L) + '\n')


def fmt_rate(bench):
    if 'error' in bench:
        return 'error: ' + md_cell(bench['error'])
    rate = bench.get('playouts_per_cpu_sec') or bench.get('playouts_per_sec')
    return '%.0f' % rate if rate is not None else '?'


def write_status(path, results, command, opts, started, elapsed):
    totals = {k: 0 for k in ALL_RESULTS}
    for r in results:
        totals[r['result']] = totals.get(r['result'], 0) + 1
    against = sum(totals[k] for k in AGAINST_US)
    oracle = sum(totals[k] for k in ORACLE_PROBLEMS)
    gdl_mtime = binary_mtime(opts.gdl)
    if gdl_mtime != opts.gdl_mtime_at_start:
        gdl_mtime = '%s, REBUILT during the run (was %s at the start)' % (
            gdl_mtime, opts.gdl_mtime_at_start)
    L = []
    L.append('# GDL conformance status')
    L.append('')
    L.append('- Date: %s (run took %.0f s)' % (started.strftime('%Y-%m-%d %H:%M:%S'), elapsed))
    L.append('- Command: `%s`' % command)
    L.append('- Repository: %s; `gdl` binary built %s' % (git_info(), gdl_mtime))
    L.append('- Per game: `gdl check`; `gdl playout --count %d --seed %d --max-steps %d` '
             'checked by `oracle check`; `oracle playout` (same options) checked by '
             '`gdl replay`. Time limit %g s per command, %d jobs.'
             % (COUNT, SEED, MAX_STEPS, opts.timeout, opts.jobs))
    L.append('- "ours s" = our playout; "oracle s" = oracle check + oracle playout.')
    L.append('')
    L.append('## Totals')
    L.append('')
    L.append('| result | games |')
    L.append('| --- | --- |')
    for k in ALL_RESULTS:
        L.append('| %s | %d |' % (k, totals[k]))
    L.append('| **total** | %d |' % len(results))
    L.append('')
    L.append('Count against us (%s): **%d**. Oracle problems, not counted against us '
             '(%s): %d.' % (', '.join(AGAINST_US), against,
                            ', '.join(ORACLE_PROBLEMS), oracle))
    L.append('')
    L.append('## Games')
    L.append('')
    L.append('| game | result | ours s | oracle s | detail |')
    L.append('| --- | --- | --- | --- | --- |')
    for r in sorted(results, key=lambda r: r['game']):
        L.append('| %s | %s | %s | %s | %s |' % (
            r['game'], r['result'], fmt_s(r['ours_s']), fmt_s(r['oracle_s']),
            md_cell(short(r['detail']))))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    old = open(path, encoding='utf-8').read() if os.path.exists(path) else ''
    text = '\n'.join(L) + '\n'
    if opts.gdl2:
        # The GDL-II table replaces the last section of the file, the rest stays.
        head = old.split(GDL2_SECTION)[0].rstrip('\n')
        body = text.replace('# GDL conformance status', GDL2_SECTION, 1).replace('\n## ', '\n### ')
        text = (head + '\n\n' if head else '') + body
    elif GDL2_SECTION in old:
        text += '\n' + GDL2_SECTION + old.split(GDL2_SECTION, 1)[1]
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return totals, against, oracle


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description='Conformance of gdl against the reference oracle on the corpus.')
    ap.add_argument('games', nargs='*',
                    help='games to run: DIR/GAME, GAME, DIR, a glob, or a .kif path '
                         '(default: the whole corpus)')
    ap.add_argument('--sample', action='store_true',
                    help='run the fixed sample of %d games' % len(SAMPLE))
    ap.add_argument('--library', action='store_true',
                    help='run the games of games/ except bug-* (any result but pass fails)')
    ap.add_argument('--gdl2', action='store_true',
                    help='run the GDL-II games of ../shared/corpus-gdl2 (their section of STATUS.md)')
    ap.add_argument('--jobs', type=int, default=2, help='games in parallel (default 2)')
    ap.add_argument('--timeout', type=float, default=60.0,
                    help='time limit per command in seconds (default 60)')
    ap.add_argument('--out', help='markdown output (default tests/conformance/STATUS.md; '
                                  'with --sample a temp file)')
    ap.add_argument('--gdl', default='target/release/gdl',
                    help='gdl binary (relative to the repo root)')
    ap.add_argument('--oracle', default='../shared/oracle/oracle',
                    help='oracle CLI (relative to the repo root)')
    ap.add_argument('--corpus', default='../shared/corpus',
                    help='corpus root (relative to the repo root)')
    ap.add_argument('--merge', metavar='JSONL',
                    help='results of an earlier run (out/results-*.jsonl): the games run now '
                         'replace theirs, and the tables cover all of them')
    ap.add_argument('--ground-only', action='store_true',
                    help='only the grounder checks, without the oracle: writes GROUND.md '
                         '(or OUT-ground.md) and leaves STATUS.md alone')
    ap.add_argument('--no-ground', action='store_true',
                    help='skip the grounder checks (gdl ground, playouts on the ground program)')
    ap.add_argument('--propnet-table', type=int, metavar='N',
                    help='instead of the conformance run: playouts per second of the propositional '
                         'network and the reasoner on the first N games that ground '
                         '(writes tests/conformance/PROPNET.md)')
    args = ap.parse_args()
    if sum(map(bool, (args.sample, args.games, args.library, args.gdl2))) > 1:
        ap.error('--sample, --library, --gdl2 and a list of games are exclusive')
    if args.ground_only and args.no_ground:
        ap.error('--ground-only and --no-ground are exclusive')
    if args.jobs < 1:
        ap.error('--jobs must be at least 1')

    rel = lambda p: p if os.path.isabs(p) else os.path.normpath(os.path.join(REPO, p))  # noqa
    args.gdl, args.oracle, args.corpus = rel(args.gdl), rel(args.oracle), rel(args.corpus)
    if args.out:
        out = os.path.abspath(args.out)
    elif args.sample or args.library:
        out = os.path.join(tempfile.gettempdir(), 'gdl-conformance-%s.md'
                           % ('sample' if args.sample else 'library'))
    else:
        out = os.path.join(HERE, 'STATUS.md')
    for p, what in ((args.gdl, 'gdl binary'), (args.oracle, 'oracle')):
        if not os.access(p, os.X_OK):
            ap.error('%s not found or not executable: %s' % (what, p))

    games = select(args, args.corpus)
    args.gdl_mtime_at_start = binary_mtime(args.gdl)
    command = shlex.join(['python3', os.path.relpath(SCRIPT, REPO)] + sys.argv[1:])
    if args.propnet_table:
        propnet_table(games, args, args.out or os.path.join(HERE, 'PROPNET.md'), args.propnet_table,
                      command, datetime.datetime.now())
        return 0
    outdir = os.path.join(HERE, 'out')
    tag = ('sample' if args.sample else 'library' if args.library else 'gdl2' if args.gdl2
           else 'corpus' if not args.games else 'subset')
    started = datetime.datetime.now()
    t0 = time.monotonic()
    tmproot = tempfile.mkdtemp(prefix='gdl-conformance-')
    log('%d games, %d jobs, timeout %g s; traces in %s' %
        (len(games), args.jobs, args.timeout, tmproot))

    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            futs = {ex.submit(run_game, g, p, args, tmproot): g
                    for g, p in sorted(games.items())}
            for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                r = fut.result()
                results.append(r)
                g = r['game']
                keep = os.path.join(outdir, g)
                if os.path.isdir(keep):
                    shutil.rmtree(keep)
                if r['result'] not in ('pass', 'rejected-ok'):
                    shutil.copytree(r['work'], keep)
                    r['kept'] = os.path.relpath(keep, REPO)
                log('[%d/%d] %-55s %-20s ours %5s  oracle %5s  %s' % (
                    i, len(games), g, r['result'], fmt_s(r['ours_s']),
                    fmt_s(r['oracle_s']), short(r['detail'], 100)))
    finally:
        shutil.rmtree(tmproot, ignore_errors=True)

    elapsed = time.monotonic() - t0
    if args.merge:
        with open(args.merge, encoding='utf-8') as f:
            earlier = {r['game']: r for r in map(json.loads, f)}
        earlier.update((r['game'], r) for r in results)
        results = list(earlier.values())
        tag = 'corpus' if len(results) == len(all_games(args.corpus)) else 'subset'
    if args.ground_only:
        out = os.path.join(tempfile.gettempdir(), 'gdl-ground-only-STATUS.md') if not args.out else out
    totals, against, oracle = write_status(out, results, command, args, started, elapsed)
    if not args.no_ground and not args.gdl2:
        write_ground(os.path.join(HERE if args.ground_only and not args.out else os.path.dirname(out),
                                  'GROUND.md' if out.endswith('STATUS.md')
                                  else os.path.basename(out).replace('.md', '-ground.md')),
                     results, command, started)
    os.makedirs(outdir, exist_ok=True)
    jpath = os.path.join(outdir, 'results-%s.jsonl' % tag)
    with open(jpath, 'w', encoding='utf-8') as f:
        for r in sorted(results, key=lambda r: r['game']):
            r = dict(r)
            r.pop('work', None)
            f.write(json.dumps(r, ensure_ascii=False) + '\n')

    print('Totals (%d games, %.0f s):' % (len(results), elapsed))
    for k in ALL_RESULTS:
        if totals[k]:
            print('  %-20s %d' % (k, totals[k]))
    print('Count against us: %d; oracle problems (not counted): %d' % (against, oracle))
    bad = sorted((r for r in results if r['result'] in AGAINST_US),
                 key=lambda r: (AGAINST_US.index(r['result']), r['game']))
    if bad:
        print('Failing games:')
        for r in bad:
            print('  %-50s %-20s %s' % (r['game'], r['result'], short(r['detail'], 200)))
    orc = sorted((r for r in results if r['result'] in ORACLE_PROBLEMS),
                 key=lambda r: r['game'])
    if orc:
        print('Oracle problems:')
        for r in orc:
            print('  %-50s %-20s %s' % (r['game'], r['result'], short(r['detail'], 200)))
    print('Status: %s' % out)
    print('Full results: %s' % jpath)
    if args.library and any(r['result'] != 'pass' for r in results):
        print('games/ must all pass: %s' % ', '.join(
            '%s %s' % (r['game'], r['result']) for r in results if r['result'] != 'pass'))
        return 1
    return 0 if against == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
