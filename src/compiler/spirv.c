/* compiler/spirv.c — SPIR-V modules: structural checks, specialization constants, and the
 * translation into an OBJECT by llvm-spirv-15 run as a child process.
 *
 * Guarantees: a module that passes weft_spirv_check can be walked instruction by instruction
 * without reading past its end. Translation never writes a file: the (byte-order normalized,
 * specialized) module reaches the translator as its descriptor 3, a memfd, and the bitcode
 * comes back through a pipe; the translator's messages are appended to the build log as
 * printed, prefixed so the user can tell them from Weft's. Specialization sets the default
 * value of each OpSpecConstant in a private copy of the module (exact for every type and
 * value, including NaN payloads and half floats), so the translator sees a module whose
 * defaults are the application's values. Then spirvdown.c rewrites the instructions the
 * translator cannot read (SPIR-V 1.4's pointer comparisons, OpCopyLogical, ...).
 */
#define _GNU_SOURCE
#include "compiler/spirv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/cache.h"
#include "compiler/spirvdown.h"
#include "compiler/spirvlower.h"
#include "util/path.h"

/* The translator the build found: tried only when PATH has no llvm-spirv-15. */
#ifndef WEFT_LLVM_SPIRV_FALLBACK
#define WEFT_LLVM_SPIRV_FALLBACK NULL
#endif

#define SPIRV_MAGIC 0x07230203u

enum {
    OP_MEMORY_MODEL = 14,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71,
    OP_DECORATION_GROUP = 73,
    OP_GROUP_DECORATE = 74,
    DECORATION_SPEC_ID = 1,
};

/* Found at run time (util/path.h), like clang (frontend.c). */
static struct weft_path_tool translator_tool = {"WEFT_LLVM_SPIRV", "llvm-spirv-15", WEFT_LLVM_SPIRV_FALLBACK};

const char *weft_spirv_translator_path(void)
{
    return weft_path_tool(&translator_tool);
}

static uint32_t bswap32(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

/* The module as host-order words (malloc'd), or NULL (out of memory). */
static uint32_t *host_words(const void *il, size_t len)
{
    size_t n = len / 4;
    uint32_t *w = malloc(n ? n * 4 : 4);
    if (!w)
        return NULL;
    memcpy(w, il, n * 4);
    if (n && w[0] == bswap32(SPIRV_MAGIC))
        for (size_t i = 0; i < n; i++)
            w[i] = bswap32(w[i]);
    return w;
}

cl_int weft_spirv_check(const void *il, size_t len, char *why, size_t why_len)
{
#define FAIL(...)                                  \
    do {                                           \
        snprintf(why, why_len, __VA_ARGS__);       \
        free(w);                                   \
        return CL_INVALID_VALUE;                   \
    } while (0)
    uint32_t *w = NULL;
    if (len % 4)
        FAIL("the length %zu is not a multiple of 4 (SPIR-V is a stream of 32-bit words)", len);
    if (len < 5 * 4)
        FAIL("%zu bytes cannot hold a SPIR-V header (5 words)", len);
    uint32_t magic;
    memcpy(&magic, il, 4);
    if (magic != SPIRV_MAGIC && magic != bswap32(SPIRV_MAGIC))
        FAIL("the magic number is 0x%08x, not SPIR-V's 0x07230203 in either byte order", magic);
    w = host_words(il, len);
    if (!w) {
        snprintf(why, why_len, "out of memory");
        return CL_OUT_OF_HOST_MEMORY;
    }
    size_t n = len / 4;
    uint32_t major = (w[1] >> 16) & 0xff, minor = (w[1] >> 8) & 0xff;
    if (major != 1 || minor > WEFT_SPIRV_MAX_MINOR || (w[1] & 0xff0000ffu))
        FAIL("SPIR-V version %u.%u (word 0x%08x) is not one of 1.0 to 1.%d, which the device reads", major, minor,
             w[1], WEFT_SPIRV_MAX_MINOR);
    if (w[3] == 0)
        FAIL("the id bound is 0");
    if (w[4] != 0)
        FAIL("the reserved schema word is %u, not 0", w[4]);
    bool memory_model = false;
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0)
            FAIL("the instruction at word %zu has a word count of 0", i);
        if (count > n - i)
            FAIL("the instruction at word %zu (opcode %u, %u words) runs past the end of the module", i, op, count);
        if (op == OP_MEMORY_MODEL) {
            if (count != 3)
                FAIL("OpMemoryModel at word %zu has %u words", i, count);
            if (w[i + 1] != 2 || w[i + 2] != 2)
                FAIL("the module's addressing and memory models are %u and %u; an OpenCL device with 64-bit "
                     "addresses takes Physical64 (2) and OpenCL (2)", w[i + 1], w[i + 2]);
            memory_model = true;
        }
        i += count;
    }
    if (!memory_model)
        FAIL("the module has no OpMemoryModel instruction");
    free(w);
    return CL_SUCCESS;
