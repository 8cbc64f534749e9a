/* Parallel loop over work items (cs_par.h). */
#include "cs/cs_par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#define MAX_THREADS 256u

typedef struct {
    size_t n;
    atomic_size_t next;
    void (*fn)(void *arg, size_t i);
    void *arg;
} loop;

static void *worker(void *p)
{
    loop *l = p;
    for (;;) {
        size_t i = atomic_fetch_add(&l->next, 1);
        if (i >= l->n)
            return NULL;
        l->fn(l->arg, i);
    }
}

unsigned cs_par_threads(unsigned threads)
{
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1u;
    }
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

void cs_par_for(size_t n, unsigned threads, void (*fn)(void *arg, size_t i), void *arg)
{
    loop l = {.n = n, .fn = fn, .arg = arg};
    atomic_init(&l.next, 0);
    threads = cs_par_threads(threads);
    pthread_t tid[MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads && t < n; t++) {
        if (pthread_create(&tid[started], NULL, worker, &l) != 0)
            break; /* fewer helpers: the caller still finishes every item */
        started++;
    }
    worker(&l);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}
