/* Scheduler queue: priority levels, FIFO within a level, intrusive doubly linked nodes.
 *
 * Holds jobs that still have partitions to dispatch. peek() returns the oldest node of the
 * highest non-empty level (docs/engine.md#job-lifecycle step 1: priority desc, then submit
 * time asc); a node stays at the head while its job hands out partitions one by one, and is
 * removed when its last partition is dispatched, or when the job is cancelled or fails.
 *
 * Not thread-safe: the engine guards it with its own mutex. O(1) push/peek/remove.
 */
#ifndef CUZK_ENGINE_SCHED_H
#define CUZK_ENGINE_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#define CUZK_SCHED_LEVELS 4 /* level LEVELS-1 is served first */

typedef struct cuzk_sched_node {
    struct cuzk_sched_node *prev, *next;
    int level;   /* 0 .. CUZK_SCHED_LEVELS-1 */
    bool queued; /* true while linked into a cuzk_sched */
} cuzk_sched_node;

typedef struct {
    cuzk_sched_node *head[CUZK_SCHED_LEVELS], *tail[CUZK_SCHED_LEVELS];
    size_t len[CUZK_SCHED_LEVELS];
} cuzk_sched;

void cuzk_sched_init(cuzk_sched *s);
/* Append `node` at the tail of `level` (clamped to the valid range). node must not be queued. */
void cuzk_sched_push(cuzk_sched *s, cuzk_sched_node *node, int level);
/* The head of the highest non-empty level, or NULL when empty. */
cuzk_sched_node *cuzk_sched_peek(const cuzk_sched *s);
/* Unlink `node` if it is queued (no-op otherwise). */
void cuzk_sched_remove(cuzk_sched *s, cuzk_sched_node *node);

#endif
