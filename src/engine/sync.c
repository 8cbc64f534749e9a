#include "engine/sync.h"

#include <errno.h>
#include <time.h>

int64_t cuzk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int cuzk_cond_init_monotonic(pthread_cond_t *cv)
{
    pthread_condattr_t attr;
    int rc = pthread_condattr_init(&attr);
    if (rc)
        return rc;
    rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (!rc)
        rc = pthread_cond_init(cv, &attr);
    pthread_condattr_destroy(&attr);
    return rc;
}

bool cuzk_cond_wait_until(pthread_cond_t *cv, pthread_mutex_t *mu, int64_t deadline_ns)
{
    if (deadline_ns < 0) {
        pthread_cond_wait(cv, mu);
        return true;
    }
    if (cuzk_now_ns() >= deadline_ns)
        return false;
    struct timespec ts = {.tv_sec = deadline_ns / 1000000000, .tv_nsec = deadline_ns % 1000000000};
    int rc = pthread_cond_timedwait(cv, mu, &ts);
    return rc != ETIMEDOUT || cuzk_now_ns() < deadline_ns;
}

int64_t cuzk_deadline_ms(int64_t timeout_ms)
{
    if (timeout_ms < 0)
        return -1;
    return cuzk_now_ns() + timeout_ms * 1000000;
}
