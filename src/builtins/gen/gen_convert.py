#!/usr/bin/env python3
"""Generates src/builtins/convert.cl: every explicit conversion of OpenCL C (spec 6.4.3),
convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>) for all pairs of the ten scalar
types char ... double and n in 1, 2, 3, 4, 8, 16, and (under cl_khr_fp16) every pair with half.

Run: python3 src/builtins/gen/gen_convert.py > src/builtins/convert.cl (the output is
committed; CMake does not run this script).

Semantics implemented (exact, for every input):
  - integer -> integer: modulo 2^bits without _sat; clamped to the destination range with
    _sat. The rounding suffix changes nothing.
  - float -> integer: rounded in the requested mode (default: toward zero); NaN gives 0 and
    values beyond the range give the nearest limit, with or without _sat. Without _sat the
    specification leaves an out-of-range result to the implementation (6.4.3.3); Weft defines
    it as the saturated one, because LLVM's plain fptosi/fptoui make it poison, which the
    scalar and the vectorized variants of one kernel then turn into different values
    (WEFT_VERIFY caught 128.5f -> char as 0x80 in one and 0x7f in the other).
  - integer or float -> float: rounded in the requested mode (default: to nearest even).
    Directed modes start from the round-to-nearest result, compare it exactly with the
    source and step one ulp when it lies on the wrong side.
  - half: a source half converts exactly to float, so it takes the float conversion; a
    destination half rounds once, from the source or from its exact double value
    (weft_double_to_half), in the requested mode.
"""

TYPES = {
    # name: (kind, bits, signed)
    "char": ("i", 8, True), "uchar": ("i", 8, False),
    "short": ("i", 16, True), "ushort": ("i", 16, False),
    "int": ("i", 32, True), "uint": ("i", 32, False),
    "long": ("i", 64, True), "ulong": ("i", 64, False),
    "half": ("f", 16, True), "float": ("f", 32, True), "double": ("f", 64, True),
}
ORDER = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"]
# half (cl_khr_fp16) pairs with every type above; they are emitted under #ifdef cl_khr_fp16.
HALF_ORDER = ORDER + ["half"]
WIDTHS = ["", "2", "3", "4", "8", "16"]
ROUNDINGS = ["", "_rte", "_rtz", "_rtp", "_rtn"]
MANT = {"half": 11, "float": 24, "double": 53}
LIMITS = {
    "char": ("CHAR_MIN", "CHAR_MAX"), "uchar": ("0", "UCHAR_MAX"),
    "short": ("SHRT_MIN", "SHRT_MAX"), "ushort": ("0", "USHRT_MAX"),
    "int": ("INT_MIN", "INT_MAX"), "uint": ("0", "UINT_MAX"),
    "long": ("LONG_MIN", "LONG_MAX"), "ulong": ("0", "ULONG_MAX"),
}


def int_range(t):
    _, b, s = TYPES[t]
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if s else (0, (1 << b) - 1)


def float_round(src, rnd):
    """The float rounding function of a float->integer conversion."""
    suf = "f" if src == "float" else ""
    return {"": "__builtin_trunc", "_rtz": "__builtin_trunc", "_rte": "__builtin_rint",
            "_rtp": "__builtin_ceil", "_rtn": "__builtin_floor"}[rnd] + suf


