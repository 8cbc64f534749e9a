/* cuzk-bench --addr ADDR <single|batch|status|preload|metrics>: measure a running daemon
 * through its real gRPC API (proto/cuzk/v1/proving.proto; docs/engine.md#cuzk-bench), using
 * the gRPC C core client API and protobuf-c. Proofs are Filecoin proofs sent exactly as Curio
 * sends them (--type porep with a C1 file, snap / window-post / winning-post with vanilla
 * proof files; docs/engine.md#what-curio-sends) or the built-in synthetic circuits (ProofKind
 * CIRCUIT, circuit "synthetic-<k>"). */
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "bench.h"
#include "common/file_io.h"
#include "cuzk/v1/proving.pb-c.h"
#include "filecoin/core/vanilla.h"
#include "server/config.h"
#include "server/security.h"

static const char USAGE[] =
    "usage: cuzk-bench --addr ADDR [connection options] <command> [options]\n"
    "  ADDR: unix:///path.sock or host:port (http:// prefix accepted)\n"
    "connection options (a TCP daemon with [daemon] tls_cert / auth_token_file):\n"
    "  --tls-ca FILE      connect with TLS, trusting the PEM CA bundle FILE for the daemon's certificate\n"
    "  --tls-cert FILE, --tls-key FILE   client certificate and key (mutual TLS; with --tls-ca)\n"
    "  --tls-name NAME    the name the daemon's certificate must carry (default: ADDR's host)\n"
    "  --token-file FILE  send \"authorization: Bearer <token>\" with the token in FILE\n"
    "commands (cuzk-bench --addr ADDR <command> --help for one):\n"
    "  single  [--type porep|snap|window-post|winning-post FILE options | --circuit synthetic-10 ...]\n"
    "          [--priority 0-4] [-o PROOF]\n"
    "  batch   (the same proof options) [-c|--count 3] [-j|--concurrency 1]\n"
    "  status                        GetStatus\n"
    "  preload -c|--circuit-id ID    PreloadSRS\n"
    "  evict   -c|--circuit-id ID    EvictSRS\n"
    "  metrics                       GetMetrics (Prometheus text)\n";

static const char PROOF_OPTIONS[] =
    "  Filecoin proofs (as Curio sends them):\n"
    "  --type T           porep (porep-c2, seal-commit), snap (snap-deals, update), window-post\n"
    "                     (wpost, windowpost), winning-post (winning, winningpost)\n"
    "  --c1 FILE          porep: the C1 output (Curio's envelope, JSON or bincode), sent as is\n"
    "  --vanilla FILE     snap / PoSt: a JSON array of base64 proofs (Curio's [][]byte) or one\n"
    "                     bincode proof; repeat for more files (appended in order)\n"
    "  --registered-proof N  RegisteredPoStProof / RegisteredUpdateProof id (default 0)\n"
    "  --miner-id N       miner actor id (PoRep: default not sent, the daemon takes the C1's;\n"
    "                     PoSt: default 1000)\n"
    "  --sector-num N     sector number (porep; default 0 = not sent)\n"
    "  --partition K      WindowPoSt partition index (default 0)\n"
    "  --randomness HEX   PoSt randomness, 32 bytes (default all zero)\n"
    "  --comm-r-old HEX, --comm-r-new HEX, --comm-d-new HEX   snap commitments (32 bytes each)\n"
    "  --request-id ID    request id (default: empty, the daemon generates one)\n"
    "  -o FILE            single: write the proof bytes to FILE\n"
    "  Synthetic circuits:\n"
    "  --circuit NAME     synthetic-<k> (2 <= k <= 20) (default synthetic-10)\n"
    "  --partitions N     partitions per proof, >= 1 (default 1)\n"
    "  --seed N           instance seed, 0 .. 2^64-1 (default 1)\n"
    "  Both:\n"
    "  --priority P       0 unspecified (the kind's default), 1 low, 2 normal, 3 high, 4 critical\n";

/* Commands, their one-line summary and the options they take. */
enum { C_SINGLE = 1, C_BATCH = 2, C_STATUS = 4, C_PRELOAD = 8, C_METRICS = 16, C_EVICT = 32 };
#define C_SRS_ID (C_PRELOAD | C_EVICT) /* commands that take -c|--circuit-id */
static const struct {
    const char *name;
    unsigned bit;
    const char *summary;
} COMMANDS[] = {
    {"single", C_SINGLE, "one Prove call; prints the daemon's timings and the client wall time"},
    {"batch", C_BATCH, "--count Prove calls from --concurrency client threads; latency and throughput"},
    {"status", C_STATUS, "GetStatus: uptime, counters, prover workers, SRS entries, queues"},
    {"preload", C_PRELOAD, "PreloadSRS of one circuit id (-c|--circuit-id ID, required)"},
    {"evict", C_EVICT, "EvictSRS of one circuit id (-c|--circuit-id ID, required): frees its memory"},
    {"metrics", C_METRICS, "GetMetrics: the Prometheus text"},
};

