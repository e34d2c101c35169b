/* compiler/printf.c — OpenCL C printf for compiled kernels.
 *
 * Guarantees: the format is interpreted by the OpenCL C rules (§6.15.14): flags, width,
 * precision, the length modifiers hh h l and hl, and the vector specifier vN (N = 2, 3, 4, 8,
 * 16) whose elements are printed with the conversion and separated by commas; "%%" prints a
 * percent sign. Each call's output is appended whole to the launch's buffer, so lines of
 * different work-items never interleave. An invalid format prints nothing and returns -1.
 */
#include "compiler/printf.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct weft_printf_buffer {
    pthread_mutex_t lock;
    char *data;
    size_t len, cap;
};

static _Thread_local struct weft_printf_buffer *current_buffer;
static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;

struct weft_printf_buffer *weft_printf_buffer_new(void)
{
    struct weft_printf_buffer *b = calloc(1, sizeof *b);
    if (b)
        pthread_mutex_init(&b->lock, NULL);
    return b;
}

void weft_printf_buffer_finish(struct weft_printf_buffer *b)
{
    if (!b)
        return;
    if (b->len) {
        pthread_mutex_lock(&stdout_lock);
        fwrite(b->data, 1, b->len, stdout);
        fflush(stdout);
        pthread_mutex_unlock(&stdout_lock);
    }
    pthread_mutex_destroy(&b->lock);
    free(b->data);
    free(b);
}

static void buffer_append(struct weft_printf_buffer *b, const char *s, size_t n)
{
    pthread_mutex_lock(&b->lock);
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            pthread_mutex_unlock(&b->lock);
            return;   /* output is lost, the launch is not */
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    pthread_mutex_unlock(&b->lock);
}

void weft_printf_hook_enter(const struct weft_wg_ctx *ctx)
{
    current_buffer = ctx ? ctx->printf_buf : NULL;
}

/* ---- formatting ------------------------------------------------------------------------- */

struct out {
    char *p;
    size_t cap, len;
};

static void out_str(struct out *o, const char *s, size_t n)
{
    if (o->len < o->cap) {
        size_t room = o->cap - o->len;
        memcpy(o->p + o->len, s, n < room ? n : room);
    }
    o->len += n;
}


/* Reads one vector of `n` elements of `esize` bytes from the variadic list into `dst`. The
 * C (SysV x86-64) convention for a vector argument depends only on its total size, so a
 * same-sized GCC vector type reads it. */
#define VEC_READ(bytes)                                                                     \
    do {                                                                                    \
        typedef char vt __attribute__((vector_size(bytes)));                                \
        vt v = va_arg(*ap, vt);                                                             \
        memcpy(dst, &v, bytes);                                                             \
    } while (0)

static bool read_vector(va_list *ap, size_t total, unsigned char *dst)
{
    switch (total) {
    case 2: { /* 2-byte vectors (char2) travel as a 16-bit integer class */
        int v = va_arg(*ap, int);
        uint16_t s = (uint16_t)v;
        memcpy(dst, &s, 2);
        return true;
    }
    case 4: VEC_READ(4); return true;
    case 8: VEC_READ(8); return true;
    case 16: VEC_READ(16); return true;
    case 32: VEC_READ(32); return true;
    case 64: VEC_READ(64); return true;
    case 128: VEC_READ(128); return true;
    default: return false;
    }
}

/* Formats one element with the C conversion `spec` (flags, width and precision included,
 * no length modifier). */
