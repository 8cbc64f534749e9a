#!/usr/bin/python3
"""Integration test of `cuzk daemon`: a Python grpcio client generated at test time from
proto/cuzk/v1/proving.proto drives the daemon on a unix socket and on 127.0.0.1 through
every RPC and status code, a load run (200 proofs, 8 client threads), faults (cancel,
client disconnect, duplicate ids, SIGTERM under load) and bad input (malformed and
oversize messages, garbage bytes on the socket, unknown kinds and circuits).
Prints "N passed, N failed" and exits non-zero on any failure."""
import argparse, json, os, re, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request

import grpc

ap = argparse.ArgumentParser()
ap.add_argument("--cuzk", required=True)
ap.add_argument("--proto", required=True)
args = ap.parse_args()

TMP = tempfile.mkdtemp(prefix="cuzk-daemon-test-")
subprocess.run(["protoc", "--python_out=" + TMP, "-I" + args.proto,
                os.path.join(args.proto, "cuzk/v1/proving.proto")], check=True)
sys.path.insert(0, TMP)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr, flush=True)


RPCS = {
    "SubmitProof": pb.SubmitProofResponse, "AwaitProof": pb.AwaitProofResponse, "Prove": pb.ProveResponse,
    "CancelProof": pb.CancelProofResponse, "GetStatus": pb.GetStatusResponse, "GetMetrics": pb.GetMetricsResponse,
    "PreloadSRS": pb.PreloadSrsResponse, "EvictSRS": pb.EvictSrsResponse,
}
OPTS = [("grpc.max_send_message_length", 256 << 20), ("grpc.max_receive_message_length", 256 << 20)]


class Client:
    def __init__(self, target):
        self.ch = grpc.insecure_channel(target, options=OPTS)

    def raw(self, name, data, timeout=120):
        f = self.ch.unary_unary("/cuzk.v1.ProvingEngine/" + name, request_serializer=lambda b: b,
                                response_deserializer=RPCS[name].FromString)
        return f(data, timeout=timeout)

    def call(self, name, req, timeout=120):
        return self.raw(name, req.SerializeToString(), timeout)

    def code(self, name, req, timeout=120):
        """(status code, details) of a call expected to fail."""
        try:
            self.call(name, req, timeout)
            return grpc.StatusCode.OK, ""
        except grpc.RpcError as e:
            return e.code(), e.details()


def synth(k=5, seed=1, partitions=1, rid="", prio=0):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.CIRCUIT, priority=prio,
                                 circuit=pb.CircuitInput(name="synthetic-%d" % k, seed=seed, partitions=partitions))


class Daemon:
    def __init__(self, name, listen, extra=""):
        self.dir = tempfile.mkdtemp(prefix=name + "-", dir=TMP)
        self.cfg = os.path.join(self.dir, "cuzk.toml")
        with open(self.cfg, "w") as f:
            f.write('[daemon]\nlisten = "%s"\nstatus_listen = "127.0.0.1:0"\nmax_message_size = "256KiB"\n'
                    'shutdown_grace = "2s"\n%s' % (listen, extra))
        self.log = open(os.path.join(self.dir, "log"), "w+")
        self.p = subprocess.Popen([args.cuzk, "daemon", "--config", self.cfg], stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            self.log.seek(0)
            m = re.search(r"grpc_port=(\d+); HTTP status \S+ http_port=(\d+)", self.log.read())
            if m:
                self.grpc_port, self.http_port = int(m.group(1)), int(m.group(2))
                break
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("daemon did not start")
        if self.p.poll() is not None:
            self.log.seek(0)
            raise RuntimeError("daemon exited: " + self.log.read())
        self.target = listen if listen.startswith("unix:") else "127.0.0.1:%d" % self.grpc_port

    def http(self, path):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.http_port, path), timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def rss(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) * 1024

    def stop(self, sig=signal.SIGTERM, timeout=60):
        self.p.send_signal(sig)
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return None


def idle(c):
    """True when GetStatus shows no job, no partition in flight and no memory reserved."""
    s = c.call("GetStatus", pb.GetStatusRequest())
    p = s.pipeline
    return (p.jobs_queued + p.jobs_synthesizing + p.jobs_proving + p.jobs_finishing + p.partitions_synthesizing +
            p.partitions_awaiting_send + p.partitions_queued + p.partitions_proving + p.partitions_pending_finish +
            p.permits_held + p.memory_used_bytes) == 0 and not s.queues


def wait_idle(c, secs=60):
    end = time.time() + secs
    while time.time() < end:
        if idle(c):
            return True
        time.sleep(0.1)
    return False


