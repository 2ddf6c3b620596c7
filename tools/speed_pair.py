#!/usr/bin/env python3
"""speed_pair.py -- nodes a second of condraughts beside another engine, run back to back.

    python3 tools/speed_pair.py --peer 'cd DIR && exec ./ENGINE hub' [--peer-depth 19]
                                [--depth 17] [--rounds 10] BIN [BIN ...]

For each round and each of the four positions of tools/speed.sh (International, 4-ply balanced
openings), the peer -- a Hub 1 engine (the dialect of Scan 2.0: `hub`, `init`, `new`, `move M`,
`depth D`, `level 1 MS 0`, `analyse`, whose `info` lines read "info DEPTH MEANDEPTH SCORE NODES
SECONDS NPS PV") -- searches to a fixed depth, then each BIN (`analyse --depth`, one thread, 64 MiB)
to its fixed depth. Each run's rate is its own count of nodes over its own time. Prints, per
engine, the median rate over all runs and, per BIN, the median (and quartiles) of its rate divided
by the peer's rate in the run just before it. On a shared machine whose speed drifts by half
within minutes, the ratio of neighbouring runs is steadier than either rate alone
(docs/strength.md, "Speed"). CD_WEIGHTS is passed on (default: ./weights).
"""
import argparse, os, statistics, subprocess

POSITIONS = ["31-26 18-22 34-29 13-18", "31-26 20-24 36-31 18-23",
             "32-27 19-23 35-30 13-19", "33-28 17-21 34-29 20-25"]


def peer_rate(cmd, depth, moves):
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(word):
        last = None
        for line in p.stdout:
            if line.startswith("info"):
                last = line.split()
            if line.startswith(word):
                return last
        raise SystemExit("speed_pair: the peer stopped before '%s'" % word)

    send("hub"); until("wait")
    send("init"); until("ready")
    send("new")
    for m in moves.split():
        send("move " + m)
    send("depth %d" % depth); send("level 1 600000 0"); send("analyse")
    info = until("move")
    send("quit"); p.wait()
    if not info or len(info) < 6:
        raise SystemExit("speed_pair: no info line from the peer")
    return int(info[4]) / float(info[5])


def our_rate(binary, depth, moves):
    env = dict(os.environ)
    env.setdefault("CD_WEIGHTS", "weights")
    out = subprocess.run([binary, "analyse", "--after", moves, "--depth", str(depth), "--threads",
                          "1", "--hash", "64"], capture_output=True, text=True, env=env).stdout
    lines = [l.split() for l in out.splitlines() if l.startswith("depth %d " % depth)]
    if not lines:
        raise SystemExit("speed_pair: %s did not reach depth %d" % (binary, depth))
    f = lines[-1]
    return int(f[f.index("nodes") + 1]) / float(f[f.index("time") + 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", required=True, help="shell command starting the Hub 1 engine")
    ap.add_argument("--peer-depth", type=int, default=19)
    ap.add_argument("--depth", type=int, default=17)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("bins", nargs="+")
    a = ap.parse_args()
    rates = {"peer": []}
    ratios = {b: [] for b in a.bins}
    for b in a.bins:
        rates[b] = []
    for _ in range(a.rounds):
        for moves in POSITIONS:
            pr = peer_rate(a.peer, a.peer_depth, moves)
            rates["peer"].append(pr)
            for b in a.bins:
                r = our_rate(b, a.depth, moves)
                rates[b].append(r)
                ratios[b].append(r / pr)
    for name, v in rates.items():
        line = "%s: median %.2fM nodes/s over %d runs" % (name, statistics.median(v) / 1e6, len(v))
        if name in ratios:
            q = statistics.quantiles(ratios[name], n=4)
            line += ", median ratio to the peer's run before it %.3f (quartiles %.3f-%.3f)" % (
                statistics.median(ratios[name]), q[0], q[2])
        print(line, flush=True)


if __name__ == "__main__":
    main()
