/* tools/weft/explain.c — `weft explain` (placeholder while being written). */
#include <stdio.h>

#include "cli.h"

int weft_cli_explain(int argc, char **argv)
{
    fprintf(stderr, "weft explain: not available yet\n");
    return 2;
}
