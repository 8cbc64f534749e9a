/* Durable job journal ([daemon] journal_dir): every accepted SubmitProof request, and every
 * finished result until its retention ends, as one file each, so that a restarted daemon
 * (after a crash, kill -9 or a shutdown) runs the unfinished jobs again and answers
 * AwaitProof / a retried Prove of the finished ones.
 *
 * Files: "<hex SHA-256 of the request id>.req" (a request) and ".res" (its result), each
 * written with cuzk_write_atomic (temporary file, fsync, rename, directory fsync), so an
 * entry is either whole or absent. Layout (integers little-endian):
 *   magic "CUZKJNL2" | u8 type ('R' request, 'F' finished) | u8 0 | u16 id length |
 *   u32 priority (the engine priority, cuzk_priority) | u64 time (ms since the epoch:
 *   accepted, or finished) | u64 payload length | id | payload | SHA-256 of all before
 * Payload of 'R': the packed cuzk.v1 SubmitProofRequest (request_id = the job id). Of 'F':
 * u32 status (AwaitProofResponse.Status) | u32 verified partitions | 6 x u64 timings (queue,
 * synthesis, prove, finish, total, wall start: cuzk_job_timings order) | u64 proof length |
 * kind name (64 bytes, NUL-padded: the request_id/kind check holds across a restart) |
 * proof | error text (the rest).
 * A file that is short, has another magic, a wrong checksum, or a name that is not its id's
 * hash is reported and renamed "<name>.corrupt" (set aside: kept for inspection, never read
 * again, not counted in the size); so is a stray regular file whose name is not an entry's
 * (not 64 lowercase hex digits and .req / .res: a file the daemon did not write). Leftover
 * temporary files of an interrupted write are removed; files already set aside
 * ("*.corrupt") and anything not a regular file are left alone.
 *
 * Bounded: the entries' total size is kept at most max_bytes; a request that would pass it
 * is refused (the caller answers RESOURCE_EXHAUSTED), results are always written.
 *
 * Thread-safety: every function may be called from any thread (one internal lock for the
 * counters; file writes of different ids run concurrently).
 */
#ifndef CUZK_SERVER_JOURNAL_H
#define CUZK_SERVER_JOURNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

typedef struct cuzk_journal cuzk_journal;

/* One entry read back by cuzk_journal_replay. */
typedef struct {
    char *id;
    bool finished;      /* a result ('F'); else a request ('R') */
    uint32_t priority;  /* 'R': engine priority */
    uint64_t time_ms;   /* accepted / finished, ms since the epoch */
    uint8_t *payload;   /* 'R': the packed request; 'F': see above (parse with cuzk_journal_result) */
    size_t payload_len;
} cuzk_journal_entry;

/* A finished result, as written by cuzk_journal_put_result. */
typedef struct {
    uint32_t status, verified;
    uint64_t timings[6];
    const uint8_t *proof;
    size_t proof_len;
    const char *error; /* "" for none */
    const char *kind;  /* the job's kind name (a circuit or Filecoin kind, < 64 bytes; "" unknown) */
} cuzk_journal_result_data;

/* Open (create, mode 0700) the journal in `dir`. Errors: CUZK_E_IO naming the directory,
 * CUZK_E_NOMEM. */
cuzk_status cuzk_journal_open(const char *dir, uint64_t max_bytes, cuzk_journal **out, cuzk_error *err);
void cuzk_journal_close(cuzk_journal *j);

/* Read every entry (a result wins over the request of the same id, whose file is removed);
 * corrupt entries and stray files are set aside and each reported through `report(ctx,
 * message)` ("journal entry PATH: WHY; set aside ..." / "stray file PATH: ..."). *out is an
 * array of *n entries; free with cuzk_journal_entries_free. Errors: CUZK_E_IO (the folder
 * cannot be listed), CUZK_E_NOMEM. */
cuzk_status cuzk_journal_replay(cuzk_journal *j, void (*report)(void *ctx, const char *msg), void *ctx,
                                cuzk_journal_entry **out, size_t *n, cuzk_error *err);
void cuzk_journal_entries_free(cuzk_journal_entry *e, size_t n);

/* Parse a result payload; false when it is malformed. The pointers point into the payload. */
bool cuzk_journal_result(const cuzk_journal_entry *e, cuzk_journal_result_data *out);

/* Write the request entry of job `id` (fsync'd before it returns). Errors: CUZK_E_IO with
 * *full set when the journal would pass max_bytes (nothing written), CUZK_E_IO, CUZK_E_NOMEM. */
cuzk_status cuzk_journal_put_request(cuzk_journal *j, const char *id, uint32_t priority, const uint8_t *req,
                                     size_t len, bool *full, cuzk_error *err);
/* Write the result entry of job `id`, then remove its request entry. Errors: CUZK_E_IO,
 * CUZK_E_NOMEM. */
cuzk_status cuzk_journal_put_result(cuzk_journal *j, const char *id, const cuzk_journal_result_data *r,
                                    cuzk_error *err);
/* Remove both entries of `id` (retention over, or a request that was refused after all). */
void cuzk_journal_remove(cuzk_journal *j, const char *id);

/* Entries, their bytes, the limit and the files set aside since open. */
typedef struct {
    uint64_t entries, bytes, max_bytes, set_aside;
} cuzk_journal_stats;
void cuzk_journal_get_stats(cuzk_journal *j, cuzk_journal_stats *out);
const char *cuzk_journal_dir(const cuzk_journal *j);

#endif
