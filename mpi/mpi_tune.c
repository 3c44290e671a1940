/*
 * skyline tune over MPI ranks (mpi_run.h): every rank runs the same SPSA iterations, plays
 * its share of each iteration's games and the per-game results are summed over the ranks
 * (each game's entry is filled by one rank, zero on the others, so the sums are exact and
 * every rank computes the same theta as a one-process run).
 */
#include "mpi/mpi_run.h"

#include <mpi.h>
#include <stdio.h>

/* Ends the job with the MPI error's message. */
static void mpi_tune_die(int code, const char *what)
{
    char text[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 128];
    int len = 0;
    MPI_Error_string(code, text, &len);
    snprintf(msg, sizeof msg,
             "MPI: %s failed (%s): a rank was lost; run the same command again to resume", what,
             text);
    mpi_run_die(msg);
}

void mpi_run_sum(double *v, int n)
{
    int code = MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
        mpi_tune_die(code, "summing the games' results over the ranks");
}

void mpi_run_share(void *p, size_t n)
{
    int code = MPI_Bcast(p, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
        mpi_tune_die(code, "sharing the checkpoint");
}
