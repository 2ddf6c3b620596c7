/*
 * test_reference.c -- compare the library's move generator with the naive
 * reference generator (tests/ref/refgen.c) on random positions.
 *
 *   test_reference [--positions N] [--seed S] [--max-fail K] [variant ...]
 *
 * For every variant (default: all), every tested switch combination (Rule C
 * variants: all off, each of the 4 switches alone, all 4 on) and both
 * duplicate-capture conventions (drop, keep), N positions are made:
 *   - about half from random playouts of the library from the start position
 *     (positions sampled along each game, promotions preferred now and then);
 *   - the rest by random placement: mixed men and kings (1-6 kings a side),
 *     men-heavy, kings-only and sparse positions, and positions made for long
 *     Rule C threat tracks (many men of the side to move, enemy kings); men
 *     never on their own promotion row.
 * Each position's FEN comes from cd_position_to_fen; the library's moves
 * (cd_generate + cd_move_to_hub) and the reference's moves (ref_moves) are
 * compared as sorted multisets of Hub strings. cd_count_moves must agree with
 * the list length too, and cd_quiet_moves with whether there is a capture or no move at all
 * (and the generator's generate_known, given that answer, with cd_generate's list).
 * Variants with a king-move limit (Frisian, Frysk!): the position's count,
 * which a FEN cannot hold (cd_position_king_run), is handed to the reference
 * (ref_moves_run); random placements get a random count (often the full 3) for
 * a random king of each side that has men; and every 40th position is also
 * compared by perft to depth 3 (cd_perft against ref_perft_run), which checks
 * how both sides carry the count from move to move ("perft-checks").
 * Turkish: both promotion rules during a capture (the variant's, a man goes on as a man, and
 * "promote-continue", crowned at once and going on as a king: REF_TURKISH_PROMOTE_CONTINUE); every
 * 40th position also by perft to depth 3 (pieces taken leave during the move, so a capture may end
 * on a square it emptied). Switch names in the output: men = CD_CON_OBSTRUCT_BY_MEN, origin =
 * CD_CON_ORIGIN_OCCUPIED, sackings = CD_CON_SAC_KINGS_ONLY, nopass =
 * CD_CON_NO_PASS_TO_SAC.
 * Output: one line per variant/switches/convention with the positions and
 * moves compared, how many positions had captures and kings of both sides,
 * and evidence that the configuration's own rule was exercised: "rule-changes"
 * = positions where the reference's list differs from the base rule set's
 * (Rule C and halt variants against their variant without the rule, a switch
 * against no switch, a king-move limit against the same position without a
 * count), "dup-paths" = keep-convention positions where a Hub string occurs
 * more than once. On a mismatch: the variant, switches, FEN and
 * the moves found by only one side.
 * Exit 0 if everything agrees, 1 after the first K mismatches (--max-fail,
 * default 10) or at the end if there was any, 2 on a usage or setup error.
 * Deterministic: the positions of a configuration depend only on the seed, the
 * variant name and the flags, so one configuration can be rerun on its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "condraughts.h"
#include "movegen.h"
#include "ref/refgen.h"

#define REF_MAX                   4096
#define MAX_FAIL_SHOWN_PER_CONFIG 3

/* ------------------------------------------------------------ PRNG (xorshift64*) */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n). */
static int rng_below(int n) { return n <= 1 ? 0 : (int)(rng_next() % (uint64_t)n); }

/* Uniform in [lo, hi]. */
static int rng_range(int lo, int hi) { return hi <= lo ? lo : lo + rng_below(hi - lo + 1); }

static void rng_seed(uint64_t seed, const char *name, unsigned flags)
{
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ flags) * 1099511628211ULL;
    rng_state = h ? h : 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 8; i++)
        rng_next();
}

/* ------------------------------------------------------------ move lists */

static char fast_mv[CD_MAX_MOVES][REF_MOVE_LEN];
static char ref_mv[REF_MAX][REF_MOVE_LEN];
static cd_movelist list, list_known;

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* ------------------------------------------------------------ statistics */