#undef FAIL
}

/* ---- specialization constants ----------------------------------------------------------- */

struct idpair {
    uint32_t a, b;
};

struct pairs {
    struct idpair *v;
    size_t n, cap;
};

static bool pairs_push(struct pairs *p, uint32_t a, uint32_t b)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        struct idpair *v = realloc(p->v, cap * sizeof *v);
        if (!v)
            return false;
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = (struct idpair){a, b};
    return true;
}

/* Types of scalars (result id -> kind << 16 | signedness << 8 | width / 8, kind 1 bool, 2 int,
 * 3 float); decorated spec ids (target -> spec id); decoration groups (group -> target). */
struct module_facts {
    struct pairs types, spec_ids, groups;
};

static void facts_free(struct module_facts *f)
{
    free(f->types.v);
    free(f->spec_ids.v);
    free(f->groups.v);
}

static bool facts_read(const uint32_t *w, size_t n, struct module_facts *f)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        const uint32_t *o = w + i + 1;
        bool ok = true;
        if (op == OP_TYPE_BOOL && count >= 2)
            ok = pairs_push(&f->types, o[0], 1u << 16 | 1);
        else if (op == OP_TYPE_INT && count >= 4)
            ok = pairs_push(&f->types, o[0], 2u << 16 | (o[2] ? 1u : 0u) << 8 | (o[1] / 8 & 0xff));
        else if (op == OP_TYPE_FLOAT && count >= 3)
            ok = pairs_push(&f->types, o[0], 3u << 16 | (o[1] / 8 & 0xff));
        else if (op == OP_DECORATE && count >= 4 && o[1] == DECORATION_SPEC_ID)
            ok = pairs_push(&f->spec_ids, o[0], o[2]);
        else if (op == OP_GROUP_DECORATE)
            for (uint32_t k = 1; k + 1 < count && ok; k++)
                ok = pairs_push(&f->groups, o[0], o[k]);
        if (!ok) {
            facts_free(f);
            return false;
        }
        i += count;
    }
    return true;
}

static bool lookup(const struct pairs *p, uint32_t a, uint32_t *b)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].a == a) {
            *b = p->v[i].b;
            return true;
        }
    return false;
}

/* The SpecId of result `id`, directly or through a decoration group. */
static bool spec_id_of(const struct module_facts *f, uint32_t id, uint32_t *spec)
{
    if (lookup(&f->spec_ids, id, spec))
        return true;
    for (size_t i = 0; i < f->groups.n; i++)
        if (f->groups.v[i].b == id && lookup(&f->spec_ids, f->groups.v[i].a, spec))
            return true;
    return false;
}

/* Calls `fn` for every specialization constant; stops when it returns false. */
static bool each_spec_constant(uint32_t *w, size_t n, const struct module_facts *f,
                               bool (*fn)(void *, uint32_t *inst, uint32_t spec_id, uint32_t type_info), void *arg)
{
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if ((op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE || op == OP_SPEC_CONSTANT) && count >= 3) {
            uint32_t spec, info = 0;
            if (spec_id_of(f, w[i + 2], &spec)) {
                lookup(&f->types, w[i + 1], &info);
                if (!fn(arg, w + i, spec, info))
                    return false;
            }
        }
        i += count;
    }
    return true;
}

struct spec_list {
    struct weft_spirv_spec *v;
    size_t n, cap;
};

