/*
 * skyline tournament over MPI ranks (mpi_run.h): rank 0 runs tournament_run as one process
 * does, its workers being the other ranks' game slots (mpi_games.c), so it keeps the file,
 * resume, the SPRT and the progress display unchanged; the other ranks only play games
 * (tournament_game_play), each with its own worker threads.
 */
#include "mpi/mpi_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A worker rank's tournament: its configuration, schedule and hash. */
typedef struct mpi_tour {
    const tournament_config_t *cfg;     /* the tournament */
    tournament_schedule_t sched;        /* its schedule */
    char hash[TOURNAMENT_HASH_LEN + 1]; /* its configuration hash */
} mpi_tour_t;

/* Rank 0: a game of the tournament played by another rank (tournament_remote_t). */
static int mpi_tour_remote(void *ctx, int slot, long index, char **line, int *ranks, int *forfeit,
                           char *err, size_t errlen)
{
    long long info[MPI_RUN_INFO];
    if (mpi_run_root_play(ctx, slot, index, line, info, err, errlen))
        return -1;
    *forfeit = (int)info[0];
    for (int k = 0; k < GAME_MAX_PLAYERS; k++)
        ranks[k] = (int)info[1 + k];
    return 0;
}

/* A worker rank's slot: its bots, made as its games need them. */
static void *mpi_tour_slot_new(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(tournament_bots_t));
}

static void mpi_tour_slot_free(void *ctx, void *slot)
{
    (void)ctx;
    bot_t *(*bots)[TOURNAMENT_MAX_BOTS] = slot;
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        for (int b = 0; b < TOURNAMENT_MAX_BOTS; b++)
            bot_free(bots[s][b]);
    free(slot);
}

static int mpi_tour_play(void *ctx, void *slot, long index, char **line, long long *info, char *err,
                         size_t errlen)
{
    mpi_tour_t *t = ctx;
    int ranks[GAME_MAX_PLAYERS] = {0}, forfeit = -1;
    int rc = tournament_game_play(t->cfg, &t->sched, t->hash, slot, index, line, ranks, &forfeit,
                                  err, errlen);
    info[0] = forfeit;
    for (int k = 0; k < GAME_MAX_PLAYERS; k++)
        info[1 + k] = ranks[k];
    return rc;
}

int mpi_run_tournament(tournament_config_t *cfg, tournament_report_t *rep, bool *is_root, char *err,
                       size_t errlen)
{
    int rank = 0, size = 1;
    *is_root = true;
    if (mpi_run_world(&rank, &size, err, errlen))
        return -1;
    if (size < 2)
        return tournament_run(cfg, rep, err, errlen);
    *is_root = rank == 0;
    if (rank == 0) {
        int slots = 0;
        mpi_run_root_t *m = mpi_run_root_start(&slots, err, errlen);
        if (!m)
            return -1;
        tournament_remote_t remote = {mpi_tour_remote, m};
        cfg->remote = &remote;
        cfg->workers = slots;
        int rc = tournament_run(cfg, rep, err, errlen);
        cfg->remote = NULL;
        return mpi_run_root_stop(m, rc, rc == 0 ? rep->played : 0, cfg->progress, err, errlen);
    }
    mpi_tour_t t = {.cfg = cfg};
    if (tournament_schedule_init(&t.sched, cfg->bot_count, cfg->opt.players, cfg->format,
                                 cfg->opt.seed, err, errlen))
        return -1;
    tournament_config_hash(cfg, t.hash);
    mpi_run_player_t p = {mpi_tour_slot_new, mpi_tour_play, mpi_tour_slot_free, &t};
    int rc = mpi_run_worker(&p, cfg->workers, err, errlen);
    tournament_schedule_free(&t.sched);
    return rc;
}