# ---------------------------------------------------------------- every RPC, unix socket
sock = os.path.join(TMP, "run", "sub", "cuzk.sock")
d = Daemon("unix", "unix://" + sock, '[synthesis]\npartition_workers = 1\n[[circuits]]\nname = "broken"\n'
                                     'r1cs = "/nonexistent/x.r1cs"\nzkey = "/nonexistent/x.zkey"\n')
check(oct(os.stat(sock).st_mode & 0o777) == "0o660", "socket mode 0660")
c = Client(d.target)
st = c.call("GetStatus", pb.GetStatusRequest())
check(len(st.gpus) >= 1 and st.pinned_memory_limit_bytes > 0 and st.pipeline.memory_limit_bytes > 0, "GetStatus")
check(any(s.circuit_id == "broken" and s.tier == pb.SRSStatus.COLD for s in st.loaded_srs), "configured circuit COLD")

r = c.call("Prove", pb.ProveRequest(submit=synth(6, 7, 2, "p1"))).result
check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 384 and r.verified_partitions == 2,
      "Prove 2 partitions: %s" % r)
check(r.job_id == "p1" and r.total_ms >= r.synthesis_ms, "Prove job id / timings")
r = c.call("Prove", pb.ProveRequest(submit=synth(6, 7, 1)), 120).result
check(len(r.job_id) == 36 and r.status == pb.AwaitProofResponse.COMPLETED, "empty request_id gets a UUID")

sub = c.call("SubmitProof", synth(6, 3, 1, "s1"))
check(sub.job_id == "s1", "SubmitProof job id")
dup = c.call("SubmitProof", synth(6, 3, 1, "s1"))
check(dup.job_id == "s1", "duplicate SubmitProof returns the job")
a = c.call("AwaitProof", pb.AwaitProofRequest(job_id="s1"))
check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 192, "AwaitProof")
a2 = c.call("AwaitProof", pb.AwaitProofRequest(job_id="s1"))
check(a2.proof == a.proof, "retained result is returned again")
again = c.call("Prove", pb.ProveRequest(submit=synth(6, 3, 1, "s1"))).result
check(again.proof == a.proof, "Prove with a completed id returns the same proof (no recomputation)")

# Await timeout and cancel of a running and of a queued job (one synthesis permit).
c.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="synthetic-11"))
c.call("SubmitProof", synth(11, 1, 64, "long"))
c.call("SubmitProof", synth(11, 2, 64, "queued"))
t = c.call("AwaitProof", pb.AwaitProofRequest(job_id="long", timeout_ms=200))
check(t.status == pb.AwaitProofResponse.TIMEOUT, "AwaitProof timeout_ms -> TIMEOUT")
time.sleep(0.3)
st = c.call("GetStatus", pb.GetStatusRequest())
q = [x for x in st.queues if x.proof_kind == "synthetic-11"]
check(q and q[0].pending == 1 and q[0].in_progress == 1, "GetStatus counts queued + running job: %s" % q)
check(st.pipeline.jobs_queued == 1 and st.pipeline.jobs_synthesizing + st.pipeline.jobs_proving +
      st.pipeline.jobs_finishing == 1, "pipeline stage counts")
check(any(s.circuit_id == "synthetic-11" and s.ref_count == 2 and s.size_bytes > 0 for s in st.loaded_srs),
      "SRS entry ref_count/size")
code, msg = c.code("EvictSRS", pb.EvictSrsRequest(circuit_id="synthetic-11"))
check(code == grpc.StatusCode.FAILED_PRECONDITION, "EvictSRS in use: %s %s" % (code, msg))
cq = c.call("CancelProof", pb.CancelProofRequest(job_id="queued"))
cr = c.call("CancelProof", pb.CancelProofRequest(job_id="long"))
check(not cq.was_running and cr.was_running, "CancelProof was_running flags")
for jid in ("long", "queued"):
    a = c.call("AwaitProof", pb.AwaitProofRequest(job_id=jid, timeout_ms=30000))
    check(a.status == pb.AwaitProofResponse.CANCELLED and not a.proof, "cancelled job %s: %s" % (jid, a.status))
check(wait_idle(c), "idle after cancel (no leaked partition/permit/bytes)")
ev = c.call("EvictSRS", pb.EvictSrsRequest(circuit_id="synthetic-11"))
check(ev.was_loaded and ev.freed_bytes > 0, "EvictSRS frees")
ev = c.call("EvictSRS", pb.EvictSrsRequest(circuit_id="synthetic-11"))
check(not ev.was_loaded and ev.freed_bytes == 0, "EvictSRS twice")
pl = c.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="synthetic-7"))
pl2 = c.call("PreloadSRS", pb.PreloadSrsRequest(circuit_id="synthetic-7"))
check(not pl.already_loaded and pl2.already_loaded and pl2.load_time_ms == 0, "PreloadSRS")

