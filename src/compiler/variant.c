/* compiler/variant.c — variant names and WEFT_VARIANT (compiler/variant.h). */
#include "compiler/variant.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const schedule_names[] = {
    [WEFT_SCHEDULE_DFO] = "dfo", [WEFT_SCHEDULE_AUTO] = "lc", [WEFT_SCHEDULE_BFO] = "bfo"};
static const char *const code_names[] = {[WEFT_CODE_VECTOR] = "", [WEFT_CODE_X2] = ".x2", [WEFT_CODE_SCALAR] = ".scalar"};

const char *weft_variant_name(const struct weft_variant_spec *v, char *buf)
{
    unsigned s = (unsigned)v->schedule <= WEFT_SCHEDULE_BFO ? (unsigned)v->schedule : WEFT_SCHEDULE_DFO;
    unsigned c = (unsigned)v->code <= WEFT_CODE_SCALAR ? (unsigned)v->code : WEFT_CODE_VECTOR;
    int n = snprintf(buf, WEFT_VARIANT_NAME_MAX, "%s%s%s", schedule_names[s], code_names[c], v->wide_ids ? ".wide" : "");
    if (v->sub_group_cap && n > 0 && n < WEFT_VARIANT_NAME_MAX)
        snprintf(buf + n, WEFT_VARIANT_NAME_MAX - (size_t)n, ".sg%u", v->sub_group_cap);
    return buf;
}

bool weft_variant_parse(const char *name, struct weft_variant_spec *out)
{
    memset(out, 0, sizeof *out);
    size_t len = strcspn(name, ".");
    bool found = false;
    for (unsigned s = 0; s < sizeof schedule_names / sizeof *schedule_names; s++)
        if (strlen(schedule_names[s]) == len && !strncmp(name, schedule_names[s], len)) {
            out->schedule = (enum weft_schedule_mode)s;
            found = true;
        }
    if (!found)
        return false;
    const char *p = name + len;
    if (!strncmp(p, ".x2", 3) && (p[3] == '\0' || p[3] == '.')) {
        out->code = WEFT_CODE_X2;
        p += 3;
    } else if (!strncmp(p, ".scalar", 7) && (p[7] == '\0' || p[7] == '.')) {
        out->code = WEFT_CODE_SCALAR;
        p += 7;
    }
    if (!strcmp(p, ".wide")) {
        out->wide_ids = true;
        p += 5;
    }
    return *p == '\0';
}

bool weft_variant_equal(const struct weft_variant_spec *a, const struct weft_variant_spec *b)
{
    return a->schedule == b->schedule && a->code == b->code && a->wide_ids == b->wide_ids &&
           a->sub_group_cap == b->sub_group_cap;
}

static pthread_once_t bad_name_once = PTHREAD_ONCE_INIT;

static void report_bad_name(void)
{
    fprintf(stderr, "weft: WEFT_VARIANT=%s names no variant (dfo, lc or bfo, then optionally .x2 or .scalar, "
                    "then optionally .wide; or auto): ignored\n", getenv("WEFT_VARIANT"));
}

bool weft_variant_forced(struct weft_variant_spec *out)
{
    const char *e = getenv("WEFT_VARIANT");
    if (!e || !*e || !strcmp(e, "auto"))
        return false;
    if (weft_variant_parse(e, out))
        return true;
    pthread_once(&bad_name_once, report_bad_name);
    return false;
}

bool weft_variant_first(bool wide_ids, struct weft_variant_spec *out)
{
    bool forced = weft_variant_forced(out);
    if (!forced) {
        enum weft_schedule_mode mode = weft_schedule_setting();
        memset(out, 0, sizeof *out);
        out->schedule = mode == WEFT_SCHEDULE_AUTO ? WEFT_SCHEDULE_DFO : mode;
    }
    out->wide_ids = out->wide_ids || wide_ids;
    return forced;
}

unsigned weft_variant_alternatives(const struct weft_variant_spec *first, bool votes_bfo, bool linearized,
                                   bool wide_items, struct weft_variant_spec out[2])
{
    unsigned n = 0;
    bool scalar = (linearized || wide_items) && first->code != WEFT_CODE_SCALAR;
    if (scalar && wide_items) {
        out[n] = *first;
        out[n++].code = WEFT_CODE_SCALAR;
    }
    if (votes_bfo && first->schedule != WEFT_SCHEDULE_AUTO) {
        out[n] = *first;
        out[n++].schedule = WEFT_SCHEDULE_AUTO;
    }
    if (scalar && !wide_items) {
        out[n] = *first;
        out[n++].code = WEFT_CODE_SCALAR;
    }
    return n;
}

bool weft_variant_static_scalar(const struct weft_variant_spec *first, unsigned row_walks,
                                struct weft_variant_spec *out)
{
    if (first->code != WEFT_CODE_VECTOR || row_walks == 0)
        return false;
    *out = *first;
    out->code = WEFT_CODE_SCALAR;
    return true;
}

void weft_variant_choice(unsigned i, struct weft_variant_spec *out)
{
    memset(out, 0, sizeof *out);
    out->schedule = (enum weft_schedule_mode)(i / 3 % 3);
    out->code = (enum weft_variant_code)(i % 3);
}
