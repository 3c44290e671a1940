/* Target "net": network files (docs/NETS.md) read as a file; a net that loads is evaluated
   once on a zero observation with its first action ids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "nn/net.h"

int fuzz_net(const uint8_t *data, size_t size)
{
    char path[64], err[GAME_ERR_MAX];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    err[0] = 0;
    nn_net_t *net = nn_net_load(path, NULL, 0, err, sizeof err);
    close(fd);
    if (!net) {
        fuzz_check_error(err, sizeof err, "net: load");
        return 0;
    }
    const nn_info_t *in = nn_net_info(net);
    if (in->observation_size != in->api->observation_size(in->players) ||
        in->action_count != in->api->action_count(in->players))
        fuzz_fail("net", "a loaded net does not fit its game");
    nn_workspace_t *ws = nn_workspace_new(net, 1);
    float *obs = calloc((size_t)in->observation_size, sizeof(float));
    int ids[4], n = in->action_count < 4 ? in->action_count : 4;
    float logits[4], value[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        ids[i] = i;
    if (!ws || !obs)
        abort();
    if (nn_eval(net, ws, obs, ids, n, logits, value))
        fuzz_fail("net", "a loaded net refused valid action ids");
    int bad = in->action_count;
    if (!nn_eval(net, ws, obs, &bad, 1, logits, value))
        fuzz_fail("net", "an action id out of range was evaluated");
    free(obs);
    nn_workspace_free(ws);
    nn_net_free(net);
    return 0;
}
