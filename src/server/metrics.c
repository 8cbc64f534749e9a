/* Per-kind proof metrics (metrics.h). */
#include "server/metrics.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const double cuzk_metric_bounds[CUZK_METRIC_BUCKETS - 1] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                            1,     2.5,  10,    30,   120, 600};

cuzk_kind_metrics *cuzk_metrics_kind(cuzk_metrics *m, const char *kind)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->kinds[i].name, kind))
            return &m->kinds[i];
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 4;
        cuzk_kind_metrics *nk = realloc(m->kinds, nc * sizeof *nk);
        if (!nk)
            return NULL;
        m->kinds = nk;
        m->cap = nc;
    }
    cuzk_kind_metrics *k = &m->kinds[m->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", kind);
    return k;
}

void cuzk_histogram_observe(cuzk_histogram *h, double seconds)
{
    size_t b = 0;
    while (b < CUZK_METRIC_BUCKETS - 1 && seconds > cuzk_metric_bounds[b])
        b++;
    h->bucket[b]++;
    h->count++;
    h->sum += seconds;
}

static void write_counter(const cuzk_metrics *m, FILE *f, const char *name, const char *help, size_t off)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
    for (size_t i = 0; i < m->n; i++)
        fprintf(f, "%s{proof_kind=\"%s\"} %llu\n", name, m->kinds[i].name,
                (unsigned long long)*(const uint64_t *)((const char *)&m->kinds[i] + off));
}

/* gRPC's status code names (grpc/status.h), lower case, as Prometheus label values. */
static const char *const CODE_NAMES[CUZK_METRIC_CODES] = {
    "ok",        "cancelled",          "unknown", "invalid_argument", "deadline_exceeded", "not_found",
    "already_exists", "permission_denied", "resource_exhausted", "failed_precondition", "aborted",
    "out_of_range",   "unimplemented",     "internal",           "unavailable",         "data_loss",
    "unauthenticated"};

void cuzk_metrics_refused(cuzk_metrics *m, int code)
{
    m->refused[code > 0 && code < CUZK_METRIC_CODES ? code : 2]++;
}

void cuzk_metrics_write(const cuzk_metrics *m, FILE *f)
{
    fprintf(f, "# HELP cuzk_requests_refused Proof requests refused before a job existed (bad input, missing "
               "parameters, shutdown, full), by gRPC status.\n# TYPE cuzk_requests_refused counter\n");
    for (int c = 1; c < CUZK_METRIC_CODES; c++)
        fprintf(f, "cuzk_requests_refused{reason=\"%s\"} %llu\n", CODE_NAMES[c], (unsigned long long)m->refused[c]);
    write_counter(m, f, "cuzk_proofs_completed", "Proofs completed, by kind.", offsetof(cuzk_kind_metrics, completed));
    write_counter(m, f, "cuzk_proofs_failed", "Proofs failed, by kind.", offsetof(cuzk_kind_metrics, failed));
    write_counter(m, f, "cuzk_proofs_cancelled", "Proofs cancelled, by kind.", offsetof(cuzk_kind_metrics, cancelled));
    static const char *const names[CUZK_HIST_COUNT] = {"cuzk_proof_queue_seconds", "cuzk_proof_synthesis_seconds",
                                                      "cuzk_proof_prove_seconds", "cuzk_proof_total_seconds"};
    static const char *const helps[CUZK_HIST_COUNT] = {
        "Time from submission to the first partition's dispatch, per finished proof.",
        "Synthesis time summed over the proof's partitions.",
        "Prove time (start + finish + verify) summed over the proof's partitions.",
        "Time from submission to completion."};
    for (int h = 0; h < CUZK_HIST_COUNT; h++) {
        fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", names[h], helps[h], names[h]);
        for (size_t i = 0; i < m->n; i++) {
            const cuzk_histogram *hg = &m->kinds[i].hist[h];
            uint64_t cum = 0;
            for (size_t b = 0; b < CUZK_METRIC_BUCKETS; b++) {
                cum += hg->bucket[b];
                if (b < CUZK_METRIC_BUCKETS - 1)
                    fprintf(f, "%s_bucket{proof_kind=\"%s\",le=\"%g\"} %llu\n", names[h], m->kinds[i].name,
                            cuzk_metric_bounds[b], (unsigned long long)cum);
                else
                    fprintf(f, "%s_bucket{proof_kind=\"%s\",le=\"+Inf\"} %llu\n", names[h], m->kinds[i].name,
                            (unsigned long long)cum);
            }
            fprintf(f, "%s_sum{proof_kind=\"%s\"} %.6f\n", names[h], m->kinds[i].name, hg->sum);
            fprintf(f, "%s_count{proof_kind=\"%s\"} %llu\n", names[h], m->kinds[i].name, (unsigned long long)hg->count);
        }
    }
}

void cuzk_metrics_free(cuzk_metrics *m)
{
    free(m->kinds);
    memset(m, 0, sizeof *m);
}
