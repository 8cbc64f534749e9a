/* Registered proof tables and parameter file names; contracts and sources in registry.h. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "filecoin/core/registry.h"
#include "gadgets/sha256_native.h"

static const fc_sector_shape SHAPES[FC_SIZE_COUNT] = {
    {FC_SIZE_2KIB, "2KiB", 2048ull, 64ull, 6, 2, 8, 2, 0, 0},
    {FC_SIZE_8MIB, "8MiB", 8388608ull, 262144ull, 18, 2, 8, 6, 0, 0},
    {FC_SIZE_512MIB, "512MiB", 536870912ull, 16777216ull, 24, 2, 8, 8, 0, 0},
    {FC_SIZE_32GIB, "32GiB", 34359738368ull, 1073741824ull, 30, 11, 8, 9, 8, 0},
    {FC_SIZE_64GIB, "64GiB", 68719476736ull, 2147483648ull, 31, 11, 8, 9, 8, 2},
};

/* Short size names used in circuit ids ("porep-32g"). */
static const char *const SHORT[FC_SIZE_COUNT] = {"2k", "8m", "512m", "32g", "64g"};

const fc_sector_shape *fc_sector_shape_of(fc_size_class size)
{
    return size < FC_SIZE_COUNT ? &SHAPES[size] : NULL;
}

cuzk_status fc_sector_shape_by_bytes(uint64_t bytes, const fc_sector_shape **out, cuzk_error *err)
{
    for (unsigned i = 0; i < FC_SIZE_COUNT; i++)
        if (SHAPES[i].sector_bytes == bytes) {
            *out = &SHAPES[i];
            return CUZK_OK;
        }
    *out = NULL;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                     "sector size %llu bytes is not a published size (2048, 8388608, 536870912, "
                     "34359738368, 68719476736)",
                     (unsigned long long)bytes);
}

cuzk_status fc_sector_shape_by_name(const char *name, const fc_sector_shape **out, cuzk_error *err)
{
    for (unsigned i = 0; name && i < FC_SIZE_COUNT; i++)
        if (!strcasecmp(name, SHAPES[i].name) || !strcasecmp(name, SHORT[i])) {
            *out = &SHAPES[i];
            return CUZK_OK;
        }
    *out = NULL;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "sector size \"%s\" unknown (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                     name ? name : "(null)");
}

uint64_t fc_sector_base_trees(const fc_sector_shape *s)
{
    return (s->sub_arity ? s->sub_arity : 1) * (uint64_t)(s->top_arity ? s->top_arity : 1);
}

const char *fc_api_version_name(fc_api_version v)
{
    switch (v) {
    case FC_API_1_0: return "1.0.0";
    case FC_API_1_1: return "1.1.0";
    default: return "1.2.0";
    }
}

/* ---- seal proofs ---- */

static fc_seal_proof SEAL[FC_SEAL_PROOF_COUNT];
static fc_post_proof POST[FC_POST_PROOF_COUNT];
static fc_snap_proof SNAP[FC_SNAP_PROOF_COUNT];
static char NAMES[FC_SEAL_PROOF_COUNT + FC_POST_PROOF_COUNT + FC_SNAP_PROOF_COUNT][64];
static const char *const VARIANT[FC_SIZE_COUNT] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                                   "StackedDrg32GiBV1", "StackedDrg64GiBV1"};

