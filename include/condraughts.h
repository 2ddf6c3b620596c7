/*
 * condraughts.h -- the one public header of the condraughts library.
 *
 * condraughts plays the variants of the rows in variant.c (cd_rules_at;
 * `condraughts variants` lists them, the README's table gives their rules):
 * the diagonal games on 8x8, 10x10, 12x12 and the 80-cell 10x8 board
 * (International, Constitutional, Killer, Modern, Antidraughts, Breakthrough;
 * Russian and its constitutional, giveaway, diagonal, two-move, Northern,
 * Samoyed and Stavropol rows, Brazilian, English, Italian, Spanish,
 * Portuguese, Czech, Pool, Thai, Modern 8x8; Canadian; Spantsiretti), the
 * games with orthogonal captures too (Frisian, Frysk!, Hoogland), and Turkish
 * draughts (Dama), played orthogonally on all 64 squares. Tower draughts
 * (Bashni, Lasca) are a separate module with its own header
 * (src/towers/towers.h).
 * Everything in the library is reachable from this header; every name starts
 * with cd_ (functions, types) or CD_ (constants).
 *
 * Conventions
 * - The library does no I/O except on strings, never prints, never exits and
 *   has no global mutable state: every function is safe to call from several
 *   threads on different objects.
 * - Functions that can fail return a cd_result; CD_OK is 0. Parsers also take
 *   a caller-owned buffer `err` (may be NULL) that receives one line saying
 *   what is wrong and where.
 * - Output strings go to caller-owned buffers with an explicit size; the
 *   functions return the length they needed (like snprintf), so a return value
 *   >= the size means the text was cut.
 *
 * Squares
 * - Every board is numbered like the 10x10 board: playable squares row by row
 *   from the top-left playable square as White sees the board (White sits at
 *   the bottom). So the 8x8 start is W:W21-32:B1-12 and the 10x10 start is
 *   W:W31-50:B1-20. Mirrored boards (Italian, Spanish, Portuguese: the
 *   bottom-left corner is light) are numbered the same way on their own
 *   playable squares.
 * - Algebraic variants (Russian, Brazilian, Czech, ...) also read and write
 *   algebraic squares: file a.. from White's left, rank 1 at White's side.
 */
#ifndef CONDRAUGHTS_H
#define CONDRAUGHTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CD_VERSION "0.1.0"

/* ---------------------------------------------------------------- results */

typedef enum cd_result {
    CD_OK = 0,
    CD_ERR_VARIANT,   /* unknown variant name */
    CD_ERR_FEN,       /* malformed FEN or position string */
    CD_ERR_POSITION,  /* well-formed but impossible position */
    CD_ERR_MOVE,      /* malformed move text */
    CD_ERR_ILLEGAL,   /* well-formed move that is not legal here */
    CD_ERR_AMBIGUOUS, /* move text matches more than one legal move */
    CD_ERR_ARG,       /* bad argument (NULL, out of range, ...) */
    CD_ERR_OVERFLOW,  /* a fixed-size buffer or list was too small, or out of memory */
    CD_ERR_IO         /* a file could not be read or written, or is corrupt */
} cd_result;

/* Out of memory is reported one way: a function that returns a cd_result returns
 * CD_ERR_OVERFLOW when an allocation fails (with "out of memory" in its err buffer if it has
 * one); one that returns a pointer (cd_game_new, cd_engine_new, cd_egtb_open) returns NULL. */

/* A short English description of a result code (static string). */
const char *cd_result_str(cd_result r);

/* ---------------------------------------------------------------- colours */

enum { CD_WHITE = 0, CD_BLACK = 1 };

/* ---------------------------------------------------------------- rules */

/* Board geometries. Internally each is a bitboard with ghost squares. */
typedef enum cd_geometry_id {
    CD_GEOM_8X8 = 0,  /* 32 playable squares */
    CD_GEOM_10X10,    /* 50 */
    CD_GEOM_12X12,    /* 72 */
    CD_GEOM_10X8,     /* 10 files x 8 ranks, 40 squares */
    CD_GEOM_8X8_FULL, /* all 64 cells playable (Turkish): square n = row * 8 + col + 1 */
    CD_GEOM_COUNT
} cd_geometry_id;

/* Capture precedence: which of the possible captures are legal. */
typedef enum cd_precedence {
    CD_PREC_FREE = 0, /* any capture (Russian, English, Pool) */
    CD_PREC_MAJORITY, /* most pieces, kings count 1 (International) */
    CD_PREC_SPANISH,  /* most pieces, then most kings (Spanish, Portuguese) */
    CD_PREC_ITALIAN,  /* most pieces, then with a king, then most kings, then king met first */
    CD_PREC_CZECH,    /* a king must capture if a king can; otherwise free */
    CD_PREC_VALUE     /* Frisian: highest value, a king worth just under 2 men (men + 2 kings,
                         then fewer kings), then a capture with a king; then free (10x10 only) */
} cd_precedence;

/* What happens to a man that reaches the promotion row during a capture. */
typedef enum cd_promotion {
    CD_PROMO_END = 0,  /* continues as a man; crowned only if the move ends there */
    CD_PROMO_CONTINUE, /* crowned at once and continues capturing as a king (Russian) */
    CD_PROMO_STOP      /* the move ends there and the man is crowned */
} cd_promotion;

/* Halt rule for the final landing square of a king capture. */
typedef enum cd_halt {
    CD_HALT_NONE = 0,
    CD_HALT_KILLER, /* land right behind the last piece if that piece is a king */
    CD_HALT_MODERN, /* the same, only when two or more pieces are captured */
    CD_HALT_EVERY   /* Thai (8x8 only): a king lands right behind every piece it captures */
} cd_halt;

/* How a game is won. */
typedef enum cd_goal {
    CD_GOAL_NORMAL = 0,  /* the side without a move loses */
    CD_GOAL_LOSING,      /* antidraughts: the side without a move wins */
    CD_GOAL_BREAKTHROUGH /* the first side to crown a king wins */
} cd_goal;

