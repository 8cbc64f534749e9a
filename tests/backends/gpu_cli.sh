#!/usr/bin/env bash
# The proving commands' --backend / --device (cuzk prove, cuzk-bench batch, micro) on OpenCL (POCL in
# CI; exit 77, a skip, without an OpenCL device): a circom circuit (circomlib Poseidon and
# MiMC, the iden3 fixtures) proved through the device is byte-identical to the CPU backend's
# proof for the same r, s (the CUZK_TEST_FIXED_RS test hook, with --test-hooks; ignored with a
# warning without it) and verifies; the engine's
# batch run through the device (two workers on one device) verifies every partition with
# every flight counter back at zero (the memory budget holding only the workers' pinned
# staging) and permits within partition_workers; cuzk-bench micro --backend opencl adds its device
# MSM rows, each matching the CPU's; bad flags exit 2.
# Usage: gpu_cli.sh CUZK CUZK_BENCH FIXTURE_DIR
set -uo pipefail
cuzk=$1 bench=$2 fx=$3
if ! "$cuzk" gpu-info --json | python3 -c 'import json,sys; r=[x for x in json.load(sys.stdin)["runtimes"] if x["runtime"]=="opencl"]; sys.exit(0 if r and r[0]["devices"] else 1)'; then
  echo "SKIP: no OpenCL device"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

for c in poseidon mimc; do
  for be in cpu opencl; do
    if ! CUZK_TEST_FIXED_RS=5 "$cuzk" prove --test-hooks --backend "$be" --threads 2 "$fx/$c.zkey" "$fx/$c.wtns" \
         "$work/$c.$be.proof.json" "$work/$c.$be.public.json" 2>"$work/err"; then
      bad "$c prove --backend $be: $(tail -c 300 "$work/err")"
    fi
  done
  cmp -s "$work/$c.cpu.proof.json" "$work/$c.opencl.proof.json" && ok || bad "$c: opencl proof differs from the CPU's"
  "$cuzk" verify "$fx/$c.vkey.json" "$work/$c.opencl.public.json" "$work/$c.opencl.proof.json" >/dev/null \
    && ok || bad "$c: the device's proof does not verify"
  # the hook's variable set without --test-hooks (a production process that inherited it):
  # ignored with a warning, fresh randomness, a different valid proof
  CUZK_TEST_FIXED_RS=5 "$cuzk" prove --backend opencl --device 0 "$fx/$c.zkey" "$fx/$c.wtns" "$work/$c.r.json" \
    "$work/$c.rp.json" 2>"$work/err" && grep -q "CUZK_TEST_FIXED_RS is set but ignored" "$work/err" \
    && ! cmp -s "$work/$c.r.json" "$work/$c.opencl.proof.json" \
    && "$cuzk" verify "$fx/$c.vkey.json" "$work/$c.rp.json" "$work/$c.r.json" >/dev/null && ok \
    || bad "$c: a proof with fresh r, s"
done

out=$("$bench" batch --kind synthetic --log-constraints 8 --partitions 3 --count 4 -j 2 --partition-workers 2 \
      --gpu-workers 2 --threads 2 --backend opencl --json --quiet 2>"$work/err")
rc=$?
if [[ $rc -eq 0 ]] && python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
r = r["rows"][0] if "rows" in r else r
# the budget holds the two workers' pinned staging (default staging_buffer 32 MiB) while the engine runs
staging = 2 * (32 << 20)
ok = (r["verified"] == r["proofs"] * r["partitions"] and r["failed"] == 0 and "opencl:0" in r["backend"]
      and r["peak_permits_held"] <= r["partition_workers"] and r["standing_bytes"] == staging
      and r["model"]["standing_bytes"] == staging
      and all(v == (staging if k == "memory_used_bytes" else 0) for k, v in r["counters_at_end"].items()))
sys.exit(0 if ok else 1)
PY
then ok; else bad "batch --backend opencl: exit $rc: $out $(tail -c 300 "$work/err")"; fi

# cuzk-bench micro --backend opencl: the G1 MSM rows on the device beside the CPU's, each device
# result checked against the CPU's msm (the boolean-heavy rows only, --quick: 2^16)
out=$(MSM_SCALARS=bool90 "$bench" micro --quick --json --backend opencl --device 0 2>"$work/err")
rc=$?
if [[ $rc -eq 0 ]] && python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
same = [k for k in r if k.startswith("gpu_msm_g1_bool90_") and k.endswith("_same")]
sys.exit(0 if "opencl:0" in r.get("gpu_device", "") and same and all(r[k] is True for k in same)
         and all(r[k[:-len("_same")] + "_ms"] > 0 for k in same) else 1)
PY
then ok; else bad "micro --backend opencl: exit $rc: ${out:0:300} $(tail -c 300 "$work/err")"; fi
for args in "--backend vulkan" "--device x"; do
  # shellcheck disable=SC2086
  "$bench" micro --quick $args >/dev/null 2>"$work/err"
  rc=$?
  [[ $rc -eq 2 ]] && grep -q -- "${args%% *}" "$work/err" && ok || bad "micro $args: exit $rc"
done

for args in "--backend gpu" "--device x" "--backend"; do
  # shellcheck disable=SC2086
  "$cuzk" prove $args "$fx/poseidon.zkey" "$fx/poseidon.wtns" "$work/x.json" "$work/y.json" 2>"$work/err"
  rc=$?
  [[ $rc -eq 2 && -s $work/err ]] && ok || bad "prove $args: exit $rc"
done
"$cuzk" prove --backend cuda "$fx/poseidon.zkey" "$fx/poseidon.wtns" "$work/x.json" "$work/y.json" 2>"$work/err"
rc=$?
if "$cuzk" gpu-info --json | python3 -c 'import json,sys; sys.exit(0 if any(r["devices"] for r in json.load(sys.stdin)["runtimes"] if r["runtime"]=="cuda") else 1)'; then ok; else
  [[ $rc -eq 2 ]] && grep -q "cuda" "$work/err" && ok || bad "prove --backend cuda without a CUDA device: exit $rc"
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
