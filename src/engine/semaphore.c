#include "engine/semaphore.h"

#include "engine/log.h"

cuzk_status cuzk_sem_init(cuzk_sem *s, uint32_t permits, cuzk_error *err)
{
    if (permits == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "semaphore permits must be >= 1, got 0");
    if (pthread_mutex_init(&s->mu, NULL))
        return cuzk_fail(err, CUZK_E_INTERNAL, "semaphore: pthread_mutex_init failed");
    if (cuzk_cond_init_monotonic(&s->cv)) {
        pthread_mutex_destroy(&s->mu);
        return cuzk_fail(err, CUZK_E_INTERNAL, "semaphore: pthread_cond_init failed");
    }
    s->available = permits;
    s->capacity = permits;
    return CUZK_OK;
}

void cuzk_sem_destroy(cuzk_sem *s)
{
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
}

cuzk_status cuzk_sem_acquire(cuzk_sem *s, cuzk_abort_fn abort, void *ctx)
{
    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (abort && abort(ctx)) {
            pthread_mutex_unlock(&s->mu);
            return CUZK_E_CANCELLED;
        }
        if (s->available > 0)
            break;
        pthread_cond_wait(&s->cv, &s->mu);
    }
    s->available--;
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
}

void cuzk_sem_release(cuzk_sem *s)
{
    pthread_mutex_lock(&s->mu);
    if (s->available < s->capacity)
        s->available++;
    else
        cuzk_log(CUZK_LOG_ERROR, "semaphore released more often than acquired (capacity %u)", s->capacity);
    /* broadcast, not signal: a woken waiter that aborts must not swallow the wake-up */
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void cuzk_sem_wake(cuzk_sem *s)
{
    pthread_mutex_lock(&s->mu);
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

uint32_t cuzk_sem_available(cuzk_sem *s)
{
    pthread_mutex_lock(&s->mu);
    uint32_t n = s->available;
    pthread_mutex_unlock(&s->mu);
    return n;
}
