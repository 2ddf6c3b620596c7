/*
 * fuzz_http.c -- the JSON API of `condraughts serve`, request by request, through the same
 * handlers as HTTP (cd_web_request, no socket; games are not saved; searches capped at a few
 * thousand nodes).
 *
 * Input: byte 0 picks the variant of a game created first (fz_variant's row name); the rest is
 * a list of requests separated by "\n#\n". The first byte of a request picks the route:
 *   c POST /api/games        i POST /api/games/import   m POST /api/games/ID/move
 *   u POST .../undo          e POST .../engine          h POST .../hint
 *   g GET /api/games/ID      d DELETE /api/games/ID     p GET .../pdn
 *   a GET .../analyse?QUERY, r GET .../review?QUERY (the rest is the query)
 *   l GET /api/games         v GET /api/variants
 *   x GET URL, y POST URL, z DELETE URL (the rest is the URL, no body)
 * and the rest is the body. ID is the game made first, or the last one a request created.
 * Checks: no 5xx; every answer but a PDN export is JSON (an object with "error" for 4xx/5xx);
 * a game in an answer has a FEN that reads back for its variant and, a board game, "egtb": null
 * (no endgame tables are given); an exported PDN reads back to a game with as many moves as the game has.
 */
#include <cjson/cJSON.h>

#include "fuzz.h"
#include "server.h"

static char game_id[64];

static cJSON *call(const char *method, const char *url, const char *body, size_t len,
                   unsigned *status, char **raw)
{
    char *out = NULL;
    size_t outlen = 0;
    FZ_CHECK(cd_web_request(method, url, body, len, status, &out, &outlen) == 0,
             "cd_web_request failed (out of memory) for %s %s", method, url);
    FZ_CHECK(*status >= 200 && *status < 500, "%s %s: status %u: %.*s", method, url, *status,
             (int)(outlen < 300 ? outlen : 300), out ? out : "");
    FZ_CHECK(*status != 500, "500");
    cJSON *j = NULL;
    if (out && strstr(url, "/pdn") && *status == 200) {
        *raw = out;
        return NULL;
    }
    if (*status != 200 || (strstr(url, "/analyse") == NULL && strstr(url, "/review") == NULL)) {
        j = out ? cJSON_ParseWithLength(out, outlen) : NULL;
        FZ_CHECK(j || !out, "%s %s: not JSON: %.*s", method, url,
                 (int)(outlen < 300 ? outlen : 300), out);
    }
    if (j && *status >= 400)
        FZ_CHECK(cJSON_IsString(cJSON_GetObjectItem(j, "error")), "%s %s: %u without an error",
                 method, url, *status);
    free(out);
    return j;
}