static void emit_int(struct out *o, const char *spec, char conv, int64_t sv, uint64_t uv, bool is_signed)
{
    char fmt[64], tmp[512];
    snprintf(fmt, sizeof fmt, "%%%sll%c", spec, conv);
    int n = is_signed ? snprintf(tmp, sizeof tmp, fmt, (long long)sv)
                      : snprintf(tmp, sizeof tmp, fmt, (unsigned long long)uv);
    if (n > 0)
        out_str(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void emit_float(struct out *o, const char *spec, char conv, double v)
{
    char fmt[64], tmp[1024];
    snprintf(fmt, sizeof fmt, "%%%s%c", spec, conv);
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    if (n > 0)
        out_str(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
    double v;
    if (exp == 0)
        v = mant * (1.0 / (1 << 24));
    else if (exp == 31)
        v = mant ? __builtin_nan("") : __builtin_inf();
    else
        v = (1.0 + mant / 1024.0) * __builtin_ldexp(1.0, exp - 15);
    return sign ? -v : v;
}

int weft_printf_format(char *outp, size_t cap, const char *f, va_list ap0)
{
    va_list ap;
    va_copy(ap, ap0);
    struct out o = {outp, cap ? cap - 1 : 0, 0};
    int result = 0;
    while (*f) {
        if (*f != '%') {
            const char *s = f;
            while (*f && *f != '%')
                f++;
            out_str(&o, s, (size_t)(f - s));
            continue;
        }
        f++;
        if (*f == '%') {
            out_str(&o, "%", 1);
            f++;
            continue;
        }
        /* flags, width, precision */
        char spec[48];
        size_t sl = 0;
        while (*f && strchr("-+ #0", *f) && sl < 8)
            spec[sl++] = *f++;
        if (*f == '*') {
            /* '*' is not allowed in OpenCL C printf */
            result = -1;
            goto done;
        }
        while (*f >= '0' && *f <= '9' && sl < 20)
            spec[sl++] = *f++;
        if (*f == '.') {
            spec[sl++] = *f++;
            while (*f >= '0' && *f <= '9' && sl < 40)
                spec[sl++] = *f++;
        }
        spec[sl] = 0;
        /* vector specifier */
        int vn = 0;
        if (*f == 'v') {
            f++;
            if (f[0] == '1' && f[1] == '6') {
                vn = 16;
                f += 2;
            } else if (*f == '2' || *f == '3' || *f == '4' || *f == '8') {
                vn = *f - '0';
                f++;
            } else {
                result = -1;
                goto done;
            }
        }
        /* length: 0 default, 1 hh, 2 h, 4 hl, 8 l */
        int len = 0;
        if (f[0] == 'h' && f[1] == 'h') {
            len = 1;
            f += 2;
        } else if (f[0] == 'h' && f[1] == 'l') {
            len = 4;
            f += 2;
        } else if (f[0] == 'h') {
            len = 2;
            f++;
        } else if (f[0] == 'l') {
            len = 8;
            f++;
        }
        if (len == 4 && !vn) {
            result = -1;   /* hl is for vectors only */
            goto done;
        }
        char conv = *f;
        if (!conv || !strchr("diouxXfFeEgGaAcsp", conv)) {
            result = -1;
            goto done;
        }
        f++;
        bool is_int = strchr("diouxX", conv) != NULL;
        bool is_float = strchr("fFeEgGaA", conv) != NULL;
        if (vn) {
            if (!is_int && !is_float) {
                result = -1;
                goto done;
            }
            /* element size: integers default to int; floats default to float */
            size_t es = len == 1 ? 1 : len == 2 ? 2 : len == 8 ? 8 : 4;
            size_t n_store = vn == 3 ? 4 : (size_t)vn;
            unsigned char elems[128];
            if (!read_vector(&ap, es * n_store, elems)) {
                result = -1;
                goto done;
            }
            for (int i = 0; i < vn; i++) {
                if (i)
                    out_str(&o, ",", 1);
                const unsigned char *e = elems + (size_t)i * es;
                if (is_float) {
                    double v;
                    if (es == 2) {
                        uint16_t h;
                        memcpy(&h, e, 2);
                        v = half_to_double(h);
                    } else if (es == 8) {
                        memcpy(&v, e, 8);
                    } else {
                        float x;
                        memcpy(&x, e, 4);
                        v = x;
                    }
                    emit_float(&o, spec, conv, v);
                } else {
                    bool sgn = conv == 'd' || conv == 'i';
                    int64_t sv = 0;
                    uint64_t uv = 0;
                    switch (es) {
                    case 1: { int8_t x; memcpy(&x, e, 1); sv = x; uv = (uint8_t)x; break; }
                    case 2: { int16_t x; memcpy(&x, e, 2); sv = x; uv = (uint16_t)x; break; }
                    case 4: { int32_t x; memcpy(&x, e, 4); sv = x; uv = (uint32_t)x; break; }
                    default: { int64_t x; memcpy(&x, e, 8); sv = x; uv = (uint64_t)x; break; }
                    }
                    emit_int(&o, spec, conv, sv, uv, sgn);
                }
            }
            continue;
        }
        if (is_int) {
            bool sgn = conv == 'd' || conv == 'i';
            int64_t sv;
            uint64_t uv;
            if (len == 8) {
                sv = va_arg(ap, long long);
                uv = (uint64_t)sv;
            } else {
                int v = va_arg(ap, int);
                sv = v;
                uv = (uint32_t)v;
                if (len == 1) {
                    sv = (int8_t)v;
                    uv = (uint8_t)v;
                } else if (len == 2) {
                    sv = (int16_t)v;
                    uv = (uint16_t)v;
                }
            }
            emit_int(&o, spec, conv, sv, uv, sgn);
        } else if (is_float) {
            /* scalars are promoted to double by the variadic call */
            emit_float(&o, spec, conv, va_arg(ap, double));
        } else if (conv == 'c') {
            char fmt[64], tmp[256];
            snprintf(fmt, sizeof fmt, "%%%sc", spec);
            int n = snprintf(tmp, sizeof tmp, fmt, va_arg(ap, int));
            if (n > 0)
                out_str(&o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
        } else if (conv == 's') {
            const char *s = va_arg(ap, const char *);
            char fmt[64];
            snprintf(fmt, sizeof fmt, "%%%ss", spec);
            int n = snprintf(NULL, 0, fmt, s ? s : "(null)");
            if (n > 0) {
                char *tmp = malloc((size_t)n + 1);
                if (tmp) {
                    snprintf(tmp, (size_t)n + 1, fmt, s ? s : "(null)");
                    out_str(&o, tmp, (size_t)n);
                    free(tmp);
                }
            }
        } else { /* p */
            char fmt[64], tmp[256];
            snprintf(fmt, sizeof fmt, "%%%sp", spec);
            int n = snprintf(tmp, sizeof tmp, fmt, va_arg(ap, void *));
            if (n > 0)
                out_str(&o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
        }
    }
done:
    va_end(ap);
    if (cap)
        outp[o.len < o.cap ? o.len : o.cap] = 0;
    return result < 0 ? -1 : (int)o.len;
}

int weft_printf_hook(const char *format, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, format);
    int n = weft_printf_format(small, sizeof small, format, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text)
            return -1;
        va_start(ap, format);
        weft_printf_format(text, (size_t)n + 1, format, ap);
        va_end(ap);
    }
    struct weft_printf_buffer *b = current_buffer;
    if (b) {
        buffer_append(b, text, (size_t)n);
    } else {
        pthread_mutex_lock(&stdout_lock);
        fwrite(text, 1, (size_t)n, stdout);
        fflush(stdout);
        pthread_mutex_unlock(&stdout_lock);
    }
    if (text != small)
        free(text);
    return 0;
}
