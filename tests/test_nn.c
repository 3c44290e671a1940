/*
 * The network file and forward pass of nn/ (docs/NETS.md): a small net written here by
 * hand, its outputs against plain loops over the same numbers, every refusal of the
 * reader, batches against single evaluations, threads, a save/load round trip, and the
 * same outputs for two determinizations of one information set.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/game.h"
#include "nn/net.h"
#include "tests/test.h"

#define ERRLEN 512

/* A file being built: the header (JSON) and the float data, canonical layout. */
typedef struct draft {
    json_t *hdr;
    float *data;
    size_t floats;
    int O, H, D, A, P;
} draft_t;

/* Adds tensor name of rows x cols (cols 0: a vector) at the end of the data. */
static void add_tensor(draft_t *d, const char *name, int rows, int cols, pcg32_t *rng)
{
    size_t n = (size_t)rows * (size_t)(cols ? cols : 1);
    d->data = realloc(d->data, (d->floats + n) * sizeof(float));
    for (size_t k = 0; k < n; k++)
        d->data[d->floats + k] = (float)(pcg32_double(rng) - 0.5);
    json_t *t = json_object();
    json_object_set_new(t, "dtype", json_string("F32"));
    json_object_set_new(t, "shape", cols ? json_pack("[ii]", rows, cols) : json_pack("[i]", rows));
    json_object_set_new(
        t, "data_offsets",
        json_pack("[II]", (json_int_t)(d->floats * 4), (json_int_t)((d->floats + n) * 4)));
    json_object_set_new(d->hdr, name, t);
    d->floats += n;
}

static void meta_set(draft_t *d, const char *key, const char *value)
{
    json_object_set_new(json_object_get(d->hdr, "__metadata__"), key, json_string(value));
}

/* A valid net of game/players, width H, depth D, weights from seed. */
static draft_t draft_new(const char *game, int players, int H, int D, uint64_t seed)
{
    const game_api_t *api = game_find(game);
    draft_t d = {
        json_object(), NULL, 0, api->observation_size(players), H, D, api->action_count(players),
        players};
    char num[6][16];
    snprintf(num[0], 16, "%d", players);
    snprintf(num[1], 16, "%d", d.O);
    snprintf(num[2], 16, "%d", d.A);
    snprintf(num[3], 16, "%d", H);
    snprintf(num[4], 16, "%d", D);
    json_object_set_new(d.hdr, "__metadata__", json_object());
    const char *kv[][2] = {{"format", "skyline-net"},
                           {"format_version", "1"},
                           {"game", game},
                           {"players", num[0]},
                           {"observation_size", num[1]},
                           {"action_count", num[2]},
                           {"arch", "resmlp"},
                           {"width", num[3]},
                           {"depth", num[4]},
                           {"training_data", "none"},
                           {"training_command", "tests/test_nn.c"},
                           {"engine", "skyline test"}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        meta_set(&d, kv[i][0], kv[i][1]);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 7);
    add_tensor(&d, "stem.weight", H, d.O, &rng);
    add_tensor(&d, "stem.bias", H, 0, &rng);
    for (int k = 0; k < D; k++) {
        char nm[4][40];
        snprintf(nm[0], 40, "blocks.%d.fc1.weight", k);
        snprintf(nm[1], 40, "blocks.%d.fc1.bias", k);
        snprintf(nm[2], 40, "blocks.%d.fc2.weight", k);
        snprintf(nm[3], 40, "blocks.%d.fc2.bias", k);
        add_tensor(&d, nm[0], H, H, &rng);
        add_tensor(&d, nm[1], H, 0, &rng);
        add_tensor(&d, nm[2], H, H, &rng);
        add_tensor(&d, nm[3], H, 0, &rng);
    }
    add_tensor(&d, "policy.weight", d.A, H, &rng);
    add_tensor(&d, "policy.bias", d.A, 0, &rng);
    add_tensor(&d, "value.weight", players, H, &rng);
    add_tensor(&d, "value.bias", players, 0, &rng);
    return d;
}

static void draft_free(draft_t *d)
{
    json_decref(d->hdr);
    free(d->data);
}

