/* Device list of the device tests; contract in gpu_test_util.h. */
#include "gpu_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

size_t gpu_test_open_all(gpu_test_dev *out, const gpu_program *prog)
{
    const char *only = getenv("CUZK_GPU_TEST_RUNTIME");
    const char *req = getenv("CUZK_GPU_TEST_REQUIRE");
    bool require = req && strcmp(req, "0") && req[0];
    char reasons[1024] = "";
    size_t n = 0;
    for (int rt = 0; rt < GPU_RUNTIME_COUNT; rt++) {
        const char *name = gpu_runtime_name((gpu_runtime)rt);
        if (only && only[0] && strcmp(only, name))
            continue;
        gpu_report rep;
        cuzk_error err = {0};
        if (gpu_discover((gpu_runtime)rt, &rep, &err)) {
            fprintf(stderr, "FAIL: discovery of %s: %s\n", name, err.msg);
            exit(1);
        }
        if (rep.ndevices == 0)
            snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s: %s", reasons[0] ? "; " : "",
                     name, rep.reason);
        for (size_t i = 0; i < rep.ndevices && n < GPU_TEST_MAX_DEVICES; i++) {
            gpu_test_dev *d = &out[n];
            memset(d, 0, sizeof *d);
            if (gpu_device_open((gpu_runtime)rt, (unsigned)i, prog, &d->dev, &err) ||
                gpu_queue_create(d->dev, &d->q, &err)) {
                fprintf(stderr, "FAIL: cannot open %s:%zu: %s\n", name, i, err.msg);
                exit(1);
            }
            d->label = gpu_device_label(d->dev);
            printf("device %s: %s; program built in %.2f s\n", d->label, rep.devices[i].version,
                   gpu_device_build_seconds(d->dev));
            n++;
        }
        gpu_report_free(&rep);
    }
    if (n == 0) {
        printf("%s: no device to test (%s)\n", require ? "FAIL" : "SKIP", reasons);
        exit(require ? 1 : 77);
    }
    return n;
}

void gpu_test_close_all(gpu_test_dev *devs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        gpu_queue_destroy(devs[i].q);
        gpu_device_close(devs[i].dev);
    }
}

cuzk_status gpu_test_ok(cuzk_status st, const cuzk_error *err, const char *what, const char *label)
{
    CHECK(st == CUZK_OK, "%s: %s: %s (%s)", label, what, err ? err->msg : "", cuzk_status_name(st));
    return st;
}
