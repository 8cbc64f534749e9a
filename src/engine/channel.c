#include "engine/channel.h"

static bool key_less(const cuzk_chan_node *a, const cuzk_chan_node *b)
{
    return a->key_hi < b->key_hi || (a->key_hi == b->key_hi && a->key_lo < b->key_lo);
}

static void gauges_add(cuzk_chan *ch, int64_t count, int64_t bytes)
{
    if (ch->count_gauge)
        cuzk_gauge_add(ch->count_gauge, count);
    if (ch->bytes_gauge)
        cuzk_gauge_add(ch->bytes_gauge, bytes);
}

cuzk_status cuzk_chan_init(cuzk_chan *ch, size_t capacity, cuzk_gauge *count_gauge,
                           cuzk_gauge *bytes_gauge, cuzk_error *err)
{
    if (pthread_mutex_init(&ch->mu, NULL))
        return cuzk_fail(err, CUZK_E_INTERNAL, "channel: pthread_mutex_init failed");
    if (cuzk_cond_init_monotonic(&ch->not_empty)) {
        pthread_mutex_destroy(&ch->mu);
        return cuzk_fail(err, CUZK_E_INTERNAL, "channel: pthread_cond_init failed");
    }
    if (cuzk_cond_init_monotonic(&ch->not_full)) {
        pthread_cond_destroy(&ch->not_empty);
        pthread_mutex_destroy(&ch->mu);
        return cuzk_fail(err, CUZK_E_INTERNAL, "channel: pthread_cond_init failed");
    }
    ch->head = NULL;
    ch->len = 0;
    ch->capacity = capacity;
    ch->closed = false;
    ch->count_gauge = count_gauge;
    ch->bytes_gauge = bytes_gauge;
    return CUZK_OK;
}

void cuzk_chan_destroy(cuzk_chan *ch)
{
    pthread_cond_destroy(&ch->not_full);
    pthread_cond_destroy(&ch->not_empty);
    pthread_mutex_destroy(&ch->mu);
}

cuzk_status cuzk_chan_send(cuzk_chan *ch, cuzk_chan_node *node, cuzk_abort_fn abort, void *ctx)
{
    pthread_mutex_lock(&ch->mu);
    for (;;) {
        if (ch->closed || (abort && abort(ctx))) {
            pthread_mutex_unlock(&ch->mu);
            return CUZK_E_CANCELLED;
        }
        if (ch->capacity == 0 || ch->len < ch->capacity)
            break;
        pthread_cond_wait(&ch->not_full, &ch->mu);
    }
    cuzk_chan_node **link = &ch->head;
    while (*link && !key_less(node, *link))
        link = &(*link)->next;
    node->next = *link;
    *link = node;
    ch->len++;
    gauges_add(ch, 1, node->bytes);
    pthread_cond_signal(&ch->not_empty);
    pthread_mutex_unlock(&ch->mu);
    return CUZK_OK;
}

cuzk_chan_node *cuzk_chan_recv(cuzk_chan *ch)
{
    pthread_mutex_lock(&ch->mu);
    while (!ch->head && !ch->closed)
        pthread_cond_wait(&ch->not_empty, &ch->mu);
    cuzk_chan_node *node = ch->head;
    if (node) {
        ch->head = node->next;
        node->next = NULL;
        ch->len--;
        gauges_add(ch, -1, -node->bytes);
        /* broadcast: a woken sender that aborts must not swallow the wake-up */
        pthread_cond_broadcast(&ch->not_full);
    }
    pthread_mutex_unlock(&ch->mu);
    return node;
}

cuzk_chan_node *cuzk_chan_remove_if(cuzk_chan *ch, bool (*pred)(const cuzk_chan_node *, void *),
                                    void *ctx)
{
    cuzk_chan_node *removed = NULL, **tail = &removed;
    pthread_mutex_lock(&ch->mu);
    cuzk_chan_node **link = &ch->head;
    while (*link) {
        cuzk_chan_node *node = *link;
        if (pred(node, ctx)) {
            *link = node->next;
            node->next = NULL;
            *tail = node;
            tail = &node->next;
            ch->len--;
            gauges_add(ch, -1, -node->bytes);
        } else {
            link = &node->next;
        }
    }
    if (removed)
        pthread_cond_broadcast(&ch->not_full);
    pthread_mutex_unlock(&ch->mu);
    return removed;
}

void cuzk_chan_close(cuzk_chan *ch)
{
    pthread_mutex_lock(&ch->mu);
    ch->closed = true;
    pthread_cond_broadcast(&ch->not_empty);
    pthread_cond_broadcast(&ch->not_full);
    pthread_mutex_unlock(&ch->mu);
}

void cuzk_chan_wake(cuzk_chan *ch)
{
    pthread_mutex_lock(&ch->mu);
    pthread_cond_broadcast(&ch->not_full);
    pthread_mutex_unlock(&ch->mu);
}

size_t cuzk_chan_len(cuzk_chan *ch)
{
    pthread_mutex_lock(&ch->mu);
    size_t n = ch->len;
    pthread_mutex_unlock(&ch->mu);
    return n;
}