static void check_game(const cJSON *j)
{
    const cJSON *id = cJSON_GetObjectItem(j, "id"), *fen = cJSON_GetObjectItem(j, "fen"),
                *var = cJSON_GetObjectItem(j, "variant");
    if (!cJSON_IsString(fen))
        return;
    FZ_CHECK(cJSON_IsString(id) && cJSON_IsString(var), "a game without id or variant");
    const cd_rules *r = cd_rules_find(var->valuestring);
    FZ_CHECK(r, "unknown variant '%s' in an answer", var->valuestring);
    cd_position p;
    char err[256];
    FZ_CHECK(cd_position_from_fen(&p, r, fen->valuestring, err, sizeof err) == CD_OK,
             "the answer's FEN '%s' does not read: %s", fen->valuestring, err);
    if (cJSON_GetObjectItem(j, "state")) /* a game between people (/api/play) has no "egtb" */
        return;
    const cJSON *egtb = cJSON_GetObjectItem(j, "egtb");
    FZ_CHECK(cJSON_IsNull(egtb), "a game without \"egtb\": null (no tables here)");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cd_web_setup(NULL, NULL, 2000, 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        cd_web_setup(NULL, NULL, 2000, 1);
        ready = 1;
    }
    if (size < 1 || size > 65536)
        return 0;
    unsigned status;
    char *raw = NULL;
    char body[128];
    snprintf(body, sizeof body, "{\"variant\":\"%s\"}", fz_variant(data[0])->name);
    cJSON *j = call("POST", "/api/games", body, strlen(body), &status, &raw);
    FZ_CHECK(status == 201 && j, "creating the first game: %u", status);
    snprintf(game_id, sizeof game_id, "%s", cJSON_GetObjectItem(j, "id")->valuestring);
    cJSON_Delete(j);

    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    for (int n = 0; p < end && n < 32; n++) {
        const char *sep = NULL;
        for (const char *q = p; q + 3 <= end; q++)
            if (q[0] == '\n' && q[1] == '#' && q[2] == '\n') {
                sep = q;
                break;
            }
        const char *stop = sep ? sep : end;
        char route = *p;
        const char *b = p + 1;
        size_t blen = stop > b ? (size_t)(stop - b) : 0;
        if (stop == p)
            blen = 0;
        char url[1200];
        const char *method = "POST";
        int with_body = 1;
        switch (route) {
        case 'c': snprintf(url, sizeof url, "/api/games"); break;
        case 'i': snprintf(url, sizeof url, "/api/games/import"); break;
        case 'm': snprintf(url, sizeof url, "/api/games/%s/move", game_id); break;
        case 'u': snprintf(url, sizeof url, "/api/games/%s/undo", game_id); break;
        case 'e': snprintf(url, sizeof url, "/api/games/%s/engine", game_id); break;
        case 'h': snprintf(url, sizeof url, "/api/games/%s/hint", game_id); break;
        case 'g':
        case 'd':
        case 'p':
            method = route == 'd' ? "DELETE" : "GET";
            snprintf(url, sizeof url, "/api/games/%s%s", game_id, route == 'p' ? "/pdn" : "");
            with_body = 0;
            break;
        case 'a':
        case 'r':
            snprintf(url, sizeof url, "/api/games/%s/%s?%.*s", game_id,
                     route == 'a' ? "analyse" : "review", (int)(blen < 200 ? blen : 200), b);
            method = "GET";
            with_body = 0;
            break;
        case 'l':
        case 'v':
            snprintf(url, sizeof url, "/api/%s", route == 'l' ? "games" : "variants");
            method = "GET";
            with_body = 0;
            break;
        default:
            method = route == 'y' ? "POST" : route == 'z' ? "DELETE" : "GET";
            snprintf(url, sizeof url, "%.*s", (int)(blen < 1000 ? blen : 1000), b);
            if (memchr(url, '\0', strlen(url) + 1) != url + strlen(url) || !url[0])
                snprintf(url, sizeof url, "/api");
            with_body = 0;
        }
        raw = NULL;
        j = call(method, url, with_body ? b : NULL, with_body ? blen : 0, &status, &raw);
        if (j) {
            check_game(j);
            const cJSON *id = cJSON_GetObjectItem(j, "id");
            if (status == 201 && cJSON_IsString(id))
                snprintf(game_id, sizeof game_id, "%s", id->valuestring);
            cJSON_Delete(j);
        }
        if (raw) {
            size_t pos = 0;
            cd_game *g = NULL;
            char err[256];
            FZ_CHECK(cd_pdn_read(raw, &pos, NULL, &g, NULL, err, sizeof err) == CD_OK && g,
                     "the exported PDN does not read back: %s\n%s", err, raw);
            char gurl[200];
            snprintf(gurl, sizeof gurl, "/api/games/%s", game_id);
            cJSON *gj = call("GET", gurl, NULL, 0, &status, &raw);
            const cJSON *ply = gj ? cJSON_GetObjectItem(gj, "ply") : NULL;
            FZ_CHECK(ply && (int)ply->valuedouble == cd_game_ply(g),
                     "exported %d plies, game has %d", cd_game_ply(g),
                     ply ? (int)ply->valuedouble : -1);
            cJSON_Delete(gj);
            cd_game_free(g);
            free(raw);
        }
        p = sep ? sep + 3 : end;
    }
    cd_web_reset();
    return 0;
}
