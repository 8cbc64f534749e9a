/* cuzk-bench batch's Filecoin kinds (tools/bench/batch_fc.c): one real proof request (a PoRep
 * C1, or PoSt / SnapDeals vanilla proofs with their public side) bound to its parameters,
 * proved as the same job `count` times. */
#ifndef CUZK_TOOLS_BENCH_BATCH_FC_H
#define CUZK_TOOLS_BENCH_BATCH_FC_H

#include <stdint.h>

#include "kinds/filecoin/fc_inputs.h"
#include "kinds/filecoin/fc_job.h"

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
    unsigned threads;             /* point-cache decoding */
} batch_fc_opts;

typedef struct {
    fc_input_files files;
    fc_job_request req;
    uint8_t rand[32], r_old[32], r_new[32], d_new[32];
    fc_srs *srs;
    fc_job *job;
    uint64_t params_bytes; /* the parameters' mapped point cache */
} batch_fc;

/* The fc_job_type of a --kind name, or 0 when it names none. */
fc_job_type batch_fc_type(const char *kind);
/* Load the inputs and the parameters and create the job (message on stderr on failure,
 * -1; 0 on success). Free with batch_fc_free even after a failure. */
int batch_fc_load(batch_fc *f, const batch_fc_opts *o);
void batch_fc_free(batch_fc *f);

#endif
