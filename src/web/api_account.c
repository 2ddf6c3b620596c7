/*
 * api_account.c -- accounts for games between people (docs/api.md, "Accounts"): register, log
 * in, log out, who am I, change the password. An account is a name and a password; logging in binds
 * the browser's player token (its cd_player cookie) to the account, so its seats carry the
 * account's name and its ratings are the account's (store.h).
 *
 * Passwords are hashed with libsodium's argon2id (crypto_pwhash_str with the interactive limits:
 * 64 MiB and about a tenth of a second each), outside every lock and at most HASHES_AT_ONCE at a
 * time (503 beyond), so guessing is slow and cannot take the server's memory. Only the hash is
 * stored; a password is never stored, logged or sent back. A wrong password and an unknown name
 * get the same answer after the same work. Failed logins are counted by the name's key (names.h:
 * every name that looks the same) and address together, by address, and by name (token buckets,
 * ratelimit.h): a stranger's guesses close the name to that stranger's address, not to its
 * owner logging in from another one; a wrong current password given to change the password
 * counts as a failed login. One address has at most one password hash running at a time, so one
 * client cannot take the HASHES_AT_ONCE slots from the others.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "lazy_lock.h"
#include "apiutil.h"
#include "names.h"
#include "ratelimit.h"
#include "store.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#define HASHES_AT_ONCE 2
#define PASSWORD_MIN   8
#define PASSWORD_MAX   256
#define ACCOUNT_MIN    3
#define FAILS_WINDOW   600000 /* failed logins are counted over 10 minutes (a token bucket) */
#define FAILS_PAIR     5      /* ... of one name from one address */
#define FAILS_ADDR     20     /* ... from one address, any names */
#define FAILS_NAME     50     /* ... of one name, any addresses */

static struct {
    mtx_t lock;                                   /* made on first use: a_lock */
    int hashing;                                  /* (lock) argon2id computations running */
    char hashing_addr[HASHES_AT_ONCE][PLAY_ADDR]; /* (lock) whose ("" a free slot, or unknown) */
    int ready;                                    /* (lock) sodium_init succeeded */
    rate_table pair, addr, name;                  /* (lock) failed logins */
} A = {.pair = {FAILS_PAIR, FAILS_WINDOW, {{"", 0, 0}}},
       .addr = {FAILS_ADDR, FAILS_WINDOW, {{"", 0, 0}}},
       .name = {FAILS_NAME, FAILS_WINDOW, {{"", 0, 0}}}};

WEB_LAZY_LOCK(static, a_lock, A.lock)

/* The keys of a login: the name's key with the address, and the name's key alone. */
static void login_keys(const char *name, const char *addr, char *pair, char *key)
{
    if (name_key(name, key, RATE_KEY) != 0)
        snprintf(key, RATE_KEY, "%s", name);
    if (snprintf(pair, RATE_KEY, "%s %s", addr, key) >= RATE_KEY)
        pair[RATE_KEY - 1] = 0; /* a key cut short still counts alike */
}

/* Milliseconds before name may try to log in again from addr (0: now). */
static int64_t login_closed(const char *name, const char *addr)
{
    char pair[RATE_KEY], key[RATE_KEY];
    login_keys(name, addr, pair, key);
    a_lock();
    int64_t now = play_now(), wait = rate_wait(&A.pair, pair, now);
    int64_t w = rate_wait(&A.name, key, now);
    wait = w > wait ? w : wait;
    w = addr[0] ? rate_wait(&A.addr, addr, now) : 0;
    wait = w > wait ? w : wait;
    mtx_unlock(&A.lock);
    return wait;
}

/* A login of name from addr failed (ok 0) or succeeded (ok 1: the name's count from that address
 * starts again). */
static void login_result(const char *name, const char *addr, int ok)
{
    char pair[RATE_KEY], key[RATE_KEY];
    login_keys(name, addr, pair, key);
    a_lock();
    int64_t now = play_now();
    if (ok) {
        rate_forget(&A.pair, pair);
    } else {
        rate_charge(&A.pair, pair, now);
        rate_charge(&A.name, key, now);
        if (addr[0])
            rate_charge(&A.addr, addr, now);
    }
    mtx_unlock(&A.lock);
}

/* A slot to hash a password in, for addr: 0 (take it; hash_end gives it back), 503 (every slot
 * is busy) or 429 (addr has one already). */
static unsigned hash_begin(const char *addr)
{
    a_lock();
    if (!A.ready)
        A.ready = sodium_init() >= 0;
    unsigned status = A.ready && A.hashing < HASHES_AT_ONCE ? 0 : MHD_HTTP_SERVICE_UNAVAILABLE;
    int free_slot = -1;
    for (int i = 0; i < HASHES_AT_ONCE; i++) {
        if (addr[0] && !strcmp(A.hashing_addr[i], addr))
            status = MHD_HTTP_TOO_MANY_REQUESTS;
        if (!A.hashing_addr[i][0] && free_slot < 0)
            free_slot = i;
    }
    if (!status) {
        A.hashing++;
        if (free_slot >= 0)
            snprintf(A.hashing_addr[free_slot], PLAY_ADDR, "%s", addr);
    }
    mtx_unlock(&A.lock);
    return status;
}

