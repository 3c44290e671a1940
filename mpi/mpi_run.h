#pragma once
/*
 * Runs a command's games across the processes of an MPI job (mpirun, srun): rank 0 owns
 * the files, the schedule, resume and the stopping rules; the other ranks play games with
 * their own worker threads and send the results back (docs/MPI.md). Built with
 * -DSKYLINE_MPI=ON; a program not started by an MPI launcher runs as one process.
 */
#include <stdbool.h>
#include <stddef.h>

#include "arena/tournament.h"

/* True when this process was started by an MPI launcher with more than one rank. */
bool mpi_run_launched(void);

/*
 * The tournament over all ranks. On rank 0 like tournament_run (0, or -1 with err) and
 * *is_root true; on the other ranks it plays the games rank 0 hands out, returns 0 when
 * rank 0 is done (rep untouched, *is_root false), or -1 with err.
 */
int mpi_run_tournament(tournament_config_t *cfg, tournament_report_t *rep, bool *is_root, char *err,
                       size_t errlen);

/* Starts MPI (once) and gives this process's rank and the job's size: 0, or -1 with err. */
int mpi_run_world(int *rank, int *size, char *err, size_t errlen);

/* Sums n doubles over all ranks, in place, on every rank (dies on an MPI error). */
void mpi_run_sum(double *v, int n);
/* Copies n bytes from rank 0 to every rank (dies on an MPI error). */
void mpi_run_share(void *p, size_t n);

/* Ends the MPI job (MPI_Finalize) if mpi_run_* started it. */
void mpi_run_finish(void);
/* After an error: prints "skyline: MESSAGE" and ends every rank with status 1. */
_Noreturn void mpi_run_die(const char *message);

/*
 * Games played by the other ranks, for any command that plays numbered games (tournament,
 * generate). A game comes back as its record line and MPI_RUN_INFO integers of the
 * command's own (the tournament: the forfeit seat and the ranks per seat).
 */
#define MPI_RUN_INFO (1 + GAME_MAX_PLAYERS)

/* What a worker rank plays: each of its game slots has a state of its own (its bots). */
typedef struct mpi_run_player {
    void *(*slot_new)(void *ctx); /* a slot's state, NULL when out of memory */
    int (*play)(void *ctx, void *slot, long index, char **line, long long *info, char *err,
                size_t errlen);               /* game index: its line (malloc'ed); 0 or -1 */
    void (*slot_free)(void *ctx, void *slot); /* frees a slot's state */
    void *ctx;                                /* the command's run */
} mpi_run_player_t;

/* Rank 0's routing of games to the other ranks' slots. */
typedef struct mpi_run_root mpi_run_root_t;

/* Rank 0 of a job of two or more ranks: learns the other ranks' game slots (*slots) and
   starts routing; NULL with err. */
mpi_run_root_t *mpi_run_root_start(int *slots, char *err, size_t errlen);
/* Has game index played on slot's rank (from any thread of rank 0, one game a slot at a
   time): 0 with line (malloc'ed) and info, or -1 with err. */
int mpi_run_root_play(mpi_run_root_t *m, int slot, long index, char **line, long long *info,
                      char *err, size_t errlen);
/* Stops the other ranks and frees m; rc is the command's result so far. Prints the traffic
   line on stderr when progress and played > 0. rc, or -1 with err if stopping failed. */
int mpi_run_root_stop(mpi_run_root_t *m, int rc, long played, bool progress, char *err,
                      size_t errlen);
/* A rank other than 0: offers workers game slots and plays the games rank 0 sends until it
   says stop: 0, or -1 with err. */
int mpi_run_worker(const mpi_run_player_t *p, int workers, char *err, size_t errlen);
