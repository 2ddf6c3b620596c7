/*
 * train_cmd.h -- `condraughts train`: the command over the trainer (src/train/train.h;
 * docs/training.md).
 */
#ifndef CD_TRAIN_CMD_H
#define CD_TRAIN_CMD_H

#include "opts.h"

/* `condraughts train` and its subcommands gen and fit, each with its options
 * (`condraughts train gen --help`); exit status 0, or 2 on bad arguments or input. */
extern const cli_command cd_train_command;

#endif