typedef struct {
    long positions;
    long moves;
    long captures_positions; /* positions where the moves are captures */
    long king_positions;     /* positions with kings of both sides */
    long rejected;           /* placements the library refused */
    long mismatches;
    long skipped;     /* list overflow */
    long rule_active; /* the reference's list differs from the base rule set's */
    long dup_active;  /* keep: some Hub string occurs more than once */
    long perfts;      /* positions also compared by perft (king-move limit variants) */
} stats_t;

/* What a configuration is compared with to show that its rule is exercised. */
typedef struct {
    const char *variant; /* NULL: nothing */
    unsigned flags;
    int no_run; /* the same variant without the position's king-move count */
} base_t;

#define PERFT_EVERY 40 /* king-move limit variants: every Nth position also by perft */
#define PERFT_DEPTH 3

static base_t cur_base;
static char base_mv[REF_MAX][REF_MOVE_LEN];

static long total_failures;
static long max_fail = 10;

static void print_switches(unsigned flags, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t k = 0;
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        {CD_CON_OBSTRUCT_BY_MEN, "men"},
        {CD_CON_ORIGIN_OCCUPIED, "origin"},
        {CD_CON_SAC_KINGS_ONLY, "sackings"},
        {CD_CON_NO_PASS_TO_SAC, "nopass"},
        {REF_TURKISH_PROMOTE_CONTINUE, "promote-continue"},
        {CD_HOOG_KINGS_ONLY, "hoog-kings-only"},
        {CD_HOOG_FIRST_JUMP, "hoog-first-jump"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit) {
            int w = snprintf(buf + k, len - k, "%s%s", k ? "+" : "", names[i].name);
            if (w < 0 || (size_t)w >= len - k)
                return;
            k += (size_t)w;
        }
    if (k == 0)
        snprintf(buf, len, "-");
}

/* Rules whose positions are also compared by perft now and then: the king-move limit (state carried
 * from move to move) and Turkish (pieces taken leave during the move, so playing a capture may put
 * the mover on a square it emptied, and a man crosses the last row mid-capture). */
static int perft_checked(const cd_rules *r)
{
    /* also the rules that change what a move does, not which moves there are: Northern,
     * Samoyed, Stavropol, two-move, Thai */
    return r->king_moves || cd_rules_squares(r) == cd_rules_width(r) * cd_rules_height(r) ||
           (r->flags & (CD_RULE_NORTHERN | CD_RULE_SAMOYED | CD_RULE_STAVROPOL | CD_RULE_TWO_MOVE |
                        CD_RULE_REMOVE_AT_ONCE));
}

