#!/bin/sh
# tests/book.sh -- the opening book from the command line (`condraughts book`, docs/book.md): a
# small English book built from three ACF ballots at 3000 nodes a search, two plies beyond each,
# - built twice: the same bytes;
# - every position of the ballots' way and up to two plies beyond that it holds has the move,
#   score and depth of a search of 3000 nodes computed by test_book (the library's search, not
#   the command's);
# - book probe: the book's moves, and "not in the book" (exit status 1) for a position it lacks;
# - a missing, truncated, damaged or foreign file is refused with a line naming the file and
#   the fault (book probe, match's self:book=, hub --book);
# - hub: `go think` in a book position answers the book's move at once (no info line, although
#   the level would allow a search of 10^12 nodes); with --book none it searches;
# - play: the engine's first move is the book's;
# - match: self:book=FILE against self:book=none, every move legal.
#
# usage: tests/book.sh [--bin PATH] [--test PATH]  (PATH of test_book)

bin=./build/condraughts
tb=./build/test_book
while [ $# -gt 0 ]; do
    case $1 in
    --bin) bin=$2; shift 2 ;;
    --test) tb=$2; shift 2 ;;
    *) echo "usage: $0 [--bin PATH] [--test PATH]" >&2; exit 2 ;;
    esac
done
here=$(dirname "$0")
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

has() { # TEXT PATTERN NAME
    if printf '%s\n' "$1" | grep -q -- "$2"; then ok; else bad "$3: no '$2' in: $1"; fi
}

grep -E '# ACF (1|5|101)$' "$here/../openings/english-3move.txt" >"$tmp/open.txt"
check_eq "three ballots" 3 "$(wc -l <"$tmp/open.txt")"
build() {
    "$bin" book build --variant english --openings "$tmp/open.txt" --plies 2 --nodes 3000 \
        --hash 4 --out "$1" 2>/dev/null
}
out=$(build "$tmp/a.cdb")
has "$out" "book english: 3 openings, 2 plies beyond, 3000 nodes a search: " build
build "$tmp/b.cdb" >/dev/null
check_that "the same command writes the same bytes" cmp -s "$tmp/a.cdb" "$tmp/b.cdb"

check_that "book moves are the search's (test_book)" "$tb" "$tmp/a.cdb" 3000 4 <"$tmp/open.txt"

# probe: the start (on every ballot's way) and a position not in the book
out=$("$bin" book probe --variant english --book "$tmp/a.cdb")
check_eq "probe start: exit 0" 0 $?
has "$out" "^[0-9]*-[0-9]* score [-+][0-9.]* depth [0-9]* rank 0$" probe-start
start_move=$(printf '%s\n' "$out" | head -1 | cut -d' ' -f1)
out=$("$bin" book probe --variant english --book "$tmp/a.cdb" --fen "B:W17,22-32:B1-12")
check_eq "probe elsewhere: exit 1" 1 $?
check_eq "probe elsewhere" "not in the book" "$out"

# bad files
head -c 100 "$tmp/a.cdb" >"$tmp/trunc.cdb"
cp "$tmp/a.cdb" "$tmp/flip.cdb"
printf 'Z' | dd of="$tmp/flip.cdb" bs=1 seek=60 conv=notrunc 2>/dev/null
printf 'not a book at all, really not' >"$tmp/text.cdb"
expect_fail 2 "book file $tmp/trunc.cdb: truncated: 100 bytes, its header says" \
    "$bin" book probe --variant english --book "$tmp/trunc.cdb"
expect_fail 2 "book file $tmp/flip.cdb: checksum does not match" \
    "$bin" book probe --variant english --book "$tmp/flip.cdb"
expect_fail 2 "book file $tmp/text.cdb: not an opening book" \
    "$bin" book probe --variant english --book "$tmp/text.cdb"
expect_fail 2 "book file $tmp/none.cdb cannot be read: No such file" \
    "$bin" book probe --variant english --book "$tmp/none.cdb"
expect_fail 2 "engine1: book file $tmp/trunc.cdb: truncated" \
    "$bin" match --variant english --depth 1 --games 1 --engine1 "self:book=$tmp/trunc.cdb"
expect_fail 2 "engine1: book $tmp/a.cdb is for english, not russian" \
    "$bin" match --variant russian --depth 1 --games 1 --engine1 "self:book=$tmp/a.cdb"
expect_fail 2 "book file $tmp/flip.cdb: checksum" "$bin" hub --book "$tmp/flip.cdb"
expect_fail 2 "book build: --openings" "$bin" book build --variant english --out "$tmp/x.cdb"

# hub: the book's move at once; a position out of the book is searched
startpos=B$(printf 'b%.0s' $(seq 12))eeeeeeee$(printf 'w%.0s' $(seq 12))
out=$(printf 'hub\ninit\nset-param name=variant value=english\npos pos=%s\nlevel nodes=1000000000000\ngo think\nquit\n' \
    "$startpos" | timeout 20 "$bin" hub --book "$tmp/a.cdb" | sed -n '/^ready$/,$p')
check_eq "hub plays the book move at once" "ready
done move=$start_move" "$out"
out=$( (printf 'hub\ninit\nset-param name=variant value=english\npos pos=%s\nlevel nodes=2000\ngo think\n' \
    "$startpos"; sleep 2; echo quit) | timeout 20 "$bin" hub --book none | sed -n '/^ready$/,$p')
has "$out" "^info depth=" hub-no-book-searches

# play: the engine (White moves second in English) answers from the book
out=$(printf 'quit\n' | "$bin" play --variant english --side white --book "$tmp/a.cdb")
has "$out" "^engine plays $start_move  (book, score [-+][0-9.]* men)$" play-book

# match: a book player against one without
out=$("$bin" match --variant english --nodes 500 --openings "$tmp/open.txt" --games 2 \
    --engine1 "self:book=$tmp/a.cdb" --engine2 self:book=none 2>&1)
has "$out" "book=$tmp/a.cdb vs condraughts .* book=none: 2 games, " match
has "$out" "^endings: .* illegal 0$" match-legal

summary book
