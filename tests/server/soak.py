#!/usr/bin/python3
"""Fault soak of `cuzk daemon` (issue 20): several clients over TCP with TLS and a bearer
token, a durable journal, and a bounded random mix (seeded) of proofs of the built-in
synthetic circuits, with faults injected: clients that vanish mid-call (short deadlines),
cancels, duplicate request ids from two clients at once, garbage bytes on the TLS port,
wrong tokens, and a kill -9 of the daemon in the middle of the load followed by a restart
on the same journal (clients retry with the same request ids, as Curio does).

At the end every job the daemon accepted is accounted for through AwaitProof on the
restarted daemon: completed with all its partitions verified, cancelled because the soak
cancelled it, or failed with a stated reason; none lost across the restart; the pipeline's
counters back at zero; RSS back near its level after the warm-up. --minutes sets the load
phase (the make test version runs 2 minutes; `ctest -L soak` a longer one).
Prints "N passed, N failed" and exits non-zero on any failure."""
import os, random, signal, socket, sys, threading, time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check  # noqa: E402

args, pb = lib.main_args("cuzk-soak-", [("--minutes", {"type": float, "default": 2.0}), ("--clients", {"type": int, "default": 4}), ("--seed", {"type": int, "default": 20})])
TMP = lib.TMP


def path(name):
    return os.path.join(TMP, name)


lib.make_ca(TMP, "ca")
lib.make_cert(TMP, "server", "ca", "cuzk-soak", "DNS:localhost,IP:127.0.0.1")
TOKEN = "soak-" + os.urandom(8).hex()
with open(path("token"), "w") as f:
    f.write(TOKEN + "\n")
with open(path("ca.crt"), "rb") as f:
    CREDS = grpc.ssl_channel_credentials(root_certificates=f.read())
EXTRA = ('tls_cert = "%s"\ntls_key = "%s"\nauth_token_file = "%s"\njournal_dir = "%s"\nmax_jobs = 256\n'
         '[synthesis]\npartition_workers = 2\n' % (path("server.crt"), path("server.key"), path("token"),
                                                   path("journal")))

state = {"daemon": None, "target": None, "down": False}
lock = threading.Lock()
accepted = {}   # request id -> (partitions, cancelled by us)
events = {"vanished": 0, "cancels": 0, "duplicates": 0, "garbage": 0, "wrong_token": 0, "retries": 0}


def client():
    with lock:
        return Client(state["target"], CREDS, TOKEN)


def synth(rid, k, seed, parts):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.CIRCUIT,
                                 circuit=pb.CircuitInput(name="synthetic-%d" % k, seed=seed, partitions=parts))


def call_retrying(fn, until):
    """fn(client) with retries while the daemon is down (UNAVAILABLE) or the call broke on the kill."""
    while time.time() < until:
        try:
            return fn(client())
        except grpc.RpcError as e:
            if e.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN,
                            grpc.StatusCode.INTERNAL):
                with lock:
                    events["retries"] += 1
                time.sleep(0.2)
                continue
            raise
    raise RuntimeError("daemon did not come back")


