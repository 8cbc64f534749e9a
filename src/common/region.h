/* A source of large buffers ("regions") lent to a lower layer.
 *
 * A layer that must not know where its biggest buffers come from (the constraint system's
 * a/b/c vectors, say, which the engine takes from its reused buffer pool) is handed one of
 * these: it asks get for a region of a known size and gives the region back with put when
 * it no longer needs it, or hands the region on to its caller together with the allocator
 * (whoever then owns it calls put). The allocator decides whether a region is fresh or
 * reused: contents are undefined, so the borrower writes every byte it later reads.
 *
 * get returns NULL when it cannot supply `bytes` (the borrower reports out of memory);
 * put takes only a pointer that get returned, once. Thread-safety: that of the allocator
 * behind ctx (the engine's pool may be called from any thread).
 */
#ifndef CUZK_COMMON_REGION_H
#define CUZK_COMMON_REGION_H

#include <stddef.h>

typedef struct {
    void *(*get)(void *ctx, size_t bytes);
    void (*put)(void *ctx, void *mem);
    void *ctx;
} cuzk_region_alloc;

#endif
