/*
 * The C forward pass for tests/nn_torch_check.py: reads a net and a file of positions,
 * writes each position's logits and values. Positions (little-endian, one after the
 * other): int32 n, n int32 action ids, observation_size float32. Output: per position n
 * logits then players values, float32.
 * usage: nn_eval_tool NET POSITIONS OUT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nn/net.h"

static int die(const char *msg)
{
    fprintf(stderr, "nn_eval_tool: %s\n", msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return die("usage: nn_eval_tool NET POSITIONS OUT");
    char err[GAME_ERR_MAX];
    nn_net_t *net = nn_net_load(argv[1], NULL, 0, err, sizeof err);
    if (!net)
        return die(err);
    const nn_info_t *in = nn_net_info(net);
    FILE *f = fopen(argv[2], "rb"), *out = fopen(argv[3], "wb");
    if (!f || !out)
        return die("cannot open the positions or the output");
    nn_workspace_t *ws = nn_workspace_new(net, 1);
    float *obs = malloc(sizeof(float) * (size_t)in->observation_size);
    int ids[GAME_MAX_MOVES];
    float logits[GAME_MAX_MOVES], value[GAME_MAX_PLAYERS];
    int32_t n;
    long count = 0;
    while (fread(&n, sizeof n, 1, f) == 1) {
        if (n < 0 || n > GAME_MAX_MOVES || fread(ids, sizeof(int), (size_t)n, f) != (size_t)n ||
            fread(obs, sizeof(float), (size_t)in->observation_size, f) !=
                (size_t)in->observation_size)
            return die("a truncated or bad position");
        if (nn_eval(net, ws, obs, ids, n, logits, value))
            return die("an action id out of range");
        fwrite(logits, sizeof(float), (size_t)n, out);
        fwrite(value, sizeof(float), (size_t)in->players, out);
        count++;
    }
    fclose(f);
    if (fclose(out))
        return die("cannot write the output");
    fprintf(stderr, "nn_eval_tool: %ld positions (%s kernel)\n", count, nn_isa());
    free(obs);
    nn_workspace_free(ws);
    nn_net_free(net);
    return 0;
}
