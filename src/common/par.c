/* Thread teams with a start gate and a barrier, and a work-counter loop; contracts in par.h. */
#include "common/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    void *shared; /* the team or the loop */
    unsigned tid;
    pthread_t handle;
} par_member;

/* Starts up to `count` threads running entry(&members[i]), members[i].tid = i + 1, and
 * returns the member array (NULL when count is 0 or it cannot be allocated) with the number
 * started in *started. */
static par_member *spawn(unsigned count, void *(*entry)(void *), void *shared, unsigned *started)
{
    *started = 0;
    par_member *members = count ? calloc(count, sizeof *members) : NULL;
    if (!members)
        return NULL;
    for (unsigned i = 0; i < count; i++) {
        members[i].shared = shared;
        members[i].tid = i + 1;
        if (pthread_create(&members[i].handle, NULL, entry, &members[i]))
            break;
        (*started)++;
    }
    return members;
}

static void join(par_member *members, unsigned started)
{
    for (unsigned i = 0; i < started; i++)
        pthread_join(members[i].handle, NULL);
    free(members);
}

struct cuzk_par_team {
    pthread_mutex_t lock;
    pthread_cond_t start;
    bool go;
    unsigned nthreads;
    pthread_barrier_t barrier;
    cuzk_par_team_fn fn;
    void *arg;
};

static void *team_member(void *p)
{
    par_member *m = p;
    cuzk_par_team *t = m->shared;
    pthread_mutex_lock(&t->lock);
    while (!t->go)
        pthread_cond_wait(&t->start, &t->lock);
    pthread_mutex_unlock(&t->lock);
    t->fn(t, m->tid, t->nthreads, t->arg);
    return NULL;
}

void cuzk_par_run(unsigned threads, cuzk_par_team_fn fn, void *arg)
{
    if (threads <= 1) {
        fn(NULL, 0, 1, arg);
        return;
    }
    cuzk_par_team team = {.go = false, .fn = fn, .arg = arg};
    pthread_mutex_init(&team.lock, NULL);
    pthread_cond_init(&team.start, NULL);
    unsigned created;
    par_member *members = spawn(threads - 1, team_member, &team, &created);
    team.nthreads = created + 1;
    pthread_barrier_init(&team.barrier, NULL, team.nthreads);
    pthread_mutex_lock(&team.lock);
    team.go = true;
    pthread_cond_broadcast(&team.start);
    pthread_mutex_unlock(&team.lock);
    fn(&team, 0, team.nthreads, arg);
    join(members, created);
    pthread_barrier_destroy(&team.barrier);
    pthread_cond_destroy(&team.start);
    pthread_mutex_destroy(&team.lock);
}

void cuzk_par_barrier(cuzk_par_team *team)
{
    if (team && team->nthreads > 1)
        pthread_barrier_wait(&team->barrier);
}

void cuzk_par_range(size_t n, unsigned tid, unsigned nthreads, size_t *lo, size_t *hi)
{
    size_t q = n / nthreads, r = n % nthreads;
    *lo = tid * q + (tid < r ? tid : r);
    *hi = *lo + q + (tid < r ? 1 : 0);
}

typedef struct {
    cuzk_par_fn fn;
    void *ctx;
    uint64_t items;
    atomic_uint_fast64_t next;
    atomic_bool failed;
    pthread_mutex_t lock;
    cuzk_status status;
    cuzk_error error;
} par_loop;

static void loop_run(par_loop *l, unsigned worker)
{
    cuzk_error e = {0};
    while (!atomic_load(&l->failed)) {
        uint64_t i = atomic_fetch_add(&l->next, 1);
        if (i >= l->items)
            break;
        cuzk_status st = l->fn(l->ctx, i, worker, &e);
        if (st != CUZK_OK) {
            pthread_mutex_lock(&l->lock);
            if (l->status == CUZK_OK) {
                l->status = st;
                l->error = e;
            }
            pthread_mutex_unlock(&l->lock);
            atomic_store(&l->failed, true);
        }
    }
}

static void *loop_member(void *p)
{
    par_member *m = p;
    loop_run(m->shared, m->tid);
    return NULL;
}

cuzk_status cuzk_par_for(unsigned threads, uint64_t items, cuzk_par_fn fn, void *ctx, cuzk_error *err)
{
    par_loop l = {.fn = fn, .ctx = ctx, .items = items, .status = CUZK_OK};
    atomic_init(&l.next, 0);
    atomic_init(&l.failed, false);
    pthread_mutex_init(&l.lock, NULL);
    threads = cuzk_par_threads(threads);
    if ((uint64_t)threads > items)
        threads = items ? (unsigned)items : 1;
    unsigned started;
    par_member *members = spawn(threads - 1, loop_member, &l, &started);
    loop_run(&l, 0);
    join(members, started);
    pthread_mutex_destroy(&l.lock);
    if (l.status != CUZK_OK && err)
        *err = l.error;
    return l.status;
}

unsigned cuzk_par_threads(unsigned threads)
{
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1u;
    }
    return threads > CUZK_PAR_MAX_THREADS ? CUZK_PAR_MAX_THREADS : threads;
}

unsigned cuzk_par_useful_threads(size_t n, size_t grain, unsigned threads)
{
    size_t useful = grain ? n / grain : n;
    if (threads > CUZK_PAR_MAX_TEAM)
        threads = CUZK_PAR_MAX_TEAM;
    if (threads > useful)
        threads = useful ? (unsigned)useful : 1;
    return threads ? threads : 1;
}