def scalar_body(dst, src, sat, rnd):
    dk, db, ds = TYPES[dst]
    sk, sb, ss = TYPES[src]
    if src == "half" and dst != "half":
        # half -> float is exact, so every conversion from half is the float one
        return "return convert_%s%s%s((float)x);" % (dst, "_sat" if sat else "", rnd)
    if dst == "half":
        return half_body(src, rnd)
    if dk == "i" and sk == "i":
        if not sat:
            return "return (%s)x;" % dst
        dlo, dhi = int_range(dst)
        slo, shi = int_range(src)
        conds = []
        if slo < dlo:
            conds.append("if (x < (%s)%s) return %s;" % (src, LIMITS[dst][0], LIMITS[dst][0]))
        if shi > dhi:
            conds.append("if (x > (%s)%s) return %s;" % (src, LIMITS[dst][1], LIMITS[dst][1]))
        return " ".join(conds + ["return (%s)x;" % dst])
    if dk == "i" and sk == "f":
        r = "%s(x)" % float_round(src, rnd)
        lo, hi = int_range(dst)
        # the limits' neighbours as exact powers of two
        hib = "0x1p%d" % (db - 1 if ds else db)
        lob = "-0x1p%d" % (db - 1) if ds else "0.0"
        return ("%s r = %s; if (x != x) return 0; if (r >= %s) return %s; "
                "if (r %s %s) return %s; return (%s)r;"
                % (src, r, hib, LIMITS[dst][1], "<" if ds else "<", lob, LIMITS[dst][0], dst))
    # destination is floating point
    if sk == "f":
        if sb <= db or rnd in ("", "_rte"):
            return "return (%s)x;" % dst
        # double -> float, directed
        return "return weft_cvt_df%s(x);" % rnd
    # integer -> floating point
    if sb < MANT[dst] or rnd in ("", "_rte"):
        return "return (%s)x;" % dst
    return "return weft_cvt_%s_%s%s(x);" % (src, dst, rnd)


def half_body(src, rnd):
    """Conversions to half: one rounding in the requested mode (default: to nearest even)."""
    if src == "half":
        return "return x;"
    sk, sb, _ = TYPES[src]
    if rnd in ("", "_rte") and (sk == "i" or src == "float"):
        # float -> half rounds once (F16C's conversion); an integer beyond float's 24 bits
        # rounds first to float, but that far beyond 65504 both roundings give infinity
        return "return (half)(float)x;"
    # directed modes and double: exact from double (integers beyond 2^53 are far beyond
    # half's range, where the double rounding cannot change the half result)
    mode = {"": "WEFT_RTE", "_rte": "WEFT_RTE", "_rtz": "WEFT_RTZ", "_rtp": "WEFT_RTP",
            "_rtn": "WEFT_RTN"}[rnd]
    return "return as_half(weft_double_to_half((double)x, %s));" % mode


HELPERS = r"""
/* double -> float in a directed mode: the nearest float r, moved one ulp when it lies on
 * the wrong side of x (comparisons are exact in double; NaN compares false and stays). */
INLINE float weft_cvt_df_rtz(double x) {
    float r = (float)x; double d = (double)r;
    if (x > 0.0 && d > x) return weft_next_downf(r);
    if (x < 0.0 && d < x) return weft_next_upf(r);
    return r; }
INLINE float weft_cvt_df_rtp(double x) {
    float r = (float)x; return (double)r < x ? weft_next_upf(r) : r; }
INLINE float weft_cvt_df_rtn(double x) {
    float r = (float)x; return (double)r > x ? weft_next_downf(r) : r; }

/* integer -> float/double in a directed mode. cmp_* tells whether the rounded value r is
 * above (1), below (-1) or equal to the integer x, exactly. */
#define CVT_CMP_SMALL(S, D) \
    INLINE int weft_cmp_##S##_##D(D r, S x) { long a = (long)r, b = (long)x; return a > b ? 1 : a < b ? -1 : 0; }
CVT_CMP_SMALL(int, float)
CVT_CMP_SMALL(uint, float)
INLINE int weft_cmp_long_float(float r, long x) {
    if (r >= 0x1p63f) return 1;
    long a = (long)r; return a > x ? 1 : a < x ? -1 : 0; }
INLINE int weft_cmp_ulong_float(float r, ulong x) {
    if (r >= 0x1p64f) return 1;
    ulong a = (ulong)r; return a > x ? 1 : a < x ? -1 : 0; }
INLINE int weft_cmp_long_double(double r, long x) {
    if (r >= 0x1p63) return 1;
    long a = (long)r; return a > x ? 1 : a < x ? -1 : 0; }
INLINE int weft_cmp_ulong_double(double r, ulong x) {
    if (r >= 0x1p64) return 1;
    ulong a = (ulong)r; return a > x ? 1 : a < x ? -1 : 0; }

#define CVT_DIRECTED(S, D, UP, DOWN)                                                          \
    INLINE D weft_cvt_##S##_##D##_rtz(S x) {                                                  \
        D r = (D)x; int c = weft_cmp_##S##_##D(r, x);                                         \
        return (r > 0 && c > 0) ? DOWN(r) : (r < 0 && c < 0) ? UP(r) : r; }                   \
    INLINE D weft_cvt_##S##_##D##_rtp(S x) { D r = (D)x; return weft_cmp_##S##_##D(r, x) < 0 ? UP(r) : r; } \
    INLINE D weft_cvt_##S##_##D##_rtn(S x) { D r = (D)x; return weft_cmp_##S##_##D(r, x) > 0 ? DOWN(r) : r; }
CVT_DIRECTED(int, float, weft_next_upf, weft_next_downf)
CVT_DIRECTED(uint, float, weft_next_upf, weft_next_downf)
CVT_DIRECTED(long, float, weft_next_upf, weft_next_downf)
CVT_DIRECTED(ulong, float, weft_next_upf, weft_next_downf)
CVT_DIRECTED(long, double, weft_next_up, weft_next_down)
CVT_DIRECTED(ulong, double, weft_next_up, weft_next_down)
"""