# Status codes.
def expect(name, req, want, needle=""):
    code, msg = c.code(name, req)
    check(code == want and needle in msg, "%s -> %s %r (want %s %r)" % (name, code, msg, want, needle))

expect("SubmitProof", pb.SubmitProofRequest(), grpc.StatusCode.INVALID_ARGUMENT, "invalid proof_kind: 0")
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=57), grpc.StatusCode.INVALID_ARGUMENT, "invalid proof_kind")
for k in (1, 2, 3, 4):
    expect("SubmitProof", pb.SubmitProofRequest(proof_kind=k), grpc.StatusCode.UNIMPLEMENTED, "not implemented")
expect("Prove", pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=1)), grpc.StatusCode.UNIMPLEMENTED)
expect("Prove", pb.ProveRequest(), grpc.StatusCode.INVALID_ARGUMENT, "missing submit field")
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=pb.CIRCUIT), grpc.StatusCode.INVALID_ARGUMENT, "circuit")
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=pb.CIRCUIT, circuit=pb.CircuitInput(name="nope")),
       grpc.StatusCode.NOT_FOUND, "unknown circuit")
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=pb.CIRCUIT, circuit=pb.CircuitInput(name="synthetic-99")),
       grpc.StatusCode.NOT_FOUND)
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=pb.CIRCUIT, circuit=pb.CircuitInput(
    name="synthetic-5", witnesses=[b"x"])), grpc.StatusCode.INVALID_ARGUMENT, "takes no witnesses")
expect("SubmitProof", pb.SubmitProofRequest(proof_kind=pb.CIRCUIT, circuit=pb.CircuitInput(
    name="broken", witnesses=[b"x"])), grpc.StatusCode.INTERNAL, "nonexistent")
expect("PreloadSRS", pb.PreloadSrsRequest(circuit_id="broken"), grpc.StatusCode.INTERNAL)
expect("PreloadSRS", pb.PreloadSrsRequest(circuit_id="nope"), grpc.StatusCode.NOT_FOUND)
expect("PreloadSRS", pb.PreloadSrsRequest(), grpc.StatusCode.INVALID_ARGUMENT)
expect("EvictSRS", pb.EvictSrsRequest(circuit_id="nope"), grpc.StatusCode.NOT_FOUND)
expect("AwaitProof", pb.AwaitProofRequest(job_id="nope"), grpc.StatusCode.NOT_FOUND, "job not found: nope")
expect("CancelProof", pb.CancelProofRequest(job_id="nope"), grpc.StatusCode.NOT_FOUND)
for name in ("SubmitProof", "Prove", "AwaitProof", "GetStatus"):
    try:
        c.raw(name, b"\xff\xff\xff\xff")
        code = grpc.StatusCode.OK
    except grpc.RpcError as e:
        code, msg = e.code(), e.details()
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "malformed" in msg, "malformed %s: %s %s" % (name, code, msg))
check(c.raw("GetStatus", b"").uptime_seconds >= 0, "empty GetStatus payload is a valid request")
try:
    c.raw("SubmitProof", b"\x12" + b"\x00" * (300 << 10))
    code = grpc.StatusCode.OK
except grpc.RpcError as e:
    code = e.code()
check(code == grpc.StatusCode.RESOURCE_EXHAUSTED, "oversize message: %s" % code)

# Garbage bytes on the socket, then the daemon still serves.
for junk in (b"GET / HTTP/1.1\r\n\r\n", os.urandom(4096), b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + os.urandom(512)):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    s.sendall(junk)
    s.settimeout(2)
    try:
        s.recv(100)
    except OSError:
        pass
    s.close()
check(c.call("GetStatus", pb.GetStatusRequest()).uptime_seconds >= 0, "serving after garbage bytes")

# Client disconnect mid-Prove: the job finishes; a retry with the same id joins it.
try:
    c.call("Prove", pb.ProveRequest(submit=synth(10, 9, 6, "gone")), timeout=0.3)
    check(False, "Prove with a 0.3 s deadline should expire")
except grpc.RpcError as e:
    check(e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, "client deadline: %s" % e.code())
r = c.call("Prove", pb.ProveRequest(submit=synth(10, 9, 6, "gone"))).result
check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == 6, "retry joins the job")
check(wait_idle(c), "idle after disconnect")

m = c.call("GetMetrics", pb.GetMetricsRequest()).prometheus_text
check('cuzk_proof_total_seconds_bucket{proof_kind="synthetic-6",le="+Inf"}' in m, "histogram per kind")
check("cuzk_proofs_cancelled_total 2" in m and "cuzk_proofs_failed_total 0" in m, "metrics counters")
code, body = d.http("/status")
js = json.loads(body)
check(code == 200 and js["counters"]["total_cancelled"] == 2 and "buffers" in js and "jobs_by_stage" in js,
      "/status JSON")
