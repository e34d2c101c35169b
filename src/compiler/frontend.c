/* compiler/frontend.c — OpenCL C source to LLVM bitcode, by running clang-19 as a child
 * process, and the parsing of the user's build options.
 *
 * Guarantees: the source goes to clang through a pipe (stdin) and the bitcode comes back
 * through another (stdout); clang's diagnostics (file:line:column, as clang prints them) are
 * appended verbatim to the build log. Nothing is written to the user's directories: the only
 * files created are clCompileProgram's input headers, in a private temporary directory that
 * is removed before returning. The kernel sees exactly the extensions and features of
 * runtime/features.h. Unknown options are rejected before clang runs.
 */
#define _GNU_SOURCE
#include "compiler/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/features.h"
#include "util/path.h"

extern char **environ;

/* The clang the build compiled the builtins with: tried only when PATH has no clang-19. */
#ifndef WEFT_CLANG_FALLBACK
#define WEFT_CLANG_FALLBACK NULL
#endif

/* The name clang reports in diagnostics for the program's source. */
#define WEFT_SOURCE_NAME "input.cl"

/* Found at run time (util/path.h): an installed Weft carries no path of the build machine. */
static struct weft_path_tool clang_tool = {"WEFT_CLANG", "clang-19", WEFT_CLANG_FALLBACK};

const char *weft_frontend_clang_path(void)
{
    return weft_path_tool(&clang_tool);
}

void weft_bitcode_free(struct weft_bitcode *bc)
{
    if (!bc)
        return;
    free(bc->data);
    bc->data = NULL;
    bc->size = 0;
}

/* ---- options ------------------------------------------------------------------------- */

struct strvec {
    char **v;
    size_t n, cap;
};

static bool strvec_push(struct strvec *s, const char *str)
{
    if (s->n + 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return false;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n] = strdup(str);
    if (!s->v[s->n])
        return false;
    s->n++;
    s->v[s->n] = NULL;
    return true;
}

static void strvec_free(struct strvec *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Splits on blanks; double or single quotes group (so -D X="a b" and -I "my dir" work). */
static bool tokenize(const char *str, struct strvec *out)
{
    size_t len = strlen(str);
    char *tok = malloc(len + 1);
    if (!tok)
        return false;
    const char *p = str;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        char quote = 0;
        while (*p && (quote || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))) {
            if (!quote && (*p == '"' || *p == '\'')) {
                quote = *p++;
                continue;
            }
            if (quote && *p == quote) {
                quote = 0;
                p++;
                continue;
            }
            if (*p == '\\' && p[1] && quote != '\'') {
                p++;
            }
            tok[n++] = *p++;
        }
        tok[n] = 0;
        if (!strvec_push(out, tok)) {
            free(tok);
            return false;
        }
    }
    free(tok);
    return true;
}

/* Flags passed to clang unchanged (compile options of OpenCL 3.0 §5.8.6). */
static const char *const passthrough_compile[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-w", "-Werror", "-cl-kernel-arg-info",
    "-cl-uniform-work-group-size", "-g",
};
/* Accepted and without effect here (sub-groups never have independent forward progress, which
 * -cl-no-subgroup-ifp gives up; strict aliasing is the default). */
static const char *const ignored_compile[] = {"-cl-strict-aliasing", "-cl-no-subgroup-ifp"};
/* Link options (§5.8.7). */
static const char *const link_options[] = {
    "-create-library", "-enable-link-options", "-cl-denorms-are-zero", "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    "-cl-no-subgroup-ifp",
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return true;
    return false;
}

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool is_math_relaxing(const char *s)
{
    return !strcmp(s, "-cl-fast-relaxed-math") || !strcmp(s, "-cl-unsafe-math-optimizations") ||
           !strcmp(s, "-cl-finite-math-only") || !strcmp(s, "-cl-mad-enable") ||
           !strcmp(s, "-cl-no-signed-zeros");
}

