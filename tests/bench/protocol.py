#!/usr/bin/env python3
"""Time per move of `gdl player` under the Dresden GameController (../shared/ggp-referee).

For each game, matches with our player in each seat against the referee's random player
(GDL-II: Monty Hall's candidate against nature, both seats of Kriegspiel tic-tac-toe 4x4,
the referee sending our player its percepts only);
the referee's own log gives the time of each reply ("reply from ours: MOVE after N ms").
Moves where our player had a choice (not noop) and every reply are reported apart.
Writes the table to stdout (tests/bench/PROTOCOL.md keeps it). Needs java and a release
build (cargo build --release -p gdl-cli).

With --idle N, N hostile connections sit on our player the whole match: each sends half a
request head and nothing more, and is opened again whenever the player closes it; the table
then also gives how long our player took to answer INFO (20 asks during the first match) and
how many of those it refused. --gdl runs another build (say, an older one, to compare).

    python3 tests/bench/protocol.py [--player uct:60s] [--play-clock 3] [--matches 1] [--only monty]
                                    [--idle 1000] [--gdl path/to/gdl]
"""
import argparse, re, selectors, socket, statistics, subprocess, sys, threading, time, urllib.request
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


class Idle:
    """`n` connections to `port` that each send half a request head and nothing more, each
    opened again (at most every 50 ms) once the player closes it."""

    def __init__(self, port, n):
        self.port, self.n, self.done = port, n, threading.Event()
        self.selector = selectors.DefaultSelector()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def open(self):
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
            s.setblocking(False)
            self.selector.register(s, selectors.EVENT_READ)
        except OSError:
            pass

    def run(self):
        while not self.done.is_set():
            while len(self.selector.get_map()) < self.n and not self.done.is_set():
                self.open()
            for key, _ in self.selector.select(timeout=0.05):
                self.selector.unregister(key.fileobj)
                key.fileobj.close()
            time.sleep(0.05)

    def close(self):
        self.done.set()
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def info_times(port, asks=20):
    """The time (ms) of each INFO answered 200, and how many were not."""
    times, refused = [], 0
    for _ in range(asks):
        t = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", b"(INFO)", timeout=30) as r:
                r.read()
            times.append((time.monotonic() - t) * 1000)
        except OSError:
            refused += 1
        time.sleep(0.1)
    return times, refused


def match(game, version, seat, roles, player, play_clock, gdl, idle=0, infos=None):
    """One match; the times (ms) of our replies, with the move. With `idle`, that many hostile
    connections sit on our player meanwhile; INFO's times are added to `infos`, if given."""
    port = free_port()
    ours = subprocess.Popen([gdl, "player", "--port", str(port), "--player", player],
                            stderr=subprocess.DEVNULL)
    hostile = None
    try:
        time.sleep(0.5)
        if idle:
            hostile = Idle(port, idle)
            time.sleep(2)
        asking = threading.Thread(target=lambda: infos.append(info_times(port)), daemon=True)
        if infos is not None:
            asking.start()
        seats = []
        for r in range(1, roles + 1):
            seats += ["-remote", str(r), "ours", "127.0.0.1", str(port), str(version)] if r == seat else ["-random", str(r)]
        log = subprocess.run(["java", "-jar", SHARED / "ggp-referee/gamecontroller-cli.jar", f"bench{seat}",
                              SHARED / game, "10", str(play_clock), str(version), *seats],
                             capture_output=True, text=True, timeout=600)
        if infos is not None:
            asking.join()
    finally:
        if hostile:
            hostile.close()
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
    ap.add_argument("--idle", type=int, default=0, help="hostile connections idling on our player")
    ap.add_argument("--gdl", default=str(ROOT / "target/release/gdl"), help="the gdl to run")
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
                infos = [] if args.idle and played == 0 else None
                replies, bad = match(game, version, seat, 2, args.player, args.play_clock, args.gdl, args.idle, infos)
                if infos:
                    times, refused = infos[0]
                    median = f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms" if times else "none"
                    print(f"{name}: INFO with {args.idle} idle connections: {len(times)} answered ({median}), "
                          f"{refused} refused", file=sys.stderr)
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
