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
