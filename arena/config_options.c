#include "config_options.h"

#include <stdlib.h>
#include <string.h>

/* The keys with a fixed place (config_options.h). */
static const char *const config_fixed_keys[] = {"board", "objectives", "start_floors", "setup"};

void config_options_read(const game_options_t *opt, config_options_t *out)
{
    memset(out, 0, sizeof *out);
    out->board = game_options_get(opt, "board");
    out->objectives = game_options_get(opt, "objectives");
    const char *floors = game_options_get(opt, "start_floors");
    out->start_floors = floors ? atoi(floors) : 3;
    const char *setup = game_options_get(opt, "setup");
    out->setup_random = setup && !strcmp(setup, "random");
    for (int i = 0; i < opt->option_count; i++) {
        bool fixed = false;
        for (size_t k = 0; k < sizeof config_fixed_keys / sizeof config_fixed_keys[0]; k++) {
            size_t len = strlen(config_fixed_keys[k]);
            fixed |=
                !strncmp(opt->option[i], config_fixed_keys[k], len) && opt->option[i][len] == '=';
        }
        if (!fixed)
            out->extra[out->extra_count++] = opt->option[i];
    }
}
