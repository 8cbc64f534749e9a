#!/usr/bin/env bash
# The daemon binary links no test-kit code: no global symbol that the test-kit library
# defines (nm on the library, so the list follows the library) is defined in the binary.
# Usage: check_no_testkit.sh NM TESTKIT_LIBRARY BINARY
# Exit 0: none present; 1: some present (listed) or a list that cannot be trusted (the
# library defines nothing, or the binary has no symbol table); 2: bad usage.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 NM TESTKIT_LIBRARY BINARY" >&2; exit 2; }
nm=$1 lib=$2 bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Defined global symbols: `nm -g --defined-only` prints "VALUE TYPE NAME" (archive member
# headers and blank lines have fewer fields).
"$nm" -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/kit"
"$nm" -g --defined-only "$bin" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/bin"
kit=$(wc -l <"$tmp/kit")
if [ "$kit" -eq 0 ]; then echo "$lib: no defined symbols (not the test kit?)"; exit 1; fi
if ! grep -qx main "$tmp/bin"; then echo "$bin: no symbol table (stripped?)"; exit 1; fi
comm -12 "$tmp/kit" "$tmp/bin" >"$tmp/both"
if [ -s "$tmp/both" ]; then
    echo "$bin defines $(wc -l <"$tmp/both") of the $kit symbols of $lib:"
    sed 's/^/  /' "$tmp/both"
    exit 1
fi
echo "$bin defines none of the $kit symbols of $lib"
