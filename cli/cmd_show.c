/*
 * skyline show: a position as a text diagram, with the readable list of the moves that led
 * to it. The position comes from a source (game options and --moves, or a record file);
 * each source fills one show_line_t, and everything after that is the same for all.
 */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/replace.h"
#include "viewer/picture.h"

static const char show_help[] =
    "usage: skyline show --game G [game options] [--moves \"M1 M2 ...\"] [options]\n"
    "       skyline show RECORDS.jsonl [--index I] [--ply K] [options]\n"
    "       skyline show --position TEXT [--board FILE] [options]\n"
    "Prints a position as a text diagram, after the numbered list of the moves that led to\n"
    "it (who moved, the move, what it did); then whose turn it is and the legal move count.\n"
    "%s"
    "  --moves \"M1 M2 ...\"     moves in notation (FORMATS.md §3) played from the start\n"
    "  --index I               the record's game I, counting from 0 (default 0)\n"
    "  --ply K                 the position after the record's first K moves (default all)\n"
    "  --position TEXT         a position in notation (docs/NOTATION.md), seen by its view\n"
    "  --as P                  only what seat P sees (0..N-1, seat 0 is P1; other racks and\n"
    "                          the draw pile order hidden); default everything\n"
    "  --ascii                 plain ASCII instead of UTF-8\n"
    "  --color auto|always|never   ANSI colour (default auto: only on a terminal, and not\n"
    "                          with NO_COLOR set)\n"
    "  --no-list               the diagram only, without the move list\n"
    "  --notation              only the position's text (docs/NOTATION.md) as --as sees it\n"
    "  --svg FILE              also write the position as an SVG picture (as --as sees it)\n";

/* A game line to show: the positions before and after each of its moves. */
typedef struct show_line {
    const game_api_t *api; /* the game */
    int move_count;        /* moves played to reach the shown position */
    move_t *moves;         /* the moves, move_count of them */
    unsigned char *states; /* move_count + 1 states of api->state_size bytes: the start,
                              then the position after each move */
    json_t *seats;         /* the record's seats (borrowed from rec), or NULL */
    json_t *rec;           /* the record the line comes from (owned), or NULL */
} show_line_t;

/* What the command line asked for. */
typedef struct show_args {
    cli_game_t game;      /* game and options (game source) */
    bool game_given;      /* a game option was given */
    const char *moves;    /* --moves text, or NULL */
    const char *position; /* --position text (position source), or NULL */
    const char *file;     /* a record file (record source), or NULL */
    long index;           /* --index */
    long ply;             /* --ply, -1: all */
    long as;              /* --as, -1: everything */
    bool ascii;           /* --ascii */
    int colour;           /* --color: -1 auto, 0 never, 1 always */
    bool list;            /* print the move list */
    bool notation;        /* print the position text only */
    bool mover_hidden;    /* a position text leaves the mover's information to chance */
    const char *svg;      /* --svg FILE, or NULL */
} show_args_t;

static void *line_state(const show_line_t *l, int k)
{
    return l->states + (size_t)k * l->api->state_size;
}

static void line_alloc(show_line_t *l, int move_count)
{
    l->move_count = move_count;
    l->moves = calloc((size_t)move_count + 1, sizeof *l->moves);
    l->states = malloc(((size_t)move_count + 1) * l->api->state_size);
    if (!l->moves || !l->states)
        cli_die("out of memory");
}

/* Source 1: a game from options, with the moves of --moves played from its start. */
static void line_from_options(show_line_t *l, show_args_t *a)
{
    cli_game_finish(&a->game);
    l->api = a->game.api;
    char *text = strdup(a->moves ? a->moves : "");
    if (!text)
        cli_die("out of memory");
    int count = 0;
    for (char *p = strtok(text, " \t\n,"); p; p = strtok(NULL, " \t\n,"))
        count++;
    free(text);
    line_alloc(l, count);
    char err[GAME_ERR_MAX];
    if (l->api->new_game(line_state(l, 0), &a->game.opt, err, sizeof err))
        cli_die("%s", err);
    text = strdup(a->moves ? a->moves : "");
    if (!text)
        cli_die("out of memory");
    unsigned char undo[GAME_UNDO_MAX];
    int k = 0;
    for (char *p = strtok(text, " \t\n,"); p; p = strtok(NULL, " \t\n,"), k++) {
        void *s = line_state(l, k + 1);
        l->api->copy(s, line_state(l, k));
        if (l->api->is_terminal(s))
            cli_die("--moves: move %d '%s' comes after the end of the game", k + 1, p);
        if (l->api->move_from_text(s, p, &l->moves[k], err, sizeof err))
            cli_die("--moves: move %d '%s' is not legal here: %s", k + 1, p, err);
        l->api->make(s, l->moves[k], undo);
    }
    free(text);
}

