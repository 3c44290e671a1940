/*
 * skyline zero: the self-play loop (docs/ZERO.md). The loop itself is the Python module
 * skyline.zero (it drives generate, tournament and rate, and the PyTorch trainer); this
 * command runs it with the package of this source tree (or the installed one) and tells it
 * where this program and its library are. `skyline zero --report DIR` writes the loop's
 * page from its log.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "viewer/viewer.h"

#ifndef SKYLINE_PYTHON_SOURCE
#define SKYLINE_PYTHON_SOURCE ""
#endif

static const char zero_help[] =
    "usage: skyline zero --game G --players N --out DIR [--option KEY=VALUE ...]\n"
    "                    [--generations K] [--init NET] [--seed S] [--workers W] [--tiny]\n"
    "                    [--mpi R | --launcher CMD] [--KEY=VALUE ...]\n"
    "       skyline zero --report DIR\n"
    "The self-play loop (docs/ZERO.md): each generation, self-play of the best net\n"
    "(generate --record-policy), a candidate trained from it on a window of generations\n"
    "(python3 -m skyline.train --init), a gate against the best net (tournament --sprt),\n"
    "promotion on H1 only, and evaluations against generation 0 and mcts (rate). Files,\n"
    "log (DIR/log.jsonl) and page (DIR/report.html) in DIR; the same command resumes.\n"
    "Needs python3 with PyTorch ($SKYLINE_PYTHON, else python3 on PATH).\n"
    "  --generations K  stop after K generations (default: run until killed)\n"
    "  --init NET       generation 0 (default: random weights from the seed)\n"
    "  --tiny           tiny defaults (tests): width 16, depth 1, 4 games, 1 epoch\n"
    "  --mpi R          self-play and the matches as MPI jobs of R ranks (mpirun -np R;\n"
    "                   the MPI build, docs/MPI.md)\n"
    "  --launcher CMD   the command that starts those jobs instead ('srun', ...)\n"
    "  --report DIR     only write DIR/report.html from DIR/log.jsonl\n"
    "Keys (defaults, --tiny's): iters (400, 16), noise (0.25), noise_alpha (auto),\n"
    "temp_moves (auto: 8 in Connect Four, 12 otherwise), games (400, 4), window (4, 2), width\n"
    "(128, 16), depth (2, 1), epochs (4, 1), batch (256, 64), lr (1e-3), gate\n"
    "(elo0,elo1,alpha,beta,games: 0,35,0.05,0.05,800; 8 games), eval_games (200, 4),\n"
    "openings (100, 8: the matches' start positions).\n";

static int zero_report(const char *dir)
{
    char page[PATH_MAX], log[PATH_MAX], err[PATH_MAX + 256];
    if (snprintf(page, sizeof page, "%s/report.html", dir) >= (int)sizeof page ||
        snprintf(log, sizeof log, "%s/log.jsonl", dir) >= (int)sizeof log)
        cli_die("zero --report: the folder name is too long");
    if (viewer_write_zero(page, log, err, sizeof err))
        cli_die("zero --report: %s", err);
    return 0;
}

/* Prepends dir to the environment variable name (a ':' list). */
static void env_prepend(const char *name, const char *dir)
{
    const char *old = getenv(name);
    size_t n = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *v = malloc(n);
    if (!v)
        cli_die("out of memory");
    snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv(name, v, 1);
    free(v);
}

int cmd_zero(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(zero_help, stdout);
            return 0;
        }
    if (argc >= 2 && !strcmp(argv[1], "--report")) {
        if (argc != 3)
            cli_die("zero --report takes one folder");
        return zero_report(argv[2]);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        cli_die("zero: cannot find this program's path (/proc/self/exe)");
    self[n] = 0;
    setenv("SKYLINE_BIN", self, 1);
    /* Whether it can run its games over MPI ranks (skyline zero --mpi, --launcher). */
#ifdef SKYLINE_MPI
    setenv("SKYLINE_BIN_MPI", "1", 1);
#else
    setenv("SKYLINE_BIN_MPI", "0", 1);
#endif
    /* This build's library beside the program, for the package (python/skyline/_lib.py). */
    char lib[PATH_MAX + 32];
    char *slash = strrchr(self, '/');
    snprintf(lib, sizeof lib, "%.*s/libskyline.so", (int)(slash - self), self);
    struct stat st;
    if (!getenv("SKYLINE_LIB") && stat(lib, &st) == 0)
        setenv("SKYLINE_LIB", lib, 1);
    /* The source tree's package, when this program was built from it. */
    char module[PATH_MAX + 32];
    snprintf(module, sizeof module, "%s/skyline/zero.py", SKYLINE_PYTHON_SOURCE);
    if (*SKYLINE_PYTHON_SOURCE && stat(module, &st) == 0)
        env_prepend("PYTHONPATH", SKYLINE_PYTHON_SOURCE);
    const char *python = getenv("SKYLINE_PYTHON");
    if (!python || !*python)
        python = "python3";
    char **args = calloc((size_t)argc + 3, sizeof *args);
    if (!args)
        cli_die("out of memory");
    args[0] = (char *)python;
    args[1] = "-m";
    args[2] = "skyline.zero";
    for (int i = 1; i < argc; i++)
        args[i + 2] = argv[i];
    fflush(stdout);
    execvp(python, args);
    cli_die("zero needs python3 with PyTorch: cannot run '%s' (%s; apt-get install "
            "python3-torch, or set SKYLINE_PYTHON)",
            python, strerror(errno));
}
