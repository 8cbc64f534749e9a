/* 32-byte field values in the readers; contracts in field_bytes.h. */
#include "field/fr.h"
#include "filecoin/core/field_bytes.h"

bool fc_bytes32_canonical(const uint8_t b[32])
{
    for (int limb = FR_LIMBS - 1; limb >= 0; limb--) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | b[8 * limb + i];
        if (v != FR_MODULUS[limb])
            return v < FR_MODULUS[limb];
    }
    return false; /* equal to r */
}

cuzk_status fc_json_bytes32(cuzk_json_reader *j, uint8_t out[32], bool field)
{
    cuzk_json_read_ws(j);
    const uint8_t *open = j->p;
    cuzk_status st = cuzk_json_read_bytes32(j, out);
    if (st || !field || fc_bytes32_canonical(out))
        return st;
    j->p = open;
    return cuzk_json_read_fail(j, CUZK_E_FIELD_NONCANONICAL, "value is not a canonical field element (>= r)");
}
