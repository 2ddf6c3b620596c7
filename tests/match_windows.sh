#!/bin/sh
# condraughts.exe's match under wine (make windows-test): external engines run by cmd.exe in a
# job object (src/compat/win/proc.c) over pipes. Two International games against the program's
# own Hub engine, two Russian games between two Hub engines, one started through `cd .. && cd
# DIR && ...` (cmd's chaining, as `cd DIR && ./scan hub` is used on Linux); every move checked
# by the referee; an engine command that does not exist is refused with a message naming it.
# Usage: tests/match_windows.sh --bin WRAPPER   (the wine wrapper in the folder of condraughts.exe)
bin=$2
. "$(dirname "$0")/lib.sh"
dir=$(dirname "$bin")
cd "$dir" || exit 2
wrapper=./$(basename "$bin")

out=$($wrapper match --games 2 --depth 3 --engine2 "condraughts.exe hub" 2>&1)
case $out in *"engine2: condraughts (hub2)"*) ok ;; *) bad "engine2's name: $out" ;; esac
case $out in *"match international: condraughts 0.1.0 vs condraughts: 2 games,"*) ok ;;
*) bad "international match: $out" ;; esac
case $out in *"time forfeit 0, hung 0, illegal 0"*) ok ;; *) bad "international endings: $out" ;; esac

out=$($wrapper match --variant russian --games 2 --depth 2 \
    --engine1 "cd .. && cd $(basename "$PWD") && condraughts.exe hub" \
    --engine2 "condraughts.exe hub" 2>&1)
case $out in *"match russian: condraughts vs condraughts: 2 games,"*) ok ;;
*) bad "russian match between two Hub engines: $out" ;; esac
case $out in *"time forfeit 0, hung 0, illegal 0"*) ok ;; *) bad "russian endings: $out" ;; esac

out=$($wrapper match --games 2 --depth 2 --engine2 "no_such_engine.exe hub" 2>&1)
status=$?
[ "$status" -ne 0 ] && ok || bad "a missing engine: status $status"
case $out in *"engine2: engine 'no_such_engine.exe hub' closed its output before 'wait'"*) ok ;;
*) bad "a missing engine's message: $out" ;; esac
summary match-windows
