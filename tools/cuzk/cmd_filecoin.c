/* Filecoin proofs from the command line: cuzk c2 / verify-c2 / post / verify-post / snap /
 * verify-snap. Each builds the same fc_job the daemon builds from a gRPC request
 * (kinds/filecoin/fc_job.h), then checks it (--check: CS_CHECK synthesis of every
 * partition, no parameters), proves it through the engine of a proving stack
 * (prover/stack.h: --backend, parameters charged to the engine's budget as in the daemon;
 * every partition self-verified, the proof written atomically), or verifies a proof with
 * the circuit's .vk. Exit codes: 0 success / valid / satisfied, 1 invalid proof / unsatisfied,
 * 2 bad input or error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "common/file_io.h"
#include "common/hex.h"
#include "engine/log.h"
#include "groth16/bellperson_params.h"
#include "kinds/filecoin/fc_inputs.h"
#include "kinds/filecoin/fc_job.h"
#include "prover/stack.h"
#include "synth_only.h"

#define MAX_FILES 4096

static const char USAGE_C2[] =
    "usage: cuzk c2 C1FILE -o PROOF [--param-cache DIR] [--cache-dir DIR] [--miner ID] [--sector N]\n"
    "              [--pce] [--threads N] [--backend auto|cpu|cuda|opencl] [--device N] [-v]\n"
    "       cuzk c2 C1FILE --check\n"
    "       cuzk c2 C1FILE --synth-only [--witness-only] [--partition K] [--pce] [--abc-pool] [--repeat N]\n"
    "       cuzk verify-c2 C1FILE PROOF [--param-cache DIR]\n"
    "  C1FILE: a PoRep commit-phase-1 output (Curio's envelope, serde JSON, or bincode).\n"
    "  c2 proves every partition (self-verified) and writes the concatenated 192-byte\n"
    "  partition proofs to PROOF atomically; --check synthesizes every partition in check\n"
    "  mode without parameters and prints {\"partitions\",\"constraints\",\"satisfied\"};\n"
    "  verify-c2 checks PROOF with the circuit's .vk. --synth-only measures what a prover's\n"
    "  synthesis of one partition costs (a shape pass for the sizes, then the proving-mode\n"
    "  synthesis on one thread): prints seconds, a/b/c and witness bytes and peak RSS, and the\n"
    "  witness-only synthesis into the compact witness the prover keeps (its bytes, the values\n"
    "  other than 0 and 1, the PCE's size); --witness-only skips the proving-mode synthesis (no\n"
    "  a/b/c allocated: a 32 GiB partition measures in about 1 GB). --synth-only --pce also\n"
    "  records the PCE in memory and times its products from the compact witness on one thread\n"
    "  (PCE + a/b/c resident: about 19 GB at 32 GiB), with the speed-up over direct synthesis.\n"
    "  Each phase is reported in wall, user and system seconds of the synthesizing thread;\n"
    "  --abc-pool takes a/b/c from an engine a/b/c pool (one buffer pre-faulted before any\n"
    "  timing and reused, as the daemon's [memory] abc_pool) instead of fresh malloc'ed\n"
    "  buffers; --repeat N runs the direct synthesis and the PCE products N times (the fastest\n"
    "  reported). post and snap take the same --synth-only options.\n"
    "  Parameters: the official v28 file names in --param-cache (default: $FIL_PROOFS_PARAMETER_CACHE,\n"
    "  else /var/tmp/filecoin-proof-parameters); point caches in --cache-dir.\n"
    "  --pce: synthesize through the circuit's pre-compiled constraint evaluator in --cache-dir\n"
    "  (recorded there first when missing, stale or corrupt; witness-only synthesis + sparse products).\n"
    "  --test-hooks: TESTS ONLY: honour CUZK_TEST_FIXED_RS (a fixed r, s: not zero-knowledge)\n"
    "    and CUZK_GPU_FAIL, as cuzk prove --test-hooks does.\n"
    "  --backend: the prover backend (default auto: CUDA devices, else OpenCL GPUs, else the CPU;\n"
    "  opencl also takes OpenCL CPU devices such as POCL); --device N: that device of its runtime.\n"
    "  exit 0 success / valid / satisfied, 1 invalid / unsatisfied, 2 bad input or error\n";

static const char USAGE_POST[] =
    "usage: cuzk post --kind window|winning --registered-proof ID --miner ACTOR --randomness HEX\n"
    "                 [--partition K] (--check | --synth-only | -o PROOF [--param-cache DIR] [--cache-dir DIR] [--pce])\n"
    "                 [--threads N] [--backend auto|cpu|cuda|opencl] [--device N]\n"
    "                 VANILLA...\n"
    "       cuzk verify-post (same options, no -o/--check) PROOF VANILLA...\n"
    "  VANILLA: one bincode FallbackPoStSectorProof per file, or a JSON array of base64 strings\n"
    "  (Curio's [][]byte). Window: the partition's sectors in order (padded by repeating the\n"
    "  last); Winning: the one challenged sector's proof with 66 challenges.\n"
    "  exit 0 success / valid / satisfied, 1 invalid / unsatisfied, 2 bad input or error\n";

static const char USAGE_SNAP[] =
    "usage: cuzk snap --registered-proof ID --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX\n"
    "                 (--check | --synth-only [--partition K] | -o PROOF [--param-cache DIR] [--cache-dir DIR] [--pce])\n"
    "                 [--threads N] [--backend auto|cpu|cuda|opencl] [--device N]\n"
    "                 VANILLA...\n"
    "       cuzk verify-snap (same options, no -o/--check) PROOF [VANILLA...]\n"
    "  VANILLA: one bincode PartitionProof per partition in order, or a JSON array of base64\n"
    "  strings (Curio's snap-vproof.json). --poseidon selects the EmptySectorUpdate-Poseidon\n"
    "  circuit. Verifying needs only the commitments.\n"
    "  exit 0 success / valid / satisfied, 1 invalid / unsatisfied, 2 bad input or error\n";

typedef struct {
    const char *cmd, *usage;
    fc_job_type type;
    bool verify, check, verbose, synth_only, witness_only, pce, abc_pool;
    unsigned repeats; /* --repeat N of --synth-only */
    uint32_t synth_partition;
    const char *out, *param_cache, *cache_dir;
    unsigned threads;
    backend_config backend; /* --backend, --device */
    uint32_t device;
    fc_job_request req;
    uint8_t rand[32], r_old[32], r_new[32], d_new[32];
    const char *pos[MAX_FILES];
    int npos;
    fc_input_files files; /* loaded */
    cli_progress *pg;     /* proving: the engine's events as progress phases */
} fc_cli;

