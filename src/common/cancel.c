/* Thread-local cancel binding; contract in cancel.h. */
#include "common/cancel.h"

static _Thread_local const atomic_bool *bound;

const atomic_bool *cuzk_cancel_bind(const atomic_bool *flag)
{
    const atomic_bool *old = bound;
    bound = flag;
    return old;
}

const atomic_bool *cuzk_cancel_flag(void) { return bound; }
