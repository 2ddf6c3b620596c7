/*
 * movegen_10x10.c -- the move generator instance g10: the 10x10 board with diagonal captures
 * (International, Constitutional, Killer, Modern, antidraughts, ...) (movegen_body.h; chosen by the
 * dispatch in movegen.c).
 */
#define GN      g10
#define BB_BITS 64
#define HALF    5
#define ALLM    0x3ff7feffdffbffull
#define TOPM    0x1full
#define BOTM    0x3e000000000000ull
#include "movegen_body.h"
