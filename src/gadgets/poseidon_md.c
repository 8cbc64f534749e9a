/* Poseidon Merkle-Damgard hash in circuit; contract in poseidon_md.h. */
#include "gadgets/poseidon_md.h"

anum poseidon_hash_md_circuit(cs_t *cs, const anum *elements, size_t n)
{
    if (n == 0) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "poseidon_hash_md_circuit: no elements");
        return (anum){CS_ONE, FR_ZERO};
    }
    fr_t tag;
    poseidon_tag_merkle(POSEIDON_MD_ARITY, &tag);
    anum acc = elements[0], pre[POSEIDON_MD_ARITY];
    size_t chunk = 0;
    for (size_t i = 1; i < n; i += POSEIDON_MD_ARITY - 1, chunk++) {
        size_t k = n - i < POSEIDON_MD_ARITY - 1 ? n - i : POSEIDON_MD_ARITY - 1;
        pre[0] = acc;
        for (size_t j = 0; j < k; j++)
            pre[j + 1] = elements[i + j];
        for (size_t j = k + 1; j < POSEIDON_MD_ARITY; j++)
            pre[j] = anum_alloc(cs, &FR_ZERO);
        cs_ns_push(cs, "hash md %zu", chunk);
        acc = poseidon_circuit(cs, POSEIDON_MD_ARITY, &tag, pre);
        cs_ns_pop(cs);
    }
    return acc;
}
