/* SHA-256 circuit; contracts in sha256.h. Order of allocations and constraints follows
 * bellperson gadgets/sha256.rs sha256_compression_function exactly. */
#include <stdlib.h>

#include "common/sha256.h"
#include "gadgets/sha256.h"

void sha256_iv(u32g out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = u32_const(cuzk_sha256_h0[i]);
}

/* A "maybe deferred" working variable: either a concrete word or a list of addends. */
typedef struct {
    bool deferred;
    unsigned n;
    u32g w[8];
} maybe_word;

static u32g maybe_compute(multieq *m, maybe_word *x, const u32g *extra)
{
    if (!x->deferred)
        return x->w[0];
    u32g ops[9];
    for (unsigned i = 0; i < x->n; i++)
        ops[i] = x->w[i];
    unsigned n = x->n;
    if (extra)
        ops[n++] = *extra;
    return u32_addmany(m, ops, n);
}

static u32g sigma(cs_t *cs, const u32g *x, unsigned r1, unsigned r2, unsigned r3, bool shift)
{
    u32g s = u32_rotr(x, r1), t = u32_rotr(x, r2);
    s = u32_xor(cs, &s, &t);
    t = shift ? u32_shr(x, r3) : u32_rotr(x, r3);
    return u32_xor(cs, &s, &t);
}

void sha256_compress_circuit(cs_t *cs, const gbool block[512], const u32g state[8],
                             u32g out[8])
{
    u32g *w = malloc(64 * sizeof *w);
    if (!w) {
        cs_set_error(cs, CUZK_E_NOMEM, "sha256_compress_circuit: out of memory");
        return;
    }
    u32g in[8];
    for (int i = 0; i < 8; i++)
        in[i] = state[i];
    for (int i = 0; i < 16; i++)
        w[i] = u32_from_bits_be(block + 32 * i);

    multieq m;
    multieq_init(&m, cs);
    for (int i = 16; i < 64; i++) {
        cs_ns_push(cs, "w extension %d", i);
        u32g ops[4];
        ops[0] = w[i - 16];
        ops[1] = sigma(cs, &w[i - 15], 7, 18, 3, true);
        ops[2] = w[i - 7];
        ops[3] = sigma(cs, &w[i - 2], 17, 19, 10, true);
        w[i] = u32_addmany(&m, ops, 4);
        cs_ns_pop(cs);
    }

    maybe_word a = {false, 1, {in[0]}}, e = {false, 1, {in[4]}};
    u32g b = in[1], c = in[2], d = in[3], f = in[5], g = in[6], h = in[7];
    for (int i = 0; i < 64; i++) {
        cs_ns_push(cs, "compression round %d", i);
        u32g new_e = maybe_compute(&m, &e, NULL);
        u32g s1 = sigma(cs, &new_e, 6, 11, 25, false);
        u32g ch = u32_sha256_ch(cs, &new_e, &f, &g);
        u32g temp1[5] = {h, s1, ch, u32_const(cuzk_sha256_k[i]), w[i]};
        u32g new_a = maybe_compute(&m, &a, NULL);
        u32g s0 = sigma(cs, &new_a, 2, 13, 22, false);
        u32g maj = u32_sha256_maj(cs, &new_a, &b, &c);
        h = g;
        g = f;
        f = new_e;
        e.deferred = true;
        e.n = 6;
        for (int k = 0; k < 5; k++)
            e.w[k] = temp1[k];
        e.w[5] = d;
        d = c;
        c = b;
        b = new_a;
        a.deferred = true;
        a.n = 7;
        for (int k = 0; k < 5; k++)
            a.w[k] = temp1[k];
        a.w[5] = s0;
        a.w[6] = maj;
        cs_ns_pop(cs);
    }

    u32g r[8], pair[2];
    r[0] = maybe_compute(&m, &a, &in[0]);
    const u32g *tail[3] = {&b, &c, &d};
    for (int k = 0; k < 3; k++) {
        pair[0] = in[1 + k];
        pair[1] = *tail[k];
        r[1 + k] = u32_addmany(&m, pair, 2);
    }
    r[4] = maybe_compute(&m, &e, &in[4]);
    const u32g *tail2[3] = {&f, &g, &h};
    for (int k = 0; k < 3; k++) {
        pair[0] = in[5 + k];
        pair[1] = *tail2[k];
        r[5 + k] = u32_addmany(&m, pair, 2);
    }
    multieq_flush(&m);
    multieq_free(&m);
    free(w);
    for (int i = 0; i < 8; i++)
        out[i] = r[i];
}

void sha256_circuit(cs_t *cs, const gbool *bits, size_t nbits, gbool digest[256])
{
    if (nbits % 8) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "sha256_circuit: %zu bits is not whole bytes", nbits);
        return;
    }
    size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
    gbool *p = malloc(total * sizeof *p);
    if (!p) {
        cs_set_error(cs, CUZK_E_NOMEM, "sha256_circuit: out of memory for %zu bits", total);
        return;
    }
    for (size_t i = 0; i < nbits; i++)
        p[i] = bits[i];
    p[nbits] = gb_const(true);
    for (size_t i = nbits + 1; i < total - 64; i++)
        p[i] = gb_const(false);
    uint64_t len = nbits;
    for (int i = 0; i < 64; i++)
        p[total - 64 + i] = gb_const((len >> (63 - i)) & 1);

    u32g st[8];
    sha256_iv(st);
    for (size_t blk = 0; blk < total / 512; blk++) {
        cs_ns_push(cs, "block %zu", blk);
        sha256_compress_circuit(cs, p + 512 * blk, st, st);
        cs_ns_pop(cs);
    }
    free(p);
    for (int i = 0; i < 8; i++)
        u32_into_bits_be(&st[i], digest + 32 * i);
}
