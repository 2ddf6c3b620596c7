/*
 * eval_builtin.c -- the shipped weights built into the program (as Stockfish builds in its
 * network), so a copied or installed program that finds no weights folder still plays with
 * them. The files of weights/ are included byte for byte by the assembler's .incbin when this
 * file is compiled (the build runs at the repository's root; the Makefile rebuilds it when a
 * file changes); each is parsed, checksum and all, as a file read from the folder would be.
 */
#include <stdio.h>
#include <string.h>

#include "eval_io.h"

/* One symbol for a file's first byte and one for the byte after its last, in the read-only data;
 * then back to the code section (PE/COFF's assembler has no .previous: this file's top-level asm
 * comes before any function, where the compiler is in .text). */
#ifdef _WIN32
#define RODATA ".section .rdata,\"dr\"\n"
#define BACK   ".text\n"
#else
#define RODATA ".section .rodata\n"
#define BACK   ".previous\n"
#endif
#define EMBED(sym, file)                                                                           \
    __asm__(RODATA ".balign 16\n"                                                                  \
                   ".globl " #sym "\n" #sym ":\n"                                                  \
                   ".incbin \"" file "\"\n"                                                        \
                   ".globl " #sym "_end\n" #sym "_end:\n" BACK);                                   \
    extern const unsigned char sym[], sym##_end[]

EMBED(cd_w_international, "weights/international.cdw");
EMBED(cd_w_constitutional, "weights/constitutional.cdw");
EMBED(cd_w_killer, "weights/killer.cdw");
EMBED(cd_w_modern, "weights/modern.cdw");
EMBED(cd_w_russian, "weights/russian.cdw");
EMBED(cd_w_brazilian, "weights/brazilian.cdw");
EMBED(cd_w_russian_const, "weights/russian-const.cdw");
EMBED(cd_w_brazilian_const, "weights/brazilian-const.cdw");
EMBED(cd_w_english, "weights/english.cdw");
EMBED(cd_w_italian, "weights/italian.cdw");
EMBED(cd_w_spanish, "weights/spanish.cdw");
EMBED(cd_w_czech, "weights/czech.cdw");

static const struct {
    const char *family;
    const unsigned char *begin, *end;
} builtin[] = {
    {"international", cd_w_international, cd_w_international_end},
    {"constitutional", cd_w_constitutional, cd_w_constitutional_end},
    {"killer", cd_w_killer, cd_w_killer_end},
    {"modern", cd_w_modern, cd_w_modern_end},
    {"russian", cd_w_russian, cd_w_russian_end},
    {"brazilian", cd_w_brazilian, cd_w_brazilian_end},
    {"russian-const", cd_w_russian_const, cd_w_russian_const_end},
    {"brazilian-const", cd_w_brazilian_const, cd_w_brazilian_const_end},
    {"english", cd_w_english, cd_w_english_end},
    {"italian", cd_w_italian, cd_w_italian_end},
    {"spanish", cd_w_spanish, cd_w_spanish_end},
    {"czech", cd_w_czech, cd_w_czech_end},
};

cd_eval *eval_io_builtin(char *err, size_t errlen)
{
    cd_eval *ev = cd_eval_new();
    if (!ev) {
        snprintf(err, errlen, "out of memory reading the built-in weights");
        return NULL;
    }
    for (int i = 0; cd_eval_family(i); i++) {
        int found = 0;
        for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++) {
            if (strcmp(builtin[k].family, cd_eval_family(i)))
                continue;
            char why[256];
            if (cd_eval_add_weights(ev, builtin[k].family, builtin[k].begin,
                                    (size_t)(builtin[k].end - builtin[k].begin), why,
                                    sizeof why) != CD_OK) {
                snprintf(err, errlen, "built-in weights of %s: %s", builtin[k].family, why);
                cd_eval_free(ev);
                return NULL;
            }
            found = 1;
        }
        if (!found) {
            snprintf(err, errlen, "no built-in weights of %s", cd_eval_family(i));
            cd_eval_free(ev);
            return NULL;
        }
    }
    return ev;
}
