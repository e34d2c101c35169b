/* tools/weft/explain_chain.h — `weft explain --chain`: the fusion decision for a chain of
 * launches (explain_chain.c). */
#ifndef WEFT_CLI_EXPLAIN_CHAIN_H
#define WEFT_CLI_EXPLAIN_CHAIN_H

#include <stdint.h>

struct weft_image;

struct weft_explain_chain_args {
    const char *spec;          /* "k(A, B, 100), k(B, A, 100)" */
    unsigned repeat;           /* the spec this many times (0 or 1: once) */
    unsigned work_dim;
    uint64_t global[3], local[3];
    unsigned depth;            /* 0: equation 6 */
    uint64_t tile;             /* 0: from the cache budget */
    double ratio;              /* equation 6's t_s/t_c - 1 */
    unsigned threads;          /* 0: the runtime's thread count */
};

/* Prints the decision; 0, or 2 for a chain that does not parse or fit the program. */
int weft_cli_explain_chain(const struct weft_image *img, const struct weft_explain_chain_args *a);

#endif