/* The JSON of game index of a record file (one game a non-empty line); dies if none. */
static json_t *record_read(const char *path, long index, long *lineno_out)
{
    char err[GAME_ERR_MAX];
    FILE *f = !strcmp(path, "-") ? stdin : lines_open(path, "record file", 0, err, sizeof err);
    if (!f)
        cli_die("%s", err);
    lines_reader_t r;
    lines_init(&r, f);
    long games = 0;
    json_t *rec = NULL;
    int got;
    while ((got = lines_next(&r)) > 0) {
        if (r.len == 0 || games++ < index)
            continue;
        json_error_t jerr;
        rec = json_loads(r.text, 0, &jerr);
        if (!rec)
            cli_die("%s line %ld is not a game record: not JSON (%s)", path, r.lineno, jerr.text);
        break;
    }
    if (got < 0) {
        lines_error(&r, path, err, sizeof err);
        cli_die("%s", err);
    }
    *lineno_out = r.lineno;
    lines_free(&r);
    if (f != stdin)
        fclose(f);
    if (!rec)
        cli_die("%s holds %ld game%s: there is no game --index %ld", path, games,
                games == 1 ? "" : "s", index);
    return rec;
}

/* Source 2: game --index of a record file, up to --ply. */
static void line_from_record(show_line_t *l, const show_args_t *a)
{
    long lineno;
    l->rec = record_read(a->file, a->index, &lineno);
    const char *game = json_string_value(json_object_get(l->rec, "game"));
    if (!json_is_object(l->rec) || !game)
        cli_die("%s line %ld is not a game record: no \"game\" name", a->file, lineno);
    l->api = game_find(game);
    if (!l->api)
        cli_die("%s line %ld: unknown game '%s' (%s)", a->file, lineno, game, cli_game_names());
    char err[GAME_ERR_MAX * 2];
    unsigned char *probe = malloc(l->api->state_size);
    if (!probe)
        cli_die("out of memory");
    int total = record_position(l->api, l->rec, 0, probe, err, sizeof err);
    free(probe);
    if (total < 0)
        cli_die("%s line %ld is not a game record: %s", a->file, lineno, err);
    if (a->ply > total)
        cli_die("--ply %ld is beyond the game: %s line %ld has %d moves", a->ply, a->file, lineno,
                total);
    line_alloc(l, a->ply < 0 ? total : (int)a->ply);
    /* Each position from the record itself: chance events (reshuffles) come from it. */
    for (int k = 0; k <= l->move_count; k++)
        if (record_position(l->api, l->rec, k, line_state(l, k), err, sizeof err) < 0)
            cli_die("%s line %ld: %s", a->file, lineno, err);
    const json_t *moves = json_object_get(l->rec, "moves");
    for (int k = 0; k < l->move_count; k++) {
        const char *text = json_string_value(json_array_get(moves, (size_t)k));
        if (l->api->move_from_text(line_state(l, k), text, &l->moves[k], err, sizeof err))
            cli_die("%s line %ld: move %d (%s): %s", a->file, lineno, k, text, err);
    }
    l->seats = json_object_get(l->rec, "seats");
}

/* Dies unless --as (if given) is a player of the game of state s. */
static void show_check_as(const show_args_t *a, const game_api_t *api, const void *s)
{
    int players = api->player_count(s);
    if (a->as >= players)
        cli_die("--as %ld: the game has %d players (0 to %d)", a->as, players, players - 1);
}