/* Rule flags (cd_rules.flags). */
#define CD_RULE_CONSTITUTIONAL  0x0001u /* Rule C for non-capturing king moves */
#define CD_CON_OBSTRUCT_BY_MEN  0x0002u /* switch: men threats also obstruct (non-standard) */
#define CD_CON_ORIGIN_OCCUPIED  0x0004u /* switch: threat judged with the origin still occupied */
#define CD_CON_SAC_KINGS_ONLY   0x0008u /* switch: only a king capture makes a sacrifice square */
#define CD_CON_NO_PASS_TO_SAC   0x0010u /* switch: may not pass a threatened square at all */
#define CD_RULE_KEEP_DUPLICATES 0x0100u /* count every capture path (default: FMJD drop) */
#define CD_RULE_MEN_BACKWARD    0x0200u /* men capture backwards */
#define CD_RULE_FLYING_KINGS    0x0400u /* kings move and capture any distance */
#define CD_RULE_MEN_TAKE_KINGS  0x0800u /* men may capture kings */
#define CD_RULE_ALGEBRAIC       0x1000u /* the variant writes algebraic squares */
#define CD_RULE_MIRRORED        0x2000u /* bottom-left corner is not a playing square */
#define CD_RULE_ORTHOGONAL      0x4000u /* captures also along ranks and files (10x10 only) */
/* Hoogland (docs/variants.md): kings also capture enemy kings along ranks and files (10x10). */
#define CD_RULE_HOOGLAND   0x8000u
#define CD_HOOG_KINGS_ONLY 0x10000u /* switch: only while only kings are on the board */
#define CD_HOOG_FIRST_JUMP 0x20000u /* switch: an orthogonal jump only as the first jump */
/* Folk rules of the Russian row (docs/variants.md). */
#define CD_RULE_NORTHERN       0x40000u  /* a captured king becomes a man instead of leaving */
#define CD_RULE_SAMOYED        0x80000u  /* pieces of either colour are captured */
#define CD_RULE_STAVROPOL      0x100000u /* a player may move the opponent's pieces too */
#define CD_RULE_TWO_MOVE       0x200000u /* each turn is two moves by the same player */
#define CD_RULE_DIAGONAL_START 0x400000u /* men start in the double corners (2, 4, 6) */
/* Thai (8x8 only): a jumped piece leaves the board at once (it blocks nothing afterwards). */
#define CD_RULE_REMOVE_AT_ONCE 0x800000u

/* Draw-rule flags (cd_rules.draw). All are "on" when set. */
#define CD_DRAW_REPETITION   0x0001u /* n-fold repetition (cd_rules.repetitions) */
#define CD_DRAW_KINGS_ONLY   0x0002u /* no capture and no man move for no_progress moves each */
#define CD_DRAW_FMJD_ENDGAME 0x0004u /* FMJD 16-move (3v1 ...) and 5-move (2v1, 1v1) rules */
#define CD_DRAW_RUSSIAN_ENDGAME                                                                    \
    0x0008u                      /* FMJD-64 15-move 3v1 and 30/60-move equal-balance rules         \
                                  */
#define CD_DRAW_POOL_3V1 0x0010u /* APCA: 3 kings vs 1 must win within 13 moves */
/* Frisian: kings only, 2 against 1 drawn after 7 moves each, 1 against 1 after 2 moves each */
#define CD_DRAW_FRISIAN_ENDGAME 0x0020u

/*
 * One variant = one row of data. Every built-in variant is a const row; to
 * play with a switch, copy a row into your own cd_rules, change it, and pass
 * a pointer to it (it must outlive every position made from it).
 */
typedef struct cd_rules {
    const char *name;     /* canonical name, e.g. "constitutional" */
    const char *title;    /* human name, e.g. "Constitutional draughts" */
    const char *gametype; /* PDN GameType tag value, e.g. "20" ("20,W,10,10,N2,0" style) */
    cd_geometry_id geometry;
    int first;      /* CD_WHITE or CD_BLACK: who moves first */
    int men_rows;   /* rows of men per side in the setup */
    unsigned flags; /* CD_RULE_* and CD_CON_* */
    cd_precedence precedence;
    cd_promotion promotion;
    cd_halt halt;
    cd_goal goal;
    char capture_sep; /* 'x' or ':' in move text */
    unsigned draw;    /* CD_DRAW_* */
    int repetitions;  /* 3 = threefold; 4 for Italian */
    int no_progress;  /* moves per side for CD_DRAW_KINGS_ONLY (25 International) */
    int king_moves;   /* Frisian: a king may make at most this many consecutive non-capturing
                         moves while its side has men (3); 0: no limit (10x10 only) */
} cd_rules;

/* The built-in row for a name or alias (case-insensitive), or NULL. */
const cd_rules *cd_rules_find(const char *name);
/* The i-th built-in row (0..), or NULL past the end. */
const cd_rules *cd_rules_at(int i);
/* Playable squares of the rules' board (32, 50, 72, 40 or 64). */
int cd_rules_squares(const cd_rules *r);
/* Board width and height in cells. */
int cd_rules_width(const cd_rules *r);
int cd_rules_height(const cd_rules *r);

/* ---------------------------------------------------------------- position */

/*
 * The state behind the king-move limit (cd_rules.king_moves), per colour: the
 * king whose consecutive non-capturing moves are being counted (its internal
 * bit index) and how many it has made, 0 = none. A non-capturing move of that
 * king adds one, of another king starts a new count of 1; a man move or a
 * capture clears it, and so does losing that king or the last man. When the
 * count reaches the limit that king has no non-capturing move (it may still
 * capture). Invariants: len[c] == 0 implies sq[c] == 0; len[c] > 0 implies
 * 1 <= len[c] <= king_moves, a king of colour c on bit sq[c], and colour c has
 * men. Positions read from FEN, Hub or DXP strings (which cannot say it) start
 * with no count.
 */
typedef struct cd_king_run {
    uint8_t sq[2];  /* [colour] internal bit index of the counted king (0 when none) */
    uint8_t len[2]; /* [colour] its consecutive non-capturing moves, 0 = none */
} cd_king_run;

/*
 * A position is a small value: copy it freely (copy-make). Fields are the
 * library's internal representation (bitboards in the geometry's ghost-square
 * layout); read them through the functions below.
 * Invariants: white and black are disjoint, kings is a subset of their union,
 * no bit is set outside the board's playable squares, `run` as described
 * above, `second` is 0 unless the rules have CD_RULE_TWO_MOVE, and key is the
 * Zobrist key of pieces, side to move, run and second.
 */
