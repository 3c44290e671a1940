#pragma once
/* A minimal test framework: checks count failures, a test program exits 1 if any failed. */
#include <stdint.h>
#include <stdio.h>

extern int test_failures; /* failed checks so far */
extern int test_checks;   /* checks run so far */

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            test_failures++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            test_failures++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        test_checks++;                                                                             \
        if (a_ != b_) {                                                                            \
            test_failures++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", __FILE__, __LINE__,  \
                    #a, #b, a_, b_);                                                               \
        }                                                                                          \
    } while (0)

/* Prints the summary line and returns the process exit status. */
int test_finish(const char *name);

/* Reads a whole file into a new NUL-terminated buffer (exits on failure). */
char *test_read_file(const char *path);

struct game_api;
struct game_options;
typedef uint32_t move_t;
/*
 * Adds the game option printf(fmt, ...) ("key=value") to opt, its text kept in one of 64
 * buffers taken in turn (so it outlives the next 63 calls); a failure is a failed check.
 */
void test_option(struct game_options *opt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The legal moves of state as canonical text, one 32-byte slot each; returns the count. */
int test_move_texts(const struct game_api *api, const void *state, char (*out)[32]);
/*
 * Sorts both move lists and compares them: 1 if they hold the same texts, else 0 after
 * printing the moves only one side lists (side names a and b).
 */
int test_same_moves(const char *a_name, char (*a)[32], int na, const char *b_name, char (*b)[32],
                    int nb);

/* A reference rules implementation seen through two calls, for test_walk_against. */
typedef struct test_ref_ops {
    int (*moves)(const void *ref, char (*out)[32], int max); /* legal moves as text */
    int (*play)(void *ref, const char *move);                /* 0, or -1 if refused */
} test_ref_ops_t;

/*
 * Replays history[0..n) from initial on the fast engine and on ref together, checking
 * before every move and at the end that both list the same moves. Returns the positions
 * compared; a difference is a failed check naming seed, players and move index.
 */
int test_walk_against(const struct game_api *api, const void *initial, const move_t *history, int n,
                      const test_ref_ops_t *ops, void *ref, uint64_t seed, int players);
