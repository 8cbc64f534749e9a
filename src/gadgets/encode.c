/* Replica node encoding; contracts in encode.h. */
#include "gadgets/encode.h"

anum encode_circuit(cs_t *cs, const anum *key, const anum *value)
{
    cs_ns_push(cs, "encode_add");
    anum r = anum_add(cs, key, value);
    cs_ns_pop(cs);
    return r;
}

void encode_native(fr_t *out, const fr_t *key, const fr_t *value)
{
    fr_add(out, key, value);
}
