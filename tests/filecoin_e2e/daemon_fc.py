#!/usr/bin/python3
"""The Filecoin proof kinds through `cuzk daemon` over gRPC (Python grpcio client built from
the repository's .proto), with test-only parameters:
  - POREP_SEAL_COMMIT with the real 8 MiB C1 of the reference (shared/fixtures) as Curio
    sends it (miner_id, sector_number, request_id): COMPLETED, one self-verified 192-byte
    partition proof that `cuzk verify-c2` (a separate process reading only the .vk) accepts;
  - bad requests answered INVALID_ARGUMENT naming what is wrong (garbage, truncated and
    tampered C1s, a sector_number that does not give the C1's replica_id, a wrong
    sector_size), and the daemon keeps serving;
  - a 2 KiB PoRep C1 in Curio's JSON envelope, WinningPoSt, WindowPoSt and SnapDeals of a
    sealed 2 KiB sector (`cuzk-bench gen-vanilla`, as Curio forwards them: bincode blobs)
    COMPLETED, each proof accepted by the CLI verifier; a miner_id or sector_number given alone
    that disagrees with the 2 KiB C1, bad randomness / commitments / vanilla proofs answered
    INVALID_ARGUMENT;
  - GetStatus lists the parameters (porep-8m, HOT, ref_count 0 once done), EvictSRS frees
    them, PreloadSRS loads them back;
  - a memory budget that holds porep-2k or snap-2k but not both: alternating jobs all
    complete (the a/b/c pool's free buffers giving way too), the idle circuit's parameters
    go WARM, the budget holds only the HOT ones and the pool's free buffers, EvictSRS leaves
    COLD with only those buffers charged; parameters larger than the whole budget are
    refused (RESOURCE_EXHAUSTED naming the sizes); a daemon without parameters answers
    FAILED_PRECONDITION naming the file and `cuzk params gen`.
Prints "N passed, N failed"."""
import json, os, subprocess, sys, threading, time

import grpc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check  # noqa: E402

args, pb = lib.main_args("cuzk-fc-daemon-", [("--fixtures", {"required": True}), ("--params", {"required": True})])
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
expect(porep(registered_proof=5), grpc.StatusCode.INVALID_ARGUMENT, "registered_proof 5", "StackedDrg8MiBV1_1")
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

# 2 KiB sector made by gen-vanilla: PoRep (Curio envelope), WinningPoSt, WindowPoSt, SnapDeals
R = bytes([3] * 32)


def gen(kind, *argv):
    return lib.gen_vanilla(args.bench, kind, *argv)


blobs = lib.blobs


def verify(cmd, *argv):
    v = subprocess.run([args.cuzk, cmd] + list(argv) + ["--param-cache", args.params], capture_output=True, text=True)
    return v.returncode == 0 and '"valid":true' in v.stdout, v.stdout + v.stderr


def prove_ok(req, what):
    r = c.call("Prove", pb.ProveRequest(submit=req), timeout=1200).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions >= 1,
          "%s: %s %r" % (what, pb.AwaitProofResponse.Status.Name(r.status), r.error_message))
    path = os.path.join(lib.TMP, what + ".proof")
    with open(path, "wb") as f:
        f.write(r.proof)
    return path


env, _ = gen("porep", "--registered-proof", "5", "--format", "envelope")
check(json.loads(env)["SectorSize"] == 2048 and "Phase1Out" in json.loads(env), "envelope form")
pf = prove_ok(pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=env, miner_id=1000,
                                    sector_number=1, sector_size=2048), "porep-2k")
# the envelope carries SectorNum 1 but no prover id: a miner or a sector given alone that
# disagrees with the C1 (sealed for miner 1000, sector 1) is refused too, not proved
env_req = dict(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=env, sector_size=2048)
expect(pb.SubmitProofRequest(miner_id=1001, **env_req), grpc.StatusCode.INVALID_ARGUMENT, "miner_id 1001",
       "sector_number 1 (the C1's)", "replica_id")
expect(pb.SubmitProofRequest(sector_number=7, **env_req), grpc.StatusCode.INVALID_ARGUMENT, "sector_number 7",
       "sector_id 1")
expect(pb.SubmitProofRequest(miner_id=1000, sector_number=7, **env_req), grpc.StatusCode.INVALID_ARGUMENT,
       "sector_number 7")
c1_2k = os.path.join(lib.TMP, "c1-2k.json")
with open(c1_2k, "wb") as f:
    f.write(env)
ok, msg = verify("verify-c2", c1_2k, pf)
check(ok, "verify-c2 2 KiB envelope: %s" % msg)

win, _ = gen("winning-post", "--registered-proof", "0", "--format", "blobs")
post_req = dict(miner_id=1000, randomness=R)
pf = prove_ok(pb.SubmitProofRequest(proof_kind=pb.WINNING_POST, registered_proof=0, vanilla_proofs=blobs(win),
                                    **post_req), "winning-2k")
