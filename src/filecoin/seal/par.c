/* Work-counter parallel loop; contracts in par.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "filecoin/seal/par.h"

typedef struct {
    fc_par_fn fn;
    void *ctx;
    uint64_t items;
    atomic_uint_fast64_t next;
    atomic_bool failed;
    pthread_mutex_t lock;
    cuzk_status status;
    cuzk_error error;
} par_job;

typedef struct {
    par_job *job;
    unsigned worker;
} par_member;

static void run(par_job *j, unsigned worker)
{
    cuzk_error e = {0};
    while (!atomic_load(&j->failed)) {
        uint64_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->items)
            break;
        cuzk_status st = j->fn(j->ctx, i, worker, &e);
        if (st != CUZK_OK) {
            pthread_mutex_lock(&j->lock);
            if (j->status == CUZK_OK) {
                j->status = st;
                j->error = e;
            }
            pthread_mutex_unlock(&j->lock);
            atomic_store(&j->failed, true);
        }
    }
}

static void *member_main(void *p)
{
    par_member *m = p;
    run(m->job, m->worker);
    return NULL;
}

cuzk_status fc_par_for(unsigned threads, uint64_t items, fc_par_fn fn, void *ctx, cuzk_error *err)
{
    par_job j = {.fn = fn, .ctx = ctx, .items = items, .status = CUZK_OK};
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, false);
    pthread_mutex_init(&j.lock, NULL);
    if (threads == 0)
        threads = 1;
    if ((uint64_t)threads > items)
        threads = items ? (unsigned)items : 1;
    pthread_t *tid = NULL;
    par_member *mem = NULL;
    unsigned started = 0;
    if (threads > 1) {
        tid = calloc(threads - 1, sizeof *tid);
        mem = calloc(threads - 1, sizeof *mem);
        if (tid && mem)
            for (; started < threads - 1; started++) {
                mem[started] = (par_member){&j, started + 1};
                if (pthread_create(&tid[started], NULL, member_main, &mem[started]))
                    break;
            }
    }
    run(&j, 0);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    free(mem);
    pthread_mutex_destroy(&j.lock);
    if (j.status != CUZK_OK && err)
        *err = j.error;
    return j.status;
}