static void command_usage(FILE *f, int i)
{
    unsigned bit = COMMANDS[i].bit;
    fprintf(f, "usage: cuzk-bench --addr ADDR %s [options]\n  %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    if (bit & (C_SINGLE | C_BATCH))
        fprintf(f, "options:\n%s", PROOF_OPTIONS);
    if (bit & C_BATCH)
        fputs("  -c, --count N      proofs, 1 .. 1000000 (default 3)\n"
              "  -j, --concurrency N  client threads, 1 .. 1024 (default 1)\n", f);
    if (bit & C_SRS_ID)
        fputs("options:\n  -c, --circuit-id ID  synthetic-<k>, a [[circuits]] name, or Filecoin parameters:\n"
              "                       porep-, winning-, wpost-, snap-, snap-poseidon- + 2k 8m 512m 32g 64g\n", f);
}

/* Strict decimal in [lo, hi]: digits only (no sign, space or suffix). */
static bool parse_range(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!*v || strspn(v, "0123456789") != strlen(v))
        return false;
    errno = 0;
    unsigned long long x = strtoull(v, NULL, 10);
    if (errno || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

typedef struct {
    grpc_channel *ch;
    char *authorization; /* "Bearer <token>", or NULL */
} client;

/* One unary call: request `req`, response unpacked with `desc` into *out (free with
 * protobuf_c_message_free_unpacked). Returns the gRPC status; details into msg. */
static grpc_status_code unary(client *c, const char *method, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *desc, ProtobufCMessage **out, char *msg, size_t cap)
{
    *out = NULL;
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_slice m = grpc_slice_from_copied_string(method);
    grpc_call *call = grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, m, NULL,
                                               gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    grpc_slice_unref(m);
    size_t n = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(n ? n : 1);
    protobuf_c_message_pack(req, buf);
    grpc_slice sl = grpc_slice_new(buf, n, free);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);
    grpc_metadata_array init_md, trail_md;
    grpc_metadata_array_init(&init_md);
    grpc_metadata_array_init(&trail_md);
    grpc_byte_buffer *recv = NULL;
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    grpc_metadata auth = {.key = grpc_slice_from_static_string("authorization")};
    if (c->authorization) {
        auth.value = grpc_slice_from_static_string(c->authorization);
        ops[0].data.send_initial_metadata.count = 1;
        ops[0].data.send_initial_metadata.metadata = &auth;
    }
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    int tag;
    if (grpc_call_start_batch(call, ops, 6, &tag, NULL) == GRPC_CALL_OK)
        grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    snprintf(msg, cap, "%.*s", (int)GRPC_SLICE_LENGTH(details), (const char *)GRPC_SLICE_START_PTR(details));
    if (status == GRPC_STATUS_OK && recv) {
        grpc_byte_buffer_reader rd;
        grpc_byte_buffer_reader_init(&rd, recv);
        grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
        grpc_byte_buffer_reader_destroy(&rd);
        *out = protobuf_c_message_unpack(desc, NULL, GRPC_SLICE_LENGTH(all), GRPC_SLICE_START_PTR(all));
        grpc_slice_unref(all);
        if (!*out) {
            status = GRPC_STATUS_INTERNAL;
            snprintf(msg, cap, "undecodable response");
        }
    }
    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&init_md);
    grpc_metadata_array_destroy(&trail_md);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    grpc_completion_queue_destroy(cq);
    return status;
}

#define MAX_VANILLA_FILES 64
#define DEFAULT_MINER 1000 /* PoSt's miner_id when --miner-id is not given */

typedef struct {
    const char *circuit;
    uint32_t partitions;
    uint64_t seed;
    int priority;
    /* Filecoin (proof_kind != 0) */
    int proof_kind;
    const char *request_id, *out;
    ProtobufCBinaryData vanilla_proof;
    ProtobufCBinaryData *vanilla_proofs;
    size_t n_vanilla_proofs;
    uint64_t registered_proof, miner_id, sector_num;
    bool miner_given; /* --miner-id: else PoRep sends none (the C1's) and PoSt DEFAULT_MINER */
    uint32_t partition;
    uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
    bool has_r_old, has_r_new, has_d_new;
    const char *c1_file, *vanilla_files[MAX_VANILLA_FILES];
    int n_vanilla_files;
} proof_opts;

typedef struct {
    bool ok;
    bool cancelled;       /* the job ended CANCELLED (CancelProof) */
    grpc_status_code rpc; /* not OK: the call itself failed (no daemon, refused request) */
    double wall_s;
    uint64_t prove_ms, queue_ms, total_ms, synth_ms, srs_ms;
    uint32_t verified;
    size_t proof_len;
    char error[1024];
} proof_result;

