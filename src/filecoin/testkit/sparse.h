/* Sparse trees: trees whose leaves follow a rule instead of being stored, for the 32/64 GiB
 * fixtures made without sealing (docs/fixtures.md). A leaf model says, for a range of
 * leaves, whether they all hold one value; such a subtree is the default ladder of that
 * value at its height (Z_k / Y_k / W_k of docs/vectors.md#zero-commitments,
 * docs/vectors.md#poseidon-zero-ladders) and is never expanded.
 * Every other node is computed from its children on demand and remembered, so a tree with a
 * few thousand distinct leaves in 2^31 costs a few thousand hashes and little memory (48
 * bytes per remembered node, plus 32 bytes per level per distinct uniform value).
 *
 * Any path read from such a tree is a valid Merkle path to its root: the circuits and the
 * reference verifiers cannot tell it from a fully built tree.
 *
 * Thread-safety: a sparse tree's view may be used from several threads (an internal mutex
 * guards the caches); the leaf model must be thread-safe for reading.
 */
#ifndef CUZK_FILECOIN_TESTKIT_SPARSE_H
#define CUZK_FILECOIN_TESTKIT_SPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/seal/tree.h"

typedef struct {
    /* Whether leaves [lo, hi) all hold one value; if so write it to val. Answering false for
     * a uniform range is allowed (the range is then hashed from its children). */
    bool (*uniform)(const void *ctx, uint64_t lo, uint64_t hi, uint8_t val[32]);
    /* The value of leaf i. */
    void (*leaf)(const void *ctx, uint64_t i, uint8_t val[32]);
    const void *ctx;
} fc_leaf_model;

typedef struct fc_sparse_tree fc_sparse_tree;

/* A sparse tree of shape s over model m (both copied; m->ctx must outlive the tree).
 * Errors: CUZK_E_NOMEM. */
cuzk_status fc_sparse_tree_create(fc_sparse_tree **out, const fc_tree_shape *s, const fc_leaf_model *m,
                                  cuzk_error *err);
/* Free the tree and its caches (NULL accepted). */
void fc_sparse_tree_free(fc_sparse_tree *t);
/* The view (valid while t lives). Node errors: CUZK_E_NOMEM, CUZK_E_FIELD_NONCANONICAL (a
 * leaf value >= r in a Poseidon tree), CUZK_E_INVALID_ARG (node out of range). */
fc_tree fc_sparse_tree_view(const fc_sparse_tree *t);

/* A ready-made model: `n` leaves at distinct sorted indices idx[] with values val[], every
 * other leaf = dflt. The arrays are borrowed (must outlive the model's use). */
typedef struct {
    const uint64_t *idx;
    const uint8_t (*val)[32];
    size_t n;
    uint8_t dflt[32];
} fc_sparse_leaves;
fc_leaf_model fc_sparse_leaves_model(const fc_sparse_leaves *l);

#endif
