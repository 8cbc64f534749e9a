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

# the memory model against the measured peak RSS: 2^16 rows (a/b/c 6 MiB a partition, from
# the pool), 2 partitions x 3 proofs, 2 in flight, the serial row and pw = 2. Each row's peak
# counts from its first proof (the test parameters' setup before it peaks higher: reported
# apart as load_peak_rss_bytes), and the model adds what opening the backend mapped (an
# OpenCL platform probe may map a compiler); every row within 10% of the model.
out=$("$bench" batch --kind synthetic --log-constraints 16 --partitions 2 --count 3 -j 2 --lookahead 1 \
  --threads 2 --sweep-pw 2 --abc-pool --json --quiet 2>/dev/null)
rc=$?
json=$(tail -n 1 <<<"$out")
check "model sweep exits 0 (got $rc)" '[[ $rc -eq 0 ]]'
check "every row's peak RSS counts from its first proof, the load's peak reported apart" \
  '[[ $(jq "[.sweep[] | select(.peak_rss_reset and .load_peak_rss_bytes > 0)] | length" <<<"$json") -eq 2 ]]'
check "the model: one whole partition (serial), 2 + 2 + 1 = 5 capped at the 4 in flight (pw 2)" \
  '[[ $(jq -c "[.sweep[] | .model | [.whole_partitions, .proving_partitions]]" <<<"$json") == "[[1,1],[4,1]]" ]]'
check "measured peak RSS within 10% of the model in every row ($(jq -c "[.sweep[] | .peak_rss_bytes / .model.peak_rss_bytes]" <<<"$json"))" \
  '[[ $(jq "[.sweep[] | .peak_rss_bytes / .model.peak_rss_bytes | select(. > 0.9 and . < 1.1)] | length" <<<"$json") -eq 2 ]]'

# a budget too small for one partition fails at submit with a clear error, nothing leaks
out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 1 --count 1 --budget 1000 --json --quiet 2>&1)
rc=$?
check "a job that can never fit fails (rc $rc)" '[[ $rc -ne 0 ]] && grep -qi "budget\|fit" <<<"$out"'

# --gpu-workers: the GPU backend's worker slots a device (1..64, as the daemon's
# [gpus] gpu_workers_per_device); 65 is refused before anything starts, 64 runs
out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 1 --count 1 --gpu-workers 65 --quiet 2>&1)
rc=$?
check "--gpu-workers 65 refused (rc $rc): $out" '[[ $rc -ne 0 ]] && grep -q -- "--gpu-workers needs an integer in 1..64" <<<"$out"'
out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 1 --count 1 --gpu-workers 64 --threads 1 \
  --json --quiet 2>/dev/null)
rc=$?
check "--gpu-workers 64 runs (rc $rc)" '[[ $rc -eq 0 && $(tail -n 1 <<<"$out" | jq ".sweep[0].gpu_workers // .gpu_workers") -eq 64 ]]'

echo "engine_builtin_batch: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
