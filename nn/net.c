/*
 * The network file (docs/NETS.md): the safetensors layout (8-byte little-endian header
 * length, a JSON header, raw little-endian float32), read with every field checked.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nn/internal.h"

/* The metadata keys, all required (docs/NETS.md). */
static const char *const meta_keys[] = {
    "format", "format_version", "game",  "players",       "observation_size", "action_count",
    "arch",   "width",          "depth", "training_data", "training_command", "engine",
};
#define META_COUNT ((int)(sizeof meta_keys / sizeof meta_keys[0]))

int nn_tensor_specs(int O, int H, int D, int A, int P, nn_tensor_spec_t *spec)
{
    int n = 0;
#define ADD(nm, r, c)                                                                              \
    do {                                                                                           \
        snprintf(spec[n].name, sizeof spec[n].name, "%s", nm);                                     \
        spec[n].rows = (r);                                                                        \
        spec[n].cols = (c);                                                                        \
        n++;                                                                                       \
    } while (0)
    ADD("stem.weight", H, O);
    ADD("stem.bias", H, 0);
    for (int k = 0; k < D; k++) {
        char nm[32];
        snprintf(nm, sizeof nm, "blocks.%d.fc1.weight", k);
        ADD(nm, H, H);
        snprintf(nm, sizeof nm, "blocks.%d.fc1.bias", k);
        ADD(nm, H, 0);
        snprintf(nm, sizeof nm, "blocks.%d.fc2.weight", k);
        ADD(nm, H, H);
        snprintf(nm, sizeof nm, "blocks.%d.fc2.bias", k);
        ADD(nm, H, 0);
    }
    ADD("policy.weight", A, H);
    ADD("policy.bias", A, 0);
    ADD("value.weight", P, H);
    ADD("value.bias", P, 0);
#undef ADD
    return n;
}

static size_t spec_floats(const nn_tensor_spec_t *s)
{
    return (size_t)s->rows * (size_t)(s->cols ? s->cols : 1);
}

