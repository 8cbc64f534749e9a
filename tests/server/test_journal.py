#!/usr/bin/python3
"""Durable jobs ([daemon] journal_dir, issue 20): kill -9 of a daemon with running and queued
jobs, restart on the same journal: every job completes with its partitions verified, the
result finished before the crash is answered byte for byte by AwaitProof and by a retried
Prove; a flipped byte and a truncated file are reported and set aside while the other
entries replay; jobs the SIGTERM drain cancelled run again after the restart; results past
their retention are dropped at start; the journal's bound refuses a request with
RESOURCE_EXHAUSTED; its size is in /status. Prints "N passed, N failed"."""
import glob, json, os, signal, sys, time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check  # noqa: E402

args, pb = lib.main_args("cuzk-journal-test-")
TMP = lib.TMP
JDIR = os.path.join(TMP, "journal")
EXTRA = 'journal_dir = "%s"\n[synthesis]\npartition_workers = 1\n' % JDIR


def synth(k, seed, partitions, rid, prio=0):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.CIRCUIT, priority=prio,
                                 circuit=pb.CircuitInput(name="synthetic-%d" % k, seed=seed, partitions=partitions))


def journal_status(d):
    code, body = d.http("/status")
    return json.loads(body).get("journal", {}) if code == 200 else {}


def await_done(c, rid, secs=300):
    return c.call("AwaitProof", pb.AwaitProofRequest(job_id=rid, timeout_ms=secs * 1000), timeout=secs + 30)


# ---------------------------------------------------------------- kill -9 with running and queued jobs
d = Daemon("j1", "127.0.0.1:0", EXTRA)
c = Client(d.target)
before = c.call("Prove", pb.ProveRequest(submit=synth(6, 5, 2, "done-1"))).result
check(before.status == pb.AwaitProofResponse.COMPLETED and len(before.proof) == 384, "a job finished before the crash")
JOBS = {"low-%d" % i: (12, 100 + i, 12, pb.LOW) for i in range(3)}
JOBS["normal-0"] = (12, 200, 12, pb.NORMAL)
JOBS["critical-0"] = (11, 300, 4, pb.CRITICAL)
for rid in ("low-0", "low-1", "low-2", "normal-0", "critical-0"):
    k, seed, parts, prio = JOBS[rid]
    check(c.call("SubmitProof", synth(k, seed, parts, rid, prio)).job_id == rid, "submitted %s" % rid)
# kill once a job is inside the pipeline and others wait behind it
end = time.time() + 60
while time.time() < end:
    p = c.call("GetStatus", pb.GetStatusRequest()).pipeline
    if p.partitions_synthesizing + p.partitions_queued + p.partitions_proving > 0 and p.jobs_queued >= 2:
        break
    time.sleep(0.02)
js = journal_status(d)
check(js.get("entries") == 6 and js.get("bytes", 0) > 0 and js.get("dir") == JDIR and js.get("set_aside") == 0,
      "/status journal before the crash: %s" % js)
check(p.jobs_queued >= 2, "jobs queued at the kill: %s" % p)
d.p.kill()
d.p.wait()
check(len(glob.glob(os.path.join(JDIR, "*.req"))) == 5 and len(glob.glob(os.path.join(JDIR, "*.res"))) == 1,
      "5 requests and 1 result on disk after kill -9: %s" % sorted(os.listdir(JDIR)))

d = Daemon("j2", "127.0.0.1:0", EXTRA)
c = Client(d.target)
check("5 unfinished job(s) running again, 1 result(s) kept" in d.logtext(), "replay summary: %r" % d.logtext()[-400:])
a = c.call("AwaitProof", pb.AwaitProofRequest(job_id="done-1"))
check(a.status == pb.AwaitProofResponse.COMPLETED and a.proof == before.proof and a.verified_partitions == 2,
      "the result from before the crash, byte for byte")
res = {}
for rid, (k, seed, parts, prio) in JOBS.items():
    r = await_done(c, rid)
    res[rid] = r
    check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == parts and
          len(r.proof) == 192 * parts, "%s completed after the restart: %s %d/%d" %
          (rid, pb.AwaitProofResponse.Status.Name(r.status), r.verified_partitions, parts))
again = c.call("Prove", pb.ProveRequest(submit=synth(12, 100, 12, "low-0", pb.LOW))).result
check(again.proof == res["low-0"].proof, "a retried Prove of a replayed id returns its result")
kept = c.call("Prove", pb.ProveRequest(submit=synth(6, 5, 2, "done-1"))).result
check(kept.proof == before.proof, "a retried Prove of a result kept across the restart returns it")
code, msg = c.code("SubmitProof", synth(7, 5, 2, "done-1"))
check(code == grpc.StatusCode.INVALID_ARGUMENT and "synthetic-6" in msg and "synthetic-7" in msg,
      "the kept result keeps its kind: another kind under its id is refused: %s %r" % (code, msg))
check(res["critical-0"].queue_wait_ms <= res["low-2"].queue_wait_ms,
      "the critical job ran before the last low one (queue %d vs %d ms)" %
      (res["critical-0"].queue_wait_ms, res["low-2"].queue_wait_ms))
