/* util/path.h — finding the programs Weft runs (clang-19, llvm-spirv-15) at run time, so that
 * neither the library nor the tools carry a path of the machine they were built on: an
 * installed or moved Weft finds them the way a shell would. */
#ifndef WEFT_UTIL_PATH_H
#define WEFT_UTIL_PATH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* The first executable regular file called `name` in the folders of PATH ("/bin:/usr/bin"
 * when PATH is unset, as execvp does), as a path in out[len]. A `name` with a slash is taken
 * as it is when executable. False when none is found (out[0] is then ""). */
bool weft_path_find_program(const char *name, char *out, size_t len);

/* A program Weft runs, and where it is looked for. Define one per program with static storage
 * and the first three fields set; the rest is filled on first use. */
struct weft_path_tool {
    const char *env_var;    /* overrides everything when set and not empty (WEFT_CLANG) */
    const char *name;       /* looked up on PATH (clang-19) */
    const char *fallback;   /* tried when PATH has none: what the build found (may be NULL) */
    atomic_bool done;
    char resolved[4096];
};

/* The program to run: env_var's value when set and not empty; else `name` found on PATH; else
 * `fallback` when it is executable; else `name` itself, so that running it fails with the
 * name in the message. All but the variable is resolved once per process (PATH is read then). */
const char *weft_path_tool(struct weft_path_tool *tool);

#endif
