/* A consistent C1 output for a tiny custom StackedDrg circuit, built natively for the
 * circuit tests (the recipe of docs/fixtures.md#porep on a whole small sector): random
 * data and columns, arbitrary parents (the circuit does not check the graph, only that
 * each parent column hashes into tree C at its public index), the challenged columns
 * labelled from their parents with create_label_native, trees D / C / R built in full.
 * The C1 has no registered proof (custom shapes have none). */
#ifndef CUZK_TESTS_TINY_C1_H
#define CUZK_TESTS_TINY_C1_H

#include "filecoin/porep/porep.h"

/* Build the C1 of one partition for cp (C distinct challenges in [1, nodes), parents among
 * the other nodes) from `seed`; challenges[C] and parents[C][14] receive the node numbers.
 * Returns false on allocation failure. Free with tiny_c1_free. */
bool tiny_c1_build(const fc_porep_circuit_params *cp, uint64_t seed, fc_c1_output *c1, uint64_t *challenges,
                   uint32_t (*parents)[FC_POREP_PARENTS]);
void tiny_c1_free(fc_c1_output *c1);

#endif