typedef struct cd_position {
    uint64_t white[2]; /* [0] low word, [1] high word (12x12 only) */
    uint64_t black[2];
    uint64_t kings[2];
    uint64_t key;          /* Zobrist key of pieces, side to move and run */
    const cd_rules *rules; /* the variant; never NULL in a valid position */
    int side;              /* CD_WHITE or CD_BLACK: side to move */
    cd_king_run run;       /* king-move limit state (all zero unless rules->king_moves) */
    uint8_t second;        /* CD_RULE_TWO_MOVE: 1 while `side` makes the second move of its
                              turn (0 otherwise, and in every position read from text) */
} cd_position;

/* Piece codes returned by cd_position_piece. */
enum { CD_EMPTY = 0, CD_WHITE_MAN, CD_BLACK_MAN, CD_WHITE_KING, CD_BLACK_KING };

/* The variant's start position. */
void cd_position_start(cd_position *pos, const cd_rules *rules);
/* An empty board with `side` to move. */
void cd_position_empty(cd_position *pos, const cd_rules *rules, int side);
/* The piece on square number sq (1..squares), or -1 if sq is out of range. */
int cd_position_piece(const cd_position *pos, int sq);
/* Put a piece code on square sq (CD_EMPTY clears it). Keeps the key right. */
cd_result cd_position_set(cd_position *pos, int sq, int piece);
/* Number of pieces: colour CD_WHITE/CD_BLACK, kings 0 = men, 1 = kings, -1 = both. */
int cd_position_count(const cd_position *pos, int colour, int kings);
/* The king-move limit state of `colour` (cd_king_run): the count, 0 if none; *sq (may be
 * NULL) gets the counted king's square number (0 if none). */
int cd_position_king_run(const cd_position *pos, int colour, int *sq);
/* Set it: `count` non-capturing moves in a row by the king of `colour` on square sq (count 0
 * clears it). CD_ERR_ARG unless the rules have a limit, 0 <= count <= the limit, and for
 * count > 0 a king of that colour stands on sq and the colour has men. Keeps the key right. */
cd_result cd_position_set_king_run(cd_position *pos, int colour, int sq, int count);
/* Two-move rule (CD_RULE_TWO_MOVE): make the side to move be at the second move of its turn
 * (1) or the first (0), which a FEN cannot say. CD_ERR_ARG for other rules. Keeps the key
 * right. */
cd_result cd_position_set_second(cd_position *pos, int second);
/* Check that the position could occur: piece counts, men on promotion rows, the king-move
 * limit state, the two-move state. */
cd_result cd_position_validate(const cd_position *pos, char *err, size_t errlen);

/*
 * PDN FEN: "W:W31-50:B1-20", "B:WK4,28:BK12", ranges, K prefix, an empty side
 * ("W:W:B1"), spaces, and trailing ":H0:F1" fields are accepted; algebraic
 * squares for algebraic variants. The position is validated; on error `pos`
 * is unchanged.
 */
cd_result cd_position_from_fen(cd_position *pos, const cd_rules *rules, const char *fen, char *err,
                               size_t errlen);
/* Write the PDN FEN (numeric squares, or algebraic when `algebraic`). */
size_t cd_position_to_fen(const cd_position *pos, int algebraic, char *buf, size_t len);

/* Hub position string: side ('W'/'B') then one of 'w','b','W','B','e' per square. */
cd_result cd_position_from_hub(cd_position *pos, const cd_rules *rules, const char *s, char *err,
                               size_t errlen);
size_t cd_position_to_hub(const cd_position *pos, char *buf, size_t len);
/* DXP position string: side then one of 'w','z','W','Z','e' per square. */
cd_result cd_position_from_dxp(cd_position *pos, const cd_rules *rules, const char *s, char *err,
                               size_t errlen);
size_t cd_position_to_dxp(const cd_position *pos, char *buf, size_t len);

/* ---------------------------------------------------------------- moves */

/*
 * A move is a small value: origin, destination, the set of captured pieces
 * (internal bitboard: low 64 bits + high 16 bits), the number captured and
 * flags. The capture path is recovered only when notation needs it.
 */
typedef struct cd_move {
    uint64_t captured;    /* captured squares, internal layout, low word */
    uint16_t captured_hi; /* high bits (12x12 only) */
    uint8_t from, to;     /* internal square indices */
    uint8_t ncaptured;
    uint8_t flags; /* CD_MOVE_* */
    uint16_t reserved;
} cd_move;

#define CD_MOVE_PROMOTES 0x01u /* a man becomes a king */
#define CD_MOVE_KING     0x02u /* the moving piece is a king */

#define CD_MAX_MOVES 768

typedef struct cd_movelist {
    int count;
    int overflow; /* 1 if more legal moves existed than CD_MAX_MOVES */
    cd_move moves[CD_MAX_MOVES];
} cd_movelist;

/* All legal moves of the side to move. Returns the count. */
int cd_generate(const cd_position *pos, cd_movelist *list);
/* Number of legal moves (faster than generating when no capture is on). */
int cd_count_moves(const cd_position *pos);
/* Copy-make: out = pos after m (out may equal pos). m must be legal in pos. */
void cd_play(const cd_position *pos, const cd_move *m, cd_position *out);

/* Square numbers of a move. */
int cd_move_from(const cd_position *pos, const cd_move *m);
int cd_move_to(const cd_position *pos, const cd_move *m);
/* Captured square numbers in ascending order; returns how many. */
int cd_move_captures(const cd_position *pos, const cd_move *m, int *squares, int max);
/* Two moves are the same move (same from, to and captured set). */
int cd_move_equal(const cd_move *a, const cd_move *b);

/* Hub form: "from-to" or "fromxtoxc1xc2..." (captured squares ascending, numeric). */
size_t cd_move_to_hub(const cd_position *pos, const cd_move *m, char *buf, size_t len);
/*
 * Standard notation in the variant's style: numeric "32-28" / "28x19", or
 * algebraic "c3-d4" / "c3:e5". Captures are written short (from x to) when no
 * other legal move shares from and to, else with the full path of landing
 * squares ("28x19x10"), and with the captured squares added when even the path
 * does not tell them apart. `algebraic`: -1 = the variant's default, 0 = numeric, 1 = algebraic.
 */
