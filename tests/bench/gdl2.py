#!/usr/bin/env python3
"""GDL-II figures: Monty Hall (switching wins two games in three; the honest player learns to
switch) and honest players against random with hidden information; writes tests/bench/GDL2.md.

    cargo build --release -p gdl-cli && python3 tests/bench/gdl2.py

Every figure comes from `gdl match ... --games N --seed S --json` (the exact commands are
written beside the tables); budgets are in playouts, so every row is reproducible. Rates are
given with their 95% Wilson interval. --quick plays fewer games (a smoke run).

Python 3 standard library only.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KRIEG = "../shared/corpus-gdl2/kriegTTT_4x4.kif"


def match(gdl_bin, game, players, games, seed, threads):
    args = ["match", game, "--players", players, "--games", str(games), "--seed", str(seed)]
    command = "gdl " + " ".join(a if "," not in a and " " not in a else f"'{a}'" for a in args)
    out = subprocess.run([gdl_bin, *args, "--threads", threads, "--json"], capture_output=True, text=True,
                         cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"{command} failed: {out.stderr.strip()}")
    return command, json.loads(out.stdout)


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n trials, as (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def rate(k, n):
    lo, hi = wilson(k, n)
    return f"{k} / {n} = {100 * k / max(n, 1):.1f}% (95%: {100 * lo:.1f}–{100 * hi:.1f}%)"


def monty(games):
    """(switched, won after switching, stayed, won after staying) over the candidate's games."""
    sw = swon = st = ston = 0
    for g in games:
        won = g["goals"][0] == 100
        if g["moves"][2][0] == "switch":
            sw, swon = sw + 1, swon + won
        else:
            st, ston = st + 1, ston + won
    return sw, swon, st, ston


def section(title, prose, commands, header, rows):
    """A section of GDL2.md: its title, what it measures, the commands, a table."""
    table = [f"| {' | '.join(header)} |", "|" + " --- |" * len(header), *rows]
    print("\n".join(table), flush=True)
    return [f"## {title}", "", *prose, "", *[f"    {c}" for c in commands], "", *table, ""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gdl", default=os.path.join(ROOT, "target/release/gdl"))
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/bench/GDL2.md"))
    ap.add_argument("--threads", default="2")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    k = 10 if a.quick else 1
    began = time.time()

    cmd, v = match(a.gdl, "games/montyhall.kif", "random", 640 // k, 1, a.threads)
    sw, swon, st, ston = monty(v["games"])
    lines = section(
        "Monty Hall: switching wins two games in three",
        ["A candidate that picks its door and its last move at random, over 640 games: its choice",
         "at the last step does not depend on where the car is (it never looks), so the games in",
         "which it switched are games of a player that always switches, and the others of one that",
         "always stays. Theory: 2/3 = 66.7% and 1/3 = 33.3%."],
        [cmd], ["the candidate", "games won"],
        [f"| always switches | {rate(swon, sw)} |", f"| always stays | {rate(ston, st)} |"])

    cmd, v = match(a.gdl, "games/montyhall.kif", "honest:500", 300 // k, 2, a.threads)
    sw, swon, st, ston = monty(v["games"])
    lines += section(
        "Monty Hall: the honest Monte Carlo player learns to switch",
        ["`honest:500` guesses where the car may be from what it saw (its door, the door the host",
         "opened), then plays 500 random playouts a move over its guesses. It never reads the true",
         "state (`core/src/players/honest.rs`)."],
        [cmd], ["figure", "value"],
        [f"| switched | {rate(sw, sw + st)} |", f"| won | {rate(swon + ston, sw + st)} |"])

    commands, rows = [], []
    for game, games, seed in [(KRIEG, 300, 3), ("games/blindttt.kif", 300, 4), ("games/highdie.kif", 300, 5)]:
        t0 = time.time()
        cmd, v = match(a.gdl, game, "honest:500,random", games // k, seed, a.threads)
        h = v["players"][0]
        n = h["games"]
        commands.append(cmd)
        rows.append(f"| {os.path.basename(game)} | {n} | {h['wins']} / {h['draws']} / {h['losses']} | "
                    f"{rate(h['wins'], n)} | {100 * h['points']['mean']:.1f}% ± "
                    f"{100 * h['points']['plus_minus']:.1f} | {time.time() - t0:.0f} s |")
    lines += section(
        "The honest player against random",
        ["`honest:500` against `random`, seats alternating between games; neither reads the true",
         "state (each is shown its own moves and percepts only). Kriegspiel tic-tac-toe is the",
         "4 x 4 one of `../shared/corpus-gdl2` (three in a line; a mark on a taken cell fails and",
         "the player tries again); blind tic-tac-toe and high die are in `games/`. Points: 1 a win,",
         "½ a draw (normal 95% interval)."],
        commands, ["game", "games", "honest W / D / L", "honest wins (95% Wilson)", "honest points", "time"],
        rows)
    load = os.getloadavg()
    head = [
        "# GDL-II: chance and hidden information",
        "",
        f"Written by `python3 tests/bench/gdl2.py` (after `cargo build --release -p gdl-cli`) in "
        f"{time.time() - began:.0f} s; {a.threads} threads, load average "
        f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} at the end (the machine is shared). "
        "Seeds and budgets are fixed, so the figures are the same on any machine; only the times vary.",
        "A loose check of the first figure runs with the tests (`players::tests::"
        "monty_hall_switching_wins_about_two_in_three`).",
        "",
    ]
    with open(a.out, "w") as f:
        f.write("\n".join(head + lines))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
