#include "cli.h"

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
