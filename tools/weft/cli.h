/* tools/weft/cli.h — one entry function per `weft` subcommand (argv[0] is the subcommand). */
#ifndef WEFT_CLI_H
#define WEFT_CLI_H

int weft_cli_info(int argc, char **argv);
int weft_cli_bench(int argc, char **argv);
int weft_cli_run(int argc, char **argv);
int weft_cli_explain(int argc, char **argv);

#endif