def worker(t, deadline):
    rnd = random.Random(args.seed * 1000 + t)
    n = 0
    while time.time() < deadline:
        n += 1
        rid = "soak-%d-%d" % (t, n)
        k, parts = rnd.randint(5, 9), rnd.randint(1, 3)
        action = rnd.random()
        try:
            if action < 0.45:  # blocking Prove, as Curio calls it
                with lock:
                    accepted[rid] = (parts, False)
                r = call_retrying(lambda c: c.call("Prove", pb.ProveRequest(submit=synth(rid, k, n, parts)),
                                                   timeout=120).result, deadline + 120)
                check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == parts,
                      "Prove %s: %s" % (rid, pb.AwaitProofResponse.Status.Name(r.status)))
            elif action < 0.60:  # a client that vanishes mid-call, then its retry joins the job
                try:
                    client().call("Prove", pb.ProveRequest(submit=synth(rid, k + 2, n, parts + 2)), timeout=0.05)
                except grpc.RpcError:
                    pass
                with lock:
                    events["vanished"] += 1
                    accepted[rid] = (parts + 2, False)
                r = call_retrying(lambda c: c.call("Prove", pb.ProveRequest(submit=synth(rid, k + 2, n, parts + 2)),
                                                   timeout=120).result, deadline + 120)
                check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == parts + 2,
                      "retry after vanishing %s: %s" % (rid, pb.AwaitProofResponse.Status.Name(r.status)))
            elif action < 0.70:  # submit then cancel
                call_retrying(lambda c: c.call("SubmitProof", synth(rid, 9, n, 6)), deadline + 120)
                with lock:
                    accepted[rid] = (6, True)
                    events["cancels"] += 1
                call_retrying(lambda c: c.call("CancelProof", pb.CancelProofRequest(job_id=rid)), deadline + 120)
            elif action < 0.80:  # the same request id from two clients at once
                with lock:
                    accepted[rid] = (parts, False)
                    events["duplicates"] += 1
                out = [None, None]

                def twin(i):
                    out[i] = call_retrying(lambda c: c.call("Prove", pb.ProveRequest(submit=synth(rid, k, n, parts)),
                                                            timeout=120).result, deadline + 120)
                ths = [threading.Thread(target=twin, args=(i,)) for i in range(2)]
                [x.start() for x in ths]
                [x.join() for x in ths]
                check(out[0] is not None and out[1] is not None and out[0].proof == out[1].proof and
                      out[0].status == pb.AwaitProofResponse.COMPLETED, "duplicate id %s: one job, one proof" % rid)
            elif action < 0.90:  # a wrong token is refused and changes nothing
                with lock:
                    events["wrong_token"] += 1
                code = Client(state["target"], CREDS, "x" + TOKEN).code("SubmitProof", synth(rid, k, n, parts), 10)[0]
                check(code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.UNAVAILABLE),
                      "wrong token: %s" % code)
            else:  # garbage bytes on the TLS port
                with lock:
                    events["garbage"] += 1
                    host, port = state["target"].rsplit(":", 1)
                try:
                    s = socket.create_connection((host, int(port)), timeout=2)
                    s.sendall(rnd.randbytes(rnd.randint(1, 3000)))
                    s.close()
                except OSError:
                    pass
        except Exception as e:  # noqa: BLE001 - every error is a failed check, never a crash of the soak
            check(False, "client %d, %s: %r" % (t, rid, e))


def start(name):
    d = Daemon(name, "127.0.0.1:0", EXTRA)
    with lock:
        state["daemon"], state["target"] = d, "127.0.0.1:%d" % d.grpc_port
    return d


d = start("soak-1")
c = client()
for i in range(20):  # warm-up, then the idle RSS
    c.call("Prove", pb.ProveRequest(submit=synth("warm-%d" % i, 6, i, 1)))
lib.wait_idle(Client(state["target"], CREDS, TOKEN))
rss0 = d.rss()
t0 = time.time()
deadline = t0 + args.minutes * 60
ths = [threading.Thread(target=worker, args=(t, deadline)) for t in range(args.clients)]
[x.start() for x in ths]
time.sleep(args.minutes * 30)  # halfway: kill -9 and restart on the journal
d.p.kill()
d.p.wait()
print("kill -9 at %.0f s with %d jobs accepted so far" % (time.time() - t0, len(accepted)), flush=True)
d = start("soak-2")
[x.join() for x in ths]
c = Client(state["target"], CREDS, TOKEN)
done = cancelled = failed = lost = 0
for rid, (parts, we_cancelled) in sorted(accepted.items()):
    try:
        r = c.call("AwaitProof", pb.AwaitProofRequest(job_id=rid, timeout_ms=300000), timeout=330)
    except grpc.RpcError as e:
        lost += e.code() == grpc.StatusCode.NOT_FOUND
        check(False, "AwaitProof %s: %s %s" % (rid, e.code(), e.details()))
        continue
    if r.status == pb.AwaitProofResponse.COMPLETED:
        done += 1
        check(r.verified_partitions == parts and len(r.proof) == 192 * parts,
              "%s: %d of %d partitions verified" % (rid, r.verified_partitions, parts))
    elif r.status == pb.AwaitProofResponse.CANCELLED:
        cancelled += 1
        check(we_cancelled, "%s cancelled although nobody cancelled it: %s" % (rid, r.error_message))
    else:
        failed += 1
        check(bool(r.error_message), "%s failed without a reason" % rid)
print("accounting: %d accepted: %d completed, %d cancelled (by the soak), %d failed with a reason, %d lost; "
      "events %s" % (len(accepted), done, cancelled, failed, lost, events))
check(lib.wait_idle(c, 120), "counters at zero at the end")
rss1 = d.rss()
print("RSS after warm-up %.1f MiB, at the end %.1f MiB (restarted daemon)" % (rss0 / 2**20, rss1 / 2**20))
check(rss1 <= rss0 * 1.5 + (32 << 20), "RSS back near its starting level")
check(d.stop() == 0, "the daemon stops cleanly after the soak")
lib.summary()
