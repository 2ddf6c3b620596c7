/*
 * egtb_report.c -- `condraughts egtb report`: the article's claims (a claims
 * file, docs/claims/constitutional.claims) checked against the tablebases,
 * statistics of the kings-only signatures per variant, and the 1-against-1
 * edge-square table, written as Markdown.
 *
 * Claims file: one claim a line, `id | variant | FEN | claim | expected |
 * source`, where expected is win, draw or loss for the side to move,
 * optionally "within N" (plies). FEN "-" marks a general claim, evaluated by
 * its id (2x1-general, 3x1-general, 3x2-general, 2x2-general, 3x3-general,
 * 1x1-edge, 1x1-edge-14, 1x1-opposition) over every position of its signature.
 */
#include "egtb_report.h"
#include "cliutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "condraughts.h"

/* ---------------------------------------------------------------- a value in words */

void egtb_value_text(int v, int d, const char *unknown, char *buf, size_t len)
{
    if (v == CD_EGTB_WIN)
        snprintf(buf, len, "win in %d", d);
    else if (v == CD_EGTB_LOSS)
        snprintf(buf, len, "loss in %d", d);
    else if (v == CD_EGTB_DRAW)
        snprintf(buf, len, "draw");
    else
        snprintf(buf, len, "%s", unknown);
}

#define MAX_TB 8

typedef struct report {
    const char *dir;
    struct {
        const char *name;
        cd_egtb *tb;
    } tbs[MAX_TB];
    int ntb;
    cd_movelist list;
} report;

