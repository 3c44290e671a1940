/*
 * human: a seat played from the terminal. Each turn shows what that player sees (the
 * game's diagram from that seat, else its compact board text), the numbered legal moves
 * with their descriptions, and reads a number, a move in notation or a command (help,
 * moves, hint, undo, quit). Quitting, or the end of input, forfeits the game ("quit").
 */
#include "human.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots/kinds.h"

/* The most turns of one seat that undo can go back over. */
#define HUMAN_MAX_TURNS 4096

static bool human_enabled;
static bool human_allow_undo;
static const char *human_hint_spec;

void human_enable(const char *hint_spec, bool allow_undo)
{
    human_enabled = true;
    human_hint_spec = hint_spec;
    human_allow_undo = allow_undo;
}

typedef struct human {
    int seat;                     /* the seat played */
    int played;                   /* moves of the game so far */
    int quiet_until;              /* after an undo: moves replayed without being shown */
    int turns;                    /* entries of turn_at */
    int turn_at[HUMAN_MAX_TURNS]; /* move counts at which this seat moved */
    bot_t *hint;                  /* the bot hint asks, made on first use */
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
    b->impl = calloc(1, sizeof(human_t));
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

static void human_observe(bot_t *b, const void *state, move_t m)
{
    human_t *h = b->impl;
    int mover = b->api->to_move(state);
    if (mover == h->seat && h->turns < HUMAN_MAX_TURNS)
        h->turn_at[h->turns++] = h->played;
    else if (mover != h->seat && h->played >= h->quiet_until) {
        char words[GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16];
        human_describe(b, state, m, words, sizeof words);
        printf("P%d plays %s\n", mover + 1, words);
    }
    h->played++;
}

static void human_show(const bot_t *b, const void *state, const move_t *moves, int count)
{
    const human_t *h = b->impl;
    static char buf[GAME_DIAGRAM_MAX];
    if (b->api->diagram)
        b->api->diagram(state, h->seat, isatty(STDOUT_FILENO) ? 0 : GAME_TEXT_ASCII, buf,
                        sizeof buf);
    else if (b->api->board_text)
        b->api->board_text(state, buf, sizeof buf);
    else
        buf[0] = 0;
    printf("\n%s", buf);
    if (buf[0] && buf[strlen(buf) - 1] != '\n')
        printf("\n");
    printf("Your moves (P%d):\n", h->seat + 1);
    for (int i = 0; i < count; i++) {
        char words[GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16];
        human_describe(b, state, moves[i], words, sizeof words);
        printf("%4d. %s\n", i + 1, words);
    }
}

static void human_help(void)
{
    printf("Type a move's number or its notation, or a command:\n"
           "  moves   show the position and the moves again\n"
           "  hint    what the hint bot would play\n"
           "  undo    take back to your previous turn (against bots, not with --record)\n"
           "  quit    end the game here (it counts as a forfeit; saved with --record)\n"
           "  help    this text\n");
}

static void human_hint(bot_t *b, const void *state)
{
    human_t *h = b->impl;
    char err[GAME_ERR_MAX];
    const char *spec = human_hint_spec     ? human_hint_spec
                       : b->api->heuristic ? "heuristic"
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
    char words[GAME_DESCRIBE_MAX + GAME_MOVE_TEXT_MAX + 16];
    human_describe(b, state, m, words, sizeof words);
    printf("hint (%s): %s\n", h->hint->spec, words);
    free(copy);
}

static move_t human_choose(bot_t *b, const void *state)
{
    human_t *h = b->impl;
    move_t moves[GAME_MAX_MOVES];
    int count = b->api->gen_moves(state, moves);
    human_show(b, state, moves, count);
    char line[256];
    for (;;) {
        printf("P%d> ", h->seat + 1);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n(end of input: the game ends here)\n");
            bot_fault(b, "quit", "end of input");
            return moves[0];
        }
        line[strcspn(line, "\r\n")] = 0;
        char *s = line + strspn(line, " \t");
        for (size_t n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--)
            s[n - 1] = 0;
        char *end;
        long k = strtol(s, &end, 10);
        move_t m;
        char err[GAME_ERR_MAX];
        if (!*s) {
            continue;
        } else if (end != s && !*end) {
            if (k >= 1 && k <= count)
                return moves[k - 1];
            printf("no move %ld: the moves are numbered 1 to %d\n", k, count);
        } else if (!strcmp(s, "help")) {
            human_help();
        } else if (!strcmp(s, "moves")) {
            human_show(b, state, moves, count);
        } else if (!strcmp(s, "hint")) {
            human_hint(b, state);
        } else if (!strcmp(s, "quit")) {
            bot_fault(b, "quit", "quit");
            return moves[0];
        } else if (!strcmp(s, "undo")) {
            if (!human_allow_undo)
                printf("undo is off: only against bots, and not in recorded games (--record)\n");
            else if (!h->turns)
                printf("nothing to undo: this is your first turn\n");
            else {
                b->undo_to = h->quiet_until = h->turn_at[h->turns - 1];
                printf("back to your turn at move %d\n", b->undo_to + 1);
                return moves[0];
            }
        } else if (b->api->move_from_text(state, s, &m, err, sizeof err) == 0) {
            return m;
        } else {
            printf("'%.40s' is not a move number (1-%d), a move or a command: %s (help: "
                   "commands)\n",
                   s, count, err);
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
