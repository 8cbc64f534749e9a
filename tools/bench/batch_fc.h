/* cuzk-bench batch's Filecoin kinds (tools/bench/batch_fc.c): one real proof request (a PoRep
 * C1, or PoSt / SnapDeals vanilla proofs with their public side) bound to its parameters,
 * proved as the same job `count` times, optionally synthesized through the PCE (--pce). */
#ifndef CUZK_TOOLS_BENCH_BATCH_FC_H
#define CUZK_TOOLS_BENCH_BATCH_FC_H

#include <stdint.h>

#include <jansson.h>

#include "kinds/filecoin/fc_inputs.h"
#include "kinds/filecoin/fc_job.h"
#include "kinds/pce_cache.h"

typedef struct {
    fc_job_type type;             /* from --kind porep|window-post|winning-post|snap */
    const char *files[4096];      /* --c1 (PoRep) or --vanilla FILE..., in order */
    unsigned nfiles;
    const char *param_cache;      /* --param-cache (NULL: the environment / default) */
    const char *cache_dir;        /* --cache-dir for point caches (NULL: default) */
    uint64_t registered_proof;    /* --registered-proof (PoSt, SnapDeals; PoRep: 0 = the C1's) */
    uint64_t miner;               /* --miner (PoSt; PoRep when has_miner) */
    int has_miner;
    const char *randomness;       /* --randomness HEX (PoSt) */
    uint32_t partition;           /* --partition (WindowPoSt) */
    const char *comm_r_old, *comm_r_new, *comm_d_new; /* SnapDeals, HEX */
} batch_fc_opts;

typedef struct {
    fc_input_files files;
    fc_job_request req;
    uint8_t rand[32], r_old[32], r_new[32], d_new[32];
    fc_srs *srs;           /* the proving stack's (borrowed) */
    fc_job *job;
    uint64_t params_bytes; /* the parameters' mapped point cache */
    pce_cache *pce;        /* the proving stack's (borrowed), batch_fc_use_pce .. batch_fc_pce_stop */
    uint32_t pce_before;   /* fc_job_pce_partitions when the PCE was attached */
} batch_fc;

/* The fc_job_type of a --kind name, or 0 when it names none. */
fc_job_type batch_fc_type(const char *kind);
/* The Filecoin parameters' configuration of o (--param-cache, --cache-dir) with `threads`
 * decoding threads, a corrupt point cache rebuilt as by the daemon, for the proving stack
 * (prover/stack.h); its strings point into o. */
void batch_fc_srs_config(const batch_fc_opts *o, unsigned threads, fc_srs_config *out);
/* Load the inputs and create the job over `srs` (the proving stack's, borrowed: it must
 * outlive batch_fc_free), loading its parameters (message on stderr on failure, -1; 0 on
 * success). Free with batch_fc_free even after a failure. */
int batch_fc_load(batch_fc *f, const batch_fc_opts *o, fc_srs *srs);
/* Free the job (its parameters and PCE released) and the inputs; before the stack goes. */
void batch_fc_free(batch_fc *f);

/* --pce: synthesize f's partitions through `pce`, the proving stack's PCE cache in the
 * point-cache directory (--cache-dir, "<circuit>-<key>.cuzkpce"), as the daemon's [srs] pce
 * does, with the daemon's settings (recorded when missing, one products thread a partition)
 * but not in the background: the PCE is mapped, or recorded by this first use, here, before
 * any proof is timed, so every partition of the row goes through it; its mapping is charged
 * to the stack's engine's budget (none for the serial row). -1 after a message on stderr
 * when the PCE cannot be made ready (the entry's error named); 0 when ready (or when the
 * kind has no PCE shape: fc_job_use_pce ignores the cache, and the row's state says "no PCE
 * shape"). */
int batch_fc_use_pce(batch_fc *f, pce_cache *pce);
/* The row's PCE figures (JSON object: state, mapped bytes, record / load ms, partitions
 * synthesized through it since batch_fc_use_pce), then the PCE detached from the job and
 * evicted (its mapping unmapped, its budget charge returned). Call once no partition of the
 * job is in flight. {"on": false} without batch_fc_use_pce. */
json_t *batch_fc_pce_stop(batch_fc *f);

#endif