/* Compare the two generators on pos. Returns 0 if they agree. */
static int compare_position(const cd_position *pos, const char *variant, unsigned ref_flags,
                            unsigned switches, stats_t *st)
{
    char fen[1024], err[256];
    size_t fl = cd_position_to_fen(pos, 0, fen, sizeof fen);
    if (fl >= sizeof fen) {
        fprintf(stderr, "FEN too long\n");
        exit(2);
    }
    int nf = cd_generate(pos, &list);
    if (list.overflow) {
        st->skipped++;
        return 0;
    }
    for (int i = 0; i < nf; i++) {
        size_t l = cd_move_to_hub(pos, &list.moves[i], fast_mv[i], REF_MOVE_LEN);
        if (l >= REF_MOVE_LEN) {
            fprintf(stderr, "hub string too long in %s\n", fen);
            exit(2);
        }
    }
    ref_run run;
    for (int c = 0; c < 2; c++)
        run.len[c] = cd_position_king_run(pos, c, &run.sq[c]);
    int nr = ref_moves_run(variant, ref_flags, fen, &run, ref_mv, REF_MAX, err, sizeof err);
    if (nr < 0) {
        fprintf(stderr, "reference failed on %s FEN %s: %s\n", variant, fen, err);
        exit(2);
    }
    int nc = cd_count_moves(pos);
    /* cd_quiet_moves: -1 exactly when there is a capture, else 0 exactly when there is no move */
    int nq = cd_quiet_moves(pos);
    int ref_capture = nr > 0 && strchr(ref_mv[0], 'x') != NULL;
    int quiet_ok = ref_capture ? nq == -1 : nq >= 0 && (nq == 0) == (nr == 0);
    /* the search's generate_known after cd_quiet_moves: cd_generate's list, in its order */
    int nk = cd_movegen_of(pos->rules)->generate_known(pos, &list_known, nq);
    quiet_ok =
        quiet_ok && nk == nf && !memcmp(list_known.moves, list.moves, (size_t)nf * sizeof(cd_move));
    st->positions++;
    st->moves += nr;
    if (nr > 0 && strchr(ref_mv[0], 'x'))
        st->captures_positions++;
    if (cd_position_count(pos, CD_WHITE, 1) > 0 && cd_position_count(pos, CD_BLACK, 1) > 0)
        st->king_positions++;

    qsort(fast_mv, (size_t)nf, REF_MOVE_LEN, cmp_str);
    qsort(ref_mv, (size_t)nr, REF_MOVE_LEN, cmp_str);
    for (int i = 1; i < nr; i++)
        if (strcmp(ref_mv[i - 1], ref_mv[i]) == 0) {
            st->dup_active++;
            break;
        }
    if (cur_base.variant) {
        int nb = ref_moves_run(cur_base.variant, cur_base.flags, fen, cur_base.no_run ? NULL : &run,
                               base_mv, REF_MAX, err, sizeof err);
        if (nb < 0) {
            fprintf(stderr, "reference failed on %s FEN %s: %s\n", cur_base.variant, fen, err);
            exit(2);
        }
        qsort(base_mv, (size_t)nb, REF_MOVE_LEN, cmp_str);
        int differ = nb != nr;
        for (int i = 0; !differ && i < nr; i++)
            differ = strcmp(base_mv[i], ref_mv[i]) != 0;
        st->rule_active += differ;
    }
    int same = nf == nr && nc == nf && quiet_ok;
    for (int i = 0; same && i < nf; i++)
        same = strcmp(fast_mv[i], ref_mv[i]) == 0;
    if (same && perft_checked(pos->rules) && st->positions % PERFT_EVERY == 0) {
        st->perfts++;
        uint64_t pf = cd_perft(pos, PERFT_DEPTH);
        long long pr =
            pos->second
                ? ref_perft_two_move(variant, ref_flags, fen, 1, PERFT_DEPTH, err, sizeof err)
                : ref_perft_run(variant, ref_flags, fen, &run, PERFT_DEPTH, err, sizeof err);
        if (pr < 0) {
            fprintf(stderr, "reference perft failed on %s FEN %s: %s\n", variant, fen, err);
            exit(2);
        }
        if ((long long)pf != pr) {
            st->mismatches++;
            total_failures++;
            printf("MISMATCH variant=%s duplicates=%s perft %d\n  FEN %s counts W %d@%d B %d@%d\n"
                   "  library %llu, reference %lld\n",
                   variant, (ref_flags & REF_RULE_KEEP_DUPLICATES) ? "keep" : "drop", PERFT_DEPTH,
                   fen, run.len[0], run.sq[0], run.len[1], run.sq[1], (unsigned long long)pf, pr);
            if (total_failures >= max_fail) {
                printf("stopping after %ld mismatches\n", total_failures);
                exit(1);
            }
            return 1;
        }
    }
    if (same)
        return 0;

    st->mismatches++;
    total_failures++;
    if (st->mismatches <= MAX_FAIL_SHOWN_PER_CONFIG) {
        char sw[128];
        print_switches(switches, sw, sizeof sw);
        printf("MISMATCH variant=%s switches=%s (flags 0x%x) duplicates=%s\n  FEN %s\n", variant,
               sw, switches, (ref_flags & REF_RULE_KEEP_DUPLICATES) ? "keep" : "drop", fen);
        if (run.len[0] || run.len[1])
            printf("  king-move counts: white %d (king on %d), black %d (king on %d)\n", run.len[0],
                   run.sq[0], run.len[1], run.sq[1]);
        printf("  library %d moves (cd_count_moves %d, cd_quiet_moves %d), reference %d moves\n",
               nf, nc, nq, nr);
        /* Multiset difference of the two sorted lists. */
        int i = 0, j = 0;
        printf("  only in library  :");
        while (i < nf || j < nr) {
            int c = i >= nf ? 1 : j >= nr ? -1 : strcmp(fast_mv[i], ref_mv[j]);
            if (c == 0) {
                i++;
                j++;
            } else if (c < 0) {
                printf(" %s", fast_mv[i++]);
            } else {
                j++;
            }
        }
        printf("\n  only in reference:");
        i = j = 0;
        while (i < nf || j < nr) {
            int c = i >= nf ? 1 : j >= nr ? -1 : strcmp(fast_mv[i], ref_mv[j]);
            if (c == 0) {
                i++;
                j++;
            } else if (c < 0) {
                i++;
            } else {
                printf(" %s", ref_mv[j++]);
            }
        }
        printf("\n");
        fflush(stdout);
    }
    if (total_failures >= max_fail) {
        printf("stopping after %ld mismatches\n", total_failures);
        exit(1);
    }
    return 1;
}

