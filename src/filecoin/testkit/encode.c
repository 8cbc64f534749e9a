/* Field-element encodings of replica nodes; contracts in encode.h. */
#include "filecoin/testkit/encode.h"

static cuzk_status load(fr_t *x, const uint8_t b[32], const char *what, cuzk_error *err)
{
    if (fr_from_bytes_le(x, b) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s node is not a canonical field element", what);
    return CUZK_OK;
}

cuzk_status fc_encode_node(const uint8_t data[32], const uint8_t key[32], uint8_t out[32], cuzk_error *err)
{
    fr_t d, k;
    cuzk_status st = load(&d, data, "data", err);
    if (st == CUZK_OK)
        st = load(&k, key, "key", err);
    if (st == CUZK_OK) {
        fr_add(&d, &d, &k);
        fr_to_bytes_le(out, &d);
    }
    return st;
}

cuzk_status fc_snap_encode_node(const uint8_t old[32], const uint8_t data[32], const fr_t *rho, uint8_t out[32],
                                cuzk_error *err)
{
    fr_t o, d;
    cuzk_status st = load(&o, old, "old", err);
    if (st == CUZK_OK)
        st = load(&d, data, "data", err);
    if (st == CUZK_OK) {
        fr_mul(&d, &d, rho);
        fr_add(&o, &o, &d);
        fr_to_bytes_le(out, &o);
    }
    return st;
}
