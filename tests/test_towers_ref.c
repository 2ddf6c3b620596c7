/*
 * test_towers_ref.c -- the tower-draughts generator (src/towers/) against the independent naive
 * reference tests/ref/towerref.c: random games from both start positions (seeded PRNG), at every
 * position the sorted move lists of both and the position after a random move; perft of both
 * from the start positions and from positions met on the way; then random set-ups (any stacks,
 * kings anywhere).
 *
 * Both play the default rules of docs/towers.md: Bashni with the Russian "Turkish strike" (a
 * tower is jumped at most once a move and jumped squares block until the move ends), Lasca with
 * "once" (a column is jumped at most once). For information the test also counts the Bashni
 * positions where the alternative reading "rejump" (a reduced tower may be jumped again) would
 * give other moves.
 *
 * usage: test_towers_ref [--games N] [--seed S] [--depth D] [--verbose]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "towerref.h"
#include "towers.h"

static uint64_t rng;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define MAXM 200000
static char ours[MAXM][CD_TW_MOVE_TEXT], theirs[MAXM][TREF_MOVE_LEN];

static int verbose;
static long mismatches, compared, default_differs;

/* Compare the move lists of one position; returns the number of moves (-1 on a mismatch). */
static long compare_moves(const char *game, cd_tw_pos *p)
{
    char text[CD_TW_POS_TEXT], err[512];
    cd_tw_format(p, text, sizeof text);
    long n = cd_tw_move_texts(p, ours, MAXM);
    int m = tref_moves(game, text, theirs, MAXM, err, sizeof err);
    compared++;
    int same = m >= 0 && n == m;
    for (long i = 0; same && i < n; i++)
        same = !strcmp(ours[i], theirs[i]);
    if (!same) {
        mismatches++;
        failures++;
        if (mismatches <= 10) {
            fprintf(stderr, "%s %s: ours %ld moves, reference %d%s%s\n", game, text, n, m,
                    m < 0 ? ": " : "", m < 0 ? err : "");
            for (long i = 0, j = 0; (i < n || j < m) && i + j < 40;) {
                int c = i >= n ? 1 : j >= m ? -1 : strcmp(ours[i], theirs[j]);
                if (c < 0)
                    fprintf(stderr, "  only ours: %s\n", ours[i++]);
                else if (c > 0)
                    fprintf(stderr, "  only reference: %s\n", theirs[j++]);
                else
                    i++, j++;
            }
        }
        return -1;
    }
    return n;
}

/* The position after one move, both ways. */
static void compare_play(const char *game, cd_tw_pos *p, const cd_tw_move *mv)
{
    char text[CD_TW_POS_TEXT], move[CD_TW_MOVE_TEXT], a[CD_TW_POS_TEXT], b[1024], err[512];
    cd_tw_format(p, text, sizeof text);
    cd_tw_move_text((cd_tw_game)p->game, mv, move, sizeof move);
    cd_tw_pos q = *p;
    cd_tw_make(&q, mv);
    cd_tw_format(&q, a, sizeof a);
    checks++;
    if (tref_play(game, text, move, b, sizeof b, err, sizeof err) || strcmp(a, b)) {
        failures++;
        mismatches++;
        if (mismatches <= 10)
            fprintf(stderr, "%s %s after %s: ours %s, reference %s\n", game, text, move, a,
                    err[0] ? err : b);
    }
}

static void compare_perft(const char *game, cd_tw_pos *p, int depth)
{
    char text[CD_TW_POS_TEXT], err[512];
    cd_tw_format(p, text, sizeof text);
    for (int d = 1; d <= depth; d++) {
        uint64_t a = cd_tw_perft(p, d);
        long long b = tref_perft(game, text, d, err, sizeof err);
        checks++;
        if (b < 0 || (uint64_t)b != a) {
            failures++;
            fprintf(stderr, "perft %s %s depth %d: ours %llu, reference %lld %s\n", game, text, d,
                    (unsigned long long)a, b, b < 0 ? err : "");
            return;
        }
        if (verbose)
            printf("perft %s %s depth %d: %llu\n", game, text, d, (unsigned long long)a);
    }
}

/* Random set-ups (any stacks, kings anywhere, up to a set of each colour): move lists and the
 * position after a random move. */