/* ------------------------------------------------------------ positions */

/* Random placement: a FEN, with the piece codes in cells[1..N]. */
static void random_placement(const cd_rules *r, char *fen, size_t len, int *cells)
{
    int nsq = cd_rules_squares(r), rows = cd_rules_height(r);
    int cap = r->men_rows * (nsq / rows); /* pieces a side starts with */
    int wm, bm, wk, bk;
    int white_to_move = rng_below(2);
    int kind = rng_below(100);
    if (kind < 15) {
        /* Long threat tracks (Rule C): the side to move has kings and many men
           for the enemy kings to jump on the way; the enemy has kings and few men. */
        int mk = rng_range(1, 3), mm = rng_range(6, cap - 3 < 14 ? cap - 3 : 14);
        int ek = rng_range(1, 4), em = rng_range(0, 3);
        wk = white_to_move ? mk : ek;
        wm = white_to_move ? mm : em;
        bk = white_to_move ? ek : mk;
        bm = white_to_move ? em : mm;
    } else if (kind < 45) { /* mixed: men and 1-6 kings a side */
        wk = rng_range(1, 6);
        bk = rng_range(1, 6);
        wm = rng_range(0, cap - wk < 12 ? cap - wk : 12);
        bm = rng_range(0, cap - bk < 12 ? cap - bk : 12);
    } else if (kind < 60) { /* kings only */
        wk = rng_range(1, rng_below(4) ? 6 : 12);
        bk = rng_range(1, rng_below(4) ? 6 : 12);
        wm = bm = 0;
    } else if (kind < 80) { /* men-heavy, a few kings */
        wk = rng_range(0, 2);
        bk = rng_range(0, 2);
        wm = rng_range(3, cap - wk);
        bm = rng_range(3, cap - bk);
    } else { /* sparse */
        wk = rng_range(0, 3);
        bk = rng_range(0, 3);
        wm = rng_range(0, 4);
        bm = rng_range(0, 4);
        if (wk + wm == 0)
            wk = 1;
        if (bk + bm == 0)
            bm = 1;
    }
    /* No side above its setup's pieces (only small setups such as Frysk!'s 5 need it). */
    if (wk > cap)
        wk = cap;
    if (wk + wm > cap)
        wm = cap - wk;
    if (bk > cap)
        bk = cap;
    if (bk + bm > cap)
        bm = cap - bk;
    for (int s = 1; s <= nsq; s++)
        cells[s] = CD_EMPTY;
    /* Place each piece on a random free square allowed for it. */
    int want[4] = {wm, bm, wk, bk};
    int code[4] = {CD_WHITE_MAN, CD_BLACK_MAN, CD_WHITE_KING, CD_BLACK_KING};
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < want[t]; k++) {
            for (int tries = 0; tries < 1000; tries++) {
                int s = rng_range(1, nsq);
                if (cells[s] != CD_EMPTY)
                    continue;
                if (code[t] == CD_WHITE_MAN && cd_square_row(r, s) == 0)
                    continue;
                if (code[t] == CD_BLACK_MAN && cd_square_row(r, s) == rows - 1)
                    continue;
                cells[s] = code[t];
                break;
            }
        }
    /* Write the FEN: men as single squares, kings with K. */
    size_t k = 0;
    k += (size_t)snprintf(fen + k, len - k, "%c", white_to_move ? 'W' : 'B');
    for (int colour = 0; colour < 2; colour++) {
        k += (size_t)snprintf(fen + k, len - k, ":%c", colour == 0 ? 'W' : 'B');
        int first = 1;
        for (int s = 1; s <= nsq && k < len; s++) {
            int c = cells[s];
            if (c == CD_EMPTY)
                continue;
            int white = c == CD_WHITE_MAN || c == CD_WHITE_KING;
            if (white != (colour == 0))
                continue;
            int king = c == CD_WHITE_KING || c == CD_BLACK_KING;
            k += (size_t)snprintf(fen + k, len - k, "%s%s%d", first ? "" : ",", king ? "K" : "", s);
            first = 0;
        }
    }
}

