/* Template for fixed_base.c: instantiated once for G1 and once for G2 with
 *   FB_AFF, FB_JAC  point types; FB(name) name mangling (g1_name / g2_name);
 *   FB_FN           the public function name. */

typedef struct {
    const FB_AFF *table;
    const fr_t *k;
    FB_AFF *out;
    FB_JAC *tmp;
    size_t begin, end;
} FB(job_t);

static void *FB(worker)(void *arg)
{
    FB(job_t) *j = arg;
    for (size_t i = j->begin; i < j->end; i++) {
        uint64_t limbs[4];
        fr_to_limbs(limbs, &j->k[i]);
        FB_JAC acc;
        FB(jac_set_infinity)(&acc);
        for (unsigned w = 0; w < 32; w++) {
            unsigned d = (unsigned)(limbs[w / 8] >> (8 * (w % 8))) & 0xff;
            if (d)
                FB(add_mixed)(&acc, &acc, &j->table[w * 256 + d]);
        }
        j->tmp[i] = acc;
    }
    FB(batch_to_affine)(j->out + j->begin, j->tmp + j->begin, j->end - j->begin);
    return NULL;
}

cuzk_status FB_FN(FB_AFF *out, const FB_AFF *g, const fr_t *k, size_t n, unsigned threads)
{
    FB_JAC *tab_j = malloc(32 * 256 * sizeof *tab_j);
    FB_AFF *tab = malloc(32 * 256 * sizeof *tab);
    FB_JAC *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tab_j || !tab || !tmp) {
        free(tab_j), free(tab), free(tmp);
        return CUZK_E_NOMEM;
    }
    FB_JAC base;
    FB(jac_from_affine)(&base, g);
    for (unsigned w = 0; w < 32; w++) {
        FB(jac_set_infinity)(&tab_j[w * 256]);
        for (unsigned d = 1; d < 256; d++)
            FB(add)(&tab_j[w * 256 + d], &tab_j[w * 256 + d - 1], &base);
        for (unsigned b = 0; b < 8; b++)
            FB(dbl)(&base, &base);
    }
    FB(batch_to_affine)(tab, tab_j, 32 * 256);
    free(tab_j);

    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    pthread_t tid[64];
    FB(job_t) jobs[64];
    size_t per = (n + threads - 1) / threads;
    unsigned started = 0;
    for (unsigned t = 0; t < threads; t++) {
        size_t b = t * per, e = b + per > n ? n : b + per;
        if (b >= e)
            break;
        jobs[t] = (FB(job_t)){tab, k, out, tmp, b, e};
        started++;
    }
    unsigned spawned = 0;
    for (unsigned t = 1; t < started; t++, spawned++)
        if (pthread_create(&tid[t], NULL, FB(worker), &jobs[t]) != 0)
            break;
    if (started)
        FB(worker)(&jobs[0]);
    for (unsigned t = 1; t <= spawned; t++)
        pthread_join(tid[t], NULL);
    for (unsigned t = spawned + 1; t < started; t++) /* threads that could not be created */
        FB(worker)(&jobs[t]);
    free(tab);
    free(tmp);
    return CUZK_OK;
}
