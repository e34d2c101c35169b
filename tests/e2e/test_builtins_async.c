/* tests/e2e/test_builtins_async.c — async_work_group_copy, async_work_group_strided_copy,
 * wait_group_events and prefetch end to end: each work-group copies a tile from global to
 * local memory, waits, transforms it reading elements other work-items copied, and copies
 * it back (plain and strided, scalar and vector element types), for local sizes that do
 * and do not divide the tile size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "builtins_harness.h"

static void test_async_copy_exact(void **state)
{
    (void)state;
    /* copy in, wait (a barrier), every work-item transforms elements other work-items
     * copied into a second local tile, copy out: plain and strided copies in both
     * directions, char and float4 elements; tile = 37 elements, never a multiple of the
     * local size */
    static const char *src =
        "#define TILE 37\n"
        "kernel void k(global const float *in, global float *out, global const char *cin,\n"
        "              global char *cout, global const float4 *in4, global float4 *out4,\n"
        "              local float *a, local float *b, local char *ca, local float4 *a4) {\n"
        "  size_t g = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);\n"
        "  prefetch(in + g * TILE, TILE);\n"
        "  event_t e = async_work_group_copy(a, in + g * TILE, TILE, 0);\n"
        "  event_t s = async_work_group_strided_copy(ca, cin + g, TILE, get_num_groups(0), 0);\n"
        "  event_t v = async_work_group_strided_copy(a4, in4 + g * 2 * TILE, TILE, 2, 0);\n"
        "  event_t all[3] = {e, s, v};\n"
        "  wait_group_events(3, all);\n"
        "  for (size_t j = l; j < TILE; j += ls) b[j] = a[TILE - 1 - j] * 2.0f + (float)ca[j];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  e = async_work_group_strided_copy(out + g, b, TILE, get_num_groups(0), 0);\n"
        "  s = async_work_group_copy(cout + g * TILE, ca, TILE, 0);\n"
        "  v = async_work_group_copy(out4 + g * TILE, a4, TILE, 0);\n"
        "  wait_group_events(1, &e); wait_group_events(1, &s); wait_group_events(1, &v);\n"
        "}\n";
    enum { TILE = 37, NG = 6 };
    static const size_t locals[] = {1, 3, 7, 64, 100};
    float in[TILE * NG], out[TILE * NG];
    signed char cin[TILE * NG], cout[TILE * NG];
    cl_float4 in4[2 * TILE * NG], out4[TILE * NG];
    for (int i = 0; i < TILE * NG; i++) {
        in[i] = (float)i * 0.5f + 1.0f;
        cin[i] = (signed char)(i * 7 - 100);
    }
    for (int i = 0; i < 2 * TILE * NG; i++)
        for (int c = 0; c < 4; c++)
            in4[i].s[c] = (float)(i * 4 + c);
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t ls = locals[t];
        memset(out, 0, sizeof out);
        memset(cout, 0, sizeof cout);
        memset(out4, 0, sizeof out4);
        struct bt_arg args[] = {BT_BUF(in, sizeof in), BT_BUF(out, sizeof out), BT_BUF(cin, sizeof cin),
                                BT_BUF(cout, sizeof cout), BT_BUF(in4, sizeof in4), BT_BUF(out4, sizeof out4),
                                BT_LOCAL(TILE * sizeof(float)), BT_LOCAL(TILE * sizeof(float)),
                                BT_LOCAL(TILE), BT_LOCAL(TILE * sizeof(cl_float4))};
        assert_int_equal(bt_run(src, NULL, "k", ls * NG, ls, args, 10), CL_SUCCESS);
        for (int g = 0; g < NG; g++) {
            for (int j = 0; j < TILE; j++) {
                signed char cj = cin[g + j * NG];
                float want = in[g * TILE + TILE - 1 - j] * 2.0f + (float)cj;
                if (out[g + j * NG] != want)
                    fail_msg("local size %zu, group %d: strided out[%d] = %g, want %g", ls, g, j, out[g + j * NG], want);
                if (cout[g * TILE + j] != cj)
                    fail_msg("local size %zu, group %d: char copy [%d] = %d, want %d", ls, g, j, cout[g * TILE + j], cj);
                for (int c = 0; c < 4; c++)
                    if (out4[g * TILE + j].s[c] != in4[g * 2 * TILE + 2 * j].s[c])
                        fail_msg("local size %zu, group %d: float4 strided copy [%d].%d = %g, want %g", ls, g, j, c,
                                 out4[g * TILE + j].s[c], in4[g * 2 * TILE + 2 * j].s[c]);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_async_copy_exact),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