/* A failed call (as opposed to a proof that failed) on stderr: the daemon cannot be reached,
 * or it refused the request. */
static void rpc_error(const char *addr, const char *cmd, grpc_status_code st, const char *msg)
{
    if (st == GRPC_STATUS_UNAVAILABLE || st == GRPC_STATUS_DEADLINE_EXCEEDED)
        fprintf(stderr, "cuzk-bench %s: error: cannot reach the daemon at %s (gRPC status %d): %s\n", cmd, addr, st,
                msg);
    else
        fprintf(stderr, "cuzk-bench %s: error: the daemon refused the request (gRPC status %d): %s\n", cmd, st, msg);
}

static void prove_one(client *c, const proof_opts *o, uint64_t seed, proof_result *r, bool save)
{
    Cuzk__V1__CircuitInput ci = CUZK__V1__CIRCUIT_INPUT__INIT;
    ci.name = (char *)o->circuit;
    ci.seed = seed;
    ci.partitions = o->partitions;
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.priority = (Cuzk__V1__Priority)o->priority;
    if (o->proof_kind) {
        sub.proof_kind = (Cuzk__V1__ProofKind)o->proof_kind;
        if (o->request_id)
            sub.request_id = (char *)o->request_id;
        sub.vanilla_proof = o->vanilla_proof;
        sub.vanilla_proofs = o->vanilla_proofs;
        sub.n_vanilla_proofs = o->n_vanilla_proofs;
        sub.registered_proof = o->registered_proof;
        sub.miner_id = o->miner_given ? o->miner_id
                       : o->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT ? 0
                                                                                 : DEFAULT_MINER;
        sub.sector_number = o->sector_num;
        sub.partition_index = o->partition;
        if (o->proof_kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION ||
            o->proof_kind == CUZK__V1__PROOF_KIND__WINNING_POST)
            sub.randomness = (ProtobufCBinaryData){32, (uint8_t *)o->randomness};
        if (o->has_r_old)
            sub.comm_r_old = (ProtobufCBinaryData){32, (uint8_t *)o->comm_r_old};
        if (o->has_r_new)
            sub.comm_r_new = (ProtobufCBinaryData){32, (uint8_t *)o->comm_r_new};
        if (o->has_d_new)
            sub.comm_d_new = (ProtobufCBinaryData){32, (uint8_t *)o->comm_d_new};
    } else {
        sub.proof_kind = CUZK__V1__PROOF_KIND__CIRCUIT;
        sub.circuit = &ci;
    }
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = &sub;
    ProtobufCMessage *resp;
    memset(r, 0, sizeof *r);
    double t0 = bench_now();
    grpc_status_code st = unary(c, "/cuzk.v1.ProvingEngine/Prove", &req.base, &cuzk__v1__prove_response__descriptor,
                                &resp, r->error, sizeof r->error);
    r->wall_s = bench_now() - t0;
    r->rpc = st;
    if (st != GRPC_STATUS_OK)
        return;
    const Cuzk__V1__AwaitProofResponse *a = ((Cuzk__V1__ProveResponse *)resp)->result;
    if (a) {
        r->ok = a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        r->cancelled = a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
        r->prove_ms = a->gpu_compute_ms;
        r->queue_ms = a->queue_wait_ms;
        r->total_ms = a->total_ms;
        r->synth_ms = a->synthesis_ms;
        r->srs_ms = a->srs_load_ms;
        r->verified = a->verified_partitions;
        r->proof_len = a->proof.len;
        snprintf(r->error, sizeof r->error, "%s", a->error_message ? a->error_message : "");
        if (save && r->ok && o->out) {
            FILE *f = fopen(o->out, "wb");
            if (!f || fwrite(a->proof.data, 1, a->proof.len, f) != a->proof.len) {
                r->ok = false;
                snprintf(r->error, sizeof r->error, "cannot write the proof to %s", o->out);
            }
            if (f)
                fclose(f);
        }
    }
    protobuf_c_message_free_unpacked(resp, NULL);
}

typedef struct {
    client *c;
    const char *addr;
    const proof_opts *o;
    proof_result *res;
    int count;
    int next;
    pthread_mutex_t mu;
} batch_ctx;

static void *batch_worker(void *arg)
{
    batch_ctx *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        int i = b->next < b->count ? b->next++ : -1;
        pthread_mutex_unlock(&b->mu);
        if (i < 0)
            return NULL;
        prove_one(b->c, b->o, b->o->seed + (uint64_t)i * 1000, &b->res[i], false);
        proof_result *r = &b->res[i];
        if (r->rpc != GRPC_STATUS_OK)
            rpc_error(b->addr, "batch", r->rpc, r->error);
        printf("[%d/%d] %s - %.2fs (prove %" PRIu64 " ms summed over partitions, queue %" PRIu64 " ms)%s%s\n",
               i + 1, b->count,
               r->ok ? "COMPLETED" : "FAILED", r->wall_s, r->prove_ms, r->queue_ms, r->ok ? "" : ": ", r->ok ? "" : r->error);
    }
}