check(lib.wait_idle(c), "idle after the replayed jobs")
js = journal_status(d)
check(js.get("entries") == 6 and not glob.glob(os.path.join(JDIR, "*.req")), "6 results, no request left: %s" % js)
check(d.stop() == 0, "stops")

# ---------------------------------------------------------------- damaged entries
files = sorted(glob.glob(os.path.join(JDIR, "*.res")))
flipped, cut = files[0], files[1]
with open(flipped, "r+b") as f:
    f.seek(60)
    b = f.read(1)
    f.seek(60)
    f.write(bytes([b[0] ^ 0x10]))
with open(cut, "r+b") as f:
    f.truncate(20)
stray = os.path.join(JDIR, "notes.txt")              # not a journal name at all
nonhex = os.path.join(JDIR, "z" * 64 + ".res")       # an entry's length and suffix, not hex
for p in (stray, nonhex):
    with open(p, "wb") as f:
        f.write(b"not a journal entry\n")
os.mkdir(os.path.join(JDIR, "subdir"))                # not a regular file: left alone
d = Daemon("j3", "127.0.0.1:0", EXTRA)
c = Client(d.target)
log = d.logtext()
check(("journal entry %s: checksum mismatch" % flipped) in log and ("journal entry %s:" % cut) in log and
      "truncated" in log, "damaged entries reported: %r" % log[-600:])
check(os.path.exists(flipped + ".corrupt") and os.path.exists(cut + ".corrupt") and not os.path.exists(flipped),
      "damaged entries set aside")
check("0 unfinished job(s) running again, 4 result(s) kept" in log, "the other results replayed")
found = sum(c.code("AwaitProof", pb.AwaitProofRequest(job_id=rid))[0] == grpc.StatusCode.OK
            for rid in list(JOBS) + ["done-1"])
check(found == 4, "4 of the 6 results answer after two entries were damaged: %d" % found)
check(all(("stray file %s: not a journal entry" % p) in log for p in (stray, nonhex)),
      "stray files reported: %r" % log[-900:])
check(all(os.path.exists(p + ".corrupt") and not os.path.exists(p) for p in (stray, nonhex)) and
      os.path.isdir(os.path.join(JDIR, "subdir")), "stray files set aside, the directory left: %s" % sorted(os.listdir(JDIR)))
check(journal_status(d).get("set_aside") == 4, "/status counts the set-aside entries and stray files")
check(d.stop() == 0, "stops")

# ---------------------------------------------------------------- SIGTERM drain: cancelled jobs run again
d = Daemon("j4", "127.0.0.1:0", EXTRA)
c = Client(d.target)
c.call("SubmitProof", synth(13, 7, 64, "drained"))
end = time.time() + 60
while time.time() < end and c.call("GetStatus", pb.GetStatusRequest()).pipeline.partitions_proving == 0:
    time.sleep(0.02)
check(d.stop() == 0, "SIGTERM with a running job exits 0")
check("cancelled 1 unfinished job(s)" in d.logtext(), "the drain cancelled the job")
d = Daemon("j5", "127.0.0.1:0", EXTRA)
c = Client(d.target)
r = await_done(c, "drained")
check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == 64,
      "the drained job ran again after the restart: %s" % pb.AwaitProofResponse.Status.Name(r.status))
c.call("SubmitProof", synth(5, 1, 1, "cancel-me"))
c.call("CancelProof", pb.CancelProofRequest(job_id="cancel-me"))
await_done(c, "cancel-me")
check(d.stop() == 0, "stops")

# ---------------------------------------------------------------- retention and the bound
d = Daemon("j6", "127.0.0.1:0", EXTRA.replace("[synthesis]", 'result_retention = "1s"\n[synthesis]'))
c = Client(d.target)
c.call("Prove", pb.ProveRequest(submit=synth(5, 2, 1, "short-lived")))
d.p.kill()
d.p.wait()
time.sleep(1.5)
d = Daemon("j7", "127.0.0.1:0", EXTRA.replace("[synthesis]", 'result_retention = "1s"\n[synthesis]'))
c = Client(d.target)
check(c.code("AwaitProof", pb.AwaitProofRequest(job_id="short-lived"))[0] == grpc.StatusCode.NOT_FOUND and
      "expired" in d.logtext(), "a result past its retention is dropped at start")
check(d.stop() == 0, "stops")

small = os.path.join(TMP, "small-journal")
d = Daemon("j8", "127.0.0.1:0", 'journal_dir = "%s"\njournal_max_size = 1024\n' % small)
c = Client(d.target)
r1 = c.call("Prove", pb.ProveRequest(submit=synth(5, 3, 1, "a" * 256))).result
code, msg = c.code("SubmitProof", synth(5, 4, 1, "b" * 256))
check(r1.status == pb.AwaitProofResponse.COMPLETED and code == grpc.StatusCode.RESOURCE_EXHAUSTED and
      "is full" in msg, "the bound refuses a request: %s %r" % (code, msg))
check(c.code("AwaitProof", pb.AwaitProofRequest(job_id="b" * 256))[0] == grpc.StatusCode.NOT_FOUND,
      "the refused request left no job")
js = journal_status(d)
check(js.get("max_bytes") == 1024 and 0 < js.get("bytes", 0) <= 1024, "/status bound: %s" % js)
check(d.stop() == 0, "stops")

lib.summary()