size_t cd_move_to_text(const cd_position *pos, const cd_move *m, int algebraic, char *buf,
                       size_t len);
/*
 * Parse move text against the legal moves of pos: accepts "-", "x", ":",
 * numeric or algebraic squares, short form, full landing path, and Hub form.
 * On CD_ERR_AMBIGUOUS/CD_ERR_ILLEGAL `err` lists the candidates / says why.
 */
cd_result cd_move_parse(const cd_position *pos, const char *text, cd_move *m, char *err,
                        size_t errlen);
/*
 * The legal moves of pos that move text names equally well (the matches
 * cd_move_parse would choose among): up to max of them into out (may be NULL),
 * returns how many there are (0: none, so the text is not legal here; more
 * than 1: ambiguous), or -1 when the text is malformed or memory ran out.
 */
int cd_move_candidates(const cd_position *pos, const char *text, cd_move *out, int max);

/* Landing squares of a capture, including the destination (not the origin). */
int cd_move_path(const cd_position *pos, const cd_move *m, int *squares, int max);

/* ---------------------------------------------------------------- squares */

/* Square number <-> text in the variant's notation. */
size_t cd_square_to_text(const cd_rules *r, int sq, int algebraic, char *buf, size_t len);
/* Parse a square ("32" or "c3"); returns the number or 0 on error; *end gets the stop. */
int cd_square_parse(const cd_rules *r, const char *s, const char **end);
/* Row (0 = top, White's view) and column (0 = left) of a square number on the real board. */
int cd_square_row(const cd_rules *r, int sq);
int cd_square_col(const cd_rules *r, int sq);

/* ---------------------------------------------------------------- game */

/*
 * A game: the start position, the moves played, and the result with its
 * reason. The draw rules come from the variant row (cd_rules.draw) and can
 * be switched per game. An opaque handle: create with cd_game_new, free with
 * cd_game_free.
 */
typedef struct cd_game cd_game;

typedef enum cd_status { CD_ONGOING = 0, CD_WHITE_WINS, CD_BLACK_WINS, CD_DRAW } cd_status;

typedef enum cd_reason {
    CD_REASON_NONE = 0,
    CD_REASON_NO_PIECES,    /* the loser (winner in antidraughts) has no pieces left */
    CD_REASON_NO_MOVES,     /* ... has pieces but no legal move */
    CD_REASON_BREAKTHROUGH, /* a side crowned the first king (breakthrough) */
    CD_REASON_REPETITION,   /* the same position, same side to move, n times */
    CD_REASON_NO_PROGRESS,  /* no capture and no man move for the variant's number of moves */
    CD_REASON_ENDGAME,      /* an endgame move-count rule (FMJD, FMJD-64, APCA, Frisian) */
    CD_REASON_AGREEMENT,
    CD_REASON_RESIGNATION,
    CD_REASON_TIME
} cd_reason;

/* A new game from `start` (NULL: the variant's start position). NULL on allocation failure. */
cd_game *cd_game_new(const cd_rules *rules, const cd_position *start);
void cd_game_free(cd_game *g);
/* The draw rules in force (CD_DRAW_* flags); defaults to rules->draw. */
unsigned cd_game_draw_rules(const cd_game *g);
void cd_game_set_draw_rules(cd_game *g, unsigned draw);
/* The current position, and the position before ply i (0 = start). */
const cd_position *cd_game_position(const cd_game *g);
const cd_position *cd_game_position_at(const cd_game *g, int ply);
/* Number of moves (plies) played and the i-th of them (0-based). */
int cd_game_ply(const cd_game *g);
const cd_move *cd_game_move(const cd_game *g, int i);
/* Play a legal move of the current position. CD_ERR_ILLEGAL if it is not
 * legal, CD_ERR_ARG if the game is over; the game is unchanged on error. */
cd_result cd_game_play(cd_game *g, const cd_move *m);
/* Parse move text (cd_move_parse) and play it. */
cd_result cd_game_play_text(cd_game *g, const char *text, char *err, size_t errlen);
/* Take back the last move (also clears a result). Returns 1 if a move was undone. */
int cd_game_undo(cd_game *g);
/* A comment on the game (PDN's {...}): the one after the move that led to position `ply`
 * (1..cd_game_ply), or before the first move (0); NULL when there is none. Undo drops the
 * comment of the position it leaves. */
const char *cd_game_comment(const cd_game *g, int ply);
/* Set the comment at `ply` (0..cd_game_ply) to a copy of text, or remove it (NULL).
 * CD_ERR_ARG for a ply out of range, CD_ERR_OVERFLOW out of memory. */
cd_result cd_game_set_comment(cd_game *g, int ply, const char *text);
/* End the game by resignation, agreement or time. `colour` resigns / loses on time. */
void cd_game_resign(cd_game *g, int colour);
void cd_game_agree_draw(cd_game *g);
void cd_game_time_loss(cd_game *g, int colour);
/* The result so far; *reason (may be NULL) says why. */
cd_status cd_game_status(const cd_game *g, cd_reason *reason);
/* English text for a reason, e.g. "threefold repetition". */
const char *cd_reason_str(cd_reason r);
/* PDN result string: "2-0", "0-2", "1-1" (10x10/12x12) or "1-0", "0-1", "1/2-1/2" (8x8), "*".
 * The first score is the first mover's: in English, pool and Thai (Black moves first) a Black
 * win is "1-0", as the English PDN files write it. */
const char *cd_status_pdn(const cd_rules *r, cd_status s);

/* ---------------------------------------------------------------- constitutional */

/*
 * For front ends that show the rule (`condraughts show`, the browser board's highlight):
 * the capture zone of the king on square sq (the article's green fields): the
 * squares where an enemy king, standing alone there, could be captured by this
 * king in one jump, the other pieces blocking as they stand. Square numbers in
 * ascending order; returns the count (0 if sq holds no king).
 */
int cd_king_zone(const cd_position *pos, int sq, int *squares, int max);

/* ---------------------------------------------------------------- engine */

