/*
 * skyline nets: the networks found by name (nn/nets.h) or the files given, each loaded and
 * checked (docs/NETS.md), optionally against a game and player count, one line each.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "nn/nets.h"

static const char nets_help[] =
    "usage: skyline nets [NAME|FILE...] [--game G] [--players N]\n"
    "Loads and checks networks (docs/NETS.md), one line each: name, game, players,\n"
    "observation size, action count, width x depth, file. Without NAME or FILE: every\n"
    "NAME" NN_NET_EXT " of the folders searched for names, in search order ($SKYLINE_NETS,\n"
    "then the source tree's and the installed nets folders); one that a net of the same\n"
    "name in an earlier folder hides is marked (shadowed). A value with a '/' or a '.' is\n"
    "a file; any other a name. A net that fails is one line on stderr (exit 2).\n"
    "  --game G      refuse a net for another game\n"
    "  --players N   refuse a net for another player count\n";

/* What the command line asked for. */
typedef struct nets_args {
    const char *values[256]; /* names and files given */
    int count;
    const game_api_t *api; /* --game, or NULL */
    int players;           /* --players, or 0 */
} nets_args_t;

/* Loads value (a name or a path) and prints its line: 0, or -1 after its error line. */
static int nets_check(const nets_args_t *a, const char *value, const char *label)
{
    char path[4096], err[GAME_ERR_MAX + 4096];
    nn_net_t *net = NULL;
    if (!nn_net_find(value, path, sizeof path, err, sizeof err))
        net = nn_net_load(path, a->api, a->players, err, sizeof err);
    if (!net) {
        fprintf(stderr, "skyline: %s\n", err);
        return -1;
    }
    const nn_info_t *in = nn_net_info(net);
    printf("%-16s %-9s %dp  obs %-5d actions %-6d resmlp %dx%d  %s\n", label, in->game, in->players,
           in->observation_size, in->action_count, in->width, in->depth, path);
    nn_net_free(net);
    return 0;
}

/* True if name ends in NN_NET_EXT after a valid net name; the name into stem. */
static int net_file_name(const char *name, char *stem, size_t len)
{
    size_t n = strlen(name), e = strlen(NN_NET_EXT);
    if (n <= e || n - e >= len || strcmp(name + n - e, NN_NET_EXT))
        return 0;
    memcpy(stem, name, n - e);
    stem[n - e] = 0;
    return nn_net_name_valid(stem);
}

static int cmp_text(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every net of the folders searched for names, in search order, each folder sorted. */
static int nets_list(const nets_args_t *a)
{
    char dirs[NN_DIRS_MAX][4096];
    int n = nn_net_dirs(dirs, NN_DIRS_MAX), failed = 0, found = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        char *names[1024];
        int count = 0;
        struct dirent *e;
        while ((e = readdir(d)) && count < 1024) {
            char stem[NN_NAME_MAX];
            if (net_file_name(e->d_name, stem, sizeof stem) && (names[count] = strdup(stem)))
                count++;
        }
        closedir(d);
        qsort(names, (size_t)count, sizeof names[0], cmp_text);
        for (int k = 0; k < count; k++) {
            char path[4096 + NN_NAME_MAX + 16], found_at[4096], err[GAME_ERR_MAX];
            char label[NN_NAME_MAX + 16];
            if ((size_t)snprintf(path, sizeof path, "%s/%s%s", dirs[i], names[k], NN_NET_EXT) <
                sizeof path) {
                /* A net of the same name in an earlier folder is the one the name finds. */
                int shadowed = !nn_net_find(names[k], found_at, sizeof found_at, err, sizeof err) &&
                               strcmp(found_at, path);
                snprintf(label, sizeof label, "%s%s", names[k], shadowed ? " (shadowed)" : "");
                failed |= nets_check(a, path, label) != 0;
            }
            found++;
            free(names[k]);
        }
    }
    if (!found)
        printf("no networks in the folders searched for names:%s\n", n ? "" : " none");
    for (int i = 0; i < n && !found; i++)
        printf("  %s\n", dirs[i]);
    return failed ? 2 : 0;
}

int cmd_nets(int argc, char **argv)
{
    nets_args_t a = {0};
    const char *players = NULL;
    for (int i = 1; i < argc; i++) {
        char shown[128];
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(nets_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--game")) {
            const char *g = cli_value(argc, argv, &i);
            if (!(a.api = game_find(g)))
                cli_die("unknown game '%s' for --game (known: %s)", cli_quote(g, shown),
                        cli_game_names());
        } else if (!strcmp(argv[i], "--players"))
            players = cli_value(argc, argv, &i);
        else if (argv[i][0] == '-' && argv[i][1])
            cli_die("unknown option '%s' (skyline nets --help)", cli_quote(argv[i], shown));
        else if (a.count == (int)(sizeof a.values / sizeof a.values[0]))
            cli_die("too many nets (at most %d)", a.count);
        else
            a.values[a.count++] = argv[i];
    }
    if (players)
        a.players = (int)cli_int("--players", players, a.api ? a.api->min_players : 1,
                                 a.api ? a.api->max_players : GAME_MAX_PLAYERS);
    if (!a.count)
        return nets_list(&a);
    int failed = 0;
    for (int k = 0; k < a.count; k++)
        failed |= nets_check(&a, a.values[k], a.values[k]) != 0;
    return failed ? 2 : 0;
}
