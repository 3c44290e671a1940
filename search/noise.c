/* Root noise: Dirichlet noise mixed into the root's priors (search/noise.h). */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>

#include "search/noise.h"
#include "search/keys.h"

/* The stream of the noise's draws: apart from the threads' (0 to threads - 1). */
#define MCTS_NOISE_STREAM 0x6e6f697365ULL
#define MCTS_NOISE_TWO_PI 6.283185307179586

/* The search's noise, and each thread's view of it over its root's legal moves. */
struct mcts_noise {
    int count;                    /* legal moves of the searched state */
    move_t moves[GAME_MAX_MOVES]; /* those moves */
    double eta[GAME_MAX_MOVES];   /* their noise, summing to 1 */
    double at[];                  /* per thread, GAME_MAX_MOVES: eta of th->moves[i] */
};

const char *mcts_noise_problem(const mcts_options_t *opt)
{
    if (!(opt->root_noise >= 0.0 && opt->root_noise <= 1.0))
        return "root_noise out of range (0 to 1)";
    if (!(opt->root_noise_alpha >= 0.0 && opt->root_noise_alpha <= 1e6))
        return "root_noise_alpha out of range (0 to 1e6)";
    if (opt->root_noise > 0.0 && !opt->prior)
        return "root_noise without a prior hook (the noise mixes into the root's priors)";
    return NULL;
}

int mcts_noise_alloc(mcts_t *m)
{
    if (!(m->opt.root_noise > 0.0))
        return 0;
    size_t at = (size_t)m->opt.threads * GAME_MAX_MOVES * sizeof(double);
    m->noise = calloc(1, sizeof *m->noise + at);
    return m->noise ? 0 : -1;
}

/* A standard normal variate (Box and Muller). */
static double normal_draw(pcg32_t *rng)
{
    double u = 1.0 - pcg32_double(rng); /* in (0, 1] */
    double v = pcg32_double(rng);
    return sqrt(-2.0 * log(u)) * cos(MCTS_NOISE_TWO_PI * v);
}

/* A Gamma(a, 1) variate, a > 0 (Marsaglia and Tsang 2000; below 1 by the boost
   Gamma(a + 1) U^(1/a)). */
static double gamma_draw(pcg32_t *rng, double a)
{
    if (a < 1.0) {
        double u = pcg32_double(rng);
        return gamma_draw(rng, a + 1.0) * pow(u, 1.0 / a);
    }
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = normal_draw(rng);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = pcg32_double(rng);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v;
    }
}

void mcts_noise_draw(mcts_t *m, const move_t *moves, int n, uint64_t seed)
{
    struct mcts_noise *z = m->noise;
    if (!z)
        return;
    pcg32_t rng;
    pcg32_seed(&rng, seed, MCTS_NOISE_STREAM);
    double alpha = m->opt.root_noise_alpha > 0.0 ? m->opt.root_noise_alpha
                                                 : MCTS_NOISE_ALPHA_TOTAL / (n > 0 ? n : 1);
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        z->moves[i] = moves[i];
        sum += z->eta[i] = gamma_draw(&rng, alpha);
    }
    z->count = n;
    if (!(sum > 0.0)) { /* every draw underflowed (a tiny alpha): the limit, one move */
        for (int i = 0; i < n; i++)
            z->eta[i] = 0.0;
        if (n > 0)
            z->eta[pcg32_bounded(&rng, (uint32_t)n)] = 1.0;
        return;
    }
    for (int i = 0; i < n; i++)
        z->eta[i] /= sum;
}

/* The noise of th->moves[0..n) (indexed by mcts_moves_index) if node is the root that
   takes it, else NULL: eta of each legal move, 0 for a move not legal in the searched
   state. */
static const double *noise_at(const mcts_t *m, mcts_thread_t *th, uint32_t node, int n)
{
    struct mcts_noise *z = m->noise;
    int r = m->opt.parallel == MCTS_PARALLEL_ROOT ? th->index
            : m->opt.tree == MCTS_TREE_MULTI      ? m->observer
                                                  : 0;
    if (!z || node != m->roots[r])
        return NULL;
    double *at = z->at + (size_t)th->index * GAME_MAX_MOVES;
    for (int i = 0; i < n; i++)
        at[i] = 0.0;
    for (int j = 0; j < z->count; j++) {
        int i = mcts_moves_lookup(th, z->moves[j]);
        if (i >= 0)
            at[i] = z->eta[j];
    }
    return at;
}

/* The root_prior hook: the priors at the root that takes the noise blended with it. */
static bool noise_root_prior(const mcts_t *m, mcts_thread_t *th, uint32_t node, int n,
                             mcts_prior_blend_t *b)
{
    const double *at = noise_at(m, th, node, n);
    if (!at)
        return false;
    b->weight = m->opt.root_noise;
    b->target = at;
    return true;
}

void mcts_noise_hooks(const mcts_options_t *opt, mcts_hooks_t *h)
{
    if (opt->root_noise > 0.0)
        h->root_prior = noise_root_prior;
}

/* The keys of the root noise (search/keys.h). */
const mcts_key_def_t mcts_noise_keys[] = {
    {"noise", MCTS_KEY_DOUBLE, 0, 1, NULL, "EPS", NULL, "0",
     "root noise for self-play: at the root a move's prior is (1 - EPS) prior + EPS eta, eta "
     "drawn at every search from Dirichlet(`noise_alpha`) over the legal moves with the "
     "bot's seed; needs a prior (`prior=heuristic`, the best preset's with a heuristic, or "
     "`net`); 0: off",
     "see \"Self-play keys\" below", MCTS_STORE_DOUBLE, offsetof(mcts_options_t, root_noise)},
    {"noise_alpha", MCTS_KEY_DOUBLE, 0.001, 1000, NULL, "A", NULL,
     "10 / the legal moves at the root",
     "the Dirichlet concentration of `noise` (only with `noise` above 0)", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, root_noise_alpha)},
    {0},
};
