/* compiler/analysis/access.h — the affine global-memory access relations of a kernel (Zhou's
 * consuming and producing relations, seed-notes 003-004 B.2.7), which the runtime uses to fuse
 * chains of launches into overlapped tiles (exec/fuse/fuse.h).
 *
 * Every load and store of the kernel (everything inlined) whose address derives from a
 * __global or __constant pointer argument is listed with its byte offset from that argument as
 * a polynomial of degree <= 3 over symbols: get_global_id(d), get_global_size(d),
 * get_global_offset(d) and integer scalar arguments, with integer coefficients. Casts between
 * integer widths (sext, zext, trunc) are taken as exact: the summary assumes the kernel's index
 * arithmetic does not wrap. A term may multiply at most one global id (the offset is affine in
 * the global ids once the other symbols have values, which they have at enqueue time).
 *
 * The summary is `affine` only when the kernel's global memory effects are all listed: no
 * atomics, no calls left after inlining other than work-item functions, no access through a
 * pointer that is not an argument plus an affine offset (a pointer loaded from memory, chosen by
 * a select or a phi of different arguments), no memcpy/memset on global memory. Private memory
 * (allocas) is not listed and does not matter. When not affine, `reason` says why (first
 * offending instruction), and the runtime never fuses the kernel.
 *
 * Reads whose address chooses among polynomials. A load whose offset is a select, a phi (of
 * no cycle), a min/max/clamp, or a zext/sext of a comparison, of polynomials — HotSpot's
 * `(r == 0) ? idx : idx - cols`, `min(r + 1, rows - 1) * cols + c` — is listed too, with its
 * offset as a small expression over polynomials (struct weft_choice_node, below): the address
 * is one of the candidates the expression allows, so the union (for fusion: the interval
 * hull) of what the candidates touch is a sound footprint for a read. Writes stay exact: a
 * store whose address chooses makes the summary not affine.
 *
 * Details of the implementation (access.c), within the above:
 *   - a barrier makes the summary not affine (work-items of a group may exchange data through
 *     global memory across it); other work-item functions, intrinsics and calls that touch no
 *     memory (memory(none)), llvm.lifetime/dbg/assume and fences are harmless;
 *   - llvm.memcpy/memmove/memset with a constant length are listed as a read of the source
 *     and a write of the destination of that many bytes; with a variable length on global
 *     memory, not affine;
 *   - reads of constant program-scope data (a constant global variable) are not listed, like
 *     private memory; any other program-scope variable, and __local memory, make it not affine;
 *   - an access in a block reached only through the true edge of `get_global_id(d) == C` (a
 *     constant; through blocks of single predecessors) is marked pinned to that id; one reached
 *     only through edges on which `X < E` holds (any of <, <=, >, >=, signed or unsigned, and
 *     the conjuncts of an `and` that holds, the disjuncts of an `or` that does not), X
 *     get_global_id(d) plus a polynomial without global ids and E without global ids, gets
 *     the bound below[d];
 *   - an offset may go through sext/zext/trunc, `and` with a mask of 31 low bits or more (how
 *     instcombine writes zext(trunc x)), exact shifts and divisions by constants, and a phi or
 *     select whose incoming values are all the same polynomial;
 *   - `reason` names values as the IR does: %name, or %N (LLVM's slot number) when unnamed. */
#ifndef WEFT_ANALYSIS_ACCESS_H
#define WEFT_ANALYSIS_ACCESS_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

enum weft_sym_kind {
    WEFT_SYM_ONE = 0,     /* the constant 1 (a term coef * ONE * ONE is a constant) */
    WEFT_SYM_GID,         /* get_global_id(index) */
    WEFT_SYM_GSIZE,       /* get_global_size(index) */
    WEFT_SYM_GOFFSET,     /* get_global_offset(index) */
    WEFT_SYM_ARG,         /* the integer scalar kernel argument number `index` (sign-extended) */
};

struct weft_sym {
    uint8_t kind;         /* enum weft_sym_kind */
    uint8_t index;        /* dimension (0-2) or argument number */
};

/* coef * a * b * c; unused factors are ONE. At most one of them is a GID. Factor order: the
 * symbols by (kind, index), ascending, then the ONEs: a constant term has a = b = c = ONE, a
 * linear term its symbol in a, a quadratic one b = ONE... Degree 3 is for 3-D indices,
 * `(z * ny + y) * nx + x` (gid2 * ny * nx). */