static bool collect_spec(void *arg, uint32_t *inst, uint32_t spec_id, uint32_t info)
{
    struct spec_list *l = arg;
    uint32_t op = inst[0] & 0xffff;
    bool is_bool = op != OP_SPEC_CONSTANT || (info >> 16) == 1;
    uint32_t size = is_bool ? 1 : (info & 0xff);
    if (!is_bool && (size == 0 || size > 8))   /* not a scalar type of OpenCL: no value can match */
        return true;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        struct weft_spirv_spec *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct weft_spirv_spec){spec_id, size, is_bool};
    return true;
}

cl_int weft_spirv_spec_constants(const void *il, size_t len, struct weft_spirv_spec **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    uint32_t *w = host_words(il, len);
    struct module_facts f;
    if (!w || !facts_read(w, len / 4, &f)) {
        free(w);
        return CL_OUT_OF_HOST_MEMORY;
    }
    struct spec_list l = {0};
    bool ok = each_spec_constant(w, len / 4, &f, collect_spec, &l);
    facts_free(&f);
    free(w);
    if (!ok) {
        free(l.v);
        return CL_OUT_OF_HOST_MEMORY;
    }
    *out = l.v;
    *count = l.n;
    return CL_SUCCESS;
}

struct spec_apply {
    const struct weft_spirv_spec_value *values;
    size_t n;
};

