/* Nets made in memory (random weights), written to a file, and packed for the kernels. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "nn/internal.h"

/* 64-byte aligned floats, zeroed: NULL if no memory. */
static float *alloc_floats(size_t n)
{
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* W[rows][cols] (rows outputs) into Wt[cols][ldt], transposed; pads stay zero. */
static void transpose(const float *W, int rows, int cols, float *Wt, int ldt)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            Wt[(size_t)c * ldt + r] = W[(size_t)r * cols + c];
}

int nn_net_pack(nn_net_t *net)
{
    int O = net->O, H = net->H, Hp = net->Hp, D = net->D;
    size_t total = (size_t)O * Hp + Hp + (size_t)D * 2 * ((size_t)H * Hp + Hp);
    net->packed = alloc_floats(total);
    if (!net->packed)
        return -1;
    float *p = net->packed;
    int t = 0; /* canonical tensor index */
    transpose(net->tensor[t++], H, O, p, Hp);
    net->stem_t = p;
    p += (size_t)O * Hp;
    memcpy(p, net->tensor[t++], (size_t)H * sizeof(float));
    net->stem_b = p;
    p += Hp;
    for (int k = 0; k < 2 * D; k++) {
        transpose(net->tensor[t++], H, H, p, Hp);
        net->fc_t[k] = p;
        p += (size_t)H * Hp;
        memcpy(p, net->tensor[t++], (size_t)H * sizeof(float));
        net->fc_b[k] = p;
        p += Hp;
    }
    net->policy_w = net->tensor[t++];
    net->policy_b = net->tensor[t++];
    net->value_w = net->tensor[t++];
    net->value_b = net->tensor[t++];
    return 0;
}

nn_net_t *nn_net_random(const game_api_t *api, int players, int width, int depth, uint64_t seed,
                        const char *training_data, const char *training_command, char *err,
                        size_t errlen)
{
    if (!api->observation_size || !api->action_count) {
        snprintf(err, errlen, "%s has no observation or action space", api->name);
        return NULL;
    }
    if (players < api->min_players || players > api->max_players || width < 1 ||
        width > NN_MAX_WIDTH || depth < 0 || depth > NN_MAX_DEPTH) {
        snprintf(err, errlen,
                 "net sizes out of range: %s %d players, width %d (1 to %d), depth %d "
                 "(0 to %d)",
                 api->name, players, width, NN_MAX_WIDTH, depth, NN_MAX_DEPTH);
        return NULL;
    }
    nn_net_t *net =
        nn_net_alloc(api, players, width, depth, training_data ? training_data : "random",
                     training_command ? training_command : "nn_net_random", skyline_engine());
    if (!net) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    nn_tensor_spec_t spec[NN_MAX_TENSORS];
    int n = nn_tensor_specs(net->O, width, depth, net->A, players, spec);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 0x6e6e);
    for (int i = 0; i < n; i++) {
        /* A weight and its bias share the bound 1/sqrt(inputs) of the weight. */
        int inputs = spec[i].cols ? spec[i].cols : spec[i - 1].cols;
        double bound = 1.0 / sqrt((double)inputs);
        size_t count = (size_t)spec[i].rows * (size_t)(spec[i].cols ? spec[i].cols : 1);
        float *w = (float *)net->tensor[i];
        for (size_t k = 0; k < count; k++)
            w[k] = (float)((2.0 * pcg32_double(&rng) - 1.0) * bound);
    }
    if (nn_net_pack(net)) {
        nn_net_free(net);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return net;
}

/* The JSON header of net (tensors in canonical order from offset 0): NULL if no memory. */
static char *header_text(const nn_net_t *net)
{
    json_t *hdr = json_object(), *meta = json_object();
    char num[8][24];
    const nn_info_t *in = &net->info;
    int vals[6] = {NN_FORMAT_VERSION, in->players, in->observation_size,
                   in->action_count,  in->width,   in->depth};
    for (int i = 0; i < 6; i++)
        snprintf(num[i], sizeof num[i], "%d", vals[i]);
    json_object_set_new(meta, "format", json_string("skyline-net"));
    json_object_set_new(meta, "format_version", json_string(num[0]));
    json_object_set_new(meta, "game", json_string(in->game));
    json_object_set_new(meta, "players", json_string(num[1]));
    json_object_set_new(meta, "observation_size", json_string(num[2]));
    json_object_set_new(meta, "action_count", json_string(num[3]));
    json_object_set_new(meta, "arch", json_string("resmlp"));
    json_object_set_new(meta, "width", json_string(num[4]));
    json_object_set_new(meta, "depth", json_string(num[5]));
    json_object_set_new(meta, "training_data", json_string(in->training_data));
    json_object_set_new(meta, "training_command", json_string(in->training_command));
    json_object_set_new(meta, "engine", json_string(in->engine));
    json_object_set_new(hdr, "__metadata__", meta);
    nn_tensor_spec_t spec[NN_MAX_TENSORS];
    int n = nn_tensor_specs(net->O, net->H, net->D, net->A, net->P, spec);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)spec[i].rows * (size_t)(spec[i].cols ? spec[i].cols : 1) * 4;
        json_t *t = json_object();
        json_object_set_new(t, "dtype", json_string("F32"));
        json_object_set_new(t, "shape",
                            spec[i].cols ? json_pack("[ii]", spec[i].rows, spec[i].cols)
                                         : json_pack("[i]", spec[i].rows));
        json_object_set_new(t, "data_offsets",
                            json_pack("[II]", (json_int_t)at, (json_int_t)(at + bytes)));
        json_object_set_new(hdr, spec[i].name, t);
        at += bytes;
    }
    char *text = json_dumps(hdr, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(hdr);
    return text;
}

int nn_net_save(const nn_net_t *net, const char *path, char *err, size_t errlen)
{
    char *text = header_text(net);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* Padded with spaces to a multiple of 8 bytes, as safetensors writers do. */
    size_t hlen = strlen(text), padded = (hlen + 7) / 8 * 8;
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(text);
        snprintf(err, errlen, "%s: cannot write", path);
        return -1;
    }
    uint8_t len8[8];
    for (int i = 0; i < 8; i++)
        len8[i] = (uint8_t)((uint64_t)padded >> (8 * i));
    int ok = fwrite(len8, 1, 8, f) == 8 && fwrite(text, 1, hlen, f) == hlen;
    for (size_t i = hlen; ok && i < padded; i++)
        ok = fputc(' ', f) != EOF;
    for (size_t k = 0; ok && k < net->raw_count; k++) {
        uint32_t u;
        memcpy(&u, &net->raw[k], sizeof u);
        uint8_t b[4] = {(uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24)};
        ok = fwrite(b, 1, 4, f) == 4;
    }
    ok = (fclose(f) == 0) && ok;
    free(text);
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write", path);
        return -1;
    }
    return 0;
}
