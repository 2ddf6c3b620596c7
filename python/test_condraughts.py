"""Tests of the Python module condraughts (make python-test; docs/python.md)."""
import os
import tempfile
import threading
import time
import unittest

import condraughts

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# Perft lines are checked up to this many leaves (the C suites go deeper).
PERFT_MAX = 3_000_000


def perft_lines(name):
    """(fen, [(depth, count), ...]) of each position of tests/perft/NAME."""
    with open(os.path.join(ROOT, "tests", "perft", name)) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(";")]
            counts = []
            for field in fields[1:]:
                depth, count = field.split()
                counts.append((int(depth[1:]), int(count)))
            yield fields[0], counts


class PerftTest(unittest.TestCase):
    def check_file(self, variant, name):
        checked = 0
        for fen, counts in perft_lines(name):
            board = condraughts.Board(variant, fen)
            for depth, count in counts:
                if count > PERFT_MAX:
                    break
                with self.subTest(fen=fen, depth=depth):
                    self.assertEqual(condraughts.perft(board, depth), count)
                checked += 1
        self.assertGreater(checked, 5)

    def test_international(self):
        self.check_file("international", "international.drop.perft")

    def test_russian(self):
        self.check_file("russian", "russian.drop.perft")

    def test_start_counts(self):
        self.assertEqual(condraughts.perft(condraughts.Board(), 5), 27117)
        self.assertEqual(condraughts.perft(condraughts.Board("russian"), 6), 37986)
        self.assertEqual(condraughts.perft(condraughts.Board(), 0), 1)

    def test_perft_in_threads(self):
        results = []
        threads = [threading.Thread(target=lambda: results.append(
            condraughts.perft(condraughts.Board(), 6))) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [167140, 167140])


