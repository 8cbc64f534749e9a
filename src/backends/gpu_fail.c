/* Injected device failures for tests (backend_config.fail, CUZK_GPU_FAIL); see gpu_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "backends/gpu_internal.h"

static const char *const stage_names[] = {"", "open", "bases", "upload", "h", "msm"};

cuzk_status gpu_fail_parse(const char *spec, gpu_fail_hook *out, cuzk_error *err)
{
    out->stage = GPU_FAIL_NONE;
    out->device = -1;
    atomic_init(&out->remaining, -1);
    if (!spec || !*spec)
        return CUZK_OK;
    char buf[64];
    if (strlen(spec) >= sizeof buf)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "GPU failure hook '%.40s...': too long", spec);
    strcpy(buf, spec);
    char *dev = strchr(buf, ':'), *count = NULL;
    if (dev) {
        *dev++ = 0;
        if ((count = strchr(dev, ':')))
            *count++ = 0;
    }
    for (int i = GPU_FAIL_OPEN; i <= GPU_FAIL_MSM; i++)
        if (!strcmp(buf, stage_names[i]))
            out->stage = (gpu_fail_stage)i;
    if (out->stage == GPU_FAIL_NONE)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "GPU failure hook '%s': stage '%s' is not one of open, bases, upload, h, msm", spec, buf);
    char *end;
    if (dev && *dev && strcmp(dev, "*")) {
        long d = strtol(dev, &end, 10);
        if (*end || d < 0 || d >= BACKEND_MAX_DEVICES)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "GPU failure hook '%s': device '%s' is not an index", spec, dev);
        out->device = (int)d;
    }
    if (count) {
        long c = strtol(count, &end, 10);
        if (*end || !*count || c < 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "GPU failure hook '%s': count '%s' is not a positive integer",
                             spec, count);
        atomic_store(&out->remaining, c);
    }
    return CUZK_OK;
}

cuzk_status gpu_fail_check(gpu_fail_hook *h, gpu_fail_stage stage, uint32_t device, const char *label,
                           cuzk_error *err)
{
    if (!h || h->stage != stage || (h->device >= 0 && (uint32_t)h->device != device))
        return CUZK_OK;
    long left = atomic_load(&h->remaining);
    while (left >= 0) {
        if (left == 0)
            return CUZK_OK;
        if (atomic_compare_exchange_weak(&h->remaining, &left, left - 1))
            break;
    }
    return cuzk_fail(err, CUZK_E_DEVICE, "%s: injected failure at %s (GPU failure hook)", label, stage_names[stage]);
}
