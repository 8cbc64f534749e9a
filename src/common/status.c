#include "common/status.h"

#include <stdio.h>
#include <string.h>

const char *cuzk_status_name(cuzk_status s)
{
    static const char *const names[CUZK_STATUS_COUNT] = {
        [CUZK_OK] = "OK",
        [CUZK_E_INVALID_ARG] = "INVALID_ARG",
        [CUZK_E_NOMEM] = "NOMEM",
        [CUZK_E_IO] = "IO",
        [CUZK_E_FORMAT] = "FORMAT",
        [CUZK_E_UNSUPPORTED] = "UNSUPPORTED",
        [CUZK_E_CANCELLED] = "CANCELLED",
        [CUZK_E_TIMEOUT] = "TIMEOUT",
        [CUZK_E_INTERNAL] = "INTERNAL",
        [CUZK_E_FIELD_NONCANONICAL] = "FIELD_NONCANONICAL",
        [CUZK_E_FIELD_NO_SQRT] = "FIELD_NO_SQRT",
        [CUZK_E_POINT_LENGTH] = "POINT_LENGTH",
        [CUZK_E_POINT_FLAGS] = "POINT_FLAGS",
        [CUZK_E_POINT_INFINITY] = "POINT_INFINITY",
        [CUZK_E_POINT_COORDINATE] = "POINT_COORDINATE",
        [CUZK_E_POINT_NOT_ON_CURVE] = "POINT_NOT_ON_CURVE",
        [CUZK_E_POINT_NOT_IN_SUBGROUP] = "POINT_NOT_IN_SUBGROUP",
        [CUZK_E_VERIFY_FAILED] = "VERIFY_FAILED",
        [CUZK_E_DEVICE] = "DEVICE",
    };
    if ((unsigned)s >= CUZK_STATUS_COUNT || !names[s])
        return "UNKNOWN";
    return names[s];
}

cuzk_status cuzk_fail(cuzk_error *err, cuzk_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}