cl_int weft_options_parse(const char *options, enum weft_options_kind kind,
                          struct weft_build_options *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    strcpy(out->cl_std, "CL1.2");
    struct strvec toks = {0}, args = {0};
    cl_int err = CL_SUCCESS;
    if (!tokenize(options ? options : "", &toks)) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }
    for (size_t i = 0; i < toks.n; i++) {
        const char *t = toks.v[i];
        if (kind == WEFT_OPTIONS_LINK) {
            if (!in_list(t, link_options, LEN(link_options))) {
                weft_diag_error(diag, "error: unknown link option '%s'", t);
                err = CL_INVALID_BUILD_OPTIONS;
                goto done;
            }
            if (!strcmp(t, "-create-library"))
                out->create_library = true;
            else if (!strcmp(t, "-enable-link-options"))
                out->enable_link_options = true;
            else if (is_math_relaxing(t))
                out->fast_math = true;
            continue;
        }
        if ((!strcmp(t, "-D") || !strcmp(t, "-I"))) {
            if (i + 1 >= toks.n) {
                weft_diag_error(diag, "error: option '%s' needs an argument", t);
                err = CL_INVALID_BUILD_OPTIONS;
                goto done;
            }
            char *joined = malloc(strlen(toks.v[i + 1]) + 3);
            if (!joined) {
                err = CL_OUT_OF_HOST_MEMORY;
                goto done;
            }
            sprintf(joined, "%s%s", t, toks.v[i + 1]);
            bool ok = strvec_push(&args, joined);
            free(joined);
            if (!ok) {
                err = CL_OUT_OF_HOST_MEMORY;
                goto done;
            }
            i++;
            continue;
        }
        if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2)) {
            if (!strvec_push(&args, t)) {
                err = CL_OUT_OF_HOST_MEMORY;
                goto done;
            }
            continue;
        }
        if (!strncmp(t, "-cl-std=", 8)) {
            const char *v = t + 8;
            if (strcmp(v, "CL1.0") && strcmp(v, "CL1.1") && strcmp(v, "CL1.2") && strcmp(v, "CL3.0")) {
                weft_diag_error(diag, "error: unsupported OpenCL C version '%s' (supported: "
                                      "CL1.0, CL1.1, CL1.2, CL3.0)", v);
                err = CL_INVALID_BUILD_OPTIONS;
                goto done;
            }
            snprintf(out->cl_std, sizeof out->cl_std, "%s", v);
            continue;
        }
        if (in_list(t, passthrough_compile, LEN(passthrough_compile))) {
            if (!strcmp(t, "-cl-kernel-arg-info"))
                out->kernel_arg_info = true;
            if (!strcmp(t, "-cl-opt-disable"))
                out->opt_disable = true;
            if (is_math_relaxing(t))
                out->fast_math = true;
            if (!strvec_push(&args, t)) {
                err = CL_OUT_OF_HOST_MEMORY;
                goto done;
            }
            continue;
        }
        if (in_list(t, ignored_compile, LEN(ignored_compile)))
            continue;
        /* clBuildProgram options may also carry link options. */
        if (!strcmp(t, "-create-library")) {
            weft_diag_error(diag, "error: '-create-library' is only valid for clLinkProgram");
            err = CL_INVALID_BUILD_OPTIONS;
            goto done;
        }
        if (!strcmp(t, "-enable-link-options"))
            continue;
        weft_diag_error(diag, "error: unknown build option '%s'", t);
        err = CL_INVALID_BUILD_OPTIONS;
        goto done;
    }
    out->clang_args = args.v;
    out->num_clang_args = args.n;
    if (!out->clang_args) {
        out->clang_args = calloc(1, sizeof(char *));
        if (!out->clang_args)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    args.v = NULL;
    args.n = 0;
done:
    strvec_free(&toks);
    strvec_free(&args);
    return err;
}

void weft_options_free(struct weft_build_options *o)
{
    if (!o || !o->clang_args)
        return;
    for (size_t i = 0; i < o->num_clang_args; i++)
        free(o->clang_args[i]);
    free(o->clang_args);
    o->clang_args = NULL;
    o->num_clang_args = 0;
}

/* ---- headers for clCompileProgram ----------------------------------------------------- */

static int mkdirs_for(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int r = mkdir(path, 0700);
        *p = '/';
        if (r != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

static bool write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    return close(fd) == 0;
}

/* Removes the directory tree we created (only regular files and directories of ours). */
static void remove_tree(const char *dir, const struct weft_header *headers, size_t n)
{
    char path[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, headers[i].name);
        unlink(path);
        /* remove intermediate directories, deepest first */
        char *slash;
        while ((slash = strrchr(path, '/')) && (size_t)(slash - path) > strlen(dir)) {
            *slash = 0;
            rmdir(path);
        }
    }
    rmdir(dir);
}

