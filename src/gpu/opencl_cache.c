/* On-disk cache of built OpenCL programs; contract in opencl_cache.h. */
#include "gpu/opencl_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "common/sha256.h"

#define CACHE_MAX_BYTES (512u << 20)

static char *cache_dir(void)
{
    const char *env = getenv("CUZK_GPU_CACHE");
    char buf[4096];
    if (env && *env) {
        if (!strcmp(env, "off") || !strcmp(env, "0"))
            return NULL;
        snprintf(buf, sizeof buf, "%s", env);
    } else if ((env = getenv("XDG_CACHE_HOME")) && *env) {
        snprintf(buf, sizeof buf, "%s/cuzk/opencl", env);
    } else if ((env = getenv("HOME")) && *env) {
        snprintf(buf, sizeof buf, "%s/.cache/cuzk/opencl", env);
    } else {
        return NULL;
    }
    return strdup(buf);
}

char *gpu_ocl_cache_path(const char *source, size_t len, const char *options, const gpu_device_info *info)
{
    char *dir = cache_dir();
    if (!dir)
        return NULL;
    const char *parts[] = {options, info->platform, info->name, info->vendor, info->version, info->driver};
    unsigned char md[32];
    cuzk_sha256_ctx ctx;
    cuzk_sha256_init(&ctx);
    cuzk_sha256_update(&ctx, source, len);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) /* each part with its NUL */
        cuzk_sha256_update(&ctx, parts[i], strlen(parts[i]) + 1);
    if (!cuzk_sha256_final(&ctx, md)) {
        free(dir);
        return NULL;
    }
    size_t n = strlen(dir) + 2 + 2 * sizeof md + 8;
    char *path = malloc(n);
    if (path) {
        int o = snprintf(path, n, "%s/", dir);
        for (size_t i = 0; i < sizeof md; i++)
            o += snprintf(path + o, n - (size_t)o, "%02x", md[i]);
        snprintf(path + o, n - (size_t)o, ".bin");
    }
    free(dir);
    return path;
}

unsigned char *gpu_ocl_cache_load(const char *path, size_t *len)
{
    char *data = NULL;
    cuzk_error err;
    if (cuzk_file_read(path, CACHE_MAX_BYTES, false, &data, len, &err) != CUZK_OK || *len == 0) {
        free(data);
        return NULL;
    }
    return (unsigned char *)data;
}

typedef struct {
    const unsigned char *bin;
    size_t len;
} blob;

static int emit_blob(FILE *out, const void *ctx)
{
    const blob *b = ctx;
    return fwrite(b->bin, 1, b->len, out) == b->len ? 0 : 5 /* EIO */;
}

void gpu_ocl_cache_store(const char *path, const unsigned char *bin, size_t len)
{
    char *dir = strdup(path);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    cuzk_error err;
    if (slash) {
        *slash = '\0';
        blob b = {bin, len};
        if (cuzk_ensure_dir(dir, &err) == CUZK_OK)
            (void)cuzk_write_atomic(path, emit_blob, &b, &err);
    }
    free(dir);
}