/* A king-move count for a random king of each colour that has men and kings, half the time (the
 * full limit half of those times): the state a FEN cannot hold. */
static void random_king_runs(cd_position *pos, const int *cells, int nsq, const char *variant,
                             stats_t *st)
{
    int limit = pos->rules->king_moves;
    for (int c = 0; c < 2; c++) {
        int kings[80], nk = 0, men = 0;
        for (int s = 1; s <= nsq; s++) {
            if (cells[s] == (c == CD_WHITE ? CD_WHITE_KING : CD_BLACK_KING))
                kings[nk++] = s;
            men += cells[s] == (c == CD_WHITE ? CD_WHITE_MAN : CD_BLACK_MAN);
        }
        if (!nk || !men || rng_below(2))
            continue;
        int sq = kings[rng_below(nk)], len = rng_below(2) ? limit : rng_range(1, limit);
        if (cd_position_set_king_run(pos, c, sq, len) != CD_OK) {
            printf("MISMATCH variant=%s: cd_position_set_king_run(colour %d, square %d, %d) "
                   "refused\n",
                   variant, c, sq, len);
            st->mismatches++;
            if (++total_failures >= max_fail)
                exit(1);
        }
    }
}

static void run_placements(const cd_rules *r, const char *variant, unsigned ref_flags,
                           unsigned switches, long count, stats_t *st)
{
    int nsq = cd_rules_squares(r);
    char fen[1024], err[256];
    int cells[80];
    cd_position pos;
    for (long i = 0; i < count; i++) {
        random_placement(r, fen, sizeof fen, cells);
        cd_result res = cd_position_from_fen(&pos, r, fen, err, sizeof err);
        if (res != CD_OK) {
            if (st->rejected < 3)
                printf("  note: library rejected placement %s: %s\n", fen, err);
            st->rejected++;
            continue;
        }
        /* The library must have read the placement exactly. */
        for (int s = 1; s <= nsq; s++)
            if (cd_position_piece(&pos, s) != cells[s]) {
                printf("MISMATCH variant=%s: cd_position_from_fen(%s) square %d holds %d, "
                       "expected %d\n",
                       variant, fen, s, cd_position_piece(&pos, s), cells[s]);
                st->mismatches++;
                if (++total_failures >= max_fail)
                    exit(1);
                break;
            }
        if (r->king_moves)
            random_king_runs(&pos, cells, nsq, variant, st);
        compare_position(&pos, variant, ref_flags, switches, st);
    }
}

