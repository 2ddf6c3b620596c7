/*
 * opts.h -- the one option parser of the `condraughts` command line, and the table in which
 * each command describes itself once: its name, operands, one line saying what it does, its
 * options (kind of value, accepted range or choices, one line of help) and notes. The parser
 * reads argv by that table; `condraughts CMD --help`, the synopses of `condraughts help` (and
 * the README's command reference, checked by tests/cli.sh) and the error messages all come
 * from it.
 *
 * The grammar, the same for every command:
 *   --name VALUE, --name=VALUE, or -x VALUE for a one-letter alias; --name alone for a flag;
 *   -h or --help anywhere: the command's help on stdout, exit status 0;
 *   "--" ends the options; anything else ("-", "-3", a file name) is an operand.
 * Errors: one line on stderr, exit status 2:
 *   condraughts CMD: unknown option '--x' (try: condraughts CMD --help)
 *   condraughts CMD: --x needs a value (--x V)
 *   condraughts CMD: --x takes no value
 *   condraughts CMD: --x: bad number 'v' (LO to HI)
 *   condraughts CMD: --x: 'v' is not A, B or C
 */
#ifndef CD_CLI_OPTS_H
#define CD_CLI_OPTS_H

#include <stdio.h>

#include "condraughts.h"

typedef enum cli_kind {
    CLI_FLAG,   /* no value */
    CLI_TEXT,   /* any text; the command checks it */
    CLI_INT,    /* a whole number in [lo, hi] */
    CLI_REAL,   /* a number in [lo, hi] */
    CLI_CHOICE, /* one of the words of choices (else of meta), separated by '|' */
} cli_kind;

/* One option. The command tells its options apart by id (its own enum). */
typedef struct cli_opt {
    int id;
    const char *name; /* without the dashes: "variant" */
    char alias;       /* -v, or 0 */
    cli_kind kind;
    const char *meta;    /* the value in synopses ("V", "white|black"); NULL for a flag */
    const char *choices; /* CLI_CHOICE when meta is a placeholder: "a|b|c" */
    double lo, hi;       /* CLI_INT and CLI_REAL: the accepted range, both ends included */
    int required;        /* shown without brackets in the synopsis (the command checks it) */
    int hidden;          /* another spelling of the row before it: in --help, not the synopsis */
    const char *help;    /* one line */
} cli_opt;

/* A table row's usual fields, one macro a kind; a row is {CLI_INT_OPT(...)} with any of .alias,
 * .required, .hidden and .choices after the macro:
 *   {CLI_TEXT_OPT(O_VARIANT, "variant", "V", "the variant"), .alias = 'v'} */
#define CLI_FLAG_OPT(i, n, h)    .id = (i), .name = (n), .kind = CLI_FLAG, .help = (h)
#define CLI_TEXT_OPT(i, n, m, h) .id = (i), .name = (n), .kind = CLI_TEXT, .meta = (m), .help = (h)
#define CLI_CHOICE_OPT(i, n, m, h)                                                                 \
    .id = (i), .name = (n), .kind = CLI_CHOICE, .meta = (m), .help = (h)
#define CLI_INT_OPT(i, n, m, l, u, h)                                                              \
    .id = (i), .name = (n), .kind = CLI_INT, .meta = (m), .lo = (l), .hi = (u), .help = (h)
#define CLI_REAL_OPT(i, n, m, l, u, h)                                                             \
    .id = (i), .name = (n), .kind = CLI_REAL, .meta = (m), .lo = (l), .hi = (u), .help = (h)

/* The value of one option: the text, and for CLI_INT n, CLI_REAL x, CLI_CHOICE n (the index
 * of the word in the choices). */
typedef struct cli_value {
    const char *text;
    long long n;
    double x;
} cli_value;

/* Flags of a command. */
enum {
    CLI_SEARCHES = 1, /* loads the learned evaluation before it runs (not for --help) */
};

typedef struct cli_command cli_command;
struct cli_command {
    const char *name;     /* "perft"; a subcommand "egtb build" */
    const char *operands; /* after the options in the synopsis ("DEPTH", "FILE"), or NULL */
    const char *about;    /* one line */
    const cli_opt *opts;  /* ended by a row without a name; NULL: no options */
    const char *notes;    /* more help text (lines ended by '\n'), or NULL */
    int (*run)(int argc, char **argv); /* argv: the arguments after the (sub)command's name */
    unsigned flags;
    const cli_command *const *subs; /* subcommands, ended by NULL; or NULL */
};

/* Called for each option found, in command-line order. */
typedef void (*cli_set_fn)(void *user, const cli_opt *opt, const cli_value *v);

/* Read argv (the arguments after the command's name) by cmd's table: set() for each option,
 * the operands into args[0..max-1] (more than max: an error). --help prints cli_help() and
 * exits 0; a bad option is an error as above. Returns the number of operands. */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_set_fn set, void *user,
              const char **args, int max);

/* The manual page (roff, man(7)) of the program: every command of commands (ended by NULL)
 * with its synopsis, what it does, its options and notes, from the same tables as --help. */
void cli_man(const cli_command *const *commands, const char *version, FILE *f);

/* "condraughts CMD: " then the message: one line on stderr, exit status 2. */
_Noreturn void cli_fail(const cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The variant named name, or cli_fail "unknown variant 'x' (try: condraughts variants)". */
const cd_rules *cli_variant(const cli_command *cmd, const char *name);

/* The endgame tables folder of a command's --egtb: the one given; NULL for '' (no tables); without
 * one, ./egtb when that folder exists, else NULL. */
const char *cli_egtb_default(const char *given);

/* A --egtb given that is neither '' nor a folder: cli_fail "--egtb DIR: not a folder". */
void cli_egtb_check(const cli_command *cmd, const char *given);

/* cli_egtb_check, then cli_egtb_default. */
const char *cli_egtb_folder(const cli_command *cmd, const char *given);

/* The command's help: usage, what it does, its options, notes; subcommands' synopses. */
void cli_help(const cli_command *cmd, FILE *f);

/* The synopsis, "condraughts NAME [--opt V] ... OPERANDS", wrapped at 100 columns with the
 * continuation lines indented under the first option; a command with subcommands and no
 * run of its own gives its subcommands' synopses instead. */
void cli_synopsis(const cli_command *cmd, FILE *f);

/* Run cmd with argv, the arguments after its name: a subcommand named by argv[0] if cmd has
 * subcommands (else an error naming them, unless cmd runs itself); the learned evaluation
 * loaded first for CLI_SEARCHES. Returns the exit status. */
int cli_run(const cli_command *cmd, int argc, char **argv);

#endif
