/* cuzk gpu-info [--json]: the devices each GPU runtime of this binary sees (src/gpu/runtime.h
 * gpu_discover), or why a runtime has none (not built, no driver, no platform). Always exit 0
 * unless the arguments are wrong (2): having no GPU is an answer, not an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/json_out.h"
#include "gpu/runtime.h"

static const char USAGE[] =
    "usage: cuzk gpu-info [--json]\n"
    "  lists the devices of each GPU runtime built into this binary (OpenCL through the ICD\n"
    "  loader, CUDA through the driver): runtime, index, name, vendor, memory, compute units\n"
    "  (CUDA: SMs), OpenCL version or compute capability, driver; or why a runtime has none\n"
    "  --json  one JSON object: {\"runtimes\":[{\"runtime\",\"built\",\"reason\",\"devices\":[...]}]}\n"
    "  exit 0 (also when there is no device), 2 on a usage error\n";

static double gib(uint64_t b)
{
    return (double)b / (double)(1ULL << 30);
}

static void device_json(cuzk_json *j, const gpu_device_info *d)
{
    cuzk_json_begin_object(j, NULL);
    cuzk_json_string(j, "runtime", gpu_runtime_name(d->runtime));
    cuzk_json_uint(j, "index", d->index);
    cuzk_json_string(j, "name", d->name);
    cuzk_json_string(j, "vendor", d->vendor);
    cuzk_json_string(j, "platform", d->platform);
    cuzk_json_string(j, "version", d->version);
    cuzk_json_string(j, "driver", d->driver);
    if (d->runtime == GPU_RUNTIME_CUDA) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
        cuzk_json_string(j, "compute_capability", cc);
    }
    cuzk_json_uint(j, "compute_units", d->compute_units);
    cuzk_json_uint(j, "memory_bytes", d->global_mem_bytes);
    cuzk_json_uint(j, "max_alloc_bytes", d->max_alloc_bytes);
    cuzk_json_uint(j, "local_mem_bytes", d->local_mem_bytes);
    cuzk_json_uint(j, "max_group_size", d->max_group_size);
    cuzk_json_bool(j, "cpu", d->is_cpu);
    cuzk_json_end_object(j);
}

static void print_text(const gpu_report *r)
{
    const char *rt = gpu_runtime_name(r->runtime);
    if (r->ndevices == 0) {
        printf("%s: no device: %s\n", rt, r->reason);
        return;
    }
    printf("%s: %zu device%s\n", rt, r->ndevices, r->ndevices == 1 ? "" : "s");
    for (size_t i = 0; i < r->ndevices; i++) {
        const gpu_device_info *d = &r->devices[i];
        printf("  %s:%u  %s (%s%s)\n", rt, d->index, d->name, d->vendor, d->is_cpu ? ", a CPU device" : "");
        printf("      memory %.1f GiB (largest buffer %.1f GiB), %u %s, %s, driver %s, platform %s\n",
               gib(d->global_mem_bytes), gib(d->max_alloc_bytes), d->compute_units,
               d->runtime == GPU_RUNTIME_CUDA ? "SMs" : "compute units", d->version, d->driver, d->platform);
    }
}

int cmd_gpu_info(int argc, char **argv)
{
    bool as_json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(USAGE, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            as_json = true;
            continue;
        }
        fprintf(stderr, "cuzk gpu-info: unknown argument '%s'\n%s", argv[i], USAGE);
        return CLI_ERROR;
    }
    cuzk_json j;
    cuzk_json_init(&j);
    cuzk_json_begin_object(&j, NULL);
    cuzk_json_begin_array(&j, "runtimes");
    for (int rt = 0; rt < GPU_RUNTIME_COUNT; rt++) {
        gpu_report r;
        cuzk_error err = {0};
        if (gpu_discover((gpu_runtime)rt, &r, &err)) /* only out of memory */
            snprintf(r.reason, sizeof r.reason, "discovery failed: %s", err.msg);
        if (as_json) {
            cuzk_json_begin_object(&j, NULL);
            cuzk_json_string(&j, "runtime", gpu_runtime_name((gpu_runtime)rt));
            cuzk_json_bool(&j, "built", r.built);
            cuzk_json_string(&j, "reason", r.reason);
            cuzk_json_begin_array(&j, "devices");
            for (size_t i = 0; i < r.ndevices; i++)
                device_json(&j, &r.devices[i]);
            cuzk_json_end_array(&j);
            cuzk_json_end_object(&j);
        } else {
            print_text(&r);
        }
        gpu_report_free(&r);
    }
    cuzk_json_end_array(&j);
    cuzk_json_end_object(&j);
    int rc = CLI_OK;
    if (as_json && cuzk_json_text(&j))
        printf("%s\n", cuzk_json_text(&j));
    else if (as_json)
        fprintf(stderr, "cuzk gpu-info: out of memory for the JSON text\n"), rc = CLI_ERROR;
    cuzk_json_free(&j);
    return rc;
}
