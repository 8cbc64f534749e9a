/* Tests of one group (G1 or G2), instantiated twice by test_curve.c after defining:
 *   G(name)     the group's API function, e.g. g1_##name
 *   T(name)     this file's function names, e.g. t1_##name
 *   AFF, JAC, FE                 point and field element types
 *   UNC, COMP                    encoding lengths
 *   GROUP                        "g1" / "g2" (oracle line prefix)
 *   FE_MUL, FE_SQR, FE_ADD, FE_SUB, FE_EQ, FE_SQRT   field operations
 *   FE_MAKE(r, seed)             a field element derived from a 64-bit seed
 *   COFACTOR_HEX                 the cofactor h as big-endian hex
 *
 * Oracle lines (format: tests/oracle/gen-curve.mjs) are checked byte for byte against
 * @noble/curves; the property checks need no oracle.
 */

/* Decode an oracle point token (uncompressed, any point on the curve). */
static bool T(parse_point)(AFF *p, const char *hex)
{
    uint8_t buf[UNC];
    if (hex_decode(buf, sizeof buf, hex) != UNC)
        return false;
    return G(from_bytes)(p, buf, UNC, false) == CUZK_OK;
}

static bool T(affine_matches)(const AFF *p, const char *hex)
{
    uint8_t enc[UNC];
    char got[2 * UNC + 1];
    G(to_uncompressed)(enc, p);
    hex_encode(got, enc, UNC);
    return strcmp(got, hex) == 0;
}

static bool T(jac_matches)(const JAC *p, const char *hex)
{
    AFF a;
    G(affine_from_jac)(&a, p);
    return T(affine_matches)(&a, hex);
}

/* (X z^2, Y z^3, z): the same point with a non-trivial Z, so formulas are exercised
 * beyond Z = 1. */
static void T(rescale)(JAC *r, const AFF *p, uint64_t seed)
{
    G(jac_from_affine)(r, p);
    if (G(affine_is_infinity)(p))
        return;
    FE z, z2, z3;
    FE_MAKE(&z, seed);
    FE_SQR(&z2, &z);
    FE_MUL(&z3, &z2, &z);
    FE_MUL(&r->x, &r->x, &z2);
    FE_MUL(&r->y, &r->y, &z3);
    r->z = z;
}

static uint64_t T(seed) = 1000;

static void T(check_add)(char **tok)
{
    AFF p, q;
    CHECK(T(parse_point)(&p, tok[1]) && T(parse_point)(&q, tok[2]), "%s_add: parse", GROUP);
    JAC a, b, r;
    G(jac_from_affine)(&a, &p);
    G(jac_from_affine)(&b, &q);
    G(add)(&r, &a, &b);
    CHECK(T(jac_matches)(&r, tok[3]), "%s_add affine inputs: %s + %s", GROUP, tok[1], tok[2]);
    T(rescale)(&a, &p, T(seed)++);
    T(rescale)(&b, &q, T(seed)++);
    G(add)(&r, &a, &b);
    CHECK(T(jac_matches)(&r, tok[3]), "%s_add rescaled: %s + %s", GROUP, tok[1], tok[2]);
    G(add_mixed)(&r, &a, &q);
    CHECK(T(jac_matches)(&r, tok[3]), "%s_add_mixed: %s + %s", GROUP, tok[1], tok[2]);
    JAC alias = a;
    G(add_mixed)(&alias, &alias, &q);
    CHECK(T(jac_matches)(&alias, tok[3]), "%s_add_mixed aliased", GROUP);
    alias = b;
    G(add)(&alias, &a, &alias);
    CHECK(T(jac_matches)(&alias, tok[3]), "%s_add aliased", GROUP);
}

static void T(check_dbl)(char **tok)
{
    AFF p;
    CHECK(T(parse_point)(&p, tok[1]), "%s_dbl: parse", GROUP);
    JAC a, r;
    T(rescale)(&a, &p, T(seed)++);
    G(dbl)(&r, &a);
    CHECK(T(jac_matches)(&r, tok[2]), "%s_dbl: 2 * %s", GROUP, tok[1]);
    G(dbl)(&a, &a);
    CHECK(T(jac_matches)(&a, tok[2]), "%s_dbl aliased", GROUP);
}

static void T(check_neg)(char **tok)
{
    AFF p, n;
    CHECK(T(parse_point)(&p, tok[1]), "%s_neg: parse", GROUP);
    G(affine_neg)(&n, &p);
    CHECK(T(affine_matches)(&n, tok[2]), "%s_affine_neg %s", GROUP, tok[1]);
    JAC a;
    T(rescale)(&a, &p, T(seed)++);
    G(jac_neg)(&a, &a);
    CHECK(T(jac_matches)(&a, tok[2]), "%s_jac_neg %s", GROUP, tok[1]);
}

