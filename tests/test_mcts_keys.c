/*
 * The mcts bot's keys come from the search ideas' tables (search/keys.h) and the bot's own
 * (bots/mcts_keys.c), which also print `skyline play --help` and BOTS.md's key list. Read back from the printed list: every key parses at the
 * ends of its range and with each of its choices, a value outside the range is refused
 * with an error naming the range, a bad choice with the choices, a key that needs another
 * is refused without it; an unknown key's error lists every key; and the list in
 * bots/BOTS.md is exactly what the table prints (on a mismatch, the current list is
 * written to mcts-keys.md in the build directory). Each default lives once: the bot starts
 * from mcts_options_default's values, which are the rows' defaults; presets and fills are
 * told by the rows' help; rules name only keys; every row is listed once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "bots/mcts_bot.h"
#include "bots/mcts_keys.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "nn/net.h"
#include "tests/test.h"

#define BEGIN_MARK "<!-- mcts keys: printed by the key table"
#define END_MARK   "<!-- end of mcts keys -->"

/* The markdown key list as the table prints it (malloc'd). */
static char *printed_list(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    mcts_bot_keys_print(f, true);
    fclose(f);
    return buf;
}

/* bot_new on Tower Up: true if it made the bot; err gets its error otherwise. */
static bool spec_ok(const char *spec, char *err, size_t errlen)
{
    err[0] = '\0';
    bot_t *b = bot_new(&towerup_api, spec, 1, err, errlen);
    bot_free(b);
    return b != NULL;
}

/* One row of the printed list, checked through bot_new. */
static void check_row(char *row, const char *params_path, const char *net_path)
{
    /* | `name=ARG` | meaning[; needs `k=v`] | from LO to HI | default | */
    char *form = strchr(row, '`');
    CHECK(form != NULL);
    if (!form)
        return;
    form++;
    char *form_end = strchr(form, '`');
    *form_end = '\0';
    char *eq = strchr(form, '=');
    CHECK(eq != NULL);
    *eq = '\0';
    const char *name = form, *arg = eq + 1;
    char *rest = form_end + 1;
    char needs[64] = "";
    char *n = strstr(rest, "; needs `");
    if (n)
        sscanf(n + strlen("; needs `"), "%63[^`]", needs);
    /* The range is the third cell. */
    char *cell = strstr(rest + 1, " | ");
    char lo[32] = "", hi[32] = "";
    bool ranged = cell && sscanf(cell, " | from %31s to %31s |", lo, hi) == 2;
    /* Keys that need a heuristic hook get one; those that need a key get it. */
    char base[512] = "mcts", net_key[300];
    snprintf(net_key, sizeof net_key, "net=%s", net_path);
    const char *extra = !strcmp(needs, "net=FILE")     ? net_key
                        : needs[0]                     ? needs
                        : !strcmp(name, "params")      ? "prior=heuristic"
                        : !strcmp(name, "pw_a")        ? "pw=1"
                        : !strcmp(name, "noise_alpha") ? "noise=0.25"
                                                       : NULL;
    if (extra)
        snprintf(base, sizeof base, "mcts:%s", extra);
    const char *sep = extra ? "," : ":";
    char spec[512], err[GAME_ERR_MAX];
    if (!strcmp(name, "net")) {
        snprintf(spec, sizeof spec, "mcts:net=%s", net_path);
        CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
        CHECK(!spec_ok("mcts:net=test_mcts_keys.missing", err, sizeof err) &&
              strstr(err, "test_mcts_keys.missing: cannot open"));
        return;
    }
    if (!strcmp(name, "params")) {
        snprintf(spec, sizeof spec, "%s%sparams=%s", base, sep, params_path);
        CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
        return;
    }
    if (strchr(arg, '|') || strstr(arg, "\\|")) {
        /* A choice: a\|b\|c. */
        char choices[128];
        snprintf(choices, sizeof choices, "%s", arg);
        int count = 0;
        for (char *c = strtok(choices, "\\|"); c; c = strtok(NULL, "\\|"), count++) {
            snprintf(spec, sizeof spec, "%s%s%s=%s", base, sep, name, c);
            /* rollout=heuristic excludes the cutoff= given with params only: not here. */
            CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
        }
        CHECK_MSG(count >= 2, "%s: %d choices", name, count);
        snprintf(spec, sizeof spec, "%s%s%s=bogus", base, sep, name);
        CHECK_MSG(!spec_ok(spec, err, sizeof err) && strstr(err, "one of"),
                  "%s: bad choice accepted or not explained: %s", name, err);
        CHECK(!ranged);
        return;
    }
    CHECK_MSG(ranged, "%s: no range printed", name);
    bool integer = !strpbrk(lo, ".e") && !strpbrk(hi, ".e");
    /* Both ends parse (mem at its top would ask for a terabyte, so only its bottom). */
    snprintf(spec, sizeof spec, "%s%s%s=%s", base, sep, name, lo);
    CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
    if (strcmp(name, "mem") && strcmp(name, "threads")) {
        snprintf(spec, sizeof spec, "%s%s%s=%s", base, sep, name, hi);
        CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
    }
    /* Outside the range at both ends: refused, naming the range. */
    char range[80];
    snprintf(range, sizeof range, "from %s to %s", lo, hi);
    double low = strtod(lo, NULL), high = strtod(hi, NULL);
    double bad[2] = {low - 1.0 - fabs(low), high + 1.0 + fabs(high)};
    for (int k = 0; k < 2; k++) {
        if (integer)
            snprintf(spec, sizeof spec, "%s%s%s=%.0f", base, sep, name, bad[k]);
        else
            snprintf(spec, sizeof spec, "%s%s%s=%.17g", base, sep, name, bad[k]);
        CHECK_MSG(!spec_ok(spec, err, sizeof err) && strstr(err, range) && strstr(err, name),
                  "%s accepted or its error does not say '%s': %s", spec, range, err);
    }
    if (integer) {
        snprintf(spec, sizeof spec, "%s%s%s=1.5", base, sep, name);
        CHECK_MSG(!spec_ok(spec, err, sizeof err), "%s accepted", spec);
    }
    /* Without the key it needs, refused, naming it (the plain preset: the best one turns
       the prior on in Tower Up). */
    if (needs[0]) {
        snprintf(spec, sizeof spec, "mcts:preset=plain,%s=%s", name, lo);
        CHECK_MSG(!spec_ok(spec, err, sizeof err) && strstr(err, needs),
                  "%s accepted or its error does not name %s: %s", spec, needs, err);
    }
}

