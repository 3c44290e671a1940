/* skyline rate: ratings and tables from game record files (arena/rating.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "arena/rating.h"
#include "cli/cli.h"
#include "core/lines.h"
#include "core/record.h"
#include "viewer/viewer.h"

#define RATE_MAX_BOTS 256

/* Bots seen so far, by spec string: ids in order of first appearance. */
typedef struct rate_bots {
    int count;                  /* bots */
    char *specs[RATE_MAX_BOTS]; /* their specs (owned) */
} rate_bots_t;

/* A game's place in the order the statistics read the games in. */
typedef struct rate_place {
    bool keyed;      /* it has a tournament key: those come first */
    uint64_t config; /* its tournament's configuration hash */
    long index;      /* its game index there */
    long seq;        /* its position in reading order */
} rate_place_t;

/* Everything read from the files. */
typedef struct rate_data {
    rate_bots_t bots;                      /* bots by spec */
    rating_game_t *games;                  /* the games */
    long count;                            /* their number */
    long cap;                              /* allocated */
    rate_place_t *places;                  /* per game, its place in the order */
    rating_key_t *keys;                    /* tournament keys of the games that have one */
    long key_count;                        /* their number */
    char game[16];                         /* the game name, from the first record */
    long by_players[GAME_MAX_PLAYERS + 1]; /* games per player count */
    int players;                           /* --players N: only games of N players, 0: all */
    long left_out[GAME_MAX_PLAYERS + 1];   /* games of other player counts, per count */
} rate_data_t;

static int rate_lookup(void *ctx, const char *spec)
{
    rate_bots_t *b = ctx;
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->specs[i], spec))
            return i;
    if (b->count == RATE_MAX_BOTS)
        return -1;
    if (!(b->specs[b->count] = strdup(spec)))
        cli_die("out of memory");
    return b->count++;
}

/* Options followed by a value (the file arguments are the others). */
static bool rate_takes_value(const char *a)
{
    static const char *const with_value[] = {"--anchor", "--bootstrap", "--html",
                                             "--sprt",   "--viewers",   "--players"};
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (!strcmp(a, with_value[k]))
            return true;
    return false;
}

static void rate_usage(void)
{
    printf(
        "usage: skyline rate FILE... [--json] [--anchor SPEC] [--bootstrap N]\n"
        "                    [--players N | --pool-players]\n"
        "Reads game records (JSON Lines, e.g. from skyline tournament or play --record) and\n"
        "prints per bot: rating, games, mean game result with 95%% CI, mean rank and mean\n"
        "score (Tower Up scores, Uptown groups); the likelihood of superiority over the next\n"
        "bot; and the pairwise table. Bots are told apart by their spec strings.\n"
        "Ratings: Bradley-Terry over the pairwise outcomes inside each game (maximum likelihood),\n"
        "on the Elo scale, the mean of the bots at 0 (as in skyline tournament's summary);\n"
        "error bars and LOS from a bootstrap over games (tournament games in index order).\n"
        "Bots get labels A, B, ... in the tournament's --bot order (files without it: in\n"
        "order of first appearance); the standings give each label's full spec.\n"
        "Games of different player counts are refused unless one is chosen or pooled:\n"
        "  --players N     rate only the games of N players\n"
        "  --pool-players  rate games of every player count together, in one model\n"
        "  --json          one JSON object instead of tables\n"
        "  --anchor SPEC   rate this bot 0 instead of the mean\n"
        "  --bootstrap N   bootstrap resamples (default %d, 0: no error bars)\n"
        "  --html FILE     also write the report page (charts, matrix, games opening in\n"
        "                  the replay viewer, written to FILE-without-.html-games/)\n"
        "  --sprt E0,E1,ALPHA,BETA   the page draws this SPRT between the first two bots\n"
        "  --viewers N     games (first by index) that get a viewer file (default %d)\n",
        RATING_BOOTSTRAP_DEFAULT, VIEWER_REPORT_VIEWERS);
}

