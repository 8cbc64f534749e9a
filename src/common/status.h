/* Status codes shared by every layer of cuzk.
 *
 * Every public call that can fail returns a cuzk_status (0 = success). Calls that
 * parse external input also take a `cuzk_error *` (may be NULL) that receives a
 * human-readable message naming the field and the offending value/offset.
 * Thread-safety: cuzk_error is caller-owned; nothing here is global.
 */
#ifndef CUZK_COMMON_STATUS_H
#define CUZK_COMMON_STATUS_H

#include <stdarg.h>

typedef enum {
    CUZK_OK = 0,
    /* generic */
    CUZK_E_INVALID_ARG,        /* a parameter is out of range or NULL where not allowed */
    CUZK_E_NOMEM,              /* allocation failed */
    CUZK_E_IO,                 /* read/write/open failed (errno in the message) */
    CUZK_E_FORMAT,             /* malformed file or message (field + offset in the message) */
    CUZK_E_UNSUPPORTED,        /* valid but not supported (unknown kind, version, ...) */
    CUZK_E_CANCELLED,
    CUZK_E_TIMEOUT,
    CUZK_E_INTERNAL,
    /* field element decoding */
    CUZK_E_FIELD_NONCANONICAL, /* integer >= modulus */
    CUZK_E_FIELD_NO_SQRT,      /* square root requested of a non-residue */
    /* point decoding (ZCash/bellperson encodings), one code per failure class */
    CUZK_E_POINT_LENGTH,       /* wrong number of bytes for the encoding */
    CUZK_E_POINT_FLAGS,        /* compression flag does not match the length, or sort flag set where forbidden */
    CUZK_E_POINT_INFINITY,     /* infinity flag set but the remaining bits are not all zero */
    CUZK_E_POINT_COORDINATE,   /* a coordinate is >= p */
    CUZK_E_POINT_NOT_ON_CURVE, /* (x, y) does not satisfy the curve equation / x has no y */
    CUZK_E_POINT_NOT_IN_SUBGROUP, /* on the curve but not in the prime-order subgroup */
    CUZK_E_VERIFY_FAILED,      /* a proof did not verify */
    CUZK_E_DEVICE,             /* a GPU runtime call failed: lost device, failed launch or kernel build (src/gpu) */
    CUZK_STATUS_COUNT
} cuzk_status;

/* A status with a message. `msg` is always NUL-terminated. */
typedef struct {
    cuzk_status code;
    char msg[512];
} cuzk_error;

/* Short stable name of a status code, e.g. "POINT_NOT_ON_CURVE". Never NULL. */
const char *cuzk_status_name(cuzk_status s);

/* Record `code` and a printf-formatted message into `err` (if non-NULL) and return
 * `code`, so callers can write `return cuzk_fail(err, CUZK_E_FORMAT, "...", ...);`. */
cuzk_status cuzk_fail(cuzk_error *err, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
