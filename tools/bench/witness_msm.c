/* cuzk-bench witness-msm: the prover's witness MSMs (A, B_G1, L in G1; B in G2) on a real
 * Filecoin witness, plain Pippenger (msm_*_density / msm_g1) against the witness-aware MSM
 * (msm_*_witness) that the prover uses, with the split of the scalars by size.
 *
 * The witness is partition `--partition` of a PoRep C1 (any format fc_c1_detect knows, e.g.
 * shared/fixtures/porep-8MiB-c1.bincode) synthesized in CS_PROVE mode, so its values and A/B
 * densities are exactly what groth16_prove_start gets. The bases are deterministic
 * pseudo-random points (no parameter file is needed: an MSM's time does not depend on
 * which points it sums), one per scalar of each query. Times are minima over --runs runs;
 * both MSMs of a query are checked to give the same point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench.h"
#include "common/file_io.h"
#include "cs/cs.h"
#include "field/cpu.h"
#include "filecoin/porep/porep.h"
#include "msm/msm.h"

typedef struct {
    const char *name;
    int g2;
    const uint64_t *density; /* NULL: dense */
    const uint64_t *scalars;
    size_t n, nbases;
} query_t;

/* ms of the plain (witness = 0) or witness-aware MSM of q, min over runs; *out the result */
static double time_query(const query_t *q, const g1_affine_t *b1, const g2_affine_t *b2, unsigned threads, int runs,
                         int witness, void *out, msm_witness_stats_t *ws, cuzk_error *err, cuzk_status *st)
{
    msm_opts_t o = {.threads = threads};
    double best = 1e30;
    for (int r = 0; r < runs && !*st; r++) {
        double t = bench_now();
        if (q->g2)
            *st = witness ? msm_g2_witness(out, b2, q->nbases, q->density, q->scalars, q->n, &o, ws, err)
                  : q->density ? msm_g2_density(out, b2, q->nbases, q->density, q->scalars, q->n, &o, err)
                               : msm_g2(out, b2, q->scalars, q->n, &o, err);
        else
            *st = witness ? msm_g1_witness(out, b1, q->nbases, q->density, q->scalars, q->n, &o, ws, err)
                  : q->density ? msm_g1_density(out, b1, q->nbases, q->density, q->scalars, q->n, &o, err)
                               : msm_g1(out, b1, q->scalars, q->n, &o, err);
        double d = bench_now() - t;
        best = d < best ? d : best;
    }
    return best * 1e3;
}

