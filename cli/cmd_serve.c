/* skyline serve: the local web app (serve/, docs/SERVE.md), when the build has it. */
/* realpath (XSI). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#ifdef SKYLINE_SERVE
#include "serve/serve.h"
#endif

static const char serve_help[] =
    "usage: skyline serve [--port P] [--host H] [--data DIR] [options]\n"
    "A local web app (docs/SERVE.md): play against the bots by clicking on the board, watch a\n"
    "tournament file grow, analyse positions. Open the address it prints in a browser.\n"
    "  --port P            TCP port (default 8080; 0: any free port, printed at start)\n"
    "  --host H            IPv4 address to listen on (default 127.0.0.1, this machine only;\n"
    "                      any other is announced at start)\n"
    "  --data DIR          the folder of records: finished games are saved there, and only\n"
    "                      files there are read (default serve-data, made if missing)\n"
    "  --max-games N       games under way at once (default 16); more are refused (503)\n"
    "  --max-searches N    analyses and hints at once (default 2); more are refused (503)\n"
    "  --move-time MS      the most one bot move may take, else it forfeits (default 60000)\n"
    "  --allow-ext         allow ext: bots (each runs a program of this machine)\n";

int cmd_serve(int argc, char **argv)
{
    const char *host = "127.0.0.1", *data = "serve-data";
    long port = 8080, max_games = 16, max_searches = 2, move_ms = 60000;
    bool allow_ext = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(serve_help, stdout);
            return 0;
        } else if (!strcmp(arg, "--port")) {
            port = cli_int(arg, cli_value(argc, argv, &i), 0, 65535);
        } else if (!strcmp(arg, "--host")) {
            host = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--data")) {
            data = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--max-games")) {
            max_games = cli_int(arg, cli_value(argc, argv, &i), 1, 256);
        } else if (!strcmp(arg, "--max-searches")) {
            max_searches = cli_int(arg, cli_value(argc, argv, &i), 1, 64);
        } else if (!strcmp(arg, "--move-time")) {
            move_ms = cli_int(arg, cli_value(argc, argv, &i), 0, 3600000);
        } else if (!strcmp(arg, "--allow-ext")) {
            allow_ext = true;
        } else {
            cli_die("serve: unknown option '%s' (see skyline serve --help)", arg);
        }
    }
#ifndef SKYLINE_SERVE
    (void)host, (void)data, (void)port, (void)max_games, (void)max_searches, (void)move_ms,
        (void)allow_ext;
    cli_die("serve: this build has no web server (libmicrohttpd-dev was missing when it was "
            "built: install it and build again)");
#else
    if (mkdir(data, 0777) && errno != EEXIST)
        cli_die("--data %s: cannot make the folder: %s", data, strerror(errno));
    struct stat st;
    char real[PATH_MAX];
    if (stat(data, &st) || !S_ISDIR(st.st_mode) || !realpath(data, real))
        cli_die("--data %s: not a folder", data);
    /* Files that options and bot specs name (no '/' allowed there) are the data folder's. */
    if (chdir(real))
        cli_die("--data %s: cannot enter the folder: %s", data, strerror(errno));
    serve_config_t cfg = {.host = host,
                          .port = (int)port,
                          .data = real,
                          .max_games = (int)max_games,
                          .max_searches = (int)max_searches,
                          .move_ms = move_ms,
                          .allow_ext = allow_ext};
    char err[512];
    if (serve_run(&cfg, err, sizeof err))
        cli_die("serve: %s", err);
    return 0;
#endif
}