static bool apply_spec(void *arg, uint32_t *inst, uint32_t spec_id, uint32_t info)
{
    const struct spec_apply *a = arg;
    const struct weft_spirv_spec_value *v = NULL;
    for (size_t i = 0; i < a->n; i++)
        if (a->values[i].spec_id == spec_id)
            v = &a->values[i];   /* the last one set wins (each id is stored once anyway) */
    if (!v)
        return true;
    uint32_t op = inst[0] & 0xffff, count = inst[0] >> 16;
    if (op != OP_SPEC_CONSTANT) {
        bool on = false;
        for (uint32_t k = 0; k < v->size && k < sizeof v->bytes; k++)
            on |= v->bytes[k] != 0;
        inst[0] = (inst[0] & 0xffff0000u) | (on ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
        return true;
    }
    uint32_t bytes = info & 0xff;
    bool is_signed_int = (info >> 16) == 2 && ((info >> 8) & 1);
    if (bytes != v->size)
        return true;   /* checked when set; a different module cannot get here */
    if (bytes <= 4 && count >= 4) {
        uint32_t x = 0;
        memcpy(&x, v->bytes, bytes);   /* little-endian host */
        if (bytes < 4 && is_signed_int && (x >> (bytes * 8 - 1)) & 1)
            x |= ~0u << (bytes * 8);   /* SPIR-V literals of signed types are sign-extended */
        inst[3] = x;
    } else if (bytes == 8 && count >= 5) {
        memcpy(&inst[3], v->bytes, 4);
        memcpy(&inst[4], v->bytes + 4, 4);
    }
    return true;
}

/* ---- translation --------------------------------------------------------------------------- */

cl_int weft_spirv_translate(const void *il, size_t len, const struct weft_spirv_spec_value *values,
                            size_t num_values, const struct weft_build_options *opts,
                            struct weft_bitcode *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    uint32_t *w = host_words(il, len);
    if (!w)
        return CL_OUT_OF_HOST_MEMORY;
    if (num_values) {
        struct module_facts f;
        if (!facts_read(w, len / 4, &f)) {
            free(w);
            return CL_OUT_OF_HOST_MEMORY;
        }
        struct spec_apply a = {values, num_values};
        each_spec_constant(w, len / 4, &f, apply_spec, &a);
        facts_free(&f);
    }
    /* what llvm-spirv-15 cannot read, in forms it can (spirvdown.h) */
    size_t nwords = len / 4;
    bool rewritten = false;
    cl_int down = weft_spirv_downgrade(&w, &nwords, &rewritten, diag);
    if (down != CL_SUCCESS) {
        free(w);
        return down;
    }
    int fd = memfd_create("weft-spirv", MFD_CLOEXEC);
    if (fd >= 0 && fd == 3) {   /* dup2(3, 3) would keep close-on-exec: move it first */
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
        close(fd);
        fd = moved;
    }
    if (fd < 0) {
        weft_diag_error(diag, "error: cannot create the translator's input: %s", strerror(errno));
        free(w);
        return CL_OUT_OF_RESOURCES;
    }
    size_t off = 0, total = nwords * 4;
    while (off < total) {
        ssize_t r = write(fd, (const char *)w + off, total - off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            weft_diag_error(diag, "error: cannot write the translator's input: %s", strerror(errno));
            close(fd);
            free(w);
            return CL_OUT_OF_RESOURCES;
        }
        off += (size_t)r;
    }
    free(w);
    lseek(fd, 0, SEEK_SET);

    /* CL1.2: builtins come out as the OpenCL C functions (get_global_id, barrier, sqrt, ...)
     * the builtin library defines, not as SPIR-V-friendly __spirv_* calls. */
    char *argv[] = {(char *)weft_spirv_translator_path(), "-r", "--spirv-target-env=CL1.2",
                    opts->kernel_arg_info ? "--spirv-gen-kernel-arg-name-md" : "-r",
                    "/dev/fd/3", "-o", "-", NULL};
    unsigned char *bc = NULL, *errtext = NULL;
    size_t bc_len = 0, err_len = 0;
    int status = weft_frontend_run_process(argv, fd, NULL, 0, &bc, &bc_len, &errtext, &err_len);
    int saved = errno;
    close(fd);
    if (errtext && err_len) {
        weft_diag_append(diag, "llvm-spirv: ", 12);
        weft_diag_append(diag, (const char *)errtext, err_len);
        if (errtext[err_len - 1] != '\n')
            weft_diag_append(diag, "\n", 1);
    }
    free(errtext);
    cl_int err = CL_SUCCESS;
    if (status == -2) {
        err = CL_OUT_OF_HOST_MEMORY;
    } else if (status == -1) {
        weft_diag_error(diag, "error: cannot run the SPIR-V translator '%s': %s", argv[0], strerror(saved));
        err = CL_COMPILER_NOT_AVAILABLE;
    } else if (status != 0 || bc_len < 4 || memcmp(bc, "BC\xc0\xde", 4)) {
        if (status >= 128)
            weft_diag_error(diag, "error: the SPIR-V translator '%s' crashed (signal %d)", argv[0], status - 128);
        else
            weft_diag_error(diag, "error: the SPIR-V translator '%s' could not translate the module", argv[0]);
        err = CL_COMPILE_PROGRAM_FAILURE;
    }
    if (err != CL_SUCCESS) {
        free(bc);
        return err;
    }
    struct weft_bitcode raw = {bc, bc_len};
    err = weft_spirv_lower_bitcode(&raw, opts, out, diag);
    weft_bitcode_free(&raw);
    return err;
}

/* ---- whole builds ------------------------------------------------------------------------- */


/* Disk payload (as for OpenCL C builds, specialize.c): the log's length, the log, the bitcode. */
cl_int weft_spirv_build_executable(const void *il, size_t len, const struct weft_spirv_spec_value *values,
                                   size_t num_values, const char *options, const struct weft_build_options *opts,
                                   struct weft_bitcode *exe, struct weft_diag *diag)
{
    memset(exe, 0, sizeof *exe);
    uint64_t key = weft_hash64(il, len, 0x7370697276ull);
    for (size_t i = 0; i < num_values; i++)
        key = weft_hash64(&values[i], sizeof values[i], key);
    key = weft_hash64(options ? options : "", options ? strlen(options) + 1 : 1, key);
    key = weft_cache_build_key(key, weft_spirv_translator_path());
    if (weft_cache_load_build(key, exe, diag))
        return CL_SUCCESS;
    struct weft_bitcode obj = {0};
    cl_int err = weft_spirv_translate(il, len, values, num_values, opts, &obj, diag);
    if (err != CL_SUCCESS)
        return err;
    err = weft_link(&obj, 1, true, opts, exe, diag);
    weft_bitcode_free(&obj);
    if (err != CL_SUCCESS)
        return err;
    weft_cache_store_build(key, exe, diag);
    return CL_SUCCESS;
}
