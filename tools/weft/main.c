/* tools/weft/main.c — the `weft` command: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct subcommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
};

static const struct subcommand subcommands[] = {
    {"info", weft_cli_info, "print the Weft platform and device as applications see them"},
    {"bench", weft_cli_bench, "run the kernel corpus on Weft, other CPU platforms and natively"},
    {"run", weft_cli_run, "build a .cl file and run one kernel: checksums of its buffers, time per launch"},
    {"explain", weft_cli_explain, "show the compiler's decisions for each kernel of a .cl file"},
};

/* Subcommands announced by the roadmap that this build does not have yet. */
static const char *const future_subcommands[] = {"bench"};

static void usage(FILE *f)
{
    fprintf(f, "usage: weft <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-8s %s\n", subcommands[i].name, subcommands[i].help);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].fn(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof future_subcommands / sizeof future_subcommands[0]; i++)
        if (!strcmp(argv[1], future_subcommands[i])) {
            fprintf(stderr, "weft: '%s' is not available in this build yet\n", argv[1]);
            return 2;
        }
    fprintf(stderr, "weft: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
