/*
 * movegen_12x12.c -- the move generator instance g12: the 12x12 board (Canadian): 77 bits, 128-bit
 * boards (movegen_body.h; chosen by the dispatch in movegen.c).
 */
#define GN      g12
#define BB_BITS 128
#define HALF    6
#define ALLM    ((((cd_u128)0x1ffeull) << 64) | 0xfff7ffbffdffefffull)
#define TOPM    ((cd_u128)0x3full)
#define BOTM    (((cd_u128)0x1f80ull) << 64)
#include "movegen_body.h"