wfile = os.path.join(lib.TMP, "win.json")
with open(wfile, "wb") as f:
    f.write(win)
ok, msg = verify("verify-post", "--kind", "winning", "--registered-proof", "0", "--miner", "1000", "--randomness",
                 R.hex(), pf, wfile)
check(ok, "verify-post winning: %s" % msg)
code, msg = c.code("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(
    proof_kind=pb.WINNING_POST, registered_proof=0, vanilla_proofs=blobs(win), miner_id=1000, randomness=R[:31])))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "randomness" in msg, "31-byte randomness: %s %r" % (code, msg))
code, msg = c.code("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(
    proof_kind=pb.WINNING_POST, registered_proof=0, vanilla_proofs=blobs(win), miner_id=1000, randomness=bytes([255]) * 32)))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "canonical" in msg, "non-canonical randomness: %s %r" % (code, msg))
bad = bytearray(blobs(win)[0])
bad[200] ^= 1
code, msg = c.code("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(
    proof_kind=pb.WINNING_POST, registered_proof=0, vanilla_proofs=[bytes(bad)], miner_id=1000, randomness=R)))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "vanilla proof 0" in msg, "tampered PoSt: %s %r" % (code, msg))

wdp, _ = gen("window-post", "--registered-proof", "10", "--sectors", "1,2", "--format", "blobs")
prove_ok(pb.SubmitProofRequest(proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10, vanilla_proofs=blobs(wdp),
                               **post_req), "window-2k")

snap, sm = gen("snap", "--registered-proof", "0", "--format", "blobs")
commits = {k: bytes.fromhex(sm[k]) for k in ("comm_r_old", "comm_r_new", "comm_d_new")}
pf = prove_ok(pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0, vanilla_proofs=blobs(snap),
                                    **commits), "snap-2k")
ok, msg = verify("verify-snap", "--registered-proof", "0", "--comm-r-old", sm["comm_r_old"], "--comm-r-new",
                 sm["comm_r_new"], "--comm-d-new", sm["comm_d_new"], pf)
check(ok, "verify-snap: %s" % msg)
code, msg = c.code("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(
    proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0, vanilla_proofs=blobs(snap),
    comm_r_old=commits["comm_r_old"][:31], comm_r_new=commits["comm_r_new"], comm_d_new=commits["comm_d_new"])))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "comm_r_old" in msg, "31-byte comm_r_old: %s %r" % (code, msg))
code, msg = c.code("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(
    proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0, vanilla_proofs=[], **commits)))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "vanilla_proofs" in msg, "no snap proofs: %s %r" % (code, msg))
st = c.call("GetStatus", pb.GetStatusRequest())
names = {x.circuit_id for x in st.loaded_srs if x.tier == pb.SRSStatus.HOT}
check({"porep-2k", "winning-2k", "wpost-2k", "snap-2k"} <= names, "loaded SRS: %s" % names)

# [srs] pce = "auto" (the default): PoRep partitions synthesize directly and record no PCE;
# WinningPoSt, WindowPoSt and SnapDeals record theirs in the background after a first proof
cache = os.path.join(lib.TMP, "cache")


def pce_circuits():
    return {f.rsplit("-", 1)[0] for f in os.listdir(cache) if f.endswith(".cuzkpce")}


want = {"winning-2k", "wpost-2k", "snap-2k"}
deadline = time.time() + 120
while not want <= pce_circuits() and time.time() < deadline:
    time.sleep(0.5)
check(want <= pce_circuits() and not {x for x in pce_circuits() if x.startswith("porep-")},
      "pce = auto: PCEs of %s (want %s, none for PoRep)" % (sorted(pce_circuits()), sorted(want)))

# Parameters on the memory budget: a budget that holds either porep-2k or snap-2k with a
# partition's working set, never both. Alternating jobs of the two circuits, submitted at
# once, all complete: the parameters of an idle circuit leave (WARM) when the other needs
# the room, those in use are never unloaded, and the counters end at zero.
sizes = {x.circuit_id: x.size_bytes for x in st.loaded_srs if x.circuit_id in ("porep-2k", "snap-2k")}
check(len(sizes) == 2 and all(sizes.values()), "sizes of porep-2k / snap-2k: %s" % sizes)
total = sum(sizes.values()) - (1 << 20)
nopce = '[srs]\npce = false\nparam_cache = "%s"\ncache_dir = "%s"\n' % (args.params, os.path.join(lib.TMP, "cache"))
d3 = Daemon("fc-budget", "unix://%s/fc3.sock" % lib.TMP, nopce + '[memory]\ntotal_budget = "%d"\n' % total,
            max_message="64MiB")
c3 = Client(d3.target)
jobs = [pb.SubmitProofRequest(request_id="b-porep-%d" % i, proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=env,
                              miner_id=1000, sector_number=1, sector_size=2048) if i % 2 == 0 else
        pb.SubmitProofRequest(request_id="b-snap-%d" % i, proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0,
                              vanilla_proofs=blobs(snap), **commits) for i in range(4)]
