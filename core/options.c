/*
 * A game's own options: "key=value" texts in game_options_t, checked against the keys of
 * the game's table (game_api_t.options) and its option_check.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* Length of the key of "key=value" text (0 if it has no '=' or the key is empty). */
static size_t option_key_len(const char *text)
{
    const char *eq = strchr(text, '=');
    return eq ? (size_t)(eq - text) : 0;
}

int game_options_add(game_options_t *opt, const char *text, char *err, size_t errlen)
{
    size_t len = option_key_len(text);
    if (len == 0) {
        snprintf(err, errlen, "a game option is KEY=VALUE, not '%s'", text);
        return -1;
    }
    for (int i = 0; i < opt->option_count; i++)
        if (option_key_len(opt->option[i]) == len && !strncmp(opt->option[i], text, len)) {
            opt->option[i] = text;
            return 0;
        }
    if (opt->option_count >= GAME_OPTION_MAX) {
        snprintf(err, errlen, "more than %d game options", GAME_OPTION_MAX);
        return -1;
    }
    opt->option[opt->option_count++] = text;
    return 0;
}

const char *game_options_get(const game_options_t *opt, const char *key)
{
    size_t len = strlen(key);
    for (int i = 0; opt && i < opt->option_count; i++)
        if (option_key_len(opt->option[i]) == len && !strncmp(opt->option[i], key, len))
            return opt->option[i] + len + 1;
    return NULL;
}

const char *game_option_keys(const game_api_t *api, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < api->option_count && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", api->options[i].key);
    return buf;
}

int game_options_check(const game_api_t *api, const game_options_t *opt, char *err, size_t errlen)
{
    for (int i = 0; i < opt->option_count; i++) {
        const char *text = opt->option[i];
        size_t len = option_key_len(text);
        const game_option_spec_t *spec = NULL;
        for (int k = 0; k < api->option_count && !spec; k++)
            if (strlen(api->options[k].key) == len && !strncmp(api->options[k].key, text, len))
                spec = &api->options[k];
        if (!spec && api->option_count == 0) {
            snprintf(err, errlen, "%s has no options (given: %s)", api->name, text);
            return -1;
        }
        if (!spec) {
            char keys[256];
            snprintf(err, errlen, "%s has no option '%.*s' (its options: %s)", api->name, (int)len,
                     text, game_option_keys(api, keys, sizeof keys));
            return -1;
        }
        if (api->option_check && api->option_check(spec->key, text + len + 1, err, errlen))
            return -1;
    }
    return 0;
}