static void hash_end(const char *addr)
{
    a_lock();
    A.hashing--;
    for (int i = 0; addr[0] && i < HASHES_AT_ONCE; i++)
        if (!strcmp(A.hashing_addr[i], addr)) {
            A.hashing_addr[i][0] = 0;
            break;
        }
    mtx_unlock(&A.lock);
}

/* The answer when hash_begin refuses. */
static enum MHD_Result send_hash_busy(reply *c, unsigned status)
{
    if (status == MHD_HTTP_TOO_MANY_REQUESTS) {
        c->retry_after = 1;
        return send_error(c, status, "one password check at a time from an address");
    }
    return send_busy(c, "too many passwords are being checked; try again");
}

static enum MHD_Result send_name(reply *c, unsigned status, const char *name)
{
    cJSON *j = cJSON_CreateObject();
    if (name)
        cJSON_AddStringToObject(j, "name", name);
    else
        cJSON_AddNullToObject(j, "name");
    return send_json(c, status, j);
}

/* A password's length checked: 0, or -1 with err set (what: how the message names it). */
static int password_check(const char *password, const char *what, char *err, size_t len)
{
    size_t p = strlen(password);
    if (p < PASSWORD_MIN || p > PASSWORD_MAX) {
        snprintf(err, len, "%s is %d to %d bytes", what, PASSWORD_MIN, PASSWORD_MAX);
        return -1;
    }
    return 0;
}

