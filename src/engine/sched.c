#include "engine/sched.h"

void cuzk_sched_init(cuzk_sched *s)
{
    for (int i = 0; i < CUZK_SCHED_LEVELS; i++) {
        s->head[i] = s->tail[i] = NULL;
        s->len[i] = 0;
    }
}

void cuzk_sched_push(cuzk_sched *s, cuzk_sched_node *node, int level)
{
    if (level < 0)
        level = 0;
    if (level >= CUZK_SCHED_LEVELS)
        level = CUZK_SCHED_LEVELS - 1;
    node->level = level;
    node->next = NULL;
    node->prev = s->tail[level];
    if (s->tail[level])
        s->tail[level]->next = node;
    else
        s->head[level] = node;
    s->tail[level] = node;
    s->len[level]++;
    node->queued = true;
}

cuzk_sched_node *cuzk_sched_peek(const cuzk_sched *s)
{
    for (int i = CUZK_SCHED_LEVELS - 1; i >= 0; i--)
        if (s->head[i])
            return s->head[i];
    return NULL;
}

void cuzk_sched_remove(cuzk_sched *s, cuzk_sched_node *node)
{
    if (!node->queued)
        return;
    int level = node->level;
    if (node->prev)
        node->prev->next = node->next;
    else
        s->head[level] = node->next;
    if (node->next)
        node->next->prev = node->prev;
    else
        s->tail[level] = node->prev;
    s->len[level]--;
    node->prev = node->next = NULL;
    node->queued = false;
}
