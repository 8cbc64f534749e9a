/* A one-shot "these buffers are no longer read" notification handed down to a lower layer.
 *
 * The owner of some buffers lends them to a call (e.g. the a/b/c vectors to a prover) and
 * passes a cuzk_release_cb with them; the callee calls cuzk_release_cb_call once, at the
 * moment it stops reading (or writing) the buffers, and the owner frees or recycles them
 * right then instead of after the call returns. Which calls take one, and whether a callee
 * must call it on its error paths, is part of each call's contract.
 *
 * fn NULL means "nobody listens": the call is a no-op, so callers that release the buffers
 * themselves after the call pass a zero struct (or a NULL pointer).
 */
#ifndef CUZK_COMMON_RELEASE_H
#define CUZK_COMMON_RELEASE_H

#include <stddef.h>

typedef struct {
    void (*fn)(void *ctx);
    void *ctx;
} cuzk_release_cb;

/* Run the notification (fn(ctx)); NULL cb or NULL fn does nothing. */
static inline void cuzk_release_cb_call(const cuzk_release_cb *cb)
{
    if (cb && cb->fn)
        cb->fn(cb->ctx);
}

#endif
