/* Curio's C2 envelope {"SectorNum","Phase1Out","SectorSize"}
 * (docs/formats.md#curios-c2-envelope): Go json.Marshal of the struct, Phase1Out the standard
 * base64 of the C1 JSON; contracts in porep/c1_codec.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/base64.h"
#include "filecoin/core/json.h"
#include "filecoin/porep/c1_codec.h"

/* The envelope's fields as read (the fc_json_fields context). */
typedef struct {
    uint64_t sector_num, sector_size;
    uint8_t *c1json; /* the decoded Phase1Out, malloc'ed */
    size_t c1len;
} envelope;

static cuzk_status envelope_field(fc_json *j, void *ctx, unsigned f)
{
    envelope *e = ctx;
    switch (f) {
    case 0: return fc_json_u64(j, UINT64_MAX, &e->sector_num);
    case 1: return fc_json_base64(j, &e->c1json, &e->c1len);
    default: return fc_json_u64(j, UINT64_MAX, &e->sector_size);
    }
}

cuzk_status fc_c1_read_envelope(fc_c1_output *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    static const char *const names[] = {"SectorNum", "Phase1Out", "SectorSize"};
    fc_json j;
    fc_json_init(&j, buf, len, "C1 envelope", err);
    envelope e = {0};
    cuzk_status st;
    if ((st = fc_json_fields(&j, names, 7, envelope_field, &e)) || (st = fc_json_end(&j)))
        goto out;
    if ((st = fc_c1_read_json(out, e.c1json, e.c1len, "C1 JSON (base64-decoded envelope field Phase1Out)", err)))
        goto out;
    if (e.sector_size != out->registered_proof->shape->sector_bytes) {
        fc_fp_key(&j.fp, "SectorSize");
        st = fc_json_fail(&j, CUZK_E_FORMAT, "%llu bytes, but %s seals %llu-byte sectors",
                          (unsigned long long)e.sector_size, out->registered_proof->name,
                          (unsigned long long)out->registered_proof->shape->sector_bytes);
        goto out;
    }
    out->sector_id = e.sector_num;
    out->has_sector = false;
    out->has_sector_number = true;
out:
    free(e.c1json);
    return st;
}

cuzk_status fc_c1_write_envelope(const fc_c1_output *c1, fc_outbuf *o, cuzk_error *err)
{
    fc_outbuf inner = {0};
    fc_c1_write_json(c1, &inner);
    if (inner.oom) {
        fc_out_discard(&inner);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_c1_write: out of memory for the envelope's C1 JSON");
    }
    fc_out_str(o, "{\"SectorNum\":");
    fc_out_dec(o, c1->sector_id);
    fc_out_str(o, ",\"Phase1Out\":\"");
    fc_base64_encode(o, inner.p, inner.len);
    fc_out_str(o, "\",\"SectorSize\":");
    fc_out_dec(o, c1->registered_proof->shape->sector_bytes);
    fc_out_str(o, "}");
    fc_out_discard(&inner);
    return CUZK_OK;
}
