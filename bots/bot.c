#include "bot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/kinds.h"
#include "core/input.h"

/* One kind a line (clang-format would pack them), so adding a kind adds a line. */
/* clang-format off */
const bot_kind_t *const bot_kinds[] = {
    &bot_kind_random,
    &bot_kind_greedy,
    &bot_kind_heuristic,
    &bot_kind_mcts,
    &bot_kind_pimc,
    &bot_kind_policy,
    &bot_kind_ext,
    &bot_kind_human,
    NULL,
};
/* clang-format on */

int bot_spec_parse(const char *text, bot_spec_t *spec, char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    char shown[INPUT_EXCERPT_MAX], part[INPUT_EXCERPT_MAX];
    input_escape(text, shown, sizeof shown);
    size_t text_len = strlen(text), bad = input_bad_byte(text, text_len);
    if (text_len >= BOT_SPEC_TEXT_MAX) {
        snprintf(err, errlen, "bot spec '%s' is too long (at most %d characters)", shown,
                 BOT_SPEC_TEXT_MAX - 1);
        return -1;
    }
    if (bad < text_len || strpbrk(text, "\t\n\r\v\f")) {
        snprintf(err, errlen, "bot spec '%s' holds a control character", shown);
        return -1;
    }
    const char *colon = strchr(text, ':');
    size_t name_len = colon ? (size_t)(colon - text) : strlen(text);
    if (name_len == 0 || name_len >= sizeof spec->name) {
        snprintf(err, errlen, "bot spec '%s' has no valid name", shown);
        return -1;
    }
    memcpy(spec->name, text, name_len);
    if (!colon)
        return 0;
    const char *p = colon + 1;
    if (!*p) {
        snprintf(err, errlen, "bot spec '%s' has ':' but no key=value", shown);
        return -1;
    }
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq || eq == p || eq == p + len - 1) {
            snprintf(err, errlen, "bot spec '%s': '%s' is not key=value", shown,
                     input_escape_n(p, len, part, sizeof part));
            return -1;
        }
        if (spec->key_count == BOT_SPEC_MAX_KEYS) {
            snprintf(err, errlen, "bot spec '%s' has too many keys", shown);
            return -1;
        }
        size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
        if (klen >= sizeof spec->keys[0]) {
            snprintf(err, errlen, "bot spec '%s': key '%s' is too long", shown,
                     input_escape_n(p, klen, part, sizeof part));
            return -1;
        }
        for (int k = 0; k < spec->key_count; k++)
            if (strlen(spec->keys[k]) == klen && !memcmp(spec->keys[k], p, klen)) {
                snprintf(err, errlen, "bot spec '%s': key '%s' given twice", shown,
                         input_escape_n(p, klen, part, sizeof part));
                return -1;
            }
        memcpy(spec->keys[spec->key_count], p, klen);
        memcpy(spec->values[spec->key_count], eq + 1, vlen);
        spec->key_count++;
        if (!end)
            break;
        p = end + 1;
        if (!*p) {
            snprintf(err, errlen, "bot spec '%s' ends with ','", shown);
            return -1;
        }
    }
    return 0;
}

