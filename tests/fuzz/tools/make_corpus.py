#!/usr/bin/env python3
"""Regenerate the committed seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

    python3 tests/fuzz/tools/make_corpus.py [--bin build/condraughts]

Each seed is a small file in the input format of its target (see the comment at the top of
tests/fuzz/fuzz_<target>.c): valid inputs of every variant, and known-bad ones. The files are
committed; this script is only needed to change them. It removes and rewrites the directories.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.path.join(HERE, "..", "corpus")
BIN = os.path.join(ROOT, "build", "condraughts")
if "--bin" in sys.argv:
    BIN = sys.argv[sys.argv.index("--bin") + 1]

VARIANTS = [l.split()[0] for l in subprocess.run([BIN, "variants"], capture_output=True,
                                                 text=True, check=True).stdout.splitlines()]
SIZE = {}
for l in subprocess.run([BIN, "variants"], capture_output=True, text=True).stdout.splitlines():
    f = l.split()
    SIZE[f[0]] = f[1]
ALGEBRAIC = {"russian", "russian-constitutional", "brazilian", "brazilian-constitutional",
             "czech", "modern-8x8"}
BLACK_FIRST = {"english", "pool"}


def vbyte(name, switch=0):
    return bytes([(VARIANTS.index(name) & 31) | (switch << 5)])


def start_fen(v):
    side = "B" if v in BLACK_FIRST else "W"
    return {"8x8": f"{side}:W21-32:B1-12", "10x10": f"{side}:W31-50:B1-20",
            "12x12": f"{side}:W43-72:B1-30"}[SIZE[v]]


files = {}


def add(target, name, data):
    if isinstance(data, str):
        data = data.encode("latin-1")
    files.setdefault(target, {})[name] = data


# ------------------------------------------------------------------ fen
for v in VARIANTS:
    add("fen", f"start-{v}", vbyte(v) + start_fen(v).encode())
    n = {"8x8": 32, "10x10": 50, "12x12": 72}[SIZE[v]]
    hub = "W" + "b" * (n * 2 // 5) + "e" * (n - 2 * (n * 2 // 5)) + "w" * (n * 2 // 5)
    add("fen", f"hub-{v}", vbyte(v) + hub.encode())
    add("fen", f"dxp-{v}", vbyte(v) + hub.replace("b", "z").replace("B", "Z").encode())
kings = {"8x8": "W:WK32,K21,24,27,18:B5,6,K9,14,15", "10x10": "W:WK46,K28,33,34,38:B12,13,K19,22,23",
         "12x12": "W:WK70,40,41,45:B10,K20,30,31,34"}
for v in VARIANTS:
    add("fen", f"kings-{v}", vbyte(v) + kings[SIZE[v]].encode())
for sw in range(1, 8):
    add("fen", f"constitutional-switch{sw}", vbyte("constitutional", sw) + b"B:WK3,K35,K48:BK8,K19,K44")
add("fen", "algebraic-russian", vbyte("russian") + b"W:Wa1,c1,e1,g1,Kd4:Bh8,f8,Kb6")
add("fen", "algebraic-czech", vbyte("czech") + b"B:WKa1,c3:Bd6,f6,h6")
add("fen", "quoted-pdn", vbyte("international") + b'"W:W31-50:B1-20."')
add("fen", "counters", vbyte("international") + b"W:W31-50:B1-20:H0:F1")
add("fen", "empty-side", vbyte("international") + b"W:W:B1")
add("fen", "spaces", vbyte("international") + b"  w : W 31 - 35 , K 40 : B K 1 , 2 - 4 ")
for name, text in [("bad-side", "X:W31"), ("off-board", "W:W51"), ("promotion-row", "W:W3"),
                   ("twice", "W:W31,31"), ("empty-range", "W:W35-31"), ("huge", "W:W99999999999999999999"),
                   ("second-field", "W:W31:W32"), ("trailing", "W:W31:B1 junk"), ("lone-k", "W:WK"),
                   ("colon-only", "W:"), ("range-end", "W:W31-"), ("too-many", "W:W1-50:B")]:
    add("fen", name, vbyte("international") + text.encode())
add("fen", "too-many-russian", vbyte("russian") + b"W:W5-20")
add("fen", "hub-short", vbyte("international") + b"Wbbbbe")
add("fen", "hub-bad-char", vbyte("international") + b"W" + b"x" * 50)

# ------------------------------------------------------------------ move
words = {
    "international": ["32-28", "33-28", "31x22", "33x22x28", "32-28 18-23 37-32 12-18", "50-45"],
    "constitutional": ["35-13", "46-37", "32-28 19-23 28x19 14x23"],
    "russian": ["c3-d4", "c3d4", "c3:e5", "a3-b4 b6-a5", "g3-h4 f6-g5 h4xf6 g7xe5"],
    "english": ["9-14", "11-15", "9-14 22-17 11-15 25-22"],
    "canadian": ["43-37", "50-44"],
    "italian": ["22-18", "21-17"],
    "spanish": ["22-18"],
    "czech": ["c3-d4"],
    "pool": ["11-15"],
    "brazilian": ["c3-d4 b6-c5 d4xb6 c7xa5"],
}
for v in VARIANTS:
    for pos in range(0, 4):
        ws = words.get(v, ["21-17", "31-27", "32-28"])
        add("move", f"{v}-p{pos}", vbyte(v) + bytes([pos]) + " ".join(ws).encode())
for name, text in [("bad-99", "99-98"), ("dashes", "1--2"), ("lone-x", "x"), ("one-square", "32"),
                   ("long", "-".join(str(i % 50 + 1) for i in range(80))), ("hub-caps", "28x19x23x12"),
                   ("letters", "zz-yy"), ("spaces", "  32 - 28  "), ("nul", "32\x0028"),
                   ("high", "\xff\xfe32-28"), ("colon", "32:28"), ("X", "33X22")]:
    add("move", name, vbyte("international") + b"\x01" + text.encode("latin-1"))

# ------------------------------------------------------------------ pdn
pdndir = os.path.join(ROOT, "tests", "pdn")
for f in sorted(os.listdir(pdndir)):
    if f.endswith(".pdn"):
        with open(os.path.join(pdndir, f), "rb") as fh:
            add("pdn", f[:-4], vbyte("international") + fh.read()[:6000])
for name, text in [
        ("unterminated-comment", "1. 32-28 {never closed"),
        ("unterminated-variation", "1. 32-28 (18-23 2. 37-32"),
        ("deep-variation", "1. 32-28 " + "(" * 70 + "18-23" + ")" * 70 + " 18-23"),
        ("bad-gametype", '[GameType "99"]\n1. 32-28 *'),
        ("gametype-board", '[GameType "20,W,8,8,A0,0"]\n1. 32-28 *'),
        ("variant-mismatch", '[GameType "21"]\n[Variant "international"]\n*'),
        ("unknown-variant", '[Variant "chess"]\n1. e4 *'),
        ("bad-fen", '[SetUp "1"]\n[FEN "W:W51"]\n*'),
        ("fen-game", '[FEN "W:WK46:BK5"]\n1. 46-37 5-14 2. 37-26 *'),
        ("long-word", "1. " + "3" * 300 + " *"),
        ("long-tag", '[Event "' + "x" * 1100 + '"]\n*'),
        ("many-tags", "".join(f'[T{i} "v"]\n' for i in range(70)) + "*"),
        ("duplicate-tag", '[Event "a"]\n[Event "b"]\n1. 32-28 *'),
        ("illegal", "1. 32-27 *"),
        ("after-end", '[FEN "W:W31:B"]\n1. 31-26 *'),
        ("nags", "1. 32-28! $1 18-23?? (19-23 (17-22)) 2. 37-32 (!) {c} ; rest\n% esc\n*"),
        ("result-words", "1. 32-28 1/2-1/2\n\n1. 33-28 0-0\n\n1. 34-29 \xc2\xbd-\xc2\xbd"),
        ("closing-paren", "1. 32-28 ) *"),
        ("set-up", "1. 32-28 /W:W31/ *"),
        ("bom", "\xef\xbb\xbf[Event \"bom\"]\n1. 32-28 *"),
        ("escapes", '[Event "a \\" b \\\\ c"]\n*'),
        ("russian-algebraic", '[GameType "25"]\n1. c3-d4 f6-g5 2. d4xf6 g7xe5 *'),
        ("english", '[GameType "21"]\n1. 9-14 22-18 2. 5-9 18x9 *'),
        ("killer-variant", '[GameType "20"]\n[Variant "killer"]\n1. 32-28 19-23 2. 28x19 14x23 0-2'),
        ("canadian", '[GameType "27"]\n1. 43-37 26-31 2. 37x26 *'),
]:
    add("pdn", name, vbyte("international") + text.encode("latin-1"))
add("pdn", "default-russian", vbyte("russian") + b"1. c3-d4 f6-g5 2. d4xf6 g7xe5 *")
add("pdn", "default-constitutional-switch", vbyte("constitutional", 3) + b'[FEN "W:WK35:BK3"]\n1. 35-13 *')

# ------------------------------------------------------------------ dxp
msgs = [b"R01" + b"Kingsrow".ljust(32) + b"W060050A",
        b"R01" + b"condraughts".ljust(32) + b"Z001000B" + b"W" + b"z" * 20 + b"e" * 10 + b"w" * 20,
        b"A" + b"Scan".ljust(32) + b"0", b"A" + b"Scan".ljust(32) + b"2",
        b"M0010322800", b"M0005282200", b"M0012332201" b"28", b"M0000010600", b"M00034623020812",
        b"E00", b"E21", b"E11", b"B005W", b"B001Z", b"K0", b"K2", b"Chello", b"C"]
for v in ["international", "russian", "english", "canadian", "constitutional"]:
    add("dxp", f"stream-{v}", vbyte(v) + b"\x07" + b"\x00".join(msgs) + b"\x00")
for i, m in enumerate(msgs):
    add("dxp", f"msg{i:02d}", vbyte("international") + b"\xff" + m)
add("dxp", "russian-req", vbyte("russian") + b"\x10" + b"R01" + b"x".ljust(32) + b"W000000BW" + b"z" * 12 + b"e" * 8 + b"w" * 12 + b"\x00")
add("dxp", "overlong", vbyte("international") + b"\x00" + b"C" + b"x" * 300 + b"\x00E00\x00")
add("dxp", "bad-bytes", vbyte("international") + b"\x03" + b"M00\xff0322800\x00\x00\x00X\x00")
add("dxp", "bad-move", vbyte("international") + b"\x20" + b"M0010322802\x00M00103228xx\x00M0000000000\x00")

# ------------------------------------------------------------------ hub
hub_sessions = {
    "handshake": "hub\ninit\nping\nquit\n",
    "think": "hub\ninit\nnew-game\nlevel depth=2\ngo think\nping\nquit\n",
    "pos-moves": 'pos start moves="32-28 18-23 37-32"\nlevel nodes=500\ngo think\n',
    "russian": "set-param name=variant value=russian\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel nodes=300\ngo think\n",
    "analyze-stop": "level depth=3\ngo analyze\nstop\nping\n",
    "ponder": "level move-time=0.01\ngo ponder\nponder-hit\nstop\n",
    "clock": "level time=1 inc=0.1 moves=20\ngo think\n",
    "errors": 'frobnicate\n=x\nlevel depth="3\nlevel depth=0\nset-param name=hash value=0\npos pos=Wxyz\npos moves="99-98"\ngo fast\n\xff\xfe\n',
    "variants": "set-param name=variant value=bt\nset-param name=variant value=losing\nset-param name=variant value=canadian\ngo think\n",
    "hash": "set-param name=hash value=1\ninit\nset-param name=threads value=1\n",
    "long-moves": 'pos moves="' + " ".join(["32-28", "18-23"] * 3) + '"\n',
    "nul": "ping\x00pong\nping\n",
}
for name, text in hub_sessions.items():
    add("hub", name, vbyte("international") + text.encode("latin-1"))
add("hub", "english", vbyte("english") + b"pos start\nlevel nodes=100\ngo think\nquit\n")

# ------------------------------------------------------------------ http
# byte 0: variant of the game made first; then requests separated by "\n#\n": the first byte of
# each picks the route (see fuzz_http.c), the rest is the body.
R = {"create": "c", "import": "i", "move": "m", "undo": "u", "engine": "e", "hint": "h",
     "get": "g", "delete": "d", "list": "l", "variants": "v", "pdn": "p", "other": "x"}
reqs = {
    "move": [R["move"] + '{"move":"32-28"}', R["get"], R["pdn"]],
    "move-bad": [R["move"] + '{"move":"99-98"}', R["move"] + '{"move":32}', R["move"] + "{",
                 R["move"] + "[]", R["move"] + "", R["move"] + '{"mov":"32-28"}'],
    "create": [R["create"] + '{"variant":"russian","human":"black","level":2}', R["list"]],
    "create-fen": [R["create"] + '{"variant":"international","fen":"W:WK46:BK5"}'],
    "create-bad": [R["create"] + '{"variant":"chess"}', R["create"] + '{"level":11}',
                   R["create"] + '{"level":2.5}', R["create"] + '{"human":"cat"}',
                   R["create"] + '{"fen":"W:W51"}', R["create"] + '{"variant":null}'],
    "import": [R["import"] + '{"pdn":"[GameType \\"25\\"]\\n1. c3-d4 f6-g5 *"}', R["get"]],
    "import-bad": [R["import"] + '{"pdn":"1. 32-27 *"}', R["import"] + "{}", R["import"] + '{"pdn":7}'],
    "undo": [R["move"] + '{"move":"32-28"}', R["undo"] + '{"plies":1}', R["undo"] + '{"plies":-1}',
             R["undo"] + '{"plies":100000}', R["undo"]],
    "engine": [R["engine"] + '{"depth":1}', R["hint"] + '{"movetime":0.01}', R["engine"] + '{"depth":"x"}',
               R["engine"] + '{"movetime":1e308}'],
    "delete": [R["delete"], R["get"], R["move"] + '{"move":"32-28"}'],
    "misc": [R["variants"], R["other"], R["list"]],
    "unicode": [R["move"] + '{"move":"\\u0000\\ud800"}', R["create"] + '{"variant":"\\u00e9"}'],
    "nesting": [R["move"] + "[" * 2000],
}
for name, rs in reqs.items():
    for v in ["international", "russian"]:
        add("http", f"{name}-{v}", vbyte(v) + "\n#\n".join(rs).encode("utf-8"))


for target, fs in files.items():
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for name, data in fs.items():
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(data)
    print(f"{target}: {len(fs)} seeds")
