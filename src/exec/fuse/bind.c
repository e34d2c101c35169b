/* exec/fuse/bind.c — a launch's access relations as numbers (see fuse/bind.h). */
#include "exec/fuse/bind.h"

#include <stdlib.h>
#include <string.h>

static bool sym_value(const struct weft_fb_launch *l, struct weft_sym y, int64_t *v)
{
    switch (y.kind) {
    case WEFT_SYM_ONE:
        *v = 1;
        return true;
    case WEFT_SYM_GSIZE:
        *v = y.index < 3 ? (int64_t)l->global[y.index] : 1;
        return true;
    case WEFT_SYM_GOFFSET:
        *v = y.index < 3 ? (int64_t)l->offset[y.index] : 0;
        return true;
    case WEFT_SYM_ARG:
        return l->arg_value && l->arg_value(l->ctx, y.index, v);
    default:
        return false;
    }
}

bool weft_fb_offset(const struct weft_fb_launch *l, const struct weft_affine *a, int64_t coef[3], int64_t *c0)
{
    coef[0] = coef[1] = coef[2] = 0;
    *c0 = 0;
    for (unsigned i = 0; i < a->nterms; i++) {
        const struct weft_term *t = &a->t[i];
        const struct weft_sym f[3] = {t->a, t->b, t->c};
        int64_t v = t->coef, x;
        int gid = -1;
        for (int k = 0; k < 3; k++) {
            if (f[k].kind == WEFT_SYM_GID) {
                if (gid >= 0)
                    return false;   /* two global ids: not affine */
                gid = f[k].index;
            } else if (!sym_value(l, f[k], &x) || __builtin_mul_overflow(v, x, &v)) {
                return false;
            }
        }
        if (gid >= 0) {
            unsigned d = (unsigned)gid;
            if (d >= 3 || __builtin_add_overflow(coef[d], v, &coef[d]))
                return false;
        } else if (__builtin_add_overflow(*c0, v, c0)) {
            return false;
        }
    }
    for (unsigned d = 0; d < 3; d++) {
        int64_t x;
        if (__builtin_mul_overflow(coef[d], (int64_t)l->offset[d], &x) || __builtin_add_overflow(*c0, x, c0))
            return false;
    }
    return true;
}

bool weft_fb_nodes(const struct weft_fb_launch *l, const struct weft_access_summary *s, struct weft_fp_node **out)
{
    *out = NULL;
    if (!s->nchoice)
        return true;
    struct weft_fp_node *n = calloc(s->nchoice, sizeof *n);
    if (!n)
        return false;
    for (unsigned i = 0; i < s->nchoice; i++) {
        const struct weft_choice_node *c = &s->choice[i];
        switch (c->op) {
        case WEFT_CHOICE_POLY:
            n[i].op = WEFT_FP_LEAF;
            if (!weft_fb_offset(l, &c->poly, n[i].coef, &n[i].c0)) {
                free(n);
                return false;
            }
            continue;
        case WEFT_CHOICE_ADD: n[i].op = WEFT_FP_ADD; break;
        case WEFT_CHOICE_MUL: n[i].op = WEFT_FP_MUL; break;
        case WEFT_CHOICE_DIV: n[i].op = WEFT_FP_DIV; break;
        case WEFT_CHOICE_ANY: n[i].op = WEFT_FP_ANY; break;
        case WEFT_CHOICE_SMIN: n[i].op = WEFT_FP_SMIN; break;
        case WEFT_CHOICE_SMAX: n[i].op = WEFT_FP_SMAX; break;
        case WEFT_CHOICE_UMIN: n[i].op = WEFT_FP_UMIN; break;
        case WEFT_CHOICE_UMAX: n[i].op = WEFT_FP_UMAX; break;
        default:
            free(n);
            return false;
        }
        if (c->x >= i || c->y >= i) {   /* operands come first */
            free(n);
            return false;
        }
        n[i].x = c->x;
        n[i].y = c->y;
    }
    *out = n;
    return true;
}

/* An access pinned to one row of the outermost dimension D (access.h) with no step along D gets
 * the step along D of another access of the same argument in the same kernel that steps along
 * D and agrees in the other dimensions, its base moved so that the pinned row keeps its
 * address. That is exact where the access runs, and it lets the plan see one row layout per
 * buffer (FDTD's `if (i == 0) ey[j] = ...` beside `ey[i * ny + j] = ...`). Anywhere else
 * the plan now counts an access that does not happen, which only widens a read's footprint, or
 * a tile's window and owned range by bytes that it then copies in and back unchanged. */
static void unpin(const struct weft_fb_launch *l, const struct weft_access_summary *s, const struct weft_access *a,
                  struct weft_fp_access *x)
{
    unsigned D = l->work_dim - 1;
    if (!a->pinned || a->pin_dim != D || x->coef[D] != 0)
        return;
    for (unsigned i = 0; i < s->count; i++) {
        const struct weft_access *o = &s->acc[i];
        int64_t coef[3], c0, shift, base;
        if (o->arg != a->arg || o->chooses || o->pinned || !weft_fb_offset(l, &o->offset, coef, &c0) || !coef[D])
            continue;
        bool same = true;
        for (unsigned d = 0; d < 3; d++)
            same = same && (d == D || coef[d] == x->coef[d]);
        /* row index 0-based: pin_gid minus the global offset */
        if (!same || __builtin_sub_overflow(a->pin_gid, (int64_t)l->offset[D], &shift) ||
            __builtin_mul_overflow(shift, coef[D], &shift) || __builtin_sub_overflow(x->c0, shift, &base))
            continue;
        x->coef[D] = coef[D];
        x->c0 = base;
        return;
    }
}

/* The work-items per dimension that may run access a, from its guards (access.h's below[]):
 * gid(d) < below[d], so the 0-based index stays below below[d] minus the global offset; at least
 * one (the plan then counts an access that may not happen, which only widens its band); none
 * where the bound does not evaluate, or an unsigned guard's bound is negative (it said
 * nothing). */
static void guarded_items(const struct weft_fb_launch *l, const struct weft_access *a, struct weft_fp_access *x)
{
    for (unsigned d = 0; d < 3; d++) {
        int64_t coef[3], bound, n;
        x->items[d] = 0;
        if (!(a->below_mask >> d & 1) || d >= l->work_dim || !weft_fb_offset(l, &a->below[d], coef, &bound) ||
            (a->below_unsigned >> d & 1 && bound < 0) || __builtin_sub_overflow(bound, (int64_t)l->offset[d], &n))
            continue;
        x->items[d] = n < 1 ? 1 : (uint64_t)n < l->global[d] ? (uint64_t)n : 0;
    }
}

bool weft_fb_access(const struct weft_fb_launch *l, const struct weft_access_summary *s, const struct weft_access *a,
                    unsigned buf, const struct weft_fp_node *nodes, struct weft_fp_access *x)
{
    x->buf = buf;
    x->kind = a->kind == WEFT_ACCESS_WRITE ? WEFT_FP_WRITE : WEFT_FP_READ;
    x->size = a->size;
    if (!a->chooses) {
        if (!weft_fb_offset(l, &a->offset, x->coef, &x->c0))
            return false;
        unpin(l, s, a, x);
        guarded_items(l, a, x);
        return true;
    }
    x->node = nodes;
    x->root = a->root;
    return true;
}