/*
 * The engine: iterative deepening alpha-beta (PVS) with a transposition
 * table, capture quiescence and per-variant evaluation. A cd_engine holds the
 * table and the move-ordering state; one search runs on it at a time.
 * cd_engine_stop and cd_engine_ponderhit may be called from another thread
 * while cd_search runs.
 *
 * Scores are from the side to move's point of view, in hundredths of a man.
 * A won position scores CD_SCORE_WIN - plies to the win; lost the negative.
 */
#define CD_SCORE_WIN       30000
#define CD_SCORE_IS_WIN(s) ((s) > CD_SCORE_WIN - 1000 || (s) < -(CD_SCORE_WIN - 1000))
#define CD_MAX_PLY         128

typedef struct cd_engine cd_engine;

/* A new engine with a transposition table of tt_mb MiB (0: the default 64). NULL on failure. */
cd_engine *cd_engine_new(size_t tt_mb);
void cd_engine_free(cd_engine *e);
/* Resize (and clear) the transposition table. */
cd_result cd_engine_set_hash(cd_engine *e, size_t tt_mb);
/* Forget everything learned (new game), and a stop that arrived after the last search ended.
 * Not while a search runs. */
void cd_engine_clear(cd_engine *e);

typedef struct cd_limits {
    int depth;              /* maximum depth in plies (0: no limit) */
    uint64_t nodes;         /* node budget (0: no limit) */
    double movetime;        /* seconds for this move (0: not given) */
    double time[2], inc[2]; /* clock of each colour in seconds, increment per move (0: none) */
    int moves_to_go;        /* moves to the next time control (0: sudden death) */
    int infinite;           /* search until cd_engine_stop */
    int ponder;             /* start pondering: no time limit until cd_engine_ponderhit */
    int multipv;            /* number of lines to report (0/1: one) */
} cd_limits;

typedef struct cd_search_info {
    int depth;    /* completed iteration */
    int seldepth; /* deepest ply reached */
    int multipv;  /* 1-based line number */
    int score;
    uint64_t nodes;
    double time; /* seconds since the search started */
    double nps;
    int pvlen;
    cd_move pv[CD_MAX_PLY];
} cd_search_info;

typedef void (*cd_info_fn)(const cd_search_info *info, void *user);

typedef struct cd_search_result {
    cd_move best;   /* valid if has_move */
    cd_move ponder; /* the expected reply, valid if has_ponder */
    int has_move, has_ponder;
    int score, depth;
    uint64_t nodes;
    double time;
} cd_search_result;

/*
 * Search the current position of game g (its history counts for repetition
 * draws) within the limits. on_info (may be NULL) is called after each
 * completed iteration (and each multipv line) from the searching thread.
 * Returns CD_ERR_ARG if the game is already over (then has_move is 0).
 */
cd_result cd_search(cd_engine *e, const cd_game *g, const cd_limits *limits, cd_info_fn on_info,
                    void *user, cd_search_result *out);
/*
 * A played move judged by two searches, as `condraughts pdn annotate` and the web server's
 * review judge it. best: the score of the position before the move (its side to move's view: the
 * best move's score); after: the score of the position after it (the next side to move's view);
 * is_best: the move played is the best move found. The loss, in hundredths of a man for the side
 * that moved, is best + after with scores beyond +-CD_LOSS_CAP counted as CD_LOSS_CAP (a win is
 * 10 men), 0 for the best move, never negative.
 */
#define CD_LOSS_CAP  1000
#define CD_LOSS_MARK 50 /* the default mark: '?' from half a man ('?!' from a quarter) */
int cd_move_loss(int best, int after, int is_best);
/* The mark of a loss (hundredths of a man) against mark (hundredths, > 0), a level ordered by
 * the loss: CD_MARK_NONE, CD_MARK_DUBIOUS '?!' from half of mark (2 * loss >= mark),
 * CD_MARK_MISTAKE '?' from mark, CD_MARK_BLUNDER '??' from 3 * mark. */
enum { CD_MARK_NONE, CD_MARK_DUBIOUS, CD_MARK_MISTAKE, CD_MARK_BLUNDER, CD_MARK_LEVELS };
int cd_loss_mark(int loss, int mark);
/* The mark's text: "", "?!", "?" or "??" (level out of range: ""). */
const char *cd_mark_text(int level);

/* Ask a running search to stop and return its best move (thread-safe). */
void cd_engine_stop(cd_engine *e);
/* The opponent played the expected move: a pondering search now keeps to its time limits. */
void cd_engine_ponderhit(cd_engine *e);

/*
 * Engine options, by name, each an int: "threads" (search threads sharing the table, 1-64;
 * CD_ERR_OVERFLOW if out of memory), "contempt" (0-100, default 0: a draw is worth -contempt
 * hundredths of a man to the side to move at the root of each search and +contempt to its
 * opponent, so the engine plays on where a draw was equal to it; for play against weaker
 * opponents: CD_PLAY_CONTEMPT; analysis keeps 0), "classic-eval" (1: the hand-set evaluation
 * instead of the learned one), "drawscale" and "net" (the learned evaluation's choices).
 * cd_engine_option_at lists them with their defaults, ranges and meanings. The search's tuned
 * parameters are constants; a tuning build (`make tune`) also takes them by name here
 * (src/core/search_params.h). The front ends pass options through by name: Hub's `set-param`,
 * a match player `self:contempt=20` (src/cli/match_player.c), the CLI's --threads.
 * CD_ERR_ARG for an unknown name or a value out of range (a switch, range 0 to 1, takes any
 * value: nonzero is on).
 */
cd_result cd_engine_set_option(cd_engine *e, const char *name, int value);
/* Whether `name` is an engine option (1, with its smallest and largest values in *lo and *hi)
 * or not (0). */
int cd_engine_option_range(const char *name, int *lo, int *hi);
/* The engine's options in order: option i (from 0) in *out and 1, or 0 past the last. */
typedef struct cd_option_info {
    const char *name;
    const char *about; /* one line */
    int def, lo, hi;
} cd_option_info;
int cd_engine_option_at(int i, cd_option_info *out);
/* The contempt the front ends give the engine when it plays a person (the web site's computer
 * opponent, `condraughts play`): measured against the engine before issue 13 in docs/strength.md.
 */
#define CD_PLAY_CONTEMPT 20

