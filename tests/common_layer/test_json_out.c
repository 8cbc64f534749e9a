/* common/json_out.h: nesting and commas, escapes (quote, backslash, control bytes, UTF-8
 * kept), integers at their limits, reals that read back exactly (and non-finite as null),
 * booleans and nulls, each against the text written by hand; the document is also printed on
 * stdout, where the ctest command parses it with Python's json module (an independent reader)
 * and compares the values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/json_out.h"

int main(void)
{
    cuzk_json j;
    cuzk_json_init(&j);
    CHECK(!strcmp(cuzk_json_text(&j), ""), "empty writer");
    cuzk_json_begin_object(&j, NULL);
    cuzk_json_string(&j, "s", "a\"b\\c\n\x01\xc3\xa9");
    cuzk_json_int(&j, "imin", INT64_MIN);
    cuzk_json_uint(&j, "umax", UINT64_MAX);
    cuzk_json_real(&j, "r", 0.1);
    cuzk_json_real(&j, "whole", 3.0);
    cuzk_json_real(&j, "big", 1e300);
    cuzk_json_real(&j, "inf", INFINITY);
    cuzk_json_begin_array(&j, "a");
    cuzk_json_bool(&j, NULL, true);
    cuzk_json_bool(&j, NULL, false);
    cuzk_json_null(&j, NULL);
    cuzk_json_string(&j, NULL, NULL);
    cuzk_json_begin_object(&j, NULL);
    cuzk_json_end_object(&j);
    cuzk_json_begin_array(&j, NULL);
    cuzk_json_end_array(&j);
    cuzk_json_real(&j, NULL, -2.5e-7);
    cuzk_json_end_array(&j);
    cuzk_json_begin_object(&j, "o");
    cuzk_json_int(&j, "k", -1);
    cuzk_json_end_object(&j);
    cuzk_json_end_object(&j);
    const char *want = "{\"s\":\"a\\\"b\\\\c\\u000a\\u0001\xc3\xa9\",\"imin\":-9223372036854775808,"
                       "\"umax\":18446744073709551615,\"r\":0.1,\"whole\":3.0,\"big\":1e+300,\"inf\":null,"
                       "\"a\":[true,false,null,null,{},[],-2.5e-07],\"o\":{\"k\":-1}}";
    const char *got = cuzk_json_text(&j);
    CHECK(got && !strcmp(got, want), "text:\n got %s\nwant %s", got ? got : "(null)", want);
    if (got)
        printf("%s\n", got);
    cuzk_json_free(&j);
    return check_summary("common_json_out");
}