static int simple(client *c, const char *addr, const char *cmd, const char *circuit_id)
{
    char msg[2048];
    ProtobufCMessage *resp;
    grpc_status_code st;
    if (!strcmp(cmd, "status")) {
        Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
        st = unary(c, "/cuzk.v1.ProvingEngine/GetStatus", &req.base, &cuzk__v1__get_status_response__descriptor, &resp,
                   msg, sizeof msg);
        if (st == GRPC_STATUS_OK) {
            const Cuzk__V1__GetStatusResponse *s = (void *)resp;
            printf("uptime: %" PRIu64 " s\ncompleted: %" PRIu64 "\nfailed: %" PRIu64 "\nmemory: %" PRIu64 " / %" PRIu64
                   " bytes\n", s->uptime_seconds, s->total_proofs_completed, s->total_proofs_failed,
                   s->pinned_memory_bytes, s->pinned_memory_limit_bytes);
            for (size_t i = 0; i < s->n_gpus; i++)
                printf("worker %zu (device %u): %s\n", i, s->gpus[i]->ordinal, s->gpus[i]->name);
            for (size_t i = 0; i < s->n_devices; i++) { /* free 0: the runtime cannot tell */
                const Cuzk__V1__DeviceStatus *d = s->devices[i];
                printf("device %u %s (%s): memory %" PRIu64 " bytes, free %" PRIu64 ", bases %" PRIu64 " / %" PRIu64
                       " bytes (%u resident), staging %" PRIu64 " bytes, busy %" PRIu64 " ms, queue %u, uploads: "
                       "a/b/c direct %" PRIu64 " / staged %" PRIu64 " bytes (%" PRIu64 " registered), scalars %" PRIu64
                       " bytes\n",
                       d->ordinal, d->name, d->backend, d->mem_total_bytes, d->mem_free_bytes, d->bases_bytes,
                       d->bases_budget_bytes, d->bases_resident, d->staging_bytes, d->busy_ms, d->queue_depth,
                       d->abc_direct_bytes, d->abc_staged_bytes, d->abc_registered_bytes, d->scalar_upload_bytes);
            }
            for (size_t i = 0; i < s->n_loaded_srs; i++) {
                const ProtobufCEnumValue *tv =
                    protobuf_c_enum_descriptor_get_value(&cuzk__v1__srsstatus__tier__descriptor, s->loaded_srs[i]->tier);
                printf("srs %s: %s, %" PRIu64 " bytes, refs %u\n", s->loaded_srs[i]->circuit_id, tv ? tv->name : "?",
                       s->loaded_srs[i]->size_bytes, s->loaded_srs[i]->ref_count);
            }
            for (size_t i = 0; i < s->n_queues; i++)
                printf("queue %s: pending %u, in progress %u (synthesizing %u, proving %u, finishing %u)\n",
                       s->queues[i]->proof_kind, s->queues[i]->pending, s->queues[i]->in_progress,
                       s->queues[i]->synthesizing, s->queues[i]->proving, s->queues[i]->finishing);
            if (s->pipeline)
                printf("jobs: queued %u, synthesizing %u, proving %u, finishing %u, retained %" PRIu64 "\n",
                       s->pipeline->jobs_queued, s->pipeline->jobs_synthesizing, s->pipeline->jobs_proving,
                       s->pipeline->jobs_finishing, s->pipeline->jobs_retained);
        }
    } else if (!strcmp(cmd, "metrics")) {
        Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
        st = unary(c, "/cuzk.v1.ProvingEngine/GetMetrics", &req.base, &cuzk__v1__get_metrics_response__descriptor,
                   &resp, msg, sizeof msg);
        if (st == GRPC_STATUS_OK)
            fputs(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, stdout);
    } else if (!strcmp(cmd, "evict")) {
        Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        req.circuit_id = (char *)circuit_id;
        st = unary(c, "/cuzk.v1.ProvingEngine/EvictSRS", &req.base, &cuzk__v1__evict_srs_response__descriptor,
                   &resp, msg, sizeof msg);
        if (st == GRPC_STATUS_OK) {
            const Cuzk__V1__EvictSrsResponse *p = (void *)resp;
            if (p->was_loaded)
                printf("%s: evicted, %" PRIu64 " bytes freed\n", circuit_id, p->freed_bytes);
            else
                printf("%s: was not loaded\n", circuit_id);
        }
    } else {
        Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        req.circuit_id = (char *)circuit_id;
        st = unary(c, "/cuzk.v1.ProvingEngine/PreloadSRS", &req.base, &cuzk__v1__preload_srs_response__descriptor,
                   &resp, msg, sizeof msg);
        if (st == GRPC_STATUS_OK) {
            const Cuzk__V1__PreloadSrsResponse *p = (void *)resp;
            if (p->already_loaded)
                printf("%s: already loaded\n", circuit_id);
            else
                printf("%s: loaded in %" PRIu64 " ms\n", circuit_id, p->load_time_ms);
        }
    }
    if (st != GRPC_STATUS_OK) {
        rpc_error(addr, cmd, st, msg);
        return 1;
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    return 0;
}

static int proof_kind_of(const char *t)
{
    static const struct {
        const char *name;
        int kind;
    } K[] = {{"porep", 1},        {"porep-c2", 1},    {"seal-commit", 1}, {"snap", 2},        {"snap-deals", 2},
             {"update", 2},       {"window-post", 3}, {"wpost", 3},       {"windowpost", 3},  {"winning-post", 4},
             {"winning", 4},      {"winningpost", 4}};
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
        if (!strcmp(t, K[i].name))
            return K[i].kind;
    return 0;
}

/* Options of single/batch, each taking a value. */
static const char *const PROOF_OPTS[] = {"--circuit", "--partitions", "--seed", "--priority", "--type", "--c1",
                                         "--vanilla", "--registered-proof", "--miner-id", "--sector-num",
                                         "--partition", "--randomness", "--comm-r-old", "--comm-r-new",
                                         "--comm-d-new", "--request-id", "-o"};

static bool is_proof_opt(const char *a)
{
    for (size_t i = 0; i < sizeof PROOF_OPTS / sizeof PROOF_OPTS[0]; i++)
        if (!strcmp(a, PROOF_OPTS[i]))
            return true;
    return false;
}

/* Parse the options of command `ci` (argv[3..]) into o / count / conc / circuit_id.
 * Returns -1 when parsed, else the exit code (0 after --help, 2 after an error). */
static int parse_options(int ci, int argc, char **argv, proof_opts *o, int *count, int *conc, const char **circuit_id)
{
    unsigned bit = COMMANDS[ci].bit;
    const char *cmd = COMMANDS[ci].name;
    for (int i = 3; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            command_usage(stdout, ci);
            return 0;
        }
    bool synthetic_opt = false;
    for (int i = 3; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool proof = bit & (C_SINGLE | C_BATCH);
        bool is_count = !strcmp(a, "--count") || (!strcmp(a, "-c") && (bit & C_BATCH));
        bool is_id = !strcmp(a, "--circuit-id") || (!strcmp(a, "-c") && (bit & C_SRS_ID));
        bool is_conc = !strcmp(a, "-j") || !strcmp(a, "--concurrency");
        bool known = is_proof_opt(a) || is_count || is_id || is_conc || !strcmp(a, "-c");
        bool single_only = !strcmp(a, "-o") || !strcmp(a, "--request-id");
        bool applies = (proof && is_proof_opt(a) && (!single_only || (bit & C_SINGLE))) ||
                       ((bit & C_BATCH) && (is_count || is_conc)) || ((bit & C_SRS_ID) && is_id);
        if (!known) {
            fprintf(stderr, "cuzk-bench %s: unknown option %s\n", cmd, a);
            command_usage(stderr, ci);
            return 2;
        }
        if (!applies) {
            fprintf(stderr, "cuzk-bench %s: %s is not an option of %s\n", cmd, a, cmd);
            command_usage(stderr, ci);
            return 2;
        }
        if (!v) {
            fprintf(stderr, "cuzk-bench %s: %s needs a value\n", cmd, a);
            command_usage(stderr, ci);
            return 2;
        }
        uint64_t x = 0;
        const char *want = NULL;
        if (!strcmp(a, "--circuit")) {
            /* This client sends no witnesses, and a [[circuits]] entry needs one per partition. */
            if (strncmp(v, "synthetic-", 10)) {
                fprintf(stderr,
                        "cuzk-bench %s: --circuit \"%s\": only synthetic-<k> circuits can be proved from "
                        "cuzk-bench (a [[circuits]] circuit needs its witnesses, which this client cannot send; "
                        "use the gRPC API with CircuitInput.witnesses)\n",
                        cmd, v);
                return 2;
            }
            o->circuit = v;
            synthetic_opt = true;
        } else if (is_id) {
            *circuit_id = v;
        } else if (!strcmp(a, "--partitions")) {
            want = parse_range(v, 1, UINT32_MAX, &x) ? NULL : "an integer >= 1";
            o->partitions = (uint32_t)x;
            synthetic_opt = true;
        } else if (!strcmp(a, "--seed")) {
            want = parse_range(v, 0, UINT64_MAX, &x) ? NULL : "an integer in 0 .. 2^64-1";
            o->seed = x;
            synthetic_opt = true;
        } else if (!strcmp(a, "--priority")) {
            want = parse_range(v, 0, 4, &x) ? NULL : "an integer in 0..4 (0 unspecified .. 4 critical)";
            o->priority = (int)x;
        } else if (!strcmp(a, "--type")) {
            o->proof_kind = proof_kind_of(v);
            want = o->proof_kind ? NULL : "porep, snap, window-post or winning-post";
        } else if (!strcmp(a, "--c1")) {
            o->c1_file = v;
        } else if (!strcmp(a, "--vanilla")) {
            if (o->n_vanilla_files == MAX_VANILLA_FILES)
                want = "at most 64 --vanilla files";
            else
                o->vanilla_files[o->n_vanilla_files++] = v;
        } else if (!strcmp(a, "--registered-proof") || !strcmp(a, "--miner-id") || !strcmp(a, "--sector-num")) {
            want = parse_range(v, 0, UINT64_MAX, &x) ? NULL : "an integer in 0 .. 2^64-1";
            *(a[2] == 'r' ? &o->registered_proof : a[2] == 'm' ? &o->miner_id : &o->sector_num) = x;
            o->miner_given |= a[2] == 'm';
        } else if (!strcmp(a, "--partition")) {
            want = parse_range(v, 0, UINT32_MAX, &x) ? NULL : "an integer in 0 .. 2^32-1";
            o->partition = (uint32_t)x;
        } else if (!strcmp(a, "--randomness") || !strncmp(a, "--comm-", 7)) {
            uint8_t *dst = !strcmp(a, "--randomness") ? o->randomness
                           : !strcmp(a, "--comm-r-old") ? (o->has_r_old = true, o->comm_r_old)
                           : !strcmp(a, "--comm-r-new") ? (o->has_r_new = true, o->comm_r_new)
                                                        : (o->has_d_new = true, o->comm_d_new);
            want = cuzk_unhex(dst, v, 32) ? NULL : "32 bytes in hex (64 digits)";
        } else if (!strcmp(a, "--request-id")) {
            o->request_id = v;
        } else if (!strcmp(a, "-o")) {
            o->out = v;
        } else if (is_count) {
            want = parse_range(v, 1, 1000000, &x) ? NULL : "an integer in 1..1000000";
            *count = (int)x;
        } else {
            want = parse_range(v, 1, 1024, &x) ? NULL : "an integer in 1..1024";
            *conc = (int)x;
        }
        if (want) {
            fprintf(stderr, "cuzk-bench %s: %s \"%s\": want %s\n", cmd, a, v, want);
            return 2;
        }
    }
    if ((bit & C_SRS_ID) && !*circuit_id) {
        fprintf(stderr, "cuzk-bench %s: -c|--circuit-id ID is required\n", cmd);
        command_usage(stderr, ci);
        return 2;
    }
    if (o->proof_kind && synthetic_opt) {
        fprintf(stderr, "cuzk-bench %s: --circuit/--partitions/--seed are for synthetic circuits, not --type\n", cmd);
        return 2;
    }
    if (!o->proof_kind && (o->c1_file || o->n_vanilla_files)) {
        fprintf(stderr, "cuzk-bench %s: --c1 / --vanilla need --type\n", cmd);
        return 2;
    }
    if (o->proof_kind == 1 ? !o->c1_file || o->n_vanilla_files : o->proof_kind && (!o->n_vanilla_files || o->c1_file)) {
        fprintf(stderr, "cuzk-bench %s: --type porep takes --c1 FILE; the other types take --vanilla FILE\n", cmd);
        return 2;
    }
    return -1;
}

/* Read the proof input files into o (kept for the process's life). Returns 0 or 2. */
static int load_proof_files(proof_opts *o, const char *cmd)
{
    cuzk_error err = {0};
    if (o->c1_file) {
        cuzk_mapped_file m;
        if (cuzk_file_map(&m, o->c1_file, &err)) {
            fprintf(stderr, "cuzk-bench %s: %s\n", cmd, err.msg);
            return 2;
        }
        o->vanilla_proof = (ProtobufCBinaryData){m.len, (uint8_t *)m.data};
    }
    for (int i = 0; i < o->n_vanilla_files; i++) {
        cuzk_mapped_file m;
        if (cuzk_file_map(&m, o->vanilla_files[i], &err)) {
            fprintf(stderr, "cuzk-bench %s: %s\n", cmd, err.msg);
            return 2;
        }
        fc_blob_list l = {0};
        bool json = m.len && m.data[0] == '[';
        if (json && fc_blob_list_from_json(&l, m.data, m.len, &err)) {
            fprintf(stderr, "cuzk-bench %s: %s: %s\n", cmd, o->vanilla_files[i], err.msg);
            return 2;
        }
        size_t add = json ? l.n : 1;
        ProtobufCBinaryData *v = realloc(o->vanilla_proofs, (o->n_vanilla_proofs + add) * sizeof *v);
        if (!v) {
            fprintf(stderr, "cuzk-bench %s: out of memory\n", cmd);
            return 2;
        }
        o->vanilla_proofs = v;
        for (size_t j = 0; j < add; j++)
            v[o->n_vanilla_proofs++] = json ? (ProtobufCBinaryData){l.len[j], l.data[j]}
                                            : (ProtobufCBinaryData){m.len, (uint8_t *)m.data};
        /* the buffers stay referenced until exit; only the list arrays are released */
        free(l.data);
        free(l.len);
    }
    return 0;
}

/* gRPC core's own log lines (e.g. "E1130 ... dns_resolver_ares.cc") are dropped: every
 * failure reaches the user as the call's status, printed by this client in its own words. */
static void quiet_core_log(gpr_log_func_args *a)
{
    (void)a;
}

typedef struct {
    const char *tls_ca, *tls_cert, *tls_key, *tls_name, *token_file;
} connection_opts;

/* Take the connection options that follow ADDR out of argv (argv[2..]); returns the number of
 * argv entries consumed, or -1 after an error (printed). */
static int parse_connection(int argc, char **argv, connection_opts *co)
{
    int i = 2;
    while (i < argc && !strncmp(argv[i], "--t", 3)) {
        const char *a = argv[i];
        const char **dst = !strcmp(a, "--tls-ca")     ? &co->tls_ca
                           : !strcmp(a, "--tls-cert")  ? &co->tls_cert
                           : !strcmp(a, "--tls-key")   ? &co->tls_key
                           : !strcmp(a, "--tls-name")  ? &co->tls_name
                           : !strcmp(a, "--token-file") ? &co->token_file
                                                        : NULL;
        if (!dst)
            break;
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench: %s needs a value\n", a);
            return -1;
        }
        *dst = argv[i + 1];
        i += 2;
    }
    if ((co->tls_cert || co->tls_key || co->tls_name) && !co->tls_ca) {
        fprintf(stderr, "cuzk-bench: --tls-cert, --tls-key and --tls-name need --tls-ca\n");
        return -1;
    }
    if (!co->tls_cert != !co->tls_key) {
        fprintf(stderr, "cuzk-bench: --tls-cert and --tls-key go together\n");
        return -1;
    }
    return i - 2;
}