/* Endgame tables: the handle of the "endgame tablebases" section below. */
typedef struct cd_egtb cd_egtb;
/* Probe these endgame tables in the search (NULL: none). The tables are not owned and
 * must outlive the searches. */
void cd_engine_set_egtb(cd_engine *e, cd_egtb *tb);

/*
 * The learned evaluation (docs/training.md) as a value: a cd_eval holds, for each learned family
 * (cd_eval_family: international, constitutional, russian, killer, modern, brazilian and the
 * constitutional rows of Russian and Brazilian), the family's pattern weights (the image of a
 * weights file, CDW1: src/core/pattern.h) and the network stacked on them (a network file, CDN1:
 * src/core/net.h), or nothing. A variant without a family, or a family the set has no weights
 * for, is evaluated by hand.
 *
 * Ownership: the caller makes the set (cd_eval_new), fills it from file images in memory (the
 * library opens no file: `condraughts` reads the weights folder, src/eval_io/), hands it to any
 * number of engines (cd_engine_set_eval, by pointer, not copied) and frees it after the last
 * engine that uses it is freed or given another.
 * Immutability and threads: adding is only for building the set (not thread-safe, before it is
 * handed to an engine); a family's weights and network, once added, never change (adding again
 * is refused), so engines and their search threads read one set at once with no lock.
 */
typedef struct cd_eval cd_eval;

/* An empty set (every variant evaluated by hand); NULL out of memory. */
cd_eval *cd_eval_new(void);
/* Free the set with its weights and networks (NULL: nothing). */
void cd_eval_free(cd_eval *ev);
/* The name of learned family i (0, 1, ...; NULL past the last): the name in its files' headers
 * and of its files (NAME.cdw, NAME.cdn), at most 15 characters. */
const char *cd_eval_family(int i);
/* Add the pattern weights of a weights file's image (len bytes, read only during the call) for
 * the family its header names; with family not NULL, the image must hold that family's. On a
 * fault nothing is added and err says what: CD_ERR_IO for the image (not a weights file, its
 * version, sizes or checksum, "it holds the weights of 'X'"), CD_ERR_ARG when the set has the
 * family's weights already, CD_ERR_OVERFLOW out of memory. */
cd_result cd_eval_add_weights(cd_eval *ev, const char *family, const unsigned char *img, size_t len,
                              char *err, size_t errlen);
/* Stack the network of a network file's image on its family's weights, which must be in the set
 * and be the ones it was trained on (its base checksum). CD_ERR_IO with err on a fault (the
 * image, "it holds the network of 'X'" when family is not NULL and not its family, another
 * board, weights missing or of another checksum, a network there already). */
cd_result cd_eval_add_net(cd_eval *ev, const char *family, const unsigned char *img, size_t len,
                          char *err, size_t errlen);
/* 1 if the set evaluates the variant with learned weights (ev NULL: 0). */
int cd_eval_learned(const cd_eval *ev, const cd_rules *r);

/* The learned evaluation the engine searches with (NULL, the default: the hand-set one for every
 * variant). Not copied: ev must outlive the engine's searches. Set it between searches. */
void cd_engine_set_eval(cd_engine *e, const cd_eval *ev);

/* Static evaluation of a position (side to move's view) with the set ev (NULL: by hand): the
 * learned score with its network where ev has the family's weights, without the engine options'
 * scalings. Public for tests and tools that check the evaluation from outside the library
 * (tests/test_pattern.c, tests/test_turkish.c). */
int cd_evaluate(const cd_eval *ev, const cd_position *pos);

/*
 * bench: fixed positions from several variants searched to a fixed depth,
 * one thread, cleared table, with the evaluation ev (the shipped weights in
 * `condraughts bench`; NULL: by hand). *nodes gets the total node count (the
 * functional signature) and *seconds the time. Public so that every front end
 * can run it (`condraughts bench`, CI's bench-check), as perft below.
 */
void cd_bench(const cd_eval *ev, int depth, uint64_t *nodes, double *seconds);

/* ---------------------------------------------------------------- PDN */

/*
 * PDN 3.0 games (Portable Draughts Notation, W. Wesselink's draft standard).
 *
 * Squares are read and written in the library's numbering (see "Squares"
 * above), for every variant; Spanish and Portuguese files that use their own
 * numbering (our 33 - n) are not translated.
 *
 * Tags. A cd_pdn_tags holds a game's tag pairs in file order: a small value
 * (copy it freely) with its own text space. Names are case-sensitive, start
 * with a letter and hold letters, digits and '_'.
 */
#define CD_PDN_MAX_TAGS  64   /* tag pairs kept per game */
#define CD_PDN_TAG_SPACE 8192 /* bytes for their names and values */
#define CD_PDN_MAX_NAME  64   /* longest tag name + 1 */
#define CD_PDN_MAX_VALUE 1024 /* longest tag value + 1 */
#define CD_PDN_MAX_DEPTH 64   /* deepest nesting of variations read */
#define CD_PDN_MAX_TOKEN 256  /* longest movetext word (a move with its number) read */

typedef struct cd_pdn_tags {
    int count;   /* tags kept */
    int dropped; /* tags read but not kept for lack of room */
    int used;    /* bytes of text in use */
    uint16_t name[CD_PDN_MAX_TAGS], value[CD_PDN_MAX_TAGS]; /* offsets into text */
    char text[CD_PDN_TAG_SPACE];
} cd_pdn_tags;

/* Empty the list. */
void cd_pdn_tags_init(cd_pdn_tags *t);
/* Set a tag (replacing one of the same name), or remove it when value is NULL.
 * CD_ERR_ARG for a bad name, CD_ERR_OVERFLOW when there is no room. */
cd_result cd_pdn_tag_set(cd_pdn_tags *t, const char *name, const char *value);
/* The value of tag `name`, or NULL. */
const char *cd_pdn_tag(const cd_pdn_tags *t, const char *name);
/* Name and value of the i-th tag (0..count-1), or NULL. */
const char *cd_pdn_tag_name(const cd_pdn_tags *t, int i);
const char *cd_pdn_tag_value(const cd_pdn_tags *t, int i);

