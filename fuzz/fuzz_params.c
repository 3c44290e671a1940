/* Target "params": a parameter file (FORMATS.md §7) read from a file by every game's
   heuristic, as heuristic:params=FILE and tune read it. */
#include <string.h>
#include <unistd.h>

#include "bots/heuristic.h"
#include "fuzz/fuzz.h"

int fuzz_params(const uint8_t *data, size_t size)
{
    char path[64], err[GAME_ERR_MAX];
    for (int g = 0; g < game_count(); g++) {
        const heuristic_t *h = heuristic_for(game_at(g));
        if (!h)
            continue;
        int fd = fuzz_memfile(data, size, path, sizeof path);
        if (fd < 0)
            return 0;
        heur_params_t w, before;
        heur_params_default(h, &w);
        before = w;
        int rc = heur_params_load(h, path, &w, err, sizeof err);
        close(fd);
        if (rc < 0) {
            fuzz_check_error(err, sizeof err, "params: load");
            if (memcmp(&w, &before, sizeof w))
                fuzz_fail("params", "a refused file changed the weights");
        }
    }
    return 0;
}