int bench_witness_msm(int argc, char **argv)
{
    const char *path = NULL;
    unsigned partition = 0, threads = 1;
    int runs = 1, json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--c1") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--partition") && i + 1 < argc)
            partition = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: cuzk-bench witness-msm --c1 FILE [--partition N] [--threads N] [--runs N] [--json]\n"
                 "  synthesizes a PoRep partition of the C1 (CS_PROVE) and times the A, B_G1, L (G1) and\n"
                 "  B (G2) MSMs of its witness: plain Pippenger vs the prover's witness-aware MSM");
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench witness-msm: unknown or incomplete option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (!path || threads == 0 || runs < 1) {
        fprintf(stderr, "cuzk-bench witness-msm: --c1 FILE is required; --threads and --runs must be >= 1\n");
        return 2;
    }
    FILE *out = json ? stderr : stdout;
    cuzk_error err = {0};
    cuzk_mapped_file map;
    cuzk_status st = cuzk_file_map(&map, path, &err);
    fc_c1_output c1;
    if (!st)
        st = fc_c1_read(&c1, map.data, map.len, FC_C1_JSON, true, &err);
    if (st) {
        fprintf(stderr, "cuzk-bench witness-msm: %s: %s\n", path, err.msg);
        return 1;
    }
    fc_porep_circuit_params cp;
    fc_porep_circuit_params_of(c1.registered_proof, &cp);
    cs_t cs;
    cs_assignment as;
    double t0 = bench_now();
    st = cs_init_prove(&cs, NULL, 0);
    if (!st)
        st = fc_porep_synthesize(&cs, &cp, &c1, partition, &err);
    cs_counts counts;
    cs_get_counts(&cs, &counts);
    if (!st)
        st = cs_take_assignment(&cs, counts.constraints + counts.inputs, &as);
    cs_free(&cs);
    fc_c1_free(&c1);
    cuzk_file_unmap(&map);
    if (st) {
        fprintf(stderr, "cuzk-bench witness-msm: synthesis: %s\n", err.msg);
        return 1;
    }
    double synth_s = bench_now() - t0;
    size_t nvars = as.num_inputs + as.num_aux;
    uint64_t *w = malloc(nvars * 32 + 1);
    for (size_t i = 0; i < nvars; i++)
        fr_to_limbs(w + 4 * i, &as.w[i]);
    size_t na = as.a_count, nb = as.b_count;
    query_t q[4] = {
        {"A", 0, as.a_density, w, nvars, na},
        {"B_G1", 0, as.b_density, w, nvars, nb},
        {"L", 0, NULL, w + 4 * as.num_inputs, as.num_aux, as.num_aux},
        {"B_G2", 1, as.b_density, w, nvars, nb},
    };
    size_t n1 = na > as.num_aux ? na : as.num_aux;
    n1 = nb > n1 ? nb : n1;
    fprintf(out, "cuzk-bench witness-msm: %s partition %u: %llu constraints, %zu variables (synthesis %.1f s), "
                 "%s CPU back end, %u thread%s\n",
            path, partition, (unsigned long long)counts.constraints, nvars, synth_s,
            cuzk_cpu_name(cuzk_cpu_active()), threads, threads > 1 ? "s" : "");
    fprintf(out, "preparing %zu G1 and %zu G2 bases ...\n", n1, nb);
    fflush(out);
    uint64_t seed = 7;
    g1_affine_t *b1 = bench_g1_bases(n1, &seed);
    g2_affine_t *b2 = bench_g2_bases(nb, &seed);
    if (!b1 || !b2) {
        fprintf(stderr, "cuzk-bench witness-msm: no memory for the bases\n");
        st = CUZK_E_NOMEM;
    }

    json_t *j = json_object();
    json_object_set_new(j, "c1", json_string(path));
    json_object_set_new(j, "constraints", json_integer((json_int_t)counts.constraints));
    json_object_set_new(j, "variables", json_integer((json_int_t)nvars));
    json_object_set_new(j, "cpu_backend", json_string(cuzk_cpu_name(cuzk_cpu_active())));
    json_object_set_new(j, "threads", json_integer(threads));
    fprintf(out, "%-5s %9s %9s %9s %9s %9s  %10s %10s %7s\n", "query", "pairs", "zeros", "ones", "small", "full",
            "plain ms", "witness ms", "speedup");
    double tot_plain = 0, tot_wit = 0;
    for (int k = 0; k < 4 && !st; k++) {
        union {
            g1_jac_t g1;
            g2_jac_t g2;
        } rp, rw;
        msm_witness_stats_t ws = {0};
        double plain = time_query(&q[k], b1, b2, threads, runs, 0, &rp, NULL, &err, &st);
        double wit = time_query(&q[k], b1, b2, threads, runs, 1, &rw, &ws, &err, &st);
        if (st)
            break;
        int same = q[k].g2 ? g2_jac_eq(&rp.g2, &rw.g2) : g1_jac_eq(&rp.g1, &rw.g1);
        if (!same) {
            fprintf(stderr, "cuzk-bench witness-msm: %s: the two MSMs differ\n", q[k].name);
            st = CUZK_E_INTERNAL;
            break;
        }
        tot_plain += plain, tot_wit += wit;
        fprintf(out, "%-5s %9zu %9zu %9zu %9zu %9zu  %10.1f %10.1f %6.2fx  (small: < 2^%u)\n", q[k].name,
                q[k].nbases, ws.zeros, ws.ones, ws.small, ws.full, plain, wit, plain / wit, ws.small_bits);
        json_t *o = json_object();
        json_object_set_new(o, "pairs", json_integer((json_int_t)q[k].nbases));
        json_object_set_new(o, "zeros", json_integer((json_int_t)ws.zeros));
        json_object_set_new(o, "ones", json_integer((json_int_t)ws.ones));
        json_object_set_new(o, "small", json_integer((json_int_t)ws.small));
        json_object_set_new(o, "full", json_integer((json_int_t)ws.full));
        json_object_set_new(o, "small_bits", json_integer(ws.small_bits));
        json_object_set_new(o, "plain_ms", json_real(plain));
        json_object_set_new(o, "witness_ms", json_real(wit));
        json_object_set_new(j, q[k].name, o);
        fflush(out);
    }
    if (!st) {
        fprintf(out, "total %57.1f %10.1f %6.2fx\n", tot_plain, tot_wit, tot_plain / tot_wit);
        json_object_set_new(j, "total_plain_ms", json_real(tot_plain));
        json_object_set_new(j, "total_witness_ms", json_real(tot_wit));
        if (json) {
            char *txt = json_dumps(j, JSON_COMPACT);
            printf("%s\n", txt);
            free(txt);
        }
    } else if (err.msg[0]) {
        fprintf(stderr, "cuzk-bench witness-msm: %s\n", err.msg);
    }
    json_decref(j);
    cs_assignment_free(&as);
    free(w);
    free(b1);
    free(b2);
    return st ? 1 : 0;
}