def vector_is_plain(dst, src, sat, rnd):
    """True when the conversion is exactly what __builtin_convertvector does."""
    dk, db, _ = TYPES[dst]
    sk, sb, _ = TYPES[src]
    if sat:
        return False
    if dk == "i" and sk == "i":
        return True
    if "half" in (dst, src):
        # float <-> half and half -> float/double are plain in the default mode; the
        # others convert per component through the scalar forms above
        return rnd in ("", "_rte") and dk == "f" and (sk == "f" and sb <= 32)
    if dk == "i":  # float -> int: convertvector's out-of-range result is poison
        return False
    if sk == "f":
        return sb <= db or rnd in ("", "_rte")
    return sb < MANT[dst] or rnd in ("", "_rte")


def main():
    out = []
    out.append("""/* builtins/convert.cl — GENERATED by gen/gen_convert.py; do not edit by hand.
 *
 * The explicit conversions of OpenCL C (spec 6.4.3): convert_<dst><n>[_sat][_rounding] for
 * every pair of the ten scalar types and every width. Exact for every input: see the
 * generator's header for the rules. Vector conversions that are plain casts use
 * __builtin_convertvector (one LLVM conversion on the whole vector); the others apply the
 * scalar conversion per component.
 */
#include "weft_builtins.h"
""")
    out.append(HELPERS)
    def pair(dst, src):
        dk = TYPES[dst][0]
        sats = ["", "_sat"] if dk == "i" else [""]
        out.append("/* %s -> %s */" % (src, dst))
        for sat in sats:
            for rnd in ROUNDINGS:
                name = "convert_%s%s%s" % (dst, sat, rnd)
                out.append("CNST %s %s(%s x) { %s }" % (dst, name, src,
                                                      scalar_body(dst, src, sat, rnd)))
                for n in WIDTHS[1:]:
                    vname = "convert_%s%s%s%s" % (dst, n, sat, rnd)
                    if vector_is_plain(dst, src, sat, rnd):
                        body = "return __builtin_convertvector(x, %s%s);" % (dst, n)
                    elif src == "half" and dst != "half":
                        body = "return %s(__builtin_convertvector(x, float%s));" % (vname, n)
                    else:
                        body = ("%s%s r; for (int i = 0; i < %s; i++) r[i] = %s(x[i]); return r;"
                                % (dst, n, n, name))
                    out.append("CNST %s%s %s(%s%s x) { %s }" % (dst, n, vname, src, n, body))

    for dst in ORDER:
        for src in ORDER:
            pair(dst, src)
    out.append("\n#ifdef cl_khr_fp16")
    for dst in HALF_ORDER:
        for src in HALF_ORDER:
            if "half" in (dst, src):
                pair(dst, src)
    out.append("#endif /* cl_khr_fp16 */")
    print("\n".join(out))


if __name__ == "__main__":
    main()
