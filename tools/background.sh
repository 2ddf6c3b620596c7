# shellcheck shell=sh
# background.sh -- sourced by tools/selfplay.sh and tools/label.sh, the background work that fills
# the idle cores (docs/training.md, "The corpus"): it runs the calling script again in a session of
# its own and nices that session's scheduling group to 19. Where the kernel groups tasks by session
# (autogroup) a process's nice ranks it only within its session, so a niced run started from a
# shell of its own would take as much of the machine as all the other work together.
if [ -z "${CD_SELFPLAY_SESSION:-}" ] && command -v setsid > /dev/null; then
    CD_SELFPLAY_SESSION=1 exec setsid -w sh "$0" "$@"
fi
if [ -w /proc/self/autogroup ]; then
    echo 19 > /proc/self/autogroup 2> /dev/null || true
fi

# corpus_family VARIANT: the name of the variant's learned family, the corpus folder's name
corpus_family() {
    case $1 in
    russian-constitutional) echo russian-const ;;
    brazilian-constitutional) echo brazilian-const ;;
    *) echo "$1" ;;
    esac
}