/* Source 3: a position text (docs/NOTATION.md), shown as its view sees it. */
static void line_from_position(show_line_t *l, show_args_t *a)
{
    char err[GAME_ERR_MAX];
    int view;
    const game_options_t *opt = a->game.opt.option_count ? &a->game.opt : NULL;
    void *s = game_position_read(a->position, opt, 1, &l->api, &view, err, sizeof err);
    if (!s)
        cli_die("--position: %s", err);
    if (opt && game_options_check(l->api, opt, err, sizeof err))
        cli_die("%s", err);
    line_alloc(l, 0);
    l->api->copy(line_state(l, 0), s);
    free(s);
    show_check_as(a, l->api, line_state(l, 0));
    /* What the text does not say was drawn at random: show only what it fixes. */
    if (a->as >= 0 && !game_position_shows_all(a->position, opt, (int)a->as)) {
        char who[32];
        snprintf(who, sizeof who, view < 0 ? "no player (view -)" : "seat %d (P%d)", view,
                 view + 1);
        cli_die("--as %ld: the position text is seen by %s and leaves what seat %ld (P%ld) "
                "sees to chance",
                a->as, who, a->as, a->as + 1);
    }
    int to_move = l->api->to_move(line_state(l, 0));
    a->mover_hidden = !l->api->is_terminal(line_state(l, 0)) &&
                      !game_position_shows_all(a->position, opt, to_move);
    if (a->as < 0) {
        /* The public view: as the mover sees it if the text shows all of that (no hidden
           draw pile then), else everything, with a warning. */
        int mover = l->api->to_move(line_state(l, 0));
        a->as = view;
        if (view < 0 && game_position_shows_all(a->position, opt, mover))
            a->as = mover;
        else if (view < 0 && !a->notation) /* --notation prints only the text */
            printf("(public view: the hidden parts below are drawn at random)\n");
    }
}

/* Whose move each was, the move and what it did: one numbered line a move. */
static void print_moves(const show_line_t *l)
{
    const game_api_t *api = l->api;
    if (json_is_array(l->seats)) {
        printf("Players:");
        for (size_t i = 0; i < json_array_size(l->seats); i++) {
            const char *spec = json_string_value(json_array_get(l->seats, i));
            printf("%s P%zu %s", i ? "," : "", i + 1, spec ? spec : "?");
        }
        printf("\n");
    }
    if (l->move_count == 0)
        return;
    printf("Moves:\n");
    for (int k = 0; k < l->move_count; k++) {
        const void *s = line_state(l, k);
        char text[GAME_MOVE_TEXT_MAX], what[GAME_DESCRIBE_MAX] = "";
        api->move_to_text(s, l->moves[k], text);
        if (api->move_describe)
            api->move_describe(s, l->moves[k], what, sizeof what);
        printf("%4d  P%d  %-10s %s\n", k + 1, api->to_move(s) + 1, text, what);
    }
    printf("\n");
}

/* Whose turn and the legal move count, or the result of a finished game. */
static void print_status(const game_api_t *api, const void *s, bool count_known)
{
    int players = api->player_count(s);
    if (api->is_terminal(s)) {
        int ranks[GAME_MAX_PLAYERS];
        game_ranks(api, s, ranks);
        printf("Game over. Ranks of P1-P%d:", players);
        for (int p = 0; p < players; p++)
            printf(" %d", ranks[p]);
        if (api->scores) {
            double scores[GAME_MAX_PLAYERS];
            api->scores(s, scores);
            printf("; %s:", api->score_key ? api->score_key : "scores");
            for (int p = 0; p < players; p++)
                printf(" %g", scores[p]);
        }
        printf("\n");
        return;
    }
    if (!count_known) {
        /* A position text that hides the mover's own information: no true count. */
        printf("P%d to move\n", api->to_move(s) + 1);
        return;
    }
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    if (!moves)
        cli_die("out of memory");
    int n = api->gen_moves(s, moves);
    free(moves);
    printf("P%d to move: %d legal move%s\n", api->to_move(s) + 1, n, n == 1 ? "" : "s");
}

static void print_diagram(const game_api_t *api, const void *s, int observer, unsigned flags)
{
    char *buf = malloc(GAME_DIAGRAM_MAX);
    if (!buf)
        cli_die("out of memory");
    if (api->diagram)
        api->diagram(s, observer, flags, buf, GAME_DIAGRAM_MAX);
    else if (api->board_text)
        api->board_text(s, buf, GAME_DIAGRAM_MAX);
    else
        snprintf(buf, GAME_DIAGRAM_MAX, "(%s has no diagram)\n", api->name);
    fputs(buf, stdout);
    size_t len = strlen(buf);
    if (len && buf[len - 1] != '\n')
        putchar('\n');
    free(buf);
}

/* --color auto: colour only on a terminal that can show it. */
static bool colour_auto(void)
{
    const char *no_colour = getenv("NO_COLOR"), *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !(no_colour && no_colour[0]) &&
           !(term && !strcmp(term, "dumb"));
}

