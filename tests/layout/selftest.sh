#!/usr/bin/env bash
# The layout checks on small made-up trees and binaries:
#  - check_layers.py: a clean tree passes; an upward include, an include of a test-only layer
#    from another layer, an include between peer layers (either way), a folder in no layer
#    and a relative ("../x/y.h") upward include each fail, naming the file and line;
#  - check_engine_words.py: an engine with generic words only ("snapshot", "post", "GPU
#    worker", "device") passes, as do proof families named outside the engine layer and in
#    a layer nested under it; a proof family, a sector or a GPU runtime named in an engine
#    file fails, naming the file, line and word; a tree without an engine layer fails;
#  - check_no_testkit.sh: a binary linking nothing of the kit passes, one calling into the
#    kit fails naming the symbol, and a library that defines nothing fails.
# Usage: selftest.sh PYTHON3 CC NM
set -u
py=${1:?python3}; cc=${2:?cc}; nm=${3:?nm}; here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
tree() {
    rm -rf "$tmp/t"; mkdir -p "$tmp/t/src/low" "$tmp/t/src/mid/sub" "$tmp/t/src/high" "$tmp/t/src/kit" \
        "$tmp/t/src/p1" "$tmp/t/src/p2"
    printf 'set(CUZK_TEST_ONLY_LAYERS kit)\nset(CUZK_PEER_LAYERS p1 p2)\nset(CUZK_LAYERS low mid kit mid/sub p1 p2 high)\n' \
        >"$tmp/t/CMakeLists.txt"
    printf '#include <stdio.h>\n' >"$tmp/t/src/low/l.h"
    printf '#include "low/l.h"\n#include "gen/generated.pb-c.h"\n' >"$tmp/t/src/mid/m.h"
    printf '#include "mid/m.h"\n#include "low/l.h"\n' >"$tmp/t/src/kit/k.h"
    printf '#include "m.h"\n#include "low/l.h"\n' >"$tmp/t/src/mid/m.c"
    printf '#include "mid/m.h"\n' >"$tmp/t/src/mid/sub/s.c"
    printf '#include "low/l.h"\n' >"$tmp/t/src/p1/a.h"
    printf '#include "mid/m.h"\n#include "a.h"\n' >"$tmp/t/src/p1/a.c"
    printf '#include "low/l.h"\n' >"$tmp/t/src/p2/b.h"
    printf '#include "mid/sub/s.c"\n#include "low/l.h"\n#include "p1/a.h"\n#include "p2/b.h"\n' >"$tmp/t/src/high/h.c"
}
expect() { # expect RC TEXT-IN-OUTPUT NAME
    out=$("$py" "$here/check_layers.py" "$tmp/t" 2>&1); rc=$?
    if [ "$rc" != "$1" ] || ! grep -qF -- "$2" <<<"$out"; then
        echo "FAIL $3: rc $rc (want $1), output: $out"; fail=1
    else echo "ok $3"; fi
}
tree; expect 0 "none upward" clean
tree; printf '#include "high/h.c"\n' >>"$tmp/t/src/low/l.h"
expect 1 "src/low/l.h:2: layer low includes high/h.c of the higher layer high" upward
tree; printf '#include "mid/sub/s.c"\n' >>"$tmp/t/src/mid/m.c"
expect 1 "src/mid/m.c:3: layer mid includes mid/sub/s.c of the higher layer mid/sub" nested
tree; printf '#include "../high/h.c"\n' >"$tmp/t/src/low/r.c"
expect 1 "src/low/r.c:1: layer low includes high/h.c of the higher layer high" relative
tree; printf '#include "kit/k.h"\n' >>"$tmp/t/src/high/h.c"
expect 1 "src/high/h.c:5: layer high includes kit/k.h of the test-only layer kit" test-only
tree; printf '#include "p1/a.h"\n' >>"$tmp/t/src/p2/b.h"
expect 1 "src/p2/b.h:2: layer p2 includes p1/a.h of its peer layer p1" peer-down
tree; printf '#include "p2/b.h"\n' >>"$tmp/t/src/p1/a.c"
expect 1 "src/p1/a.c:3: layer p1 includes p2/b.h of" peer-up
tree; mkdir "$tmp/t/src/other"; printf '\n' >"$tmp/t/src/other/o.c"
expect 1 "src/other/o.c: in no layer of CUZK_LAYERS" unplaced