static void run_playouts(const cd_rules *r, const char *variant, unsigned ref_flags,
                         unsigned switches, long count, stats_t *st)
{
    static cd_movelist ml;
    long done = 0;
    while (done < count) {
        cd_position pos;
        cd_position_start(&pos, r);
        int max_ply = rng_range(20, 300);
        /* Sample each position of the game with some probability (more late). */
        for (int ply = 0; ply <= max_ply && done < count; ply++) {
            int sample = ply < 30 ? rng_below(12) == 0 : rng_below(3) == 0;
            if (sample) {
                compare_position(&pos, variant, ref_flags, switches, st);
                done++;
            }
            int nm = cd_generate(&pos, &ml);
            if (nm == 0)
                break;
            int pick = rng_below(nm);
            if (rng_below(3) == 0) { /* prefer a promotion or a king move now and then */
                int cand[CD_MAX_MOVES], nc = 0;
                for (int i = 0; i < nm; i++)
                    if (ml.moves[i].flags & (CD_MOVE_PROMOTES | CD_MOVE_KING))
                        cand[nc++] = i;
                if (nc)
                    pick = cand[rng_below(nc)];
            }
            cd_play(&pos, &ml.moves[pick], &pos);
        }
        if (done < count) { /* always include the final position */
            compare_position(&pos, variant, ref_flags, switches, st);
            done++;
        }
    }
}

/* ------------------------------------------------------------ main */

static int is_rule_c(const cd_rules *r) { return (r->flags & CD_RULE_CONSTITUTIONAL) != 0; }

/*
 * The rule set a configuration is contrasted with (reference only): a switch
 * against the same variant without switches, Rule C / a halt rule against the
 * variant without it, keep against drop for the plain variants.
 */
static base_t base_of(const char *name, unsigned switches, int keep)
{
    static const struct {
        const char *variant, *base;
    } map[] = {
        {"constitutional", "international"},
        {"killer", "international"},
        {"modern", "international"},
        {"brazilian-constitutional", "brazilian"},
        {"modern-8x8", "brazilian"},
        {"russian-constitutional", "russian"},
        {"hoogland", "international"},
        {"russian-northern", "russian"},
        {"samoyed", "russian"},
        {"stavropol", "russian"},
    };
    base_t b = {NULL, 0, 0};
    unsigned dup = keep ? REF_RULE_KEEP_DUPLICATES : 0u;
    const cd_rules *r = cd_rules_find(name);
    if (r && r->king_moves) {
        b.variant = name;
        b.flags = dup;
        b.no_run = 1;
        return b;
    }
    if (switches) {
        b.variant = name;
        b.flags = dup;
        return b;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].variant, name) == 0) {
            b.variant = map[i].base;
            b.flags = dup;
            return b;
        }
    return b;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: test_reference [--positions N] [--seed S] [--max-fail K] [variant ...]\n");
}

