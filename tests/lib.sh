# tests/lib.sh -- what the shell test runners share, sourced after their own option parsing:
#     . "$(dirname "$0")/lib.sh"
# Counting: ok / bad MESSAGE (prints "FAIL MESSAGE"), check_eq DESCRIPTION WANT GOT (equal
# strings), check_that DESCRIPTION COMMAND... (the command succeeds), and summary NAME for the
# last line "NAME: P passed, F failed" and the exit status (0: nothing failed).
# Paths: abs_path PATH prints PATH made absolute (for runners that change directory).

T_PASS=0
T_FAIL=0

ok() { T_PASS=$((T_PASS + 1)); }

bad() {
    T_FAIL=$((T_FAIL + 1))
    echo "FAIL $*"
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

summary() { # NAME
    echo "$1: $T_PASS passed, $T_FAIL failed"
    [ "$T_FAIL" -eq 0 ]
}

abs_path() {
    case $1 in
    /*) echo "$1" ;;
    *) echo "$(pwd)/$1" ;;
    esac
}
