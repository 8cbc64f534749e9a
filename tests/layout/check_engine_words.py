#!/usr/bin/env python3
"""The engine core names no sector, proof family or GPU runtime.

Usage: check_engine_words.py ROOT

The engine (the files of ROOT/src whose layer, as check_layers.py assigns it from
`set(CUZK_LAYERS ...)` in ROOT/CMakeLists.txt, is `engine`) knows jobs, partitions, budgets
and channels; circuit kinds (src/kinds/) and prover backends (src/backends/) plug into it.
So no line of it, code or comment, may name
  - a sector ("sector", "EmptySectorUpdate");
  - a proof family or its software: PoRep, PoSt (WindowPoSt, WinningPoSt, FallbackPoSt,
    wpost), SnapDeals ("snap", not "snapshot"), Filecoin (and rust-fil-proofs, Curio,
    Lotus), circom (snarkjs, .zkey, .wtns);
  - a GPU runtime: CUDA, OpenCL, POCL, NVIDIA / nvcc, HIP, ROCm, Vulkan, SYCL.
Generic words (GPU, device, prover worker, backend) are fine.

Prints one line per offence (path:line: the word and its category) and exits 1 if there is
any or if no engine file was found, 0 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_layers import SOURCES, cmake_list, layer_of  # noqa: E402

# (pattern, flags, category); PoSt is matched in its own spelling so that "post" as an
# English word is not an offence.
WORDS = [
    (r"sector", re.I, "a sector"),
    (r"porep", re.I, "a proof family"),
    (r"PoSt", 0, "a proof family"),
    (r"(window|winning|fallback)[-_ ]?post|\bwpost", re.I, "a proof family"),
    (r"\bsnap(deals)?(?![a-z])", re.I, "a proof family"),
    (r"filecoin|fil[-_]proofs|\bcurio\b|\blotus\b", re.I, "a proof family"),
    (r"circom|snarkjs|\bzkey\b|\bwtns\b", re.I, "a proof family"),
    (r"cuda|opencl|\bpocl\b|nvidia|\bnvcc\b|\bhip\b|\brocm\b|vulkan|\bsycl\b", re.I, "a GPU runtime"),
]
COMPILED = [(re.compile(p, f), what) for p, f, what in WORDS]


def main(root):
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        layers = cmake_list(f.read(), "CUZK_LAYERS")
    src = os.path.join(root, "src")
    offences = []
    files = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            if not name.endswith(SOURCES) and name != "CMakeLists.txt":
                continue
            if layer_of(os.path.dirname(rel), layers) != "engine":
                continue
            files += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    for rx, what in COMPILED:
                        m = rx.search(line)
                        if m:
                            offences.append("src/%s:%d: names \"%s\" (%s) in the engine core"
                                            % (rel, lineno, m.group(0), what))
    for o in offences:
        print(o)
    if files == 0:
        print("no file of the engine layer found under %s" % src)
        return 1
    if not offences:
        print("%d files of the engine core name no sector, proof family or GPU runtime" % files)
    return 1 if offences else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