/* Reads one record line into data; exits with FILE:LINE on anything malformed. */
static void rate_add_line(rate_data_t *d, const char *path, int file, long lineno, const char *line)
{
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    if (!rec)
        cli_die("%s:%ld: not JSON: %s", path, lineno, jerr.text);
    record_outcome_t o;
    record_outcome(rec, &o);
    const char *game = o.game;
    if (!game || !game_find(game))
        cli_die("%s:%ld: record has no known \"game\"", path, lineno);
    if (!d->game[0])
        snprintf(d->game, sizeof d->game, "%s", game);
    else if (strcmp(d->game, game))
        cli_die("%s:%ld: a %s record among %s records: rate one game at a time", path, lineno, game,
                d->game);
    if (d->players && o.players && o.players != d->players) {
        d->left_out[o.players]++; /* another player count: not rated */
        json_decref(rec);
        return;
    }
    if (d->count == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 1024;
        d->games = realloc(d->games, sizeof *d->games * (size_t)d->cap);
        d->keys = realloc(d->keys, sizeof *d->keys * (size_t)d->cap);
        d->places = realloc(d->places, sizeof *d->places * (size_t)d->cap);
        if (!d->games || !d->keys || !d->places)
            cli_die("out of memory");
    }
    char err[GAME_ERR_MAX];
    rating_game_t *g = &d->games[d->count];
    if (rating_game_from_record(rec, rate_lookup, &d->bots, g, err, sizeof err))
        cli_die("%s:%ld: %s", path, lineno, err);
    rate_place_t *place = &d->places[d->count];
    memset(place, 0, sizeof *place);
    place->seq = d->count;
    d->count++;
    d->by_players[g->players]++;
    json_t *t = json_object_get(rec, "tournament");
    const char *config = json_string_value(json_object_get(t, "config"));
    json_t *index = json_object_get(t, "index");
    if (config && json_is_integer(index)) {
        rating_key_t *k = &d->keys[d->key_count++];
        char *end;
        k->config = strtoull(config, &end, 16);
        if (*end || end == config)
            cli_die("%s:%ld: tournament config '%s' is not a hash", path, lineno, config);
        k->index = (long)json_integer_value(index);
        k->file = file;
        k->line = lineno;
        place->keyed = true;
        place->config = k->config;
        place->index = k->index;
    }
    json_decref(rec);
}

static void rate_read_file(rate_data_t *d, const char *path, int file)
{
    char err[GAME_ERR_MAX];
    FILE *f = lines_open(path, "record file", 0, err, sizeof err);
    if (!f)
        cli_die("%s", err);
    lines_reader_t r;
    lines_init(&r, f);
    int got;
    while ((got = lines_next(&r)) > 0) {
        if (r.len == 0)
            continue;
        /* A last line cut short by a running or killed writer is skipped. */
        if (r.cut) {
            json_t *probe = json_loads(r.text, 0, NULL);
            json_decref(probe);
            if (!probe) {
                fprintf(stderr, "skyline: %s:%ld: ignoring a cut-off last record\n", path,
                        r.lineno);
                break;
            }
        }
        rate_add_line(d, path, file, r.lineno, r.text);
    }
    if (got < 0) {
        lines_error(&r, path, err, sizeof err);
        cli_die("%s", err);
    }
    lines_free(&r);
    fclose(f);
}

static void rate_check_duplicates(rate_data_t *d, char **argv)
{
    const rating_key_t *a, *b;
    if (rating_keys_twice(d->keys, d->key_count, &a, &b))
        cli_die("game %ld of tournament %016llx is there twice (%s:%ld and %s:%ld)", b->index,
                (unsigned long long)b->config, argv[a->file], a->line, argv[b->file], b->line);
}

