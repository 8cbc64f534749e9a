/* pthread team with a start gate and a barrier; contracts in par.h. */
#include "poly/par.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct par_team {
    pthread_mutex_t lock;
    pthread_cond_t start;
    bool go;
    unsigned nthreads;
    pthread_barrier_t barrier;
    par_fn fn;
    void *arg;
};

typedef struct {
    par_team *team;
    unsigned tid;
    pthread_t handle;
} par_member;

static void *member_main(void *p)
{
    par_member *m = p;
    par_team *t = m->team;
    pthread_mutex_lock(&t->lock);
    while (!t->go)
        pthread_cond_wait(&t->start, &t->lock);
    pthread_mutex_unlock(&t->lock);
    t->fn(t, m->tid, t->nthreads, t->arg);
    return NULL;
}

void par_run(unsigned threads, par_fn fn, void *arg)
{
    if (threads <= 1) {
        fn(NULL, 0, 1, arg);
        return;
    }
    par_team team = {.go = false, .fn = fn, .arg = arg};
    pthread_mutex_init(&team.lock, NULL);
    pthread_cond_init(&team.start, NULL);
    par_member *members = calloc(threads - 1, sizeof *members);
    unsigned created = 0;
    if (members) {
        for (; created < threads - 1; created++) {
            members[created].team = &team;
            members[created].tid = created + 1;
            if (pthread_create(&members[created].handle, NULL, member_main, &members[created]))
                break;
        }
    }
    team.nthreads = created + 1;
    pthread_barrier_init(&team.barrier, NULL, team.nthreads);
    pthread_mutex_lock(&team.lock);
    team.go = true;
    pthread_cond_broadcast(&team.start);
    pthread_mutex_unlock(&team.lock);
    fn(&team, 0, team.nthreads, arg);
    for (unsigned i = 0; i < created; i++)
        pthread_join(members[i].handle, NULL);
    free(members);
    pthread_barrier_destroy(&team.barrier);
    pthread_cond_destroy(&team.start);
    pthread_mutex_destroy(&team.lock);
}

void par_barrier(par_team *team)
{
    if (team && team->nthreads > 1)
        pthread_barrier_wait(&team->barrier);
}

void par_range(size_t n, unsigned tid, unsigned nthreads, size_t *lo, size_t *hi)
{
    size_t q = n / nthreads, r = n % nthreads;
    *lo = tid * q + (tid < r ? tid : r);
    *hi = *lo + q + (tid < r ? 1 : 0);
}

unsigned par_useful_threads(size_t n, unsigned threads)
{
    size_t useful = n >> 12;
    if (threads > 512)
        threads = 512;
    if (threads > useful)
        threads = useful ? (unsigned)useful : 1;
    return threads ? threads : 1;
}
