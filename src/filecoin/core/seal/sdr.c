/* SDR labelling of layers; contracts and sources in sdr.h. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "filecoin/core/seal/sdr.h"

void fc_sdr_slots(uint32_t layer, const uint8_t e[FC_GRAPH_PARENTS][32], uint8_t slots[LABEL_PARENTS][32])
{
    unsigned len = layer == 1 ? FC_GRAPH_DRG_PARENTS : FC_GRAPH_PARENTS;
    for (unsigned k = 0; k < LABEL_PARENTS; k++)
        memcpy(slots[k], e[k % len], 32);
}

void fc_sdr_label(const uint8_t replica_id[32], uint32_t layer, uint64_t node, const uint8_t slots[LABEL_PARENTS][32],
                  uint8_t out[32])
{
    create_label_native(replica_id, layer, node, node ? (const uint8_t(*)[32])slots : NULL, out);
}

typedef struct {
    uint64_t nodes;
    const uint8_t *replica_id;
    uint32_t layer;
    const uint8_t *prev;
    uint8_t *out;
    uint64_t next; /* next node to label */
} layer_ctx;

/* Label node c->next from its 14 graph parents and advance. A corrupt cache (a parent >= N,
 * or a DRG parent not before the node) is refused before any read. */
static cuzk_status label_next(layer_ctx *c, const uint32_t par[FC_GRAPH_PARENTS], cuzk_error *err)
{
    uint64_t v = c->next++;
    if (v == 0) {
        fc_sdr_label(c->replica_id, c->layer, 0, NULL, c->out);
        return CUZK_OK;
    }
    unsigned n = c->layer == 1 ? FC_GRAPH_DRG_PARENTS : FC_GRAPH_PARENTS;
    uint8_t e[FC_GRAPH_PARENTS][32], slots[LABEL_PARENTS][32];
    for (unsigned i = 0; i < n; i++) {
        uint64_t bound = i < FC_GRAPH_DRG_PARENTS ? v : c->nodes;
        if (par[i] >= bound)
            return cuzk_fail(err, CUZK_E_FORMAT, "parent cache: parent %u of node %llu is %u, not below %llu", i,
                             (unsigned long long)v, par[i], (unsigned long long)bound);
        const uint8_t *src = i < FC_GRAPH_DRG_PARENTS ? c->out : c->prev;
        memcpy(e[i], src + 32 * (uint64_t)par[i], 32);
    }
    fc_sdr_slots(c->layer, (const uint8_t(*)[32])e, slots);
    fc_sdr_label(c->replica_id, c->layer, v, (const uint8_t(*)[32])slots, c->out + 32 * v);
    return CUZK_OK;
}

/* Parent rows from fc_graph_cache_stream (u32 LE), labelled as they arrive. */
typedef struct {
    layer_ctx *layer;
    cuzk_status st;
    cuzk_error err;
} stream_ctx;

static int label_rows(void *ctx, const uint8_t *buf, size_t len)
{
    stream_ctx *s = ctx;
    for (size_t off = 0; off + 4 * FC_GRAPH_PARENTS <= len; off += 4 * FC_GRAPH_PARENTS) {
        uint32_t par[FC_GRAPH_PARENTS];
        for (unsigned i = 0; i < FC_GRAPH_PARENTS; i++) {
            const uint8_t *p = buf + off + 4 * i;
            par[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        /* Graph parents are always in range; a failure would be reported through s->st. */
        if ((s->st = label_next(s->layer, par, &s->err)))
            return EINVAL;
    }
    return 0;
}

static int overlap(const uint8_t *a, const uint8_t *b, uint64_t len)
{
    return (uintptr_t)a < (uintptr_t)b + len && (uintptr_t)b < (uintptr_t)a + len;
}

cuzk_status fc_sdr_layer(const fc_graph *g, const uint32_t *cache, const uint8_t replica_id[32], uint32_t layer,
                         const uint8_t *prev, uint8_t *out, cuzk_error *err)
{
    if (!g || !replica_id || !out || layer == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SDR layer: NULL argument or layer 0");
    uint64_t bytes = 32 * g->nodes;
    if (layer >= 2 && (!prev || overlap(prev, out, bytes)))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SDR layer %u: the labels of layer %u are %s", layer, layer - 1,
                         prev ? "in the output buffer" : "missing");
    layer_ctx c = {g->nodes, replica_id, layer, prev, out, 0};
    if (cache) {
        for (uint64_t v = 0; v < g->nodes; v++) {
            cuzk_status st = label_next(&c, cache + FC_GRAPH_PARENTS * v, err);
            if (st)
                return st;
        }
        return CUZK_OK;
    }
    stream_ctx s = {&c, CUZK_OK, {0}};
    cuzk_status st = fc_graph_cache_stream(g, 1, label_rows, &s, NULL, NULL, err);
    if (s.st && err)
        *err = s.err;
    return s.st ? s.st : st;
}

cuzk_status fc_sdr_layers(const fc_graph *g, const uint32_t *cache, const uint8_t replica_id[32], uint32_t layers,
                          uint8_t *const *out, fc_sdr_layer_done done, void *ctx, cuzk_error *err)
{
    if (!layers || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SDR: no layers or NULL output");
    for (uint32_t l = 1; l <= layers; l++) {
        cuzk_status st = fc_sdr_layer(g, cache, replica_id, l, l > 1 ? out[l - 2] : NULL, out[l - 1], err);
        if (!st && done)
            st = done(ctx, l, out[l - 1], err);
        if (st)
            return st;
    }
    return CUZK_OK;
}