/* The file's bytes (malloc'd) into *size: data_bytes of the data are kept (all: -1). */
static uint8_t *draft_bytes(const draft_t *d, long data_bytes, size_t *size)
{
    char *text = json_dumps(d->hdr, JSON_COMPACT);
    size_t hlen = strlen(text), dlen = data_bytes < 0 ? d->floats * 4 : (size_t)data_bytes;
    uint8_t *b = calloc(1, 8 + hlen + dlen + 1);
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)((uint64_t)hlen >> (8 * i));
    memcpy(b + 8, text, hlen);
    memcpy(b + 8 + hlen, d->data, dlen < d->floats * 4 ? dlen : d->floats * 4); /* little endian */
    free(text);
    *size = 8 + hlen + dlen;
    return b;
}

static nn_net_t *draft_load(const draft_t *d, const game_api_t *api, int players, char *err)
{
    size_t size;
    uint8_t *b = draft_bytes(d, -1, &size);
    nn_net_t *net = nn_net_from_bytes(b, size, "t.net", api, players, err, ERRLEN);
    free(b);
    return net;
}

/* The forward pass by plain loops over the draft's numbers, in double. */
static void reference(const draft_t *d, const float *x, const int *ids, int n, double *logits,
                      double *value)
{
    int O = d->O, H = d->H;
    const float *p = d->data;
    double h[256], r[256], t[256];
    for (int i = 0; i < H; i++) {
        double s = p[H * O + i];
        for (int j = 0; j < O; j++)
            s += (double)p[i * O + j] * x[j];
        h[i] = s > 0 ? s : 0;
    }
    p += H * O + H;
    for (int k = 0; k < d->D; k++, p += 2 * (H * H + H)) {
        for (int i = 0; i < H; i++) {
            double s = p[H * H + i];
            for (int j = 0; j < H; j++)
                s += (double)p[i * H + j] * h[j];
            r[i] = s > 0 ? s : 0;
        }
        const float *q = p + H * H + H;
        for (int i = 0; i < H; i++) {
            double s = q[H * H + i];
            for (int j = 0; j < H; j++)
                s += (double)q[i * H + j] * r[j];
            t[i] = h[i] + s;
        }
        for (int i = 0; i < H; i++)
            h[i] = t[i] > 0 ? t[i] : 0;
    }
    const float *pw = p, *pb = p + (size_t)d->A * H, *vw = pb + d->A, *vb = vw + d->P * H;
    for (int k = 0; k < n; k++) {
        double s = pb[ids[k]];
        for (int j = 0; j < H; j++)
            s += (double)pw[(size_t)ids[k] * H + j] * h[j];
        logits[k] = s;
    }
    for (int k = 0; k < d->P; k++) {
        double s = vb[k];
        for (int j = 0; j < H; j++)
            s += (double)vw[k * H + j] * h[j];
        value[k] = 1.0 / (1.0 + exp(-s));
    }
}

/* A position of game/players after `plies` seeded random moves: its mover's observation and
   legal action ids. Returns the number of ids. */
static int position(const game_api_t *api, int players, uint64_t seed, int plies, float *obs,
                    int *ids, void *state)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    char err[ERRLEN];
    CHECK(api->new_game(state, &opt, err, sizeof err) == 0);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    move_t moves[GAME_MAX_MOVES];
    char undo[GAME_UNDO_MAX];
    for (int i = 0; i < plies; i++) {
        int n = api->gen_moves(state, moves);
        if (n == 0)
            break;
        api->make(state, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
    }
    if (api->is_terminal(state))
        return 0;
    int n = api->gen_moves(state, moves);
    for (int i = 0; i < n; i++)
        ids[i] = api->move_action(state, moves[i]);
    api->observation(state, api->to_move(state), obs);
    return n;
}