static void build_tables(void)
{
    static const char *const seal_suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                               "V1_2_Feat_NonInteractivePoRep"};
    for (unsigned id = 0; id < FC_SEAL_PROOF_COUNT; id++) {
        fc_seal_proof *p = &SEAL[id];
        unsigned group = id / 5;
        const fc_sector_shape *s = &SHAPES[id % 5];
        bool big = s->size >= FC_SIZE_32GIB;
        snprintf(NAMES[id], sizeof NAMES[id], "StackedDrg%s%s", s->name, seal_suffix[group]);
        p->id = id;
        p->name = NAMES[id];
        p->vanilla_variant = VARIANT[s->size];
        p->shape = s;
        p->api = group == 0 ? FC_API_1_0 : group == 1 ? FC_API_1_1 : FC_API_1_2;
        p->feature = group <= 1 ? FC_POREP_INTERACTIVE : group == 2 ? FC_POREP_SYNTHETIC : FC_POREP_NON_INTERACTIVE;
        p->challenges_per_partition = big ? 18 : 2;
        if (p->feature == FC_POREP_NON_INTERACTIVE) {
            p->partitions = big ? 126 : 13;
            p->min_challenges = big ? 2253 : 26;
        } else {
            p->partitions = big ? 10 : 1;
            p->min_challenges = big ? 176 : 2;
        }
        memset(p->porep_id, 0, sizeof p->porep_id);
        for (int b = 0; b < 8; b++)
            p->porep_id[b] = (uint8_t)((uint64_t)id >> (8 * b));
    }
    for (unsigned id = 0; id < FC_POST_PROOF_COUNT; id++) {
        fc_post_proof *p = &POST[id];
        const fc_sector_shape *s = &SHAPES[id % 5];
        char *name = NAMES[FC_SEAL_PROOF_COUNT + id];
        p->id = id;
        p->shape = s;
        p->winning = id < 5;
        p->api = id < 10 ? FC_API_1_0 : FC_API_1_2;
        if (p->winning) {
            snprintf(name, 64, "StackedDrgWinning%sV1", s->name);
            p->sector_count = 66;
            p->challenge_count = 1;
            p->vanilla_challenges = 66;
        } else {
            snprintf(name, 64, "StackedDrgWindow%sV1%s", s->name, id >= 10 ? "_2" : "");
            p->sector_count = s->size == FC_SIZE_32GIB ? 2349 : s->size == FC_SIZE_64GIB ? 2300 : 2;
            p->challenge_count = 10;
            p->vanilla_challenges = 10;
        }
        p->name = name;
    }
    for (unsigned id = 0; id < FC_SNAP_PROOF_COUNT; id++) {
        fc_snap_proof *p = &SNAP[id];
        const fc_sector_shape *s = &SHAPES[id];
        char *name = NAMES[FC_SEAL_PROOF_COUNT + FC_POST_PROOF_COUNT + id];
        snprintf(name, 64, "StackedDrg%sV1", s->name);
        p->id = id;
        p->name = name;
        p->shape = s;
        /* storage-proofs-update constants.rs: partitions by node count, challenges, apex
         * leaves, hs (storage-proofs-update constants.rs). */
        uint64_t n = s->nodes;
        p->partitions = n <= (1u << 8) ? 1 : n <= (1u << 10) ? 2 : n <= (1u << 19) ? 4 : 16;
        p->challenges = n <= (1u << 19) ? 10 : 86;
        p->apex_leaves = n <= (1u << 8) ? 8 : 128;
        bool small = s->sector_bytes <= 32768;
        for (unsigned i = 0; i < 6; i++)
            p->hs[i] = small ? 1 : 7 + i;
        p->h = p->hs[3];
        /* constants.rs h_select: 2^(first position of h in hs): 1 when hs = [1;6] (2 KiB),
         * 8 otherwise */
        unsigned pos = 0;
        while (p->hs[pos] != p->h)
            pos++;
        p->h_select = 1u << pos;
        p->poseidon_challenges = p->challenges * p->partitions;
    }
}

/* The tables are filled by a constructor so lookups need no lock. */
__attribute__((constructor)) static void registry_init(void)
{
    build_tables();
}

cuzk_status fc_seal_proof_get(uint64_t id, const fc_seal_proof **out, cuzk_error *err)
{
    if (id >= FC_SEAL_PROOF_COUNT) {
        *out = NULL;
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown RegisteredSealProof id %llu (known 0..19)",
                         (unsigned long long)id);
    }
    *out = &SEAL[id];
    return CUZK_OK;
}

