/* util/path.c — weft_path_find_program and weft_path_tool (util/path.h).
 *
 * Why at run time: the paths a build finds (CMake's find_program) are those of the build
 * machine. Compiled in, they tie a packaged or moved Weft to that machine's layout; looked up
 * here, the installed library finds clang-19 wherever the system put it, and the build's path
 * is only the last resort (LLVM's own bin folder, which need not be on PATH). */
#include "util/path.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool weft_path_find_program(const char *name, char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    if (!name || !*name || !len)
        return false;
    if (strchr(name, '/')) {
        if (!is_executable_file(name) || (size_t)snprintf(out, len, "%s", name) >= len) {
            out[0] = '\0';
            return false;
        }
        return true;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    while (1) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        /* an empty entry means the current folder, as for execvp */
        int w = n ? snprintf(out, len, "%.*s/%s", (int)n, path, name) : snprintf(out, len, "./%s", name);
        if (w > 0 && (size_t)w < len && is_executable_file(out))
            return true;
        if (!end)
            break;
        path = end + 1;
    }
    out[0] = '\0';
    return false;
}

static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;

const char *weft_path_tool(struct weft_path_tool *tool)
{
    const char *env = tool->env_var ? getenv(tool->env_var) : NULL;
    if (env && *env)
        return env;
    if (atomic_load_explicit(&tool->done, memory_order_acquire))
        return tool->resolved;
    pthread_mutex_lock(&resolve_lock);
    if (!atomic_load_explicit(&tool->done, memory_order_relaxed)) {
        if (!weft_path_find_program(tool->name, tool->resolved, sizeof tool->resolved)) {
            const char *last = tool->fallback && is_executable_file(tool->fallback) ? tool->fallback : tool->name;
            snprintf(tool->resolved, sizeof tool->resolved, "%s", last);
        }
        atomic_store_explicit(&tool->done, true, memory_order_release);
    }
    pthread_mutex_unlock(&resolve_lock);
    return tool->resolved;
}
