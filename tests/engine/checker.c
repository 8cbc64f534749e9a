#include "checker.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void checker_init(checker *c, uint32_t pw, uint32_t capacity, uint64_t budget)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    atomic_init(&c->engine, NULL);
    c->pw = pw;
    c->capacity = capacity;
    c->budget = budget;
}

void checker_destroy(checker *c)
{
    pthread_mutex_destroy(&c->mu);
}

/* mu held */
static void bad(checker *c, const char *fmt, ...)
{
    if (c->violations++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->first_violation, sizeof c->first_violation, fmt, ap);
        va_end(ap);
    }
}

#define BIT(t) (1u << (t))

/* mu held: stage-order rules for one partition event. */
static void check_partition(checker *c, const cuzk_engine_event *ev)
{
    if (ev->job_id >= CHK_MAX_JOBS || ev->partition >= CHK_MAX_PARTS) {
        bad(c, "event for job %llu partition %u outside the checker's table", (unsigned long long)ev->job_id,
            ev->partition);
        return;
    }
    uint32_t *seen = &c->seen[ev->job_id][ev->partition];
    int64_t *bytes = &c->bytes[ev->job_id][ev->partition];
    static const struct {
        cuzk_event_type type, needs;
    } order[] = {
        {CUZK_EV_SYNTH_START, CUZK_EV_MEM_ACQUIRED}, {CUZK_EV_SYNTH_END, CUZK_EV_SYNTH_START},
        {CUZK_EV_PERMIT_RELEASED, CUZK_EV_SYNTH_START}, {CUZK_EV_PROVE_START, CUZK_EV_SYNTH_END},
        {CUZK_EV_PROVE_END, CUZK_EV_PROVE_START},   {CUZK_EV_FINISH_END, CUZK_EV_PROVE_END},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (ev->type == order[i].type && !(*seen & BIT(order[i].needs)))
            bad(c, "job %llu partition %u: event %d before event %d", (unsigned long long)ev->job_id,
                ev->partition, ev->type, order[i].needs);
    if (ev->type != CUZK_EV_MEM_RELEASED && (*seen & BIT(ev->type)))
        bad(c, "job %llu partition %u: event %d twice", (unsigned long long)ev->job_id, ev->partition, ev->type);
    if (ev->type == CUZK_EV_PERMIT_RELEASED && ev->accepted && !(*seen & BIT(CUZK_EV_SYNTH_END)))
        bad(c, "job %llu partition %u accepted by the channel without synthesis", (unsigned long long)ev->job_id,
            ev->partition);
    *seen |= BIT(ev->type);

    switch (ev->type) {
    case CUZK_EV_MEM_ACQUIRED:
        *bytes += (int64_t)ev->bytes;
        break;
    case CUZK_EV_MEM_RELEASED:
        *bytes -= (int64_t)ev->bytes;
        if (*bytes < 0)
            bad(c, "job %llu partition %u released more bytes than it reserved", (unsigned long long)ev->job_id,
                ev->partition);
        break;
    case CUZK_EV_SYNTH_START:
        if (++c->held > c->peak_held)
            c->peak_held = c->held;
        if (c->held > (int64_t)c->pw)
            bad(c, "%lld permits held (synthesizing or unaccepted) > partition_workers %u", (long long)c->held, c->pw);
        break;
    case CUZK_EV_PERMIT_RELEASED:
        if (--c->held < 0)
            bad(c, "permit count below zero");
        break;
    default:
        break;
    }
}

/* mu held: a settled job must have released everything. */
static void check_settled(checker *c, uint64_t job)
{
    if (job >= CHK_MAX_JOBS)
        return;
    for (uint32_t p = 0; p < CHK_MAX_PARTS; p++) {
        uint32_t seen = c->seen[job][p];
        if (c->bytes[job][p] != 0)
            bad(c, "job %llu settled but partition %u still holds %lld bytes", (unsigned long long)job, p,
                (long long)c->bytes[job][p]);
        if ((seen & BIT(CUZK_EV_MEM_ACQUIRED)) &&
            !(seen & (BIT(CUZK_EV_FINISH_END) | BIT(CUZK_EV_PARTITION_DISCARDED))))
            bad(c, "job %llu settled but partition %u neither finished nor was discarded", (unsigned long long)job, p);
        if ((seen & BIT(CUZK_EV_SYNTH_START)) && !(seen & BIT(CUZK_EV_PERMIT_RELEASED)))
            bad(c, "job %llu settled but partition %u never returned its permit", (unsigned long long)job, p);
        if ((seen & BIT(CUZK_EV_PROVE_START)) && !(seen & (BIT(CUZK_EV_PROVE_END) | BIT(CUZK_EV_PARTITION_DISCARDED))))
            bad(c, "job %llu settled but partition %u is stuck in prove_start", (unsigned long long)job, p);
    }
}

/* mu held: the engine's own gauges at this instant. */
static void check_gauges(checker *c)
{
    cuzk_engine *e = atomic_load(&c->engine);
    if (!e)
        return;
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, v);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++)
        if (v[i].current < 0 || v[i].low < 0)
            bad(c, "counter %s went negative (current %lld, low %lld)", cuzk_counter_name(i),
                (long long)v[i].current, (long long)v[i].low);
    if (v[CUZK_CTR_PERMITS_HELD].current > (int64_t)c->pw)
        bad(c, "permits_held %lld > partition_workers %u", (long long)v[CUZK_CTR_PERMITS_HELD].current, c->pw);
    if (v[CUZK_CTR_SYNTHESIZING].current > (int64_t)c->pw)
        bad(c, "synthesizing %lld > partition_workers %u", (long long)v[CUZK_CTR_SYNTHESIZING].current, c->pw);
    if (v[CUZK_CTR_QUEUED].current > (int64_t)c->capacity)
        bad(c, "queued %lld > channel capacity %u", (long long)v[CUZK_CTR_QUEUED].current, c->capacity);
    if (v[CUZK_CTR_MEMORY_USED_BYTES].current > (int64_t)c->budget)
        bad(c, "memory used %lld > budget %llu", (long long)v[CUZK_CTR_MEMORY_USED_BYTES].current,
            (unsigned long long)c->budget);
}

void checker_on_event(void *ctx, const cuzk_engine_event *ev)
{
    checker *c = ctx;
    pthread_mutex_lock(&c->mu);
    c->events++;
    if (ev->partition != UINT32_MAX)
        check_partition(c, ev);
    if (ev->type == CUZK_EV_JOB_SETTLED) {
        c->settled++;
        check_settled(c, ev->job_id);
    }
    check_gauges(c);
    pthread_mutex_unlock(&c->mu);
}