static void T(check_mul)(char **tok)
{
    AFF p;
    CHECK(T(parse_point)(&p, tok[1]), "%s_mul: parse", GROUP);
    uint8_t kb[128];
    long nb = hex_decode(kb, sizeof kb, tok[2]);
    CHECK(nb > 0, "%s_mul: scalar %s", GROUP, tok[2]);
    if (nb <= 0)
        return;
    uint64_t k[17] = {0};
    for (long i = 0; i < nb; i++)
        k[i / 8] |= (uint64_t)kb[nb - 1 - i] << (8 * (i % 8));
    size_t nlimbs = ((size_t)nb + 7) / 8;
    JAC a, r;
    T(rescale)(&a, &p, T(seed)++);
    G(mul)(&r, &a, k, nlimbs);
    CHECK(T(jac_matches)(&r, tok[3]), "%s_mul: [%s] %s", GROUP, tok[2], tok[1]);
    G(mul)(&a, &a, k, nlimbs + 1); /* aliased, with a leading zero limb */
    CHECK(T(jac_matches)(&a, tok[3]), "%s_mul aliased/padded: [%s]", GROUP, tok[2]);
    fr_t kf;
    if (nlimbs <= FR_LIMBS && fr_from_limbs(&kf, k) == CUZK_OK) {
        G(jac_from_affine)(&a, &p);
        G(mul_fr)(&r, &a, &kf);
        CHECK(T(jac_matches)(&r, tok[3]), "%s_mul_fr: [%s]", GROUP, tok[2]);
    }
}

static void T(check_gen)(char **tok)
{
    AFF g;
    G(generator)(&g);
    uint8_t u[UNC], c[COMP];
    char hu[2 * UNC + 1], hc[2 * COMP + 1];
    G(to_uncompressed)(u, &g);
    G(to_compressed)(c, &g);
    hex_encode(hu, u, UNC);
    hex_encode(hc, c, COMP);
    CHECK(strcmp(hu, tok[1]) == 0, "%s generator uncompressed %s", GROUP, hu);
    CHECK(strcmp(hc, tok[2]) == 0, "%s generator compressed %s", GROUP, hc);
    CHECK(G(affine_is_on_curve)(&g) && G(affine_in_subgroup)(&g), "%s generator checks", GROUP);
}

/* Both encodings decode (with and without the subgroup check) to the same point, and
 * encoding that point reproduces both byte strings. `in_subgroup` selects the expected
 * result of the checked decode. */
static void T(check_encodings)(char **tok, bool in_subgroup)
{
    uint8_t u[UNC], c[COMP];
    CHECK(hex_decode(u, UNC, tok[1]) == UNC && hex_decode(c, COMP, tok[2]) == COMP,
          "%s enc: hex", GROUP);
    AFF pu, pc;
    cuzk_status su = G(from_bytes)(&pu, u, UNC, false);
    cuzk_status sc = G(from_bytes)(&pc, c, COMP, false);
    CHECK(su == CUZK_OK && sc == CUZK_OK, "%s decode %s / %s: %s %s", GROUP, tok[1], tok[2],
          cuzk_status_name(su), cuzk_status_name(sc));
    if (su != CUZK_OK || sc != CUZK_OK)
        return;
    CHECK(G(affine_eq)(&pu, &pc), "%s compressed and uncompressed decode differ: %s", GROUP, tok[2]);
    CHECK(G(affine_is_on_curve)(&pu), "%s decoded point not on curve", GROUP);
    uint8_t ru[UNC], rc[COMP];
    G(to_uncompressed)(ru, &pc);
    G(to_compressed)(rc, &pu);
    CHECK(memcmp(ru, u, UNC) == 0 && memcmp(rc, c, COMP) == 0, "%s re-encode %s", GROUP, tok[1]);
    CHECK(G(affine_in_subgroup)(&pu) == in_subgroup, "%s in_subgroup(%s) != %d", GROUP, tok[1],
          in_subgroup);
    cuzk_status want = in_subgroup ? CUZK_OK : CUZK_E_POINT_NOT_IN_SUBGROUP;
    CHECK(G(from_bytes)(&pu, u, UNC, true) == want && G(from_bytes)(&pc, c, COMP, true) == want,
          "%s checked decode of %s", GROUP, tok[1]);
    /* The endomorphism check agrees with the definition [r]P == 0. */
    JAC a;
    G(jac_from_affine)(&a, &pu);
    G(mul)(&a, &a, FR_MODULUS, FR_LIMBS);
    CHECK(G(jac_is_infinity)(&a) == in_subgroup, "%s [r]P == 0 disagrees for %s", GROUP, tok[1]);
}