int main(int argc, char **argv)
{
    long positions = 100000;
    uint64_t seed = 1;
    const char *names[64];
    int nnames = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--positions") == 0 && i + 1 < argc) {
            positions = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--max-fail") == 0 && i + 1 < argc) {
            max_fail = strtol(argv[++i], NULL, 10);
        } else if (argv[i][0] == '-') {
            usage();
            return 2;
        } else if (nnames < 64) {
            names[nnames++] = argv[i];
        }
    }
    if (positions < 1 || max_fail < 1) {
        usage();
        return 2;
    }
    if (nnames == 0)
        for (int i = 0; cd_rules_at(i) && nnames < 64; i++) /* every built-in row */
            names[nnames++] = cd_rules_at(i)->name;

    static const unsigned switch_sets[] = {
        0,
        CD_CON_OBSTRUCT_BY_MEN,
        CD_CON_ORIGIN_OCCUPIED,
        CD_CON_SAC_KINGS_ONLY,
        CD_CON_NO_PASS_TO_SAC,
        CD_CON_OBSTRUCT_BY_MEN | CD_CON_ORIGIN_OCCUPIED | CD_CON_SAC_KINGS_ONLY |
            CD_CON_NO_PASS_TO_SAC,
    };
    /* Turkish: the promotion rule during a capture, the variant's (a man on the last row goes on as
     * a man) and the other reading (crowned at once, goes on as a king: CD_PROMO_CONTINUE). */
    static const unsigned turkish_sets[] = {0, REF_TURKISH_PROMOTE_CONTINUE};
    /* Hoogland: its two switches (docs/variants.md), alone and together. */
    static const unsigned hoogland_sets[] = {0, CD_HOOG_KINGS_ONLY, CD_HOOG_FIRST_JUMP,
                                             CD_HOOG_KINGS_ONLY | CD_HOOG_FIRST_JUMP};
    long grand_positions = 0, grand_moves = 0, configs = 0, bad_configs = 0;
    clock_t t0 = clock();
    for (int v = 0; v < nnames; v++) {
        const cd_rules *base = cd_rules_find(names[v]);
        if (!base) {
            fprintf(stderr, "unknown variant for the library: %s\n", names[v]);
            return 2;
        }
        if (!ref_variant_known(base->name)) {
            fprintf(stderr, "unknown variant for the reference: %s\n", base->name);
            return 2;
        }
        int turkish = strcmp(base->name, "turkish") == 0;
        int hoogland = (base->flags & CD_RULE_HOOGLAND) != 0;
        const unsigned *sets = turkish ? turkish_sets : hoogland ? hoogland_sets : switch_sets;
        int nsets = turkish           ? (int)(sizeof turkish_sets / sizeof turkish_sets[0])
                    : hoogland        ? (int)(sizeof hoogland_sets / sizeof hoogland_sets[0])
                    : is_rule_c(base) ? (int)(sizeof switch_sets / sizeof switch_sets[0])
                                      : 1;
        for (int s = 0; s < nsets; s++)
            for (int keep = 0; keep < 2; keep++) {
                cd_rules rules = *base;
                rules.flags |= sets[s] & ~REF_TURKISH_PROMOTE_CONTINUE;
                if (sets[s] & REF_TURKISH_PROMOTE_CONTINUE)
                    rules.promotion = CD_PROMO_CONTINUE;
                if (keep)
                    rules.flags |= CD_RULE_KEEP_DUPLICATES;
                unsigned ref_flags = sets[s] | (keep ? REF_RULE_KEEP_DUPLICATES : 0u);
                rng_seed(seed, base->name, ref_flags);
                cur_base = base_of(base->name, sets[s], keep);
                stats_t st;
                memset(&st, 0, sizeof st);
                clock_t c0 = clock();
                long playouts = positions / 2;
                run_playouts(&rules, base->name, ref_flags, sets[s], playouts, &st);
                run_placements(&rules, base->name, ref_flags, sets[s], positions - playouts, &st);
                char sw[128];
                print_switches(sets[s], sw, sizeof sw);
                char active[96] = "";
                if (cur_base.variant)
                    snprintf(active, sizeof active, "  rule-changes %6ld", st.rule_active);
                else if (keep)
                    snprintf(active, sizeof active, "  dup-paths %6ld", st.dup_active);
                if (rules.king_moves)
                    snprintf(active + strlen(active), sizeof active - strlen(active),
                             "  dup-paths %6ld  perft-checks %4ld", st.dup_active, st.perfts);
                else if (perft_checked(&rules))
                    snprintf(active + strlen(active), sizeof active - strlen(active),
                             "  perft-checks %4ld", st.perfts);
                printf("%-24s %-26s %-4s positions %7ld  moves %9ld  captures %6ld  "
                       "both-kings %6ld%s  %s  %.1fs\n",
                       base->name, sw, keep ? "keep" : "drop", st.positions, st.moves,
                       st.captures_positions, st.king_positions, active,
                       st.mismatches ? "MISMATCH" : "ok", (double)(clock() - c0) / CLOCKS_PER_SEC);
                if (st.mismatches)
                    printf("  %ld mismatching positions\n", st.mismatches);
                if (st.rejected)
                    printf("  %ld placements rejected by the library\n", st.rejected);
                if (st.skipped)
                    printf("  %ld positions skipped (library list overflow)\n", st.skipped);
                fflush(stdout);
                grand_positions += st.positions;
                grand_moves += st.moves;
                configs++;
                bad_configs += st.mismatches != 0;
            }
    }
    printf("total: %ld configurations, %ld positions, %ld moves compared, %ld mismatching "
           "configurations, %.1fs\n",
           configs, grand_positions, grand_moves, bad_configs,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    return total_failures ? 1 : 0;
}
