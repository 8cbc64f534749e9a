/* cuzk-bench synth: constraint-system throughput on chained SHA-256 compressions (issue 5
 * targets: shape mode >= 5 M constraints/s on one core over a ~130 M-constraint workload;
 * witness mode >= 2x faster than record-and-evaluate).
 *
 * Workload: 512 allocated message bits, then `n` compressions chained from the IV
 * (state_{i+1} = compress(block, state_i)), bellperson's SHA-256 gadget (gadgets/sha256.h).
 * Everything runs on one thread; times are process CPU seconds (so the figures are per core
 * even on a loaded machine). Measured, in one run:
 *   shape     CS_SHAPE (counts only) over --shape-compressions (default 5,000 = ~129 M
 *             constraints, O(1) memory)
 *   and over --compressions (default 40, ~1 M constraints, memory ~0.5 GiB):
 *   witness   CS_WITNESS: values only, enforce skipped
 *   check     CS_CHECK: values and per-constraint evaluation (every LC evaluated as it is
 *             enforced, a*b = c checked)
 *   prove     CS_PROVE: bellperson's ProvingAssignment (values, a/b/c rows, densities),
 *             what a proof's synthesis costs
 *   record    CS_RECORD: A, B, C as CSR (once per circuit topology)
 *   spmv      a, b, c = A w, B w, C w from the recorded CSR (cs/spmv.h, 1 thread)
 * Ratios: (record + spmv) / witness ("record-and-evaluate" vs witness), check / witness,
 * and witness + spmv (the pre-compiled per-proof path) in constraints/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cs/spmv.h"
#include "gadgets/sha256.h"

static const char USAGE[] =
    "usage: cuzk-bench synth [--shape-compressions N] [--compressions N] [--json]\n"
    "  one-thread constraint-system throughput on chained SHA-256 compressions:\n"
    "  shape mode over N (default 5000, ~129 M constraints), and witness / check /\n"
    "  record / SpMV over --compressions (default 40)\n";

typedef struct {
    double seconds;
    cs_counts counts;
    cs_t cs; /* kept (not freed) for record / witness, to take matrices or values out */
} run_t;