/* Strict decimal integer in [lo, hi]: 0, or -1. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s || strlen(s) > 12)
        return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    if (s[0] == '0' && s[1])
        return -1;
    long v = strtol(s, NULL, 10);
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    char msg[GAME_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: %s", name, msg);
    return -1;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void nn_net_free(nn_net_t *net)
{
    if (!net)
        return;
    for (int i = 0; i < 4; i++)
        free(net->text[i]);
    free(net->raw);
    free(net->packed);
    free(net);
}

const nn_info_t *nn_net_info(const nn_net_t *net) { return &net->info; }

nn_net_t *nn_net_alloc(const game_api_t *api, int players, int H, int D, const char *data,
                       const char *command, const char *engine)
{
    nn_net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->O = api->observation_size(players);
    net->A = api->action_count(players);
    net->H = H;
    net->Hp = (H + NN_PAD - 1) / NN_PAD * NN_PAD;
    net->D = D;
    net->P = players;
    net->text[0] = dup_text(api->name);
    net->text[1] = dup_text(data);
    net->text[2] = dup_text(command);
    net->text[3] = dup_text(engine);
    nn_tensor_spec_t spec[NN_MAX_TENSORS];
    int n = nn_tensor_specs(net->O, H, D, net->A, players, spec);
    for (int i = 0; i < n; i++)
        net->raw_count += spec_floats(&spec[i]);
    net->raw = malloc(net->raw_count * sizeof(float));
    if (!net->raw || !net->text[0] || !net->text[1] || !net->text[2] || !net->text[3]) {
        nn_net_free(net);
        return NULL;
    }
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        net->tensor[i] = net->raw + at;
        at += spec_floats(&spec[i]);
    }
    nn_info_t *in = &net->info;
    in->game = net->text[0];
    in->api = api;
    in->players = players;
    in->observation_size = net->O;
    in->action_count = net->A;
    in->width = H;
    in->depth = D;
    in->training_data = net->text[1];
    in->training_command = net->text[2];
    in->engine = net->text[3];
    return net;
}

/* The metadata: its checks, the game and sizes into *api, *players, *H, *D. */
static int check_meta(json_t *meta, const char *name, const game_api_t *want, int want_players,
                      const game_api_t **api, int *players, int *H, int *D, char *err,
                      size_t errlen)
{
    if (!json_is_object(meta))
        return fail(err, errlen, name, "__metadata__: missing (an object of strings)");
    const char *val[META_COUNT];
    for (int i = 0; i < META_COUNT; i++) {
        json_t *v = json_object_get(meta, meta_keys[i]);
        if (!v)
            return fail(err, errlen, name, "__metadata__.%s: missing", meta_keys[i]);
        if (!json_is_string(v))
            return fail(err, errlen, name, "__metadata__.%s: not a string", meta_keys[i]);
        val[i] = json_string_value(v);
    }
    const char *key;
    json_t *v;
    json_object_foreach(meta, key, v)
    {
        if (!json_is_string(v))
            return fail(err, errlen, name, "__metadata__.%.60s: not a string", key);
    }
    if (strcmp(val[0], "skyline-net"))
        return fail(err, errlen, name, "__metadata__.format: '%.60s', not 'skyline-net'", val[0]);
    if (strcmp(val[1], "1"))
        return fail(err, errlen, name, "__metadata__.format_version: '%.60s', this engine reads 1",
                    val[1]);
    *api = game_find(val[2]);
    if (!*api || !(*api)->observation_size || !(*api)->action_count)
        return fail(err, errlen, name, "__metadata__.game: '%.60s' is no game with a network",
                    val[2]);
    long p, o, a, h, d;
    if (parse_int(val[3], (*api)->min_players, (*api)->max_players, &p))
        return fail(err, errlen, name, "__metadata__.players: '%.60s', not %d to %d for %s", val[3],
                    (*api)->min_players, (*api)->max_players, (*api)->name);
    if (want && want != *api)
        return fail(err, errlen, name, "__metadata__.game: the net is for %s, not %s", (*api)->name,
                    want->name);
    if (want_players > 0 && p != want_players)
        return fail(err, errlen, name, "__metadata__.players: the net is for %ld players, not %d",
                    p, want_players);
    int O = (*api)->observation_size((int)p), A = (*api)->action_count((int)p);
    if (parse_int(val[4], 0, 1L << 30, &o) || o != O)
        return fail(err, errlen, name, "__metadata__.observation_size: '%.60s', %s %ldp has %d",
                    val[4], (*api)->name, p, O);
    if (parse_int(val[5], 0, 1L << 30, &a) || a != A)
        return fail(err, errlen, name, "__metadata__.action_count: '%.60s', %s %ldp has %d", val[5],
                    (*api)->name, p, A);
    if (strcmp(val[6], "resmlp"))
        return fail(err, errlen, name, "__metadata__.arch: '%.60s', not 'resmlp'", val[6]);
    if (parse_int(val[7], 1, NN_MAX_WIDTH, &h))
        return fail(err, errlen, name, "__metadata__.width: '%.60s', not 1 to %d", val[7],
                    NN_MAX_WIDTH);
    if (parse_int(val[8], 0, NN_MAX_DEPTH, &d))
        return fail(err, errlen, name, "__metadata__.depth: '%.60s', not 0 to %d", val[8],
                    NN_MAX_DEPTH);
    *players = (int)p;
    *H = (int)h;
    *D = (int)d;
    return 0;
}

