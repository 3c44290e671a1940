/* Target "tunespec": a tuning spec file (`skyline tune --params FILE`: `name start lo hi c`
   lines) read from a file. An accepted file has at most one parameter per line, each
   inside its bounds with a positive step. */
#include <unistd.h>

#include "arena/spsa.h"
#include "core/game.h"
#include "fuzz/fuzz.h"

/* Lines of data with anything but blanks before a '#': at most one parameter each. */
static int content_lines(const uint8_t *data, size_t size)
{
    int lines = 0, content = 0, comment = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            lines += content;
            content = comment = 0;
        } else if (data[i] == '#') {
            comment = 1;
        } else if (!comment && data[i] != ' ' && data[i] != '\t' && data[i] != '\r') {
            content = 1;
        }
    }
    return lines;
}

int fuzz_tunespec(const uint8_t *data, size_t size)
{
    char path[64], err[GAME_ERR_MAX];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    spsa_param_t params[SPSA_MAX_PARAMS];
    int count = 0;
    int rc = spsa_spec_load(path, params, &count, err, sizeof err);
    close(fd);
    if (rc < 0) {
        fuzz_check_error(err, sizeof err, "tunespec: load");
    } else {
        if (count < 1 || count > SPSA_MAX_PARAMS)
            fuzz_fail("tunespec", "accepted with a parameter count out of range");
        if (count > content_lines(data, size))
            fuzz_fail("tunespec", "more parameters than lines (a line read in pieces)");
        for (int i = 0; i < count; i++)
            if (!(params[i].lo <= params[i].value && params[i].value <= params[i].hi &&
                  params[i].c > 0))
                fuzz_fail("tunespec: accepted a parameter outside its bounds", params[i].name);
    }
    return 0;
}
