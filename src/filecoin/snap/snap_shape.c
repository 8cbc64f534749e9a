/* SnapDeals shapes and public inputs; contracts in snap.h. */
#include "filecoin/snap/snap.h"

cuzk_status fc_snap_shape_for_nodes(uint64_t nodes, bool poseidon, fc_snap_shape *out, cuzk_error *err)
{
    /* validate_tree_r_shape (constants.rs): log2 nodes -> sub and top arity */
    static const struct {
        unsigned log2, sub, top;
    } TREES[] = {{5, 4, 0}, {6, 0, 0}, {7, 2, 0}, {8, 4, 0},  {9, 8, 0},  {10, 8, 2},
                 {18, 0, 0}, {19, 2, 0}, {24, 0, 0}, {30, 8, 0}, {31, 8, 2}};
    unsigned cb = 0;
    while (cb < 63 && ((uint64_t)1 << cb) < nodes)
        cb++;
    size_t t = 0;
    while (t < sizeof TREES / sizeof TREES[0] && (TREES[t].log2 != cb || ((uint64_t)1 << cb) != nodes))
        t++;
    if (t == sizeof TREES / sizeof TREES[0])
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         "EmptySectorUpdate: no circuit for %llu nodes (2^5..2^10, 2^18, 2^19, 2^24, 2^30, 2^31)",
                         (unsigned long long)nodes);
    fc_snap_shape s = {0};
    s.poseidon = poseidon;
    s.nodes = nodes;
    s.challenge_bits = cb;
    unsigned sub_bits = TREES[t].sub ? (TREES[t].sub == 2 ? 1 : TREES[t].sub == 4 ? 2 : 3) : 0;
    unsigned top_bits = TREES[t].top ? 1 : 0;
    s.tree_r = (merkle_shape){MERKLE_POSEIDON, 8, (cb - sub_bits - top_bits) / 3, TREES[t].sub, TREES[t].top};
    /* partition_count, challenge_count, apex_leaf_count, hs (constants.rs) */
    s.partitions = nodes <= (1u << 8) ? 1 : nodes <= (1u << 10) ? 2 : nodes <= (1u << 19) ? 4 : 16;
    s.challenges = nodes <= (1u << 19) ? 10 : 86;
    s.apex_leaves = nodes <= (1u << 8) ? 8 : 128;
    for (unsigned i = 0; i < FC_SNAP_HS; i++)
        s.hs[i] = nodes <= (1u << 10) ? 1 : 7 + i;
    s.h = s.hs[3];
    unsigned idx = 0;
    while (s.hs[idx] != s.h)
        idx++;
    s.h_select = 1u << idx;
    if (poseidon) {
        s.challenges *= s.partitions;
        s.partitions = 1;
        s.apex_leaves = 0;
    }
    while ((1u << s.partition_bits) < s.partitions)
        s.partition_bits++;
    while (s.apex_leaves && (1u << s.apex_bits) < s.apex_leaves)
        s.apex_bits++;
    *out = s;
    return CUZK_OK;
}

cuzk_status fc_snap_public_inputs(const fc_snap_shape *s, const fc_snap_public *pub, fr_t out[4], cuzk_error *err)
{
    if (pub->k >= s->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "EmptySectorUpdate: partition k = %u (sector has %u partitions)",
                         pub->k, s->partitions);
    fr_from_u64(&out[0], (uint64_t)pub->k | ((uint64_t)s->h_select << s->partition_bits));
    out[1] = pub->comm_r_old;
    out[2] = pub->comm_d_new;
    out[3] = pub->comm_r_new;
    return CUZK_OK;
}