static void random_positions(long count)
{
    long n = 0;
    for (long it = 0; it < count; it++) {
        cd_tw_game g = (cd_tw_game)(it & 1);
        int set = cd_tw_set_size(g), cnt[2] = {0, 0};
        cd_tw_pos p;
        cd_tw_clear(&p, g);
        p.side = (uint8_t)(next_rand() & 1);
        int towers = 2 + (int)(next_rand() % 10);
        for (int i = 0; i < towers; i++) {
            int sq = (int)(next_rand() % (uint64_t)cd_tw_squares(g)), h = 0;
            char st[8];
            for (int k = 1 + (int)(next_rand() % 5); k > 0; k--) {
                int c = (int)(next_rand() & 1);
                if (cnt[c] < set && !p.height[sq]) {
                    cnt[c]++;
                    st[h++] = "wbWB"[c + 2 * (next_rand() % 3 == 0)];
                }
            }
            st[h] = '\0';
            if (h)
                cd_tw_set_stack(&p, sq, st);
        }
        if (compare_moves(cd_tw_game_name(g), &p) <= 0)
            continue;
        cd_tw_move *moves;
        long all;
        if (cd_tw_generate_all(&p, &moves, &all) == CD_OK && all > 0)
            compare_play(cd_tw_game_name(g), &p, &moves[next_rand() % (uint64_t)all]);
        free(moves);
        n++;
    }
    printf("random set-ups: %ld compared (%ld with moves)\n", count, n);
}

int main(int argc, char **argv)
{
    int games = 200, depth = 7;
    uint64_t seed = 20250101;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
            depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else {
            fprintf(stderr, "usage: %s [--games N] [--seed S] [--depth D] [--verbose]\n", argv[0]);
            return 2;
        }
    }
    rng = seed * 2654435761u + 1;
    for (int g = 0; g < CD_TW_GAME_COUNT; g++) {
        const char *game = cd_tw_game_name((cd_tw_game)g);
        unsigned rules = cd_tw_default_rules((cd_tw_game)g);
        long positions = 0, longest = 0;
        cd_tw_pos probes[8];
        int nprobes = 0;
        for (int k = 0; k < games; k++) {
            cd_tw_pos p;
            cd_tw_start(&p, (cd_tw_game)g);
            p.rules = (uint8_t)rules;
            for (int ply = 0; ply < 250; ply++) {
                long n = compare_moves(game, &p);
                positions++;
                if (n > longest)
                    longest = n;
                if (g == CD_TW_BASHNI) {
                    /* information: does "rejump" give other moves here? */
                    cd_tw_pos d = p;
                    d.rules = CD_TW_RULE_REJUMP;
                    uint64_t a = cd_tw_perft(&p, 1), b = cd_tw_perft(&d, 1);
                    if (a != b)
                        default_differs++;
                    else {
                        static char t1[512][CD_TW_MOVE_TEXT], t2[512][CD_TW_MOVE_TEXT];
                        if (a <= 512) {
                            cd_tw_move_texts(&p, t1, 512);
                            cd_tw_move_texts(&d, t2, 512);
                            for (uint64_t i = 0; i < a; i++)
                                if (strcmp(t1[i], t2[i])) {
                                    default_differs++;
                                    break;
                                }
                        }
                    }
                }
                if (n <= 0)
                    break;
                cd_tw_move *moves;
                long all;
                if (cd_tw_generate_all(&p, &moves, &all) != CD_OK || !all) {
                    free(moves);
                    break;
                }
                const cd_tw_move *mv = &moves[next_rand() % (uint64_t)all];
                compare_play(game, &p, mv);
                cd_tw_make(&p, mv);
                free(moves);
                if (ply == 30 + 7 * k && nprobes < 8)
                    probes[nprobes++] = p;
            }
        }
        printf("%s: %ld positions from %d random games compared (most moves %ld)\n", game,
               positions, games, longest);
        cd_tw_pos s;
        cd_tw_start(&s, (cd_tw_game)g);
        s.rules = (uint8_t)rules;
        compare_perft(game, &s, g == CD_TW_BASHNI ? depth : depth + 4);
        for (int i = 0; i < nprobes; i++)
            compare_perft(game, &probes[i], g == CD_TW_BASHNI ? depth - 3 : depth - 2);
        printf("%s: perft from the start to depth %d and from %d game positions agree%s\n", game,
               g == CD_TW_BASHNI ? depth : depth + 4, nprobes, failures ? " (NOT: see above)" : "");
    }
    random_positions(20L * games);
    printf("bashni: the rule \"rejump\" would give other moves in %ld of the game positions\n",
           default_differs);
    printf("towers-ref: %ld move lists compared, %ld mismatches; %d checks, %d failed\n", compared,
           mismatches, checks, failures);
    return failures != 0;
}
