/* Curio's C2 envelope {"SectorNum","Phase1Out","SectorSize"} (cuzk-reference.md §2.1): Go
 * json.Marshal of the struct, Phase1Out the standard base64 of the C1 JSON; contracts in
 * vanilla/c1_codec.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/base64.h"
#include "filecoin/vanilla/c1_codec.h"
#include "filecoin/vanilla/json.h"

static cuzk_status decode_phase1(fc_json *j, uint8_t **c1json, size_t *c1len)
{
    fc_json_str s;
    cuzk_status st = fc_json_string(j, &s);
    if (st)
        return st;
    uint8_t *unesc = NULL;
    size_t n = s.n;
    const char *text = s.s;
    if (s.escaped) {
        if ((st = fc_json_string_decode(j, &s, &unesc, &n)))
            return st;
        text = (const char *)unesc;
    }
    size_t bad = 0;
    st = fc_base64_decode(text, n, c1json, c1len, &bad);
    free(unesc);
    if (st == CUZK_E_NOMEM)
        return fc_json_fail(j, st, "out of memory decoding %zu base64 characters", n);
    if (st)
        return fc_json_fail(j, st, "not standard base64: %s at character %zu of %zu",
                            bad == n ? "length not a multiple of 4" : "bad character", bad, n);
    return CUZK_OK;
}

cuzk_status fc_c1_read_envelope(fc_c1_output *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    fc_json j;
    fc_json_init(&j, buf, len, "C1 envelope", err);
    cuzk_status st;
    fc_json_str key;
    uint64_t sector_num = 0, sector_size = 0;
    uint8_t *c1json = NULL;
    size_t c1len = 0;
    unsigned seen = 0;
    int r;
    if ((st = fc_json_obj_begin(&j)))
        return st;
    for (bool first = true; (r = fc_json_obj_next(&j, first, &key)) == 1; first = false) {
        unsigned bit = fc_json_key_is(&key, "SectorNum") ? 1 : fc_json_key_is(&key, "Phase1Out") ? 2
                     : fc_json_key_is(&key, "SectorSize") ? 4 : 0;
        if (!bit) {
            if ((st = fc_json_skip(&j)))
                goto out;
            continue;
        }
        const char *name = bit == 1 ? "SectorNum" : bit == 2 ? "Phase1Out" : "SectorSize";
        fc_fp_key(&j.fp, name);
        if (seen & bit) {
            st = fc_json_fail(&j, CUZK_E_FORMAT, "duplicate field \"%s\"", name);
            goto out;
        }
        seen |= bit;
        st = bit == 1 ? fc_json_u64(&j, UINT64_MAX, &sector_num)
           : bit == 2 ? decode_phase1(&j, &c1json, &c1len)
                      : fc_json_u64(&j, UINT64_MAX, &sector_size);
        if (st)
            goto out;
        fc_fp_pop(&j.fp);
    }
    if (r < 0) {
        st = j.status;
        goto out;
    }
    if ((st = fc_json_end(&j)))
        goto out;
    if (seen != 7) {
        st = fc_json_fail(&j, CUZK_E_FORMAT, "missing field \"%s\"",
                          !(seen & 1) ? "SectorNum" : !(seen & 2) ? "Phase1Out" : "SectorSize");
        goto out;
    }
    if ((st = fc_c1_read_json(out, c1json, c1len, "C1 JSON (base64-decoded envelope field Phase1Out)", err)))
        goto out;
    if (sector_size != out->registered_proof->shape->sector_bytes) {
        fc_fp_key(&j.fp, "SectorSize");
        st = fc_json_fail(&j, CUZK_E_FORMAT, "%llu bytes, but %s seals %llu-byte sectors",
                          (unsigned long long)sector_size, out->registered_proof->name,
                          (unsigned long long)out->registered_proof->shape->sector_bytes);
        goto out;
    }
    out->sector_id = sector_num;
    out->has_sector = false;
out:
    free(c1json);
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