cuzk_status fc_seal_proof_by_name(const char *name, const fc_seal_proof **out, cuzk_error *err)
{
    for (unsigned i = 0; name && i < FC_SEAL_PROOF_COUNT; i++)
        if (!strcmp(name, SEAL[i].name)) {
            *out = &SEAL[i];
            return CUZK_OK;
        }
    *out = NULL;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown RegisteredSealProof \"%.100s\"", name ? name : "(null)");
}

cuzk_status fc_post_proof_get(uint64_t id, const fc_post_proof **out, cuzk_error *err)
{
    if (id >= FC_POST_PROOF_COUNT) {
        *out = NULL;
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown RegisteredPoStProof id %llu (known 0..14)",
                         (unsigned long long)id);
    }
    *out = &POST[id];
    return CUZK_OK;
}

cuzk_status fc_snap_proof_get(uint64_t id, const fc_snap_proof **out, cuzk_error *err)
{
    if (id >= FC_SNAP_PROOF_COUNT) {
        *out = NULL;
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown RegisteredUpdateProof id %llu (known 0..4)",
                         (unsigned long long)id);
    }
    *out = &SNAP[id];
    return CUZK_OK;
}

/* ---- circuits and parameter files ---- */

static const char *const FAMILY[FC_CIRCUIT_COUNT] = {"porep", "winning-post", "window-post", "snap",
                                                     "snap-poseidon"};
/* Short prefixes of the reference daemon's circuit ids. */
static const char *const FAMILY_SHORT[FC_CIRCUIT_COUNT] = {"porep", "winning", "wpost", "snap", "snap-poseidon"};

const char *fc_circuit_family_name(fc_circuit_family f)
{
    return f < FC_CIRCUIT_COUNT ? FAMILY[f] : "unknown";
}

cuzk_status fc_circuit_family_by_name(const char *name, fc_circuit_family *out, cuzk_error *err)
{
    for (unsigned f = 0; name && f < FC_CIRCUIT_COUNT; f++)
        if (!strcmp(name, FAMILY[f]) || !strcmp(name, FAMILY_SHORT[f])) {
            *out = (fc_circuit_family)f;
            return CUZK_OK;
        }
    return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                     "circuit \"%.100s\" unknown (porep, winning-post, window-post, snap, snap-poseidon)",
                     name ? name : "(null)");
}

void fc_circuit_id_name(const fc_circuit_id *c, char *out, size_t cap)
{
    snprintf(out, cap, "%s-%s", FAMILY_SHORT[c->family], SHORT[c->shape->size]);
}

cuzk_status fc_circuit_id_parse(const char *name, fc_circuit_id *out, cuzk_error *err)
{
    for (unsigned f = 0; name && f < FC_CIRCUIT_COUNT; f++)
        for (unsigned s = 0; s < FC_SIZE_COUNT; s++) {
            char buf[64];
            fc_circuit_id c = {(fc_circuit_family)f, &SHAPES[s]};
            fc_circuit_id_name(&c, buf, sizeof buf);
            if (!strcmp(buf, name)) {
                *out = c;
                return CUZK_OK;
            }
        }
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "circuit id \"%.100s\" unknown (e.g. porep-32g, winning-2k, "
                     "wpost-8m, snap-512m, snap-poseidon-64g)", name ? name : "(null)");
}

static void tree_suffix(const fc_sector_shape *s, char *out, size_t cap)
{
    snprintf(out, cap, "merkletree-poseidon_hasher-%u-%u-%u", s->base_arity, s->sub_arity, s->top_arity);
}

