# tests/hub_pydraughts.py -- drive `condraughts hub` with pydraughts (github
# AttackingOrDefending/pydraughts, the Python library of lidraughts bots): in every variant it
# knows, pydraughts asks for up to PLIES moves with `numbering=variant` and checks each against
# its own move generator; then `go` in a position without a legal move must give pydraughts a
# null move instead of a crash.
# The last line is "hub-pydraughts: P passed, F failed"; without pydraughts (no Debian package; pip
# install pydraughts, or PYTHONPATH=DIR of its source tree) the checks are SKIPPED, and counted so.
#   python3 tests/hub_pydraughts.py BIN [PLIES]   (pydraughts importable, e.g. via PYTHONPATH)
import sys

from pydraughts_env import load

# the variants pydraughts knows, each a check; the null move is one more
VARIANTS = ["standard", "russian", "brazilian", "english", "turkish", "italian", "frisian",
            "frysk!", "antidraughts", "breakthrough"]

load("hub-pydraughts", len(VARIANTS) + 1)
from draughts import Board  # noqa: E402
from draughts.engine import HubEngine, Limit  # noqa: E402

binary = sys.argv[1]
plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
passed = failed = 0
for variant in VARIANTS:
    e = HubEngine([binary, "hub"])
    e.init()
    e.configure({"variant": variant, "numbering": "variant"})
    b = Board(variant)
    n = 0
    try:
        while not b.is_over() and n < plies:
            r = e.play(b, Limit(depth=2), ponder=False)
            legal = [m.board_move for m in b.legal_moves()]
            if r.move.board_move not in legal:
                raise RuntimeError("illegal move %s" % r.move.hub_move)
            b.push(r.move)
            n += 1
        print("%-13s %d plies ok%s" % (variant, n, " (game over)" if b.is_over() else ""))
        passed += 1
    except Exception as ex:
        print("%-13s FAIL at ply %d: %r" % (variant, n + 1, ex))
        failed += 1
    e.quit()
    e.kill_process()
# no legal move: White to move with no piece able to move (W:W46:B41,37 -- 46 blocked)
e = HubEngine([binary, "hub"])
e.init()
b = Board("standard", "W:W46:B41,37")
try:
    r = e.play(b, Limit(depth=2), ponder=False)
    print("no legal move: play() returned", r.move.hub_move, "null" if r.move.is_null else "")
    if r.move.is_null:
        passed += 1
    else:
        failed += 1
except Exception as ex:
    print("no legal move: FAIL %r" % ex)
    failed += 1
e.quit()
e.kill_process()
print("hub-pydraughts: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
