#!/usr/bin/env python3
"""Time per move of `gdl player` under the Dresden GameController (../shared/ggp-referee).

For each game, matches with our player in each seat against the referee's random player
(GDL-II: Monty Hall's candidate against nature, both seats of Kriegspiel tic-tac-toe 4x4,
the referee sending our player its percepts only);
the referee's own log gives the time of each reply ("reply from ours: MOVE after N ms").
Moves where our player had a choice (not noop) and every reply are reported apart.
Writes the table to stdout (tests/bench/PROTOCOL.md keeps it). Needs java and a release
build (cargo build --release -p gdl-cli).

    python3 tests/bench/protocol.py [--player uct:60s] [--play-clock 3] [--matches 1] [--only monty]
"""
import argparse, re, socket, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
# name: (file of ../shared, GDL version, our player's seats)
GAMES = {
    "tic-tac-toe": ("corpus/ggp-base/tictactoe.kif", 1, (1, 2)),
    "connect four": ("corpus/ggp-base/connectFour.kif", 1, (1, 2)),
    "Monty Hall (GDL-II)": ("corpus-gdl2/montyhall.kif", 2, (1,)),
    "Kriegspiel tic-tac-toe 4x4 (GDL-II)": ("corpus-gdl2/kriegTTT_4x4.kif", 2, (1, 2)),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def match(game, version, seat, roles, player, play_clock):
    """One match; the times (ms) of our replies, with the move."""
    port = free_port()
    ours = subprocess.Popen([ROOT / "target/release/gdl", "player", "--port", str(port), "--player", player],
                            stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        seats = []
        for r in range(1, roles + 1):
            seats += ["-remote", str(r), "ours", "127.0.0.1", str(port), str(version)] if r == seat else ["-random", str(r)]
        log = subprocess.run(["java", "-jar", SHARED / "ggp-referee/gamecontroller-cli.jar", f"bench{seat}",
                              SHARED / game, "10", str(play_clock), str(version), *seats],
                             capture_output=True, text=True, timeout=600)
    finally:
        ours.kill()
        ours.wait()
    text = log.stdout + log.stderr
    if "Game over!" not in text:
        sys.exit(f"{game}: the match did not finish:\n{text[-2000:]}")
    bad = [l for l in text.splitlines() if re.search(r"illegal|timeout|timed out|io error", l, re.I)]
    replies = [(m.group(1).strip(), int(m.group(2)))
               for m in re.finditer(r"reply from ours: (.*?)\s*after (\d+)ms", text, re.S)]
    return replies, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--player", default="uct:60s", help="our player (a long budget: the clock stops it)")
    ap.add_argument("--play-clock", type=int, default=3)
    ap.add_argument("--matches", type=int, default=1, help="matches per seat")
    ap.add_argument("--only", default="", help="only the games whose name contains this")
    args = ap.parse_args()
    clock = args.play_clock * 1000
    print(f"| game | matches | moves with a choice | median | worst | every reply: median | worst | late or illegal |")
    print(f"| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (game, version, ours) in GAMES.items():
        if args.only.lower() not in name.lower():
            continue
        choice, every, faults, played = [], [], [], 0
        for seat in ours:
            for _ in range(args.matches):
                replies, bad = match(game, version, seat, 2, args.player, args.play_clock)
                played += 1
                every += [t for _, t in replies]
                choice += [t for mv, t in replies if mv.lower() != "noop"]
                faults += bad
        fmt = lambda t: f"{t} ms ({100 * t / clock:.0f}%)"
        print(f"| {name} | {played} | {len(choice)} | {fmt(int(statistics.median(choice)))} | {fmt(max(choice))} "
              f"| {fmt(int(statistics.median(every)))} | {fmt(max(every))} | {len(faults)} |")
        for line in faults:
            print(f"  {line}", file=sys.stderr)


if __name__ == "__main__":
    main()
