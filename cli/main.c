/* skyline: the command-line program (FORMATS.md §5). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "skyline: no subcommand yet\n");
    return 2;
}
