/* Template for fixed_base.c: instantiated once for G1 and once for G2 with
 *   FB_AFF, FB_JAC  point types; FB(name) name mangling (g1_name / g2_name);
 *   FB_F            the coordinate field type; FBF(op) its operations (fp_op / fp2_op);
 *   FB_FN           the public function name.
 *
 * [k] G = sum over the windows w of table[w][digit_w(k)], table[w][d] = [d 2^(b w)] G with
 * b = 8 or 16 bits per window (32 or 16 windows).
 * The points of a chunk are accumulated window by window in affine form: in each window
 * every point of the chunk that takes a non-zero digit gets one affine addition, and the
 * chunk's denominators are inverted together (Montgomery's trick), so an addition costs
 * about 6 multiplications instead of a mixed Jacobian addition's 11. Equal or opposite
 * operands (never for random scalars, but possible) are done in Jacobian form instead. */

#define FB_CHUNK 1024u

struct FB_TABLE {
    unsigned win, windows, digits;
    FB_AFF *points; /* windows x digits */
};

typedef struct {
    const struct FB_TABLE *table;
    const fr_t *k;
    FB_AFF *out;
    size_t begin, end;
} FB(job_t);

static inline unsigned FB(digit)(const uint64_t limbs[4], unsigned w, unsigned win)
{
    unsigned off = w * win;
    return (unsigned)(limbs[off / 64] >> (off % 64)) & ((1u << win) - 1);
}

/* acc[i] += p[i] for the listed i, in affine form (acc[i] and p[i] not infinity). */
static void FB(batch_add)(FB_AFF *acc, const FB_AFF *const *p, const uint32_t *idx, size_t n, FB_F *den,
                          FB_F *prefix)
{
    /* den_i = x_p - x_acc; prefix products; one inversion; walk back */
    if (!n)
        return;
    FB_F run;
    for (size_t j = 0; j < n; j++) {
        FBF(sub)(&den[j], &p[j]->x, &acc[idx[j]].x);
        if (j == 0)
            run = den[j];
        else
            FBF(mul)(&run, &run, &den[j]);
        prefix[j] = run;
    }
    FB_F inv;
    FBF(inv)(&inv, &run);
    for (size_t jj = n; jj-- > 0;) {
        FB_F dinv;
        if (jj > 0) {
            FBF(mul)(&dinv, &inv, &prefix[jj - 1]);
            FBF(mul)(&inv, &inv, &den[jj]);
        } else {
            dinv = inv;
        }
        FB_AFF *a = &acc[idx[jj]];
        const FB_AFF *b = p[jj];
        FB_F lambda, t, x3;
        FBF(sub)(&t, &b->y, &a->y);
        FBF(mul)(&lambda, &t, &dinv);
        FBF(sqr)(&x3, &lambda);
        FBF(sub)(&x3, &x3, &a->x);
        FBF(sub)(&x3, &x3, &b->x);
        FBF(sub)(&t, &a->x, &x3);
        FBF(mul)(&t, &t, &lambda);
        FBF(sub)(&a->y, &t, &a->y);
        a->x = x3;
    }
}

static void *FB(worker)(void *arg)
{
    FB(job_t) *j = arg;
    FB_AFF acc[FB_CHUNK];
    bool inf[FB_CHUNK];
    uint64_t limbs[FB_CHUNK][4];
    const FB_AFF *pp[FB_CHUNK];
    uint32_t idx[FB_CHUNK];
    FB_F den[FB_CHUNK], prefix[FB_CHUNK];
    for (size_t base = j->begin; base < j->end; base += FB_CHUNK) {
        size_t n = j->end - base < FB_CHUNK ? j->end - base : FB_CHUNK;
        for (size_t i = 0; i < n; i++) {
            fr_to_limbs(limbs[i], &j->k[base + i]);
            inf[i] = true;
        }
        const struct FB_TABLE *tb = j->table;
        for (unsigned w = 0; w < tb->windows; w++) {
            const FB_AFF *tw = tb->points + (size_t)w * tb->digits;
            size_t nb = 0;
            for (size_t i = 0; i < n; i++) {
                unsigned d = FB(digit)(limbs[i], w, tb->win);
                if (!d)
                    continue;
                const FB_AFF *p = &tw[d];
                if (inf[i]) {
                    acc[i] = *p;
                    inf[i] = false;
                } else if (FBF(eq)(&acc[i].x, &p->x)) {
                    /* doubling or cancellation: complete Jacobian addition */
                    FB_JAC t;
                    FB(jac_from_affine)(&t, &acc[i]);
                    FB(add_mixed)(&t, &t, p);
                    FB(affine_from_jac)(&acc[i], &t);
                    inf[i] = FB(affine_is_infinity)(&acc[i]);
                } else {
                    pp[nb] = p;
                    idx[nb++] = (uint32_t)i;
                }
            }
            FB(batch_add)(acc, pp, idx, nb, den, prefix);
        }
        for (size_t i = 0; i < n; i++) {
            if (inf[i])
                FB(affine_set_infinity)(&j->out[base + i]);
            else
                j->out[base + i] = acc[i];
        }
    }
    return NULL;
}

