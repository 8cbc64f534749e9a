/* JSON arrays of standard-base64 strings (Go json.Marshal of [][]byte, as Curio stores
 * SnapDeals vanilla proofs; docs/formats.md#snapdeals-blob-list): Go's encoding of a known list
 * ([]byte{0,1,2}, empty, nil -> "AAEC", "", null; RFC 4648 §10 vectors), round trips, and
 * refusal of bad input naming the element ($[i]) and byte offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/core/vanilla.h"

static void expect_list(const char *json, size_t n, const char *const *want, const size_t *wlen)
{
    fc_blob_list l;
    cuzk_error err = {0};
    cuzk_status st = fc_blob_list_from_json(&l, (const uint8_t *)json, strlen(json), &err);
    CHECK(st == CUZK_OK && l.n == n, "'%s': %s, %zu items", json, err.msg, l.n);
    for (size_t i = 0; st == CUZK_OK && i < n && i < l.n; i++)
        CHECK(l.len[i] == wlen[i] && !memcmp(l.data[i], want[i], wlen[i]), "'%s' item %zu", json, i);
    fc_blob_list_free(&l);
}

static void expect_bad(const char *json, const char *frag1, const char *frag2)
{
    fc_blob_list l;
    cuzk_error err = {0};
    cuzk_status st = fc_blob_list_from_json(&l, (const uint8_t *)json, strlen(json), &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2)) &&
              strstr(err.msg, "byte offset") && l.n == 0 && !l.data,
          "'%s': got %s '%s', expected '%s'", json, cuzk_status_name(st), err.msg, frag1);
}

int main(void)
{
    /* Go: json.Marshal([][]byte{{0, 1, 2}, {}, nil}) == `["AAEC","",null]` */
    static const char *const go_items[] = {"\x00\x01\x02", "", ""};
    static const size_t go_len[] = {3, 0, 0};
    expect_list("[\"AAEC\",\"\",null]", 3, go_items, go_len);
    /* RFC 4648 §10: "f" "fo" "foo" "foob" "fooba" "foobar" */
    static const char *const rfc[] = {"f", "fo", "foo", "foob", "fooba", "foobar"};
    static const size_t rfc_len[] = {1, 2, 3, 4, 5, 6};
    expect_list(" [ \"Zg==\" , \"Zm8=\",\"Zm9v\",\"Zm9vYg==\",\"Zm9vYmE=\",\"Zm9vYmFy\" ] ", 6, rfc, rfc_len);
    expect_list("null", 0, NULL, NULL);
    expect_list("[]", 0, NULL, NULL);
    expect_list("[\"\\u005am9v\"]", 1, rfc + 2, rfc_len + 2); /* an escaped 'Z' */

    /* the writer: strings only, Go's compact form */
    fc_blob_list in = {6, (uint8_t *[]){(uint8_t *)"f", (uint8_t *)"fo", (uint8_t *)"foo", (uint8_t *)"foob",
                                        (uint8_t *)"fooba", (uint8_t *)"foobar"},
                       (size_t[]){1, 2, 3, 4, 5, 6}};
    uint8_t *out;
    size_t n;
    cuzk_error err = {0};
    const char *want = "[\"Zg==\",\"Zm8=\",\"Zm9v\",\"Zm9vYg==\",\"Zm9vYmE=\",\"Zm9vYmFy\"]";
    CHECK(fc_blob_list_to_json(&in, &out, &n, &err) == CUZK_OK && n == strlen(want) && !memcmp(out, want, n),
          "writer: %.*s", (int)n, (const char *)out);
    free(out);
    /* large blob: chunked coding */
    size_t big = 200000 + 2;
    uint8_t *blob = malloc(big);
    for (size_t i = 0; i < big; i++)
        blob[i] = (uint8_t)(i * 7 + (i >> 8));
    fc_blob_list one = {1, &blob, &big}, back;
    CHECK(fc_blob_list_to_json(&one, &out, &n, &err) == CUZK_OK && n == 2 + 2 + (big + 2) / 3 * 4, "big write");
    CHECK(fc_blob_list_from_json(&back, out, n, &err) == CUZK_OK && back.n == 1 && back.len[0] == big &&
              !memcmp(back.data[0], blob, big),
          "big round trip: %s", err.msg);
    fc_blob_list_free(&back);
    free(out);
    free(blob);

    expect_bad("[\"AAE\"]", "$[0]", "length not a multiple of 4");
    expect_bad("[\"AAEC\",\"AA=A\"]", "$[1]", "bad character at character 2");
    expect_bad("[\"AAEC\",\"A A=\"]", "$[1]", "bad character at character 1");
    /* the byte offset is the bad character's own: [ " A A E C " , " A A = A */
    expect_bad("[\"AAEC\",\"AA=A\"]", "$[1]", "at character 2 of 4 (byte offset 11)");
    expect_bad("[\"AAEC\",1]", "$[1]", "expected a string, found a number");
    expect_bad("[\"AAEC\"", "$", "expected ',' or ']', found end of input");
    expect_bad("[\"AAEC\",]", "trailing comma", NULL);
    expect_bad("{}", "$", "expected an array, found an object");
    expect_bad("[\"AAEC\"] x", "$", "unexpected data after the JSON value");
    expect_bad("[\"AA\\u00\"]", "$[0]", "bad \\u escape");
    expect_bad("[\"AA\\q\"]", "$[0]", "bad escape");
    expect_bad("[\"AA\nEC\"]", "$[0]", "control character 0x0a");
    expect_bad("[\"\\ud800AAA\"]", "$[0]", "lone UTF-16 surrogate");
    expect_bad("", "$", "found end of input");
    return check_summary("filecoin blob list");
}
