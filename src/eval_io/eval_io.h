/*
 * eval_io.h -- the learned evaluation read from a weights folder into a cd_eval (the library
 * parses images in memory and opens no file; this room opens the files). Called by the program's
 * front end (src/cli: the folder it picks, cli_weights_dir) and by the tests.
 *
 * The folder holds NAME.cdw for every family (cd_eval_family: each one required) and NAME.cdn
 * where a family has a network (optional). Each file is read whole, at most the largest size its
 * format allows plus one byte (a longer one is refused by its size).
 */
#ifndef CD_EVAL_IO_H
#define CD_EVAL_IO_H

#include <stddef.h>

#include "condraughts.h"

/* A new set with every family's weights of dir and, with nets, their networks (nets 0: the
 * weights alone, the folder's network files not read: train net fits a network for weights that
 * an old network file no longer matches). NULL on a fault, with one line in err naming the file
 * and the fault: "weights file PATH is missing (see docs/training.md)", "weights file PATH:
 * FAULT", "network file PATH cannot be read: REASON", "network file PATH: FAULT", "out of memory
 * reading PATH". Free the set with cd_eval_free. */
cd_eval *eval_io_load(const char *dir, int nets, char *err, size_t errlen);

/* A new set with the weights built into the program (eval_builtin.c: the files of weights/ when
 * it was built; no networks), for a program that finds no weights folder; NULL on a fault (a
 * bug of the build), with one line in err. */
cd_eval *eval_io_builtin(char *err, size_t errlen);

#endif