results = [None] * len(jobs)


def run_job(i):
    try:
        results[i] = Client(d3.target).call("Prove", pb.ProveRequest(submit=jobs[i]), timeout=1200).result.status
    except grpc.RpcError as e:
        results[i] = e.code()


t_budget = time.time()
ths = [threading.Thread(target=run_job, args=(i,)) for i in range(len(jobs))]
for t in ths:
    t.start()
    time.sleep(0.3)  # submission order porep, snap, porep, snap
for t in ths:
    t.join()
check(all(r == pb.AwaitProofResponse.COMPLETED for r in results), "alternating jobs under the budget: %s" % results)
print("budget: 4 alternating jobs in %.1f s" % (time.time() - t_budget))
check(lib.wait_idle(c3),
      "counters at zero after the alternating jobs, the budget holding only the HOT parameters")
st3 = c3.call("GetStatus", pb.GetStatusRequest())
tiers = {x.circuit_id: (pb.SRSStatus.Tier.Name(x.tier), x.ref_count, x.size_bytes) for x in st3.loaded_srs}
hot = [k for k, v in tiers.items() if v[0] == "HOT"]
check(len(hot) == 1 and {tiers[k][0] for k in sizes if k not in hot} == {"WARM"} and
      all(v[1] == 0 for v in tiers.values()), "tiers after alternating: %s" % tiers)
check(st3.pipeline.memory_used_bytes == sum(tiers[k][2] for k in hot) + st3.pipeline.pool_free_bytes and
      st3.pipeline.pool_in_use_bytes == 0 and st3.pipeline.memory_limit_bytes == total,
      "budget holds the HOT parameters and the pool's free buffers only: used %d of %d, pool free %d, %s" %
      (st3.pipeline.memory_used_bytes, st3.pipeline.memory_limit_bytes, st3.pipeline.pool_free_bytes, tiers))
check(d3.logtext().count("unloaded for") >= 1, "the log names the unloads")
ev = c3.call("EvictSRS", pb.EvictSrsRequest(circuit_id=hot[0]))
st3 = c3.call("GetStatus", pb.GetStatusRequest())
check(ev.was_loaded and st3.pipeline.memory_used_bytes == st3.pipeline.pool_free_bytes and
      [pb.SRSStatus.Tier.Name(x.tier) for x in st3.loaded_srs if x.circuit_id == hot[0]] == ["COLD"],
      "EvictSRS frees the budget and leaves COLD: %s" % st3.loaded_srs)
# the same through cuzk-bench: tier names in `status`, `evict` of a WARM entry (not loaded)
warm = [k for k in sizes if k not in hot][0]
bs = subprocess.run([args.bench, "--addr", d3.target, "status"], capture_output=True, text=True)
check(bs.returncode == 0 and "srs %s: COLD" % hot[0] in bs.stdout and "srs %s: WARM" % warm in bs.stdout,
      "cuzk-bench status tiers: %s" % bs.stdout + bs.stderr)
be = subprocess.run([args.bench, "--addr", d3.target, "evict", "-c", warm], capture_output=True, text=True)
check(be.returncode == 0 and "was not loaded" in be.stdout, "cuzk-bench evict WARM: %s" % be.stdout + be.stderr)
# parameters larger than the whole budget: refused at once, naming both sizes
d4 = Daemon("fc-small", "unix://%s/fc4.sock" % lib.TMP, nopce + '[memory]\ntotal_budget = "%d"\n' % sizes["snap-2k"],
            max_message="64MiB")
code, msg = Client(d4.target).code("Prove", pb.ProveRequest(submit=jobs[0]))
check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "whole memory budget" in msg and str(sizes["porep-2k"]) in msg,
      "parameters over the budget: %s %r" % (code, msg))
code, msg = Client(d4.target).code("PreloadSRS", pb.PreloadSrsRequest(circuit_id="porep-2k"))
check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "whole memory budget" in msg, "PreloadSRS over the budget: %s %r"
      % (code, msg))
# parameters that fit, but not with one partition beside them (they cannot give way while
# the job holds them): refused at once, naming the sizes and the key, not left waiting
d5 = Daemon("fc-tight", "unix://%s/fc5.sock" % lib.TMP,
            nopce + '[memory]\ntotal_budget = "%d"\n' % (sizes["porep-2k"] + (64 << 10)), max_message="64MiB")
t_tight = time.time()
code, msg = Client(d5.target).code("Prove", pb.ProveRequest(submit=jobs[0]), timeout=60)
check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "can never run" in msg and str(sizes["porep-2k"]) in msg and
      "[memory] total_budget" in msg and time.time() - t_tight < 50,
      "parameters + one partition over the budget: %s %r" % (code, msg))
check(d3.stop() == 0 and d4.stop() == 0 and d5.stop() == 0, "budget daemons stop cleanly")

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
