#!/usr/bin/env python3
"""No include runs upward.

Usage: check_layers.py ROOT

The layers are the folders of ROOT/src in the order of `set(CUZK_LAYERS ...)` in
ROOT/CMakeLists.txt, lowest first; `set(CUZK_TEST_ONLY_LAYERS ...)` names those only tests
and tools may use. A file belongs to the longest layer folder that contains it (src/kinds/
filecoin/x.c to kinds/filecoin, src/filecoin/x.c to filecoin). Every `#include "..."` of a
file under src/ that names a file of src/ (beside the includer or from src/) must stay in
the includer's layer or go to a lower one, only a test-only layer may include a
test-only layer, and no layer of `set(CUZK_PEER_LAYERS ...)` includes another of that list
(peers: side by side over the same lower layers, their order in CUZK_LAYERS arbitrary). A file under src/ in no layer is an offence too (a new folder must be
placed in the list). Includes that name no file of src/ (system and generated headers)
are not checked.

Prints one line per offence (path:line: reason) and exits 1 if there is any, 0 otherwise.
"""
import os
import re
import sys

SOURCES = (".c", ".h", ".inc", ".S", ".cl", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def cmake_list(text, name):
    m = re.search(r"set\(\s*" + name + r"\s+([^)]*)\)", text)
    return m.group(1).split() if m else []


def layer_of(rel, layers):
    best = None
    for layer in layers:
        if rel == layer or rel.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def main(root):
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    layers = cmake_list(text, "CUZK_LAYERS")
    if not layers:
        print("CMakeLists.txt: no set(CUZK_LAYERS ...)")
        return 1
    rank = {layer: i for i, layer in enumerate(layers)}
    test_only = set(cmake_list(text, "CUZK_TEST_ONLY_LAYERS"))
    peers = set(cmake_list(text, "CUZK_PEER_LAYERS"))
    src = os.path.join(root, "src")
    offences = []
    checked = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            own = layer_of(os.path.dirname(rel), layers)
            if own is None:
                offences.append("src/%s: in no layer of CUZK_LAYERS" % rel)
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    beside = os.path.normpath(os.path.join(dirpath, inc))
                    target = beside if os.path.isfile(beside) else os.path.join(src, inc)
                    if not os.path.isfile(target):
                        continue  # a system or generated header
                    trel = os.path.relpath(os.path.normpath(target), src).replace(os.sep, "/")
                    if trel.startswith("../"):
                        continue  # outside src/ (generated or a test header)
                    theirs = layer_of(os.path.dirname(trel), layers)
                    checked += 1
                    if theirs is None:
                        offences.append("src/%s:%d: includes %s, in no layer" % (rel, lineno, trel))
                    elif rank[theirs] > rank[own]:
                        offences.append("src/%s:%d: layer %s includes %s of the higher layer %s"
                                        % (rel, lineno, own, trel, theirs))
                    elif theirs != own and theirs in peers and own in peers:
                        offences.append("src/%s:%d: layer %s includes %s of its peer layer %s"
                                        % (rel, lineno, own, trel, theirs))
                    elif theirs in test_only and own not in test_only:
                        offences.append("src/%s:%d: layer %s includes %s of the test-only layer %s"
                                        % (rel, lineno, own, trel, theirs))
    for o in offences:
        print(o)
    if not offences:
        print("%d includes between src/ files in %d layers, none upward" % (checked, len(layers)))
    return 1 if offences else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
