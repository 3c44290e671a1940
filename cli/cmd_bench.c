/* skyline bench: being written (issue in progress). */
#include "cli/cli.h"

int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_die("bench is not available yet");
}