static void check_keys_parse(char *list)
{
    char params_path[] = "test_mcts_keys.params";
    heur_params_t w;
    heur_params_default(&heuristic_towerup, &w);
    CHECK(heur_params_save(&heuristic_towerup, &w, params_path) == 0);
    char net_path[] = "test_mcts_keys.net", nerr[GAME_ERR_MAX];
    nn_net_t *net = nn_net_random(&towerup_api, 2, 16, 1, 1, NULL, NULL, nerr, sizeof nerr);
    CHECK_MSG(net && nn_net_save(net, net_path, nerr, sizeof nerr) == 0, "%s", nerr);
    nn_net_free(net);
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "| `", 3))
            continue;
        check_row(line, params_path, net_path);
        rows++;
    }
    CHECK_MSG(rows >= 20, "%d keys printed", rows);
    remove(params_path);
    remove(net_path);
    /* An unknown key: the error names it and lists the keys. */
    char err[GAME_ERR_MAX];
    CHECK(!spec_ok("mcts:paralel=root", err, sizeof err));
    CHECK_MSG(strstr(err, "unknown key 'paralel'") && strstr(err, "parallel") &&
                  strstr(err, "prior_form") && strstr(err, "params"),
              "%s", err);
    /* A weight of the heuristic by name, with a hook that uses it. */
    char spec[128];
    snprintf(spec, sizeof spec, "mcts:prior=heuristic,%s=0.5", heuristic_towerup.params[0].name);
    CHECK_MSG(spec_ok(spec, err, sizeof err), "%s: %s", spec, err);
}

/* The options of spec on api: 1 if made and its prior/cutoff/fpu are as expected. */
static void check_preset(const game_api_t *api, const char *spec, bool prior, int cutoff,
                         double fpu)
{
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, 1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s on %s: %s", spec, api->name, err);
    if (!b)
        return;
    const mcts_options_t *o = mcts_bot_options(b);
    CHECK(o != NULL);
    if (o) {
        CHECK_MSG((o->prior != NULL) == prior, "%s on %s: prior", spec, api->name);
        CHECK_MSG((o->evaluate != NULL ? o->cutoff_depth : -1) == cutoff, "%s on %s: cutoff %d",
                  spec, api->name, o->evaluate ? o->cutoff_depth : -1);
        CHECK_MSG(o->fpu == fpu, "%s on %s: fpu %g", spec, api->name, o->fpu);
    }
    bot_free(b);
}

/* `mcts` with no keys is the best preset: prior, cutoff 8 and fpu 0.3 in the games with a
   heuristic, plain UCT in Connect Four; `preset=plain` is plain UCT, and keys override
   either preset. */
