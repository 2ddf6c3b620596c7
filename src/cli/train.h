/*
 * train.h -- `condraughts train`: self-play data and the fit of the learned evaluation
 * (docs/training.md).
 */
#ifndef CD_TRAIN_H
#define CD_TRAIN_H

/* train gen|fit|eval ...: exit status 0, or 2 on bad arguments or input. */
int cmd_train(int argc, char **argv);

#endif