int bot_spec_int(const char *key, const char *value, long lo, long hi, long *out, char *err,
                 size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi) {
        char shown[INPUT_EXCERPT_MAX];
        snprintf(err, errlen, "bad value '%s' for key '%s' (an integer from %ld to %ld)",
                 input_escape(value, shown, sizeof shown), key, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int bot_spec_double(const char *key, const char *value, double lo, double hi, double *out,
                    char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !(v >= lo && v <= hi)) {
        char shown[INPUT_EXCERPT_MAX];
        snprintf(err, errlen, "bad value '%s' for key '%s' (a number from %g to %g)",
                 input_escape(value, shown, sizeof shown), key, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

bot_t *bot_new(const game_api_t *api, const char *spec_text, uint64_t seed, char *err,
               size_t errlen)
{
    bot_spec_t spec;
    if (bot_spec_parse(spec_text, &spec, err, errlen))
        return NULL;
    const bot_kind_t *kind = NULL;
    for (int i = 0; bot_kinds[i]; i++)
        if (!strcmp(bot_kinds[i]->name, spec.name))
            kind = bot_kinds[i];
    if (!kind) {
        char shown[INPUT_EXCERPT_MAX];
        int n = snprintf(err, errlen,
                         "unknown bot '%s' (known:", input_escape(spec.name, shown, sizeof shown));
        for (int i = 0; bot_kinds[i] && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, " %s", bot_kinds[i]->name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return NULL;
    }
    bot_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->api = api;
    b->kind = kind;
    snprintf(b->spec, sizeof b->spec, "%s", spec_text);
    b->threads = 1;
    b->undo_to = -1;
    b->seed = seed;
    pcg32_seed(&b->rng, seed, 0x5eedb07ULL);
    char kerr[GAME_ERR_MAX];
    if (kind->init(b, &spec, kerr, sizeof kerr)) {
        char shown[2 * INPUT_EXCERPT_MAX];
        snprintf(err, errlen, "bot '%s': %s", input_escape(spec_text, shown, sizeof shown), kerr);
        free(b);
        return NULL;
    }
    return b;
}

move_t bot_choose(bot_t *b, const void *state)
{
    /* Never hand a kind a position without moves: each would pick from an empty list. */
    move_t moves[GAME_MAX_MOVES];
    if (!b->api->gen_moves(state, moves)) {
        bot_fault(b, "exit",
                  "asked to move in a %s position with no legal move (%s); this is an engine "
                  "bug",
                  b->api->name,
                  b->api->is_terminal(state) ? "the game is over" : "the game is not over");
        return BOT_NO_MOVE;
    }
    return b->kind->choose(b, state);
}

int bot_check_players(const bot_t *b, int players, char *err, size_t errlen)
{
    char kerr[GAME_ERR_MAX];
    if (!b->kind->check_players || !b->kind->check_players(b, players, kerr, sizeof kerr))
        return 0;
    char shown[2 * INPUT_EXCERPT_MAX];
    snprintf(err, errlen, "bot '%s': %s", input_escape(b->spec, shown, sizeof shown), kerr);
    return -1;
}

void bot_observe(bot_t *b, const void *state, move_t m)
{
    if (b->kind->observe)
        b->kind->observe(b, state, m);
}

void bot_reset(bot_t *b, uint64_t seed)
{
    b->seed = seed;
    pcg32_seed(&b->rng, seed, 0x5eedb07ULL);
    if (b->kind->reset)
        b->kind->reset(b); /* sees the fault, if any: an ext: program is replaced */
    b->fault[0] = 0;
    b->fault_detail[0] = 0;
}

bool bot_faulted(const bot_t *b, char *buf, size_t len)
{
    if (!b->fault[0])
        return false;
    char spec[BOT_SPEC_TEXT_MAX], detail[BOT_FAULT_DETAIL_MAX];
    snprintf(buf, len, "bot '%s' forfeits: %s (%s)", input_escape(b->spec, spec, sizeof spec),
             b->fault, input_escape(b->fault_detail, detail, sizeof detail));
    return true;
}

void bot_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    b->fault[0] = 0;
    b->fault_detail[0] = 0;
    b->undo_to = -1;
    if (b->kind->begin)
        b->kind->begin(b, initial, opt, seat);
}

void bot_clock(bot_t *b, long left_ms, long inc_ms, long move_ms)
{
    if (b->kind->clock)
        b->kind->clock(b, left_ms, inc_ms, move_ms);
}

int bot_tc_parse(const char *key, const char *text, long *base_ms, long *inc_ms, char *err,
                 size_t errlen)
{
    char base[64];
    const char *plus = strchr(text, '+');
    size_t n = plus ? (size_t)(plus - text) : strlen(text);
    if (n >= sizeof base) {
        snprintf(err, errlen, "bad value '%.40s' for %s (BASE or BASE+INC in milliseconds)", text,
                 key);
        return -1;
    }
    memcpy(base, text, n);
    base[n] = 0;
    *inc_ms = 0;
    if (bot_spec_int(key, base, 1, 1000000000, base_ms, err, errlen) ||
        (plus && bot_spec_int(key, plus + 1, 0, 1000000000, inc_ms, err, errlen))) {
        snprintf(err, errlen,
                 "bad value '%.40s' for %s (BASE or BASE+INC in milliseconds, BASE from 1 to "
                 "1000000000, INC from 0 to 1000000000)",
                 text, key);
        return -1;
    }
    return 0;
}

void bot_end(bot_t *b, const double *result)
{
    if (b->kind->end)
        b->kind->end(b, result);
}

void bot_fault(bot_t *b, const char *reason, const char *fmt, ...)
{
    if (b->fault[0])
        return; /* the first fault is the one recorded */
    snprintf(b->fault, sizeof b->fault, "%s", reason);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->fault_detail, sizeof b->fault_detail, fmt, ap);
    va_end(ap);
}

void bot_free(bot_t *b)
{
    if (!b)
        return;
    if (b->kind->destroy)
        b->kind->destroy(b);
    free(b);
}

void bot_stats_add(bot_stats_t *acc, const bot_t *b)
{
    if (!b || !b->kind->stats_add || (acc->kind && acc->kind != b->kind))
        return;
    acc->kind = b->kind;
    b->kind->stats_add(b, acc->data);
}

void bot_stats_print(FILE *out, const char *label, const char *const *labels,
                     const bot_stats_t *stats, int n)
{
    const void *accs[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++) {
        const bot_kind_t *kind = stats[i].kind;
        bool first = kind && kind->stats_print;
        for (int j = 0; j < i && first; j++)
            first = stats[j].kind != kind;
        if (!first)
            continue; /* printed with its kind's first, or keeps none */
        for (int j = 0; j < n; j++)
            accs[j] = stats[j].kind == kind ? stats[j].data : NULL;
        kind->stats_print(out, label, labels, accs, n);
    }
}

const struct mcts_stats *bot_last_search(const bot_t *b)
{
    return b && b->kind->last_search ? b->kind->last_search(b) : NULL;
}