static void check_presets(void)
{
    check_preset(&towerup_api, "mcts", true, 8, 0.3);
    check_preset(&uptown_api, "mcts", true, 8, 0.3);
    check_preset(&uptown_api, "mcts:preset=best", true, 8, 0.3);
    check_preset(&connect4_api, "mcts", false, -1, 10.0);
    check_preset(&connect4_api, "mcts:preset=plain", false, -1, 10.0);
    check_preset(&towerup_api, "mcts:preset=plain", false, -1, 10.0);
    check_preset(&towerup_api, "mcts:preset=plain,prior=heuristic", true, -1, 10.0);
    check_preset(&towerup_api, "mcts:fpu=0.5,cutoff=2", true, 2, 0.5);
    check_preset(&towerup_api, "mcts:prior=none", false, 8, 0.3);
    check_preset(&towerup_api, "mcts:rollout=heuristic", true, -1, 0.3);
    char err[GAME_ERR_MAX];
    CHECK(!spec_ok("mcts:preset=strong", err, sizeof err) && strstr(err, "best, plain"));
    CHECK(!spec_ok("mcts:preset=plain,prior_w=1", err, sizeof err) &&
          strstr(err, "prior=heuristic"));
    CHECK_MSG(spec_ok("mcts:prior_w=1", err, sizeof err), "%s", err);
}

/* Every row of the search ideas' tables is a key of the bot, the same row; values go where
   the rows say, choices as the values they name. */
static void check_search_tables(void)
{
    int rows = 0;
    for (size_t t = 0; mcts_key_tables[t]; t++)
        for (const mcts_key_def_t *d = mcts_key_tables[t]; d->name; d++, rows++) {
            CHECK_MSG(mcts_bot_key(d->name, strlen(d->name)) == d && mcts_key_lookup(d->name) == d,
                      "search key '%s' is not the bot's", d->name);
            CHECK_MSG(d->store != MCTS_STORE_NONE, "search key '%s' stored nowhere", d->name);
        }
    CHECK_MSG(rows == 29, "%d search keys", rows);
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(&towerup_api,
                       "mcts:parallel=root,final=mean,backup=paranoid,prior_form=decay,mem=3,"
                       "fpu_rel=1,reuse=0,iters=7,threads=2,pw=1.5",
                       1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    const mcts_options_t *o = b ? mcts_bot_options(b) : NULL;
    CHECK(o && o->parallel == MCTS_PARALLEL_ROOT && o->final == MCTS_FINAL_MEAN &&
          o->backup == MCTS_BACKUP_PARANOID && o->prior_form == MCTS_PRIOR_DECAY &&
          o->memory_bytes == (size_t)3 << 20 && o->fpu_relative && !o->reuse &&
          o->iterations == 7 && o->threads == 2 && o->pw == 1.5);
    bot_free(b);
    b = bot_new(&towerup_api, "mcts:backup=brs,tree=single,unobs=1,cheat=1", 1, err, sizeof err);
    o = b ? mcts_bot_options(b) : NULL;
    CHECK_MSG(o && o->backup == MCTS_BACKUP_BRS && o->tree == MCTS_TREE_SINGLE && o->unobserved &&
                  o->cheat,
              "%s", b ? "" : err);
    bot_free(b);
}

/* A condition's key name (len bytes) is a key of the bot. */
static void check_name(const char *name, size_t len, void *ctx)
{
    CHECK_MSG(mcts_bot_key(name, len) != NULL, "%s: '%.*s' is no key", (const char *)ctx, (int)len,
              name);
}

static void check_cond(const char *cond)
{
    if (cond)
        mcts_key_names(cond, check_name, (void *)cond);
}

/* A fill's key=value reads as a value of its key, and the text that tells it (help or
   default) says it: the value lives in the fill alone. */
static void check_fill(const mcts_key_fill_t *f, const char *told, bool value_only)
{
    check_cond(f->when);
    check_cond(f->unless);
    size_t len = strcspn(f->set, "=");
    const mcts_key_def_t *d = mcts_bot_key(f->set, len);
    long iv;
    double dv;
    CHECK_MSG(d && mcts_key_parse(d, f->set + len + 1, &iv, &dv) == 0, "fill %s", f->set);
    const char *said = value_only ? f->set + len + 1 : f->set;
    CHECK_MSG(told && strstr(told, said), "fill %s is not told in '%s'", f->set, told ? told : "");
}

/* Each default lives once: a search key's row gives it, mcts_options_default stores it and
   the bot starts from it; the bot's presets and fills are rows of their tables, told by
   the rows' help; every rule names keys; the bot lists every row once. */
static void check_defaults_once(void)
{
    mcts_options_t lib;
    mcts_options_default(&lib);
    char err[GAME_ERR_MAX];
    /* Connect Four has no heuristic: no preset fills anything in. */
    bot_t *b = bot_new(&connect4_api, "mcts:iters=10000", 1, err, sizeof err);
    const mcts_options_t *o = b ? mcts_bot_options(b) : NULL;
    CHECK_MSG(o != NULL, "%s", err);
    int rows = 0, plain = 0;
    for (size_t t = 0; o && mcts_key_tables[t]; t++)
        for (const mcts_key_def_t *d = mcts_key_tables[t]; d->name; d++, rows++) {
            long iv;
            double dv;
            CHECK_MSG(mcts_key_value(d, o) == mcts_key_value(d, &lib),
                      "'%s': the bot's default %g, mcts_options_default's %g", d->name,
                      mcts_key_value(d, o), mcts_key_value(d, &lib));
            if (mcts_key_default(d, &iv, &dv) == 0) {
                plain++;
                CHECK_MSG(mcts_key_value(d, &lib) == dv, "'%s': default '%s' but %g stored",
                          d->name, d->deflt, mcts_key_value(d, &lib));
            }
        }
    CHECK_MSG(plain >= rows - 5, "%d of %d search keys give their default as a value", plain, rows);
    bot_free(b);
    const mcts_key_def_t *preset = mcts_bot_key("preset", 6), *net = mcts_bot_key("net", 3);
    const mcts_key_def_t *grave = mcts_bot_key("grave", 5), *iters = mcts_bot_key("iters", 5);
    for (const mcts_key_fill_t *f = mcts_bot_best_fills; f->set; f++) {
        check_fill(f, preset->help, false);
        /* The key's default text starts with the preset's value. */
        size_t len = strcspn(f->set, "=");
        const mcts_key_def_t *d = mcts_bot_key(f->set, len);
        const char *v = f->set + len + 1;
        CHECK_MSG(d && !strncmp(d->deflt, v, strlen(v)), "%s: default '%s'", f->set,
                  d ? d->deflt : "");
    }
    for (const mcts_key_fill_t *f = mcts_bot_net_fills; f->set; f++)
        check_fill(f, net->help, false);
    for (const mcts_key_fill_t *f = mcts_key_fills; f->set; f++)
        check_fill(f, grave->help, false);
    for (const mcts_key_fill_t *f = mcts_bot_budget_fills; f->set; f++) {
        check_fill(f, iters->deflt, true);
        CHECK(!strncmp(iters->deflt, f->set + 6, strlen(f->set + 6)));
    }
    for (const mcts_key_rule_t *u = mcts_key_rules; u->error; u++) {
        check_cond(u->when);
        check_cond(u->needs);
        check_cond(u->excludes);
    }
    for (const mcts_key_rule_t *u = mcts_bot_rules; u->error; u++) {
        check_cond(u->when);
        check_cond(u->needs);
        check_cond(u->excludes);
    }
    /* Every row once in the bot's list: the search's rows and the bot's own. */
    const mcts_key_def_t *keys[MCTS_BOT_KEYS_MAX];
    int n = mcts_bot_keys_all(keys);
    for (int i = 0; i < n; i++) {
        check_cond(keys[i]->needs);
        CHECK_MSG(mcts_bot_key(keys[i]->name, strlen(keys[i]->name)) == keys[i], "%s",
                  keys[i]->name);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(keys[i]->name, keys[j]->name), "%s listed twice", keys[i]->name);
    }
    CHECK_MSG(n == rows + 12 && n < MCTS_BOT_KEYS_MAX, "%d keys listed, %d search rows", n, rows);
}