/* Outputs against the plain loops, for one net shape. */
static void test_forward(const char *game, int players, int H, int D)
{
    const game_api_t *api = game_find(game);
    draft_t d = draft_new(game, players, H, D, 42 + (uint64_t)H);
    char err[ERRLEN];
    nn_net_t *net = draft_load(&d, api, players, err);
    CHECK_MSG(net != NULL, "%s", err);
    if (!net) {
        draft_free(&d);
        return;
    }
    nn_workspace_t *ws = nn_workspace_new(net, 8);
    void *state = malloc(api->state_size);
    float *obs = malloc(sizeof(float) * (size_t)d.O * 8), logits[8][GAME_MAX_MOVES],
          value[8][GAME_MAX_PLAYERS];
    int *ids = malloc(sizeof(int) * GAME_MAX_MOVES * 8), n[8], total = 0;
    double worst = 0;
    for (int b = 0; b < 6; b++) {
        n[b] = position(api, players, 100 + (uint64_t)b, 3 * b, obs + (size_t)b * d.O, ids + total,
                        state);
        CHECK(nn_eval(net, ws, obs + (size_t)b * d.O, ids + total, n[b], logits[b], value[b]) == 0);
        double rl[GAME_MAX_MOVES], rv[GAME_MAX_PLAYERS];
        reference(&d, obs + (size_t)b * d.O, ids + total, n[b], rl, rv);
        for (int k = 0; k < n[b]; k++)
            worst = fmax(worst, fabs(rl[k] - logits[b][k]) / fmax(1.0, fabs(rl[k])));
        for (int k = 0; k < players; k++)
            worst = fmax(worst, fabs(rv[k] - value[b][k]));
        total += n[b];
    }
    CHECK_MSG(worst < 1e-5, "%s %dp H %d D %d (%s): error %g", game, players, H, D, nn_isa(),
              worst);
    /* The batch gives the same bits as one position at a time. */
    float *bl = malloc(sizeof(float) * (size_t)total), bv[8 * GAME_MAX_PLAYERS];
    CHECK(nn_eval_batch(net, ws, 6, obs, n, ids, bl, bv) == 0);
    int at = 0, same = 1;
    for (int b = 0; b < 6; b++) {
        same &= !memcmp(bl + at, logits[b], sizeof(float) * (size_t)n[b]);
        same &= !memcmp(bv + b * players, value[b], sizeof(float) * (size_t)players);
        at += n[b];
    }
    CHECK_MSG(same, "%s H %d: batch differs from single evaluations", game, H);
    /* Out-of-range ids and batch sizes are refused. */
    int bad = d.A;
    CHECK(nn_eval(net, ws, obs, &bad, 1, logits[0], value[0]) == -1);
    bad = -1;
    CHECK(nn_eval(net, ws, obs, &bad, 1, logits[0], value[0]) == -1);
    CHECK(nn_eval_batch(net, ws, 9, obs, n, ids, bl, bv) == -1);
    free(bl);
    free(ids);
    free(obs);
    free(state);
    nn_workspace_free(ws);
    nn_net_free(net);
    draft_free(&d);
}

/* The draft, changed by what, is refused with an error holding `want`, on one line. */
static void expect_refusal(draft_t *d, long data_bytes, const game_api_t *api, int players,
                           const char *want, const char *what)
{
    size_t size;
    uint8_t *b = draft_bytes(d, data_bytes, &size);
    char err[ERRLEN] = "";
    nn_net_t *net = nn_net_from_bytes(b, size, "t.net", api, players, err, ERRLEN);
    CHECK_MSG(net == NULL, "%s: loaded", what);
    CHECK_MSG(strstr(err, want) != NULL, "%s: error '%s' lacks '%s'", what, err, want);
    CHECK_MSG(strchr(err, '\n') == NULL && !strncmp(err, "t.net: ", 7), "%s: '%s'", what, err);
    nn_net_free(net);
    free(b);
}

/* A fresh valid draft changed by one edit of its header, expected refused. */
static void refuse_edit(const char *key, const char *field, json_t *value, const char *want)
{
    draft_t d = draft_new("connect4", 2, 4, 1, 5);
    json_t *t = json_object_get(d.hdr, key);
    if (field && value)
        json_object_set_new(t, field, value);
    else if (field)
        json_object_del(t, field);
    else if (value)
        json_object_set_new(d.hdr, key, value);
    else
        json_object_del(d.hdr, key);
    char what[128];
    snprintf(what, sizeof what, "%s.%s", key, field ? field : "");
    expect_refusal(&d, -1, NULL, 0, want, what);
    draft_free(&d);
}