class BoardTest(unittest.TestCase):
    def test_start(self):
        board = condraughts.Board()
        self.assertEqual(board.variant, "international")
        self.assertEqual(board.fen(), "W:W31-50:B1-20")
        self.assertEqual(board.turn, condraughts.WHITE)
        self.assertEqual(len(board.legal_moves), 9)
        self.assertIn("32-28", [str(m) for m in board.legal_moves])
        self.assertEqual(board.piece_at(1), condraughts.BLACK_MAN)
        self.assertEqual(board.piece_at(25), condraughts.EMPTY)
        self.assertFalse(board.is_game_over())
        self.assertEqual(board.result(), "*")
        self.assertEqual(condraughts.Board.__new__(condraughts.Board).fen(), board.fen())

    def test_fen_round_trip(self):
        for variant, fen in [("international", "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"),
                             ("international", "W:W31-50:B1-20"),
                             ("russian", "W:W21-32:B1-12"),
                             ("english", "B:W18,K32:B3,K14")]:
            with self.subTest(fen=fen):
                board = condraughts.Board(variant, fen)
                again = condraughts.Board(variant, board.fen())
                self.assertEqual(again.fen(), board.fen())
                self.assertEqual(board.fen(), fen)
        russian = condraughts.Board("russian")
        self.assertEqual(condraughts.Board("russian", russian.fen(algebraic=True)).fen(),
                         russian.fen())

    def test_algebraic_moves(self):
        board = condraughts.Board("russian")
        self.assertIn("c3-d4", [str(m) for m in board.legal_moves])
        board.push_str("c3-d4")
        self.assertEqual(board.turn, condraughts.BLACK)

    def test_capture(self):
        board = condraughts.Board(fen="W:W27,28:B22,23,18")
        moves = board.legal_moves
        self.assertEqual(sorted(str(m) for m in moves), ["28x17", "28x19"])
        self.assertEqual(sorted(m.captures for m in moves), [(22,), (23,)])
        # the majority rule: only the capture of two pieces is legal
        board = condraughts.Board(fen="W:W27,28:B22,23")
        self.assertEqual([str(m) for m in board.legal_moves], ["27x29"])
        self.assertEqual(board.legal_moves[0].captures, (22, 23))
        # captures are compulsory in Russian too, and free
        board = condraughts.Board("russian", "W:Wc3,g3:Bd4,f4")
        self.assertEqual(sorted(str(m) for m in board.legal_moves),
                         ["c3:e5", "g3:e5"])

    def test_push_pop(self):
        board = condraughts.Board()
        move = board.parse_move("32-28")
        board.push(move)
        board.push_str("19-23")
        board.push("28x19")
        self.assertEqual([str(m) for m in board.move_stack], ["32-28", "19-23", "28x19"])
        self.assertEqual(board.fen(), "B:W19,31,33-50:B1-18,20")
        self.assertEqual(str(board.pop()), "28x19")
        self.assertEqual(str(board.pop()), "19-23")
        self.assertEqual(board.pop(), move)
        self.assertEqual(board.fen(), "W:W31-50:B1-20")
        with self.assertRaises(IndexError):
            board.pop()

    def test_copy(self):
        board = condraughts.Board()
        board.push_str("32-28")
        other = board.copy()
        other.push_str("19-23")
        self.assertEqual(len(board.move_stack), 1)
        self.assertEqual(len(other.move_stack), 2)
        self.assertEqual(other.pop(), board.parse_move("19-23"))
        self.assertEqual(other.fen(), board.fen())

    def test_illegal_move(self):
        board = condraughts.Board()
        with self.assertRaises(ValueError) as cm:
            board.push_str("32-29")
        self.assertIn("32-29", str(cm.exception))
        self.assertIn("not legal", str(cm.exception))
        self.assertIn("W:W31-50:B1-20", str(cm.exception))
        with self.assertRaises(condraughts.IllegalMoveError) as cm:
            board.push_str("hello")
        self.assertIn("column 1", str(cm.exception))
        # a move of another position
        black_move = condraughts.Board(fen="B:W31-50:B1-20").legal_moves[0]
        with self.assertRaises(ValueError):
            board.push(black_move)
        self.assertEqual(board.fen(), "W:W31-50:B1-20")
        with self.assertRaises(TypeError):
            board.push(42)

    def test_bad_fen_and_variant(self):
        with self.assertRaises(ValueError) as cm:
            condraughts.Board(fen="W:W31-51:B1-20")
        self.assertIn("column", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            condraughts.Board("chess")
        self.assertIn("chess", str(cm.exception))

    def test_game_over(self):
        board = condraughts.Board(fen="W:W28:B23")
        self.assertFalse(board.is_game_over())
        board.push_str("28x19")
        self.assertTrue(board.is_game_over())
        self.assertEqual(board.result(), "2-0")
        self.assertEqual(board.outcome_reason(), "no pieces left")
        self.assertEqual(board.legal_moves, [])
        with self.assertRaises(ValueError):
            board.push_str("5-10")
        # blocked: Black has a man but no move
        board = condraughts.Board("russian", "B:W8,11:B4")
        self.assertTrue(board.is_game_over())
        self.assertEqual(board.result(), "1-0")
        board = condraughts.Board(fen="W:W:B1")
        self.assertTrue(board.is_game_over())
        self.assertEqual(board.result(), "0-2")

    def test_pdn_round_trip(self):
        board = condraughts.Board()
        for move in ["32-28", "19-23", "28x19", "14x23"]:
            board.push_str(move)
        text = board.pdn({"White": "Sijbrands", "Black": "Baba"})
        self.assertIn('[White "Sijbrands"]', text)
        self.assertIn("1. 32-28 19-23 2. 28x19 14x23 *", text)
        games = condraughts.read_pdn(text + text)
        self.assertEqual(len(games), 2)
        again, tags = games[0]
        self.assertEqual(tags["Black"], "Baba")
        self.assertEqual(again.fen(), board.fen())
        self.assertEqual(again.move_stack, board.move_stack)
        self.assertEqual(again.pdn(tags), text)
        russian = condraughts.read_pdn('[GameType "25"]\n1. c3-d4 f6-g5 *\n')[0][0]
        self.assertEqual(russian.variant, "russian")
        self.assertEqual(str(russian.move_stack[1]), "f6-g5")
        with self.assertRaises(ValueError) as cm:
            condraughts.read_pdn("1. 32-28 19-23 2. 28-22 *")
        self.assertIn("line 1 col 19", str(cm.exception))
        self.assertEqual(condraughts.read_pdn(""), [])

    def test_variants(self):
        names = condraughts.variants()
        for name in ["international", "russian", "english", "frisian", "turkish"]:
            self.assertIn(name, names)
        for name in names:
            with self.subTest(variant=name):
                board = condraughts.Board(name)
                self.assertEqual(condraughts.perft(board, 2),
                                 sum(len(b.legal_moves) for b in self.children(board)))

    @staticmethod
    def children(board):
        for m in board.legal_moves:
            child = board.copy()
            child.push(m)
            yield child


class EngineTest(unittest.TestCase):
    def test_analyse(self):
        engine = condraughts.Engine(hash_mb=16)
        board = condraughts.Board()
        for limits in [{"depth": 5}, {"nodes": 5000}, {"time": 0.1}]:
            with self.subTest(**limits):
                info = engine.analyse(board, **limits)
                self.assertIn(info["move"], board.legal_moves)
                self.assertEqual(info["pv"][0], info["move"])
                self.assertGreater(info["nodes"], 0)
                self.assertGreaterEqual(info["depth"], 1)
                self.assertIsInstance(info["score"], int)
        board.push(engine.analyse(board, depth=4)["move"])
        self.assertEqual(board.turn, condraughts.BLACK)

    def test_forced_capture_and_win(self):
        engine = condraughts.Engine()
        board = condraughts.Board(fen="W:W28:B23")
        info = engine.analyse(board, depth=3)
        self.assertEqual(str(info["move"]), "28x19")
        self.assertTrue(info["win"])
        self.assertGreater(info["score"], 0)

    def test_stop_from_another_thread(self):
        # the search runs without the GIL: this thread stops it long before its time is up
        engine = condraughts.Engine()
        board = condraughts.Board()
        out = {}

        def search():
            out.update(engine.analyse(board, time=20))

        thread = threading.Thread(target=search)
        start = time.monotonic()
        thread.start()
        time.sleep(1)
        with self.assertRaises(RuntimeError):
            engine.analyse(board, depth=1)
        engine.stop()
        thread.join()
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn(out["move"], board.legal_moves)

    def test_errors(self):
        engine = condraughts.Engine()
        with self.assertRaises(ValueError):
            engine.analyse(condraughts.Board())
        with self.assertRaises(ValueError):
            engine.analyse(condraughts.Board(fen="W:W:B1"), depth=2)
        with self.assertRaises(TypeError):
            engine.analyse("W:W31-50:B1-20", depth=2)
        with self.assertRaises(ValueError):
            engine.set_option("no-such-option", 1)
        options = {o["name"]: o for o in condraughts.engine_options()}
        self.assertIn("contempt", options)
        engine.set_option("contempt", options["contempt"]["max"])
        with self.assertRaises(ValueError):
            engine.set_option("contempt", options["contempt"]["max"] + 1)
        with self.assertRaises(ValueError):
            condraughts.Engine(weights="/nonexistent")


class TablebaseTest(unittest.TestCase):
    def test_build_and_probe(self):
        with tempfile.TemporaryDirectory() as folder:
            tb = condraughts.Tablebase(folder, "international")
            tb.build(3)
            self.assertEqual(tb.probe(condraughts.Board(fen="W:WK46:B5")), (1, 3))
            self.assertEqual(tb.probe(condraughts.Board(fen="B:WK46,K1:B5")), (-1, 2))
            self.assertEqual(tb.probe(condraughts.Board(fen="W:WK47:BK5")), (0, 0))
            self.assertIsNone(tb.probe(condraughts.Board()))
            with self.assertRaises(ValueError):
                tb.probe(condraughts.Board("russian"))
            engine = condraughts.Engine()
            engine.set_tablebase(tb)
            board = condraughts.Board(fen="W:WK46:B5")
            info = engine.analyse(board, depth=6)
            self.assertTrue(info["win"])
            self.assertIn(info["move"], board.legal_moves)
            engine.set_tablebase(None)
            with self.assertRaises(TypeError):
                engine.set_tablebase(board)
        with self.assertRaises(ValueError):
            condraughts.Tablebase("/tmp", "turkish")


if __name__ == "__main__":
    unittest.main()
