/* create_label; contracts in create_label.h. */
#include <stdlib.h>
#include <string.h>

#include "gadgets/create_label.h"
#include "gadgets/merkle.h"
#include "gadgets/sha256_native.h"

anum create_label_circuit(cs_t *cs, const gbool *replica_id, size_t nrep,
                          const gbool *const parents[LABEL_PARENTS], const u32g *layer,
                          const u64g *node)
{
    if (nrep < 32 || nrep > 256) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "create_label_circuit: replica id of %zu bits", nrep);
        return (anum){CS_ONE, FR_ZERO};
    }
    size_t total = 512 + 256 * LABEL_PARENTS;
    gbool *m = malloc(total * sizeof *m);
    if (!m) {
        cs_set_error(cs, CUZK_E_NOMEM, "create_label_circuit: out of memory");
        return (anum){CS_ONE, FR_ZERO};
    }
    size_t n = 0;
    for (; n < nrep; n++)
        m[n] = replica_id[n];
    for (; n < 256; n++)
        m[n] = gb_const(false);
    u32_into_bits_be(layer, m + n);
    n += 32;
    u64_to_bits_be(node, m + n);
    n += 64;
    for (; n < 512; n++)
        m[n] = gb_const(false);
    for (int p = 0; p < LABEL_PARENTS; p++, n += 256)
        memcpy(m + n, parents[p], 256 * sizeof *m);
    anum r = merkle_sha256_hash_bits(cs, m, total, NULL, 0);
    free(m);
    return r;
}

void create_label_native(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                         const uint8_t (*parents)[32], uint8_t out[32])
{
    uint8_t buf[64 + 32 * LABEL_PARENTS];
    memset(buf, 0, 64);
    memcpy(buf, replica_id, 32);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    if (!parents) {
        sha256_trunc254(buf, 64, out);
        return;
    }
    memcpy(buf + 64, parents, 32 * LABEL_PARENTS);
    sha256_trunc254(buf, sizeof buf, out);
}
