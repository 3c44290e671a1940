/*
 * Bots and matches in a position that is not over yet has no legal move (the engines
 * rule it out; a broken game table stands in for such an engine here): each bot kind
 * returns without dividing by zero, bot_choose fails with one line and exit status
 * BOT_EXIT_NO_MOVE, match_play returns an error naming the move.
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena/match.h"
#include "bots/bot.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

static int no_moves(const void *state, move_t *moves)
{
    (void)state;
    (void)moves;
    return 0;
}

static bool never_over(const void *state)
{
    (void)state;
    return false;
}

/* Runs bot_choose in a child: its exit status and the first line it wrote on stderr. */
static int choose_in_child(bot_t *b, const void *state, char *line, size_t len)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        bot_choose(b, state);
        _exit(0);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], line, len - 1);
    line[got > 0 ? got : 0] = 0;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
    game_api_t broken = towerup_api;
    broken.gen_moves = no_moves;
    broken.is_terminal = never_over;
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 2;
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    const char *specs[] = {"random", "greedy", "heuristic", "heuristic:temp=0.5", "mcts:iters=50"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        bot_t *b = bot_new(&broken, specs[i], 1, err, sizeof err);
        CHECK_MSG(b != NULL, "%s", err);
        if (!b)
            continue;
        /* The kind itself, called directly: no crash, no move. */
        move_t m = b->kind->choose(b, &s);
        CHECK_MSG(m == 0 || !strncmp(specs[i], "mcts", 4), "%s gave %u", specs[i], m);
        char line[512];
        int rc = choose_in_child(b, &s, line, sizeof line);
        CHECK_MSG(rc == BOT_EXIT_NO_MOVE, "%s: exit %d", specs[i], rc);
        CHECK_MSG(strstr(line, "no legal move") && strstr(line, "not over") &&
                      strchr(line, '\n') == line + strlen(line) - 1,
                  "%s: '%s'", specs[i], line);
        bot_free(b);
    }
    bot_t *bots[2];
    for (int i = 0; i < 2; i++)
        bots[i] = bot_new(&broken, "random", (uint64_t)i, err, sizeof err);
    match_result_t r;
    CHECK(match_play(&broken, &o, bots, true, &r, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "no legal move at move 0") != NULL, "%s", err);
    for (int i = 0; i < 2; i++)
        bot_free(bots[i]);
    return test_finish("test_bots_dead_end");
}
