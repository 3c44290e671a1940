/* The table of natural logarithms of small whole numbers (search/policy.h, mcts_log). */
#include <math.h>
#include <pthread.h>

#include "search/policy.h"

double mcts_log_table[MCTS_LOG_TABLE];

static void log_table_fill(void)
{
    mcts_log_table[0] = -HUGE_VAL;
    for (int k = 1; k < MCTS_LOG_TABLE; k++)
        mcts_log_table[k] = log((double)k);
}

void mcts_log_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, log_table_fill);
}
