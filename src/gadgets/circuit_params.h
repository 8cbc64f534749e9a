/* "key=value" parameters of `cuzk circuit-info` circuits (gadgets/circuits.h and the
 * Filecoin families of filecoin/core/circuit_info.h).
 *
 * A parameter string holds one pair or several comma-separated pairs ("base=8,sub=8,top=2");
 * keys and values are at most 31 characters; at most CIRCUIT_PARAMS_MAX pairs in all.
 * Errors: CUZK_E_INVALID_ARG naming the malformed pair or bad value, CUZK_E_UNSUPPORTED
 * naming an unknown key. Pure functions over caller-owned data: thread-safe.
 */
#ifndef CUZK_GADGETS_CIRCUIT_PARAMS_H
#define CUZK_GADGETS_CIRCUIT_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

#define CIRCUIT_PARAMS_MAX 8

typedef struct {
    char key[32], value[32];
} circuit_param;

typedef struct {
    circuit_param kv[CIRCUIT_PARAMS_MAX];
    size_t n;
} circuit_params;

/* Split `params` (nparams strings) into pairs. */
cuzk_status circuit_params_parse(circuit_params *out, const char *const *params, size_t nparams,
                                 cuzk_error *err);
/* The value of `key`, NULL when absent (the first occurrence wins). */
const char *circuit_params_get(const circuit_params *p, const char *key);
/* A decimal integer in 0..UINT32_MAX, `def` when absent. */
cuzk_status circuit_params_u64(const circuit_params *p, const char *key, uint64_t def, uint64_t *out,
                               cuzk_error *err);
/* Refuse any key not in the NULL-terminated list `allowed`. */
cuzk_status circuit_params_only(const circuit_params *p, const char *const *allowed, cuzk_error *err);

#endif
