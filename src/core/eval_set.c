/*
 * eval_set.c -- the learned evaluation as a value (cd_eval, condraughts.h): for each family of
 * pattern.c, its weights and the network stacked on them, parsed from file images in memory.
 *
 * Representation: one slot per family (CD_PAT_FAMILIES), NULL or the family's weights, each
 * owning its network (cd_pattern_weights.net, or NULL). Invariants: a slot's weights are of its
 * family (their header says so); a network is stacked only on the weights it was trained on
 * (its base checksum); a slot is filled once and never changed after, so an engine that reads a
 * slot in a search (cd_eval_for, once a search) needs no lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "net.h"
#include "pattern.h"

struct cd_eval {
    cd_pattern_weights *slot[CD_PAT_FAMILIES];
};

cd_eval *cd_eval_new(void) { return calloc(1, sizeof(cd_eval)); }

void cd_eval_free(cd_eval *ev)
{
    if (!ev)
        return;
    for (int i = 0; i < CD_PAT_FAMILIES; i++)
        if (ev->slot[i]) {
            cd_net_free(ev->slot[i]->net);
            free(ev->slot[i]);
        }
    free(ev);
}

const char *cd_eval_family(int i) { return cd_pattern_family_name(i); }

/* The slot of a family's name, or -1. */
static int slot_of(const char *family)
{
    for (int i = 0; i < CD_PAT_FAMILIES; i++)
        if (!strcmp(family, cd_pattern_family_name(i)))
            return i;
    return -1;
}

static cd_result fail(cd_result rc, char *err, size_t errlen, const char *what)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", what);
    return rc;
}

cd_result cd_eval_add_weights(cd_eval *ev, const char *family, const unsigned char *img, size_t len,
                              char *err, size_t errlen)
{
    cd_pattern_weights *w = malloc(sizeof *w);
    if (!w)
        return fail(CD_ERR_OVERFLOW, err, errlen, "out of memory");
    cd_result rc = cd_pattern_read(w, img, len, err, errlen);
    if (rc == CD_OK && family && strcmp(w->family, family)) {
        char why[64];
        snprintf(why, sizeof why, "it holds the weights of '%s'", w->family);
        rc = fail(CD_ERR_IO, err, errlen, why);
    }
    int i = rc == CD_OK ? slot_of(w->family) : -1;
    if (rc == CD_OK && ev->slot[i])
        rc = fail(CD_ERR_ARG, err, errlen, "the family's weights are there already");
    if (rc != CD_OK) {
        free(w);
        return rc;
    }
    ev->slot[i] = w;
    return CD_OK;
}

cd_result cd_eval_add_net(cd_eval *ev, const char *family, const unsigned char *img, size_t len,
                          char *err, size_t errlen)
{
    char why[256];
    cd_net *net = cd_net_read(img, len, why, sizeof why);
    if (!net)
        return fail(CD_ERR_IO, err, errlen, why);
    int i = slot_of(net->family);
    cd_pattern_weights *w = i >= 0 ? ev->slot[i] : NULL;
    cd_result rc = CD_ERR_IO;
    if (family && strcmp(net->family, family))
        snprintf(why, sizeof why, "it holds the network of '%s'", net->family);
    else if (!w)
        snprintf(why, sizeof why, "no weights of the network's family are loaded");
    else if (net->geometry != w->layout.geometry)
        snprintf(why, sizeof why, "the network is not of its family's board");
    else if (net->base_checksum != w->checksum)
        snprintf(why, sizeof why,
                 "the network was trained on the %s weights with checksum %08x, the loaded ones "
                 "have %08x (remove it, or make it again for them: docs/training.md)",
                 w->family, net->base_checksum, w->checksum);
    else if (w->net)
        snprintf(why, sizeof why, "the family's network is there already");
    else
        rc = CD_OK;
    if (rc != CD_OK) {
        cd_net_free(net);
        return fail(rc, err, errlen, why);
    }
    w->net = net;
    return CD_OK;
}

const cd_pattern_weights *cd_eval_for(const cd_eval *ev, const cd_rules *r)
{
    int f = cd_pattern_family(r);
    return ev && f >= 0 ? ev->slot[f] : NULL;
}

int cd_eval_learned(const cd_eval *ev, const cd_rules *r) { return cd_eval_for(ev, r) != NULL; }

void cd_engine_set_eval(cd_engine *e, const cd_eval *ev) { e->eval = ev; }