static void test_refusals(void)
{
    const game_api_t *c4 = game_find("connect4");
    char err[ERRLEN];
    /* Raw bytes: too short, a header length beyond the file, JSON that is not an object. */
    CHECK(nn_net_from_bytes((const uint8_t *)"abc", 3, "t.net", NULL, 0, err, ERRLEN) == NULL);
    CHECK(strstr(err, "header length") != NULL);
    uint8_t big[16] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, '{', '}'};
    CHECK(nn_net_from_bytes(big, 16, "t.net", NULL, 0, err, ERRLEN) == NULL);
    CHECK(strstr(err, "header length") != NULL);
    uint8_t bad[] = {6, 0, 0, 0, 0, 0, 0, 0, '{', '"', 'a', '"', ':', '1'};
    CHECK(nn_net_from_bytes(bad, sizeof bad, "t.net", NULL, 0, err, ERRLEN) == NULL);
    CHECK_MSG(strstr(err, "header: not a JSON object") != NULL, "%s", err);
    uint8_t arr[] = {2, 0, 0, 0, 0, 0, 0, 0, '[', ']'};
    CHECK(nn_net_from_bytes(arr, sizeof arr, "t.net", NULL, 0, err, ERRLEN) == NULL);
    CHECK(strstr(err, "header: not a JSON object") != NULL);

    /* Tensors: dtype, shape, offsets, missing, unknown. */
    refuse_edit("stem.weight", "dtype", json_string("F16"), "stem.weight.dtype");
    refuse_edit("blocks.0.fc1.weight", "shape", json_pack("[ii]", 4, 5),
                "blocks.0.fc1.weight.shape");
    refuse_edit("value.bias", "shape", json_pack("[ii]", 2, 1), "value.bias.shape");
    refuse_edit("policy.bias", "data_offsets", json_pack("[i]", 0), "policy.bias.data_offsets");
    refuse_edit("policy.bias", "data_offsets", json_pack("[ii]", 0, 4), "policy.bias.data_offsets");
    refuse_edit("policy.bias", NULL, NULL, "policy.bias: missing");
    refuse_edit("blocks.1.fc1.bias", NULL, json_object(), "not a tensor");
    refuse_edit("policy.weight", "shape", NULL, "policy.weight.shape");
    {
        /* Two tensors on the same bytes; one past the end of the data; trailing bytes; a
           truncated file. */
        draft_t d = draft_new("connect4", 2, 4, 1, 5);
        json_t *sb = json_object_get(json_object_get(d.hdr, "stem.bias"), "data_offsets");
        json_object_set(json_object_get(d.hdr, "blocks.0.fc1.bias"), "data_offsets", sb);
        expect_refusal(&d, -1, NULL, 0, "overlaps another tensor", "overlap");
        draft_free(&d);
        d = draft_new("connect4", 2, 4, 1, 5);
        json_int_t end = (json_int_t)d.floats * 4;
        json_object_set_new(json_object_get(d.hdr, "value.bias"), "data_offsets",
                            json_pack("[II]", end, end + 8));
        expect_refusal(&d, -1, NULL, 0, "value.bias.data_offsets: past the end", "bounds");
        draft_free(&d);
        d = draft_new("connect4", 2, 4, 1, 5);
        expect_refusal(&d, (long)d.floats * 4 - 4, NULL, 0, "need", "truncated");
        d.data = realloc(d.data, (d.floats + 1) * sizeof(float));
        d.data[d.floats++] = 0;
        expect_refusal(&d, -1, NULL, 0, "data: 4 bytes after the last tensor", "trailing");
        draft_free(&d);
    }

    /* Metadata: each key missing, then wrong values. */
    const char *keys[] = {
        "format", "format_version", "game",  "players",       "observation_size", "action_count",
        "arch",   "width",          "depth", "training_data", "training_command", "engine"};
    for (int i = 0; i < 12; i++) {
        char want[80];
        snprintf(want, sizeof want, "__metadata__.%s: missing", keys[i]);
        refuse_edit("__metadata__", keys[i], NULL, want);
    }
    refuse_edit("__metadata__", NULL, NULL, "__metadata__: missing");
    refuse_edit("__metadata__", "format", json_string("other"), "__metadata__.format");
    refuse_edit("__metadata__", "format_version", json_string("2"), "__metadata__.format_version");
    refuse_edit("__metadata__", "game", json_string("chess"), "__metadata__.game");
    refuse_edit("__metadata__", "players", json_string("3"), "__metadata__.players");
    refuse_edit("__metadata__", "players", json_string("02"), "__metadata__.players");
    refuse_edit("__metadata__", "observation_size", json_string("7"),
                "__metadata__.observation_size");
    refuse_edit("__metadata__", "action_count", json_string("8"), "__metadata__.action_count");
    refuse_edit("__metadata__", "arch", json_string("cnn"), "__metadata__.arch");
    refuse_edit("__metadata__", "width", json_string("0"), "__metadata__.width");
    refuse_edit("__metadata__", "width", json_string("3"), "stem.weight.shape");
    refuse_edit("__metadata__", "width", json_string("5"), "the tensors of width 5 depth 1 need");
    refuse_edit("__metadata__", "depth", json_string("99"), "__metadata__.depth");
    refuse_edit("__metadata__", "depth", json_string("2"), "the tensors of width 4 depth 2 need");
    refuse_edit("__metadata__", "engine", json_integer(1), "__metadata__.engine: not a string");
    refuse_edit("__metadata__", "extra", json_integer(1), "__metadata__.extra: not a string");

    /* A net for another game, player count or observation size than the caller's. */
    draft_t d = draft_new("connect4", 2, 4, 1, 5);
    expect_refusal(&d, -1, game_find("uptown"), 0, "__metadata__.game: the net is for connect4",
                   "game");
    expect_refusal(&d, -1, c4, 3, "__metadata__.players: the net is for 2 players", "players");
    nn_net_t *net = draft_load(&d, c4, 2, err);
    CHECK_MSG(net != NULL, "%s", err);
    nn_net_free(net);
    draft_free(&d);
    d = draft_new("uptown", 3, 4, 0, 5);
    char obs[16];
    snprintf(obs, sizeof obs, "%d", game_find("uptown")->observation_size(3) + 1);
    meta_set(&d, "observation_size", obs);
    expect_refusal(&d, -1, NULL, 0, "__metadata__.observation_size", "observation size");
    draft_free(&d);

    /* Files: missing, a directory. */
    CHECK(nn_net_load("no-such-file.net", NULL, 0, err, ERRLEN) == NULL);
    CHECK(strstr(err, "no-such-file.net: cannot open") != NULL);
    CHECK(nn_net_load(".", NULL, 0, err, ERRLEN) == NULL);
    CHECK_MSG(strstr(err, ".: not a regular file") != NULL, "%s", err);
}