/* ---- running clang ------------------------------------------------------------------- */

static bool buf_append(unsigned char **buf, size_t *len, size_t *cap, const void *src, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 65536;
        while (c < *len + n + 1)
            c *= 2;
        unsigned char *b = realloc(*buf, c);
        if (!b)
            return false;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, src, n);
    *len += n;
    (*buf)[*len] = 0;
    return true;
}

/* Spawns argv[0] with stdin fed from `input`; collects stdout and stderr. Returns the exit
 * status (or -1 when the process could not run, with errno-based text in `err_text`). */
static int run_process(char *const argv[], const char *input, size_t input_len,
                       unsigned char **out, size_t *out_len, unsigned char **errb, size_t *err_len)
{
    return weft_frontend_run_process(argv, -1, input, input_len, out, out_len, errb, err_len);
}

int weft_frontend_run_process(char *const argv[], int fd3, const char *input, size_t input_len,
                              unsigned char **out, size_t *out_len, unsigned char **errb, size_t *err_len)
{
    int in_p[2], out_p[2], err_p[2];
    if (pipe2(in_p, O_CLOEXEC))
        return -1;
    if (pipe2(out_p, O_CLOEXEC)) {
        close(in_p[0]);
        close(in_p[1]);
        return -1;
    }
    if (pipe2(err_p, O_CLOEXEC)) {
        close(in_p[0]);
        close(in_p[1]);
        close(out_p[0]);
        close(out_p[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_p[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out_p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err_p[1], 2);
    if (fd3 >= 0)   /* dup2 clears close-on-exec: the child sees it as /dev/fd/3 */
        posix_spawn_file_actions_adddup2(&fa, fd3, 3);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in_p[0]);
    close(out_p[1]);
    close(err_p[1]);
    if (rc != 0) {
        close(in_p[1]);
        close(out_p[0]);
        close(err_p[0]);
        errno = rc;
        return -1;
    }
    /* A closed stdin of a dying clang must not kill us with SIGPIPE: write with
     * MSG_NOSIGNAL is for sockets only, so block the signal for this thread meanwhile. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);

    size_t in_off = 0;
    size_t out_cap = 0, err_cap = 0;
    int in_fd = in_p[1], o_fd = out_p[0], e_fd = err_p[0];
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
    bool oom = false;
    if (input_len == 0) {
        close(in_fd);
        in_fd = -1;
    }
    while (in_fd >= 0 || o_fd >= 0 || e_fd >= 0) {
        struct pollfd pf[3];
        int np = 0, ii = -1, oi = -1, ei = -1;
        if (in_fd >= 0) {
            pf[np] = (struct pollfd){in_fd, POLLOUT, 0};
            ii = np++;
        }
        if (o_fd >= 0) {
            pf[np] = (struct pollfd){o_fd, POLLIN, 0};
            oi = np++;
        }
        if (e_fd >= 0) {
            pf[np] = (struct pollfd){e_fd, POLLIN, 0};
            ei = np++;
        }
        if (poll(pf, (nfds_t)np, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        char tmp[65536];
        if (ii >= 0 && pf[ii].revents) {
            ssize_t w = write(in_fd, input + in_off, input_len - in_off);
            if (w > 0)
                in_off += (size_t)w;
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || in_off == input_len ||
                (pf[ii].revents & (POLLERR | POLLHUP))) {
                close(in_fd);
                in_fd = -1;
            }
        }
        if (oi >= 0 && pf[oi].revents) {
            ssize_t r = read(o_fd, tmp, sizeof tmp);
            if (r > 0) {
                if (!buf_append(out, out_len, &out_cap, tmp, (size_t)r))
                    oom = true;
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(o_fd);
                o_fd = -1;
            }
        }
        if (ei >= 0 && pf[ei].revents) {
            ssize_t r = read(e_fd, tmp, sizeof tmp);
            if (r > 0) {
                if (!buf_append(errb, err_len, &err_cap, tmp, (size_t)r))
                    oom = true;
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(e_fd);
                e_fd = -1;
            }
        }
    }
    if (in_fd >= 0)
        close(in_fd);
    if (o_fd >= 0)
        close(o_fd);
    if (e_fd >= 0)
        close(e_fd);
    /* Consume a SIGPIPE raised meanwhile so it is not delivered once unblocked. */
    struct timespec zero = {0, 0};
    while (sigtimedwait(&block, NULL, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno == ECHILD) {
            /* The application ignores SIGCHLD, so the child was reaped for us and its status
             * is lost: judge by the output (complete bitcode or not). */
            if (oom)
                return -2;
            return *out_len >= 4 && !memcmp(*out, "BC\xc0\xde", 4) ? 0 : 1;
        }
        if (errno != EINTR)
            return -1;
    }
    if (oom)
        return -2;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

cl_int weft_frontend_compile(const char *source, const struct weft_build_options *opts,
                             const struct weft_header *headers, size_t num_headers,
                             struct weft_bitcode *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    struct strvec argv = {0};
    char std_arg[32], tmpdir[256] = {0};
    cl_int err = CL_SUCCESS;
    char *input = NULL;

    /* -cl-ext: exactly the device's extensions and features. */
    size_t ext_len = 32;
#define WEFT_EXT_LEN(name, a, b, c) ext_len += sizeof(#name) + 2;
    WEFT_OPENCL_C_FEATURES(WEFT_EXT_LEN)
    WEFT_DEVICE_EXTENSIONS(WEFT_EXT_LEN)
#undef WEFT_EXT_LEN
    char *ext = malloc(ext_len);
    if (!ext)
        return CL_OUT_OF_HOST_MEMORY;
    strcpy(ext, "-cl-ext=-all");
#define WEFT_EXT_ADD(name, a, b, c) if (weft_feature_present(#name)) strcat(ext, ",+" #name);
    WEFT_OPENCL_C_FEATURES(WEFT_EXT_ADD)
    WEFT_DEVICE_EXTENSIONS(WEFT_EXT_ADD)
#undef WEFT_EXT_ADD

    snprintf(std_arg, sizeof std_arg, "-cl-std=%s", opts->cl_std);
    /* -O1 with LLVM's passes disabled, not -O0: at -O0 clang emits no body for a C99 `inline`
     * function (common in real code, e.g. PyOpenCL's complex header), while -O1 keeps an
     * available_externally body that link.c internalizes and inlines. No optnone either way. */
    const char *fixed[] = {
        weft_frontend_clang_path(), "-x", "cl", std_arg, "-Xclang", "-finclude-default-header",
        "-Xclang", "-ffake-address-space-map", "-target", "x86_64-unknown-linux-gnu",
        "-emit-llvm", "-c", "-O1", "-Xclang", "-disable-llvm-passes", "-Xclang", ext,
        "-fno-color-diagnostics", "-Wno-psabi",
    };
    bool ok = true;
    for (size_t i = 0; i < LEN(fixed) && ok; i++)
        ok = strvec_push(&argv, fixed[i]);
    /* clang-19's -cl-ext does not know these three 3.0 features and ignores them, so the
     * C11-style atomics without an explicit scope and the work-group collectives stay
     * undeclared; define their macros ourselves (the device reports them, see
     * runtime/features.h). */
    if (ok && !strcasecmp(opts->cl_std, "CL3.0"))
        ok = strvec_push(&argv, "-D__opencl_c_atomic_scope_device=1") &&
             strvec_push(&argv, "-D__opencl_c_atomic_scope_all_devices=1") &&
             strvec_push(&argv, "-D__opencl_c_work_group_collective_functions=1");
    /* __OPENCL_VERSION__ names the device's OpenCL version (OpenCL C 3.0 spec, 6.12); clang
     * leaves it to the implementation (it only defines __OPENCL_C_VERSION__). Every Weft
     * device is OpenCL 3.0 whatever -cl-std selects. Before the user's options so that an
     * explicit -D/-U of theirs still wins. */
    if (ok)
        ok = strvec_push(&argv, "-D__OPENCL_VERSION__=300");
    /* clang defines __IMAGE_SUPPORT__ for SPIR targets only; OpenCL C (6.12) wants it 1 whenever
     * CL_DEVICE_IMAGE_SUPPORT is true, which it always is here (runtime/device.c). */
    if (ok)
        ok = strvec_push(&argv, "-D__IMAGE_SUPPORT__=1");
    /* FP_FAST_FMAF/FP_FAST_FMA promise that fma is about as fast as a multiply and an add: true
     * for float and double where the CPU has FMA instructions (the builtins lower fma to
     * llvm.fma and codegen targets the host CPU), and not for half, whose correctly rounded fma
     * is a sequence in double (builtins/math_half.cl), so FP_FAST_FMA_HALF stays undefined.
     * clang would define __FP_FAST_FMA(F) itself only for a target CPU, which the frontend does
     * not name. */
    if (ok && __builtin_cpu_supports("fma"))
        ok = strvec_push(&argv, "-DFP_FAST_FMAF=1") && strvec_push(&argv, "-DFP_FAST_FMA=1");
    for (size_t i = 0; i < opts->num_clang_args && ok; i++)
        ok = strvec_push(&argv, opts->clang_args[i]);

    if (ok && num_headers > 0) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/weft-headers-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            weft_diag_error(diag, "error: cannot create a temporary directory for input headers: %s",
                            strerror(errno));
            tmpdir[0] = 0;
            err = CL_OUT_OF_RESOURCES;
            goto done;
        }
        for (size_t i = 0; i < num_headers; i++) {
            char path[4096];
            if (!headers[i].name || strstr(headers[i].name, "..") || headers[i].name[0] == '/') {
                weft_diag_error(diag, "error: invalid header include name '%s'",
                                headers[i].name ? headers[i].name : "(null)");
                err = CL_INVALID_VALUE;
                goto done;
            }
            snprintf(path, sizeof path, "%s/%s", tmpdir, headers[i].name);
            if (mkdirs_for(path) || !write_file(path, headers[i].source ? headers[i].source : "")) {
                weft_diag_error(diag, "error: cannot write input header '%s': %s", headers[i].name,
                                strerror(errno));
                err = CL_OUT_OF_RESOURCES;
                goto done;
            }
        }
        char inc[300];
        snprintf(inc, sizeof inc, "-I%s", tmpdir);
        ok = strvec_push(&argv, inc);
    }
    ok = ok && strvec_push(&argv, "-o") && strvec_push(&argv, "-") && strvec_push(&argv, "-");
    if (!ok) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }

    /* A #line directive names the source in diagnostics (instead of "<stdin>"). */
    size_t src_len = strlen(source);
    static const char prefix[] = "#line 1 \"" WEFT_SOURCE_NAME "\"\n";
    input = malloc(sizeof prefix + src_len + 1);
    if (!input) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }
    memcpy(input, prefix, sizeof prefix - 1);
    memcpy(input + sizeof prefix - 1, source, src_len);
    input[sizeof prefix - 1 + src_len] = '\n';
    size_t input_len = sizeof prefix + src_len;

    unsigned char *bc = NULL, *errtext = NULL;
    size_t bc_len = 0, err_len = 0;
    int status = run_process(argv.v, input, input_len, &bc, &bc_len, &errtext, &err_len);
    if (errtext && err_len)
        weft_diag_append(diag, (const char *)errtext, err_len);
    free(errtext);
    if (status == -2) {
        free(bc);
        err = CL_OUT_OF_HOST_MEMORY;
    } else if (status < 0) {
        free(bc);
        weft_diag_error(diag, "error: cannot run the OpenCL C compiler '%s': %s", argv.v[0],
                        strerror(errno));
        err = CL_COMPILER_NOT_AVAILABLE;
    } else if (status != 0 || bc_len < 4) {
        free(bc);
        if (status >= 128)
            weft_diag_error(diag, "error: the OpenCL C compiler '%s' crashed (signal %d)", argv.v[0],
                            status - 128);
        err = CL_COMPILE_PROGRAM_FAILURE;
    } else {
        out->data = bc;
        out->size = bc_len;
    }
done:
    if (tmpdir[0])
        remove_tree(tmpdir, headers, num_headers);
    free(input);
    free(ext);
    strvec_free(&argv);
    return err;
}
