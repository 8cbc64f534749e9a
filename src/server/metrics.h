/* Per-kind proof metrics: counters and Prometheus histograms of queue, synthesis, prove
 * and total time (seconds) for each circuit name, written as Prometheus text exposition
 * format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/).
 *
 * Thread-safety: none; the service guards a cuzk_metrics with its lock.
 */
#ifndef CUZK_SERVER_METRICS_H
#define CUZK_SERVER_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CUZK_METRIC_BUCKETS 14
enum { CUZK_HIST_QUEUE = 0, CUZK_HIST_SYNTHESIS, CUZK_HIST_PROVE, CUZK_HIST_TOTAL, CUZK_HIST_COUNT };

typedef struct {
    uint64_t bucket[CUZK_METRIC_BUCKETS]; /* non-cumulative counts per upper bound; last = +Inf */
    uint64_t count;
    double sum;
} cuzk_histogram;

typedef struct {
    char name[64];
    uint64_t completed, failed, cancelled;
    cuzk_histogram hist[CUZK_HIST_COUNT];
} cuzk_kind_metrics;

/* gRPC status codes 0..16 (grpc/status.h): refused requests are counted by their code. */
#define CUZK_METRIC_CODES 17

typedef struct {
    cuzk_kind_metrics *kinds;
    size_t n, cap;
    uint64_t refused[CUZK_METRIC_CODES]; /* SubmitProof / Prove refused before a job existed, by gRPC code */
} cuzk_metrics;

/* Count one refused request answered with gRPC status `code` (out-of-range codes count
 * as UNKNOWN). */
void cuzk_metrics_refused(cuzk_metrics *m, int code);

/* Upper bounds (seconds) of the first CUZK_METRIC_BUCKETS-1 buckets. */
extern const double cuzk_metric_bounds[CUZK_METRIC_BUCKETS - 1];

/* Entry for `kind` (created on first use); NULL on allocation failure. */
cuzk_kind_metrics *cuzk_metrics_kind(cuzk_metrics *m, const char *kind);
void cuzk_histogram_observe(cuzk_histogram *h, double seconds);
/* Write the per-kind counter and histogram families and the refused-request counter
 * (cuzk_requests_refused{reason="invalid_argument"}, one line per gRPC code but OK) to f. */
void cuzk_metrics_write(const cuzk_metrics *m, FILE *f);
void cuzk_metrics_free(cuzk_metrics *m);

#endif