static int usage_error(const fc_cli *c, const char *fmt, const char *arg)
{
    fprintf(stderr, "cuzk %s: ", c->cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", c->usage);
    return CLI_ERROR;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

/* Returns 0 to go on, -1 after --help, CLI_ERROR on a usage error. */
static int parse(fc_cli *c, int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    c->threads = ncpu > 0 ? (unsigned)ncpu : 1;
    backend_config_default(&c->backend);
    bool has_rp = false, has_kind = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV()                                                                                                       \
    do {                                                                                                              \
        if (!v)                                                                                                       \
            return usage_error(c, "%s needs a value", a);                                                             \
        i++;                                                                                                          \
    } while (0)
        cuzk_error be;
        int taken = c->verify ? 0 : backend_config_flag(&c->backend, &c->device, a, v, &be);
        if (taken < 0)
            return usage_error(c, "%s", be.msg);
        if (taken) {
            i++;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(c->usage, stdout);
            return -1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            c->verbose = true;
        } else if (!strcmp(a, "--test-hooks") && !c->verify) {
            c->backend.env_test_hooks = true; /* TESTS ONLY: CUZK_TEST_FIXED_RS, CUZK_GPU_FAIL */
        } else if (!strcmp(a, "--check") && !c->verify) {
            c->check = true;
        } else if (!strcmp(a, "--synth-only") && !c->verify) {
            c->synth_only = true;
        } else if (!strcmp(a, "--witness-only") && !c->verify) {
            c->witness_only = true;
        } else if (!strcmp(a, "--pce") && !c->verify) {
            c->pce = true;
        } else if (!strcmp(a, "--abc-pool") && !c->verify) {
            c->abc_pool = true;
        } else if (!strcmp(a, "--repeat") && !c->verify) {
            NEEDV();
            uint64_t r;
            if (!parse_u64(v, &r) || r < 1 || r > 100)
                return usage_error(c, "--repeat needs an integer in 1..100, got '%s'", v);
            c->repeats = (unsigned)r;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && !c->verify) {
            NEEDV();
            c->out = v;
        } else if (!strcmp(a, "--param-cache")) {
            NEEDV();
            c->param_cache = v;
        } else if (!strcmp(a, "--cache-dir")) {
            NEEDV();
            c->cache_dir = v;
        } else if (!strcmp(a, "--threads") || !strcmp(a, "-t")) {
            NEEDV();
            uint64_t t;
            if (!parse_u64(v, &t) || t < 1 || t > 1024)
                return usage_error(c, "--threads needs an integer in 1..1024, got '%s'", v);
            c->threads = (unsigned)t;
        } else if (!strcmp(a, "--miner") && c->type != FC_JOB_SNAP) {
            NEEDV();
            if (!parse_u64(v, &c->req.miner_id))
                return usage_error(c, "--miner needs an actor id (decimal), got '%s'", v);
            c->req.has_miner = true;
        } else if (!strcmp(a, "--sector") && c->type == FC_JOB_POREP) {
            NEEDV();
            if (!parse_u64(v, &c->req.sector_number))
                return usage_error(c, "--sector needs a sector number, got '%s'", v);
            c->req.has_sector = true;
        } else if (!strcmp(a, "--kind") && c->type != FC_JOB_POREP && c->type != FC_JOB_SNAP) {
            NEEDV();
            if (!strcmp(v, "window"))
                c->type = FC_JOB_WINDOW_POST;
            else if (!strcmp(v, "winning"))
                c->type = FC_JOB_WINNING_POST;
            else
                return usage_error(c, "--kind must be window or winning, got '%s'", v);
            has_kind = true;
        } else if (!strcmp(a, "--registered-proof") && c->type != FC_JOB_POREP) {
            NEEDV();
            if (!parse_u64(v, &c->req.registered_proof))
                return usage_error(c, "--registered-proof needs a number, got '%s'", v);
            has_rp = true;
        } else if (!strcmp(a, "--randomness") && c->type != FC_JOB_POREP && c->type != FC_JOB_SNAP) {
            NEEDV();
            if (!cuzk_unhex(c->rand, v, 32))
                return usage_error(c, "--randomness needs 32 bytes in hex (64 digits), got '%s'", v);
            c->req.randomness = (fc_bytes){c->rand, 32};
        } else if (!strcmp(a, "--partition")) {
            NEEDV();
            uint64_t k;
            if (!parse_u64(v, &k) || k > UINT32_MAX)
                return usage_error(c, "--partition needs a partition index, got '%s'", v);
            if (c->type == FC_JOB_WINDOW_POST || c->type == FC_JOB_WINNING_POST)
                c->req.partition_index = (uint32_t)k;
            else
                c->synth_partition = (uint32_t)k;
        } else if (c->type == FC_JOB_SNAP && !strcmp(a, "--poseidon")) {
            c->req.snap_poseidon = true;
        } else if (c->type == FC_JOB_SNAP &&
                   (!strcmp(a, "--comm-r-old") || !strcmp(a, "--comm-r-new") || !strcmp(a, "--comm-d-new"))) {
            NEEDV();
            uint8_t *dst = a[7] == 'r' && a[9] == 'o' ? c->r_old : a[7] == 'r' ? c->r_new : c->d_new;
            fc_bytes *f = dst == c->r_old ? &c->req.comm_r_old : dst == c->r_new ? &c->req.comm_r_new : &c->req.comm_d_new;
            if (!cuzk_unhex(dst, v, 32))
                return usage_error(c, "%s needs 32 bytes in hex (64 digits)", a);
            *f = (fc_bytes){dst, 32};
        } else if (a[0] == '-' && a[1]) {
            return usage_error(c, "unknown option '%s'", a);
        } else {
            if (c->npos == MAX_FILES)
                return usage_error(c, "too many files (at most %s)", "4096");
            c->pos[c->npos++] = a;
        }
#undef NEEDV
    }
    if ((c->type == FC_JOB_WINDOW_POST || c->type == FC_JOB_WINNING_POST) && !has_kind)
        return usage_error(c, "%s", "--kind window|winning is required");
    if (!c->verify && c->check + c->synth_only + (c->out != NULL) != 1)
        return usage_error(c, "%s", "give exactly one of -o PROOF (prove), --check or --synth-only");
    if (c->pce && !c->out && !c->synth_only)
        return usage_error(c, "%s", "--pce applies to proving (-o) and --synth-only");
    if (c->witness_only && !c->synth_only)
        return usage_error(c, "%s", "--witness-only goes with --synth-only");
    if ((c->abc_pool || c->repeats) && !c->synth_only)
        return usage_error(c, "%s", "--abc-pool and --repeat go with --synth-only");
    if (c->abc_pool && c->witness_only && !c->pce)
        return usage_error(c, "%s", "--abc-pool takes a/b/c from the pool: --witness-only writes none (add --pce "
                                    "for the PCE's products)");
    if (c->type != FC_JOB_POREP && !has_rp)
        return usage_error(c, "%s", "--registered-proof is required");
    if ((c->type == FC_JOB_WINDOW_POST || c->type == FC_JOB_WINNING_POST) && (!c->req.has_miner || !c->req.randomness.data))
        return usage_error(c, "%s", "--miner and --randomness are required");
    if (c->type == FC_JOB_SNAP && (!c->req.comm_r_old.data || !c->req.comm_r_new.data || !c->req.comm_d_new.data))
        return usage_error(c, "%s", "--comm-r-old, --comm-r-new and --comm-d-new are required");
    int need = c->type == FC_JOB_POREP ? (c->verify ? 2 : 1) : (c->verify ? 2 : 1);
    if (c->type == FC_JOB_POREP && c->npos != need)
        return usage_error(c, "%s", c->verify ? "expected C1FILE and PROOF" : "expected one C1FILE");
    if (c->type == FC_JOB_SNAP && c->verify)
        need = 1; /* the commitments are the public inputs */
    if (c->type != FC_JOB_POREP && c->npos < need)
        return usage_error(c, "%s", c->verify ? "expected PROOF and at least one VANILLA file" : "expected VANILLA files");
    return 0;
}

/* Map the input files; PoSt / SnapDeals vanilla files may be JSON arrays of base64 blobs. */
static cuzk_status load_inputs(fc_cli *c, cuzk_error *err)
{
    int first = c->type == FC_JOB_POREP ? 0 : (c->verify ? 1 : 0);
    int last = c->type == FC_JOB_POREP ? 1 : c->npos;
    return fc_input_files_load(&c->files, c->pos + first, (size_t)(last - first), &c->req, err);
}

static void cleanup(fc_cli *c) { fc_input_files_free(&c->files); }

static int run_check(fc_cli *c, const fc_job *job)
{
    uint32_t n = fc_job_partitions(job);
    uint64_t total = 0;
    cli_progress *pg = cli_progress_start(c->cmd, n);
    for (uint32_t k = 0; k < n; k++) {
        bool ok;
        uint64_t cons = 0, idx = 0;
        char where[512] = "";
        cuzk_error err = {0};
        double t0 = cli_now_ms();
        cli_progress_phase(pg, k, "check (synthesis in check mode)");
        cuzk_status st = fc_job_check_partition(job, k, &ok, &cons, &idx, where, sizeof where, &err);
        cli_progress_phase(pg, k, NULL);
        if (st) {
            cli_progress_stop(pg);
            err.code = st;
            return cli_fail(c->cmd, &err);
        }
        if (c->verbose)
            fprintf(stderr, "cuzk %s: partition %u: %llu constraints, %s, %.0f ms\n", c->cmd, k,
                    (unsigned long long)cons, ok ? "satisfied" : "NOT satisfied", cli_now_ms() - t0);
        total += cons;
        if (!ok) {
            cli_progress_stop(pg);
            printf("{\"partitions\":%u,\"constraints\":%llu,\"satisfied\":false,\"partition\":%u,\"constraint\":%llu,"
                   "\"where\":\"%s\"}\n",
                   n, (unsigned long long)total, k, (unsigned long long)idx, where);
            fprintf(stderr, "cuzk %s: partition %u: constraint %llu (%s) is not satisfied\n", c->cmd, k,
                    (unsigned long long)idx, where);
            return CLI_INVALID;
        }
    }
    cli_progress_stop(pg);
    printf("{\"partitions\":%u,\"constraints\":%llu,\"satisfied\":true}\n", n, (unsigned long long)total);
    return CLI_OK;
}

static int emit_bytes(FILE *f, const void *ctx)
{
    const cuzk_job_result *r = ctx;
    size_t len = (size_t)r->num_partitions * CUZK_PROOF_BYTES;
    return fwrite(r->proofs, 1, len, f) == len ? 0 : EIO;
}

/* Engine events as progress phases (cli_progress); ctx is the fc_cli. */
static void prove_event(void *ctx, const cuzk_engine_event *ev)
{
    const fc_cli *c = ctx;
    const char *phase;
    switch (ev->type) {
    case CUZK_EV_SYNTH_START: phase = "synthesis"; break;
    case CUZK_EV_SYNTH_END: phase = "waiting for the prover"; break;
    case CUZK_EV_PROVE_START: phase = "prove_start (H polynomial; A, B_G1, L, H MSMs)"; break;
    case CUZK_EV_PROVE_END: phase = "prove_finish (B_G2 MSM, assembly)"; break;
    case CUZK_EV_FINISH_END: phase = "self-verification"; break;
    default: return;
    }
    cli_progress_phase(c->pg, ev->partition, phase);
}

/* The command's proving stack (prover/stack.h). To prove: the backend (--backend, --device;
 * --threads CPU threads), an engine of one partition worker, one prover worker a device and
 * one finalizer, the parameters charged to its budget as in the daemon, the Filecoin
 * parameters (--param-cache, --cache-dir; a corrupt point cache is rebuilt, as by the daemon)
 * and with --pce the PCE cache, not in the background: the job's first use loads or records
 * the PCE before the job starts, so that every partition uses it. To verify: the Filecoin
 * parameters alone (only the circuit's .vk is read; no backend, no engine). */
static cuzk_status stack_open(fc_cli *c, prover_stack **out, cuzk_error *err)
{
    fc_srs_config sc = {.param_cache = c->param_cache, .cache_dir = c->cache_dir, .threads = c->threads,
                        .verify_checksums = true};
    prover_stack_config pc = {.filecoin = &sc};
    cuzk_engine_config ec;
    pce_cache_config pce = {.background = false, .record = true, .eval_threads = 1};
    if (!c->verify) {
        c->backend.cpu_threads = c->threads;
        cuzk_engine_config_default(&ec);
        ec.partition_workers = 1;
        ec.finalizer_threads = 1;
        ec.gpu_workers_per_device = 1;
        ec.on_event = prove_event;
        ec.event_ctx = c;
        pc.backend = &c->backend;
        pc.engine = &ec;
        pc.charge_params = true;
        pc.pce = c->pce ? &pce : NULL;
    }
    /* the backend's and the engine's start lines with -v only; the parameters' (loaded
     * next, by fc_job_create) at the default level */
    cuzk_log_level was = cuzk_log_get_level();
    cuzk_log_set_level(c->verbose ? CUZK_LOG_INFO : CUZK_LOG_WARN);
    cuzk_status st = prover_stack_create(&pc, out, err);
    cuzk_log_set_level(was);
    return st;
}

static int run_prove(fc_cli *c, prover_stack *ps, fc_job *job)
{
    cuzk_log_set_level(c->verbose ? CUZK_LOG_INFO : CUZK_LOG_WARN);
    cuzk_error err = {0};
    cuzk_status st = CUZK_OK;
    if (c->verbose)
        fprintf(stderr, "cuzk %s: prover backend %s\n", c->cmd, backend_describe(prover_stack_backend(ps)));
    c->pg = cli_progress_start(c->cmd, fc_job_partitions(job));
    /* --pce: the PCE is loaded, or recorded, here before the job starts (charged to the
     * engine's budget), so that every partition uses it */
    pce_cache *pce = prover_stack_pce(ps);
    if (pce) {
        double t0 = cli_now_ms();
        st = fc_job_use_pce(job, pce, &err);
        if (!st && c->verbose) {
            pce_cache_status *pst = NULL;
            size_t n = 0;
            if (pce_cache_list(pce, &pst, &n, &err) == CUZK_OK)
                for (size_t i = 0; i < n; i++)
                    fprintf(stderr, "cuzk %s: PCE %s %s (%.1f MB%s) in %.0f ms%s%s\n", c->cmd, pst[i].circuit,
                            pce_cache_state_name(pst[i].state), pst[i].size_bytes / 1e6,
                            pst[i].recorded ? ", recorded" : "", cli_now_ms() - t0, pst[i].error[0] ? ": " : "",
                            pst[i].error);
            free(pst);
        }
    }
    cuzk_engine *e = prover_stack_engine(ps);
    cuzk_job_request jr = {fc_job_kind(job), job, fc_job_params(job), fc_job_partitions(job),
                           fc_job_default_priority(fc_job_type_of(job)), fc_job_verify_hook(job)};
    uint64_t id;
    double t0 = cli_now_ms();
    cuzk_job_result res = {0};
    if (!st)
        st = cuzk_engine_submit(e, &jr, &id, &err);
    if (!st)
        st = cuzk_engine_wait(e, id, -1, &res, &err);
    if (!st && res.state != CUZK_JOB_DONE) {
        err = res.error;
        st = res.error.code ? res.error.code : CUZK_E_INTERNAL;
    }
    double secs = (cli_now_ms() - t0) / 1e3;
    if (!st && res.verified_partitions != res.num_partitions)
        st = cuzk_fail(&err, CUZK_E_INTERNAL, "%u of %u partitions self-verified", res.verified_partitions,
                       res.num_partitions);
    if (!st)
        st = cuzk_write_atomic(c->out, emit_bytes, &res, &err);
    if (!st) {
        char name[32];
        fc_job_circuit_name(job, name, sizeof name);
        printf("{\"proof_kind\":\"%s\",\"circuit\":\"%s\",\"partitions\":%u,\"proof_bytes\":%u,\"verified\":true,"
               "\"seconds\":%.3f,\"synthesis_s\":%.3f,\"prove_s\":%.3f,\"pce_partitions\":%u}\n",
               fc_job_type_name(fc_job_type_of(job)), name, res.num_partitions, res.num_partitions * CUZK_PROOF_BYTES,
               secs, res.timings.synthesis_ms / 1e3, (res.timings.prove_ms + res.timings.finish_ms) / 1e3,
               fc_job_pce_partitions(job));
    }
    cuzk_job_result_free(&res);
    cli_progress_stop(c->pg);
    c->pg = NULL;
    if (st) {
        err.code = st;
        return cli_fail(c->cmd, &err);
    }
    return CLI_OK;
}

static int run_verify(fc_cli *c, fc_srs *srs, const fc_job *job)
{
    cuzk_mapped_file pf;
    cuzk_error err = {0};
    const char *proof_path = c->type == FC_JOB_POREP ? c->pos[1] : c->pos[0];
    cuzk_status st = cuzk_file_map(&pf, proof_path, &err);
    if (st) {
        err.code = st;
        return cli_fail(c->cmd, &err);
    }
    fc_circuit_id cid = fc_job_circuit(job);
    groth16_vk_t vk;
    st = fc_srs_read_vk(srs, &cid, &vk, &err);
    if (!st) {
        st = fc_job_verify_with_vk(job, &vk, pf.data, pf.len, &err);
        bp_vk_free(&vk);
    }
    cuzk_file_unmap(&pf);
    if (st == CUZK_E_VERIFY_FAILED) {
        fprintf(stderr, "cuzk %s: invalid: %s\n", c->cmd, err.msg);
        printf("{\"valid\":false}\n");
        return CLI_INVALID;
    }
    if (st) {
        err.code = st;
        return cli_fail(c->cmd, &err);
    }
    printf("{\"valid\":true}\n");
    return CLI_OK;
}

static int run(fc_cli *c, int argc, char **argv)
{
    int r = parse(c, argc, argv);
    if (r)
        return r < 0 ? CLI_OK : r;
    c->req.type = c->type;
    c->req.verify_only = c->verify;
    if (c->out) {
        for (int i = 0; i < c->npos; i++)
            if (cuzk_same_file(c->out, c->pos[i])) {
                fprintf(stderr, "cuzk %s: error: output %s is the input %s\n", c->cmd, c->out, c->pos[i]);
                return CLI_ERROR;
            }
    }
    cuzk_error err = {0};
    cuzk_status st = load_inputs(c, &err);
    if (!st && c->out) /* proving takes minutes to hours: a bad -o is found out first */
        st = cuzk_check_writable(c->out, &err);
    prover_stack *ps = NULL; /* proving and verifying: the parameters; --check and --synth-only need none */
    fc_job *job = NULL;
    if (!st && !c->check && !c->synth_only)
        st = stack_open(c, &ps, &err);
    double t0 = cli_now_ms();
    /* verifying needs only the .vk: the job is created without the proving key */
    if (!st)
        st = fc_job_create(&c->req, c->verify || !ps ? NULL : prover_stack_fc_srs(ps), &job, &err);
    if (!st && c->verbose)
        fprintf(stderr, "cuzk %s: input parsed and validated, parameters ready in %.0f ms\n", c->cmd,
                cli_now_ms() - t0);
    if (st) {
        err.code = st;
        r = cli_fail(c->cmd, &err);
    } else if (c->check) {
        r = run_check(c, job);
    } else if (c->synth_only) {
        synth_only_opts so = {c->cmd, c->type == FC_JOB_POREP || c->type == FC_JOB_SNAP ? c->synth_partition : 0,
                              c->witness_only, c->pce, c->abc_pool, c->repeats};
        r = synth_only_run(&so, job);
    } else if (c->verify) {
        r = run_verify(c, prover_stack_fc_srs(ps), job);
    } else {
        r = run_prove(c, ps, job);
    }
    fc_job_free(job); /* its parameters and PCE go back before the stack goes */
    prover_stack_destroy(ps);
    cleanup(c);
    return r;
}

static int start(fc_job_type type, bool verify, const char *cmd, const char *usage, int argc, char **argv)
{
    fc_cli *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "cuzk %s: out of memory\n", cmd);
        return CLI_ERROR;
    }
    c->type = type;
    c->verify = verify;
    c->cmd = cmd;
    c->usage = usage;
    int r = run(c, argc, argv);
    free(c);
    return r;
}

int cmd_c2(int argc, char **argv) { return start(FC_JOB_POREP, false, "c2", USAGE_C2, argc, argv); }
int cmd_verify_c2(int argc, char **argv) { return start(FC_JOB_POREP, true, "verify-c2", USAGE_C2, argc, argv); }
int cmd_post(int argc, char **argv) { return start(FC_JOB_WINDOW_POST, false, "post", USAGE_POST, argc, argv); }
int cmd_verify_post(int argc, char **argv)
{
    return start(FC_JOB_WINDOW_POST, true, "verify-post", USAGE_POST, argc, argv);
}
int cmd_snap(int argc, char **argv) { return start(FC_JOB_SNAP, false, "snap", USAGE_SNAP, argc, argv); }
int cmd_verify_snap(int argc, char **argv) { return start(FC_JOB_SNAP, true, "verify-snap", USAGE_SNAP, argc, argv); }