/* Saved and loaded again, a random net gives the same bits; its metadata survive. */
static void test_round_trip(void)
{
    const game_api_t *api = game_find("uptown");
    char err[ERRLEN];
    nn_net_t *a = nn_net_random(api, 4, 24, 2, 9, "data.jsonl", "train --x", err, ERRLEN);
    CHECK_MSG(a != NULL, "%s", err);
    /* A name of this process's own: the test runs once per kernel, in parallel. */
    char path[64];
    snprintf(path, sizeof path, "test_nn_round_%ld.net", (long)getpid());
    CHECK(nn_net_save(a, path, err, ERRLEN) == 0);
    nn_net_t *b = nn_net_load(path, api, 4, err, ERRLEN);
    CHECK_MSG(b != NULL, "%s", err);
    if (!a || !b)
        return;
    CHECK(!strcmp(nn_net_info(b)->training_command, "train --x"));
    CHECK(!strcmp(nn_net_info(b)->training_data, "data.jsonl"));
    CHECK(nn_net_info(b)->width == 24 && nn_net_info(b)->depth == 2);
    void *state = malloc(api->state_size);
    float obs[4096], la[GAME_MAX_MOVES], lb[GAME_MAX_MOVES], va[5], vb[5];
    int ids[GAME_MAX_MOVES];
    CHECK((size_t)api->observation_size(4) <= sizeof obs / sizeof obs[0]);
    int n = position(api, 4, 77, 10, obs, ids, state);
    nn_workspace_t *wa = nn_workspace_new(a, 1), *wb = nn_workspace_new(b, 1);
    CHECK(nn_eval(a, wa, obs, ids, n, la, va) == 0);
    CHECK(nn_eval(b, wb, obs, ids, n, lb, vb) == 0);
    CHECK(!memcmp(la, lb, sizeof(float) * (size_t)n) && !memcmp(va, vb, sizeof(float) * 4));
    /* Threads evaluating one net at once, each with its own workspace, agree. */
    int differ = 0;
#pragma omp parallel num_threads(4) reduction(+ : differ)
    {
        nn_workspace_t *w = nn_workspace_new(b, 1);
        float l[GAME_MAX_MOVES], v[5];
        for (int rep = 0; rep < 50; rep++) {
            nn_eval(b, w, obs, ids, n, l, v);
            differ += memcmp(l, la, sizeof(float) * (size_t)n) != 0 ||
                      memcmp(v, va, sizeof(float) * 4) != 0;
        }
        nn_workspace_free(w);
    }
    CHECK_EQ_INT(differ, 0);
    nn_workspace_free(wa);
    nn_workspace_free(wb);
    free(state);
    nn_net_free(a);
    nn_net_free(b);
    remove(path);
}

