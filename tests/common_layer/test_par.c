/* common/par.h against its contract: every item of a loop runs exactly once, on a worker
 * below the thread count; the first failing item stops the handing out and its status and
 * message come back; a team's barrier separates its phases; the ranges tile [0, n) with
 * parts differing by at most one; the thread-count rules (online CPUs for 0, the caps, one
 * thread per grain). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/par.h"

typedef struct {
    atomic_uint *seen;
    unsigned threads;
    atomic_uint bad_worker;
    uint64_t fail_at; /* UINT64_MAX: never */
    atomic_uint calls;
} loop_ctx;

static cuzk_status visit(void *p, uint64_t item, unsigned worker, cuzk_error *err)
{
    loop_ctx *c = p;
    atomic_fetch_add(&c->calls, 1);
    atomic_fetch_add(&c->seen[item], 1);
    if (worker >= c->threads)
        atomic_fetch_add(&c->bad_worker, 1);
    if (item == c->fail_at)
        return cuzk_fail(err, CUZK_E_FORMAT, "item %llu refused", (unsigned long long)item);
    return CUZK_OK;
}

static void loop(void)
{
    enum { N = 20000 };
    atomic_uint *seen = calloc(N, sizeof *seen);
    CHECK(seen != NULL, "calloc");
    if (!seen)
        return;
    unsigned counts[] = {1, 2, 4, 7};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        memset(seen, 0, N * sizeof *seen);
        loop_ctx c = {.seen = seen, .threads = counts[k], .fail_at = UINT64_MAX};
        cuzk_error err = {0};
        CHECK(cuzk_par_for(counts[k], N, visit, &c, &err) == CUZK_OK, "%u threads: ok", counts[k]);
        unsigned once = 0;
        for (size_t i = 0; i < N; i++)
            once += atomic_load(&seen[i]) == 1;
        CHECK(once == N, "%u threads: %u of %d items ran exactly once", counts[k], once, N);
        CHECK(atomic_load(&c.bad_worker) == 0, "%u threads: worker ids below the thread count", counts[k]);
    }
    /* more threads than items: workers only below the item count */
    memset(seen, 0, N * sizeof *seen);
    loop_ctx few = {.seen = seen, .threads = 3, .fail_at = UINT64_MAX};
    CHECK(cuzk_par_for(16, 3, visit, &few, NULL) == CUZK_OK && atomic_load(&few.calls) == 3 &&
              atomic_load(&few.bad_worker) == 0,
          "3 items on 16 threads: 3 calls, workers < 3 (%u calls)", atomic_load(&few.calls));
    loop_ctx none = {.seen = seen, .threads = 1, .fail_at = UINT64_MAX};
    CHECK(cuzk_par_for(4, 0, visit, &none, NULL) == CUZK_OK && atomic_load(&none.calls) == 0, "no items: no call");

    /* one thread: items in order, the failing one is the last to run */
    memset(seen, 0, N * sizeof *seen);
    loop_ctx one = {.seen = seen, .threads = 1, .fail_at = 100};
    cuzk_error err = {0};
    CHECK(cuzk_par_for(1, N, visit, &one, &err) == CUZK_E_FORMAT && strstr(err.msg, "item 100 refused"),
          "one thread: the failing item's status and message (%s)", err.msg);
    CHECK(atomic_load(&one.calls) == 101, "one thread: items 0..100 ran, then none (%u calls)", atomic_load(&one.calls));
    /* several threads: the failure stops the handing out long before the end */
    memset(seen, 0, N * sizeof *seen);
    loop_ctx many = {.seen = seen, .threads = 4, .fail_at = 10};
    memset(&err, 0, sizeof err);
    CHECK(cuzk_par_for(4, N, visit, &many, &err) == CUZK_E_FORMAT && strstr(err.msg, "item 10 refused"),
          "4 threads: the failing item's status and message (%s)", err.msg);
    CHECK(atomic_load(&many.calls) < N, "4 threads: items stop after the failure (%u of %d ran)",
          atomic_load(&many.calls), N);
    free(seen);
}

enum { TEAM = 4 };
typedef struct {
    atomic_uint phase1[TEAM];
    atomic_uint saw[TEAM]; /* phase-1 marks each member saw after the barrier */
    atomic_uint team_size_ok;
} team_ctx;

static void member(cuzk_par_team *team, unsigned tid, unsigned nthreads, void *arg)
{
    team_ctx *c = arg;
    if (nthreads == TEAM)
        atomic_fetch_add(&c->team_size_ok, 1);
    usleep(20000 * tid); /* late members: a barrier that does not wait shows here */
    atomic_store(&c->phase1[tid], 1);
    cuzk_par_barrier(team);
    unsigned n = 0;
    for (unsigned i = 0; i < nthreads; i++)
        n += atomic_load(&c->phase1[i]);
    atomic_store(&c->saw[tid], n);
}

static void team(void)
{
    team_ctx c;
    memset(&c, 0, sizeof c);
    cuzk_par_run(TEAM, member, &c);
    CHECK(atomic_load(&c.team_size_ok) == TEAM, "a team of %d members, each told the size", TEAM);
    for (unsigned t = 0; t < TEAM; t++)
        CHECK(atomic_load(&c.saw[t]) == TEAM, "member %u saw %u of %d phase-1 marks after the barrier", t,
              atomic_load(&c.saw[t]), TEAM);
    team_ctx s;
    memset(&s, 0, sizeof s);
    cuzk_par_run(1, member, &s);
    CHECK(atomic_load(&s.saw[0]) == 1, "a team of one runs on the caller, its barrier returns");
}

static void ranges(void)
{
    size_t sizes[] = {0, 1, 5, 1000, 1001, 4099};
    unsigned parts[] = {1, 2, 3, 7, 64};
    for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
        for (size_t b = 0; b < sizeof parts / sizeof parts[0]; b++) {
            size_t n = sizes[a], next = 0;
            unsigned t = parts[b];
            int ok = 1;
            for (unsigned tid = 0; tid < t; tid++) {
                size_t lo, hi;
                cuzk_par_range(n, tid, t, &lo, &hi);
                size_t want = n / t + (tid < n % t ? 1 : 0);
                ok &= lo == next && hi - lo == want;
                next = hi;
            }
            CHECK(ok && next == n, "range %zu over %u parts: contiguous, sizes n/t or n/t + 1 first", n, t);
        }
}

static void counts(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned want = online > 0 ? (unsigned)online : 1;
    if (want > 256)
        want = 256;
    CHECK(cuzk_par_threads(0) == want, "0 threads: the online CPUs (%u, want %u)", cuzk_par_threads(0), want);
    CHECK(cuzk_par_threads(3) == 3 && cuzk_par_threads(1000) == 256, "thread counts kept, capped at 256");
    CHECK(cuzk_par_useful_threads((size_t)3 << 12, 4096, 8) == 3, "one thread per grain");
    CHECK(cuzk_par_useful_threads(100, 4096, 8) == 1, "less than a grain: one thread");
    CHECK(cuzk_par_useful_threads((size_t)1 << 30, 4096, 1000) == 512, "teams capped at 512");
    CHECK(cuzk_par_useful_threads((size_t)1 << 20, 4096, 0) == 1, "0 threads asked: one");
}

int main(void)
{
    loop();
    team();
    ranges();
    counts();
    return check_summary("common_par");
}
