/* Public inputs of a StackedDrg partition (storage-proofs-porep StackedCompound::
 * generate_public_inputs) and the challenged nodes with their parents (challenges.rs, graph.rs);
 * contracts in porep.h. Nothing here reads the vanilla proofs. */
#include "filecoin/core/graph.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/porep/porep.h"

/* Registered proofs have at most 18 challenges per partition (filecoin-proofs parameters.rs). */
#define MAX_REGISTERED_CHALLENGES 18u

static cuzk_status registered(const fc_c1_output *c1, uint32_t partition, const fc_seal_proof **out, cuzk_error *err)
{
    if (!c1 || !c1->registered_proof)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep: the C1 output has no registered_proof");
    const fc_seal_proof *p = c1->registered_proof;
    if (partition >= p->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep: partition %u of %s (%u partitions)", partition, p->name,
                         p->partitions);
    if (p->challenges_per_partition > MAX_REGISTERED_CHALLENGES)
        return cuzk_fail(err, CUZK_E_INTERNAL, "porep: %s has %u challenges per partition", p->name,
                         p->challenges_per_partition);
    *out = p;
    return CUZK_OK;
}

cuzk_status fc_porep_partition_nodes(const fc_c1_output *c1, uint32_t partition, uint64_t *out_challenges,
                                     uint32_t (*out_parents)[FC_POREP_PARENTS], cuzk_error *err)
{
    const fc_seal_proof *p;
    cuzk_status st = registered(c1, partition, &p, err);
    if (st || (st = fc_porep_challenges(p, c1->replica_id, c1->seed, c1->comm_r, partition, out_challenges, err)))
        return st;
    if (!out_parents)
        return CUZK_OK;
    fc_graph g;
    if ((st = fc_graph_init(&g, p, err)))
        return st;
    for (unsigned i = 0; i < p->challenges_per_partition; i++)
        fc_graph_parents(&g, out_challenges[i], out_parents[i]);
    return CUZK_OK;
}

static cuzk_status field(const uint8_t bytes[32], const char *name, fr_t *out, cuzk_error *err)
{
    if (fr_from_bytes_le(out, bytes) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: not a canonical field element (>= r)", name);
    return CUZK_OK;
}

cuzk_status fc_porep_public_inputs(const fc_c1_output *c1, uint32_t partition, fr_t *out, size_t cap, size_t *n,
                                   cuzk_error *err)
{
    const fc_seal_proof *p;
    cuzk_status st = registered(c1, partition, &p, err);
    if (st)
        return st;
    unsigned C = p->challenges_per_partition;
    size_t need = FC_POREP_HEADER_INPUTS + (size_t)FC_POREP_INPUTS_PER_CHALLENGE * C;
    if (cap < need)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep public inputs: %zu values needed, room for %zu", need, cap);
    if ((st = field(c1->replica_id, "replica_id", &out[0], err)) || (st = field(c1->comm_d, "comm_d", &out[1], err)) ||
        (st = field(c1->comm_r, "comm_r", &out[2], err)))
        return st;
    uint64_t ch[MAX_REGISTERED_CHALLENGES];
    uint32_t par[MAX_REGISTERED_CHALLENGES][FC_POREP_PARENTS];
    if ((st = fc_porep_partition_nodes(c1, partition, ch, par, err)))
        return st;
    fr_t *o = out + FC_POREP_HEADER_INPUTS;
    for (unsigned i = 0; i < C; i++) {
        fr_from_u64(o++, ch[i]); /* tree D path */
        for (unsigned j = 0; j < FC_POREP_PARENTS; j++)
            fr_from_u64(o++, par[i][j]); /* tree C paths of the DRG, then expander columns */
        for (unsigned j = 0; j < 3; j++)
            fr_from_u64(o++, ch[i]); /* challenge UInt64, tree R path, c_x path */
    }
    *n = need;
    return CUZK_OK;
}
