/* Registered proof tables against the published values: every v28 parameter file stem of
 * rust-fil-proofs parameters.json (the manifest names, recomputed from the identifier strings of
 * docs/formats.md#parameter-file-names-and-digests), partition/challenge counts of filecoin-proofs
 * parameters.rs, PoSt and SnapDeals shapes of constants.rs / storage-proofs-update constants.rs,
 * porep_id layout (rust-filecoin-proofs-api registry.rs) and the prover-id LEB128 examples of
 * docs/formats.md#prover-id. */
#include <string.h>

#include "check.h"
#include "filecoin/core/registry.h"

static const struct {
    fc_circuit_family family;
    fc_size_class size;
    const char *stem;
} STEMS[] = {
    {FC_CIRCUIT_POREP, FC_SIZE_2KIB, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
    {FC_CIRCUIT_WINNING_POST, FC_SIZE_2KIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {FC_CIRCUIT_WINDOW_POST, FC_SIZE_2KIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
    {FC_CIRCUIT_SNAP, FC_SIZE_2KIB, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
    {FC_CIRCUIT_POREP, FC_SIZE_8MIB, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
    {FC_CIRCUIT_WINNING_POST, FC_SIZE_8MIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
    {FC_CIRCUIT_WINDOW_POST, FC_SIZE_8MIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {FC_CIRCUIT_SNAP, FC_SIZE_8MIB, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
    {FC_CIRCUIT_POREP, FC_SIZE_512MIB, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
    {FC_CIRCUIT_WINNING_POST, FC_SIZE_512MIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {FC_CIRCUIT_WINDOW_POST, FC_SIZE_512MIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
    {FC_CIRCUIT_SNAP, FC_SIZE_512MIB, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
    {FC_CIRCUIT_POREP, FC_SIZE_32GIB, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
    {FC_CIRCUIT_WINNING_POST, FC_SIZE_32GIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {FC_CIRCUIT_WINDOW_POST, FC_SIZE_32GIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
    {FC_CIRCUIT_SNAP, FC_SIZE_32GIB, "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {FC_CIRCUIT_SNAP_POSEIDON, FC_SIZE_32GIB, "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {FC_CIRCUIT_POREP, FC_SIZE_64GIB, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
    {FC_CIRCUIT_WINNING_POST, FC_SIZE_64GIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    {FC_CIRCUIT_WINDOW_POST, FC_SIZE_64GIB, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    {FC_CIRCUIT_SNAP, FC_SIZE_64GIB, "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
    {FC_CIRCUIT_SNAP_POSEIDON, FC_SIZE_64GIB, "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
};

static void test_stems(void)
{
    for (size_t i = 0; i < sizeof STEMS / sizeof STEMS[0]; i++) {
        fc_circuit_id c = {STEMS[i].family, fc_sector_shape_of(STEMS[i].size)};
        char stem[FC_PARAM_STEM_MAX];
        fc_param_stem(&c, stem);
        CHECK(!strcmp(stem, STEMS[i].stem), "stem %s %s:\n  got  %s\n  want %s", fc_circuit_family_name(c.family),
              c.shape->name, stem, STEMS[i].stem);
        CHECK(fc_param_digest(&c, false) && fc_param_digest(&c, true), "digest for %s", stem);
        char name[64];
        fc_circuit_id back;
        fc_circuit_id_name(&c, name, sizeof name);
        CHECK(fc_circuit_id_parse(name, &back, NULL) == CUZK_OK && back.family == c.family && back.shape == c.shape,
              "circuit id %s round trip", name);
    }
    fc_circuit_id c = {FC_CIRCUIT_POREP, fc_sector_shape_of(FC_SIZE_32GIB)};
    char name[64];
    fc_circuit_id_name(&c, name, sizeof name);
    CHECK(!strcmp(name, "porep-32g"), "porep-32g: %s", name);
}

static void test_seal(void)
{
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(20, &p, &err) == CUZK_E_UNSUPPORTED && strstr(err.msg, "20"), "id 20 refused: %s",
          err.msg);
    CHECK(fc_seal_proof_get(8, &p, NULL) == CUZK_OK && !strcmp(p->name, "StackedDrg32GiBV1_1") &&
              p->partitions == 10 && p->challenges_per_partition == 18 && p->min_challenges == 176 &&
              p->api == FC_API_1_1 && p->shape->layers == 11 && !strcmp(p->vanilla_variant, "StackedDrg32GiBV1"),
          "id 8");
    CHECK(fc_seal_proof_get(6, &p, NULL) == CUZK_OK && p->porep_id[0] == 6 && p->porep_id[1] == 0 &&
              p->partitions == 1 && p->challenges_per_partition == 2,
          "id 6 porep_id / partitions");
    CHECK(fc_seal_proof_get(18, &p, NULL) == CUZK_OK && p->partitions == 126 && p->min_challenges == 2253 &&
              p->feature == FC_POREP_NON_INTERACTIVE && !strcmp(p->name, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"),
          "id 18");
    CHECK(fc_seal_proof_get(15, &p, NULL) == CUZK_OK && p->partitions == 13 && p->min_challenges == 26, "id 15");
    CHECK(fc_seal_proof_get(12, &p, NULL) == CUZK_OK && p->feature == FC_POREP_SYNTHETIC && p->api == FC_API_1_2 &&
              !strcmp(p->name, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep"),
          "id 12");
    CHECK(fc_seal_proof_get(4, &p, NULL) == CUZK_OK && p->api == FC_API_1_0 && p->shape->top_arity == 2, "id 4");
    const fc_seal_proof *q;
    CHECK(fc_seal_proof_by_name("StackedDrg2KiBV1_1", &q, NULL) == CUZK_OK && q->id == 5, "by name");
    CHECK(fc_seal_proof_by_name("StackedDrg2KiBV9", &q, &err) == CUZK_E_UNSUPPORTED, "bad name");
    /* every id: challenges per partition = ceil(min / partitions) capped at 18 (parameters.rs) */
    for (unsigned id = 0; id < FC_SEAL_PROOF_COUNT; id++) {
        fc_seal_proof_get(id, &p, NULL);
        unsigned c = (p->min_challenges + p->partitions - 1) / p->partitions;
        CHECK((c > 18 ? 18 : c) == p->challenges_per_partition, "id %u challenges", id);
        CHECK(p->shape->nodes * 32 == p->shape->sector_bytes && (1ull << p->shape->log2_nodes) == p->shape->nodes,
              "id %u shape", id);
    }
}

static void test_post_update(void)
{
    const fc_post_proof *p;
    CHECK(fc_post_proof_get(3, &p, NULL) == CUZK_OK && p->winning && p->sector_count == 66 && p->challenge_count == 1 &&
              !strcmp(p->name, "StackedDrgWinning32GiBV1"),
          "post 3");
    CHECK(fc_post_proof_get(8, &p, NULL) == CUZK_OK && !p->winning && p->sector_count == 2349 &&
              p->challenge_count == 10 && p->api == FC_API_1_0,
          "post 8");
    CHECK(fc_post_proof_get(14, &p, NULL) == CUZK_OK && p->sector_count == 2300 && p->api == FC_API_1_2 &&
              !strcmp(p->name, "StackedDrgWindow64GiBV1_2"),
          "post 14");
    CHECK(fc_post_proof_get(15, &p, NULL) == CUZK_E_UNSUPPORTED, "post 15");
    const fc_snap_proof *u;
    static const unsigned parts[5] = {1, 4, 16, 16, 16}, ch[5] = {10, 10, 86, 86, 86}, apex[5] = {8, 128, 128, 128, 128};
    for (unsigned id = 0; id < 5; id++) {
        CHECK(fc_snap_proof_get(id, &u, NULL) == CUZK_OK && u->partitions == parts[id] && u->challenges == ch[id] &&
                  u->apex_leaves == apex[id] && u->h == (id == 0 ? 1u : 10u) && u->h_select == (id == 0 ? 1u : 8u),
              "update %u", id);
    }
    CHECK(fc_snap_proof_get(3, &u, NULL) == CUZK_OK && u->poseidon_challenges == 1376, "1376");
    CHECK(fc_snap_proof_get(5, &u, NULL) == CUZK_E_UNSUPPORTED, "update 5");
}

static void test_prover_id(void)
{
    uint8_t id[32];
    uint64_t a;
    fc_prover_id_from_actor(1000, id);
    CHECK(id[0] == 0xe8 && id[1] == 0x07 && id[2] == 0, "1000");
    CHECK(fc_actor_from_prover_id(id, &a, NULL) == CUZK_OK && a == 1000, "1000 back");
    fc_prover_id_from_actor(128, id);
    CHECK(id[0] == 0x80 && id[1] == 0x01 && id[2] == 0, "128");
    fc_prover_id_from_actor(1006, id);
    CHECK(id[0] == 0xee && id[1] == 0x07, "1006 (fixture prover_id ee 07)");
    fc_prover_id_from_actor(0, id);
    CHECK(id[0] == 0 && fc_actor_from_prover_id(id, &a, NULL) == CUZK_OK && a == 0, "0");
    fc_prover_id_from_actor(UINT64_MAX, id);
    CHECK(fc_actor_from_prover_id(id, &a, NULL) == CUZK_OK && a == UINT64_MAX, "max");
    id[31] = 1;
    CHECK(fc_actor_from_prover_id(id, &a, NULL) == CUZK_E_FORMAT, "trailing byte refused");
    memset(id, 0, 32);
    id[0] = 0x80; /* non-minimal: 0x80 0x00 */
    CHECK(fc_actor_from_prover_id(id, &a, NULL) == CUZK_E_FORMAT, "non-minimal refused");
}

int main(void)
{
    test_stems();
    test_seal();
    test_post_update();
    test_prover_id();
    return check_summary("filecoin_registry");
}
