/*
 * human: a seat played from the terminal. Each turn shows what that player sees (the
 * game's diagram from that seat, else its compact board text; on a terminal the screen is
 * redrawn with it on top) and the numbered choices: the legal moves with their
 * descriptions, or, for a game with move_group (Tower Up), a two-step choice: first what
 * the move takes or builds on (the card, the site), then how, numbered again. It reads a
 * number, a move in notation or a command (help, moves, hint, undo, quit, back).
 * Quitting, or the end of input, forfeits the game ("quit").
 */
#include "human.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bots/heuristic.h"
#include "bots/kinds.h"

/* The most turns of one seat that undo can go back over. */
#define HUMAN_MAX_TURNS 4096
/* The others' moves shown again under a redrawn board, and a group label's size. */
#define HUMAN_RECENT 8
#define HUMAN_LABEL  48
/* A numbered choice as printed. */
#define HUMAN_ENTRY (GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16)

static bool human_enabled;
static bool human_allow_undo;
static const char *human_hint_spec;

void human_enable(const char *hint_spec, bool allow_undo)
{
    human_enabled = true;
    human_hint_spec = hint_spec;
    human_allow_undo = allow_undo;
}

/* The legal moves of this turn, in groups when the game offers a two-step choice. */
typedef struct human_menu {
    move_t moves[GAME_MAX_MOVES];
    int count;                               /* legal moves */
    int group_count;                         /* groups (0: one list of every move) */
    short group_of[GAME_MAX_MOVES];          /* each move's group */
    short group_size[GAME_MAX_MOVES];        /* moves in each group */
    short group_first[GAME_MAX_MOVES];       /* first move of each group */
    char label[GAME_MAX_MOVES][HUMAN_LABEL]; /* each group's label */
} human_menu_t;

typedef struct human {
    int seat;                     /* the seat played */
    int played;                   /* moves of the game so far */
    int quiet_until;              /* after an undo: moves replayed without being shown */
    int turns;                    /* entries of turn_at */
    int turn_at[HUMAN_MAX_TURNS]; /* move counts at which this seat moved */
    bot_t *hint;                  /* the bot hint asks, made on first use */
    int recent_count;             /* entries of recent */
    char recent[HUMAN_RECENT][GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 64]; /* the others'
                                     moves since this seat's last turn, oldest first */
    human_menu_t *menu; /* this turn's choices */
} human_t;

static int human_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    if (!human_enabled) {
        snprintf(err, errlen, "a human seat plays only in skyline play");
        return -1;
    }
    if (spec->key_count) {
        snprintf(err, errlen, "unknown key '%s' (human has no keys; play --hint SPEC)",
                 spec->keys[0]);
        return -1;
    }
    human_t *h = calloc(1, sizeof(human_t));
    if (h && !(h->menu = malloc(sizeof *h->menu))) {
        free(h);
        h = NULL;
    }
    b->impl = h;
    if (!b->impl) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void human_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    (void)initial;
    (void)opt;
    human_t *h = b->impl;
    h->seat = seat;
    h->played = 0;
    h->turns = 0;
}

/* A move in words: its description if the game has them, else its notation. */
static void human_describe(const bot_t *b, const void *state, move_t m, char *buf, size_t len)
{
    char text[GAME_MOVE_TEXT_MAX];
    b->api->move_to_text(state, m, text);
    if (b->api->move_describe) {
        char words[GAME_DESCRIBE_MAX];
        b->api->move_describe(state, m, words, sizeof words);
        snprintf(buf, len, "%-8s %s", text, words);
    } else {
        snprintf(buf, len, "%s", text);
    }
}

/* Whether the seat's screen is a terminal: then each turn redraws it, the board on top. */
static bool human_tty(void) { return isatty(STDOUT_FILENO); }

