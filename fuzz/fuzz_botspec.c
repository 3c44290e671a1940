/*
 * Target "botspec": a bot spec (FORMATS.md §6) as --bot gives it, made into a bot of every
 * game. A bot that is made chooses one move in a seeded position when that is cheap (not
 * mcts with a time budget, many iterations or threads), and the move must be legal. Specs
 * with params=FILE or net=FILE|NAME are skipped (they read files; parameter and network
 * files have their own targets), and an mcts spec gets mem=1 unless it names at most
 * 16 MiB, so that each input costs little memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "core/game.h"
#include "fuzz/fuzz.h"

/* Largest mem= (MiB) and iters= an input may use; more is skipped or not searched. */
#define BOTSPEC_MEM_MAX   16
#define BOTSPEC_ITERS_MAX 200

/* The value of key in spec, or NULL. */
static const char *spec_value(const bot_spec_t *spec, const char *key)
{
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], key))
            return spec->values[k];
    return NULL;
}

/* Whether a bot of this spec chooses a move quickly. */
static int cheap_to_run(const bot_spec_t *spec)
{
    if (strcmp(spec->name, "mcts"))
        return 1;
    const char *iters = spec_value(spec, "iters"), *threads = spec_value(spec, "threads");
    return iters && atol(iters) <= BOTSPEC_ITERS_MAX && !spec_value(spec, "time") &&
           (!threads || !strcmp(threads, "1"));
}

/* Makes a bot of text for api and, if cheap, lets it choose in a seeded position. */
static void try_bot(const game_api_t *api, const char *text, int run, uint64_t h)
{
    char err[GAME_ERR_MAX];
    err[0] = 0;
    bot_t *b = bot_new(api, text, h, err, sizeof err);
    if (!b) {
        fuzz_check_error(err, sizeof err, "botspec: bot_new");
        return;
    }
    if (strcmp(b->spec, text))
        fuzz_fail("botspec: the bot keeps another spec than it was made from", text);
    if (run) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = api->min_players + (int)(h % 3);
        opt.seed = h;
        void *s = malloc(api->state_size);
        move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
        unsigned char undo[GAME_UNDO_MAX];
        pcg32_t rng;
        pcg32_seed(&rng, h, 7);
        if (!s || !moves)
            abort();
        if (api->new_game(s, &opt, err, sizeof err) == 0) {
            for (int i = (int)(h >> 8) % 24; i > 0 && !api->is_terminal(s); i--) {
                int n = api->gen_moves(s, moves);
                api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
            }
            if (!api->is_terminal(s)) {
                move_t m = bot_choose(b, s);
                int n = api->gen_moves(s, moves), legal = 0;
                for (int i = 0; i < n; i++)
                    legal |= moves[i] == m;
                if (!legal)
                    fuzz_fail("botspec: the bot chose an illegal move", text);
            }
        }
        free(moves);
        free(s);
    }
    bot_free(b);
}

int fuzz_botspec(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[GAME_ERR_MAX];
    bot_spec_t spec;
    uint64_t h = fuzz_hash(data, size);
    if (bot_spec_parse(text, &spec, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "botspec: parse");
    } else if (!spec_value(&spec, "params") && !spec_value(&spec, "net")) {
        const char *mem = spec_value(&spec, "mem");
        char *with_mem = NULL;
        if (!strcmp(spec.name, "mcts") && !mem) {
            size_t len = strlen(text) + 8;
            with_mem = malloc(len);
            if (!with_mem)
                abort();
            snprintf(with_mem, len, "%s%smem=1", text, spec.key_count ? "," : ":");
        }
        if (!mem || atol(mem) <= BOTSPEC_MEM_MAX) {
            const char *use = with_mem ? with_mem : text;
            for (int g = 0; g < game_count(); g++)
                try_bot(game_at(g), use, cheap_to_run(&spec), h);
        }
        free(with_mem);
    }
    free(text);
    return 0;
}