static void prefix(const fc_circuit_id *c, char *out, size_t cap)
{
    char tree[64];
    tree_suffix(c->shape, tree, sizeof tree);
    switch (c->family) {
    case FC_CIRCUIT_POREP: snprintf(out, cap, "stacked-proof-of-replication-%s-sha256_hasher", tree); break;
    case FC_CIRCUIT_WINNING_POST:
    case FC_CIRCUIT_WINDOW_POST: snprintf(out, cap, "proof-of-spacetime-fallback-%s", tree); break;
    case FC_CIRCUIT_SNAP: snprintf(out, cap, "empty-sector-update-%s", tree); break;
    default: snprintf(out, cap, "empty-sector-update-poseidon-%s", tree); break;
    }
}

void fc_param_identifier(const fc_circuit_id *c, char *out, size_t cap)
{
    const fc_sector_shape *s = c->shape;
    char tree[64];
    tree_suffix(s, tree, sizeof tree);
    switch (c->family) {
    case FC_CIRCUIT_POREP:
        snprintf(out, cap,
                 "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
                 "base_graph: drgraph::BucketGraph{size: %llu; degree: 6; hasher: poseidon_hasher} }, "
                 "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
                 (unsigned long long)s->nodes, s->layers, s->size >= FC_SIZE_32GIB ? 18u : 2u, tree);
        break;
    case FC_CIRCUIT_WINNING_POST:
        snprintf(out, cap, "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: 1, sector_count: 66}",
                 (unsigned long long)s->sector_bytes);
        break;
    case FC_CIRCUIT_WINDOW_POST:
        snprintf(out, cap, "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: 10, sector_count: %u}",
                 (unsigned long long)s->sector_bytes,
                 s->size == FC_SIZE_32GIB ? 2349u : s->size == FC_SIZE_64GIB ? 2300u : 2u);
        break;
    default:
        snprintf(out, cap, "empty_sector_update::PublicParams{ sector_nodes: %llu }", (unsigned long long)s->nodes);
        break;
    }
}

void fc_param_stem(const fc_circuit_id *c, char out[FC_PARAM_STEM_MAX])
{
    char pre[128], ident[512];
    prefix(c, pre, sizeof pre);
    fc_param_identifier(c, ident, sizeof ident);
    uint8_t h[32];
    sha256_native((const uint8_t *)ident, strlen(ident), h);
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    snprintf(out, FC_PARAM_STEM_MAX, "v28-%s-%s", pre, hex);
}

/* rust-fil-proofs parameters.json digests: [family][size] = {params, vk}. */
static const char *const DIGESTS[FC_CIRCUIT_COUNT][FC_SIZE_COUNT][2] = {
    [FC_CIRCUIT_POREP] = {{"434fb1338ecfaf0f59256f30dde4968f", "dc1ade9929ade1708238f155343044ac"},
                          {"09e612e4eeb7a0eb95679a88404f960c", "b687beb9adbd9dabe265a7e3620813e4"},
                          {"6c77597eb91ab936c1cef4cf19eba1b3", "065179da19fbe515507267677f02823e"},
                          {"6a388072a518cf46ebd661f5cc46900a", "0c7b4aac1c40fdb7eb82bc355b41addf"},
                          {"1801f8a6e1b00bceb00cc27314bb5ce3", "a89884252c04c298d0b3c81bfd884164"}},
    [FC_CIRCUIT_WINNING_POST] = {{"82c88066be968bb550a05e30ff6c2413", "ffd79788d614d27919ae5bd2d94eacb6"},
                                 {"700171ecf7334e3199437c930676af82", "79ebb55f56fda427743e35053edad8fc"},
                                 {"827359440349fe8f5a016e7598993b79", "bd2cd62f65c1ab84f19ca27e97b7c731"},
                                 {"d84f79a16fe40e9e25a36e2107bb1ba0", "fc02943678dd119e69e7fab8420e8819"},
                                 {"2170a91ad5bae22ea61f2ea766630322", "6d3789148fb6466d07ee1e24d6292fd6"}},
    [FC_CIRCUIT_WINDOW_POST] = {{"7610b9f82bfc88405b7a832b651ce2f6", "0e0958009936b9d5e515ec97b8cb792d"},
                                {"c49499bb76a0762884896f9683403f55", "34d4feeacd9abf788d69ef1bb4d8fd00"},
                                {"1a7d4a9c8a502a497ed92a54366af33f", "4dae975de4f011f101f5a2f86d1daaba"},
                                {"2cf49eb26f1fee94c85781a390ddb4c8", "0f8ec542485568fa3468c066e9fed82b"},
                                {"3810b7780ac0e299b22ae70f1f94c9bc", "59d2bf1857adc59a4f08fcf2afaa916b"}},
    [FC_CIRCUIT_SNAP] = {{"311f92a3e75036ced01b1c0025f1fa0c", "eadad9784969890d30f2749708c79771"},
                         {"5aedd2cf3e5c0a15623d56a1b43110ad", "abd80269054d391a734febdac0d2e687"},
                         {"c3ad7bb549470b82ad52ed070aebb4f4", "994c5b7d450ca9da348c910689f2dc7f"},
                         {"1b3cfd761a961543f9eb273e435a06a2", "3a6941983754737fde880d29c7094905"},
                         {"1a392e7b759fb18e036c7559b5ece816", "80e366df2f1011953c2d01c7b7c9ee8e"}},
    [FC_CIRCUIT_SNAP_POSEIDON] = {{NULL, NULL},
                                  {NULL, NULL},
                                  {NULL, NULL},
                                  {"b69983b5d7a97a20f43b3d5ff2a4ed04", "1ac05784f304129f74c5184190c1ec78"},
                                  {"a6d4f96e2b641a6d7a1a8e6dc1155c8a", "8e8fb9e2c56eb5d740d0de135305a7b8"}},
};