static void human_observe(bot_t *b, const void *state, move_t m)
{
    human_t *h = b->impl;
    int mover = b->api->to_move(state);
    if (mover == h->seat) {
        if (h->turns < HUMAN_MAX_TURNS)
            h->turn_at[h->turns++] = h->played;
        h->recent_count = 0;
    } else if (h->played >= h->quiet_until) {
        char words[GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16];
        human_describe(b, state, m, words, sizeof words);
        printf("P%d plays %s\n", mover + 1, words);
        /* Kept to be shown again under the board that a redraw puts on a clean screen. */
        if (h->recent_count == HUMAN_RECENT) {
            memmove(h->recent[0], h->recent[1], sizeof h->recent[0] * (HUMAN_RECENT - 1));
            h->recent_count--;
        }
        snprintf(h->recent[h->recent_count++], sizeof h->recent[0], "P%d plays %s", mover + 1,
                 words);
    }
    h->played++;
}

/* The position as this seat sees it; on a terminal the screen is cleared first, so the
   board stays on top with the choices under it. */
static void human_board(const bot_t *b, const void *state)
{
    const human_t *h = b->impl;
    static char buf[GAME_DIAGRAM_MAX];
    bool tty = human_tty();
    if (b->api->diagram)
        b->api->diagram(state, h->seat, tty ? 0 : GAME_TEXT_ASCII, buf, sizeof buf);
    else if (b->api->board_text)
        b->api->board_text(state, buf, sizeof buf);
    else
        buf[0] = 0;
    printf(tty ? "\033[H\033[2J%s" : "\n%s", buf);
    if (buf[0] && buf[strlen(buf) - 1] != '\n')
        printf("\n");
    if (tty)
        for (int i = 0; i < h->recent_count; i++)
            printf("%s\n", h->recent[i]);
}

static void human_menu_build(const bot_t *b, const void *state, human_menu_t *menu)
{
    menu->count = b->api->gen_moves(state, menu->moves);
    menu->group_count = 0;
    if (!b->api->move_group)
        return;
    for (int i = 0; i < menu->count; i++) {
        char label[GAME_DESCRIBE_MAX];
        char way[GAME_DESCRIBE_MAX];
        b->api->move_group(state, menu->moves[i], label, way, sizeof label);
        int g = 0;
        while (g < menu->group_count && strncmp(menu->label[g], label, HUMAN_LABEL - 1))
            g++;
        if (g == menu->group_count) {
            size_t n = strnlen(label, HUMAN_LABEL - 1);
            memcpy(menu->label[g], label, n);
            menu->label[g][n] = 0;
            menu->group_size[g] = 0;
            menu->group_first[g] = (short)i;
            menu->group_count++;
        }
        menu->group_of[i] = (short)g;
        menu->group_size[g]++;
    }
}

/* The columns the choices may fill: the terminal's width, else 78. */
static int human_width(void)
{
    struct winsize ws;
    if (human_tty() && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
        return ws.ws_col > 200 ? 198 : ws.ws_col - 2;
    return 78;
}

/* Numbered entries in as many columns as the line holds, down the columns. */
static void human_columns(char (*entry)[HUMAN_ENTRY], int n)
{
    int width = 0;
    for (int i = 0; i < n; i++) {
        int w = (int)strlen(entry[i]);
        width = w > width ? w : width;
    }
    int cols = human_width() / (width + 2);
    cols = cols < 1 ? 1 : cols;
    int rows = (n + cols - 1) / cols;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols && c * rows + r < n; c++) {
            bool last = c + 1 == cols || (c + 1) * rows + r >= n;
            printf("%-*s", last ? 0 : width + 2, entry[c * rows + r]);
        }
        printf("\n");
    }
}

/* The choices of a step: the groups (step one), or the ways of one group (-1: every
   move), numbered, in columns where they fit. */
