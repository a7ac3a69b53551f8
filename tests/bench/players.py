#!/usr/bin/env python3
"""Strength and scaling of the computer players; writes tests/bench/PLAYERS.md.

    cargo build --release -p gdl-cli && python3 tests/bench/players.py

Runs `gdl match` (UCT with 10k playouts a move against random on connect four and
breakthrough, perfect against random on tic-tac-toe, UCT at 1 s a move against 0.1 s) and
`gdl bench --threads 1|2` (native playouts per second). Every match has a fixed seed, so
the playout-budget rows are reproducible; the timed rows depend on the machine and its
load (the load average is written beside them). --quick plays fewer games (a smoke run).

Python 3 standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def gdl(gdl_bin, *args):
    out = subprocess.run([gdl_bin, *args, "--json"], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"gdl {' '.join(args)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gdl", default=os.path.join(ROOT, "target/release/gdl"))
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/bench/PLAYERS.md"))
    ap.add_argument("--threads", default="2", help="threads for the matches (games run in parallel)")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    n = 4 if a.quick else 20
    matches = [
        ("games/connectfour.kif", "uct:10000,random", n),
        ("games/breakthrough.kif", "uct:10000,random", n),
        ("games/tictactoe.kif", "perfect,random", 5 * n),
        ("games/connectfour.kif", "uct:1s,uct:100ms", n),
    ]
    rows = []
    for game, players, games in matches:
        began = time.time()
        v = gdl(a.gdl, "match", game, "--players", players, "--games", str(games), "--seed", "1",
                "--threads", a.threads)
        first = v["players"][0]
        p = first["points"]
        rows.append(
            f"| {os.path.basename(game)} | {players.replace(',', ' vs ')} | {games} | "
            f"{first['wins']} / {first['draws']} / {first['losses']} | "
            f"{100 * p['mean']:.1f}% ± {100 * p['plus_minus']:.1f} | {time.time() - began:.0f} s |")
        print(rows[-1], flush=True)
    scaling = []
    for game in ["games/connectfour.kif", "games/breakthrough.kif"]:
        rates, cpu = {}, {}
        for t in ["1", "2"]:
            v = gdl(a.gdl, "bench", game, "--seconds", "1" if a.quick else "5", "--threads", t)
            rates[t], cpu[t] = v["playouts_per_sec"], v["playouts_per_cpu_sec"]
        scaling.append(
            f"| {os.path.basename(game)} | {rates['1']:,.0f} | {rates['2']:,.0f} | {rates['2'] / rates['1']:.2f}x | "
            f"{cpu['2'] / cpu['1']:.2f} |")
        print(scaling[-1], flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    with open(a.out, "w") as f:
        f.write(f"""# Computer players: strength and scaling

Written by `python3 tests/bench/players.py` (after `cargo build --release -p gdl-cli`);
{os.cpu_count()} cores, load average {load} at the end (the machine is shared).
Matches: `gdl match GAME --players A,B --games N --seed 1 --threads {a.threads}`; seats
alternate between games. Points: 1 a win, ½ a draw, with the 95% confidence interval.

| game | players | games | first player's W / D / L | first player's points | time |
| --- | --- | --- | --- | --- | --- |
{chr(10).join(rows)}

Native random playouts per second, `gdl bench GAME --threads T` (one engine per thread).
The wall-clock ratio is the speed-up when both cores are free; on a loaded machine the
other processes take their share, so the last column (playouts per CPU second, 2 threads
over 1) says whether the threads themselves lose anything (1.00: none).

| game | 1 thread | 2 threads | ratio | per CPU second |
| --- | --- | --- | --- | --- |
{chr(10).join(scaling)}
{page_section()}""")


def page_section():
    """The page's figures from the last `node tests/browser/bench.mjs` (its bench.json)."""
    path = os.path.join(ROOT, "tests/browser/artifacts/bench.json")
    if not os.path.exists(path):
        return "\nThe page: run `node tests/browser/bench.mjs` first to add its figures here.\n"
    b = json.load(open(path))
    p, busy, idle = b["playoutsPerSec"], b.get("busyClickMs"), b["clickMs"]
    if busy is None or "pagePool" not in p:
        return ""
    return f"""
The page (from `node tests/browser/bench.mjs` of {b["date"][:16].replace("T", " ")}, Chromium
{b["chromium"]}, {b["cores"]} cores seen by `navigator.hardwareConcurrency`):

| measure | figure |
| --- | --- |
| tic-tac-toe playouts/s, Playouts pane, 1 worker | {p["page"]:,.0f} |
| the same, {b["cores"]} workers (the default pool) | {p["pagePool"]:,.0f} ({p["poolOverOne"]:.2f}x) |
| click to next frame, median / max | {idle["toPaintMedian"]:.1f} / {idle["toPaintMax"]:.1f} ms |
| the same while a match of MCTS players (100k playouts a move) runs | {busy["toPaintMedian"]:.1f} / {busy["toPaintMax"]:.1f} ms |
"""

if __name__ == "__main__":
    main()
