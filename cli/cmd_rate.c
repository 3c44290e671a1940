/* skyline rate: being written (issue in progress). */
#include "cli/cli.h"

int cmd_rate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_die("rate is not available yet");
}