/* Two determinizations of the mover's information set: different hidden parts, the same
   observation, moves and outputs (bit for bit). */
static void test_determinizations(const char *game, int players)
{
    const game_api_t *api = game_find(game);
    char err[ERRLEN];
    nn_net_t *net = nn_net_random(api, players, 32, 1, 3, NULL, NULL, err, ERRLEN);
    CHECK_MSG(net != NULL, "%s", err);
    nn_workspace_t *ws = nn_workspace_new(net, 1);
    void *s0 = malloc(api->state_size), *s1 = malloc(api->state_size),
         *s2 = malloc(api->state_size);
    int O = api->observation_size(players), differ_states = 0, positions = 0;
    float *o1 = malloc(sizeof(float) * (size_t)O), *o2 = malloc(sizeof(float) * (size_t)O);
    int ids1[GAME_MAX_MOVES], ids2[GAME_MAX_MOVES];
    float l1[GAME_MAX_MOVES], l2[GAME_MAX_MOVES], v1[5], v2[5];
    for (int g = 0; g < 10; g++) {
        if (!position(api, players, 500 + (uint64_t)g, 4 + 5 * g, o1, ids1, s0))
            continue;
        int me = api->to_move(s0);
        pcg32_t r1, r2;
        pcg32_seed(&r1, 1000 + (uint64_t)g, 1);
        pcg32_seed(&r2, 2000 + (uint64_t)g, 1);
        api->copy(s1, s0);
        api->copy(s2, s0);
        api->determinize(s1, me, &r1);
        api->determinize(s2, me, &r2);
        differ_states += memcmp(s1, s2, api->state_size) != 0;
        move_t m1[GAME_MAX_MOVES], m2[GAME_MAX_MOVES];
        int n1 = api->gen_moves(s1, m1), n2 = api->gen_moves(s2, m2);
        CHECK_EQ_INT(n1, n2);
        for (int i = 0; i < n1 && n1 == n2; i++) {
            ids1[i] = api->move_action(s1, m1[i]);
            ids2[i] = api->move_action(s2, m2[i]);
        }
        api->observation(s1, me, o1);
        api->observation(s2, me, o2);
        if (n1 != n2)
            continue;
        CHECK(nn_eval(net, ws, o1, ids1, n1, l1, v1) == 0);
        CHECK(nn_eval(net, ws, o2, ids2, n2, l2, v2) == 0);
        CHECK_MSG(!memcmp(l1, l2, sizeof(float) * (size_t)n1) &&
                      !memcmp(v1, v2, sizeof(float) * (size_t)players),
                  "%s %dp game %d: outputs differ between determinizations", game, players, g);
        positions++;
    }
    CHECK_MSG(differ_states >= 5, "%s: only %d determinizations differ", game, differ_states);
    CHECK(positions >= 8);
    free(o1);
    free(o2);
    free(s0);
    free(s1);
    free(s2);
    nn_workspace_free(ws);
    nn_net_free(net);
}

int main(void)
{
    printf("kernel %s\n", nn_isa());
    test_forward("connect4", 2, 5, 2);
    test_forward("connect4", 2, 37, 1);
    test_forward("uptown", 3, 20, 0);
    test_forward("towerup", 2, 16, 2);
    test_refusals();
    test_round_trip();
    test_determinizations("towerup", 3);
    test_determinizations("uptown", 4);
    return test_finish("test_nn");
}
