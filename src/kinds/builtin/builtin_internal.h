/* Internal to kinds/builtin: shared assignment helpers. */
#ifndef CUZK_KINDS_BUILTIN_BUILTIN_INTERNAL_H
#define CUZK_KINDS_BUILTIN_BUILTIN_INTERNAL_H

#include "kinds/builtin/builtin.h"

/* A new assignment with a/b/c of m elements (from `pool` when not NULL) and a witness of
 * nvars (contents undefined); NULL when out of memory. */
builtin_assignment *builtin_assignment_new(size_t m, size_t nvars, cuzk_abc_pool *pool);
/* kind.free_assignment for builtin_assignment (release_abc: builtin.h). */
void builtin_assignment_free(void *ctx, void *assignment);
/* Working-set estimate of one partition (see builtin_synthetic_partition_bytes). */
uint64_t builtin_partition_bytes(size_t m, size_t nvars, size_t n_b);

#endif
