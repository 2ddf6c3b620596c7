/*
 * movegen_8x8_folk_thai.c -- the move generator instance g8_folk_thai: the 8x8 board with a folk
 * rule of the Russian row (Samoyed captures of either colour, Northern demotion of captured kings,
 * Stavropol moves of either colour, the two-move turn; docs/variants.md) or the Thai captures
 * (pieces removed as they are jumped, kings landing right behind each). Russian and the other 8x8
 * variants never run a line of it (movegen_body.h; chosen by the dispatch in movegen.c).
 */
#define GN        g8_folk_thai
#define BB_BITS   64
#define HALF      4
#define ALLM      0x7fbfdfeffull
#define TOPM      0xfull
#define BOTM      0x780000000ull
#define FOLK_THAI 1
#include "movegen_body.h"
