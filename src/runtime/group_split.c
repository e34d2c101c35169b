/* runtime/group_split.c — the work-group size of a group-blind launch of few, long work-groups
 * (runtime/group_split.h). */
#include "runtime/group_split.h"

size_t weft_split_local0(size_t global0, size_t local0, size_t lanes, uint64_t rest, unsigned threads,
                         uint64_t item_ps)
{
    if (threads < 2 || local0 == 0 || lanes == 0 || rest == 0)
        return local0;
    const uint64_t enough = (uint64_t)WEFT_SPLIT_GROUPS_PER_THREAD * threads;
    const uint64_t groups = (global0 / local0 + (global0 % local0 != 0)) * rest;
    if (groups >= enough)
        return local0;
    /* ps x work-items of a group, in ns, against the bound (as doubles: no overflow) */
    if (groups < threads && (double)item_ps * (double)local0 * (double)lanes < 1000.0 * WEFT_SPLIT_MIN_NS)
        return local0;
    size_t l = local0;
    while (l % (2 * WEFT_SPLIT_MIN_ITEMS) == 0 && global0 % (l / 2) == 0 && global0 / l * rest < enough)
        l /= 2;
    return l;
}
