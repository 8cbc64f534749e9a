#!/usr/bin/env bash
# cuzk gpu-info: exit 0 with or without devices; the text and --json forms list both runtimes;
# the OpenCL device count and names equal what clinfo (an independent OpenCL client, Debian's
# clinfo package) lists; CUDA's entry says why it has no device when it has none; a bad
# argument is exit 2. Usage: gpu_info_cli.sh BUILD_DIR
set -euo pipefail
cuzk="$1/cuzk"
fail() { echo "FAIL: $*" >&2; exit 1; }

text=$("$cuzk" gpu-info) || fail "gpu-info exit $?"
grep -q '^opencl: ' <<<"$text" || fail "no opencl line in: $text"
grep -q '^cuda: ' <<<"$text" || fail "no cuda line in: $text"
json=$("$cuzk" gpu-info --json) || fail "gpu-info --json exit $?"
jq -e '.runtimes | length == 2' <<<"$json" >/dev/null || fail "not two runtimes: $json"
for rt in opencl cuda; do
  jq -e --arg rt "$rt" '.runtimes[] | select(.runtime == $rt) |
      (.devices | length > 0) or (.reason | length > 0)' <<<"$json" >/dev/null ||
    fail "$rt: neither devices nor a reason: $json"
done
if jq -e '.runtimes[] | select(.runtime == "opencl") | .built' <<<"$json" >/dev/null && command -v clinfo >/dev/null; then
  ours=$(jq -r '.runtimes[] | select(.runtime == "opencl") | .devices[].name' <<<"$json" | sort)
  theirs=$(clinfo -l 2>/dev/null | sed -n 's/^ *[`|]-- Device #[0-9]*: //p' | sed 's/ *$//' | sort)
  [[ "$ours" == "$theirs" ]] || fail "OpenCL devices differ from clinfo -l: ours [$ours], clinfo [$theirs]"
  echo "OpenCL devices as clinfo lists them: $(wc -l <<<"$ours" | tr -d ' ')"
fi
jq -e '.runtimes[] | select(.runtime == "cuda") | (.devices | length > 0) or (.reason | test("not built|CUDA driver|no device"))' \
  <<<"$json" >/dev/null || fail "cuda entry: $json"
set +e
"$cuzk" gpu-info --bogus >/dev/null 2>&1
rc=$?
set -e
[[ $rc == 2 ]] || fail "gpu-info --bogus: exit $rc, expected 2"
echo "gpu_info_cli: ok"
