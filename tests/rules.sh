#!/bin/sh
# tests/rules.sh - check exact legal-move sets (tests/rules/*.moves) against the condraughts binary.
#
# usage: tests/rules.sh [--bin PATH] FILE...
#
# A FILE holds blocks separated by blank lines:
#     # comment (source, reasoning)
#     variant constitutional
#     fen W:WK23:BK3,K35,K50
#     switch origin-occupied        (optional, may repeat: passed as --switch NAME)
#     flags keep                    (optional: passed as --keep)
#     after 32-28 19-23 ...         (optional: moves played from the FEN first, passed as
#                                    --after 32-28,19-23: state a FEN cannot hold, such as
#                                    the Frisian king-move count)
#     moves 23-1 23-5 ...           (the EXACT set of legal moves, Hub form, any order;
#     moves ...                      may span several lines; a bare "moves" = no legal move)
# Hub form: from-to for a quiet move; fromxtoxc1xc2... for a capture (captured squares ascending).
# For each block the runner calls
#     $BIN moves --variant V [--switch S]... [--keep] [--after M1,M2,...] --fen FEN
# which must print every legal move, one per line, and compares the two sets exactly
# (missing and extra moves are printed on failure; a move printed twice fails unless keep).
# Output: "ok ..." / "FAIL ..." per block, then "rules: P passed, F failed".
# Exit 0 = all passed, 1 = a failure (or a malformed block), 2 = usage error.  POSIX sh + awk.

BIN=./build/condraughts

usage() {
    echo "usage: $0 [--bin PATH] FILE..." >&2
    [ -n "$1" ] && echo "$0: $1" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --bin) [ $# -ge 2 ] || usage "--bin needs a value"; BIN=$2; shift 2 ;;
        --bin=*) BIN=${1#*=}; shift ;;
        -h|--help) usage ;;
        --) shift; break ;;
        -*) usage "unknown option: $1" ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage "no FILE given"
[ -x "$BIN" ] || usage "binary not found or not executable: $BIN"
. "$(dirname "$0")/lib.sh"
for f in "$@"; do
    if [ ! -f "$f" ] || [ ! -r "$f" ]; then usage "cannot read $f"; fi
done

TAB=$(printf '\t')
tmp=${TMPDIR:-/tmp}/rules_sh.$$
trap 'rm -f "$tmp.blocks" "$tmp.out" "$tmp.err"' EXIT
trap 'exit 130' INT TERM

for f in "$@"; do
    # one output row per block:
    #   lineno TAB variant TAB fen TAB options TAB expected-moves TAB error
    # fields that would be empty hold "-" (IFS=TAB collapses empty fields)
    awk '
        function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
        function reset() { start = 0; body = 0; variant = ""; fen = ""; opts = ""; mv = ""; hasmoves = 0; err = "" }
        function flush() {
            if (!body) { reset(); return }      # comment-only block (file header)
            if (variant == "") err = err "no variant line; "
            if (fen == "") err = err "no fen line; "
            if (!hasmoves) err = err "no moves line; "
            printf "%d\t%s\t%s\t%s\t%s\t%s\n", start, (variant == "" ? "-" : variant), \
                (fen == "" ? "-" : fen), (opts == "" ? "-" : substr(opts, 2)), \
                (mv == "" ? "-" : substr(mv, 2)), (err == "" ? "-" : err)
            reset()
        }
        BEGIN { reset() }
        {
            line = trim($0)
            if (line == "") { flush(); next }
            if (substr(line, 1, 1) == "#") { if (!start) start = NR; next }
            if (!start) start = NR
            body = 1
            sub(/[ \t]+#.*$/, "", line)          # trailing comment
            n = split(line, w, /[ \t]+/)
            key = w[1]
            if (key == "variant" && n == 2) variant = w[2]
            else if (key == "fen" && n == 2) fen = w[2]
            else if (key == "switch" && n >= 2) { for (i = 2; i <= n; i++) opts = opts " --switch " w[i] }
            else if (key == "flags") {
                for (i = 2; i <= n; i++) {
                    if (w[i] == "keep") opts = opts " --keep"
                    else err = err "unknown flag " w[i] "; "
                }
            }
            else if (key == "after" && n >= 2) {
                a = w[2]; for (i = 3; i <= n; i++) a = a "," w[i]
                opts = opts " --after " a
            }
            else if (key == "moves") { hasmoves = 1; for (i = 2; i <= n; i++) mv = mv " " w[i] }
            else err = err "bad line " NR ": " line "; "
        }
        END { flush() }' "$f" > "$tmp.blocks"

    while IFS="$TAB" read -r lineno variant fen opts want err; do
        [ "$opts" = "-" ] && opts=
        [ "$want" = "-" ] && want=
        fen30=$(printf '%s' "$fen" | awk '{ print substr($0, 1, 30) }')
        label="$f:$lineno $variant${opts:+ [$opts]} $fen30"
        if [ "$err" != "-" ]; then
            bad "$label: malformed block: $err"; continue
        fi
        # $opts is split on purpose: it holds only --switch NAME / --keep / --after M1,M2 words
        # shellcheck disable=SC2086
        "$BIN" moves --variant "$variant" $opts --fen "$fen" \
            > "$tmp.out" 2> "$tmp.err" < /dev/null
        rc=$?
        case " $opts " in *" --keep "*) keep=1 ;; *) keep=0 ;; esac
        msg=$(awk -v want="$want" -v keep="$keep" '
            BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) xp[w[i]] = 1 }
            {
                m = $0; sub(/^[ \t\r]+/, "", m); sub(/[ \t\r]+$/, "", m)
                if (m == "") next
                if ((m in got) && !keep) dup = dup " " m
                got[m] = 1
            }
            END {
                for (m in xp) if (!(m in got)) miss = miss " " m
                for (m in got) if (!(m in xp)) extra = extra " " m
                s = ""
                if (miss != "") s = s "; missing:" miss
                if (extra != "") s = s "; extra:" extra
                if (dup != "") s = s "; printed twice:" dup
                print substr(s, 3)
            }' "$tmp.out")
        if [ "$rc" -ne 0 ]; then
            e=$(head -n 1 "$tmp.err")
            msg="exit status $rc${e:+ ($e)}${msg:+; $msg}"
        fi
        if [ -z "$msg" ]; then
            echo "ok $label"
            ok
        else
            bad "$label: $msg"
        fi
    done < "$tmp.blocks"
done

summary rules || exit 1