/* CPU seconds of this process: the figures are per core and not skewed by other load on
 * a shared machine (everything here runs on one thread). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cuzk_status synth(cs_mode mode, uint64_t n, run_t *r, bool keep)
{
    uint64_t seed = 42;
    cuzk_status st = cs_init(&r->cs, mode, 0);
    if (st)
        return st;
    double t0 = cpu_now();
    gbool block[512];
    for (int i = 0; i < 512; i++)
        block[i] = gb_alloc(&r->cs, bench_rand64(&seed) & 1);
    u32g state[8];
    sha256_iv(state);
    for (uint64_t i = 0; i < n && r->cs.status == CUZK_OK; i++)
        sha256_compress_circuit(&r->cs, block, state, state);
    r->seconds = cpu_now() - t0;
    cs_get_counts(&r->cs, &r->counts);
    st = cs_status(&r->cs);
    if (st)
        fprintf(stderr, "cuzk-bench synth: %s\n", r->cs.err.msg);
    if (st || !keep)
        cs_free(&r->cs);
    return st;
}

static double mps(uint64_t constraints, double s) { return s > 0 ? (double)constraints / s / 1e6 : 0; }

int bench_synth(int argc, char **argv)
{
    uint64_t nshape = 5000, n = 40;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        char *end;
        if ((!strcmp(argv[i], "--shape-compressions") || !strcmp(argv[i], "--compressions")) && i + 1 < argc) {
            unsigned long long v = strtoull(argv[i + 1], &end, 10);
            if (*end || v == 0 || v > 100000) {
                fprintf(stderr, "cuzk-bench synth: %s needs an integer in 1..100000\n", argv[i]);
                return 2;
            }
            *(argv[i][2] == 's' ? &nshape : &n) = v;
            i++;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench synth: unknown argument '%s'\n%s", argv[i], USAGE);
            return 2;
        }
    }
    run_t shape, wit, chk, rec, prv;
    if (synth(CS_SHAPE, nshape, &shape, false) || synth(CS_WITNESS, n, &wit, true) ||
        synth(CS_CHECK, n, &chk, false) || synth(CS_RECORD, n, &rec, true) || synth(CS_PROVE, n, &prv, false))
        return 1;
    cs_matrices m;
    fr_t *in, *aux;
    uint64_t nin, naux;
    if (cs_take_matrices(&rec.cs, &m) || cs_take_witness(&wit.cs, &in, &nin, &aux, &naux)) {
        fprintf(stderr, "cuzk-bench synth: taking the matrices / witness failed\n");
        return 1;
    }
    cs_free(&rec.cs);
    cs_free(&wit.cs);
    uint64_t nv = nin + naux, rows = m.a.rows;
    fr_t *w = malloc(nv * sizeof *w), *abc = malloc(3 * rows * sizeof *abc);
    if (!w || !abc) {
        fprintf(stderr, "cuzk-bench synth: out of memory\n");
        return 1;
    }
    memcpy(w, in, nin * sizeof *w);
    memcpy(w + nin, aux, naux * sizeof *w);
    free(in);
    free(aux);
    cuzk_error err = {0};
    double t0 = cpu_now();
    cuzk_status st = cs_spmv_abc(abc, abc + rows, abc + 2 * rows, &m.a, &m.b, &m.c, w, nv, 1, &err);
    double spmv = cpu_now() - t0;
    /* the witness satisfies the recorded R1CS: a * b = c on every row */
    uint64_t bad = 0;
    for (uint64_t i = 0; !st && i < rows; i++) {
        fr_t t;
        fr_mul(&t, &abc[i], &abc[rows + i]);
        bad += !fr_eq(&t, &abc[2 * rows + i]);
    }
    free(w);
    free(abc);
    cs_matrices_free(&m);
    if (st || bad) {
        fprintf(stderr, "cuzk-bench synth: spmv %s, %llu unsatisfied rows\n", st ? err.msg : "ok",
                (unsigned long long)bad);
        return 1;
    }
    /* witness mode skips enforce, so it counts no constraints: use the recorded count */
    uint64_t cn = rec.counts.constraints, cs_shape = shape.counts.constraints;
    double r_rec = (rec.seconds + spmv) / wit.seconds, r_chk = chk.seconds / wit.seconds;
    printf("synth: chained SHA-256 compressions, one thread, CPU seconds\n");
    printf("  %-8s %6llu compressions %11llu constraints %8.3f s %7.2f M constraints/s\n", "shape",
           (unsigned long long)nshape, (unsigned long long)cs_shape, shape.seconds, mps(cs_shape, shape.seconds));
    const struct {
        const char *name;
        double s;
    } rows_out[] = {{"witness", wit.seconds}, {"check", chk.seconds}, {"prove", prv.seconds},
                    {"record", rec.seconds}, {"spmv", spmv}};
    for (int i = 0; i < 5; i++)
        printf("  %-8s %6llu compressions %11llu constraints %8.3f s %7.2f M constraints/s\n", rows_out[i].name,
               (unsigned long long)n, (unsigned long long)cn, rows_out[i].s, mps(cn, rows_out[i].s));
    printf("  (record + spmv) / witness = %.2fx, check / witness = %.2fx, witness + spmv = %.2f M constraints/s\n",
           r_rec, r_chk, mps(cn, wit.seconds + spmv));
    if (json)
        printf("{\"bench\":\"synth\",\"shape_compressions\":%llu,\"shape_constraints\":%llu,\"shape_s\":%.4f,"
               "\"shape_mcps\":%.3f,\"compressions\":%llu,\"constraints\":%llu,\"witness_s\":%.4f,\"check_s\":%.4f,"
               "\"prove_s\":%.4f,\"record_s\":%.4f,\"spmv_s\":%.4f,\"record_eval_over_witness\":%.3f,\"check_over_witness\":%.3f,"
               "\"peak_rss_bytes\":%llu}\n",
               (unsigned long long)nshape, (unsigned long long)cs_shape, shape.seconds, mps(cs_shape, shape.seconds),
               (unsigned long long)n, (unsigned long long)cn, wit.seconds, chk.seconds, prv.seconds, rec.seconds, spmv, r_rec,
               r_chk, (unsigned long long)bench_peak_rss());
    return 0;
}
