#!/usr/bin/env bash
# tests/hub.sh - scripted Hub protocol sessions (tests/hub/*.txt) against `condraughts hub`.
#
# usage: tests/hub.sh [--bin PATH] [--timeout SECONDS] [FILE...]
#        (no FILE: every tests/hub/*.txt next to this script)
#
# A script is a list of directives, one per line (blank lines and "# ..." are ignored):
#     args --variant russian    extra arguments for "$BIN hub" (at most one line, anywhere);
#                               {EGTB} there is a folder of International tables up to 3
#                               pieces, built once by the runner
#     define NAME TEXT          later "{NAME}" in >, <, <?, <*, define lines becomes TEXT
#     > TEXT                    send TEXT (one line) to the engine
#     < REGEX                   the next line from the engine must match REGEX (bash ERE,
#                               anchored at both ends)
#     <? REGEX                  the next line may match REGEX (consumed if it does)
#     <* REGEX                  any number of lines matching REGEX (reads until one does not,
#                               so follow it with a "<" line)
#     sleep SECONDS             pause (e.g. to let a search run before "> stop")
#     close                     close the engine's input (end of input) and go on reading
#                               its output (e.g. "<* info.*" until it exits)
#     eof                       close the engine's input now and stop reading the script
# At the end of a script (or at "eof") the runner closes the engine's input if still open; the
# engine must then print nothing more and exit with status 0 within the timeout.
# Each "<" waits at most --timeout seconds (default 10); each engine runs under `timeout`.
# Output: "ok NAME" / "FAIL NAME: why" per script, then "hub: P passed, F failed".
# Exit 0 = all passed, 1 = a failure, 2 = usage error. Needs bash (read -t, {fd} redirections).

[ -n "$BASH_VERSION" ] || exec bash "$0" "$@" # also when started as `sh tests/hub.sh`

BIN=./build/condraughts
WAIT=10
FILES=()

usage() {
    echo "usage: $0 [--bin PATH] [--timeout SECONDS] [FILE...]" >&2
    [ -n "$1" ] && echo "$0: $1" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
    --bin) [ $# -ge 2 ] || usage "--bin needs a path"; BIN=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || usage "--timeout needs seconds"; WAIT=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) usage "unknown option $1" ;;
    *) FILES+=("$1"); shift ;;
    esac
done
if [ ${#FILES[@]} -eq 0 ]; then
    for f in "$(dirname "$0")"/hub/*.txt; do FILES+=("$f"); done
fi
[ -x "$BIN" ] || usage "no executable $BIN"
. "$(dirname "$0")/lib.sh"

trap '' PIPE # a write to an engine that died fails instead of killing the runner
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
LIMIT=$((WAIT * 6 + 30)) # hard bound on one engine run, seconds
# endgame tables for scripts whose args name {EGTB} (half a second to build)
"$BIN" egtb build --variant international --pieces 3 --dir "$TMP/egtb" >/dev/null 2>&1 ||
    { echo "$0: cannot build the endgame tables" >&2; exit 2; }

# Run one script; prints nothing, sets WHY on failure and returns 1.
run_script() {
    local file=$1 args="" sline n=0 line re have_pending=0 pending="" rc extra=""
    WHY=""
    args=$(sed -n 's/^args[[:space:]]\{1,\}//p' "$file" | head -n 1)
    args=${args//"{EGTB}"/"$TMP/egtb"}
    rm -f "$TMP/in" "$TMP/out"
    mkfifo "$TMP/in" "$TMP/out" || { WHY="mkfifo failed"; return 1; }
    # shellcheck disable=SC2086
    timeout "$LIMIT" "$BIN" hub $args <"$TMP/in" >"$TMP/out" 2>"$TMP/err" &
    local pid=$!
    local wfd rfd
    exec {wfd}>"$TMP/in" {rfd}<"$TMP/out"

    # next_line: the next engine line into $line (1 = nothing within $WAIT seconds / EOF)
    next_line() {
        if [ $have_pending = 1 ]; then
            line=$pending
            have_pending=0
            return 0
        fi
        IFS= read -r -t "$WAIT" -u "$rfd" line
    }
    matches() { [[ $1 =~ ^($2)$ ]]; }

    local ok=1 closed=0 dname
    local -A defs=()
    while IFS= read -r sline || [ -n "$sline" ]; do
        n=$((n + 1))
        case "$sline" in
        '<'* | '>'* | 'define '*)
            for dname in "${!defs[@]}"; do
                sline=${sline//"{$dname}"/"${defs[$dname]}"}
            done
            ;;
        esac
        case "$sline" in
        '' | '#'* | args | 'args '*) ;;
        'define '*)
            dname=${sline#define }
            dname=${dname%% *}
            defs[$dname]=${sline#define "$dname" }
            ;;
        '> '* | '>')
            line=${sline#>}
            if ! printf '%s\n' "${line# }" >&"$wfd" 2>/dev/null; then
                WHY="line $n: cannot send (engine gone?)"
                ok=0
                break
            fi
            ;;
        '<? '*)
            re=${sline#<? }
            if next_line && ! matches "$line" "$re"; then
                pending=$line
                have_pending=1
            fi
            ;;
        '<* '*)
            re=${sline#<\* }
            while next_line; do
                if ! matches "$line" "$re"; then
                    pending=$line
                    have_pending=1
                    break
                fi
            done
            ;;
        '< '*)
            re=${sline#< }
            if ! next_line; then
                WHY="line $n: expected /$re/, got nothing within ${WAIT}s"
                ok=0
                break
            fi
            if ! matches "$line" "$re"; then
                WHY="line $n: expected /$re/, got '$line'"
                ok=0
                break
            fi
            ;;
        'sleep '*) sleep "${sline#sleep }" ;;
        close)
            [ $closed = 1 ] || exec {wfd}>&-
            closed=1
            ;;
        eof) break ;;
        *)
            WHY="line $n: bad directive '$sline'"
            ok=0
            break
            ;;
        esac
    done <"$file"

    [ $closed = 1 ] || exec {wfd}>&-
    if [ $ok = 1 ]; then
        [ $have_pending = 1 ] && extra="$pending"
        while IFS= read -r -t "$WAIT" -u "$rfd" line; do
            extra="$extra${extra:+ | }$line"
        done
        [ -n "$line" ] && extra="$extra${extra:+ | }$line"
        if [ -n "$extra" ]; then
            WHY="unexpected output: $extra"
            ok=0
        fi
    else
        kill "$pid" 2>/dev/null
    fi
    exec {rfd}<&-
    wait "$pid"
    rc=$?
    if [ $ok = 1 ] && [ $rc -ne 0 ]; then
        WHY="engine exit status $rc"
        ok=0
    fi
    if [ $ok = 0 ] && [ -s "$TMP/err" ]; then
        WHY="$WHY; stderr: $(head -c 2000 "$TMP/err" | tr '\n' ' ')"
    fi
    [ $ok = 1 ]
}

for f in "${FILES[@]}"; do
    name=$(basename "$f" .txt)
    if [ ! -r "$f" ]; then
        bad "$name: cannot read $f"
    elif run_script "$f"; then
        echo "ok $name"
        ok
    else
        bad "$name: $WHY"
    fi
done
summary hub
