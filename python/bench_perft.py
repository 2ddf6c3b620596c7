"""Perft through condraughts and through pydraughts' own move generation (docs/python.md).

Usage: PYTHONPATH=build/python:PYDRAUGHTS_DIR /usr/bin/python3 python/bench_perft.py [DEPTH] [VARIANT]
DEPTH defaults to 4, VARIANT to international (pydraughts calls it standard). condraughts'
times are the best of 5 runs, pydraughts' of one. pydraughts is
not part of condraughts: PYDRAUGHTS_DIR is its source tree (the folder holding draughts/).
"""
import sys
import time

import condraughts

PYDRAUGHTS_NAMES = {"international": "standard"}


def perft_walk(board, depth, legal_moves):
    """Leaves of the move tree walked from Python: legal_moves(board), board.push, board.pop."""
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft_walk(board, depth - 1, legal_moves)
        board.pop()
    return total


def timed(label, fn, *args, repeat=1):
    """The count and the best time of `repeat` runs of fn(*args), printed."""
    seconds = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        n = fn(*args)
        seconds = min(seconds, time.perf_counter() - start)
    print(f"{label:44s} {n:>12,d} leaves {seconds:10.4f} s {n / seconds:14,.0f} leaves/s")
    return n, seconds


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    variant = sys.argv[2] if len(sys.argv) > 2 else "international"
    print(f"perft({depth}) of the {variant} start")
    n1, t1 = timed("condraughts.perft (C, GIL released)", condraughts.perft,
                   condraughts.Board(variant), depth, repeat=5)
    n2, t2 = timed("condraughts Board walked from Python", perft_walk,
                   condraughts.Board(variant), depth, lambda b: b.legal_moves, repeat=5)
    try:
        import draughts
    except ImportError:
        print("pydraughts not found (PYTHONPATH=its source tree): skipped")
        return
    n3, t3 = timed("pydraughts Board walked from Python", perft_walk,
                   draughts.Board(PYDRAUGHTS_NAMES.get(variant, variant)), depth,
                   lambda b: b.legal_moves())
    print(f"pydraughts / condraughts.perft: {t3 / t1:,.0f}x; "
          f"pydraughts / condraughts walk: {t3 / t2:,.0f}x")
    if not n1 == n2 == n3:
        print(f"counts differ: {n1} {n2} {n3}")
        sys.exit(1)


if __name__ == "__main__":
    main()