static void human_choices(const bot_t *b, const void *state, const human_menu_t *menu, int group)
{
    int n = group < 0 && menu->group_count ? menu->group_count
            : group < 0                    ? menu->count
                                           : menu->group_size[group];
    char(*entry)[HUMAN_ENTRY] = malloc((size_t)n * HUMAN_ENTRY);
    char(*words)[HUMAN_ENTRY] = malloc((size_t)n * HUMAN_ENTRY);
    move_t *moves = malloc((size_t)n * sizeof *moves);
    if (!entry || !words || !moves) {
        printf("out of memory\n");
        free(entry), free(words), free(moves);
        return;
    }
    if (group < 0 && menu->group_count) {
        for (int g = 0; g < n; g++)
            snprintf(entry[g], HUMAN_ENTRY, "%3d. %s%s", g + 1, menu->label[g],
                     menu->group_size[g] > 1 ? " +" : "");
    } else {
        int k = 0;
        for (int i = 0; i < menu->count; i++)
            if (group < 0 || menu->group_of[i] == group) {
                char label[GAME_DESCRIBE_MAX];
                moves[k] = menu->moves[i];
                words[k][0] = 0;
                if (group >= 0)
                    b->api->move_group(state, moves[k], label, words[k], GAME_DESCRIBE_MAX);
                else if (b->api->move_describe)
                    b->api->move_describe(state, moves[k], words[k], GAME_DESCRIBE_MAX);
                k++;
            }
        for (int i = 0; i < n; i++) {
            char text[GAME_MOVE_TEXT_MAX];
            b->api->move_to_text(state, moves[i], text);
            snprintf(entry[i], HUMAN_ENTRY, "%4d. %-8s %s", i + 1, text, words[i]);
        }
    }
    human_columns(entry, n);
    free(entry), free(words), free(moves);
}

/* The position and the choices of a step: group -1 is the first step (or the one list of
   every move), else the moves of that group. */
static void human_show(const bot_t *b, const void *state, const human_menu_t *menu, int group,
                       bool board)
{
    const human_t *h = b->impl;
    if (board)
        human_board(b, state);
    if (group < 0 && menu->group_count)
        printf("Your turn (P%d): choose a number (+: then one of its ways), or type a move:\n",
               h->seat + 1);
    else if (group >= 0)
        printf("%s, P%d: choose how (0: back to the first list):\n", menu->label[group],
               h->seat + 1);
    else
        printf("Your moves (P%d):\n", h->seat + 1);
    human_choices(b, state, menu, group);
}

/* The k-th move (from 1) of a group, or -1. */
static int human_group_move(const human_menu_t *menu, int group, long k)
{
    for (int i = 0, n = 0; i < menu->count; i++)
        if (menu->group_of[i] == group && ++n == k)
            return i;
    return -1;
}

static void human_help(void)
{
    printf("Type a number from the list, a move in notation, or a command:\n"
           "  back    (or 0) from the second step of a move back to the first list\n"
           "  moves   show the position and the choices again\n"
           "  hint    what the hint bot would play\n"
           "  undo    take back to your previous turn (against bots, not with --record)\n"
           "  quit    end the game here (it counts as a forfeit; saved with --record)\n"
           "  help    this text\n");
}
static void human_hint(bot_t *b, const void *state)
{
    human_t *h = b->impl;
    char err[GAME_ERR_MAX];
    const char *spec = human_hint_spec         ? human_hint_spec
                       : heuristic_for(b->api) ? "heuristic"
                                               : "mcts:iters=2000";
    if (!h->hint && !(h->hint = bot_new(b->api, spec, b->seed, err, sizeof err))) {
        printf("no hint: %s\n", err);
        return;
    }
    /* The hint bot decides from this seat's view (bots determinize what it cannot see). */
    void *copy = malloc(b->api->state_size);
    if (!copy)
        return;
    b->api->copy(copy, state);
    move_t m = bot_choose(h->hint, copy);
    if (bot_faulted(h->hint, err, sizeof err)) {
        printf("no hint: %s\n", err);
        bot_reset(h->hint, b->seed); /* a fresh program for the next hint */
        free(copy);
        return;
    }
    char words[GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16];
    human_describe(b, state, m, words, sizeof words);
    printf("hint (%s): %s\n", h->hint->spec, words);
    free(copy);
}

/* A line of input with blanks trimmed into line[len]; false at the end of input. */
static bool human_read(const human_t *h, const char *step, char *line, size_t len)
{
    printf("P%d%s%s> ", h->seat + 1, step ? " " : "", step ? step : "");
    fflush(stdout);
    if (!fgets(line, (int)len, stdin))
        return false;
    line[strcspn(line, "\r\n")] = 0;
    size_t lead = strspn(line, " \t");
    memmove(line, line + lead, strlen(line + lead) + 1);
    for (size_t n = strlen(line); n && (line[n - 1] == ' ' || line[n - 1] == '\t'); n--)
        line[n - 1] = 0;
    return true;
}

