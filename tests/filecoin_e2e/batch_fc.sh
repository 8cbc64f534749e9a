#!/usr/bin/env bash
# cuzk-bench batch on real Filecoin kinds with test-only parameters (fc_params fixture):
#  - PoRep C2 of a sealed 2 KiB sector's C1 (gen-vanilla), --sweep-pw 1,2 with the a/b/c pool:
#    a serial row and two pipeline rows, each from a fresh process; every partition proof
#    verified; the rows' fields (s/proof, latency, peak RSS, peak flight counters, pool
#    bytes, the model's peak RSS and its partition figures in order); the pool's one buffer
#    and the model's a/b/c share are 3 x 32 bytes x the circuit's domain (the next power of
#    two of constraints + inputs, from circuit-info); every counter at zero at the end;
#  - WinningPoSt 2 KiB from a vanilla proof file, one in-process run without the pool; then
#    --sweep-pw 1 --pce: the serial row records the PCE into the cache directory (the file
#    appears there), the pipeline row maps it; every partition of both rows synthesized
#    through it, the proofs verified, every counter at zero once the PCE is released;
#  - SnapDeals 2 KiB from a vanilla file (gen-vanilla snap) with its public side;
#  - --pce refused for a kind without PCEs (synthetic).
# Usage: batch_fc.sh CUZK_BENCH CUZK PARAMS
set -uo pipefail
bench=$1 cuzk=$2 params=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

"$bench" gen-vanilla porep --registered-proof 0 -o "$tmp/c1.json" >/dev/null || { echo "FAIL: gen-vanilla porep"; exit 1; }
info=$("$cuzk" circuit-info porep --param sector-size=2KiB)
rows=$(jq '.constraints + .inputs' <<<"$info")
domain=1
while ((domain < rows)); do domain=$((domain * 2)); done
abc=$((3 * 32 * domain))

out=$("$bench" batch --kind porep --c1 "$tmp/c1.json" --param-cache "$params" --cache-dir "$tmp/cache" \
  --count 1 -j 1 --threads 2 --sweep-pw 1,2 --abc-pool --json --quiet 2>"$tmp/err")
rc=$?
json=$(tail -n 1 <<<"$out")
check "porep batch exits 0 (rc $rc: $(tail -n 3 "$tmp/err"))" '[[ $rc -eq 0 ]]'
check "three rows: serial, pw 1, pw 2" \
  '[[ $(jq -c "[.sweep[] | [.mode, .partition_workers]]" <<<"$json") == "[[\"serial\",null],[\"pipeline\",1],[\"pipeline\",2]]" ]]'
check "every partition proof verified in every row" \
  '[[ $(jq "[.sweep[] | select(.proofs == 1 and .partitions == 1 and .verified == 1)] | length" <<<"$json") -eq 3 ]]'
check "s/proof, latency and peak RSS (getrusage) in every row" \
  '[[ $(jq "[.sweep[] | select(.seconds_per_proof > 0 and .p50_latency_s > 0 and .p95_latency_s > 0 and .peak_rss_bytes > 0)] | length" <<<"$json") -eq 3 ]]'
check "peak flight counters: one partition went through every stage" \
  '[[ $(jq "[.sweep[1:][] | .peak_counters | select(.synthesizing == 1 and .awaiting_send == 1 and .queued == 1 and .proving == 1 and .pending_finish == 1)] | length" <<<"$json") -eq 2 ]]'
check "every counter at zero at the end" \
  '[[ $(jq "[.sweep[1:][] | .counters_at_end[] | select(. != 0)] | length" <<<"$json") -eq 0 ]]'
check "the pool mapped one buffer of 3 x 32 x $domain bytes" \
  '[[ $(jq "[.sweep[1:][] | .abc_pool | select(.on and .created == 1 and .reused == 0 and .peak_total_bytes == $abc)] | length" <<<"$json") -eq 2 ]]'
check "the model: a/b/c share $abc, one whole partition (serial) or the pipeline's bound, peak above its base" \
  '[[ $(jq "[.sweep[] | .model | select(.partition_abc_bytes == $abc and .partition_bytes > $abc and .whole_partitions == 1 and .peak_rss_bytes > .base_bytes)] | length" <<<"$json") -eq 3 ]]'
check "the model: a/b/c < synthesized (a/b/c and witness) < expected (and the prover's) <= the budget's reservation" \
  '[[ $(jq "[.sweep[] | .model | select(.partition_abc_bytes < .partition_synthesized_bytes and .partition_synthesized_bytes < .partition_bytes and .partition_bytes <= .partition_reserved_bytes)] | length" <<<"$json") -eq 3 ]]'