# check_engine_words.py on an engine layer, a layer nested in it and one beside it
etree() {
    rm -rf "$tmp/e"; mkdir -p "$tmp/e/src/engine/sub" "$tmp/e/src/kinds"
    printf 'set(CUZK_LAYERS engine engine/sub kinds)\n' >"$tmp/e/CMakeLists.txt"
    printf '/* a snapshot of the GPU worker on its device; post the result */\nint x;\n' >"$tmp/e/src/engine/e.c"
    printf '/* the PoRep kind (Filecoin) over CUDA */\n' >"$tmp/e/src/kinds/k.c"
    printf '/* SnapDeals through OpenCL */\n' >"$tmp/e/src/engine/sub/s.c"
}
wexpect() { # wexpect RC TEXT-IN-OUTPUT NAME
    out=$("$py" "$here/check_engine_words.py" "$tmp/e" 2>&1); rc=$?
    if [ "$rc" != "$1" ] || ! grep -qF -- "$2" <<<"$out"; then
        echo "FAIL $3: rc $rc (want $1), output: $out"; fail=1
    else echo "ok $3"; fi
}
etree; wexpect 0 "1 files of the engine core name no" words-clean
etree; printf 'int y; /* the WindowPoSt partitions */\n' >>"$tmp/e/src/engine/e.c"
wexpect 1 'src/engine/e.c:3: names "WindowPoSt" (a proof family)' words-post
etree; printf '#include "x.h" /* for SnapDeals */\n' >"$tmp/e/src/engine/f.h"
wexpect 1 'src/engine/f.h:1: names "SnapDeals" (a proof family)' words-snap
etree; printf '/* one sector */\n' >"$tmp/e/src/engine/g.c"
wexpect 1 'src/engine/g.c:1: names "sector" (a sector)' words-sector
etree; printf 'static int cudaMemcpy_done;\n' >"$tmp/e/src/engine/h.c"
wexpect 1 'src/engine/h.c:1: names "cuda" (a GPU runtime)' words-runtime
etree; printf 'set(CUZK_LAYERS kinds)\n' >"$tmp/e/CMakeLists.txt"
wexpect 1 "no file of the engine layer" words-no-engine

# check_no_testkit.sh on a two-object kit and two programs
printf 'int kit_make_sector(void) { return 7; }\n' >"$tmp/kit.c"
printf 'int kit_other(void) { return 8; }\n' >"$tmp/kit2.c"
printf 'int main(void) { return 0; }\n' >"$tmp/clean.c"
printf 'int kit_make_sector(void);\nint main(void) { return kit_make_sector(); }\n' >"$tmp/dirty.c"
printf 'static int hidden(void) { return 0; }\n' >"$tmp/empty.c"
for f in kit kit2 clean dirty empty; do "$cc" -c "$tmp/$f.c" -o "$tmp/$f.o" || fail=1; done
ar rcs "$tmp/libkit.a" "$tmp/kit.o" "$tmp/kit2.o" && ar rcs "$tmp/libempty.a" "$tmp/empty.o" || fail=1
"$cc" "$tmp/clean.o" "$tmp/libkit.a" -o "$tmp/clean" && "$cc" "$tmp/dirty.o" "$tmp/libkit.a" -o "$tmp/dirty" || fail=1
nmexpect() { # nmexpect RC TEXT LIB BIN NAME
    out=$(bash "$here/check_no_testkit.sh" "$nm" "$3" "$4" 2>&1); rc=$?
    if [ "$rc" != "$1" ] || ! grep -qF -- "$2" <<<"$out"; then
        echo "FAIL $5: rc $rc (want $1), output: $out"; fail=1
    else echo "ok $5"; fi
}
nmexpect 0 "defines none of the 2 symbols" "$tmp/libkit.a" "$tmp/clean" nm-clean
nmexpect 1 "  kit_make_sector" "$tmp/libkit.a" "$tmp/dirty" nm-linked
nmexpect 1 "no defined symbols" "$tmp/libempty.a" "$tmp/clean" nm-empty-kit
exit $fail