struct weft_term {
    int64_t coef;
    struct weft_sym a, b, c;
};

#define WEFT_AFFINE_MAX_TERMS 8

/* A sum of terms, like terms merged, zero terms dropped, sorted (kind, index) of a then b (so
 * the constant term, if any, is t[0]). Zero is nterms == 0. */
struct weft_affine {
    unsigned nterms;
    struct weft_term t[WEFT_AFFINE_MAX_TERMS];
};

enum { WEFT_ACCESS_READ = 1u, WEFT_ACCESS_WRITE = 2u };

/* A node of a choosing offset. Leaves are polynomials; the value of an inner node is computed
 * from its operands x and y (indices of earlier nodes of the summary's choice[] array) as
 * the operation says, where ANY is "x or y, not known which" (a select or a phi) and DIV is an
 * exact division by the constant leaf y. Arithmetic never wraps (the no-wrap assumption). */
enum weft_choice_op {
    WEFT_CHOICE_POLY = 0,
    WEFT_CHOICE_ADD,
    WEFT_CHOICE_MUL,
    WEFT_CHOICE_DIV,
    WEFT_CHOICE_ANY,
    WEFT_CHOICE_SMIN,
    WEFT_CHOICE_SMAX,
    WEFT_CHOICE_UMIN,
    WEFT_CHOICE_UMAX,
};

struct weft_choice_node {
    unsigned op;                  /* enum weft_choice_op */
    unsigned x, y;                /* operands (not POLY) */
    struct weft_affine poly;      /* POLY */
};

struct weft_access {
    unsigned arg;                 /* the pointer argument's number */
    unsigned kind;                /* WEFT_ACCESS_READ or WEFT_ACCESS_WRITE */
    unsigned size;                /* bytes accessed (the loaded or stored type's store size) */
    struct weft_affine offset;    /* bytes from the argument's pointer (not `chooses`) */
    bool chooses;                 /* a read only: the offset is choice[root] of the summary */
    unsigned root;
    /* Not a choosing read: the access runs only in work-items whose get_global_id(pin_dim) is
     * pin_gid (it sits behind `if (gid == C)`), so its offset may use any coefficient for that
     * id (clang folds `i * n + j` under `i == 0` into `j`). */
    bool pinned;
    uint8_t pin_dim;
    int64_t pin_gid;
    /* Not a choosing read: for each dimension d of below_mask, the access runs only in
     * work-items where get_global_id(d) < below[d] (a polynomial without global ids), because
     * it sits behind a guard such as `if (x >= nx || y >= ny) return;` with x = get_global_id(0)
     * minus a polynomial without global ids. For d in below_unsigned the guard compared
     * unsigned, and the bound holds only where below[d] evaluates to a value >= 0. Lets the
     * runtime see that an NDRange padded past the data writes no further than the data. */
    uint8_t below_mask, below_unsigned;
    struct weft_affine below[3];
};

struct weft_access_summary {
    bool affine;                  /* every global/constant memory effect is in acc[] */
    char reason[128];             /* when !affine: why, naming the instruction */
    unsigned count;
    struct weft_access *acc;      /* malloc'd, `count` of them, in instruction order (function
                                     layout order of blocks); count 0 and NULL when !affine */
    unsigned nchoice;             /* the nodes choosing reads refer to (malloc'd; operands come */
    struct weft_choice_node *choice;   /* before the nodes that use them) */
};

/* Computes the summary of kernel `fn` (everything inlined). Never fails: a kernel it cannot
 * describe gets affine = false. The caller frees with weft_access_summary_dispose. */
void weft_access_summarize(LLVMValueRef fn, struct weft_access_summary *out);
void weft_access_summary_dispose(struct weft_access_summary *s);
/* Copies (deep) a summary; false when out of memory. */
bool weft_access_summary_copy(const struct weft_access_summary *from, struct weft_access_summary *to);

/* Writes an affine offset as text, e.g. "4*gid0 + 4*gid1*arg3 - 4" (for print-access, explain
 * and logs). */
void weft_affine_format(const struct weft_affine *a, char *buf, size_t size);
/* Writes an access's offset as text: the polynomial, or for a choosing read the expression,
 * e.g. "smin(4*gid1 + 4, 4*arg3 - 4) * arg2 + ..." with "any(x, y)" for a select or phi. */
void weft_access_format(const struct weft_access_summary *s, const struct weft_access *a, char *buf, size_t size);

#endif
