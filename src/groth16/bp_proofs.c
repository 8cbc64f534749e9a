/* Concatenated 192-byte proofs (one per partition; docs/formats.md#groth16-proof-bytes);
 * contract in bellperson_params.h. */
#include "groth16/bp_internal.h"

cuzk_status bp_proofs_read(groth16_proof_t *out, size_t cap, size_t *n, const uint8_t *buf, size_t len,
                           cuzk_error *err)
{
    *n = 0;
    if (len == 0 || len % GROTH16_PROOF_BYTES)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "proof: section proof %zu at offset %zu: only %zu of %d bytes (input of %zu bytes is not "
                         "a positive multiple of %d)",
                         len / GROTH16_PROOF_BYTES, len - len % GROTH16_PROOF_BYTES, len % GROTH16_PROOF_BYTES,
                         GROTH16_PROOF_BYTES, len, GROTH16_PROOF_BYTES);
    size_t count = len / GROTH16_PROOF_BYTES;
    if (count > cap)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "proof: section proof %zu at offset %zu: %zu proofs given, at most %zu expected", cap,
                         cap * GROTH16_PROOF_BYTES, count, cap);
    static const struct {
        const char *name;
        size_t off, len;
    } el[3] = {{"A", 0, G1_COMPRESSED_BYTES},
               {"B", G1_COMPRESSED_BYTES, G2_COMPRESSED_BYTES},
               {"C", G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, G1_COMPRESSED_BYTES}};
    for (size_t k = 0; k < count; k++) {
        const uint8_t *p = buf + k * GROTH16_PROOF_BYTES;
        for (int e = 0; e < 3; e++) {
            cuzk_error pe = {0};
            size_t off = k * GROTH16_PROOF_BYTES + el[e].off;
            cuzk_status st = e == 1 ? g2_from_bytes_err(&out[k].b, p + el[e].off, el[e].len, true, &pe)
                                    : g1_from_bytes_err(e ? &out[k].c : &out[k].a, p + el[e].off, el[e].len, true, &pe);
            if (st)
                return cuzk_fail(err, st, "proof: section proof %zu element %s at offset %zu: %s", k, el[e].name, off,
                                 pe.msg[0] ? pe.msg : cuzk_status_name(st));
        }
    }
    *n = count;
    return CUZK_OK;
}
