/* Curio's C2 envelope {"SectorNum","Phase1Out","SectorSize"}
 * (docs/formats.md#curios-c2-envelope): Go json.Marshal of the struct, Phase1Out the standard
 * base64 of the C1 JSON; contracts in porep/c1_codec.h. */
#include <stdlib.h>
#include <string.h>

#include "common/base64.h"
#include "common/json_read.h"
#include "filecoin/porep/c1_codec.h"

/* The envelope's fields as read (the cuzk_json_read_fields context). */
typedef struct {
    uint64_t sector_num, sector_size;
    uint8_t *c1json; /* the decoded Phase1Out, malloc'ed */
    size_t c1len;
} envelope;

static cuzk_status envelope_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    envelope *e = ctx;
    switch (f) {
    case 0: return cuzk_json_read_u64(j, UINT64_MAX, &e->sector_num);
    case 1: return cuzk_json_read_base64(j, &e->c1json, &e->c1len);
    default: return cuzk_json_read_u64(j, UINT64_MAX, &e->sector_size);
    }
}

cuzk_status fc_c1_read_envelope(fc_c1_output *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    static const char *const names[] = {"SectorNum", "Phase1Out", "SectorSize"};
    cuzk_json_reader j;
    cuzk_json_read_init(&j, buf, len, "C1 envelope", err);
    envelope e = {0};
    cuzk_status st;
    if ((st = cuzk_json_read_fields(&j, names, 7, envelope_field, &e)) || (st = cuzk_json_read_end(&j)))
        goto out;
    if ((st = fc_c1_read_json(out, e.c1json, e.c1len, "C1 JSON (base64-decoded envelope field Phase1Out)", err)))
        goto out;
    if (e.sector_size != out->registered_proof->shape->sector_bytes) {
        cuzk_fp_key(&j.fp, "SectorSize");
        st = cuzk_json_read_fail(&j, CUZK_E_FORMAT, "%llu bytes, but %s seals %llu-byte sectors",
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

cuzk_status fc_c1_write_envelope(const fc_c1_output *c1, cuzk_outbuf *o, cuzk_error *err)
{
    cuzk_outbuf inner = {0};
    fc_c1_write_json(c1, &inner);
    if (inner.oom) {
        cuzk_out_discard(&inner);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_c1_write: out of memory for the envelope's C1 JSON");
    }
    cuzk_out_str(o, "{\"SectorNum\":");
    cuzk_out_dec(o, c1->sector_id);
    cuzk_out_str(o, ",\"Phase1Out\":\"");
    cuzk_base64_encode(o, inner.p, inner.len);
    cuzk_out_str(o, "\",\"SectorSize\":");
    cuzk_out_dec(o, c1->registered_proof->shape->sector_bytes);
    cuzk_out_str(o, "}");
    cuzk_out_discard(&inner);
    return CUZK_OK;
}
