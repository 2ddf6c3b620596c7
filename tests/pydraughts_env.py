# tests/pydraughts_env.py -- what tests/hub_pydraughts.py and tests/dxp_pydraughts.py share:
# pydraughts imported (from PYTHONPATH) without msl.loadlib, which only its CheckerBoard engine
# (Windows DLLs) uses, or the test skipped.
import sys
import types


def load(test, checks):
    """pydraughts' draughts package with draughts.engine, or exit 0 saying `test`'s `checks`
    checks are skipped (counted in the runner's last line, as tests/lib.sh's skip does)."""
    try:
        import msl.loadlib  # noqa: F401
    except ImportError:
        msl = types.ModuleType("msl")
        msl.loadlib = types.ModuleType("msl.loadlib")
        msl.loadlib.Client64 = msl.loadlib.Server32 = object
        sys.modules["msl"], sys.modules["msl.loadlib"] = msl, msl.loadlib
    try:
        import draughts
        import draughts.engine  # noqa: F401
    except ImportError as ex:
        print("%s: SKIPPED, pydraughts cannot be imported (%s): pip install pydraughts, or "
              "PYDRAUGHTS=DIR (a pydraughts source tree)" % (test, ex))
        print("%s: 0 passed, 0 failed, %d skipped" % (test, checks))
        sys.exit(0)
    return draughts