static cd_egtb *tables(report *R, const char *variant)
{
    for (int i = 0; i < R->ntb; i++)
        if (!strcmp(R->tbs[i].name, variant))
            return R->tbs[i].tb;
    const cd_rules *r = cd_rules_find(variant);
    if (!r || R->ntb == MAX_TB)
        return NULL;
    cd_egtb *tb = cd_egtb_open(r, R->dir);
    R->tbs[R->ntb].name = r->name;
    R->tbs[R->ntb].tb = tb;
    R->ntb++;
    return tb;
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

/* ---------------------------------------------------------------- general claims */

typedef struct tally {
    report *R;
    int strong; /* the colour of the side the claim is about */
    uint64_t n, win, draw, loss;
    uint64_t n_nocap, win_nocap, draw_nocap, loss_nocap;
    char example[256]; /* a position against the claim */
    int want;          /* the value the claim wants for the side to move */
} tally;

static int count_cb(const cd_position *pos, int v, int d, void *user)
{
    (void)d;
    tally *t = user;
    t->n++;
    t->win += v == CD_EGTB_WIN;
    t->draw += v == CD_EGTB_DRAW;
    t->loss += v == CD_EGTB_LOSS;
    int n = cd_generate(pos, &t->R->list);
    if (n == 0 || t->R->list.moves[0].ncaptured == 0) {
        t->n_nocap++;
        t->win_nocap += v == CD_EGTB_WIN;
        t->draw_nocap += v == CD_EGTB_DRAW;
        t->loss_nocap += v == CD_EGTB_LOSS;
        if (t->want >= 0 && v != t->want && !t->example[0])
            cd_position_to_fen(pos, 0, t->example, sizeof t->example);
    }
    return 0;
}

static int tally_of(report *R, cd_egtb *tb, cd_egtb_material m, int side, int want, tally *t,
                    char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->R = R;
    t->want = want;
    return cd_egtb_each(tb, m, side, count_cb, t, err, errlen) == CD_OK ? 0 : -1;
}

/* Nx1 / 3x2 style: the stronger side (White) to move wins, the weaker (Black) to move loses;
 * counted over positions where the side to move has no capture. */
static int claim_win(report *R, cd_egtb *tb, cd_egtb_material m, int strict, char *text, size_t len)
{
    tally a, b;
    char err[512];
    if (tally_of(R, tb, m, CD_WHITE, CD_EGTB_WIN, &a, err, sizeof err) ||
        tally_of(R, tb, m, CD_BLACK, CD_EGTB_LOSS, &b, err, sizeof err)) {
        snprintf(text, len, "not in the tables (%s)", err);
        return -1;
    }
    uint64_t good = a.win_nocap + b.loss_nocap, all = a.n_nocap + b.n_nocap;
    snprintf(text, len,
             "stronger side to move, no capture on: %llu of %llu won (%.2f%%); weaker side to "
             "move, no capture on: %llu of %llu lost (%.2f%%)%s%s",
             (unsigned long long)a.win_nocap, (unsigned long long)a.n_nocap,
             pct(a.win_nocap, a.n_nocap), (unsigned long long)b.loss_nocap,
             (unsigned long long)b.n_nocap, pct(b.loss_nocap, b.n_nocap),
             good < all ? "; e.g. not won: " : "",
             good < all ? (a.example[0] ? a.example : b.example) : "");
    return strict ? good == all : 2 * good > all;
}

static int claim_draw(report *R, cd_egtb *tb, cd_egtb_material m, char *text, size_t len)
{
    tally a;
    char err[512];
    if (tally_of(R, tb, m, CD_WHITE, -1, &a, err, sizeof err)) {
        snprintf(text, len, "not in the tables (%s)", err);
        return -1;
    }
    snprintf(text, len,
             "side to move, no capture on: %llu of %llu drawn (%.1f%%), %llu won, %llu lost",
             (unsigned long long)a.draw_nocap, (unsigned long long)a.n_nocap,
             pct(a.draw_nocap, a.n_nocap), (unsigned long long)a.win_nocap,
             (unsigned long long)a.loss_nocap);
    return 2 * a.draw_nocap > a.n_nocap;
}

/* 1 king v 1 king by the defender's square: wins for the attacker to move, losses for the
 * defender to move, over every attacker square. */
typedef struct edge {
    int side;
    uint64_t win[64], loss[64], n[64];
} edge;

static int edge_cb(const cd_position *pos, int v, int d, void *user)
{
    (void)d;
    edge *e = user;
    int bsq = 0;
    for (int sq = 1; sq <= cd_rules_squares(pos->rules); sq++)
        if (cd_position_piece(pos, sq) == CD_BLACK_KING)
            bsq = sq;
    e->n[bsq]++;
    if (e->side == CD_WHITE)
        e->win[bsq] += v == CD_EGTB_WIN;
    else
        e->loss[bsq] += v == CD_EGTB_LOSS;
    return 0;
}

static int is_edge(const cd_rules *r, int sq)
{
    int row = cd_square_row(r, sq), col = cd_square_col(r, sq);
    return row == 0 || col == 0 || row == cd_rules_height(r) - 1 || col == cd_rules_width(r) - 1;
}

static int edge_table(cd_egtb *tb, edge *w, edge *b)
{
    cd_egtb_material m = {1, 0, 1, 0};
    memset(w, 0, sizeof *w);
    memset(b, 0, sizeof *b);
    w->side = CD_WHITE;
    b->side = CD_BLACK;
    return cd_egtb_each(tb, m, CD_WHITE, edge_cb, w, NULL, 0) == CD_OK &&
                   cd_egtb_each(tb, m, CD_BLACK, edge_cb, b, NULL, 0) == CD_OK
               ? 0
               : -1;
}

static int saving(int sq) { return sq == 1 || sq == 6 || sq == 45 || sq == 50; }

static int claim_edge(cd_egtb *tb, const cd_rules *r, int only14, char *text, size_t len)
{
    edge w, b;
    if (edge_table(tb, &w, &b)) {
        snprintf(text, len, "not in the tables");
        return -1;
    }
    int ok = 1, lost_somewhere = 0, n14 = 0;
    uint64_t lost14 = 0, all14 = 0;
    for (int sq = 1; sq <= cd_rules_squares(r); sq++) {
        if (!is_edge(r, sq))
            continue;
        if (saving(sq)) {
            if (b.loss[sq] || w.win[sq])
                ok = 0;
        } else {
            n14++;
            lost14 += b.loss[sq];
            all14 += b.n[sq];
            if (b.loss[sq])
                lost_somewhere++;
            else
                ok = 0;
        }
    }
    if (only14)
        snprintf(text, len,
                 "defender to move on one of the %d other edge squares: lost on %d of them; "
                 "%llu of %llu placements of the attacking king win (%.1f%%) — the win needs "
                 "the right placement",
                 n14, lost_somewhere, (unsigned long long)lost14, (unsigned long long)all14,
                 pct(lost14, all14));
    else
        snprintf(text, len,
                 "defender on 1, 6, 45 or 50: lost in %llu positions; each of the other %d "
                 "edge squares has lost positions: %s (table below)",
                 (unsigned long long)(b.loss[1] + b.loss[6] + b.loss[45] + b.loss[50] + w.win[1] +
                                      w.win[6] + w.win[45] + w.win[50]),
                 n14, lost_somewhere == n14 ? "yes" : "no");
    return ok;
}

/* Kings on one file, Black (the defender) to move: does White win, per number of cells
 * between them? */
typedef struct opp {
    uint64_t n[16], win[16];
} opp;

static int opp_cb(const cd_position *pos, int v, int d, void *user)
{
    (void)d;
    opp *o = user;
    int ws = 0, bs = 0;
    for (int sq = 1; sq <= cd_rules_squares(pos->rules); sq++) {
        int p = cd_position_piece(pos, sq);
        if (p == CD_WHITE_KING)
            ws = sq;
        else if (p == CD_BLACK_KING)
            bs = sq;
    }
    const cd_rules *r = pos->rules;
    if (cd_square_col(r, ws) != cd_square_col(r, bs))
        return 0;
    int gap = abs(cd_square_row(r, ws) - cd_square_row(r, bs)) - 1;
    if (gap < 0 || gap > 15)
        return 0;
    o->n[gap]++;
    o->win[gap] += v == CD_EGTB_LOSS; /* Black to move loses */
    return 0;
}

static int claim_opposition(cd_egtb *tb, char *text, size_t len)
{
    opp o;
    memset(&o, 0, sizeof o);
    cd_egtb_material m = {1, 0, 1, 0};
    if (cd_egtb_each(tb, m, CD_BLACK, opp_cb, &o, NULL, 0) != CD_OK) {
        snprintf(text, len, "not in the tables");
        return -1;
    }
    size_t k = 0;
    int all = 1;
    k += (size_t)snprintf(text + k, len - k, "kings on one file, Black to move, White wins:");
    for (int g = 1; g <= 7 && k < len; g += 2) {
        k += (size_t)snprintf(text + k, len - k, " %d between: %llu of %llu;", g,
                              (unsigned long long)o.win[g], (unsigned long long)o.n[g]);
        if (!o.win[g])
            all = 0;
    }
    return all;
}

static int general_claim(report *R, const char *id, cd_egtb *tb, const cd_rules *r, char *text,
                         size_t len)
{
    if (!strcmp(id, "2x1-general"))
        return claim_win(R, tb, (cd_egtb_material){2, 0, 1, 0}, 1, text, len);
    if (!strcmp(id, "3x1-general"))
        return claim_win(R, tb, (cd_egtb_material){3, 0, 1, 0}, 1, text, len);
    if (!strcmp(id, "3x2-general"))
        return claim_win(R, tb, (cd_egtb_material){3, 0, 2, 0}, 0, text, len);
    if (!strcmp(id, "2x2-general"))
        return claim_draw(R, tb, (cd_egtb_material){2, 0, 2, 0}, text, len);
    if (!strcmp(id, "3x3-general"))
        return claim_draw(R, tb, (cd_egtb_material){3, 0, 3, 0}, text, len);
    if (!strcmp(id, "1x1-edge"))
        return claim_edge(tb, r, 0, text, len);
    if (!strcmp(id, "1x1-edge-14"))
        return claim_edge(tb, r, 1, text, len);
    if (!strcmp(id, "1x1-opposition"))
        return claim_opposition(tb, text, len);
    snprintf(text, len, "no evaluation for this general claim");
    return -1;
}

/* ---------------------------------------------------------------- the report */

static void md_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

static int claims_section(report *R, const char *path, FILE *out, int *holds, int *fails,
                          int *beyond)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "condraughts: egtb: report: cannot read %s\n", path);
        return -1;
    }
    fprintf(out, "| id | variant | position | claim | expected | tablebase | verdict |\n"
                 "|---|---|---|---|---|---|---|\n");
    char line[2048];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = cli_trim(line);
        if (!*s || *s == '#')
            continue;
        char *field[6];
        int nf = 0;
        for (char *p = s; nf < 6;) {
            char *bar = strchr(p, '|');
            field[nf++] = p;
            if (!bar)
                break;
            *bar = '\0';
            p = bar + 1;
        }
        if (nf != 6) {
            fprintf(stderr, "condraughts: egtb: report: %s:%d: expected 6 fields separated by |\n",
                    path, lineno);
            fclose(f);
            return -1;
        }
        for (int i = 0; i < 6; i++)
            field[i] = cli_trim(field[i]);
        const char *id = field[0], *variant = field[1], *fen = field[2], *claim = field[3],
                   *expected = field[4];
        const cd_rules *r = cd_rules_find(variant);
        cd_egtb *tb = r ? tables(R, variant) : NULL;
        if (!tb) {
            fprintf(stderr, "condraughts: egtb: report: %s:%d: no tables for variant '%s'\n", path,
                    lineno, variant);
            fclose(f);
            return -1;
        }
        int want = !strncmp(expected, "win", 3)    ? CD_EGTB_WIN
                   : !strncmp(expected, "loss", 4) ? CD_EGTB_LOSS
                   : !strncmp(expected, "draw", 4) ? CD_EGTB_DRAW
                                                   : -2;
        const char *within = strstr(expected, "within");
        int limit = within ? atoi(within + 6) : 0;
        if (want == -2) {
            fprintf(stderr,
                    "condraughts: egtb: report: %s:%d: expected '%s' is not win, draw "
                    "or loss\n",
                    path, lineno, expected);
            fclose(f);
            return -1;
        }
        char result[1024];
        int verdict;
        if (!strcmp(fen, "-")) {
            verdict = general_claim(R, id, tb, r, result, sizeof result);
        } else {
            cd_position pos;
            char err[512];
            if (cd_position_from_fen(&pos, r, fen, err, sizeof err) != CD_OK) {
                fprintf(stderr, "condraughts: egtb: report: %s:%d: %s\n", path, lineno, err);
                fclose(f);
                return -1;
            }
            int d, v = cd_egtb_probe(tb, &pos, &d);
            egtb_value_text(v, d, "not in the tables", result, sizeof result);
            if (v == CD_EGTB_UNKNOWN) {
                int n =
                    cd_position_count(&pos, CD_WHITE, -1) + cd_position_count(&pos, CD_BLACK, -1);
                snprintf(result, sizeof result, "beyond the tables (%d pieces)", n);
                verdict = -1;
            } else {
                verdict = v == want && (!limit || d <= limit);
            }
        }
        fprintf(out, "| %s | %s | %s | ", id, variant, strcmp(fen, "-") ? fen : "(all positions)");
        md_escape(out, claim);
        fprintf(out, " | %s | ", expected);
        md_escape(out, result);
        fprintf(out, " | %s |\n",
                verdict < 0 ? "not settled"
                : verdict   ? "holds"
                            : "**does not hold**");
        if (verdict < 0)
            ++*beyond;
        else if (verdict)
            ++*holds;
        else
            ++*fails;
    }
    fclose(f);
    return 0;
}

