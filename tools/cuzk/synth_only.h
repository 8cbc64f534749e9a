/* `cuzk c2 / post / snap --synth-only`: what a prover's synthesis of one partition costs on
 * one thread (tools/cuzk/synth_only.c). */
#ifndef CUZK_TOOLS_SYNTH_ONLY_H
#define CUZK_TOOLS_SYNTH_ONLY_H

#include <stdbool.h>
#include <stdint.h>

#include "kinds/filecoin/fc_job.h"

typedef struct {
    const char *cmd;    /* the subcommand, for messages */
    uint32_t partition; /* the partition synthesized */
    bool witness_only;  /* skip the proving-mode synthesis (no a/b/c) */
    bool pce;           /* also record the PCE and time its products */
    bool abc_pool;      /* a/b/c from an engine a/b/c pool (pre-faulted before any timing, reused) */
    unsigned repeats;   /* >= 1: the direct synthesis and the PCE products run this many times */
} synth_only_opts;

/* One partition of `job` as the prover synthesizes it: a CS_SHAPE pass for the sizes, the
 * compact witness-only pass of the PCE path, then (unless witness_only) CS_PROVE into exact
 * a/b/c buffers on this thread `repeats` times, and with pce the PCE's record and products
 * (`repeats` times). Prints one JSON line on stdout: sizes, wall seconds of each phase and
 * their user / system CPU seconds (this thread's getrusage; of the fastest repeat), with
 * abc_pool the pool's figures (buffers created / reused, huge pages refused), peak RSS.
 * Returns a CLI exit code (errors printed on stderr, naming the phase). Single-threaded. */
int synth_only_run(const synth_only_opts *o, const fc_job *job);

#endif
