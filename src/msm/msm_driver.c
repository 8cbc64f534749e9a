/* Group-agnostic MSM driver: validation, unit layout, threads, combination.
 *
 * Units are numbered window-major (unit = window * chunks + chunk) and handed out to
 * threads through an atomic counter; each unit writes its own result slot, and the slots
 * are combined in a fixed order after all threads are joined (Horner over windows from
 * the top, chunks in order inside a window), then normalised. So the output does not
 * depend on which thread ran which unit.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "msm/msm_internal.h"

typedef struct {
    const msm_group_t *group;
    const msm_unit_t *units;
    size_t nunits;
    unsigned char *results; /* nunits Jacobian points */
    unsigned c;
    const atomic_bool *cancel; /* stop taking units once set */
    atomic_size_t next;
    atomic_size_t done;
} msm_job_t;

static void *msm_thread_main(void *arg)
{
    msm_job_t *job = arg;
    void *w = job->group->worker_new(job->c);
    if (!w)
        return NULL; /* the other threads take the units; msm_run checks `done` */
    for (;;) {
        if (cuzk_cancel_is_set(job->cancel))
            break;
        size_t i = atomic_fetch_add(&job->next, 1);
        if (i >= job->nunits)
            break;
        job->group->run_unit(w, &job->units[i], job->results + i * job->group->jac_size);
        atomic_fetch_add(&job->done, 1);
    }
    job->group->worker_free(w);
    return NULL;
}

/* First scalar index and first base index of each of k ranges holding equal shares of
 * the set bits among the first n bits of `density`. */
static void split_density(size_t *start, size_t *base_start, unsigned k,
                          const uint64_t *density, size_t n, size_t total)
{
    start[0] = 0;
    base_start[0] = 0;
    unsigned j = 1;
    size_t seen = 0;
    size_t nwords = (n + 63) / 64;
    for (size_t wi = 0; wi < nwords && j < k; wi++) {
        uint64_t word = density[wi];
        if (wi == nwords - 1 && (n & 63))
            word &= (((uint64_t)1) << (n & 63)) - 1;
        size_t pc = (size_t)__builtin_popcountll(word);
        while (j < k) {
            size_t target = (size_t)((unsigned __int128)total * j / k);
            if (target >= seen + pc)
                break;
            uint64_t x = word;
            for (size_t r = target - seen; r > 0; r--)
                x &= x - 1;
            start[j] = wi * 64 + (size_t)__builtin_ctzll(x);
            base_start[j] = target;
            j++;
        }
        seen += pc;
    }
    for (; j < k; j++) {
        start[j] = n;
        base_start[j] = total;
    }
}

size_t msm_density_popcount(const uint64_t *density, size_t n)
{
    size_t total = 0;
    for (size_t wi = 0; wi < n / 64; wi++)
        total += (size_t)__builtin_popcountll(density[wi]);
    if (n & 63)
        total += (size_t)__builtin_popcountll(density[n / 64] & ((((uint64_t)1) << (n & 63)) - 1));
    return total;
}

int msm_scalar_below_r(const uint64_t *s)
{
    for (int i = FR_LIMBS - 1; i >= 0; i--) {
        if (s[i] != FR_MODULUS[i])
            return s[i] < FR_MODULUS[i];
    }
    return 0;
}

/* Number of pairs that contribute: non-zero scalar and base not at infinity. The plan is
 * sized for these (zkey queries carry infinity for every unused variable, witnesses many
 * zeros), while the units still walk every pair (skipping the others is cheap). */
static size_t useful_pairs(const msm_group_t *group, const unsigned char *bases, size_t base_size,
                           const uint64_t *density, const uint64_t *scalars, size_t n)
{
    size_t useful = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !(density[i / 64] >> (i % 64) & 1))
            continue;
        const uint64_t *s = scalars + MSM_SCALAR_LIMBS * i;
        if ((s[0] | s[1] | s[2] | s[3]) && !group->aff_is_inf(bases + k * base_size))
            useful++;
        k++;
    }
    return useful;
}

