#!/usr/bin/env python3
"""Byte offsets of fields in a C2Input::V0 bincode file (the 8 MiB fixture), found by
walking the layout documented in shared/fixtures/README.md independently of cuzk's reader.
Prints "name offset" lines for the fields the tamper tests change."""
import struct
import sys

b = open(sys.argv[1], "rb").read()
pos = 0


def u32():
    global pos
    v = struct.unpack_from("<I", b, pos)[0]
    pos += 4
    return v


def u64():
    global pos
    v = struct.unpack_from("<Q", b, pos)[0]
    pos += 8
    return v


def skip(n):
    global pos
    pos += n


def path():
    """u64 elements, each: u64 hash count, hashes, u64 index; returns index offsets."""
    idx = []
    for _ in range(u64()):
        skip(32 * u64())
        idx.append(pos)
        skip(8)
    return idx


def merkle():
    tag = u32()
    if tag == 0:
        skip(64)  # root, leaf
        return path()
    idx = path() + path() + (path() if tag == 2 else [])
    skip(64)
    return idx


def column():
    skip(4)  # node index
    rows = [pos + 8 + 32 * i for i in range(struct.unpack_from("<Q", b, pos)[0])]
    skip(8 + 32 * len(rows))
    merkle()
    return rows


def labeling():
    skip(32 * u64() + 4 + 8)


out = {}
assert u32() == 0 and u32() == 6 and u32() == 1  # V0, registered proof 6, variant 8MiB
for p in range(u64()):
    for c in range(u64()):
        d_idx = merkle()
        merkle()
        rows = column()
        for _ in range(u64()):
            column()
        for _ in range(u64()):
            column()
        for _ in range(u64()):
            labeling()
        labeling()
        if (p, c) == (0, 0):
            out["comm_d_path_index0"] = d_idx[0]
            out["c_x_row0"] = rows[0]
for name in ("comm_r", "comm_d", "replica_id", "seed", "ticket"):
    out[name] = pos
    skip(32)
skip(32 + 8)
assert pos == len(b), (pos, len(b))
for k, v in out.items():
    print(k, v)
