/* Mock circuit kind, prover backend and verify hook for the engine tests.
 *
 * Jobs carry a mock_input {tag, failure switches}. A partition's "proof" is
 * mock_proof(tag, partition): 192 bytes of a SplitMix64 stream seeded from both, so every
 * proof is checkable and distinct. Delays make the prover slow and synthesis fast or the
 * reverse; gates (hold_synth, hold_prove) stop a stage until the test opens them. The
 * mock checks the engine's side of every contract as it runs (assignment
 * alive and a/b/c present in prove_start, release_abc exactly once and at the backend's
 * release callback when it calls it, a/b/c already freed but witness alive in
 * prove_finish, per-device concurrency <= gpu_workers_per_device, live working-set bytes
 * <= budget) and counts violations instead of asserting from engine threads.
 */
#ifndef CUZK_TESTS_ENGINE_MOCK_H
#define CUZK_TESTS_ENGINE_MOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

#define MOCK_MAX_DEVICES 8
#define MOCK_MAX_TAGS 1024
#define MOCK_LOG 4096

typedef struct {
    uint64_t tag;
    int fail_synth_partition;  /* -1: none */
    int fail_prove_partition;  /* -1: none */
    int corrupt_partition;     /* -1: none; prove_finish writes a wrong proof */
} mock_input;

typedef struct {
    /* configuration (set before use) */
    _Atomic uint32_t synth_us, prove_us, finish_us; /* delays in microseconds */
    /* gates: while set, synthesize (after counting the call; it still honours `cancel`) and
     * prove_start (after counting the device as busy) wait, so a test can hold the pipeline
     * in a known state and wait for it as an event instead of relying on timing */
    _Atomic bool hold_synth, hold_prove;
    /* prove_start calls the engine's release callback before the hold_prove gate, as a GPU
     * backend does once a/b/c are uploaded (backend.h), and checks that it ran release_abc */
    _Atomic bool release_early;
    uint64_t total_bytes, abc_bytes;        /* per-partition estimate */
    uint64_t resident_bytes;                /* the estimate's per-job resident bytes */
    /* budget bytes the backend charges at attach and keeps until detach (as a GPU
     * backend's staging buffers); the attach fails when they do not fit */
    uint64_t standing_bytes;
    void *standing_budget;                  /* the engine's budget while attached */
    uint32_t num_devices, workers_per_device;
    uint64_t budget_bytes;                  /* live working set must stay <= this */

    /* observed state */
    pthread_mutex_t mu;
    int64_t live_assignments, live_abc, live_pending, live_bytes, peak_live_bytes;
    int64_t device_active[MOCK_MAX_DEVICES], device_peak[MOCK_MAX_DEVICES];
    uint64_t synth_calls, synth_cancelled, prove_calls, finish_calls, verify_calls;
    uint64_t abc_releases; /* release_abc calls (a second one on the same assignment is a violation) */
    uint64_t violations;
    char first_violation[256];
    _Atomic uint64_t synth_by_tag[MOCK_MAX_TAGS]; /* synthesize calls per tag (mod MOCK_MAX_TAGS) */
    /* synthesize calls in the order they started (the first MOCK_LOG of them) */
    struct {
        uint64_t tag;
        uint32_t partition;
    } synth_log[MOCK_LOG];
    _Atomic uint32_t synth_log_n;
} mock_ctx;

void mock_init(mock_ctx *m);
void mock_destroy(mock_ctx *m);
/* A fresh input with no failures. */
mock_input mock_input_make(uint64_t tag);
void mock_proof(uint64_t tag, uint32_t partition, uint8_t out[CUZK_PROOF_BYTES]);
/* Kind / backend / verify tables bound to `m`. */
cuzk_circuit_kind mock_kind(mock_ctx *m);
cuzk_prover_backend mock_backend(mock_ctx *m);
cuzk_verify_hook mock_verifier(mock_ctx *m);
/* Locked copies of the live counts, for reading while the engine runs. */
typedef struct {
    int64_t live_assignments, live_pending, live_bytes;
    uint64_t synth_cancelled;
    int64_t device_active[MOCK_MAX_DEVICES]; /* prove_start calls running now, per device */
    uint64_t abc_releases;
} mock_stats;
mock_stats mock_stats_get(mock_ctx *m);
/* Synthesis calls made for jobs with this tag (thread-safe). */
uint64_t mock_synth_calls_for(mock_ctx *m, uint64_t tag);
void mock_sleep_us(uint32_t us);
/* Position of (tag, partition) in the synthesis start order, or -1. */
int mock_synth_position(mock_ctx *m, uint64_t tag, uint32_t partition);

#endif
