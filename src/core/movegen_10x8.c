/*
 * movegen_10x8.c -- the move generator instance g108: 10 files x 8 ranks (Spantsiretti, the 80-cell
 * board) (movegen_body.h; chosen by the dispatch in movegen.c).
 */
#define GN      g108
#define BB_BITS 64
#define HALF    5
#define ALLM    0x7feffdffbffull
#define TOPM    0x1full
#define BOTM    0x7c000000000ull
#include "movegen_body.h"
