// Side-by-side anchor for scripts/anchor_openspiel.sh: runs one measurement of
// OpenSpiel's Connect Four and prints one line "KIND RATE" (rate per second of
// this thread's processor time), so the script can interleave it with Skyline.
//
//   openspiel_anchor random GAMES SEED        random full games from the empty
//                                             board (root cloned per game)
//   openspiel_anchor mcts SIMS SEARCHES SEED  MCTSBot searches from the empty
//                                             board: UCT, c = 2, one random
//                                             rollout per simulation, solver on
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

namespace {

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

long ParseCount(const char* text, const char* what) {
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v <= 0) {
    std::fprintf(stderr, "openspiel_anchor: bad %s '%s'\n", what, text);
    std::exit(2);
  }
  return v;
}

int Usage() {
  std::fprintf(stderr,
               "usage: openspiel_anchor random GAMES SEED | mcts SIMS SEARCHES "
               "SEED\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  std::shared_ptr<const open_spiel::Game> game =
      open_spiel::LoadGame("connect_four");
  std::unique_ptr<open_spiel::State> empty = game->NewInitialState();
  if (std::strcmp(argv[1], "random") == 0 && argc == 4) {
    long games = ParseCount(argv[2], "game count");
    std::mt19937 rng(static_cast<unsigned>(ParseCount(argv[3], "seed")));
    long plies = 0;
    double t0 = CpuSeconds();
    for (long g = 0; g < games; ++g) {
      std::unique_ptr<open_spiel::State> s = empty->Clone();
      while (!s->IsTerminal()) {
        std::vector<open_spiel::Action> moves = s->LegalActions();
        std::uniform_int_distribution<size_t> pick(0, moves.size() - 1);
        s->ApplyAction(moves[pick(rng)]);
        ++plies;
      }
    }
    double dt = CpuSeconds() - t0;
    std::printf("random %.1f plies_per_game %.3f\n", games / dt,
                double(plies) / games);
    return 0;
  }
  if (std::strcmp(argv[1], "mcts") == 0 && argc == 5) {
    long sims = ParseCount(argv[2], "simulation count");
    long searches = ParseCount(argv[3], "search count");
    int seed = static_cast<int>(ParseCount(argv[4], "seed"));
    auto rollout =
        std::make_shared<open_spiel::algorithms::RandomRolloutEvaluator>(1,
                                                                         seed);
    open_spiel::algorithms::MCTSBot bot(*game, rollout, 2.0,
                                        static_cast<int>(sims), 1000, true,
                                        seed, false);
    long done = 0;
    double t0 = CpuSeconds();
    for (long i = 0; i < searches; ++i)
      done += bot.MCTSearch(*empty)->explore_count;
    double dt = CpuSeconds() - t0;
    std::printf("mcts %.1f sims %ld\n", done / dt, done);
    return 0;
  }
  return Usage();
}