const char *fc_param_digest(const fc_circuit_id *c, bool vk)
{
    return DIGESTS[c->family][c->shape->size][vk ? 1 : 0];
}

fc_circuit_id fc_seal_circuit(const fc_seal_proof *p)
{
    return (fc_circuit_id){FC_CIRCUIT_POREP, p->shape};
}

fc_circuit_id fc_post_circuit(const fc_post_proof *p)
{
    return (fc_circuit_id){p->winning ? FC_CIRCUIT_WINNING_POST : FC_CIRCUIT_WINDOW_POST, p->shape};
}

fc_circuit_id fc_snap_circuit(const fc_snap_proof *p, bool poseidon)
{
    return (fc_circuit_id){poseidon ? FC_CIRCUIT_SNAP_POSEIDON : FC_CIRCUIT_SNAP, p->shape};
}

/* ---- prover ids ---- */

void fc_prover_id_from_actor(uint64_t actor_id, uint8_t out[32])
{
    memset(out, 0, 32);
    unsigned i = 0;
    do {
        uint8_t b = actor_id & 0x7f;
        actor_id >>= 7;
        out[i++] = b | (actor_id ? 0x80 : 0);
    } while (actor_id);
}

cuzk_status fc_actor_from_prover_id(const uint8_t prover_id[32], uint64_t *actor_id, cuzk_error *err)
{
    uint64_t v = 0;
    unsigned i = 0;
    for (;; i++) {
        if (i >= 10)
            return cuzk_fail(err, CUZK_E_FORMAT, "prover_id: LEB128 actor id longer than 10 bytes");
        uint8_t b = prover_id[i];
        if (i == 9 && b > 1)
            return cuzk_fail(err, CUZK_E_FORMAT, "prover_id: LEB128 actor id overflows 64 bits");
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    if (i > 0 && prover_id[i] == 0)
        return cuzk_fail(err, CUZK_E_FORMAT, "prover_id: LEB128 actor id not minimal (byte %u is 0)", i);
    for (unsigned j = i + 1; j < 32; j++)
        if (prover_id[j])
            return cuzk_fail(err, CUZK_E_FORMAT, "prover_id: byte %u after the LEB128 actor id is 0x%02x, not 0",
                             j, prover_id[j]);
    *actor_id = v;
    return CUZK_OK;
}
