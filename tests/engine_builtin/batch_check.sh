#!/usr/bin/env bash
# Real-prover pipeline check (see CMakeLists.txt). Usage: batch_check.sh CUZK_BENCH
set -uo pipefail
bench=$1
pass=0
fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

# synthetic kind: 2^8 rows, 3 partitions x 5 proofs, 3 in flight; the serial baseline and
# pw = 1, 2, 3 (fresh process per row), small lookahead so the channel fills up
out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 3 --count 5 -j 3 --lookahead 1 \
  --threads 1 --sweep-pw 1,2,3 --json --quiet 2>/dev/null)
rc=$?
json=$(tail -n 1 <<<"$out")
check "batch exits 0 (got $rc)" '[[ $rc -eq 0 ]]'
check "sweep has 4 rows" '[[ $(jq ".sweep | length" <<<"$json") -eq 4 ]]'
check "every partition proof verified in every row" \
  '[[ $(jq "[.sweep[] | select(.verified == .proofs * .partitions)] | length" <<<"$json") -eq 4 ]]'
check "pipeline rows end with all counters at zero" \
  '[[ $(jq "[.sweep[1:][] | .counters_at_end[] | select(. != 0)] | length" <<<"$json") -eq 0 ]]'
check "permits held never exceed partition_workers" \
  '[[ $(jq "[.sweep[1:][] | select(.peak_permits_held > .partition_workers)] | length" <<<"$json") -eq 0 ]]'
check "queued never exceeds the channel capacity" \
  '[[ $(jq "[.sweep[1:][] | select(.peak_counters.queued > .channel_capacity)] | length" <<<"$json") -eq 0 ]]'
check "pw=3 reaches 2+ permits (the pipeline overlaps)" \
  '[[ $(jq ".sweep[3].peak_permits_held" <<<"$json") -ge 2 ]]'

# a budget too small for one partition fails at submit with a clear error, nothing leaks
out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 1 --count 1 --budget 1000 --json --quiet 2>&1)
rc=$?
check "a job that can never fit fails (rc $rc)" '[[ $rc -ne 0 ]] && grep -qi "budget\|fit" <<<"$out"'

echo "engine_builtin_batch: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