/* A command of either step: 1 if it ends the turn (quit, undo: *m set), 0 if handled,
   -1 if s is no command. */
static int human_command(bot_t *b, const void *state, const human_menu_t *menu, int group,
                         const char *s, move_t *m)
{
    human_t *h = b->impl;
    if (!strcmp(s, "help")) {
        human_help();
    } else if (!strcmp(s, "moves")) {
        human_show(b, state, menu, group, true);
    } else if (!strcmp(s, "hint")) {
        human_hint(b, state);
    } else if (!strcmp(s, "quit")) {
        bot_fault(b, "quit", "quit");
        *m = menu->moves[0];
        return 1;
    } else if (!strcmp(s, "undo")) {
        if (!human_allow_undo) {
            printf("undo is off: only against bots, and not in recorded games (--record)\n");
        } else if (!h->turns) {
            printf("nothing to undo: this is your first turn\n");
        } else {
            b->undo_to = h->quiet_until = h->turn_at[h->turns - 1];
            printf("back to your turn at move %d\n", b->undo_to + 1);
            *m = menu->moves[0];
            return 1;
        }
    } else {
        return -1;
    }
    return 0;
}

static move_t human_choose(bot_t *b, const void *state)
{
    human_t *h = b->impl;
    human_menu_t *menu = h->menu;
    human_menu_build(b, state, menu);
    int group = -1; /* the second step's group, or -1 */
    human_show(b, state, menu, group, true);
    char line[256];
    for (;;) {
        if (!human_read(h, group >= 0 ? menu->label[group] : NULL, line, sizeof line)) {
            printf("\n(end of input: the game ends here)\n");
            bot_fault(b, "quit", "end of input");
            return menu->moves[0];
        }
        char *end;
        long k = strtol(line, &end, 10);
        bool number = end != line && !*end;
        int choices = group >= 0          ? menu->group_size[group]
                      : menu->group_count ? menu->group_count
                                          : menu->count;
        move_t m;
        char err[GAME_ERR_MAX];
        int rc;
        if (!line[0]) {
            continue;
        } else if (group >= 0 && (!strcmp(line, "back") || (number && k == 0))) {
            group = -1;
            human_show(b, state, menu, group, human_tty());
        } else if (number && k >= 1 && k <= choices) {
            if (group >= 0)
                return menu->moves[human_group_move(menu, group, k)];
            if (!menu->group_count)
                return menu->moves[k - 1];
            if (menu->group_size[k - 1] == 1)
                return menu->moves[menu->group_first[k - 1]];
            group = (int)k - 1;
            human_show(b, state, menu, group, human_tty());
        } else if (number) {
            printf("no choice %ld: the choices are numbered 1 to %d%s\n", k, choices,
                   group >= 0 ? " (0: back)" : "");
        } else if ((rc = human_command(b, state, menu, group, line, &m)) >= 0) {
            if (rc)
                return m;
        } else if (b->api->move_from_text(state, line, &m, err, sizeof err) == 0) {
            return m;
        } else {
            printf("'%.40s' is not a choice (1-%d), a move or a command: %s (help: "
                   "commands)\n",
                   line, choices, err);
        }
    }
}

static void human_end(bot_t *b, const double *result)
{
    human_t *h = b->impl;
    h->quiet_until = 0;
    printf("game over: your result %g (P%d)\n", result[h->seat], h->seat + 1);
    fflush(stdout);
}

static void human_destroy(bot_t *b)
{
    human_t *h = b->impl;
    bot_free(h->hint);
    free(h->menu);
    free(h);
}

const bot_kind_t bot_kind_human = {
    .name = "human",
    .help = "human: a player at the terminal (skyline play only; play --hint SPEC)",
    .init = human_init,
    .choose = human_choose,
    .observe = human_observe,
    .begin = human_begin,
    .end = human_end,
    .destroy = human_destroy,
};
