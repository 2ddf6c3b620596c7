/*
 * opts.c -- the command line's option parser, help and synopses, driven by each command's
 * table (opts.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cliutil.h"

#define WRAP            100
#define SYNOPSIS_INDENT 20 /* "condraughts " and a name of up to 7 letters and a space */

void cli_fail(const cli_command *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_die("condraughts ", "%s: %s", cmd->name, msg);
}

const char *cli_egtb_default(const char *given)
{
    struct stat st;
    if (!given && stat("egtb", &st) == 0 && S_ISDIR(st.st_mode))
        given = "egtb";
    return given && given[0] ? given : NULL;
}

void cli_egtb_check(const cli_command *cmd, const char *given)
{
    struct stat st;
    if (given && given[0] && (stat(given, &st) != 0 || !S_ISDIR(st.st_mode)))
        cli_fail(cmd, "--egtb %s: not a folder", given);
}

const char *cli_egtb_folder(const cli_command *cmd, const char *given)
{
    cli_egtb_check(cmd, given);
    return cli_egtb_default(given);
}

const cd_rules *cli_variant(const cli_command *cmd, const char *name)
{
    const cd_rules *r = cd_rules_find(name);
    if (!r)
        cli_fail(cmd, "unknown variant '%s' (try: condraughts variants)", name);
    return r;
}

