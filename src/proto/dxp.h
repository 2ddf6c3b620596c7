/*
 * dxp.h -- the DamExchange protocol (DXP) codec (dxp_codec.c): message
 * encoding and decoding on buffers, message framing, moves <-> MOVE messages.
 * Pure: no I/O. The dialogue of a connection is dxp_session.h, the
 * `condraughts dxp` command src/cli/dxp_cmd.h.
 *
 * DXP (http://www.mesander.nl/damexchange/edxpmain.htm) lets two draughts
 * programs play over a TCP stream socket (port 27531). Every message is 1 to
 * 127 ASCII characters (values 1..127) followed by a '\0'; its first character
 * is its type. All numbers are fixed-width, zero-padded decimal.
 *
 *   C  CHAT     text (1..126 characters)
 *   R  GAMEREQ  version(2) name(32) follower-colour(1: W/Z) minutes(3) moves(3)
 *               start(1: 'A' = the standard start, 'B' = a position follows)
 *               ['B' only: side to move(1: W/Z) squares(1 per square: w z W Z e)]
 *   A  GAMEACC  name(32) code(1: 0 accept, 1 wrong version, 2 not this game, 3 no games)
 *   M  MOVE     seconds(4) from(2) to(2) count(2) captured squares(2 each)
 *   E  GAMEEND  reason(1: 0 none, 1 I resign, 2 draw, 3 I win) stop(1: 0 next game ok, 1 stop)
 *   B  BACKREQ  move number(3) colour to move(1: W/Z)
 *   K  BACKACC  code(1: 0 accepted, 1 not supported, 2 refused)
 *
 * DXP has no variant field; both programs must agree on the variant out of
 * band. Squares are condraughts square numbers (the 10x10 numbering applied
 * to every board, see README), so an 8x8 GAMEREQ position has 32 squares and
 * a 12x12 one 72. The session (`dxp --numbering variant`) can put the squares
 * of MOVE messages in pydraughts' numbering instead; the codec does not.
 */
#ifndef CD_PROTO_DXP_H
#define CD_PROTO_DXP_H

#include <stddef.h>

#include "condraughts.h"

#define CD_DXP_PORT     27531
#define CD_DXP_MAX_LEN  127 /* characters in a message, without the terminating '\0' */
#define CD_DXP_NAME_LEN 32
/* The most captured squares a MOVE of at most CD_DXP_MAX_LEN characters can list. */
#define CD_DXP_MAX_CAPTURES ((CD_DXP_MAX_LEN - 11) / 2)

enum {
    CD_DXP_CHAT = 'C',
    CD_DXP_GAMEREQ = 'R',
    CD_DXP_GAMEACC = 'A',
    CD_DXP_MOVE = 'M',
    CD_DXP_GAMEEND = 'E',
    CD_DXP_BACKREQ = 'B',
    CD_DXP_BACKACC = 'K'
};

/* One message. Only the fields of its type are used. */
typedef struct cd_dxp_msg {
    int type; /* CD_DXP_* */
    /* R */
    int version; /* protocol version, 1 */
    int colour;  /* R: the follower's colour; B: the colour to move (CD_WHITE/CD_BLACK) */
    int minutes; /* thinking time per player for the whole game, 0..999 */
    int moves;   /* moves for the whole game, 0..999 (0: no limit) */
    int setup;   /* 0: standard start ('A'); 1: `position` follows ('B') */
    char position[CD_DXP_MAX_LEN + 1]; /* side to move ('W'/'Z') then the squares */
    /* R, A */
    char name[CD_DXP_NAME_LEN + 1]; /* program name, leading/trailing blanks removed */
    /* A: acceptance code; E: reason; K: acceptance code (0..9) */
    int code;
    /* E */
    int stop; /* stop code (0..9) */
    /* M */
    int seconds;   /* 0..9999 */
    int from, to;  /* 1..99 */
    int ncaptured; /* 0..CD_DXP_MAX_CAPTURES */
    int captured[CD_DXP_MAX_CAPTURES];
    /* B */
    int move_number; /* 1..999 */
    /* C */
    char text[CD_DXP_MAX_LEN + 1];
} cd_dxp_msg;

/*
 * Write m as a DXP message (without the framing '\0', but NUL-terminated) to
 * buf. Returns the message length, or -1 if a field is out of range or buf is
 * too small (err says which).
 */
int cd_dxp_encode(const cd_dxp_msg *m, char *buf, size_t len, char *err, size_t errlen);
/*
 * Parse the n characters at s (one message without its '\0'). Returns 0, or
 * -1 with err saying what and where (m->type is then still set to s[0]).
 * Fixed widths are enforced: the length must be exactly the layout's.
 */
int cd_dxp_decode(const char *s, size_t n, cd_dxp_msg *m, char *err, size_t errlen);

/*
 * Framing: bytes from the stream go in with cd_dxp_reader_push, complete
 * messages come out with cd_dxp_reader_next. A message longer than
 * CD_DXP_MAX_LEN is dropped up to its '\0' and reported once; empty frames
 * (a lone '\0') are skipped.
 */
typedef struct cd_dxp_reader {
    char buf[4096];
    size_t len;
    int discard; /* dropping the rest of an over-long message */
} cd_dxp_reader;

void cd_dxp_reader_init(cd_dxp_reader *r);
/* Free space: after cd_dxp_reader_next has returned 0 it is always > 3900. */
size_t cd_dxp_reader_space(const cd_dxp_reader *r);
/* Append up to n bytes; returns how many were taken (all that fit). */
size_t cd_dxp_reader_push(cd_dxp_reader *r, const char *data, size_t n);
/*
 * The next complete message: 1 (copied to out, NUL-terminated, *outn = its
 * length), 0 (none complete yet) or -1 (a bad frame was dropped; err says why).
 * outlen must be at least CD_DXP_MAX_LEN + 1.
 */
int cd_dxp_reader_next(cd_dxp_reader *r, char *out, size_t outlen, size_t *outn, char *err,
                       size_t errlen);

/* A MOVE message for legal move m of pos (captured squares ascending). */
void cd_dxp_move_msg(const cd_position *pos, const cd_move *m, int seconds, cd_dxp_msg *out);
/*
 * The legal move of pos that a MOVE message names: same from, to and captured
 * set. A capture sent with count 00 (some programs omit the captured squares)
 * is accepted when from and to name one legal move. CD_ERR_ILLEGAL or
 * CD_ERR_AMBIGUOUS with err saying why.
 */
cd_result cd_dxp_match_move(const cd_position *pos, const cd_dxp_msg *msg, cd_move *out, char *err,
                            size_t errlen);
/*
 * The ply of game g that a BACKREQ (move number, colour to move) names: the
 * position where `colour` is to move in move `move_number` (move 1 starts
 * with the variant's first mover). -1 if that position is not in the game.
 */
int cd_dxp_back_ply(const cd_game *g, int move_number, int colour);

/* The name of a message type ("MOVE", ...; "message" for an unknown one). */
const char *cd_dxp_type_name(int type);
/* Copy s to out (len bytes, NUL-terminated), each character outside ' '..'~' as '?': text from
 * the peer made safe for the terminal. */
void cd_dxp_printable(const char *s, char *out, size_t len);

#endif