code, body = d.http("/metrics")
check(code == 200 and "cuzk_proof_prove_seconds_bucket" in body, "/metrics")
check(d.http("/healthz") == (200, "ok\n"), "/healthz")
check(d.http("/nope")[0] == 404, "404")
check(d.stop() == 0, "SIGTERM exit 0")
check(not os.path.exists(sock), "socket removed")

# Retention: results pruned after result_retention; stale socket replaced at start.
os.makedirs(os.path.dirname(sock), exist_ok=True)
stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stale.bind(sock)
stale.close()
d = Daemon("retain", "unix://" + sock, 'result_retention = "1s"\n')
c = Client(d.target)
c.call("Prove", pb.ProveRequest(submit=synth(5, 1, 1, "r1")))
check(c.call("AwaitProof", pb.AwaitProofRequest(job_id="r1")).status == pb.AwaitProofResponse.COMPLETED, "retained")
time.sleep(1.6)
check(c.code("AwaitProof", pb.AwaitProofRequest(job_id="r1"))[0] == grpc.StatusCode.NOT_FOUND, "pruned")
check(c.call("GetStatus", pb.GetStatusRequest()).pipeline.jobs_retained == 0, "nothing retained")
check(d.stop() == 0 and not os.path.exists(sock), "stop after stale socket")

# ---------------------------------------------------------------- TCP, load, SIGTERM
d = Daemon("tcp", "127.0.0.1:0", 'max_jobs = 64\n[synthesis]\npartition_workers = 2\n')
c = Client(d.target)
check(d.grpc_port > 0, "ephemeral TCP port")
r = c.call("Prove", pb.ProveRequest(submit=synth(5, 1, 1))).result
check(r.status == pb.AwaitProofResponse.COMPLETED, "Prove over TCP")
check(c.code("SubmitProof", pb.SubmitProofRequest(proof_kind=3))[0] == grpc.StatusCode.UNIMPLEMENTED, "TCP status")
for i in range(10):  # warm up allocator pools before taking the idle RSS
    c.call("Prove", pb.ProveRequest(submit=synth(5, i, 1)))
wait_idle(c)
rss_idle = d.rss()
results, lock = [], threading.Lock()

def worker(t):
    cl = Client(d.target)
    for i in range(25):
        try:
            res = cl.call("Prove", pb.ProveRequest(submit=synth(5, 1000 * t + i, 1, "load-%d-%d" % (t, i)))).result
            ok = res.status == pb.AwaitProofResponse.COMPLETED and res.verified_partitions == 1 and len(res.proof) == 192
        except grpc.RpcError as e:
            ok = False
            print("load error", e.code(), e.details(), file=sys.stderr)
        with lock:
            results.append(ok)

ths = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
t0 = time.time()
[t.start() for t in ths]
[t.join() for t in ths]
check(len(results) == 200 and all(results), "load: %d/200 completed and verified" % sum(results))
print("load: 200 proofs in %.1f s" % (time.time() - t0))
check(wait_idle(c), "counters at zero after load")
st = c.call("GetStatus", pb.GetStatusRequest())
check(st.total_proofs_completed == 211 and st.total_proofs_failed == 0, "completed %d" % st.total_proofs_completed)
rss_after = d.rss()
print("RSS idle %.1f MiB, after load %.1f MiB" % (rss_idle / 2**20, rss_after / 2**20))
check(rss_after <= rss_idle * 1.25 + (24 << 20), "RSS back near idle")

# SIGTERM under load: running jobs finish or are cancelled within the grace, exit 0.
outcomes = []

def prover(t):
    cl = Client(d.target)
    try:
        res = cl.call("Prove", pb.ProveRequest(submit=synth(10, t, 8, "term-%d" % t)), timeout=60).result
        outcomes.append(pb.AwaitProofResponse.Status.Name(res.status))
    except grpc.RpcError as e:
        outcomes.append(e.code().name)

ths = [threading.Thread(target=prover, args=(t,)) for t in range(8)]
[t.start() for t in ths]
time.sleep(1.0)
t0 = time.time()
rc = d.stop(timeout=30)
[t.join() for t in ths]
check(rc == 0, "SIGTERM under load exits 0 (rc %s)" % rc)
check(time.time() - t0 < 15, "shutdown within grace + margin")
check(len(outcomes) == 8 and all(o in ("COMPLETED", "CANCELLED", "UNAVAILABLE") for o in outcomes) and
      "CANCELLED" in outcomes, "outcomes under SIGTERM: %s" % outcomes)
d.log.seek(0)
check("cancelled" in d.log.read(), "shutdown log names the cancelled jobs")

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