/* BOTS.md's list between the markers equals the printed one. */
static void check_bots_md(const char *list)
{
    char *md = test_read_file(SKYLINE_SOURCE_DIR "/bots/BOTS.md");
    char *begin = md ? strstr(md, BEGIN_MARK) : NULL;
    char *end = begin ? strstr(begin, END_MARK) : NULL;
    CHECK_MSG(begin && end, "bots/BOTS.md lacks the mcts key markers");
    if (!begin || !end) {
        free(md);
        return;
    }
    begin = strchr(begin, '\n') + 1;
    size_t len = (size_t)(end - begin);
    bool same = len == strlen(list) && !memcmp(begin, list, len);
    if (!same) {
        FILE *f = fopen("mcts-keys.md", "w");
        if (f) {
            fputs(list, f);
            fclose(f);
        }
    }
    CHECK_MSG(same, "bots/BOTS.md's mcts key list differs from the key table: put "
                    "mcts-keys.md (build directory) between its markers");
    free(md);
}

int main(void)
{
    char *list = printed_list();
    check_bots_md(list);
    char *copy = strdup(list);
    check_keys_parse(copy);
    check_presets();
    check_search_tables();
    check_defaults_once();
    free(copy);
    free(list);
    return test_finish("test_mcts_keys");
}