static const char *const stat_variants[] = {"constitutional", "international", "killer", "modern"};

static void stats_section(report *R, FILE *out)
{
    static const cd_egtb_material sigs[] = {{1, 0, 1, 0}, {2, 0, 1, 0}, {3, 0, 1, 0},
                                            {2, 0, 2, 0}, {4, 0, 1, 0}, {3, 0, 2, 0},
                                            {5, 0, 1, 0}, {4, 0, 2, 0}, {3, 0, 3, 0}};
    fprintf(out, "| signature | to move | variant | positions | wins | draws | losses | longest "
                 "win (plies) | a longest win |\n|---|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < sizeof sigs / sizeof sigs[0]; s++)
        for (int side = 0; side < 2; side++)
            for (size_t v = 0; v < sizeof stat_variants / sizeof stat_variants[0]; v++) {
                cd_egtb *tb = tables(R, stat_variants[v]);
                cd_egtb_stats st;
                char sig[32];
                snprintf(sig, sizeof sig, "%d king%s v %d", sigs[s].wk, sigs[s].wk > 1 ? "s" : "",
                         sigs[s].bk);
                const char *who = side == CD_WHITE ? "stronger" : "weaker";
                if (!tb || cd_egtb_stats_of(tb, sigs[s], side, &st, NULL, 0) != CD_OK) {
                    fprintf(out, "| %s | %s | %s | not built | | | | | |\n", sig, who,
                            stat_variants[v]);
                    continue;
                }
                uint64_t n = st.wins + st.draws + st.losses;
                char fen[256] = "";
                if (st.longest)
                    cd_position_to_fen(&st.example, 0, fen, sizeof fen);
                fprintf(out, "| %s | %s | %s | %llu | %.2f%% | %.2f%% | %.2f%% | %d | %s |\n", sig,
                        who, stat_variants[v], (unsigned long long)n, pct(st.wins, n),
                        pct(st.draws, n), pct(st.losses, n), st.longest, fen);
            }
}

/* Tables on disk per variant and piece count (files VARIANT-SIGNATURE.cdtb): how many, and
 * their size. */
static void tables_section(report *R, FILE *out)
{
    fprintf(out, "| variant | pieces | tables | size on disk (MB) |\n|---|---|---|---|\n");
    for (size_t v = 0; v < sizeof stat_variants / sizeof stat_variants[0]; v++) {
        uint64_t count[CD_EGTB_MAX_PIECES + 2] = {0}, bytes[CD_EGTB_MAX_PIECES + 2] = {0};
        size_t vlen = strlen(stat_variants[v]);
        DIR *d = opendir(R->dir);
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t n = strlen(e->d_name);
            if (n < vlen + 7 || strncmp(e->d_name, stat_variants[v], vlen) ||
                e->d_name[vlen] != '-' || strcmp(e->d_name + n - 5, ".cdtb"))
                continue;
            const char *sig = e->d_name + vlen + 1;
            size_t pieces = n - vlen - 1 - 5 - 1; /* the signature without its '_' */
            if (strspn(sig, "KM_") != n - vlen - 1 - 5 || pieces > CD_EGTB_MAX_PIECES)
                continue;
            char path[1200];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", R->dir, e->d_name);
            if (stat(path, &st) != 0)
                continue;
            count[pieces]++;
            bytes[pieces] += (uint64_t)st.st_size;
        }
        if (d)
            closedir(d);
        for (int np = 2; np <= CD_EGTB_MAX_PIECES; np++)
            if (count[np])
                fprintf(out, "| %s | %d | %llu | %.1f |\n", stat_variants[v], np,
                        (unsigned long long)count[np], (double)bytes[np] / 1e6);
    }
}

