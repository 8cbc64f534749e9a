/* builtin_assignment lifecycle helpers shared by the built-in kinds. */
#include "engine/builtin/builtin_internal.h"

#include <stdlib.h>

builtin_assignment *builtin_assignment_new(size_t m, size_t nvars)
{
    builtin_assignment *as = calloc(1, sizeof *as);
    if (!as)
        return NULL;
    as->g.a = malloc(m * sizeof(fr_t));
    as->g.b = malloc(m * sizeof(fr_t));
    as->g.c = malloc(m * sizeof(fr_t));
    as->w = malloc(nvars * sizeof(fr_t));
    as->g.w = as->w;
    if (!as->g.a || !as->g.b || !as->g.c || !as->w) {
        builtin_assignment_free(NULL, as);
        return NULL;
    }
    return as;
}

void builtin_release_abc(void *ctx, void *assignment)
{
    (void)ctx;
    builtin_assignment *as = assignment;
    groth16_assignment_free_abc(&as->g);
}

void builtin_assignment_free(void *ctx, void *assignment)
{
    builtin_assignment *as = assignment;
    if (!as)
        return;
    builtin_release_abc(ctx, as);
    free(as->w);
    free(as);
}

uint64_t builtin_partition_bytes(size_t m, size_t nvars, size_t n_b)
{
    /* a/b/c + witness + the prover's canonical witness copy + the pending B scalars */
    return (uint64_t)m * 3 * sizeof(fr_t) + (uint64_t)nvars * 2 * sizeof(fr_t) + (uint64_t)n_b * 32;
}