static void show_parse(show_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    cli_game_init(&a->game);
    a->ply = -1;
    a->as = -1;
    a->colour = -1;
    a->list = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (cli_game_option(&a->game, argc, argv, &i)) {
            a->game_given = true;
        } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            printf(show_help, cli_game_help);
            exit(0);
        } else if (!strcmp(arg, "--position")) {
            a->position = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--moves")) {
            a->moves = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--index")) {
            a->index = cli_int(arg, cli_value(argc, argv, &i), 0, 1000000000L);
        } else if (!strcmp(arg, "--ply")) {
            a->ply = cli_int(arg, cli_value(argc, argv, &i), 0, 1000000000L);
        } else if (!strcmp(arg, "--as")) {
            /* Checked against the game's player count once it is known. */
            a->as = cli_int(arg, cli_value(argc, argv, &i), 0, INT_MAX);
        } else if (!strcmp(arg, "--ascii")) {
            a->ascii = true;
        } else if (!strcmp(arg, "--notation")) {
            a->notation = true;
        } else if (!strcmp(arg, "--no-list")) {
            a->list = false;
        } else if (!strcmp(arg, "--svg")) {
            a->svg = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--color") || !strcmp(arg, "--colour") ||
                   !strncmp(arg, "--color=", 8) || !strncmp(arg, "--colour=", 9)) {
            const char *v = strchr(arg, '=') ? strchr(arg, '=') + 1 : cli_value(argc, argv, &i);
            if (!strcmp(v, "auto"))
                a->colour = -1;
            else if (!strcmp(v, "always"))
                a->colour = 1;
            else if (!strcmp(v, "never"))
                a->colour = 0;
            else
                cli_die("--color needs auto, always or never, not '%s'", v);
        } else if (arg[0] == '-' && arg[1]) {
            cli_die("show: unknown option '%s' (see skyline show --help)", arg);
        } else if (a->file) {
            cli_die("show takes one record file, not '%s' too", arg);
        } else {
            a->file = arg;
        }
    }
    if (a->file && (a->game_given || a->moves))
        cli_die("show takes a record file or --game options with --moves, not both");
    if (a->position && (a->file || a->moves))
        cli_die("show takes --position alone, without a record file or --moves");
    if (!a->file && (a->index || a->ply >= 0))
        cli_die("--index and --ply need a record file (skyline show FILE --index I --ply K)");
}

/* A position's picture: the game's drawer, the state and who looks. */
typedef struct {
    game_svg_fn svg;
    const void *state;
    int observer;
} picture_t;

static int write_svg(FILE *f, void *ctx)
{
    const picture_t *p = ctx;
    return p->svg(p->state, p->observer, f);
}

/* The position as an SVG picture in path, whole or not at all (core/replace.h). */
static void write_picture(const game_api_t *api, const void *s, int observer, const char *path)
{
    picture_t p = {game_svg_for(api), s, observer};
    if (!p.svg)
        cli_die("--svg: game '%s' has no pictures", api->name);
    if (file_replace(path, write_svg, &p))
        cli_die("--svg: cannot write '%s'", path);
}

int cmd_show(int argc, char **argv)
{
    show_args_t a;
    show_parse(&a, argc, argv);
    show_line_t line = {0};
    /* Each source of a position fills the line the same way; a new source (a position
       given as text, say) is one more function here. */
    if (a.position)
        line_from_position(&line, &a);
    else if (a.file)
        line_from_record(&line, &a);
    else
        line_from_options(&line, &a);
    const void *s = line_state(&line, line.move_count);
    show_check_as(&a, line.api, s);
    unsigned flags = (a.ascii ? GAME_TEXT_ASCII : 0u) |
                     ((a.colour < 0 ? colour_auto() : a.colour == 1) ? GAME_TEXT_COLOUR : 0u);
    if (a.notation) {
        char text[GAME_POSITION_MAX], err[GAME_ERR_MAX];
        if (game_position_write(line.api, s, (int)a.as, text, sizeof text, err, sizeof err))
            cli_die("--notation: %s", err);
        printf("%s\n", text);
    } else if (a.list) {
        print_moves(&line);
    }
    if (!a.notation) {
        print_diagram(line.api, s, (int)a.as, flags);
        print_status(line.api, s, !a.mover_hidden);
    }
    if (a.svg)
        write_picture(line.api, s, (int)a.as, a.svg);
    free(line.moves);
    free(line.states);
    json_decref(line.rec);
    return 0;
}
