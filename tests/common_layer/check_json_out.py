"""Reads test_common_json_out's document (stdout, after its C checks) with Python's json
module and compares the values with those the C test wrote, as an independent reader."""
import json
import sys

text = sys.stdin.readline()
want = {
    "s": 'a"b\\c\n\x01\u00e9',
    "imin": -(2**63),
    "umax": 2**64 - 1,
    "r": 0.1,
    "whole": 3.0,
    "big": 1e300,
    "inf": None,
    "a": [True, False, None, None, {}, [], -2.5e-7],
    "o": {"k": -1},
}
got = json.loads(text)
if got != want or type(got["whole"]) is not float:
    print("json_out document differs:\n got %r\nwant %r" % (got, want))
    sys.exit(1)
print("json_out document reads back in Python")
