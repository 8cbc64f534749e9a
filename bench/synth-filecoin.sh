#!/usr/bin/env bash
# Issue 19 benchmark: one-thread synthesis of one 32 GiB partition, `cuzk ... --synth-only`
# (a CS_SHAPE pass for the sizes, the compact witness-only pass of the PCE path, then direct
# synthesis: CS_PROVE into exact a/b/c buffers, as the engine's direct path), for one build
# or for two builds in the same run (ratios base / build):
#   window  the real 32 GiB WindowPoSt vanilla proof (shared/fixtures), one partition padded
#           to 2,349 sectors (125,279,217 constraints);
#   porep   (--porep) partition 0 of a sparse 32 GiB PoRep C1 made by cuzk-bench gen-vanilla
#           (130,278,541 constraints), with --pce also the PCE path (record, then witness +
#           products) against direct synthesis.
# Each run is one process under /usr/bin/time -v (user, system, peak RSS) holding
# /work/.bigmem.lock when it exists (a 32 GiB partition's a/b/c is 12.9 GB), under nice.
# --abc-pool: a/b/c from a pre-faulted engine pool buffer (for each build whose cuzk has the
# option); --repeat N: the timed phases N times, the fastest reported (likewise).
# Usage: bench/synth-filecoin.sh [--porep] [--no-window] [--pce] [--abc-pool] [--repeat N] BUILD [BASE_BUILD]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
porep=0 window=1 pce=() newopts=()
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --porep) porep=1 ;;
    --no-window) window=0 ;;
    --pce) pce=(--pce) ;;
    --abc-pool) newopts+=(--abc-pool) ;;
    --repeat) newopts+=(--repeat "$2"); shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $# -ge 1 ]] || { echo "usage: $0 [--porep] [--no-window] [--pce] [--abc-pool] [--repeat N] BUILD [BASE_BUILD]" >&2; exit 2; }
builds=("$(cd "$1" && pwd)")
[[ $# -ge 2 ]] && builds+=("$(cd "$2" && pwd)")
fix=${CUZK_FIXTURES:-$root/../shared/fixtures}
[[ -d $fix ]] || fix=/work/shared/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lock=()
[[ -e /work/.bigmem.lock ]] && lock=(flock /work/.bigmem.lock)

# run NAME BUILD ARGS...: one measured process; prints one JSON line (the tool's line plus
# user_s, sys_s, max_rss_kb of the whole process)
run() {
  local name=$1 b=$2
  shift 2
  local extra=()
  "$b/cuzk" c2 --help | grep -q -- --abc-pool && extra=("${newopts[@]}")
  "${lock[@]}" nice /usr/bin/time -v -o "$work/time" "$b/cuzk" "$@" "${extra[@]}" >"$work/out"
  python3 - "$name" "$b" "$work/out" "$work/time" <<'PY'
import json, re, sys
name, build, out, tv = sys.argv[1:]
r = json.loads(open(out).read().strip().splitlines()[-1])
t = open(tv).read()
def field(label):
    return float(re.search(re.escape(label) + r":\s*([0-9.]+)", t).group(1))
r.update(run=name, build=build, user_s=field("User time (seconds)"), sys_s=field("System time (seconds)"),
         max_rss_kb=int(field("Maximum resident set size (kbytes)")))
print(json.dumps(r))
PY
}

: >"$work/rows"
if [[ $window == 1 ]]; then
  for b in "${builds[@]}"; do
    run window "$b" post --kind window --registered-proof 8 --miner 1000 --randomness "$(printf '0%.0s' {1..64})" \
      --synth-only "$fix/window-post-32GiB-sector1.vproof" | tee -a "$work/rows"
  done
fi
if [[ $porep == 1 ]]; then
  c1=$work/porep-32g.json
  "${builds[0]}/cuzk-bench" gen-vanilla porep --registered-proof 8 --synthetic-fixture -o "$c1" >/dev/null
  for b in "${builds[@]}"; do
    run porep "$b" c2 "$c1" --synth-only "${pce[@]}" | tee -a "$work/rows"
  done
fi
# ratios base / build for the same run
python3 - "$work/rows" "${#builds[@]}" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
if int(sys.argv[2]) < 2:
    sys.exit(0)
for name in ("window", "porep"):
    r = [x for x in rows if x["run"] == name]
    if len(r) != 2:
        continue
    new, base = r
    out = {"run": name, "ratio": "base / build"}
    for k in ("synthesis_cpu_s", "synthesis_s", "synthesis_user_s", "shape_s", "witness_s", "user_s", "sys_s",
              "pce_synthesis_s", "pce_products_s", "pce_products_user_s"):
        if k in new and k in base and new[k] > 0:
            out[k] = round(base[k] / new[k], 2)
    print(json.dumps(out))
PY
