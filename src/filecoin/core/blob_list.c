/* JSON arrays of standard-base64 strings (Go json.Marshal of [][]byte; Curio's
 * snap-vproof.json, docs/formats.md#snapdeals-blob-list); contracts in vanilla.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/base64.h"
#include "filecoin/core/json.h"
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
static cuzk_status read_item(fc_json *j, uint8_t **data, size_t *len)
{
    if (fc_json_take_null(j)) {
        *len = 0;
        return (*data = malloc(1)) ? CUZK_OK : fc_json_fail(j, CUZK_E_NOMEM, "out of memory");
    }
    return fc_json_base64(j, data, len);
}

static cuzk_status read_list(fc_json *j, fc_blob_list *out)
{
    cuzk_status st;
    int r;
    if (fc_json_take_null(j))
        return fc_json_end(j);
    if ((st = fc_json_arr_begin(j)))
        return st;
    size_t cap = 0;
    fc_fp_index(&j->fp, 0);
    for (size_t i = 0; (r = fc_json_arr_next(j, i == 0)) == 1; i++) {
        fc_fp_set_index(&j->fp, i);
        if (i == cap) {
            /* growth follows the input: every element takes at least 3 bytes */
            cap = cap ? 2 * cap : 16;
            uint8_t **d = realloc(out->data, cap * sizeof *d);
            if (d)
                out->data = d;
            size_t *l = d ? realloc(out->len, cap * sizeof *l) : NULL;
            if (!l)
                return fc_json_fail(j, CUZK_E_NOMEM, "out of memory for %zu blobs", cap);
            out->len = l;
        }
        out->data[i] = NULL;
        out->n = i + 1;
        if ((st = read_item(j, &out->data[i], &out->len[i])))
            return st;
    }
    fc_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    return fc_json_end(j);
}

cuzk_status fc_blob_list_from_json(fc_blob_list *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!buf && len)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_blob_list_from_json: NULL buffer");
    fc_json j;
    fc_json_init(&j, buf, len, "base64 blob list", err);
    cuzk_status st = read_list(&j, out);
    if (st)
        fc_blob_list_free(out);
    return st;
}

cuzk_status fc_blob_list_to_json(const fc_blob_list *in, uint8_t **out, size_t *len, cuzk_error *err)
{
    fc_outbuf o = {0};
    fc_out_str(&o, "[");
    for (size_t i = 0; i < in->n; i++) {
        fc_out_str(&o, i ? ",\"" : "\"");
        fc_base64_encode(&o, in->data[i], in->len[i]);
        fc_out_str(&o, "\"");
    }
    fc_out_str(&o, "]");
    return fc_out_finish(&o, out, len, "fc_blob_list_to_json", err);
}
