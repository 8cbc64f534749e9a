#!/usr/bin/python3
"""The Filecoin proof kinds through `cuzk daemon` over gRPC (Python grpcio client built from
the repository's .proto), with test-only parameters:
  - POREP_SEAL_COMMIT with the real 8 MiB C1 of the reference (shared/fixtures) as Curio
    sends it (miner_id, sector_number, request_id): COMPLETED, one self-verified 192-byte
    partition proof that `cuzk verify-c2` (a separate process reading only the .vk) accepts;
  - bad requests answered INVALID_ARGUMENT naming what is wrong (garbage, truncated and
    tampered C1s, a sector_number that does not give the C1's replica_id, a wrong
    sector_size), and the daemon keeps serving;
  - GetStatus lists the parameters (porep-8m, HOT, ref_count 0 once done), EvictSRS frees
    them, PreloadSRS loads them back; a daemon without parameters answers
    FAILED_PRECONDITION naming the file and `cuzk params gen`.
Prints "N passed, N failed"."""
import argparse, os, subprocess, sys

import grpc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--cuzk", required=True)
ap.add_argument("--proto", required=True)
ap.add_argument("--fixtures", required=True)
ap.add_argument("--params", required=True)
args = ap.parse_args()
pb = lib.init(args.cuzk, args.proto, "cuzk-fc-daemon-")
HERE = os.path.dirname(os.path.abspath(__file__))

c1_path = os.path.join(args.fixtures, "porep-8MiB-c1.bincode")
c1 = open(c1_path, "rb").read()
offsets = dict(line.split() for line in subprocess.run(
    [sys.executable, os.path.join(HERE, "c1_offsets.py"), c1_path], capture_output=True, text=True,
    check=True).stdout.splitlines())

srs = '[srs]\nparam_cache = "%s"\ncache_dir = "%s"\n' % (args.params, os.path.join(lib.TMP, "cache"))
d = Daemon("fc", "unix://%s/fc.sock" % lib.TMP, srs, max_message="64MiB")
c = Client(d.target)


def porep(**kw):
    base = dict(request_id="porep-1006-1498", proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=c1,
                registered_proof=6, miner_id=1006, sector_number=1498, sector_size=8 << 20)
    base.update(kw)
    return pb.SubmitProofRequest(**base)


def expect(req, want, *needles):
    code, msg = c.code("Prove", pb.ProveRequest(submit=req), timeout=600)
    check(code == want and all(n in msg for n in needles), "%s %r (want %s %r)" % (code, msg, want, needles))


# bad requests first (nothing proved yet); the daemon keeps serving after each
flip = bytearray(c1)
flip[int(offsets["c_x_row0"])] ^= 1
expect(porep(vanilla_proof=b"\x00" * 40), grpc.StatusCode.INVALID_ARGUMENT, "porep-c2", "vanilla_proof")
expect(porep(vanilla_proof=c1[:30000]), grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proof", "offset")
expect(porep(vanilla_proof=bytes(flip)), grpc.StatusCode.INVALID_ARGUMENT, "c_x")
expect(porep(sector_number=1499), grpc.StatusCode.INVALID_ARGUMENT, "sector_number 1499", "replica_id")
expect(porep(miner_id=1007), grpc.StatusCode.INVALID_ARGUMENT, "miner_id 1007", "replica_id")
expect(porep(sector_size=32 << 30), grpc.StatusCode.INVALID_ARGUMENT, "sector_size")
check(c.call("GetStatus", pb.GetStatusRequest()).total_proofs_failed == 0, "refusals are not failed proofs")

# the real C1 through the daemon
r = c.call("Prove", pb.ProveRequest(submit=porep()), timeout=1200).result
check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192 and r.verified_partitions == 1,
      "PoRep 8 MiB: %s %r %d" % (pb.AwaitProofResponse.Status.Name(r.status), r.error_message, len(r.proof)))
proof = os.path.join(lib.TMP, "porep.proof")
with open(proof, "wb") as f:
    f.write(r.proof)
v = subprocess.run([args.cuzk, "verify-c2", c1_path, proof, "--param-cache", args.params], capture_output=True,
                   text=True)
check(v.returncode == 0 and '"valid":true' in v.stdout, "verify-c2 of the daemon's proof: %s %s" % (v.stdout, v.stderr))
# the same request_id again is the same job (idempotent), not a second proof
again = c.call("Prove", pb.ProveRequest(submit=porep()), timeout=60).result
check(again.proof == r.proof, "same request_id returns the retained proof")

st = c.call("GetStatus", pb.GetStatusRequest())
e = [x for x in st.loaded_srs if x.circuit_id == "porep-8m"]
check(len(e) == 1 and e[0].tier == pb.SRSStatus.HOT and e[0].ref_count == 0 and e[0].size_bytes > 0,
      "GetStatus porep-8m: %s" % e)
check(st.total_proofs_completed == 1, "completed %d" % st.total_proofs_completed)
ev = c.call("EvictSRS", pb.EvictSrsRequest(circuit_id="porep-8m"))
check(ev.was_loaded and ev.freed_bytes == e[0].size_bytes, "EvictSRS porep-8m: %s" % ev)
st = c.call("GetStatus", pb.GetStatusRequest())
check(not [x for x in st.loaded_srs if x.circuit_id == "porep-8m" and x.tier == pb.SRSStatus.HOT], "evicted")
pl = c.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-8m"))
check(not pl.already_loaded, "PreloadSRS after evict loads")
check(c.code("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-9g"))[0] == grpc.StatusCode.NOT_FOUND,
      "unknown circuit id")

# a daemon whose parameter directory lacks the files
empty = os.path.join(lib.TMP, "no-params")
os.mkdir(empty)
d2 = Daemon("fc-empty", "unix://%s/fc2.sock" % lib.TMP, '[srs]\nparam_cache = "%s"\n' % empty, max_message="64MiB")
c2 = Client(d2.target)
code, msg = c2.code("Prove", pb.ProveRequest(submit=porep(request_id="np")))
check(code == grpc.StatusCode.FAILED_PRECONDITION and "params gen" in msg and empty in msg,
      "missing parameters: %s %r" % (code, msg))
check(d.stop() == 0 and d2.stop() == 0, "daemons stop cleanly")
lib.summary()
