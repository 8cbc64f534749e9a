/* JSON arrays of standard-base64 strings (Go json.Marshal of [][]byte; Curio's
 * snap-vproof.json, docs/formats.md#snapdeals-blob-list); contracts in vanilla.h. */
#include <stdlib.h>
#include <string.h>

#include "common/base64.h"
#include "common/json_read.h"
#include "filecoin/core/vanilla.h"

void fc_blob_list_free(fc_blob_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; l->data && i < l->n; i++)
        free(l->data[i]);
    free(l->data);
    free(l->len);
    memset(l, 0, sizeof *l);
}

/* One element: a base64 string, or null (Go's nil slice) for an empty blob. */
static cuzk_status read_item(cuzk_json_reader *j, uint8_t **data, size_t *len)
{
    if (cuzk_json_read_take_null(j)) {
        *len = 0;
        return (*data = malloc(1)) ? CUZK_OK : cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory");
    }
    return cuzk_json_read_base64(j, data, len);
}

static cuzk_status read_list(cuzk_json_reader *j, fc_blob_list *out)
{
    cuzk_status st;
    int r;
    if (cuzk_json_read_take_null(j))
        return cuzk_json_read_end(j);
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    size_t cap = 0;
    cuzk_fp_index(&j->fp, 0);
    for (size_t i = 0; (r = cuzk_json_read_arr_next(j, i == 0)) == 1; i++) {
        cuzk_fp_set_index(&j->fp, i);
        if (i == cap) {
            /* growth follows the input: every element takes at least 3 bytes */
            cap = cap ? 2 * cap : 16;
            uint8_t **d = realloc(out->data, cap * sizeof *d);
            if (d)
                out->data = d;
            size_t *l = d ? realloc(out->len, cap * sizeof *l) : NULL;
            if (!l)
                return cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory for %zu blobs", cap);
            out->len = l;
        }
        out->data[i] = NULL;
        out->n = i + 1;
        if ((st = read_item(j, &out->data[i], &out->len[i])))
            return st;
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    return cuzk_json_read_end(j);
}

cuzk_status fc_blob_list_from_json(fc_blob_list *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!buf && len)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_blob_list_from_json: NULL buffer");
    cuzk_json_reader j;
    cuzk_json_read_init(&j, buf, len, "base64 blob list", err);
    cuzk_status st = read_list(&j, out);
    if (st)
        fc_blob_list_free(out);
    return st;
}

cuzk_status fc_blob_list_to_json(const fc_blob_list *in, uint8_t **out, size_t *len, cuzk_error *err)
{
    cuzk_outbuf o = {0};
    cuzk_out_str(&o, "[");
    for (size_t i = 0; i < in->n; i++) {
        cuzk_out_str(&o, i ? ",\"" : "\"");
        cuzk_base64_encode(&o, in->data[i], in->len[i]);
        cuzk_out_str(&o, "\"");
    }
    cuzk_out_str(&o, "]");
    return cuzk_out_finish(&o, out, len, "fc_blob_list_to_json", err);
}