/*
 * Write one game: the tags Event, Site, Date, Round, White, Black (from
 * `tags`, "?" when missing), Result (the game's cd_game_status), GameType
 * (rules->gametype when that number means these rules; else the number of
 * docs/pdn.md in PDN 3.0's long form, e.g. "60,W,10,10,N2,0" for
 * constitutional, so other programs cannot replay the game under the wrong
 * rules), Variant (when the rules are not their GameType's own row, e.g.
 * constitutional, killer), SetUp and FEN (when the game did not
 * start from the variant's start position), then every other tag of `tags`
 * (may be NULL) in order; a blank line; the movetext in the variant's notation
 * (cd_move_to_text) with move numbers and the game's comments as {...} where
 * they stand (cd_game_comment; a '}' in one is written as ')'), wrapped at 80
 * columns, and the result; a blank line. Returns the length needed (like
 * snprintf).
 */
size_t cd_pdn_write(const cd_game *g, const cd_pdn_tags *tags, char *buf, size_t len);

/*
 * Read one game from text, starting at offset *pos; *pos is advanced past the
 * game (and the white space after it), so calling again reads the next game.
 * When only white space and comments are left, returns CD_OK with *out NULL.
 *
 * The variant is the Variant tag's (cd_rules_find; `rules` itself when it has
 * that name, so a row with switches can be kept), else the GameType's (20
 * international, 21 english, 22 italian, 23 pool, 24 spanish, 25 russian,
 * 26 brazilian, 27 canadian, 28 portuguese, 29 czech, 30 turkish, 31 thai,
 * 40 frisian, 41 spantsiretti; lidraughts' 96 breakthrough, 97 frysk,
 * 98 antidraughts; the numbers cd_pdn_write gives the other rows, docs/pdn.md),
 * else `rules` (NULL: international). The start is the FEN tag's position
 * (a '?' side to move: the variant's first mover, else the other side when
 * the first move is legal only for it), else the variant's. Algebraic squares
 * of variants where Black moves first are seen from Black's side (GameType
 * notation A0, as playstrategy writes American/English).
 * The main line is replayed with cd_game_play (draw rules are switched off
 * while replaying, so a file that plays on is still read). The comments
 * {...} and ;... of the main line are kept in the game (cd_game_comment: at
 * the ply they follow, several at one ply joined by a space, white space
 * runs made one space), so that reading then writing keeps them and the
 * tags; %... lines, comments inside variations, variations (...), NAGs $n,
 * move numbers and annotations (! ? !! ?! (?) and a '*' attached to a move)
 * are skipped; a
 * move split by white space ("1- 6") is joined. Read with a warning: a
 * move '-' (not known; the rest of the main line is skipped), an ambiguous
 * capture of which exactly one path lets the rest of the main line replay
 * (that path is taken), a capture written as its single jumps ("b6xd4
 * 24. d4xb2"). A
 * game ends at its result (2-0 0-2 1-1 1-0 0-1 1/2-1/2 0-0 or a lone *), at
 * the next game's '[' or at the end; a tag name met twice in one header
 * starts the next game (a game of tags only). The result (the movetext's,
 * else the Result tag's) is recorded by cd_game_resign / cd_game_agree_draw
 * when the rules do not end the game, and a win also over a draw by a draw
 * rule; 0-0 and * leave the game as the rules have it.
 *
 * *out gets a new game (free with cd_game_free); tags (may be NULL) get the
 * tag pairs as read; err gets the game's first warning ("line L col C: ...")
 * or is empty. On error *out is NULL, err says what and where ("line L
 * col C: ...", counted from the start of text), and *pos is moved to the next
 * line that starts a game header, so the caller can go on with the next game.
 * Codes: CD_ERR_MOVE malformed PDN text (tags, movetext, unterminated comment
 * or variation), CD_ERR_ILLEGAL / CD_ERR_AMBIGUOUS a move of the main line,
 * CD_ERR_VARIANT unknown or inconsistent GameType/Variant, CD_ERR_FEN /
 * CD_ERR_POSITION the FEN tag, CD_ERR_OVERFLOW a length limit above or out
 * of memory, CD_ERR_ARG bad arguments.
 */
cd_result cd_pdn_read(const char *text, size_t *pos, const cd_rules *rules, cd_game **out,
                      cd_pdn_tags *tags, char *err, size_t errlen);

/* ---------------------------------------------------------------- endgame tablebases */

/*
 * Endgame tablebases: the exact value of every position with few pieces, for
 * any variant on 8x8 or 10x10 whose goal is the normal one (the side without
 * a move loses) or antidraughts'. One table per material signature (kings
 * and men of each side), both sides to move, built by retrograde analysis
 * (cd_egtb_build) and kept as files in a folder. Values are from the side to
 * move's view: win, draw or loss, with the distance in plies to the end of
 * the game under best play (the winner hurries, the loser delays; the game
 * ends when the side to move has no move). Move-count draw rules and
 * repetition do not shorten these distances: a value is what the position is
 * worth when the game is played out.
 *
 * A cd_egtb is a handle on a folder of tables for one rules row; tables are
 * read on first probe (mapped read-only where the system has mmap) and checked
 * (header, rules fingerprint, size, payload checksum). A table that is missing,
 * truncated or corrupt makes the probe answer CD_EGTB_UNKNOWN (and
 * cd_egtb_error says why), never a wrong value. A large table's checksum is
 * checked by a thread of its own: cd_egtb_probe waits for that check, and
 * cd_egtb_probe_ready (for a search against the clock) answers CD_EGTB_UNKNOWN
 * until it has passed. Probing is thread-safe. (The type cd_egtb is declared
 * with the engine, which takes one.)
 */

enum { CD_EGTB_UNKNOWN = -1, CD_EGTB_DRAW = 0, CD_EGTB_WIN = 1, CD_EGTB_LOSS = 2 };

#define CD_EGTB_MAX_PIECES 8

/* A material signature: kings and men of each side. */
typedef struct cd_egtb_material {
    int wk, wm, bk, bm;
} cd_egtb_material;

/* A handle on the tables of `rules` in folder dir (need not exist yet). NULL when the
 * rules cannot have tables (board not 8x8/10x10 dark squares, so not Turkish; breakthrough goal;
 * Frisian rules: orthogonal captures, value precedence, king-move limit) or out of memory. */
cd_egtb *cd_egtb_open(const cd_rules *rules, const char *dir);
void cd_egtb_close(cd_egtb *tb);
/* Tables whose payload is at most `bytes` (default 1 MB) are checked at their first probe,
 * larger ones by a thread of their own (above). */
