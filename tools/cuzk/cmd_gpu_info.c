/* cuzk gpu-info [--json]: the devices each GPU runtime of this binary sees (src/gpu/runtime.h
 * gpu_discover), or why a runtime has none (not built, no driver, no platform). Always exit 0
 * unless the arguments are wrong (2): having no GPU is an answer, not an error. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

static json_t *device_json(const gpu_device_info *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "runtime", json_string(gpu_runtime_name(d->runtime)));
    json_object_set_new(o, "index", json_integer(d->index));
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "vendor", json_string(d->vendor));
    json_object_set_new(o, "platform", json_string(d->platform));
    json_object_set_new(o, "version", json_string(d->version));
    json_object_set_new(o, "driver", json_string(d->driver));
    if (d->runtime == GPU_RUNTIME_CUDA) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
        json_object_set_new(o, "compute_capability", json_string(cc));
    }
    json_object_set_new(o, "compute_units", json_integer(d->compute_units));
    json_object_set_new(o, "memory_bytes", json_integer((json_int_t)d->global_mem_bytes));
    json_object_set_new(o, "max_alloc_bytes", json_integer((json_int_t)d->max_alloc_bytes));
    json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)d->local_mem_bytes));
    json_object_set_new(o, "max_group_size", json_integer(d->max_group_size));
    json_object_set_new(o, "cpu", json_boolean(d->is_cpu));
    return o;
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
    json_t *runtimes = json_array();
    for (int rt = 0; rt < GPU_RUNTIME_COUNT; rt++) {
        gpu_report r;
        cuzk_error err = {0};
        if (gpu_discover((gpu_runtime)rt, &r, &err)) /* only out of memory */
            snprintf(r.reason, sizeof r.reason, "discovery failed: %s", err.msg);
        if (as_json) {
            json_t *o = json_object(), *devs = json_array();
            json_object_set_new(o, "runtime", json_string(gpu_runtime_name((gpu_runtime)rt)));
            json_object_set_new(o, "built", json_boolean(r.built));
            json_object_set_new(o, "reason", json_string(r.reason));
            for (size_t i = 0; i < r.ndevices; i++)
                json_array_append_new(devs, device_json(&r.devices[i]));
            json_object_set_new(o, "devices", devs);
            json_array_append_new(runtimes, o);
        } else {
            print_text(&r);
        }
        gpu_report_free(&r);
    }
    if (as_json) {
        json_t *root = json_pack("{s:o}", "runtimes", runtimes);
        char *s = json_dumps(root, JSON_COMPACT);
        if (s)
            printf("%s\n", s);
        free(s);
        json_decref(root);
    } else {
        json_decref(runtimes);
    }
    return CLI_OK;
}
