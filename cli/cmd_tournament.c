/* skyline tournament: being written (issue in progress). */
#include "cli/cli.h"

int cmd_tournament(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_die("tournament is not available yet");
}
