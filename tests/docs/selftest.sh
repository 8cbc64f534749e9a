#!/usr/bin/env bash
# check_citations.py on small made-up trees: a clean one passes; a citation of the working
# notes, a bare section sign, a missing page and a missing heading each fail, naming the
# file and line; published works with section signs pass.
set -u
py=${1:?python3}; here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
tree() { rm -rf "$tmp/t"; mkdir -p "$tmp/t/src" "$tmp/t/docs"; printf '# Page\n\n## Point encodings\n\n## Curio'"'"'s C2 envelope\n' >"$tmp/t/docs/formats.md"; }
expect() { # expect RC TEXT-IN-OUTPUT NAME
  out=$("$py" "$here/check_citations.py" "$tmp/t" 2>&1); rc=$?
  if [ "$rc" != "$1" ] || ! grep -qF -- "$2" <<<"$out"; then
    echo "FAIL $3: rc $rc (want $1), output: $out"; fail=1
  else echo "ok $3"; fi
}
tree
printf '/* G1 (docs/formats.md#point-encodings, docs/formats.md#curios-c2-envelope, RFC 4648 §4,\n * (EUROCRYPT 2011) §3, INDOCRYPT 2012, §4, Aranha et al. 2011 §4, Intel SDM vol. 1 §15.2,\n * Algorithms", 3rd ed., §30.3). */\n' >"$tmp/t/src/a.c"
expect 0 "" clean
printf '/* see filecoin-vanilla.md */\n' >"$tmp/t/src/b.c"
expect 1 "src/b.c:1: cites working notes" notes
tree; printf '# counts of §8.1\n' >"$tmp/t/src/c.sh"
expect 1 "src/c.sh:1: section sign" section
tree; printf '/* RFC 4648 §4 and §10 */\n' >"$tmp/t/src/d.c"
expect 1 "src/d.c:1: section sign" second-section
tree; printf '/* docs/engine.md */\n' >"$tmp/t/src/e.c"
expect 1 "src/e.c:1: no page docs/engine.md" page
tree; printf '/* docs/formats.md#c1-output-json */\n' >"$tmp/t/src/f.c"
expect 1 "src/f.c:1: docs/formats.md has no heading #c1-output-json" anchor
exit $fail
