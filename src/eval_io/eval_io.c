/*
 * eval_io.c -- the weights folder read into a cd_eval (eval_io.h).
 */
#include "eval_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

/* The largest files read: the largest weights the format can hold (the newest version, every
 * window, strip and king square: pattern.h) and a network of 16 MiB (the largest shape, 200
 * inputs x 512 x 64, is about 0.5 MiB). */
#define WEIGHTS_MAX                                                                                \
    cd_pattern_image_size(CD_PAT_VERSION_PIP, CD_PAT_MAX_REG, CD_PAT_MAX_STRIPS, CD_PAT_KSQ_MAX)
#define NET_MAX ((size_t)16 << 20)

/* The file at path, cut at max + 1 bytes, malloc'ed, its length in *len; NULL with errno set (the
 * open's, or ENOMEM). */
static unsigned char *read_image(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    rewind(f);
    size_t cap = size < 0 || (size_t)size > max ? max + 1 : (size_t)size;
    unsigned char *buf = malloc(cap + 1);
    if (buf)
        *len = fread(buf, 1, cap, f);
    fclose(f);
    if (!buf)
        errno = ENOMEM;
    return buf;
}

/* dir/NAME.cdw (net 0) or dir/NAME.cdn (net 1) into ev; 0, or 1 with err. */
static int load(cd_eval *ev, const char *dir, const char *name, int net, char *err, size_t errlen)
{
    char path[4096], why[300];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, net ? "cdn" : "cdw");
    size_t len = 0;
    unsigned char *img = read_image(path, net ? NET_MAX : WEIGHTS_MAX, &len);
    if (!img && net && errno == ENOENT) /* none shipped: a network is read where there is one */
        return 0;
    if (!img) {
        if (errno == ENOMEM)
            snprintf(err, errlen, "out of memory reading %s", path);
        else if (net)
            snprintf(err, errlen, "network file %s cannot be read: %s", path, strerror(errno));
        else
            snprintf(err, errlen, "weights file %s is missing (see docs/training.md)", path);
        return 1;
    }
    cd_result rc = net ? cd_eval_add_net(ev, name, img, len, why, sizeof why)
                       : cd_eval_add_weights(ev, name, img, len, why, sizeof why);
    free(img);
    if (rc != CD_OK)
        snprintf(err, errlen, "%s file %s: %s", net ? "network" : "weights", path, why);
    return rc != CD_OK;
}

cd_eval *eval_io_load(const char *dir, int nets, char *err, size_t errlen)
{
    cd_eval *ev = cd_eval_new();
    if (!ev) {
        snprintf(err, errlen, "out of memory reading %s", dir);
        return NULL;
    }
    int bad = 0;
    for (int i = 0; !bad && cd_eval_family(i); i++)
        bad = load(ev, dir, cd_eval_family(i), 0, err, errlen);
    for (int i = 0; !bad && nets && cd_eval_family(i); i++)
        bad = load(ev, dir, cd_eval_family(i), 1, err, errlen);
    if (bad) {
        cd_eval_free(ev);
        return NULL;
    }
    return ev;
}
