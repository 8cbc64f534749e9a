/* circuit-info parameters; contracts in circuit_params.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/circuit_params.h"

cuzk_status circuit_params_parse(circuit_params *out, const char *const *params, size_t nparams,
                                 cuzk_error *err)
{
    out->n = 0;
    for (size_t i = 0; i < nparams; i++) {
        const char *p = params[i];
        while (*p) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            const char *eq = memchr(p, '=', len);
            if (!eq || eq == p || (size_t)(eq - p) >= 32 || len - (size_t)(eq - p) - 1 >= 32 ||
                out->n == CIRCUIT_PARAMS_MAX)
                return cuzk_fail(err, CUZK_E_INVALID_ARG, "circuit parameter '%.*s' is not "
                                 "key=value", (int)len, p);
            circuit_param *k = &out->kv[out->n++];
            memcpy(k->key, p, (size_t)(eq - p));
            k->key[eq - p] = 0;
            memcpy(k->value, eq + 1, len - (size_t)(eq - p) - 1);
            k->value[len - (size_t)(eq - p) - 1] = 0;
            p += len;
            if (*p == ',')
                p++;
        }
    }
    return CUZK_OK;
}

const char *circuit_params_get(const circuit_params *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->kv[i].key, key) == 0)
            return p->kv[i].value;
    return NULL;
}

cuzk_status circuit_params_u64(const circuit_params *p, const char *key, uint64_t def, uint64_t *out,
                               cuzk_error *err)
{
    const char *v = circuit_params_get(p, key);
    if (!v) {
        *out = def;
        return CUZK_OK;
    }
    char *end;
    errno = 0;
    unsigned long long x = (*v >= '0' && *v <= '9') ? strtoull(v, &end, 10) : 0;
    if (!(*v >= '0' && *v <= '9') || *end)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter %s=%s is not a non-negative integer", key, v);
    if (errno == ERANGE || x > UINT32_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter %s=%s is too large (at most %u)", key, v, UINT32_MAX);
    *out = x;
    return CUZK_OK;
}

cuzk_status circuit_params_only(const circuit_params *p, const char *const *allowed, cuzk_error *err)
{
    for (size_t i = 0; i < p->n; i++) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            ok |= strcmp(p->kv[i].key, *a) == 0;
        if (!ok)
            return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown parameter '%s'", p->kv[i].key);
    }
    return CUZK_OK;
}
