/* UInt64 and the key xor gadget; contracts in uint64.h. */
#include "gadgets/uint64.h"
#include "gadgets/num.h"

u64g u64_const(uint64_t v)
{
    u64g x;
    for (int i = 0; i < 64; i++)
        x.bits[i] = gb_const((v >> i) & 1);
    x.value = v;
    return x;
}

u64g u64_alloc(cs_t *cs, uint64_t v)
{
    u64g x;
    for (int i = 0; i < 64; i++)
        x.bits[i] = gb_alloc(cs, (v >> i) & 1);
    x.value = v;
    return x;
}

void u64_to_bits_be(const u64g *x, gbool out[64])
{
    for (int i = 0; i < 64; i++)
        out[i] = x->bits[63 - i];
}

u64g u64_from_bits_be(const gbool bits[64])
{
    u64g x;
    x.value = 0;
    for (int i = 0; i < 64; i++) {
        x.bits[i] = bits[63 - i];
        x.value |= (uint64_t)x.bits[i].value << i;
    }
    return x;
}

void u64_pack_into_input(cs_t *cs, const u64g *x)
{
    pack_into_inputs(cs, x->bits, 64);
}

void gadget_xor_key(cs_t *cs, const gbool key[256], const gbool *input, size_t n, gbool *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = gb_xor(cs, input[i], key[i % 256]);
}