/* One tensor's header entry against its spec; its offsets into *begin, *end. */
static int check_tensor(json_t *t, const nn_tensor_spec_t *s, size_t data_len, const char *name,
                        size_t *begin, size_t *end, char *err, size_t errlen)
{
    if (!json_is_object(t))
        return fail(err, errlen, name, "%s: missing", s->name);
    json_t *dt = json_object_get(t, "dtype"), *sh = json_object_get(t, "shape");
    json_t *off = json_object_get(t, "data_offsets");
    if (!json_is_string(dt) || strcmp(json_string_value(dt), "F32"))
        return fail(err, errlen, name, "%s.dtype: not \"F32\"", s->name);
    size_t rank = s->cols ? 2 : 1;
    int ok = json_is_array(sh) && json_array_size(sh) == rank;
    for (size_t i = 0; ok && i < rank; i++) {
        json_t *e = json_array_get(sh, i);
        ok = json_is_integer(e) && json_integer_value(e) == (i ? s->cols : s->rows);
    }
    if (!ok) {
        if (s->cols)
            return fail(err, errlen, name, "%s.shape: not [%d, %d]", s->name, s->rows, s->cols);
        return fail(err, errlen, name, "%s.shape: not [%d]", s->name, s->rows);
    }
    json_t *b = json_array_get(off, 0), *e = json_array_get(off, 1);
    if (!json_is_array(off) || json_array_size(off) != 2 || !json_is_integer(b) ||
        !json_is_integer(e) || json_integer_value(b) < 0 ||
        json_integer_value(e) < json_integer_value(b))
        return fail(err, errlen, name, "%s.data_offsets: not [begin, end]", s->name);
    *begin = (size_t)json_integer_value(b);
    *end = (size_t)json_integer_value(e);
    if (*end - *begin != spec_floats(s) * sizeof(float))
        return fail(err, errlen, name, "%s.data_offsets: %zu bytes for %zu floats", s->name,
                    *end - *begin, spec_floats(s));
    if (*end > data_len)
        return fail(err, errlen, name, "%s.data_offsets: past the end of the data (%zu bytes)",
                    s->name, data_len);
    return 0;
}