static void T(check_bad)(char **tok)
{
    uint8_t buf[512];
    long n = hex_decode(buf, sizeof buf, tok[1]);
    CHECK(n > 0, "%s_bad: hex", GROUP);
    if (n <= 0)
        return;
    bool sub = strcmp(tok[3], "1") == 0;
    AFF sentinel, r;
    G(generator)(&sentinel);
    r = sentinel;
    cuzk_error err = {CUZK_OK, ""};
    cuzk_status s = G(from_bytes_err)(&r, buf, (size_t)n, sub, &err);
    CHECK(strcmp(cuzk_status_name(s), tok[2]) == 0, "%s decode %s (sub=%d): got %s, want %s",
          GROUP, tok[1], sub, cuzk_status_name(s), tok[2]);
    CHECK(err.code == s && err.msg[0] != 0, "%s error record for %s", GROUP, tok[2]);
    CHECK(G(affine_eq)(&r, &sentinel), "%s failed decode wrote its output", GROUP);
    CHECK(G(from_bytes)(&r, buf, (size_t)n, sub) == s, "%s from_bytes/from_bytes_err differ", GROUP);
}

static bool T(run_line)(char **tok, int ntok)
{
    const char *op = tok[0] + 3; /* after "g1_" */
    if (!strcmp(op, "gen") && ntok == 3)
        T(check_gen)(tok);
    else if (!strcmp(op, "enc") && ntok == 3)
        T(check_encodings)(tok, true);
    else if (!strcmp(op, "nonsub") && ntok == 3)
        T(check_encodings)(tok, false);
    else if (!strcmp(op, "add") && ntok == 4)
        T(check_add)(tok);
    else if (!strcmp(op, "dbl") && ntok == 3)
        T(check_dbl)(tok);
    else if (!strcmp(op, "neg") && ntok == 3)
        T(check_neg)(tok);
    else if (!strcmp(op, "mul") && ntok == 4)
        T(check_mul)(tok);
    else if (!strcmp(op, "bad") && ntok == 4)
        T(check_bad)(tok);
    else
        return false;
    return true;
}

/* ---- properties (no oracle) ---- */

static void T(random_subgroup_point)(JAC *r, fr_t *k, uint64_t *state)
{
    uint64_t l[FR_LIMBS];
    for (int i = 0; i < FR_LIMBS; i++)
        l[i] = splitmix64(state);
    fr_from_limbs_reduce(k, l);
    AFF g;
    G(generator)(&g);
    JAC gj;
    G(jac_from_affine)(&gj, &g);
    G(mul_fr)(r, &gj, k);
}

/* A point of E (generally outside the subgroup) with x derived from `seed`. */
static void T(curve_point)(AFF *p, uint64_t seed)
{
    AFF g;
    G(generator)(&g);
    FE b, t;
    FE_SQR(&b, &g.y); /* b = y^2 - x^3 of the generator */
    FE_SQR(&t, &g.x);
    FE_MUL(&t, &t, &g.x);
    FE_SUB(&b, &b, &t);
    for (;; seed++) {
        FE_MAKE(&p->x, seed);
        FE_SQR(&t, &p->x);
        FE_MUL(&t, &t, &p->x);
        FE_ADD(&t, &t, &b);
        if (FE_SQRT(&p->y, &t))
            return;
    }
}

