/* encode (storage-proofs-core gadgets/encode.rs): 1 aux / 1
 * constraint with nnz (2, 1, 1), encoded = key + value mod r (checked on a wrap-around:
 * (r − 1) + 2 = 1), the check back end accepting it and rejecting a corrupted witness. */
#include <string.h>

#include "check.h"
#include "gadgets/encode.h"

int main(void)
{
    fr_t key, value, enc;
    fr_neg(&key, &FR_ONE); /* r − 1 */
    fr_from_u64(&value, 2);
    encode_native(&enc, &key, &value);
    CHECK(fr_eq(&enc, &FR_ONE), "native (r - 1) + 2 = 1");
    fr_from_u64(&key, 40), fr_from_u64(&value, 2);
    fr_t want;
    fr_from_u64(&want, 42);
    encode_native(&enc, &key, &value);
    CHECK(fr_eq(&enc, &want), "native 40 + 2 = 42");

    for (int corrupt = 0; corrupt < 3; corrupt++) {
        for (int mode = 0; mode < 2; mode++) {
            cs_t cs;
            cs_init(&cs, mode ? CS_CHECK : CS_SHAPE, 0);
            fr_neg(&key, &FR_ONE);
            fr_from_u64(&value, 2);
            anum k = anum_alloc(&cs, &key), v = anum_alloc(&cs, &value);
            if (corrupt == 1)
                fr_from_u64(&k.value, 7); /* gadget sees a key other than the variable's */
            if (corrupt == 2)
                fr_from_u64(&v.value, 9);
            cs_counts c0, c1;
            cs_get_counts(&cs, &c0);
            anum e = encode_circuit(&cs, &k, &v);
            cs_get_counts(&cs, &c1);
            CHECK(cs.status == CUZK_OK, "status");
            CHECK(c1.constraints - c0.constraints == 1 && c1.aux - c0.aux == 1 &&
                      c1.inputs == c0.inputs,
                  "encode costs 1 constraint, 1 aux");
            CHECK(c1.nnz_a - c0.nnz_a == 2 && c1.nnz_b - c0.nnz_b == 1 && c1.nnz_c - c0.nnz_c == 1,
                  "nnz (2, 1, 1)");
            if (!mode) {
                cs_free(&cs);
                continue;
            }
            uint64_t idx = 99;
            char name[128] = "";
            bool ok = cs_check_satisfied(&cs, &idx, name, sizeof name);
            if (corrupt == 0) {
                CHECK(ok, "check accepts encode");
                CHECK(fr_eq(&e.value, &FR_ONE) && fr_eq(cs_value(&cs, e.var), &FR_ONE),
                      "encoded value 1");
            } else {
                CHECK(!ok && idx == c0.constraints, "corrupted %s rejected at %llu",
                      corrupt == 1 ? "key" : "value", (unsigned long long)idx);
                CHECK(strstr(name, "encode_add") != NULL, "named: %s", name);
            }
            cs_free(&cs);
        }
    }
    return check_summary("encode_gadget");
}
