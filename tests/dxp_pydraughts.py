# tests/dxp_pydraughts.py -- pydraughts (github AttackingOrDefending/pydraughts, the Python
# library of lidraughts bots) plays `condraughts dxp --follow --numbering variant` over DXP: its
# DXPEngine is the Initiator, sends its game request and moves in its own numbering, and checks
# each of the follower's moves against its own move generator, for up to PLIES plies a game.
#   python3 tests/dxp_pydraughts.py BIN [PLIES]   (pydraughts importable, e.g. via PYTHONPATH)
import random
import re
import signal
import subprocess
import sys

from pydraughts_env import load

GAMES = [("russian", "russian"), ("brazilian", "brazilian"), ("turkish", "turkish"),
         ("english", "english"), ("italian", "italian"), ("standard", "international")]
load("dxp-pydraughts", len(GAMES))
from draughts import Board  # noqa: E402
from draughts.engine import DXPEngine  # noqa: E402

binary = sys.argv[1]
plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
rng = random.Random(50)
failed = set()


def too_long(signum, frame):
    raise TimeoutError("no answer within 120 s (pydraughts waits for ever on a move it cannot read)")


signal.signal(signal.SIGALRM, too_long)
for variant, ours in GAMES:
    follower = subprocess.Popen([binary, "dxp", "--follow", "--port", "0", "--variant", ours,
                                 "--numbering", "variant", "--depth", "2", "--timeout", "30"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = None
    for line in follower.stderr:
        m = re.search(r"listening on .* port ([0-9]+)", line)
        if m:
            port = m.group(1)
            break
    if port is None:
        print("%-10s FAIL: the follower did not listen" % variant)
        failed.add(variant)
        follower.kill()
        continue
    e = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port})
    b = Board(variant)
    engine_side = b.turn  # DXPEngine asks the follower to play the side to move
    n = 0
    signal.alarm(120)
    try:
        while not b.is_over() and n < plies:
            legal = b.legal_moves()
            if b.turn == engine_side:
                r = e.play(b)
                if r.move is None or r.move.board_move not in [m.board_move for m in legal]:
                    raise RuntimeError("no legal move from the follower")
                b.push(r.move)
            else:
                b.push(rng.choice(legal))
            n += 1
        print("%-10s %d plies ok%s" % (variant, n, " (game over)" if b.is_over() else ""))
    except Exception as ex:
        print("%-10s FAIL at ply %d: %r" % (variant, n + 1, ex))
        failed.add(variant)
    signal.alarm(0)
    try:
        e.quit()
    except Exception:
        pass
    try:
        follower.wait(timeout=20)
    except subprocess.TimeoutExpired:
        follower.kill()
        follower.wait()
    log = follower.stderr.read()
    follower.stderr.close()
    if follower.returncode != 0 or "illegal" in log:
        print("%-10s FAIL: the follower exited with %s:\n%s" % (variant, follower.returncode, log))
        failed.add(variant)
print("dxp-pydraughts: %d passed, %d failed" % (len(GAMES) - len(failed), len(failed)))
sys.exit(1 if failed else 0)