static void T(properties)(void)
{
    uint64_t st = 0x5eed;
    AFF g;
    G(generator)(&g);
    JAC gj, t;
    G(jac_from_affine)(&gj, &g);
    G(mul)(&t, &gj, FR_MODULUS, FR_LIMBS);
    CHECK(G(jac_is_infinity)(&t), "%s [r]G != 0", GROUP);
    uint64_t zero = 0;
    G(mul)(&t, &gj, &zero, 1);
    CHECK(G(jac_is_infinity)(&t), "%s [0]G != 0", GROUP);
    G(mul)(&t, &gj, NULL, 0);
    CHECK(G(jac_is_infinity)(&t), "%s mul with no limbs != 0", GROUP);

    for (int it = 0; it < 4; it++) {
        fr_t a, b, c, ab;
        JAC p, q, s, l, r;
        T(random_subgroup_point)(&p, &a, &st);
        T(random_subgroup_point)(&q, &b, &st);
        T(random_subgroup_point)(&s, &c, &st);
        /* [a]([b]G) == [ab]G */
        fr_mul(&ab, &a, &b);
        G(mul_fr)(&l, &q, &a);
        G(mul_fr)(&r, &gj, &ab);
        CHECK(G(jac_eq)(&l, &r), "%s [a]([b]G) != [ab]G", GROUP);
        /* [a]G + [b]G == [a+b]G */
        fr_t apb;
        fr_add(&apb, &a, &b);
        G(add)(&l, &p, &q);
        G(mul_fr)(&r, &gj, &apb);
        CHECK(G(jac_eq)(&l, &r), "%s [a]G + [b]G != [a+b]G", GROUP);
        /* associativity and commutativity with non-normalised Z */
        G(add)(&l, &p, &q);
        G(add)(&l, &l, &s);
        G(add)(&r, &q, &s);
        G(add)(&r, &p, &r);
        CHECK(G(jac_eq)(&l, &r), "%s (P+Q)+S != P+(Q+S)", GROUP);
        G(add)(&r, &q, &p);
        G(add)(&l, &p, &q);
        CHECK(G(jac_eq)(&l, &r), "%s P+Q != Q+P", GROUP);
        /* add with equal / opposite non-normalised inputs */
        JAC p2 = p;
        G(dbl)(&l, &p);
        G(add)(&r, &p, &p2);
        CHECK(G(jac_eq)(&l, &r), "%s P+P != 2P", GROUP);
        G(jac_neg)(&p2, &p);
        G(add)(&r, &p, &p2);
        CHECK(G(jac_is_infinity)(&r), "%s P-P != 0", GROUP);
        /* encodings round trip */
        AFF pa, back;
        G(affine_from_jac)(&pa, &p);
        uint8_t u[UNC], c8[COMP];
        G(to_uncompressed)(u, &pa);
        G(to_compressed)(c8, &pa);
        CHECK(G(from_bytes)(&back, u, UNC, true) == CUZK_OK && G(affine_eq)(&back, &pa),
              "%s uncompressed round trip", GROUP);
        CHECK(G(from_bytes)(&back, c8, COMP, true) == CUZK_OK && G(affine_eq)(&back, &pa),
              "%s compressed round trip", GROUP);
        CHECK(G(affine_in_subgroup)(&pa) && G(affine_is_on_curve)(&pa), "%s subgroup point", GROUP);
        CHECK(!G(jac_eq)(&p, &q) || fr_eq(&a, &b), "%s distinct points compare equal", GROUP);
    }

    /* batch_to_affine equals one-by-one conversion, with infinities anywhere */
    enum { N = 13 };
    JAC in[N];
    AFF out[N], one;
    for (size_t i = 0; i < N; i++) {
        fr_t k;
        T(random_subgroup_point)(&in[i], &k, &st);
        if (i == 0 || i == 5 || i == 6 || i == N - 1)
            G(jac_set_infinity)(&in[i]);
    }
    for (size_t n = 0; n <= N; n++) {
        G(batch_to_affine)(out, in, n);
        bool ok = true;
        for (size_t i = 0; i < n; i++) {
            G(affine_from_jac)(&one, &in[i]);
            ok = ok && G(affine_eq)(&one, &out[i]);
        }
        CHECK(ok, "%s batch_to_affine n=%zu", GROUP, n);
    }
    for (size_t i = 0; i < N; i++)
        G(jac_set_infinity)(&in[i]);
    G(batch_to_affine)(out, in, N);
    bool all_inf = true;
    for (size_t i = 0; i < N; i++)
        all_inf = all_inf && G(affine_is_infinity)(&out[i]);
    CHECK(all_inf, "%s batch_to_affine of all-infinity input", GROUP);

    /* subgroup check against the definition on curve points outside the subgroup and on
     * their cofactor-cleared multiples [h]P, which are inside */
    uint8_t hb[128];
    long hn = hex_decode(hb, sizeof hb, COFACTOR_HEX);
    uint64_t h[17] = {0};
    for (long i = 0; i < hn; i++)
        h[i / 8] |= (uint64_t)hb[hn - 1 - i] << (8 * (i % 8));
    for (uint64_t sd = 1; sd < 4000; sd += 997) {
        AFF p, cleared;
        T(curve_point)(&p, sd);
        CHECK(G(affine_is_on_curve)(&p), "%s curve point seed %llu", GROUP, (unsigned long long)sd);
        JAC pj, rp;
        G(jac_from_affine)(&pj, &p);
        G(mul)(&rp, &pj, FR_MODULUS, FR_LIMBS);
        CHECK(G(affine_in_subgroup)(&p) == G(jac_is_infinity)(&rp),
              "%s subgroup check disagrees with [r]P, seed %llu", GROUP, (unsigned long long)sd);
        CHECK(!G(affine_in_subgroup)(&p), "%s random point in subgroup", GROUP);
        G(mul)(&pj, &pj, h, ((size_t)hn + 7) / 8);
        G(affine_from_jac)(&cleared, &pj);
        G(mul)(&rp, &pj, FR_MODULUS, FR_LIMBS);
        CHECK(G(jac_is_infinity)(&rp) && G(affine_in_subgroup)(&cleared),
              "%s [h]P not in subgroup, seed %llu", GROUP, (unsigned long long)sd);
    }
}
