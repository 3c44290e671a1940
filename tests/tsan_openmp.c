/*
 * ThreadSanitizer's view of OpenMP: "clean" runs the pattern of fit's and the search's
 * parallel regions (threads write their own slots of a shared array, the thread that
 * started the region reads them all after it), which is race-free; "race" has every thread
 * add to one plain counter, a real data race. With an OpenMP runtime whose
 * synchronisation TSan sees (clang's libomp with its Archer tool) the first is clean and
 * the second reported; with GCC's uninstrumented libgomp both are reported, so this check
 * fails in a TSan build that would give false reports (tests/tsan_openmp.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 256

/* Each iteration writes its own slot; the sum is read after the region. */
static long clean_run(int threads)
{
    long *part = malloc(SLOTS * sizeof *part);
    if (!part)
        return -1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int i = 0; i < SLOTS; i++)
        part[i] = (long)i * i;
    long sum = 0;
    for (int i = 0; i < SLOTS; i++)
        sum += part[i];
    free(part);
    return sum;
}

/* Every thread adds to one counter with no synchronisation: a data race. */
static long racy_run(int threads)
{
    long counter = 0;
    long *volatile shared = &counter;
#pragma omp parallel num_threads(threads)
    for (int i = 0; i < 1000; i++)
        *shared += 1;
    return counter;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "clean") && strcmp(argv[1], "race"))) {
        fprintf(stderr, "usage: tsan_openmp clean|race\n");
        return 2;
    }
    long r = !strcmp(argv[1], "clean") ? clean_run(4) : racy_run(4);
    printf("%ld\n", r);
    return r < 0;
}