static int rate_place_cmp(const void *a, const void *b)
{
    const rate_place_t *x = a, *y = b;
    if (x->keyed != y->keyed)
        return x->keyed ? -1 : 1;
    if (x->keyed && x->config != y->config)
        return x->config < y->config ? -1 : 1;
    if (x->keyed && x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Puts the games in one order whatever the files' (a tournament appends in completion
 * order): tournament games by configuration and index, then the others as read. The
 * bootstrap draws games by position, so this makes rate's intervals those of the
 * tournament's summary on the same file.
 */
static void rate_sort_games(rate_data_t *d)
{
    qsort(d->places, (size_t)d->count, sizeof *d->places, rate_place_cmp);
    rating_game_t *sorted = malloc(sizeof *sorted * (size_t)d->count);
    if (!sorted)
        cli_die("out of memory");
    for (long i = 0; i < d->count; i++)
        sorted[i] = d->games[d->places[i].seq];
    free(d->games);
    d->games = sorted;
}

static json_t *rate_number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static void rate_print_json(const rate_data_t *d, const rating_table_t *t, int bootstrap,
                            char labels[][RATING_LABEL_MAX], const int *by_label)
{
    json_t *out = json_object();
    json_object_set_new(out, "game", json_string(d->game));
    json_object_set_new(out, "games", json_integer(d->count));
    json_object_set_new(out, "anchor",
                        t->anchor >= 0 ? json_string(d->bots.specs[t->anchor]) : json_null());
    json_object_set_new(out, "model", json_string("bradley-terry over in-game pairs, elo scale"));
    json_object_set_new(out, "bootstrap", json_integer(bootstrap));
    json_t *bots = json_array();
    for (int k = 0; k < t->bot_count; k++) {
        int i = t->order[k];
        const rating_bot_t *b = &t->bots[i];
        json_array_append_new(
            bots,
            json_pack("{s:i,s:s,s:s,s:o,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:I}", "rank", k + 1, "label",
                      labels[i], "spec", d->bots.specs[i], "elo", rate_number(b->elo), "elo_ci95",
                      rate_number(bootstrap && i != t->anchor ? b->elo_ci95 : NAN), "los_next",
                      rate_number(b->los_next), "games", (json_int_t)b->games, "result",
                      rate_number(b->result), "result_ci95", rate_number(b->result_ci95),
                      "mean_rank", rate_number(b->mean_rank), "mean_score",
                      rate_number(b->mean_score), "forfeits", (json_int_t)b->forfeits));
        json_object_set_new(json_array_get(bots, (size_t)k), "group",
                            t->group[i] >= 0 ? json_integer(t->group[i]) : json_null());
    }
    json_object_set_new(out, "bots", bots);
    json_t *gaps = json_array();
    for (int k = 0; k + 1 < t->group_count; k++) {
        rating_separation_t sep;
        rating_separation(t, k, &sep);
        bool c = sep.comparisons > 0;
        json_array_append_new(gaps,
                              json_pack("{s:i,s:i,s:I,s:o,s:o,s:o}", "upper", k, "lower", k + 1,
                                        "comparisons", (json_int_t)sep.comparisons, "upper_won",
                                        c ? json_boolean(sep.upper_won) : json_null(),
                                        "score_bound", rate_number(c ? sep.score_bound : NAN),
                                        "elo_bound", rate_number(c ? sep.elo_bound : NAN)));
    }
    json_object_set_new(out, "separations", gaps);
    json_t *pairs = json_array();
    int nb = t->bot_count;
    for (int x = 0; x < nb; x++)
        for (int y = 0; y < nb; y++) {
            int a = t->order[x], b = t->order[y];
            long n = t->pair_count[a * nb + b];
            if (a != b && n)
                json_array_append_new(pairs,
                                      json_pack("{s:s,s:s,s:I,s:f}", "a", d->bots.specs[a], "b",
                                                d->bots.specs[b], "games", (json_int_t)n, "result",
                                                t->pair_score[a * nb + b]));
        }
    json_object_set_new(out, "pairwise", pairs);
    json_t *ptnml = json_array();
    for (int x = 0; x < nb; x++)
        for (int y = x + 1; y < nb; y++) {
            int a = by_label[x], b = by_label[y];
            rating_ptnml_t p;
            if (rating_ptnml_games(d->games, d->count, a, b, &p))
                cli_die("out of memory");
            if (p.pairs)
                json_array_append_new(
                    ptnml, json_pack("{s:s,s:s,s:I,s:[I,I,I,I,I],s:I,s:o,s:o,s:o,s:o,s:o}", "a",
                                     d->bots.specs[a], "b", d->bots.specs[b], "pairs",
                                     (json_int_t)p.pairs, "counts", (json_int_t)p.counts[0],
                                     (json_int_t)p.counts[1], (json_int_t)p.counts[2],
                                     (json_int_t)p.counts[3], (json_int_t)p.counts[4], "unpaired",
                                     (json_int_t)p.unpaired, "score", rate_number(p.score), "se",
                                     rate_number(p.se), "elo", rate_number(p.elo), "elo_lo",
                                     rate_number(p.elo_lo), "elo_hi", rate_number(p.elo_hi)));
        }
    json_object_set_new(out, "game_pairs", ptnml);
    char *text = json_dumps(out, JSON_INDENT(1));
    printf("%s\n", text);
    free(text);
    json_decref(out);
}

static void rate_print_text(const rate_data_t *d, const rating_table_t *t, int bootstrap,
                            char labels[][RATING_LABEL_MAX], const int *by_label)
{
    printf("%ld games of %s (", d->count, d->game);
    const char *sep = "";
    for (int p = 2; p <= GAME_MAX_PLAYERS; p++)
        if (d->by_players[p]) {
            printf("%s%d players: %ld", sep, p, d->by_players[p]);
            sep = ", ";
        }
    printf("), %d bots", t->bot_count);
    sep = "; left out:";
    for (int p = 2; p <= GAME_MAX_PLAYERS; p++)
        if (d->left_out[p]) {
            printf("%s %ld games of %d players", sep, d->left_out[p], p);
            sep = ",";
        }
    printf("\n");
    const char *names[RATE_MAX_BOTS];
    for (int b = 0; b < t->bot_count; b++)
        names[b] = labels[b];
    rating_table_print(stdout, t, (const char *const *)d->bots.specs, names, bootstrap, true);
    rating_ptnml_print(stdout, d->games, d->count, t->bot_count, names, by_label);
}

/* Exits unless the games hold one player count, or --pool-players pools them. */
static void rate_check_player_counts(const rate_data_t *d, bool pool)
{
    int counts = 0, first = 0;
    for (int p = 2; p <= GAME_MAX_PLAYERS; p++)
        if (d->by_players[p] && !counts++)
            first = p;
    if (counts > 1 && !pool) {
        int second = first + 1;
        while (!d->by_players[second])
            second++;
        cli_die("rate: the files hold games of %d and of %d players, whose ratings differ: "
                "rate one count with --players N, or all together with --pool-players",
                first, second);
    }
}

/* The --anchor bot's id (exits if no record has it), or the mean when none is given. */
static int rate_anchor(const rate_data_t *d, const char *anchor_spec)
{
    int anchor = RATING_ANCHOR_MEAN;
    if (anchor_spec) {
        anchor = -1;
        for (int b = 0; b < d->bots.count; b++)
            if (!strcmp(d->bots.specs[b], anchor_spec))
                anchor = b;
        if (anchor < 0)
            cli_die("--anchor '%s' is not a bot of these records", anchor_spec);
    }
    return anchor;
}

/* --html: writes the report page over the record files of the command line. */
static void rate_write_html(int argc, char **argv, const char *html, int bootstrap,
                            const rating_sprt_t *sprt, int players, long viewers, bool json)
{
    const char *paths[256];
    int n = 0;
    for (int i = 1; i < argc && n < 256; i++) {
        if (rate_takes_value(argv[i]))
            i++;
        else if (argv[i][0] != '-' || !argv[i][1])
            paths[n++] = argv[i];
    }
    char err[GAME_ERR_MAX * 2];
    viewer_report_t r = {.title = "Skyline tournament report",
                         .files = paths,
                         .file_count = n,
                         .bootstrap = bootstrap,
                         .sprt = sprt,
                         .players = players,
                         .viewers = viewers};
    if (viewer_write_report(html, &r, err, sizeof err))
        cli_die("rate --html: %s", err);
    if (!json)
        printf("\nReport: %s\n", html);
}

int cmd_rate(int argc, char **argv)
{
    bool json = false;
    const char *anchor_spec = NULL, *html = NULL;
    rating_sprt_t sprt;
    bool has_sprt = false;
    long viewers = VIEWER_REPORT_VIEWERS;
    int bootstrap = RATING_BOOTSTRAP_DEFAULT, files = 0, players = 0;
    bool pool = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            rate_usage();
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--anchor")) {
            anchor_spec = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--bootstrap")) {
            bootstrap = (int)cli_int(a, cli_value(argc, argv, &i), 0, 100000);
        } else if (!strcmp(a, "--viewers")) {
            viewers = cli_int(a, cli_value(argc, argv, &i), 0, 1000000000L);
        } else if (!strcmp(a, "--html")) {
            html = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--players")) {
            players = (int)cli_int(a, cli_value(argc, argv, &i), 2, GAME_MAX_PLAYERS);
        } else if (!strcmp(a, "--pool-players")) {
            pool = true;
        } else if (!strcmp(a, "--sprt")) {
            char err[GAME_ERR_MAX];
            if (rating_sprt_parse(cli_value(argc, argv, &i), &sprt, err, sizeof err))
                cli_die("--sprt: %s", err);
            has_sprt = true;
        } else if (a[0] == '-' && a[1]) {
            cli_die("rate: unknown option '%s' (see skyline rate --help)", a);
        } else {
            files++;
        }
    }
    if (!files)
        cli_die("rate needs at least one record file (skyline rate FILE...)");
    if (pool && players)
        cli_die("rate: --players N and --pool-players exclude each other");
    rate_data_t d;
    memset(&d, 0, sizeof d);
    d.players = players;
    for (int i = 1; i < argc; i++) {
        if (rate_takes_value(argv[i]))
            i++;
        else if (argv[i][0] != '-' || !argv[i][1])
            rate_read_file(&d, argv[i], i);
    }
    if (!d.count && players)
        cli_die("the record files hold no game of %d players", players);
    if (!d.count)
        cli_die("the record files hold no game");
    rate_check_player_counts(&d, pool);
    rate_check_duplicates(&d, argv);
    rate_sort_games(&d);
    int anchor = rate_anchor(&d, anchor_spec);
    rating_table_t t;
    if (rating_table_compute(d.games, d.count, d.bots.count, anchor, bootstrap,
                             RATING_BOOTSTRAP_SEED, &t))
        cli_die("out of memory");
    char labels[RATE_MAX_BOTS][RATING_LABEL_MAX];
    int by_label[RATE_MAX_BOTS];
    if (rating_labels(d.games, d.count, d.bots.count, labels, by_label))
        cli_die("out of memory");
    if (json)
        rate_print_json(&d, &t, bootstrap, labels, by_label);
    else
        rate_print_text(&d, &t, bootstrap, labels, by_label);
    rating_table_free(&t);
    if (html)
        rate_write_html(argc, argv, html, bootstrap, has_sprt ? &sprt : NULL, players, viewers,
                        json);
    for (int b = 0; b < d.bots.count; b++)
        free(d.bots.specs[b]);
    free(d.games);
    free(d.keys);
    free(d.places);
    return 0;
}