static void edge_section(report *R, FILE *out)
{
    cd_egtb *tb = tables(R, "constitutional");
    edge w, b;
    if (!tb || edge_table(tb, &w, &b)) {
        fprintf(out, "(the 1-against-1 table is missing)\n");
        return;
    }
    const cd_rules *r = cd_rules_find("constitutional");
    fprintf(out, "| defending king on | attacker to move: winning placements | defender to "
                 "move: losing placements |\n|---|---|---|\n");
    for (int sq = 1; sq <= cd_rules_squares(r); sq++) {
        if (!is_edge(r, sq))
            continue;
        fprintf(out, "| %d%s | %llu of %llu | %llu of %llu |\n", sq, saving(sq) ? " (saving)" : "",
                (unsigned long long)w.win[sq], (unsigned long long)w.n[sq],
                (unsigned long long)b.loss[sq], (unsigned long long)b.n[sq]);
    }
}

int egtb_report(const char *claims, const char *dir, FILE *out)
{
    report *R = calloc(1, sizeof *R);
    if (!R)
        return 2;
    R->dir = dir;
    int holds = 0, fails = 0, beyond = 0;
    fprintf(out,
            "# Constitutional draughts endgames: the article's claims against the tablebases\n\n"
            "Generated by `condraughts egtb report --claims %s --dir %s` from the tables built "
            "with `condraughts egtb build` (see the last section). Values are for the side to "
            "move, distances in plies to the end of the game (the side to move has no move) under "
            "best play; repetition and move-count draw rules are not applied. Positions come from "
            "`%s`, reconstructed from the article's text (its diagrams are images): see the "
            "comments there for how sure each reconstruction is.\n\n## The claims\n\n",
            claims, dir, claims);
    if (claims_section(R, claims, out, &holds, &fails, &beyond) != 0) {
        free(R);
        return 2;
    }
    fprintf(out, "\n%d claims hold, %d do not hold, %d are not settled by these tables.\n", holds,
            fails, beyond);
    fprintf(out, "\n## Kings-only endings by variant\n\nEvery position of the signature counted "
                 "once (identical kings unordered), with the stronger or the weaker side to "
                 "move, positions where the side to move must capture included.\n\n");
    stats_section(R, out);
    fprintf(out, "\n## One king against one: the edge squares\n\nBlack defends with one king on "
                 "an edge square, White has one king anywhere else.\n\n");
    edge_section(R, out);
    fprintf(out,
            "\n## The tables\n\nBuilt with `condraughts egtb build --variant V --pieces N "
            "--kings-pieces K --dir %s` (`make endgames` builds the set used here and writes this "
            "file). Each table holds one material signature with both sides to move: 2 bits of "
            "value and 1 or 2 bytes of distance per position, checked on load (rules fingerprint, "
            "header, size and payload checksums; a table over 1 MB is checked by a thread of its "
            "own, which a search with a time limit does not wait for). `make egtb-verify` checks "
            "stored values against their successors.\n\n",
            dir);
    tables_section(R, out);
    for (int i = 0; i < R->ntb; i++)
        cd_egtb_close(R->tbs[i].tb);
    free(R);
    return 0;
}
