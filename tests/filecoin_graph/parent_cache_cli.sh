#!/usr/bin/env bash
# `cuzk-bench parent-cache` against the published manifest (storage-proofs-porep
# parent_cache.json): the 2 KiB V1_1 cache (id 5) written to a file whose sha256sum is the
# published digest, the JSON line's name and digest, the 8 MiB V1 cache (id 1) hashed only, and
# exit 2 on bad usage.
# Usage: parent_cache_cli.sh <path to cuzk-bench>
set -u
bench=$1
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else echo "FAIL: $2"; fail=$((fail + 1)); fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$bench" parent-cache --registered-proof 5 --out "$tmp/c.cache" --threads 2 2>"$tmp/err")
ok '[[ $? == 0 ]]' "id 5 exit status ($(cat "$tmp/err"))"
ok '[[ $out == "{\"registered_proof\":5,\"nodes\":64,\"file\":\"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache\",\"sha256\":\"840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97\",\"seconds\":"* ]]' \
    "id 5 JSON: $out"
ok '[[ $(sha256sum "$tmp/c.cache" | cut -d" " -f1) == 840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97 ]]' \
    "id 5 file digest"
ok '[[ $(stat -c %s "$tmp/c.cache") == 3584 ]]' "id 5 file size"

out=$("$bench" parent-cache --registered-proof 1 2>/dev/null)
ok '[[ $? == 0 && $out == *"\"nodes\":262144,"*"\"sha256\":\"a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce\""* ]]' \
    "id 1 hashed: $out"

for bad in "" "--registered-proof 20" "--registered-proof x" "--registered-proof 5 --threads 0" "--bogus"; do
    # shellcheck disable=SC2086
    "$bench" parent-cache $bad >/dev/null 2>&1
    ok '[[ $? == 2 ]]' "'parent-cache $bad' exit status"
done
"$bench" parent-cache --registered-proof 5 --out "$tmp/no/such/dir/c.cache" >/dev/null 2>&1
ok '[[ $? == 2 ]]' "unwritable --out exit status"

echo "parent_cache_cli: $pass passed, $fail failed"
[[ $fail == 0 && $pass -gt 0 ]]