void cd_egtb_set_check_sync(cd_egtb *tb, size_t bytes);
/* The last error met (missing or bad table file), or "" . */
const char *cd_egtb_error(const cd_egtb *tb);
/* Number of pieces of the largest table read or built so far (0 if none): tables are read on
 * first probe, so a fresh handle says 0 whatever the folder holds. */
int cd_egtb_pieces(const cd_egtb *tb);

/* The value of pos (CD_EGTB_WIN/DRAW/LOSS for the side to move) and, for a
 * win or loss, *dist = plies to the end; CD_EGTB_UNKNOWN if not in the tables. */
int cd_egtb_probe(cd_egtb *tb, const cd_position *pos, int *dist);
/* The same, except that a table being checked (above) answers CD_EGTB_UNKNOWN at once. */
int cd_egtb_probe_ready(cd_egtb *tb, const cd_position *pos, int *dist);

/* Progress of a build: the signature being built (e.g. "KK_K"), its phase,
 * work done and total in the phase, and the whole build's positions done and total. */
typedef void (*cd_egtb_progress_fn)(const char *sig, const char *phase, uint64_t done,
                                    uint64_t total, uint64_t all_done, uint64_t all_total,
                                    void *user);

/*
 * Build (and write to the folder) every table of up to `pieces` pieces, and
 * the kings-only tables up to `kings_pieces` (may be larger), skipping those
 * already on disk and valid. `threads` worker threads (>= 1). Returns CD_OK,
 * or an error with a message (CD_ERR_ARG bad arguments, a table too large or
 * one it needs missing; CD_ERR_OVERFLOW out of memory; CD_ERR_IO a file could
 * not be written).
 */
cd_result cd_egtb_build(cd_egtb *tb, int pieces, int kings_pieces, int threads,
                        cd_egtb_progress_fn progress, void *user, char *err, size_t errlen);

/* Counts of one signature with `side` to move, from the side to move's view,
 * every position once (identical pieces unordered), and the longest win with
 * an example position. The table must exist (CD_ERR_IO with a message if not). */
typedef struct cd_egtb_stats {
    uint64_t wins, draws, losses;
    int longest;         /* plies of the longest win, 0 if none */
    cd_position example; /* a position of the longest win */
} cd_egtb_stats;
cd_result cd_egtb_stats_of(cd_egtb *tb, cd_egtb_material m, int side, cd_egtb_stats *st, char *err,
                           size_t errlen);

/* Call fn on every position of signature m with `side` to move, with its value and
 * distance, in index order; stops early when fn returns nonzero. The table must exist
 * (CD_ERR_IO with a message if not). */
typedef int (*cd_egtb_each_fn)(const cd_position *pos, int value, int dist, void *user);
cd_result cd_egtb_each(cd_egtb *tb, cd_egtb_material m, int side, cd_egtb_each_fn fn, void *user,
                       char *err, size_t errlen);

/* ---------------------------------------------------------------- opening book */

/*
 * An opening book (src/core/book.c; its file, CDBK, byte by byte in docs/formats.md; how the
 * shipped one is made in docs/book.md): for positions of one variant, one or more moves, each
 * with the score and depth of the search that chose it, ranked (0 the first). The library opens
 * no file: a book is read from a file's image in memory (cd_book_read) and written to one
 * (cd_book_write); `condraughts book build` makes one, the front ends read it.
 *
 * A position's key (cd_book_key) is FNV-1a 64 over the variant's name, the side to move, the
 * piece on every square in square-number order, the king-move counts and the two-move state:
 * fixed by the rules of the game and this definition, the same on every machine and build (not
 * the engine's Zobrist key). A move is kept as its square numbers (from, to) and its captured
 * squares (their count and an FNV-1a 32 of their numbers), and played only if exactly that move
 * is legal in the probed position: an entry that matches no legal move is skipped.
 *
 * Representation: the entries in one array sorted by (key, rank), ranks 0..k-1 for a position's
 * k moves; a book is changed only by cd_book_add (not thread-safe) and read by any number of
 * threads at once after.
 */
typedef struct cd_book cd_book;

typedef struct cd_book_move {
    cd_move move; /* legal in the probed position */
    int score;    /* the search's score, hundredths of a man, side to move's view */
    int depth;    /* the search's completed depth */
    int rank;     /* the entry's rank in the book (0: the first) */
} cd_book_move;

/* The book key of a position (see above). */
uint64_t cd_book_key(const cd_position *pos);
/* An empty book for a variant (NULL out of memory). */
cd_book *cd_book_new(const cd_rules *rules);
void cd_book_free(cd_book *b);
/* Add legal move m of pos with its score and depth, ranked after the position's moves already in
 * the book. CD_ERR_ARG if pos is of another variant, m is not legal in pos or is in the book for
 * pos already; CD_ERR_OVERFLOW out of memory or past 255 moves a position. */
cd_result cd_book_add(cd_book *b, const cd_position *pos, const cd_move *m, int score, int depth);
/* The book of a file's image (len bytes, read only during the call). NULL on a fault, with one
 * line in err saying what: not a book (its magic), its version, a variant this library does not
 * know, truncated or too long for its header, a checksum that does not match, an entry out of
 * order or out of range (naming the entry), out of memory. */
cd_book *cd_book_read(const unsigned char *img, size_t len, char *err, size_t errlen);
/* The file image of a book, malloc'ed, in *img (free it); its length, or 0 out of memory. The
 * same book gives the same bytes on every machine. */
size_t cd_book_write(const cd_book *b, unsigned char **img);
/* The book's variant and its number of entries (moves). */
const cd_rules *cd_book_rules(const cd_book *b);
size_t cd_book_entries(const cd_book *b);
/* The book's legal moves for pos in rank order, at most max into out; the number found (0: not
 * in the book, or pos of another variant; b NULL: 0). */
int cd_book_probe(const cd_book *b, const cd_position *pos, cd_book_move *out, int max);

/* ---------------------------------------------------------------- perft */

/* Number of leaf nodes at depth (bulk counting at the last ply). */
uint64_t cd_perft(const cd_position *pos, int depth);

#ifdef __cplusplus
}
#endif
#endif