static int is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* The row of --name (len letters) or of the alias -c; NULL if none. */
static const cli_opt *find(const cli_command *cmd, const char *name, size_t len, char alias)
{
    for (const cli_opt *o = cmd->opts; o && o->name; o++)
        if (alias ? o->alias == alias : strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

/* The index of word in the '|'-separated list, or -1. */
static int choice(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (int i = 0; *list; i++) {
        size_t k = strcspn(list, "|");
        if (k == n && !strncmp(list, word, n))
            return i;
        list += k + (list[k] == '|');
    }
    return -1;
}

/* "a, b or c" from "a|b|c". */
static void choices_text(const char *list, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    while (*list && used < len) {
        size_t k = strcspn(list, "|");
        const char *sep = !used ? "" : list[k] ? ", " : " or ";
        used += (size_t)snprintf(buf + used, len - used, "%s%.*s", sep, (int)k, list);
        list += k + (list[k] == '|');
    }
}

static void number(const cli_command *cmd, const cli_opt *o, const char *text, cli_value *v)
{
    char *end;
    errno = 0;
    int ok;
    if (o->kind == CLI_INT) {
        v->n = strtoll(text, &end, 10);
        v->x = (double)v->n;
        ok = !errno && end != text && !*end;
    } else {
        v->x = strtod(text, &end);
        ok = !errno && end != text && !*end && isfinite(v->x);
    }
    if (!ok || v->x < o->lo || v->x > o->hi)
        cli_fail(cmd, "--%s: bad number '%s' (%.15g to %.15g)", o->name, text, o->lo, o->hi);
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_set_fn set, void *user,
              const char **args, int max)
{
    int nargs = 0, options = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int is_long = a[0] == '-' && a[1] == '-' && a[2];
        int is_short = a[0] == '-' && a[1] && a[1] != '-' && !(a[1] >= '0' && a[1] <= '9');
        if (!options || (!is_long && !is_short)) {
            if (!strcmp(a, "--") && options) {
                options = 0;
                continue;
            }
            if (nargs >= max)
                cli_fail(cmd, "unexpected argument '%s' (try: condraughts %s --help)", a,
                         cmd->name);
            args[nargs++] = a;
            continue;
        }
        if (is_help(a)) {
            cli_help(cmd, stdout);
            exit(0);
        }
        const char *eq = is_long ? strchr(a, '=') : NULL;
        const cli_opt *o = is_long ? find(cmd, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0)
                           : a[2]  ? NULL
                                   : find(cmd, NULL, 0, a[1]);
        if (!o)
            cli_fail(cmd, "unknown option '%.*s' (try: condraughts %s --help)",
                     eq ? (int)(eq - a) : (int)strlen(a), a, cmd->name);
        cli_value v = {NULL, 0, 0};
        if (o->kind == CLI_FLAG) {
            if (eq)
                cli_fail(cmd, "--%s takes no value", o->name);
        } else {
            if (eq)
                v.text = eq + 1;
            else if (i + 1 < argc)
                v.text = argv[++i];
            else
                cli_fail(cmd, "--%s needs a value (--%s %s)", o->name, o->name, o->meta);
            if (o->kind == CLI_INT || o->kind == CLI_REAL)
                number(cmd, o, v.text, &v);
            const char *words = o->choices ? o->choices : o->meta;
            if (o->kind == CLI_CHOICE && (v.n = choice(words, v.text)) < 0) {
                char list[512];
                choices_text(words, list, sizeof list);
                cli_fail(cmd, "--%s: '%s' is not %s", o->name, v.text, list);
            }
        }
        set(user, o, &v);
    }
    return nargs;
}

/* ------------------------------------------------------------------ help */

/* A synopsis being written: its column and the words on the current line. */
typedef struct line {
    FILE *f;
    int col, words; /* words: on the current line after the command's name */
    int first;      /* no word written yet: pad the name to SYNOPSIS_INDENT first */
} line;

/* Append word, on a new line indented by SYNOPSIS_INDENT when it would pass WRAP. */
static void put_word(line *l, const char *word)
{
    int n = (int)strlen(word);
    if (l->first) {
        l->col += fprintf(l->f, "%*s", l->col < SYNOPSIS_INDENT ? SYNOPSIS_INDENT - l->col : 1, "");
        l->first = 0;
    } else if (l->words && l->col + 1 + n > WRAP) {
        l->col = fprintf(l->f, "\n%*s", SYNOPSIS_INDENT, "") - 1;
        l->words = 0;
    } else if (l->words) {
        l->col += fprintf(l->f, " ");
    }
    l->col += fprintf(l->f, "%s", word);
    l->words++;
}

static void one_synopsis(const cli_command *cmd, FILE *f)
{
    line l = {f, fprintf(f, "condraughts %s", cmd->name), 0, 1};
    for (const cli_opt *o = cmd->opts; o && o->name; o++) {
        if (o->hidden)
            continue;
        char word[256];
        snprintf(word, sizeof word, "%s--%s%s%s%s", o->required ? "" : "[", o->name,
                 o->meta ? " " : "", o->meta ? o->meta : "", o->required ? "" : "]");
        put_word(&l, word);
    }
    if (cmd->operands)
        put_word(&l, cmd->operands);
    fputc('\n', f);
}

void cli_synopsis(const cli_command *cmd, FILE *f)
{
    if (cmd->run)
        one_synopsis(cmd, f);
    for (int i = 0; cmd->subs && cmd->subs[i]; i++)
        cli_synopsis(cmd->subs[i], f);
}

void cli_help(const cli_command *cmd, FILE *f)
{
    fputs("usage:\n", f);
    cli_synopsis(cmd, f);
    fprintf(f, "\n%s\n", cmd->about);
    int width = 6; /* "--help" */
    for (const cli_opt *o = cmd->opts; o && o->name; o++) {
        int w = 2 + (int)strlen(o->name) + (o->meta ? 1 + (int)strlen(o->meta) : 0);
        if (w > width)
            width = w;
    }
    if (cmd->run) {
        fputs("\noptions:\n", f);
        for (const cli_opt *o = cmd->opts; o && o->name; o++) {
            char word[256];
            snprintf(word, sizeof word, "--%s%s%s", o->name, o->meta ? " " : "",
                     o->meta ? o->meta : "");
            char alias[8] = "    ";
            if (o->alias)
                snprintf(alias, sizeof alias, "-%c, ", o->alias);
            fprintf(f, "  %s%-*s  %s", alias, width, word, o->help);
            if (o->kind == CLI_INT || o->kind == CLI_REAL)
                fprintf(f, " (%.15g to %.15g)", o->lo, o->hi);
            fputc('\n', f);
        }
        fprintf(f, "  -h, %-*s  this help\n", width, "--help");
    }
    if (cmd->notes)
        fprintf(f, "\n%s", cmd->notes);
    if (cmd->subs) {
        fputs("\nsubcommands (condraughts ", f);
        fprintf(f, "%s SUBCOMMAND --help for their options):\n", cmd->name);
        for (int i = 0; cmd->subs[i]; i++)
            fprintf(f, "  %-16s %s\n", cmd->subs[i]->name + strlen(cmd->name) + 1,
                    cmd->subs[i]->about);
    }
}

/* ------------------------------------------------------------------ the manual page */

/* text in roff: backslashes doubled, a leading '.' or '\'' escaped, '-' as \- (a minus that
 * copies as a hyphen-minus from the page). */
static void roff(FILE *f, const char *text)
{
    int bol = 1;
    for (const char *p = text; *p; p++) {
        if (bol && (*p == '.' || *p == '\''))
            fputs("\\&", f);
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-')
            fputs("\\-", f);
        else
            fputc(*p, f);
        bol = *p == '\n';
    }
}

static void man_command(const cli_command *cmd, FILE *f)
{
    if (cmd->run) {
        fputs(".SS ", f);
        roff(f, cmd->name);
        fputs("\n.nf\n", f);
        char buf[4096];
#ifdef _WIN32
        FILE *m = NULL; /* no fmemopen on Windows, and no man either: the page has no synopses */
#else
        FILE *m = fmemopen(buf, sizeof buf, "w");
#endif
        if (m) {
            one_synopsis(cmd, m);
            fputc('\0', m);
            fclose(m);
            buf[sizeof buf - 1] = '\0';
            roff(f, buf);
        }
        fputs(".fi\n", f);
        roff(f, cmd->about);
        fputc('\n', f);
        for (const cli_opt *o = cmd->opts; o && o->name; o++) {
            fputs(".TP\n\\fB", f);
            if (o->alias)
                fprintf(f, "\\-%c\\fR, \\fB", o->alias);
            fputs("\\-\\-", f);
            roff(f, o->name);
            fputs("\\fR", f);
            if (o->meta) {
                fputs(" \\fI", f);
                roff(f, o->meta);
                fputs("\\fR", f);
            }
            fputc('\n', f);
            roff(f, o->help);
            if (o->kind == CLI_INT || o->kind == CLI_REAL)
                fprintf(f, " (%.15g to %.15g)", o->lo, o->hi);
            fputc('\n', f);
        }
        if (cmd->notes) {
            fputs(".PP\n.nf\n", f);
            roff(f, cmd->notes);
            fputs(".fi\n", f);
        }
    }
    for (int i = 0; cmd->subs && cmd->subs[i]; i++)
        man_command(cmd->subs[i], f);
}

void cli_man(const cli_command *const *commands, const char *version, FILE *f)
{
    fputs(".TH CONDRAUGHTS 1 \"\" \"condraughts ", f);
    roff(f, version);
    fputs("\" \"User Commands\"\n"
          ".SH NAME\ncondraughts \\- draughts engine, analysis and playing program "
          "(Constitutional Draughts and its family)\n"
          ".SH SYNOPSIS\n\\fBcondraughts\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] "
          "[\\fIOPERANDS\\fR]\n"
          ".SH DESCRIPTION\nEvery command answers \\fB\\-\\-help\\fR with its usage; "
          "\\fBcondraughts help\\fR lists the synopses. A bad option or value is one line on "
          "standard error and exit status 2. This page is made from the same tables as the "
          "commands' help (\\fBcondraughts help \\-\\-man\\fR).\n"
          ".SH COMMANDS\n",
          f);
    for (int i = 0; commands[i]; i++)
        man_command(commands[i], f);
    fputs(".SH ENVIRONMENT\n.TP\n\\fBCD_WEIGHTS\\fR\nThe folder of the learned "
          "evaluation's weights files, read by the commands that search.\n"
          ".SH FILES\nThe weights, the browser page and the openings are looked for in "
          "\\fI./weights\\fR, \\fI./web\\fR and \\fI./openings\\fR, then beside the "
          "program (its build tree), then in \\fIPREFIX/share/condraughts\\fR (an installed "
          "program).\n",
          f);
}

/* ------------------------------------------------------------------ dispatch */

int cli_run(const cli_command *cmd, int argc, char **argv)
{
    if (cmd->subs && argc > 0) {
        for (int i = 0; cmd->subs[i]; i++) {
            const char *sub = cmd->subs[i]->name + strlen(cmd->name) + 1;
            if (!strcmp(argv[0], sub))
                return cli_run(cmd->subs[i], argc - 1, argv + 1);
        }
    }
    if (!cmd->run) {
        char list[256];
        size_t used = 0;
        list[0] = '\0';
        for (int i = 0; cmd->subs[i] && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                     cmd->subs[i]->name + strlen(cmd->name) + 1);
        if (argc > 0 && is_help(argv[0])) {
            cli_help(cmd, stdout);
            return 0;
        }
        if (argc == 0)
            cli_fail(cmd, "needs a subcommand: %s (try: condraughts %s --help)", list, cmd->name);
        cli_fail(cmd, "unknown subcommand '%s' (%s)", argv[0], list);
    }
    int help = 0;
    for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
        help |= is_help(argv[i]);
    if ((cmd->flags & CLI_SEARCHES) && !help)
        cli_load_weights();
    return cmd->run(argc, argv);
}
