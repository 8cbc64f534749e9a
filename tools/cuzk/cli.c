#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/file_io.h"

int cli_parse(int argc, char **argv, const char *usage, int npos, cli_opts *o)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    memset(o, 0, sizeof *o);
    o->threads = ncpu > 0 ? (unsigned)ncpu : 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = true;
        } else if (!strcmp(a, "--threads") || !strcmp(a, "-t")) {
            char *end;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || *end || v < 1 || v > 1024) {
                fprintf(stderr, "%s: --threads needs an integer in 1..1024\n%s", argv[0], usage);
                return -2;
            }
            o->threads = (unsigned)v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "%s: unknown option '%s'\n%s", argv[0], a, usage);
            return -2;
        } else if (o->npos < 8) {
            o->pos[o->npos++] = a;
        }
    }
    if (o->npos != npos) {
        fprintf(stderr, "%s: expected %d arguments, got %d\n%s", argv[0], npos, o->npos, usage);
        return -2;
    }
    return 0;
}

bool cli_outputs_distinct(const char *cmd, const cli_opts *o, int first_out)
{
    for (int i = 0; i < first_out; i++)
        for (int j = first_out; j < o->npos; j++)
            if (cuzk_same_file(o->pos[i], o->pos[j])) {
                fprintf(stderr, "cuzk %s: error: output %s is the input %s\n", cmd, o->pos[j], o->pos[i]);
                return false;
            }
    return true;
}

int cli_fail(const char *cmd, const cuzk_error *err)
{
    fprintf(stderr, "cuzk %s: error (%s): %s\n", cmd, cuzk_status_name(err->code), err->msg);
    return CLI_ERROR;
}

double cli_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

struct cli_progress {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    bool stop;
    const char *cmd;
    uint32_t partitions, current; /* mu */
    const char *phase;            /* mu: of partition `current`, NULL = none */
    double t0, phase_t0;          /* mu: start of the work, of the phase */
};

static void *progress_main(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += CLI_PROGRESS_TICK_S;
        while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &ts) != ETIMEDOUT) {
        }
        if (!p->stop && p->phase)
            fprintf(stderr, "cuzk %s: partition %u/%u: %s, %.0f s elapsed\n", p->cmd, p->current, p->partitions,
                    p->phase, (cli_now_ms() - p->t0) / 1e3);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cli_progress *cli_progress_start(const char *cmd, uint32_t partitions)
{
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->cmd = cmd;
    p->partitions = partitions;
    p->t0 = p->phase_t0 = cli_now_ms();
    if (pthread_create(&p->thread, NULL, progress_main, p)) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void cli_progress_phase(cli_progress *p, uint32_t k, const char *phase)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    double now = cli_now_ms();
    if (p->phase && p->current == k && now - p->phase_t0 >= 1000)
        fprintf(stderr, "cuzk %s: partition %u/%u: %s %.2f s\n", p->cmd, k, p->partitions, p->phase,
                (now - p->phase_t0) / 1e3);
    p->current = k;
    p->phase = phase;
    p->phase_t0 = now;
    pthread_mutex_unlock(&p->mu);
}

void cli_progress_stop(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
