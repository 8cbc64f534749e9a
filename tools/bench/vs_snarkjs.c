/* cuzk-bench vs-snarkjs: time `cuzk prove` and `snarkjs groth16 prove` as whole commands on
 * the same .zkey and .wtns, alternating runs, and report min/median and the ratio. Both
 * proofs are checked with `snarkjs groth16 verify` so the race is between valid provers. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "bench.h"

static double run_timed(const char *cmd)
{
    double t = bench_now();
    int rc = system(cmd);
    double d = bench_now() - t;
    if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
        fprintf(stderr, "cuzk-bench vs-snarkjs: command failed (%d): %s\n", rc, cmd);
        return -1;
    }
    return d;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* snarkjs command: $SNARKJS, else the pinned npm copy of the repository this binary was
 * built in (<repo>/tests/oracle, found relative to the working directory or to the binary
 * in <repo>/build*), else `snarkjs` on PATH. */
static const char *default_snarkjs(char *buf, size_t cap)
{
    static const char rel[] = "tests/oracle/node_modules/snarkjs/build/cli.cjs";
    const char *env = getenv("SNARKJS");
    if (env)
        return env;
    if (access(rel, R_OK) == 0) {
        snprintf(buf, cap, "node %s", rel);
        return buf;
    }
    char self[PATH_MAX], path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *dir = dirname(self); /* <repo>/build */
        snprintf(path, sizeof path, "%s/../%s", dir, rel);
        if (access(path, R_OK) == 0) {
            snprintf(buf, cap, "node '%s'", path);
            return buf;
        }
    }
    return "snarkjs";
}

int bench_vs_snarkjs(int argc, char **argv)
{
    const char *zkey = NULL, *wtns = NULL;
    int runs = 3, json = 0;
    unsigned threads = 0;
    char sjbuf[PATH_MAX + 64];
    const char *snarkjs = default_snarkjs(sjbuf, sizeof sjbuf);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--snarkjs") && i + 1 < argc)
            snarkjs = argv[++i];
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!zkey)
            zkey = argv[i];
        else if (!wtns)
            wtns = argv[i];
        else {
            fprintf(stderr, "cuzk-bench vs-snarkjs: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!zkey || !wtns || runs < 1 || runs > 100) {
        fprintf(stderr, "usage: cuzk-bench vs-snarkjs <circuit.zkey> <witness.wtns> [--runs N] [--threads N] "
                        "[--snarkjs CMD] [--json]\n");
        return 2;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "cuzk-bench vs-snarkjs: cannot locate the cuzk binary\n");
        return 2;
    }
    self[n] = 0;
    char dir[PATH_MAX], tmpl[] = "/tmp/cuzk-bench-XXXXXX";
    snprintf(dir, sizeof dir, "%s", dirname(self));
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 2;
    }
    char thr[32] = "";
    if (threads)
        snprintf(thr, sizeof thr, "--threads %u", threads);
    char cz[4 * PATH_MAX], sj[4 * PATH_MAX], vk[4 * PATH_MAX], v1[4 * PATH_MAX], v2[4 * PATH_MAX];
    snprintf(cz, sizeof cz, "'%s/cuzk' prove %s '%s' '%s' %s/cz.proof.json %s/cz.public.json", dir, thr, zkey, wtns,
             tmpl, tmpl);
    snprintf(sj, sizeof sj, "%s groth16 prove '%s' '%s' %s/sj.proof.json %s/sj.public.json >/dev/null", snarkjs, zkey,
             wtns, tmpl, tmpl);
    snprintf(vk, sizeof vk, "%s zkey export verificationkey '%s' %s/vk.json >/dev/null", snarkjs, zkey, tmpl);
    snprintf(v1, sizeof v1, "%s groth16 verify %s/vk.json %s/cz.public.json %s/cz.proof.json >/dev/null", snarkjs,
             tmpl, tmpl, tmpl);
    snprintf(v2, sizeof v2, "%s groth16 verify %s/vk.json %s/sj.public.json %s/sj.proof.json >/dev/null", snarkjs,
             tmpl, tmpl, tmpl);
    double *tc = calloc((size_t)runs, sizeof *tc), *ts = calloc((size_t)runs, sizeof *ts);
    int ok = tc && ts && run_timed(vk) >= 0;
    for (int r = 0; ok && r < runs; r++) {
        tc[r] = run_timed(cz);
        ts[r] = run_timed(sj);
        ok = tc[r] >= 0 && ts[r] >= 0 && run_timed(v1) >= 0 && run_timed(v2) >= 0;
    }
    char rm[PATH_MAX + 16];
    snprintf(rm, sizeof rm, "rm -rf %s", tmpl);
    if (system(rm) != 0)
        fprintf(stderr, "cuzk-bench: could not remove %s\n", tmpl);
    if (!ok) {
        free(tc), free(ts);
        return 1;
    }
    qsort(tc, (size_t)runs, sizeof *tc, cmp_double);
    qsort(ts, (size_t)runs, sizeof *ts, cmp_double);
    FILE *out = json ? stderr : stdout; /* with --json, stdout carries only the JSON object */
    fprintf(out, "%-22s %10s %10s\n", "prover (whole command)", "min s", "median s");
    fprintf(out, "%-22s %10.3f %10.3f\n", "cuzk prove", tc[0], tc[runs / 2]);
    fprintf(out, "%-22s %10.3f %10.3f\n", "snarkjs groth16 prove", ts[0], ts[runs / 2]);
    fprintf(out, "speedup (snarkjs / cuzk, min): %.2fx   (both proofs verified by snarkjs)\n", ts[0] / tc[0]);
    if (json) {
        json_t *j = json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f}", "zkey", zkey, "wtns", wtns, "runs", runs,
                              "cuzk_min_s", tc[0], "cuzk_median_s", tc[runs / 2], "snarkjs_min_s", ts[0],
                              "snarkjs_median_s", ts[runs / 2], "speedup", ts[0] / tc[0]);
        char *txt = json_dumps(j, JSON_COMPACT);
        printf("%s\n", txt);
        free(txt);
        json_decref(j);
    }
    free(tc), free(ts);
    return 0;
}