typedef struct {
    struct FB_TABLE *t;
    const FB_JAC *bases; /* [2^(b w)] G per window */
    unsigned w_begin, w_end;
    bool ok;
} FB(table_job_t);

static void *FB(table_worker)(void *arg)
{
    FB(table_job_t) *t = arg;
    unsigned digits = t->t->digits;
    FB_JAC *row = malloc(digits * sizeof *row);
    t->ok = row != NULL;
    for (unsigned w = t->w_begin; row && w < t->w_end; w++) {
        FB(jac_set_infinity)(&row[0]);
        row[1] = t->bases[w];
        for (unsigned d = 2; d < digits; d++)
            FB(add)(&row[d], &row[d - 1], &t->bases[w]);
        FB(batch_to_affine)(t->t->points + (size_t)w * digits, row, digits);
    }
    free(row);
    return NULL;
}

static void FB(run_parallel)(void *(*fn)(void *), void *jobs, size_t job_size, unsigned njobs)
{
    pthread_t tid[64];
    unsigned spawned = 0;
    for (unsigned t = 1; t < njobs; t++) {
        if (pthread_create(&tid[spawned], NULL, fn, (char *)jobs + t * job_size) != 0) {
            fn((char *)jobs + t * job_size); /* could not start a thread: run it here */
            continue;
        }
        spawned++;
    }
    if (njobs)
        fn(jobs);
    for (unsigned t = 0; t < spawned; t++)
        pthread_join(tid[t], NULL);
}

cuzk_status FB_NEW(struct FB_TABLE **out, const FB_AFF *g, size_t expected_n, unsigned threads)
{
    *out = NULL;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    struct FB_TABLE *tb = calloc(1, sizeof *tb);
    if (!tb)
        return CUZK_E_NOMEM;
    /* 2^16-entry windows pay for their table (2^20 additions) only over many scalars */
    tb->win = expected_n >= ((size_t)1 << 17) ? 16 : 8;
    tb->windows = 256 / tb->win;
    tb->digits = 1u << tb->win;
    tb->points = malloc((size_t)tb->windows * tb->digits * sizeof *tb->points);
    if (!tb->points) {
        free(tb);
        return CUZK_E_NOMEM;
    }
    FB_JAC bases[32];
    FB(jac_from_affine)(&bases[0], g);
    for (unsigned w = 1; w < tb->windows; w++) {
        bases[w] = bases[w - 1];
        for (unsigned b = 0; b < tb->win; b++)
            FB(dbl)(&bases[w], &bases[w]);
    }
    FB(table_job_t) tj[32];
    unsigned nt = threads < tb->windows ? threads : tb->windows, per = (tb->windows + nt - 1) / nt, ntj = 0;
    for (unsigned t = 0; t < nt; t++) {
        unsigned a = t * per, b = a + per > tb->windows ? tb->windows : a + per;
        if (a < b)
            tj[ntj++] = (FB(table_job_t)){tb, bases, a, b, false};
    }
    FB(run_parallel)(FB(table_worker), tj, sizeof tj[0], ntj);
    for (unsigned t = 0; t < ntj; t++)
        if (!tj[t].ok) {
            FB_FREE(tb);
            return CUZK_E_NOMEM;
        }
    *out = tb;
    return CUZK_OK;
}

void FB_FREE(struct FB_TABLE *t)
{
    if (t) {
        free(t->points);
        free(t);
    }
}

void FB_MUL(const struct FB_TABLE *tb, FB_AFF *out, const fr_t *k, size_t n, unsigned threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    FB(job_t) jobs[64];
    size_t chunks = (n + FB_CHUNK - 1) / FB_CHUNK, per_c = (chunks + threads - 1) / threads;
    unsigned nj = 0;
    for (unsigned t = 0; t < threads; t++) {
        size_t b = t * per_c * FB_CHUNK, e = b + per_c * FB_CHUNK > n ? n : b + per_c * FB_CHUNK;
        if (b < e)
            jobs[nj++] = (FB(job_t)){tb, k, out, b, e};
    }
    FB(run_parallel)(FB(worker), jobs, sizeof jobs[0], nj);
}

#undef FB_CHUNK
