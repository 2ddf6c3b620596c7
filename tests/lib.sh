# tests/lib.sh -- what the shell test runners share, sourced after their own option parsing:
#     . "$(dirname "$0")/lib.sh"
# Counting: ok / bad MESSAGE (prints "FAIL MESSAGE"), skip MESSAGE (prints "skip MESSAGE", a
# case not run), check_eq DESCRIPTION WANT GOT (equal strings), check_that DESCRIPTION
# COMMAND... (the command succeeds), and summary NAME for the last line "NAME: P passed, F
# failed" (", S skipped" when some were) and the exit status (0: nothing failed).
# Errors: expect_fail STATUS PATTERN COMMAND... (the command, its stdin empty, exits with
# STATUS and writes one line on stderr, matching the grep pattern PATTERN).
# Paths: abs_path PATH prints PATH made absolute (for runners that change directory).
# Servers: serve_wait NAME OUT ERR waits for a `condraughts serve --port 0` to say its port.
# Requests as a browser (curl; node for j): jar_req WHO METHOD URL [BODY [CURL OPTION...]] and
# j EXPR, below.

T_PASS=0
T_FAIL=0
T_SKIP=0

ok() { T_PASS=$((T_PASS + 1)); }

bad() {
    T_FAIL=$((T_FAIL + 1))
    echo "FAIL $*"
}

skip() {
    T_SKIP=$((T_SKIP + 1))
    echo "skip $*"
}

check_eq() { # DESCRIPTION WANT GOT
    if [ "$2" = "$3" ]; then
        ok
    else
        T_FAIL=$((T_FAIL + 1))
        printf 'FAIL %s\n  want: %s\n  got:  %s\n' "$1" "$2" "$3"
    fi
}

check_that() { # DESCRIPTION COMMAND...
    t_what=$1
    shift
    if "$@"; then ok; else bad "$t_what"; fi
}

expect_fail() { # STATUS PATTERN COMMAND...
    t_want=$1 t_pat=$2
    shift 2
    t_err=$("$@" 2>&1 >/dev/null </dev/null)
    t_st=$?
    if [ "$t_st" -eq "$t_want" ] && [ "$(printf '%s\n' "$t_err" | wc -l)" -eq 1 ] &&
        printf '%s' "$t_err" | grep -q -- "$t_pat"; then
        ok
    else
        bad "$*: status $t_st, stderr '$t_err'"
    fi
}

summary() { # NAME
    if [ "$T_SKIP" -gt 0 ]; then
        echo "$1: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
    else
        echo "$1: $T_PASS passed, $T_FAIL failed"
    fi
    [ "$T_FAIL" -eq 0 ]
}

# serve_wait NAME OUT ERR: after `condraughts serve --port 0 ... >OUT 2>>ERR &`, wait up to 10 s
# for its "serving" line; sets PORT and URL, or says NAME's server did not start (with ERR) and
# exits 1.
serve_wait() {
    t_i=0
    PORT=
    while [ $t_i -lt 100 ]; do
        PORT=$(sed -n 's|^condraughts: serving http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$2")
        [ -n "$PORT" ] && break
        sleep 0.1
        t_i=$((t_i + 1))
    done
    if [ -z "$PORT" ]; then
        echo "$1: the server did not start"
        cat "$3"
        exit 1
    fi
    URL=http://127.0.0.1:$PORT
}

abs_path() {
    case $1 in
    /*) echo "$1" ;;
    *) echo "$(pwd)/$1" ;;
    esac
}

# jar_req WHO METHOD URL [BODY [CURL OPTION...]]: WHO a cookie jar in $TMP (a, b, ...: the
# cookies it was sent are kept there) or - (none), BODY "" for none; sets CODE (the HTTP status,
# 000 when there was no answer) and BODY. Certificates are not checked (a test's own nginx has a
# throwaway one).
jar_req() {
    t_who=$1 t_m=$2 t_u=$3
    shift 3
    if [ $# -gt 0 ]; then
        printf '%s' "$1" >"$TMP/req"
        [ -n "$1" ] && set -- "$@" --data-binary "@$TMP/req"
        shift
    fi
    if [ "$t_who" != - ]; then set -- -b "$TMP/$t_who.jar" -c "$TMP/$t_who.jar" "$@"; fi
    CODE=$(curl -sk -o "$TMP/body" -w '%{http_code}' -X "$t_m" "$@" "$t_u")
    BODY=$(cat "$TMP/body")
}

# j EXPR: a value of BODY's JSON (a JavaScript expression over d, {} when BODY is not JSON), e.g.
# j d.white.name: a string as it is, anything else as JSON, nothing for undefined.
j() { printf '%s' "$BODY" | node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{let d;try{d=JSON.parse(s)}catch(e){d={}};const v=eval(process.argv[1]);process.stdout.write(typeof v==="string"?v:v===undefined?"":JSON.stringify(v))})' "$1"; }
