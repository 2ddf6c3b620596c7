#!/bin/sh
# Draw rate against playing strength: reads the reports of several `condraughts study` runs that
# differ only in --nodes, prints one Markdown table (variant, nodes a move, games, draw rate,
# 95% Wilson interval) and draws OUT/draw_rate_strength.svg with gnuplot (nodes on a log scale,
# one line per variant, the intervals as error bars). A later report's row for the same variant
# and nodes replaces an earlier one (a variant played again with a new engine). An argument that
# is a .dat file this script wrote brings in its rows (studies whose folders are gone), in order.
# Usage: tools/strength_plot.sh OUT STUDY_DIR|FILE.dat...   (each STUDY_DIR holds a report.md)
set -eu
[ $# -ge 2 ] || {
    echo "usage: tools/strength_plot.sh OUT STUDY_DIR|FILE.dat..." >&2
    exit 2
}
out=$1
shift
mkdir -p "$out"
dat="$out/draw_rate_strength.dat"
: > "$dat.tmp"
for dir in "$@"; do
    case "$dir" in
    *.dat)
        [ -f "$dir" ] || {
            echo "tools/strength_plot.sh: $dir: no such file" >&2
            exit 1
        }
        awk '/^[a-z]/ && NF == 7' "$dir" >> "$dat.tmp"
        continue
        ;;
    esac
    rep="$dir/report.md"
    [ -f "$rep" ] || {
        echo "tools/strength_plot.sh: $rep: no such report" >&2
        exit 1
    }
    # "- Each move: a search of 20000 nodes (...)"
    nodes=$(sed -n 's/^- Each move: a search of \([0-9]*\) nodes.*/\1/p' "$rep" | head -n 1)
    [ -n "$nodes" ] || {
        echo "tools/strength_plot.sh: $rep: not a node-limited study" >&2
        exit 1
    }
    # the first Results table: | variant | games | White wins | Black wins | draws | rate | lo% to hi% |
    awk -v nodes="$nodes" -F'|' '
        /^#+ Results/ { on = 1; next }
        on && /^#/ { exit }
        on && /^\| [a-z]/ && $2 !~ /variant/ {
            gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $6)
            split($8, iv, " to "); gsub(/[ %]/, "", iv[1]); gsub(/[ %]/, "", iv[2])
            printf "%s %s %s %s %.4f %.4f %.4f\n", $2, nodes, $3, $6, $6 / $3 * 100, iv[1], iv[2]
        }' "$rep" >> "$dat.tmp"
done
awk '{ k = $1 " " $2; if (!(k in row)) keys[++n] = k; row[k] = $0 }
     END { for (i = 1; i <= n; i++) print row[keys[i]] }' "$dat.tmp" > "$dat.last"
mv "$dat.last" "$dat.tmp"
{
    echo "# variant nodes games draws draw_rate_% lo_% hi_% (95% Wilson), a block per variant"
    for v in $(awk '{ print $1 }' "$dat.tmp" | awk '!seen[$0]++'); do
        awk -v v="$v" '$1 == v' "$dat.tmp" | sort -k2,2n
        printf '\n\n'
    done
} > "$dat"
rm -f "$dat.tmp"

echo "| variant | nodes a move | games | draws | draw rate | 95% interval |"
echo "|---|---:|---:|---:|---:|---|"
awk '/^[a-z]/ { printf "| %s | %s | %s | %s | %.1f%% | %.1f%% to %.1f%% |\n", $1, $2, $3, $4, $5, $6, $7 }' "$dat"

if command -v gnuplot > /dev/null 2>&1; then
    names=$(awk '/^[a-z]/ { print $1 }' "$dat" | awk '!seen[$0]++' | tr '\n' ' ')
    n=$(echo $names | wc -w)
    lo=$(awk '/^[a-z]/ { print $2 / 2 }' "$dat" | sort -n | head -n 1)
    hi=$(awk '/^[a-z]/ { print $2 * 2 }' "$dat" | sort -n | tail -n 1)
    (cd "$out" && gnuplot -e "
        set terminal svg size 720,440 dynamic font 'sans,12';
        set output 'draw_rate_strength.svg';
        set logscale x; set xrange [$lo:$hi]; set xlabel 'nodes a move (log scale)'; set ylabel 'draw rate (%)';
        set yrange [0:100]; set key outside right; set grid;
        plot for [i=0:$((n - 1))] 'draw_rate_strength.dat' index i using 2:5:6:7 \
            with yerrorlines title word('$names', i + 1) lw 2" 2> /dev/null) ||
        echo "tools/strength_plot.sh: gnuplot failed" >&2
fi
