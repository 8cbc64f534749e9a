/* cuzk params gen <circuit> --sector-size S --out DIR: TEST-ONLY Groth16 parameters for a
 * Filecoin circuit, written under the official v28 file names (registry.h fc_param_stem,
 * docs/formats.md#parameter-file-names-and-digests) so that every proving path can run without
 * the official files.
 * The circuit is recorded (CS_RECORD), a setup with random toxic waste produces the
 * bellperson-form key (groth16_setup), and the .params / .vk are written atomically. Whoever
 * runs this knows the toxic waste and can forge proofs: never use such files for real
 * sectors. Existing files are not overwritten without --force (they may be the official
 * ones). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/file_io.h"
#include "filecoin/core/circuit_info.h"
#include "groth16/bellperson_params.h"

static const char USAGE[] =
    "usage: cuzk params gen <porep|winning-post|window-post|snap|snap-poseidon> --sector-size S --out DIR\n"
    "                       [--threads N] [--force | --keep-existing]\n"
    "  writes TEST-ONLY parameters (random toxic waste: anyone holding it can forge proofs)\n"
    "  as DIR/<official v28 name>.params and .vk; S is 2KiB, 8MiB, 512MiB, 32GiB or 64GiB.\n"
    "  An existing file is an error unless --force (replace) or --keep-existing (keep both\n"
    "  files when both exist, exit 0). Prints one JSON line.\n";

static int gen(int argc, char **argv)
{
    const char *family = NULL, *size = NULL, *out = NULL;
    bool force = false, keep = false;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = ncpu > 0 ? (unsigned)ncpu : 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return CLI_OK;
        } else if (!strcmp(a, "--sector-size") && v) {
            size = v, i++;
        } else if (!strcmp(a, "--out") && v) {
            out = v, i++;
        } else if (!strcmp(a, "--threads") && v) {
            char *end;
            long t = strtol(v, &end, 10);
            if (*end || t < 1 || t > 1024) {
                fprintf(stderr, "cuzk params gen: --threads needs an integer in 1..1024\n");
                return CLI_ERROR;
            }
            threads = (unsigned)t, i++;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--keep-existing")) {
            keep = true;
        } else if (a[0] == '-' || family) {
            fprintf(stderr, "cuzk params gen: unexpected argument '%s'\n%s", a, USAGE);
            return CLI_ERROR;
        } else {
            family = a;
        }
    }
    if (force && keep) {
        fprintf(stderr, "cuzk params gen: --force and --keep-existing exclude each other\n");
        return CLI_ERROR;
    }
    if (!family || !size || !out) {
        fprintf(stderr, "cuzk params gen: the circuit, --sector-size and --out are required\n%s", USAGE);
        return CLI_ERROR;
    }
    cuzk_error err = {0};
    fc_circuit_id c;
    cuzk_status st = fc_circuit_family_by_name(family, &c.family, &err);
    if (!st)
        st = fc_sector_shape_by_name(size, &c.shape, &err);
    if (st) {
        err.code = st;
        return cli_fail("params gen", &err);
    }
    struct stat sb;
    if (stat(out, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "cuzk params gen: --out %s is not a directory\n", out);
        return CLI_ERROR;
    }
    char stem[FC_PARAM_STEM_MAX], ppath[4096], vpath[4096], name[32];
    fc_param_stem(&c, stem);
    fc_circuit_id_name(&c, name, sizeof name);
    snprintf(ppath, sizeof ppath, "%s/%s.params", out, stem);
    snprintf(vpath, sizeof vpath, "%s/%s.vk", out, stem);
    if (keep && access(ppath, F_OK) == 0 && access(vpath, F_OK) == 0) {
        printf("{\"circuit\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"kept\":true}\n", name, ppath, vpath);
        return CLI_OK;
    }
    if (!force && (access(ppath, F_OK) == 0 || access(vpath, F_OK) == 0)) {
        fprintf(stderr, "cuzk params gen: %s exists (it may be the official file); use --force to replace it\n",
                access(ppath, F_OK) == 0 ? ppath : vpath);
        return CLI_ERROR;
    }
    /* the setup takes minutes: find out first that the files can be written */
    if ((st = cuzk_check_writable(ppath, &err)) || (st = cuzk_check_writable(vpath, &err))) {
        err.code = st;
        return cli_fail("params gen", &err);
    }
    fprintf(stderr, "cuzk params gen: WARNING: TEST-ONLY parameters for %s from random toxic waste; whoever runs "
                    "this can forge proofs. Never use them for real sectors.\n",
            name);
    double t0 = cli_now_ms();
    cs_t cs;
    cs_matrices mx = {0};
    if (!(st = cs_init(&cs, CS_RECORD, 0))) {
        st = fc_circuit_synthesize_blank(&cs, &c, &err);
        if (!st && (st = cs_take_matrices(&cs, &mx)))
            err = cs.err;
        cs_free(&cs);
    } else {
        err = cs.err;
    }
    double t_rec = cli_now_ms();
    groth16_params_t pk = {0};
    uint64_t *ad = NULL, *bd = NULL;
    if (!st) {
        groth16_circuit_t circ = {&mx.a, &mx.b, &mx.c, mx.num_constraints, mx.num_inputs, mx.num_aux};
        groth16_toxic_t tw;
        st = groth16_toxic_random(&tw, &err);
        if (!st)
            st = groth16_setup(&circ, &tw, POLY_H_BELLPERSON, threads, &pk, &ad, &bd, &err);
        memset(&tw, 0, sizeof tw);
    }
    uint64_t constraints = mx.num_constraints, inputs = mx.num_inputs, aux = mx.num_aux;
    cs_matrices_free(&mx);
    free(ad), free(bd);
    double t_setup = cli_now_ms();
    if (!st)
        st = bp_params_write_file(&pk, ppath, &err);
    if (!st)
        st = bp_vk_write_file(&pk.vk, vpath, &err);
    groth16_params_free(&pk);
    if (st) {
        err.code = st;
        return cli_fail("params gen", &err);
    }
    printf("{\"circuit\":\"%s\",\"params\":\"%s\",\"vk\":\"%s\",\"constraints\":%llu,\"inputs\":%llu,\"aux\":%llu,"
           "\"record_s\":%.3f,\"setup_s\":%.3f,\"write_s\":%.3f,\"test_only\":true}\n",
           name, ppath, vpath, (unsigned long long)constraints, (unsigned long long)inputs, (unsigned long long)aux,
           (t_rec - t0) / 1e3, (t_setup - t_rec) / 1e3, (cli_now_ms() - t_setup) / 1e3);
    return CLI_OK;
}

int cmd_params(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "gen"))
        return gen(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(USAGE, stdout);
        return CLI_OK;
    }
    fprintf(stderr, "cuzk params: unknown subcommand\n%s", USAGE);
    return CLI_ERROR;
}
