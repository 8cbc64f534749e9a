/* Journal replay at start (service_internal.h svc_journal_replay, journal.h). */
#include <grpc/status.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/log.h"
#include "server/service_internal.h"

static void report(void *ctx, const char *msg)
{
    cuzk_log(CUZK_LOG_ERROR, "%s", msg);
}

/* Unfinished requests run again: higher engine priority first, then in the order accepted. */
static int by_priority_then_time(const void *a, const void *b)
{
    const cuzk_journal_entry *x = *(const cuzk_journal_entry *const *)a, *y = *(const cuzk_journal_entry *const *)b;
    if (x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    return (x->time_ms > y->time_ms) - (x->time_ms < y->time_ms);
}

static int by_time(const void *a, const void *b)
{
    const cuzk_journal_entry *x = a, *y = b;
    return (x->time_ms > y->time_ms) - (x->time_ms < y->time_ms);
}

/* A request that cannot run again becomes a FAILED result with the reason, kept (and
 * journaled) like any other, so that AwaitProof of its id says why. */
static void fail_replayed(cuzk_service *s, const char *id, const char *kind, const char *why)
{
    char msg[1400];
    snprintf(msg, sizeof msg, "the daemon restarted and could not run this job again: %s", why);
    cuzk_journal_result_data r = {CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED, 0, {0}, NULL, 0, msg, kind};
    cuzk_error e;
    if (cuzk_journal_put_result(s->journal, id, &r, &e))
        cuzk_log(CUZK_LOG_ERROR, "journal: %s", e.msg);
    if (svc_add_finished(s, id, &r, 0, &e))
        cuzk_log(CUZK_LOG_ERROR, "journal: job %s: %s", id, e.msg);
    pthread_mutex_lock(&s->mu);
    s->failed++;
    pthread_mutex_unlock(&s->mu);
    cuzk_log(CUZK_LOG_WARN, "journal: job %s: %s", id, msg);
}

void svc_journal_replay(cuzk_service *s)
{
    cuzk_journal_entry *es;
    size_t n;
    cuzk_error err;
    if (cuzk_journal_replay(s->journal, report, NULL, &es, &n, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "journal: %s; starting without the journaled jobs", err.msg);
        return;
    }
    if (n) /* results re-enter the retention list oldest first, as the pruning expects */
        qsort(es, n, sizeof *es, by_time);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double now = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    const cuzk_journal_entry **todo = calloc(n ? n : 1, sizeof *todo);
    size_t n_todo = 0, kept = 0, expired = 0;
    for (size_t i = 0; i < n; i++) {
        const cuzk_journal_entry *e = &es[i];
        if (!e->finished) {
            if (todo)
                todo[n_todo++] = e;
            continue;
        }
        cuzk_journal_result_data r;
        double age = now - (double)e->time_ms;
        if (!cuzk_journal_result(e, &r)) {
            cuzk_log(CUZK_LOG_ERROR, "journal: the result of job %s is malformed; dropped", e->id);
            cuzk_journal_remove(s->journal, e->id);
        } else if (age >= (double)s->retention_ms) {
            cuzk_journal_remove(s->journal, e->id);
            expired++;
        } else if (svc_add_finished(s, e->id, &r, age < 0 ? 0 : age, &err)) {
            cuzk_log(CUZK_LOG_ERROR, "journal: job %s: %s", e->id, err.msg);
        } else {
            kept++;
        }
    }
    if (n_todo)
        qsort(todo, n_todo, sizeof *todo, by_priority_then_time);
    size_t rerun = 0;
    for (size_t i = 0; i < n_todo; i++) {
        const cuzk_journal_entry *e = todo[i];
        Cuzk__V1__SubmitProofRequest *req = cuzk__v1__submit_proof_request__unpack(NULL, e->payload_len, e->payload);
        if (!req || !req->request_id || strcmp(req->request_id, e->id)) {
            fail_replayed(s, e->id, "", "its journaled request does not decode");
            if (req)
                cuzk__v1__submit_proof_request__free_unpacked(req, NULL);
            continue;
        }
        char *id;
        uint32_t pos;
        cuzk_rpc_status r = svc_submit_job(s, req, true, &id, &pos);
        if (r.code) {
            char kind[sizeof ((svc_job *)0)->kind_name];
            svc_kind_name(req, kind, sizeof kind);
            fail_replayed(s, e->id, kind, r.msg);
        } else {
            rerun++;
            free(id);
        }
        cuzk__v1__submit_proof_request__free_unpacked(req, NULL);
    }
    free(todo);
    cuzk_journal_stats st;
    cuzk_journal_get_stats(s->journal, &st);
    cuzk_log(CUZK_LOG_INFO,
             "journal %s: %zu unfinished job(s) running again, %zu result(s) kept, %zu expired; %llu entries, "
             "%llu bytes (max %llu), %llu set aside",
             cuzk_journal_dir(s->journal), rerun, kept, expired, (unsigned long long)st.entries,
             (unsigned long long)st.bytes, (unsigned long long)st.max_bytes, (unsigned long long)st.set_aside);
    cuzk_journal_entries_free(es, n);
}
