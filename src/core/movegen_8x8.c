/*
 * movegen_8x8.c -- the move generator instance g8: the 8x8 board (Russian, Brazilian, English,
 * Italian, Spanish, Czech, pool, ...) (movegen_body.h; chosen by the dispatch in movegen.c).
 */
#define GN      g8
#define BB_BITS 64
#define HALF    4
#define ALLM    0x7fbfdfeffull
#define TOPM    0xfull
#define BOTM    0x780000000ull
#include "movegen_body.h"
