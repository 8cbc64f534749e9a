#!/usr/bin/env bash
# `cuzk-bench gen-vanilla` against docs/vectors.md#worked-2-kib-example (its
# defaults): the C1 JSON, the WindowPoSt V1_2 vanilla proof and the SnapDeals partition proof
# have the published sizes and SHA-256 digests, the summary lines carry the published
# commitments and challenges; the C2Input form of the same C1 starts like the real fixture's
# (u32 0, u32 5); a 32 GiB C1 is a marked synthetic fixture; PoSt blob lists hold one base64
# string per sector; bad usage exits 2. Usage: gen_vanilla_cli.sh <path to cuzk-bench>
set -u
bench=$1
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else echo "FAIL: $2"; fail=$((fail + 1)); fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
digest() { sha256sum "$1" | cut -d" " -f1; }

out=$("$bench" gen-vanilla porep --registered-proof 5 --threads 2 -o "$tmp/c1.json" 2>"$tmp/err")
ok '[[ $? == 0 ]]' "porep exit status ($(cat "$tmp/err"))"
ok '[[ $(digest "$tmp/c1.json") == f576e7ebf7ccbfa3fe059fa4a365a75daa1416258ff17c2de8b4755bf03bddf4 ]]' "C1 JSON digest"
ok '[[ $(stat -c %s "$tmp/c1.json") == 100111 ]]' "C1 JSON size"
ok '[[ $out == *"\"comm_r\":\"77424390b36f74acd595c40d0e341f4fbff18623feaf8ad72fe73d7490d0d65c\""* ]]' "porep comm_r: $out"
ok '[[ $out == *"\"replica_id\":\"3e75e87332cd5d60132c1f9f9a8362e2e4cf190b46f4fd636fd8864b842d170b\""* ]]' "porep replica_id"
ok '[[ $out == *"\"challenges\":[[28,27]]"* && $out == *"\"synthetic_fixture\":false"* ]]' "porep challenges"

"$bench" gen-vanilla porep --registered-proof StackedDrg2KiBV1_1 --format c2input -o "$tmp/c1.bin" >/dev/null 2>&1
ok '[[ $? == 0 && $(head -c 8 "$tmp/c1.bin" | od -An -tx1 | tr -d " \n") == 0000000005000000 ]]' "C2Input header"

out=$("$bench" gen-vanilla window-post --registered-proof 10 -o "$tmp/post.bin" 2>/dev/null)
ok '[[ $? == 0 && $(digest "$tmp/post.bin") == f5427fff291e1103a8a6f45059916c63d37b8c9586db8e41613e7a5ae98ce321 ]]' \
    "WindowPoSt digest"
ok '[[ $out == *"\"challenges\":[15,30,60,40,31,45,14,18,34,2]"* ]]' "WindowPoSt leaves: $out"

out=$("$bench" gen-vanilla snap --registered-proof 0 --format bincode -o "$tmp/snap.bin" 2>/dev/null)
ok '[[ $? == 0 && $(digest "$tmp/snap.bin") == 3853570980c625c94a826de9e1f20f4413edb3163c5fe682c02ea0339e78c824 ]]' \
    "PartitionProof digest"
ok '[[ $out == *"\"comm_r_new\":\"fdc65092682f315495a8b600a28e6209d173c4cbdb945e4575525000aa1eaf71\""* ]]' "snap comm_r_new"

out=$("$bench" gen-vanilla window-post --registered-proof 5 --sectors 3,4 --partition 1 -o "$tmp/posts.json" 2>/dev/null)
ok '[[ $? == 0 && $(tr -cd "\"" <"$tmp/posts.json" | wc -c) == 4 && $out == *"\"sector_id\":4,"* ]]' "two-sector blob list"

out=$("$bench" gen-vanilla porep --registered-proof 8 --sector 5 -o "$tmp/c1-32g.json" 2>/dev/null)
ok '[[ $? == 0 && $out == *"\"synthetic_fixture\":true"* ]]' "32 GiB synthetic C1: ${out:0:200}"
ok '[[ $out == *"\"comm_d\":\"077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e\""* ]]' "32 GiB comm_d = Z_30"

for bad in "" "porep" "porep --registered-proof 20" "porep --registered-proof 13" "window-post --registered-proof 0" \
    "winning-post --registered-proof 9" "porep --registered-proof 5 --ticket 00" "snap --registered-proof 0 --partition 1" \
    "porep --registered-proof 5 --format xml" "porep --registered-proof 5 --data /no/such/file" "post --registered-proof 5" \
    "window-post --registered-proof 10 --format bincode --sectors 1,2" "porep --registered-proof 5 --bogus"; do
    # shellcheck disable=SC2086
    "$bench" gen-vanilla $bad >/dev/null 2>&1
    ok '[[ $? == 2 ]]' "'gen-vanilla $bad' exit status"
done
"$bench" gen-vanilla window-post --registered-proof 10 --randomness "$(printf 'ff%.0s' {1..32})" >/dev/null 2>&1
ok '[[ $? == 2 ]]' "non-canonical randomness refused"

echo "gen_vanilla_cli: $pass passed, $fail failed"
[[ $fail == 0 && $pass -gt 0 ]]
