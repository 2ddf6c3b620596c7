/*
 * book_cmd.h -- the `condraughts book` command (book_cmd.c): build an opening book by the
 * program's own searches, and probe one; and the book files the players read (hub, match's
 * self players, play).
 */
#ifndef CD_BOOK_CMD_H
#define CD_BOOK_CMD_H

#include <stddef.h>

#include "condraughts.h"
#include "opts.h"

/* `condraughts book` and its subcommands build and probe (`condraughts book build --help`). */
extern const cli_command cd_book_command;

/* The shipped books' folder and file name: books/VARIANT.cdb (cli_data_path). */
#define CLI_BOOK_DIR "books"
#define CLI_BOOK_EXT ".cdb"

/*
 * The book a player uses, from its --book (or self:book=) value `given`: "none" no book (NULL, 1);
 * a file's path that file, read whole and checked (cd_book_read); NULL (not given) the shipped
 * book of `rules` (books/VARIANT.cdb found by cli_data_path) when there is one, else no book.
 * 1 with the book (or NULL) in *out; 0 with err "book file PATH: FAULT" (or "... cannot be read:
 * REASON") when a file given or found is missing, unreadable or not a good book.
 */
int cli_book_open(const char *given, const cd_rules *rules, cd_book **out, char *err,
                  size_t errlen);

/*
 * The books of a program that plays every variant (serve), from its --book value `given`: "none"
 * none; NULL the shipped book of every variant that has one (cli_book_open's lookup, variant by
 * variant); a file's path that book, for the variant the file names, and the shipped books of
 * the others. 1 with a malloc'ed array of *n books (at most one a variant; NULL when *n is 0) in
 * *out (free each book, then the array); 0 with err as cli_book_open's, nothing kept.
 */
int cli_books_open(const char *given, cd_book ***out, int *n, char *err, size_t errlen);

#endif
