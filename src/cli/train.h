/*
 * train.h -- `condraughts train`: self-play data and the fit of the learned evaluation
 * (docs/training.md).
 */
#ifndef CD_TRAIN_H
#define CD_TRAIN_H

#include "opts.h"

/* `condraughts train` and its subcommands gen and fit, each with its options
 * (`condraughts train gen --help`); exit status 0, or 2 on bad arguments or input. */
extern const cli_command cd_train_command;

#endif
