/* 192-byte bellperson proof encoding; contract in groth16.h. */
#include "groth16/groth16.h"

void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *proof)
{
    g1_to_compressed(out, &proof->a);
    g2_to_compressed(out + G1_COMPRESSED_BYTES, &proof->b);
    g1_to_compressed(out + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, &proof->c);
}

cuzk_status groth16_proof_from_bytes(groth16_proof_t *proof, const uint8_t in[GROTH16_PROOF_BYTES], cuzk_error *err)
{
    cuzk_status st = g1_from_bytes(&proof->a, in, G1_COMPRESSED_BYTES, true);
    if (st)
        return cuzk_fail(err, st, "proof A (bytes 0..47): %s", cuzk_status_name(st));
    st = g2_from_bytes(&proof->b, in + G1_COMPRESSED_BYTES, G2_COMPRESSED_BYTES, true);
    if (st)
        return cuzk_fail(err, st, "proof B (bytes 48..143): %s", cuzk_status_name(st));
    st = g1_from_bytes(&proof->c, in + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, G1_COMPRESSED_BYTES, true);
    if (st)
        return cuzk_fail(err, st, "proof C (bytes 144..191): %s", cuzk_status_name(st));
    return CUZK_OK;
}
