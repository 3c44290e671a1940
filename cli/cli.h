#pragma once
/* Shared pieces of the skyline subcommands. */
#include <stdbool.h>
#include <stdint.h>

#include "bots/bot.h"
#include "core/game.h"

/* Prints "skyline: <message>" on stderr and exits with status 2. */
_Noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option value parsers: exit with a one-line error naming the option when bad. */
long cli_int(const char *opt, const char *value, long lo, long hi);
/* A seed: 0 to LONG_MAX (2^63-1), so that a record holds it as a JSON integer. */
uint64_t cli_seed(const char *opt, const char *value);
/* value escaped and cut for a message, into buf[INPUT_EXCERPT_MAX]; returns buf. */
const char *cli_quote(const char *value, char *buf);
/* The value after argv[*i] (advancing *i), or a one-line error if it is missing. */
const char *cli_value(int argc, char **argv, int *i);

/* Time control options shared by play and tournament: --tc BASE[+INC] and --move-time MS
   into *c (struct match_clock, arena/match.h). If argv[*i] is one, consumes it (and its
   value) and returns true; a bad value exits with a one-line error. */
struct match_clock;
bool cli_clock_option(struct match_clock *c, int argc, char **argv, int *i);
#define CLI_CLOCK_HELP                                                                             \
    "  --tc BASE[+INC]         game clock per seat: BASE ms, INC ms added after each move;\n"      \
    "                          a bot out of time loses on time (a forfeit, reason timeout)\n"      \
    "  --move-time MS          the most one move may take (a loss on time beyond)\n"

/* Game selection and options shared by play, perft, tournament and bench. */
typedef struct cli_game {
    const game_api_t *api;         /* the game */
    game_options_t opt;            /* its options */
    bool players_given;            /* --players was given */
    const char *players_text;      /* --players value, read once the game is known */
    const char *first_player_text; /* --first-player value, read once players are known */
} cli_game_t;

void cli_game_init(cli_game_t *g);
/* If argv[*i] is a game option, consumes it (and its value) and returns true. */
bool cli_game_option(cli_game_t *g, int argc, char **argv, int *i);
/* Fills defaults left open (players) and checks the player count for the game. */
void cli_game_finish(cli_game_t *g);
/* Help text lines for the game options (the games from the registry). */
const char *cli_game_help_text(void);
#define cli_game_help cli_game_help_text()
/* Refuses (one line, exit 2) to overwrite path unless it is missing, empty or a parameter
   file that skyline wrote (its first line is the writer's header): an --out pointed at
   records or notes by mistake must not destroy them (tune, fit). */
void cli_check_params_out(const char *path);
/* Locks FILE.lock (lines_file_open, as tournament locks its records) for a run that writes
   --out FILE and the files named after it (tune, fit: FILE.ckpt, ...): a second run on the
   same FILE is refused with one line while the first runs. The lock file goes at exit if
   this process made it; one left by a killed run is harmless (the lock died with it). */
void cli_lock_out(const char *out);
/* Notes a file the run is about to make (if it is not there yet): when the process ends
   in an error (cli_die), the files it made go, so that a refused or failed run leaves
   nothing behind (never a file that was there before). */
void cli_made(const char *path);
/* Keeps a file cli_made noted, whatever follows (a checkpoint to resume from). */
void cli_made_keep(const char *path);
/* The names of the registered games for messages: "towerup, uptown, ...". */
const char *cli_game_names(void);

/* Subcommands: each returns the process exit status. */
int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_openings(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_quality(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_nets(int argc, char **argv);
int cmd_zero(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_serve(int argc, char **argv);
