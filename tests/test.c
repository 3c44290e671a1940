#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

int test_failures;
int test_checks;

int test_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    buf[n] = 0;
    fclose(f);
    return buf;
}

int test_move_texts(const game_api_t *api, const void *state, char (*out)[32])
{
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(state, moves);
    for (int i = 0; i < n; i++) {
        memset(out[i], 0, 32);
        api->move_to_text(state, moves[i], out[i]);
    }
    return n;
}

static int test_cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int test_same_moves(const char *a_name, char (*a)[32], int na, const char *b_name, char (*b)[32],
                    int nb)
{
    qsort(a, (size_t)na, 32, test_cmp_text);
    qsort(b, (size_t)nb, 32, test_cmp_text);
    int same = na == nb;
    for (int i = 0; same && i < na; i++)
        same = !strcmp(a[i], b[i]);
    if (same)
        return 1;
    fprintf(stderr, "  %s lists %d moves, %s %d\n", a_name, na, b_name, nb);
    for (int i = 0, j = 0; i < na || j < nb;) {
        int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i], b[j]);
        if (c < 0)
            fprintf(stderr, "  only %s: %s\n", a_name, a[i++]);
        else if (c > 0)
            fprintf(stderr, "  only %s: %s\n", b_name, b[j++]);
        else
            i++, j++;
    }
    return 0;
}

int test_walk_against(const game_api_t *api, const void *initial, const move_t *history, int n,
                      const test_ref_ops_t *ops, void *ref, uint64_t seed, int players)
{
    static char fast_text[GAME_MAX_MOVES][32], ref_text[GAME_MAX_MOVES][32];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    void *state = malloc(api->state_size);
    memcpy(state, initial, api->state_size);
    int positions = 0;
    for (int k = 0; k <= n; k++) {
        int nf = test_move_texts(api, state, fast_text);
        int nr = ops->moves(ref, ref_text, GAME_MAX_MOVES);
        positions++;
        if (!test_same_moves("fast", fast_text, nf, "reference", ref_text, nr)) {
            CHECK_MSG(0, "seed %llu players %d move %d: the move lists differ",
                      (unsigned long long)seed, players, k);
            break;
        }
        if (k == n)
            break;
        char text[GAME_MOVE_TEXT_MAX];
        api->move_to_text(state, history[k], text);
        api->make(state, history[k], undo);
        CHECK_MSG(ops->play(ref, text) == 0, "reference refuses %s", text);
    }
    free(state);
    return positions;
}

void test_option(game_options_t *opt, const char *fmt, ...)
{
    static char texts[64][1024];
    static int next;
    char *t = texts[next++ % 64], err[GAME_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof texts[0], fmt, ap);
    va_end(ap);
    CHECK_MSG(game_options_add(opt, t, err, sizeof err) == 0, "%s", err);
}
