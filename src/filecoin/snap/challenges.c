/* SnapDeals (EmptySectorUpdate) phi, rho and challenges (storage-proofs-update vanilla.rs
 * phi / rho, challenges.rs Challenges::new / new_poseidon; circuit.rs
 * gen_challenge_bits); contracts in challenges.h. */
#include "filecoin/snap/challenges.h"
#include "gadgets/poseidon.h"

/* Poseidon arity 2 with the Custom(1) domain tag. */
static cuzk_status hash_custom1(const fr_t *a, const fr_t *b, fr_t *out, cuzk_error *err)
{
    fr_t tag, in[2] = {*a, *b};
    poseidon_tag_custom(1, &tag);
    return poseidon_hash(2, &tag, in, out, err);
}

static cuzk_status read_fr(const uint8_t bytes[32], const char *name, fr_t *out, cuzk_error *err)
{
    if (fr_from_bytes_le(out, bytes))
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "SnapDeals: %s is not a canonical field element", name);
    return CUZK_OK;
}

cuzk_status fc_snap_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], fr_t *phi, cuzk_error *err)
{
    fr_t d, r;
    cuzk_status st = read_fr(comm_d_new, "comm_d_new", &d, err);
    if (!st)
        st = read_fr(comm_r_old, "comm_r_old", &r, err);
    return st ? st : hash_custom1(&d, &r, phi, err);
}

void fc_snap_rho(const fr_t *phi, uint64_t high, fr_t *rho)
{
    fr_t h;
    fr_from_u64(&h, high);
    if (hash_custom1(phi, &h, rho, NULL))
        *rho = FR_ZERO;
}

/* Bits [start, start + len) of the LE byte string b, bit 0 = least significant of b[0]. */
static uint64_t bits_le(const uint8_t *b, unsigned start, unsigned len)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < len; i++)
        v |= (uint64_t)(b[(start + i) / 8] >> ((start + i) % 8) & 1) << i;
    return v;
}

/* `count` challenges of rb random bits each from digests Pc(comm_r_new, Fr(d)), d = first_digest,
 * first_digest + 1, ...: floor(254 / rb) challenges per digest, LSB first, each ORed with
 * high_bits. */
static cuzk_status gen_challenges(const uint8_t comm_r_new[32], unsigned rb, uint64_t first_digest,
                                  uint64_t high_bits, uint64_t count, uint64_t *out, cuzk_error *err)
{
    fr_t comm;
    cuzk_status st = read_fr(comm_r_new, "comm_r_new", &comm, err);
    if (st)
        return st;
    unsigned per_digest = 254 / rb;
    uint8_t bytes[32];
    for (uint64_t i = 0; i < count; i++) {
        unsigned slot = (unsigned)(i % per_digest);
        if (slot == 0) {
            fr_t index, digest;
            fr_from_u64(&index, first_digest + i / per_digest);
            if ((st = hash_custom1(&comm, &index, &digest, err)))
                return st;
            fr_to_bytes_le(bytes, &digest);
        }
        out[i] = bits_le(bytes, slot * rb, rb) | high_bits;
    }
    return CUZK_OK;
}

cuzk_status fc_snap_challenges(const fc_snap_proof *u, const uint8_t comm_r_new[32], uint32_t k, uint64_t *out,
                               cuzk_error *err)
{
    if (!u || k >= u->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SnapDeals challenges: partition %u of %u", k,
                         u ? u->partitions : 0);
    unsigned pb = (unsigned)__builtin_ctz(u->partitions);
    unsigned rb = u->shape->log2_nodes - pb;
    uint64_t per_digest = 254 / rb;
    uint64_t digests = (u->challenges + per_digest - 1) / per_digest;
    return gen_challenges(comm_r_new, rb, (uint64_t)k * digests, (uint64_t)k << rb, u->challenges, out, err);
}

cuzk_status fc_snap_poseidon_challenges(const fc_snap_proof *u, const uint8_t comm_r_new[32], uint64_t *out,
                                        cuzk_error *err)
{
    if (!u)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SnapDeals-Poseidon challenges: NULL update proof");
    return gen_challenges(comm_r_new, u->shape->log2_nodes, 0, 0, u->poseidon_challenges, out, err);
}