"$bench" gen-vanilla winning-post --registered-proof 0 --format bincode -o "$tmp/win.bin" >/dev/null
R=0303030303030303030303030303030303030303030303030303030303030303
out=$("$bench" batch --kind winning-post --vanilla "$tmp/win.bin" --registered-proof 0 --miner 1000 --randomness $R \
  --param-cache "$params" --cache-dir "$tmp/cache" --count 2 -j 2 --threads 2 --json --quiet 2>"$tmp/err")
rc=$?
json=$(tail -n 1 <<<"$out")
check "winning-post batch exits 0 (rc $rc: $(tail -n 3 "$tmp/err"))" '[[ $rc -eq 0 ]]'
check "winning-post: 2 proofs verified, no pool" \
  '[[ $(jq "select(.proofs == 2 and .verified == 2 and (.abc_pool.on | not) and .abc_pool.peak_total_bytes == 0)" <<<"$json") != "" ]]'

# --pce: recorded by the first row (the serial one) into --cache-dir, mapped by the next
out=$("$bench" batch --kind winning-post --vanilla "$tmp/win.bin" --registered-proof 0 --miner 1000 --randomness $R \
  --param-cache "$params" --cache-dir "$tmp/pce" --count 2 -j 2 --threads 2 --sweep-pw 1 --abc-pool --pce \
  --json --quiet 2>"$tmp/err")
rc=$?
json=$(tail -n 1 <<<"$out")
check "winning-post --pce sweep exits 0 (rc $rc: $(tail -n 3 "$tmp/err"))" '[[ $rc -eq 0 ]]'
check "the PCE file was written in the cache directory" 'compgen -G "$tmp/pce/*.cuzkpce" >/dev/null'
check "--pce: both rows ready, every partition (2 proofs x 1) through the PCE, all verified" \
  '[[ $(jq "[.sweep[] | select(.pce.on and .pce.state == \"ready\" and .pce.partitions == 2 and .verified == 2)] | length" <<<"$json") -eq 2 ]]'
check "--pce: recorded by the serial row, mapped (not recorded again) by the pipeline row" \
  '[[ $(jq -c "[.sweep[] | .pce.recorded]" <<<"$json") == "[1,0]" ]]'
check "--pce: the model counts the mapped PCE, the counters end at zero" \
  '[[ $(jq "[.sweep[] | select(.model.pce_bytes == .pce.mapped_bytes and .pce.mapped_bytes > 0)] | length" <<<"$json") -eq 2 &&
     $(jq "[.sweep[1:][] | .counters_at_end[] | select(. != 0)] | length" <<<"$json") -eq 0 ]]'
out=$("$bench" batch --kind synthetic --pce --quiet 2>&1)
rc=$?
check "--pce refused for the synthetic kind (rc $rc)" '[[ $rc -eq 2 ]] && grep -q -- "--pce is for the Filecoin kinds" <<<"$out"'

# SnapDeals 2 KiB from a vanilla file, its public side from gen-vanilla's summary
"$bench" gen-vanilla snap --registered-proof 0 --format blobs -o "$tmp/snap.json" >"$tmp/snap.sum" ||
  { echo "FAIL: gen-vanilla snap"; exit 1; }
S=(--registered-proof 0 --comm-r-old "$(jq -r .comm_r_old "$tmp/snap.sum")" --comm-r-new "$(jq -r .comm_r_new "$tmp/snap.sum")"
   --comm-d-new "$(jq -r .comm_d_new "$tmp/snap.sum")")
out=$("$bench" batch --kind snap --vanilla "$tmp/snap.json" "${S[@]}" --param-cache "$params" --cache-dir "$tmp/cache" \
  --count 1 -j 1 --threads 2 --abc-pool --json --quiet 2>"$tmp/err")
rc=$?
json=$(tail -n 1 <<<"$out")
check "snap batch exits 0 (rc $rc: $(tail -n 3 "$tmp/err"))" '[[ $rc -eq 0 ]]'
check "snap: every partition proof verified, a pool buffer used" \
  '[[ $(jq "select(.proofs == 1 and .partitions >= 1 and .verified == .partitions and .abc_pool.created == 1)" <<<"$json") != "" ]]'

# a missing input is refused before anything runs
out=$("$bench" batch --kind porep --param-cache "$params" --json --quiet 2>&1)
rc=$?
check "porep without --c1 refused (rc $rc)" '[[ $rc -eq 2 ]] && grep -q -- "--c1" <<<"$out"'

echo "batch_fc: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