/* {"name","password"} checked: 0, or -1 with err set. */
static int read_credentials(const cJSON *body, const char **name, const char **password, char *err,
                            size_t len)
{
    *name = *password = NULL;
    if (cd_json_string(body, "name", name, err, len) ||
        cd_json_string(body, "password", password, err, len))
        return -1;
    if (!*name || !*password) {
        snprintf(err, len, "'name' and 'password' are required");
        return -1;
    }
    size_t n = strlen(*name);
    if (n < ACCOUNT_MIN || n > PLAY_NAME_MAX ||
        strspn(*name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != n) {
        snprintf(err, len, "an account name is %d to %d letters, digits, '_' or '-'", ACCOUNT_MIN,
                 PLAY_NAME_MAX);
        return -1;
    }
    return password_check(*password, "a password", err, len);
}

/* Every copy of the request's passwords overwritten (body may be NULL). */
static void wipe(cJSON *body, request *rq)
{
    static const char *const fields[] = {"password", "new_password"};
    for (size_t i = 0; body && i < sizeof fields / sizeof fields[0]; i++) {
        cJSON *pw = cJSON_GetObjectItemCaseSensitive(body, fields[i]);
        if (cJSON_IsString(pw) && pw->valuestring)
            sodium_memzero(pw->valuestring, strlen(pw->valuestring));
    }
    if (rq->body)
        sodium_memzero(rq->body, rq->len);
}

static enum MHD_Result account_write(reply *c, request *rq, int registering)
{
    char err[256] = "";
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    const char *name = NULL, *password = NULL;
    if (!body || read_credentials(body, &name, &password, err, sizeof err)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    if (!rq->token[0]) {
        if (play_new_token(rq->token) != 0) {
            cJSON_Delete(body);
            return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no random numbers for a secret");
        }
        memcpy(c->cookie, rq->token, sizeof c->cookie);
    }
    char hash[crypto_pwhash_STRBYTES] = "", canonical[PLAY_NAME_BYTES + 1] = "";
    int known = 0;
    int64_t closed = registering ? 0 : login_closed(name, rq->addr);
    if (closed) {
        c->retry_after = (int)(closed / 1000) + 1;
        enum MHD_Result r =
            send_error(c, MHD_HTTP_TOO_MANY_REQUESTS,
                       "too many failed logins for '%s': try again in %d s", name, c->retry_after);
        cJSON_Delete(body);
        return r;
    }
    if (!registering) {
        play_lock();
        known = store_account_hash(name, hash, sizeof hash, canonical, sizeof canonical);
        play_unlock();
    }
    unsigned busy = hash_begin(rq->addr);
    if (busy) {
        wipe(body, rq);
        cJSON_Delete(body);
        return send_hash_busy(c, busy);
    }
    int ok;
    if (registering || !known) /* an unknown name costs as much as a known one */
        ok = crypto_pwhash_str(hash, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                               crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    else
        ok = crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
    hash_end(rq->addr);
    wipe(body, rq); /* no copies left about */
    unsigned status = MHD_HTTP_OK;
    play_lock();
    if (registering) {
        int r = ok ? store_account_add(name, hash, rq->token) : -1;
        status = r == 0   ? MHD_HTTP_CREATED
                 : r == 1 ? MHD_HTTP_CONFLICT
                          : MHD_HTTP_INTERNAL_SERVER_ERROR;
        if (r == 1)
            snprintf(err, sizeof err, "the name '%s' is taken", name);
        else
            snprintf(err, sizeof err, "the account could not be saved");
        snprintf(canonical, sizeof canonical, "%s", name);
    } else if (!known || !ok) {
        status = MHD_HTTP_FORBIDDEN;
        snprintf(err, sizeof err, "wrong name or password");
    } else if (store_login(rq->token, canonical) != 0) {
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        snprintf(err, sizeof err, "the login could not be saved");
    }
    play_unlock();
    if (!registering)
        login_result(name, rq->addr, status == MHD_HTTP_OK);
    cJSON_Delete(body);
    if (status != MHD_HTTP_OK && status != MHD_HTTP_CREATED)
        return send_error(c, status, "%s", err);
    return send_name(c, status, canonical);
}

/* POST /api/account/password {"password","new_password"}: the password of the account this
 * browser is logged in to changed, once the current one is checked (a wrong one counts as a failed
 * login of the name, and a closed name refuses it: 429); every other browser logged in to the
 * account is logged out, this one stays in. */
static enum MHD_Result account_password(reply *c, request *rq)
{
    char err[256] = "", name[PLAY_NAME_BYTES + 1] = "", canonical[PLAY_NAME_BYTES + 1] = "";
    char hash[crypto_pwhash_STRBYTES] = "";
    const char *old = NULL, *new = NULL;
    unsigned status = MHD_HTTP_OK;
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    if (!body || cd_json_string(body, "password", &old, err, sizeof err) ||
        cd_json_string(body, "new_password", &new, err, sizeof err))
        status = MHD_HTTP_BAD_REQUEST;
    else if (!old || !new) {
        status = MHD_HTTP_BAD_REQUEST;
        snprintf(err, sizeof err, "'password' (the current one) and 'new_password' are required");
    } else if (password_check(new, "a new password", err, sizeof err)) {
        status = MHD_HTTP_BAD_REQUEST;
    }
    int known = 0;
    if (status == MHD_HTTP_OK) {
        play_lock();
        known = rq->token[0] && store_login_name(rq->token, name, sizeof name) &&
                store_account_hash(name, hash, sizeof hash, canonical, sizeof canonical);
        play_unlock();
        if (!known) {
            status = MHD_HTTP_FORBIDDEN;
            snprintf(err, sizeof err, "this browser is not logged in to an account");
        }
    }
    int64_t closed = status == MHD_HTTP_OK ? login_closed(canonical, rq->addr) : 0;
    if (closed) {
        c->retry_after = (int)(closed / 1000) + 1;
        status = MHD_HTTP_TOO_MANY_REQUESTS;
        snprintf(err, sizeof err, "too many failed logins for '%s': try again in %d s", canonical,
                 c->retry_after);
    }
    unsigned busy = status == MHD_HTTP_OK ? hash_begin(rq->addr) : 0;
    if (busy) {
        wipe(body, rq);
        cJSON_Delete(body);
        return send_hash_busy(c, busy);
    }
    if (status == MHD_HTTP_OK) {
        int right = crypto_pwhash_str_verify(hash, old, strlen(old)) == 0;
        int made =
            right && crypto_pwhash_str(hash, new, strlen(new), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                       crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
        hash_end(rq->addr);
        login_result(canonical, rq->addr, right);
        if (!right) {
            status = MHD_HTTP_FORBIDDEN;
            snprintf(err, sizeof err, "wrong password");
        } else {
            play_lock();
            int saved = made && store_account_rehash(canonical, hash, rq->token) == 0;
            play_unlock();
            if (!saved) {
                status = MHD_HTTP_INTERNAL_SERVER_ERROR;
                snprintf(err, sizeof err, "the new password could not be saved");
            }
        }
    }
    wipe(body, rq);
    cJSON_Delete(body);
    sodium_memzero(hash, sizeof hash);
    if (status != MHD_HTTP_OK)
        return send_error(c, status, "%s", err);
    return send_name(c, status, canonical);
}

enum MHD_Result api_account(reply *c, const char *path, const char *method, request *rq)
{
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    if (!play_stored())
        return send_error(c, MHD_HTTP_NOT_FOUND, "accounts need the database (--db)");
    if (!path[0] || !strcmp(path, "/")) {
        if (!get)
            return send_405(c, "GET");
        char name[PLAY_NAME_BYTES + 1];
        play_lock();
        int in = rq->token[0] && store_login_name(rq->token, name, sizeof name);
        play_unlock();
        return send_name(c, MHD_HTTP_OK, in ? name : NULL);
    }
    if (!strcmp(path, "/register") || !strcmp(path, "/login")) {
        if (!post)
            return send_405(c, "POST");
        return account_write(c, rq, path[1] == 'r');
    }
    if (!strcmp(path, "/password")) {
        if (!post)
            return send_405(c, "POST");
        return account_password(c, rq);
    }
    if (!strcmp(path, "/logout")) {
        if (!post)
            return send_405(c, "POST");
        play_lock();
        int r = rq->token[0] ? store_login(rq->token, NULL) : 0;
        play_unlock();
        if (r != 0)
            return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the logout could not be saved");
        return send_name(c, MHD_HTTP_OK, NULL);
    }
    return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route");
}