cuzk_status msm_check_inputs(void *out, const void *bases, size_t nbases,
                             const uint64_t *density, const uint64_t *scalars, size_t n,
                             cuzk_error *err)
{
    if (!out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: out is NULL");
    if (n > 0 && !scalars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: scalars is NULL with n = %zu", n);
    if (density) {
        size_t total = msm_density_popcount(density, n);
        if (total != nbases)
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "msm: density has %zu set bits among n = %zu but nbases = %zu",
                             total, n, nbases);
    }
    if (nbases > 0 && !bases)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: bases is NULL with %zu bases", nbases);
    for (size_t i = 0; i < n; i++) {
        if (!msm_scalar_below_r(scalars + MSM_SCALAR_LIMBS * i))
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: scalars[%zu] >= r", i);
    }
    return CUZK_OK;
}

cuzk_status msm_run_phase(const msm_group_t *group, void *acc, const void *bases,
                          size_t base_size, size_t nbases, const uint64_t *density,
                          const uint32_t *base_idx, const uint64_t *scalars, size_t n,
                          unsigned lo_bits, unsigned hi_bits, size_t useful,
                          const msm_opts_t *opts, cuzk_error *err)
{
    group->jac_set_infinity(acc);
    const atomic_bool *cancel = opts && opts->cancel ? opts->cancel : cuzk_cancel_flag();
    if (cuzk_cancel_is_set(cancel))
        return cuzk_fail(err, CUZK_E_CANCELLED, "msm: cancelled");
    if (useful == 0 || nbases == 0)
        return CUZK_OK;
    const int sum = lo_bits == 1 && hi_bits == 1;
    msm_plan_t plan;
    if (sum)
        (void)msm_plan_sum(&plan, group->id, useful, opts);
    else
        (void)msm_plan_bits(&plan, group->id, useful, hi_bits, opts);
    const unsigned k = plan.chunks, c = plan.window_bits;
    const size_t nunits = (size_t)plan.windows * k;
    const size_t jac = group->jac_size;

    size_t *start = malloc(2 * (size_t)k * sizeof *start);
    msm_unit_t *units = malloc(nunits * sizeof *units);
    unsigned char *results = malloc(nunits * jac);
    pthread_t *tids = malloc((size_t)plan.threads * sizeof *tids);
    if (!start || !units || !results || !tids) {
        free(start);
        free(units);
        free(results);
        free(tids);
        return cuzk_fail(err, CUZK_E_NOMEM, "msm: no memory for %zu work units", nunits);
    }
    size_t *base_start = start + k;
    if (density) {
        split_density(start, base_start, k, density, n, nbases);
    } else {
        for (unsigned j = 0; j < k; j++)
            start[j] = base_start[j] = (size_t)((unsigned __int128)n * j / k);
    }
    for (unsigned w = 0; w < plan.windows; w++) {
        for (unsigned j = 0; j < k; j++) {
            msm_unit_t *u = &units[(size_t)w * k + j];
            size_t end = j + 1 < k ? start[j + 1] : n;
            u->bases = base_idx ? bases : (const unsigned char *)bases + base_start[j] * base_size;
            u->base_idx = base_idx ? base_idx + start[j] : NULL;
            u->scalars = scalars ? scalars + MSM_SCALAR_LIMBS * start[j] : NULL;
            u->count = end - start[j];
            u->density = density;
            u->bit0 = start[j];
            u->window = w;
            u->lo_bits = lo_bits;
            u->hi_bits = hi_bits;
            u->max_digit = sum ? 1 : msm_window_max_digit_bits(c, w, hi_bits);
        }
    }

    msm_job_t job = {.group = group, .units = units, .nunits = nunits,
                     .results = results, .c = c, .cancel = cancel};
    atomic_init(&job.next, 0);
    atomic_init(&job.done, 0);
    unsigned started = 0;
    for (unsigned t = 1; t < plan.threads; t++) {
        if (pthread_create(&tids[started], NULL, msm_thread_main, &job) == 0)
            started++;
    }
    msm_thread_main(&job);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    free(start);
    free(units);

    if (atomic_load(&job.done) != nunits) {
        free(results);
        if (cuzk_cancel_is_set(cancel))
            return cuzk_fail(err, CUZK_E_CANCELLED, "msm: cancelled");
        return cuzk_fail(err, CUZK_E_NOMEM, "msm: no memory for the buckets of c = %u", c);
    }
    for (unsigned w = plan.windows; w-- > 0;) {
        for (unsigned i = 0; i < c && w + 1 < plan.windows; i++)
            group->jac_dbl(acc, acc);
        for (unsigned j = 0; j < k; j++)
            group->jac_add(acc, acc, results + ((size_t)w * k + j) * jac);
    }
    free(results);
    return CUZK_OK;
}

cuzk_status msm_run(const msm_group_t *group, void *out, const void *bases, size_t base_size,
                    size_t nbases, const uint64_t *density, const uint64_t *scalars, size_t n,
                    const msm_opts_t *opts, cuzk_error *err)
{
    cuzk_status st = msm_check_inputs(out, bases, nbases, density, scalars, n, err);
    if (st)
        return st;
    size_t useful = nbases ? useful_pairs(group, bases, base_size, density, scalars, n) : 0;
    msm_jac_any acc;
    st = msm_run_phase(group, &acc, bases, base_size, nbases, density, NULL, scalars, n, 1, 255,
                       useful, opts, err);
    if (st)
        return st;
    group->jac_normalize(&acc);
    memcpy(out, &acc, group->jac_size);
    return CUZK_OK;
}