/* A whole PEM file (for --tls-*), or NULL after printing why. */
static char *read_pem_file(const char *opt, const char *path)
{
    char *buf;
    size_t len;
    cuzk_error err;
    if (cuzk_file_read(path, (size_t)1 << 20, false, &buf, &len, &err)) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", opt, err.msg);
        return NULL;
    }
    return buf;
}

/* The channel's credentials from the connection options (insecure without --tls-ca); NULL
 * after printing why. */
static grpc_channel_credentials *connection_credentials(const connection_opts *co)
{
    if (!co->tls_ca)
        return grpc_insecure_credentials_create();
    char *ca = read_pem_file("--tls-ca", co->tls_ca), *cert = NULL, *key = NULL;
    if (!ca || (co->tls_cert && (!(cert = read_pem_file("--tls-cert", co->tls_cert)) ||
                                 !(key = read_pem_file("--tls-key", co->tls_key))))) {
        free(ca);
        free(cert);
        return NULL;
    }
    grpc_ssl_pem_key_cert_pair pair = {.private_key = key, .cert_chain = cert};
    grpc_channel_credentials *creds = grpc_ssl_credentials_create(ca, cert ? &pair : NULL, NULL, NULL);
    free(ca);
    free(cert);
    free(key);
    return creds;
}

int bench_client(int argc, char **argv)
{
    connection_opts co = {0};
    int skip = parse_connection(argc, argv, &co);
    if (skip < 0)
        return 2;
    if (skip) /* drop the connection options: the command is argv[2] */
        memmove(argv + 2, argv + 2 + skip, (size_t)(argc - 2 - skip) * sizeof *argv);
    argc -= skip;
    /* cuzk-bench --addr --help, cuzk-bench --addr ADDR --help */
    const char *first = argc == 2 ? argv[1] : argc > 2 ? argv[2] : "";
    if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (argc < 3) {
        fputs(USAGE, stderr);
        return 2;
    }
    const char *addr = argv[1];
    if (!strncmp(addr, "http://", 7))
        addr += 7;
    cuzk_error aerr;
    if (cuzk_config_check_listen(addr, false, true, &aerr)) { /* the daemon's own listen rules */
        fprintf(stderr, "cuzk-bench: --addr \"%s\": %s\n", argv[1], aerr.msg);
        return 2;
    }
    int ci = -1;
    for (int i = 0; i < (int)(sizeof COMMANDS / sizeof COMMANDS[0]); i++)
        if (!strcmp(argv[2], COMMANDS[i].name))
            ci = i;
    if (ci < 0) {
        fprintf(stderr, "cuzk-bench: unknown command '%s'\n%s", argv[2], USAGE);
        return 2;
    }
    const char *cmd = COMMANDS[ci].name;
    proof_opts o = {.circuit = "synthetic-10", .partitions = 1, .seed = 1};
    int count = 3, conc = 1;
    const char *circuit_id = NULL;
    int prc = parse_options(ci, argc, argv, &o, &count, &conc, &circuit_id);
    if (prc >= 0)
        return prc;
    if (o.proof_kind && (prc = load_proof_files(&o, cmd)))
        return prc;
    client c = {0};
    if (co.token_file) {
        char *token;
        cuzk_error terr;
        if (cuzk_token_file_read(co.token_file, &token, &terr)) {
            fprintf(stderr, "cuzk-bench: --token-file: %s\n", terr.msg);
            return 2;
        }
        size_t n = strlen(token) + 8;
        c.authorization = malloc(n);
        if (!c.authorization) {
            free(token);
            fprintf(stderr, "cuzk-bench: out of memory\n");
            return 2;
        }
        snprintf(c.authorization, n, "Bearer %s", token);
        free(token);
    }
    gpr_set_log_function(quiet_core_log);
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_ERROR);
    grpc_init();
    grpc_channel_credentials *creds = connection_credentials(&co);
    if (!creds) {
        free(c.authorization);
        grpc_shutdown();
        return 2;
    }
    grpc_arg cargs[3] = {
        {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, .value.integer = 256 << 20},
        {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, .value.integer = 256 << 20},
        {.type = GRPC_ARG_STRING, .key = (char *)GRPC_SSL_TARGET_NAME_OVERRIDE_ARG, .value.string = (char *)co.tls_name},
    };
    grpc_channel_args chargs = {.num_args = co.tls_name ? 3 : 2, .args = cargs};
    c.ch = grpc_channel_create(addr, creds, &chargs);
    grpc_channel_credentials_release(creds);
    int rc = 0;
    if (!strcmp(cmd, "single")) {
        proof_result r;
        prove_one(&c, &o, o.seed, &r, true);
        if (r.rpc != GRPC_STATUS_OK) {
            /* no proof outcome: the daemon is unreachable or refused the request */
            rpc_error(addr, cmd, r.rpc, r.error);
            rc = 2;
            goto done;
        }
        printf("status: %s\n", r.ok ? "COMPLETED" : r.cancelled ? "CANCELLED" : "FAILED");
        if (r.ok) {
            printf("total %" PRIu64 " ms, queue %" PRIu64 " ms, synth (summed over partitions) %" PRIu64
                   " ms, prove (summed over partitions) %" PRIu64 " ms, parameter load %" PRIu64
                   " ms (before the total), client wall %.0f ms, proof %zu bytes, %u partition(s) verified by the "
                   "daemon\n",
                   r.total_ms, r.queue_ms, r.synth_ms, r.prove_ms, r.srs_ms, r.wall_s * 1e3, r.proof_len,
                   r.verified);
            if (r.synth_ms + r.prove_ms > r.total_ms)
                printf("note: partitions are synthesized and proved in parallel, so the sums can exceed the "
                       "total\n");
        } else
            printf("error: %s\n", r.error);
        rc = r.ok ? 0 : 1;
    } else if (!strcmp(cmd, "batch")) {
        proof_result *res = calloc((size_t)count, sizeof *res);
        batch_ctx b = {.c = &c, .addr = addr, .o = &o, .res = res, .count = count};
        pthread_mutex_init(&b.mu, NULL);
        pthread_t *th = calloc((size_t)conc, sizeof *th);
        double t0 = bench_now();
        for (int i = 0; i < conc; i++)
            pthread_create(&th[i], NULL, batch_worker, &b);
        for (int i = 0; i < conc; i++)
            pthread_join(th[i], NULL);
        double wall = bench_now() - t0;
        int done = 0;
        double sum = 0, mn = 1e300, mx = 0;
        for (int i = 0; i < count; i++)
            if (res[i].ok) {
                done++;
                sum += res[i].wall_s;
                mn = res[i].wall_s < mn ? res[i].wall_s : mn;
                mx = res[i].wall_s > mx ? res[i].wall_s : mx;
            }
        printf("total %.2f s, completed %d, failed %d\n", wall, done, count - done);
        if (done)
            printf("wall avg %.3f s, min %.3f s, max %.3f s; throughput %.1f proofs/min, %.3f s/proof\n", sum / done,
                   mn, mx, done * 60.0 / wall, wall / done);
        rc = done == count ? 0 : 1;
        pthread_mutex_destroy(&b.mu);
        free(th);
        free(res);
    } else {
        rc = simple(&c, addr, cmd, circuit_id);
    }
done:
    grpc_channel_destroy(c.ch);
    grpc_shutdown();
    free(c.authorization);
    return rc;
}