static float read_f32le(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The tensors of the header: checks, then the data copied into net->raw. */
static int read_tensors(nn_net_t *net, json_t *hdr, const uint8_t *data, size_t data_len,
                        const char *name, char *err, size_t errlen)
{
    nn_tensor_spec_t spec[NN_MAX_TENSORS];
    int n = nn_tensor_specs(net->O, net->H, net->D, net->A, net->P, spec);
    size_t begin[NN_MAX_TENSORS], end[NN_MAX_TENSORS];
    const char *key;
    json_t *v;
    json_object_foreach(hdr, key, v)
    {
        if (!strcmp(key, "__metadata__"))
            continue;
        int known = 0;
        for (int i = 0; i < n && !known; i++)
            known = !strcmp(key, spec[i].name);
        if (!known)
            return fail(err, errlen, name, "%.60s: not a tensor of resmlp width %d depth %d", key,
                        net->H, net->D);
    }
    for (int i = 0; i < n; i++)
        if (check_tensor(json_object_get(hdr, spec[i].name), &spec[i], data_len, name, &begin[i],
                         &end[i], err, errlen))
            return -1;
    /* Contiguous: the ranges, in order of their starts, tile [0, data_len) exactly (every
       tensor has at least one float). */
    size_t at = 0;
    for (int done = 0; done < n; done++) {
        int next = -1;
        for (int i = 0; i < n && next < 0; i++)
            if (begin[i] == at)
                next = i;
        if (next < 0) {
            for (int i = 0; i < n; i++)
                if (begin[i] != (size_t)-1 && begin[i] < at)
                    return fail(err, errlen, name, "%s.data_offsets: overlaps another tensor",
                                spec[i].name);
            return fail(err, errlen, name, "data_offsets: a gap at byte %zu of the data", at);
        }
        const uint8_t *src = data + begin[next];
        float *dst = (float *)net->tensor[next];
        for (size_t k = 0; k < spec_floats(&spec[next]); k++)
            if (!isfinite(dst[k] = read_f32le(src + k * sizeof(float))))
                return fail(err, errlen, name, "%s: value %zu is not finite", spec[next].name, k);
        begin[next] = (size_t)-1; /* taken */
        at = end[next];
    }
    if (at != data_len)
        return fail(err, errlen, name, "data: %zu bytes after the last tensor", data_len - at);
    return 0;
}

/* The data must hold the tensors of these sizes (checked before any allocation). */
static int check_data_size(const game_api_t *api, int players, int H, int D, size_t data_len,
                           const char *name, char *err, size_t errlen)
{
    nn_tensor_spec_t spec[NN_MAX_TENSORS];
    int n = nn_tensor_specs(api->observation_size(players), H, D, api->action_count(players),
                            players, spec);
    size_t need = 0;
    for (int i = 0; i < n; i++)
        need += spec_floats(&spec[i]) * sizeof(float);
    if (need > data_len)
        return fail(err, errlen, name, "data: %zu bytes, the tensors of width %d depth %d need %zu",
                    data_len, H, D, need);
    return 0;
}

nn_net_t *nn_net_from_bytes(const uint8_t *data, size_t size, const char *name,
                            const game_api_t *want, int want_players, char *err, size_t errlen)
{
    err[0] = 0;
    if (size < 8) {
        fail(err, errlen, name, "header length: the file has %zu bytes, fewer than 8", size);
        return NULL;
    }
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = hlen << 8 | data[i];
    if (hlen < 2 || hlen > NN_MAX_HEADER_BYTES || hlen > size - 8) {
        fail(err, errlen, name, "header length: %llu, not 2 to %d within the file's %zu bytes",
             (unsigned long long)hlen, NN_MAX_HEADER_BYTES, size);
        return NULL;
    }
    json_error_t jerr;
    json_t *hdr = json_loadb((const char *)data + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &jerr);
    if (!hdr || !json_is_object(hdr)) {
        fail(err, errlen, name, "header: not a JSON object (%s)", hdr ? "other JSON" : jerr.text);
        json_decref(hdr);
        return NULL;
    }
    const game_api_t *api = NULL;
    int players = 0, H = 0, D = 0;
    nn_net_t *net = NULL;
    json_t *meta = json_object_get(hdr, "__metadata__");
    size_t data_len = size - 8 - (size_t)hlen;
    if (!check_meta(meta, name, want, want_players, &api, &players, &H, &D, err, errlen) &&
        !check_data_size(api, players, H, D, data_len, name, err, errlen)) {
        net = nn_net_alloc(api, players, H, D,
                           json_string_value(json_object_get(meta, "training_data")),
                           json_string_value(json_object_get(meta, "training_command")),
                           json_string_value(json_object_get(meta, "engine")));
        if (!net)
            fail(err, errlen, name, "out of memory");
        else if (read_tensors(net, hdr, data + 8 + hlen, data_len, name, err, errlen)) {
            nn_net_free(net);
            net = NULL;
        } else if (nn_net_pack(net)) {
            fail(err, errlen, name, "out of memory");
            nn_net_free(net);
            net = NULL;
        }
    }
    json_decref(hdr);
    return net;
}

nn_net_t *nn_net_load(const char *path, const game_api_t *want, int want_players, char *err,
                      size_t errlen)
{
    err[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fclose(f);
        fail(err, errlen, path, "not a regular file");
        return NULL;
    }
    if (st.st_size > NN_MAX_FILE_BYTES) {
        fclose(f);
        fail(err, errlen, path, "file size: %lld bytes, more than %lld", (long long)st.st_size,
             NN_MAX_FILE_BYTES);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size ? size : 1);
    size_t got = buf ? fread(buf, 1, size, f) : 0;
    fclose(f);
    if (!buf || got != size) {
        free(buf);
        fail(err, errlen, path, buf ? "cannot read the whole file" : "out of memory");
        return NULL;
    }
    nn_net_t *net = nn_net_from_bytes(buf, size, path, want, want_players, err, errlen);
    free(buf);
    return net;
}
