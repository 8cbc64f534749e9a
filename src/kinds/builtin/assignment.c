/* builtin_assignment lifecycle helpers shared by the built-in kinds. */
#include "kinds/builtin/builtin_internal.h"

#include <stdlib.h>

builtin_assignment *builtin_assignment_new(size_t m, size_t nvars, cuzk_abc_pool *pool)
{
    builtin_assignment *as = calloc(1, sizeof *as);
    if (!as)
        return NULL;
    if (pool) {
        cuzk_error ignored;
        if (cuzk_abc_pool_get(pool, 3 * m * sizeof(fr_t), &as->abc_mem, &ignored) == CUZK_OK) {
            as->pool = pool;
            as->g.a = as->abc_mem;
            as->g.b = as->g.a + m;
            as->g.c = as->g.b + m;
        }
    } else {
        as->g.a = malloc(m * sizeof(fr_t));
        as->g.b = malloc(m * sizeof(fr_t));
        as->g.c = malloc(m * sizeof(fr_t));
    }
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
    if (as->pool) {
        cuzk_abc_pool_put(as->pool, as->abc_mem);
        as->pool = NULL, as->abc_mem = NULL;
        as->g.a = as->g.b = as->g.c = NULL;
    } else {
        groth16_assignment_free_abc(&as->g);
    }
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
