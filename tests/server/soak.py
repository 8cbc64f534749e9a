#!/usr/bin/python3
"""Fault soak of `cuzk daemon` (issue 20): several clients over TCP with TLS and a bearer
token, a durable journal, and a bounded random mix (seeded) of proofs of the built-in
synthetic circuits plus the Filecoin kinds on 2 KiB sectors (PoRep C2, WinningPoSt,
WindowPoSt, SnapDeals; vanilla inputs from `cuzk-bench gen-vanilla`, test-only parameters
from tests/filecoin_e2e/gen_params.sh) as Curio asks for them, with faults injected:
clients that vanish mid-call (short deadlines), cancels, duplicate request ids from two
clients at once, garbage bytes on the TLS port, wrong tokens, the WindowPoSt parameter file
made unreadable mid-load (chmod 000, then restored), and a kill -9 of the daemon in the
middle of the load followed by a restart on the same journal (clients retry with the same
request ids, as Curio does).

At the end every job the daemon accepted is accounted for through AwaitProof on the
restarted daemon: completed with all its partitions verified (the daemon's own check of
every proof), cancelled because the soak cancelled it, or failed with a stated reason; none
lost across the restart; a WindowPoSt refused while its parameters were unreadable was
refused FAILED_PRECONDITION naming the file, and the first one after the restore proved;
the pipeline's counters back at zero; no journal entry set aside; the daemon's heap (its
anonymous RSS beside the a/b/c pool's free buffers; the parameters are file mappings) back
near its level after the warm-up. --minutes sets the load phase (the make test version runs
2 minutes; `ctest -L soak` a longer one). Prints "N passed, N failed" and exits non-zero on
any failure."""
import json, os, random, re, shutil, socket, subprocess, sys, threading, time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check  # noqa: E402

args, pb = lib.main_args("cuzk-soak-", [("--minutes", {"type": float, "default": 2.0}),
                                        ("--clients", {"type": int, "default": 4}),
                                        ("--fc-clients", {"type": int, "default": 1}),
                                        ("--seed", {"type": int, "default": 20}),
                                        ("--params", {"required": True})])
TMP = lib.TMP
ST = pb.AwaitProofResponse


def path(name):
    return os.path.join(TMP, name)


lib.make_ca(TMP, "ca")
lib.make_cert(TMP, "server", "ca", "cuzk-soak", "DNS:localhost,IP:127.0.0.1")
TOKEN = "soak-" + os.urandom(8).hex()
with open(path("token"), "w") as f:
    f.write(TOKEN + "\n")
with open(path("ca.crt"), "rb") as f:
    CREDS = grpc.ssl_channel_credentials(root_certificates=f.read())

# The parameters: links to the test-only files, but a copy of the WindowPoSt one, which the
# soak makes unreadable mid-load (the shared file stays readable for the other tests).
FC = lib.Fc2KiB(args.bench)
PARAMS = path("params")
os.mkdir(PARAMS)
FAULT_FILE = os.path.join(PARAMS, os.path.basename(lib.Fc2KiB.params_file("window", args.params)))
for name in os.listdir(args.params):
    src = os.path.join(os.path.abspath(args.params), name)
    if name == os.path.basename(FAULT_FILE):
        shutil.copyfile(src, FAULT_FILE)
    else:
        os.symlink(src, os.path.join(PARAMS, name))


def unreadable_wrap():
    """The command prefix under which chmod 000 keeps the daemon from reading a file: none for
    a user; for root, setpriv dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the
    bounding set (it still owns the soak's files). None where that is not possible."""
    if os.geteuid() != 0:
        return []
    wrap = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    probe = path("probe")
    open(probe, "w").close()
    os.chmod(probe, 0)
    try:
        r = subprocess.run(wrap + ["cat", probe], capture_output=True, text=True)
    except OSError:
        return None
    return wrap if r.returncode != 0 and "Permission denied" in r.stderr else None


WRAP = unreadable_wrap()
# The 10-minute default result retention would drop the early results of the long soak
# before the accounting; the partition synthesis without the PCE keeps the budget's charges
# all visible in GetStatus (HOT parameters, pool buffers), which the idle check needs.
EXTRA = ('tls_cert = "%s"\ntls_key = "%s"\nauth_token_file = "%s"\njournal_dir = "%s"\nmax_jobs = 256\n'
         'result_retention = "2h"\n[synthesis]\npartition_workers = 2\n[srs]\npce = false\nparam_cache = "%s"\n'
         'cache_dir = "%s"\n' % (path("server.crt"), path("server.key"), path("token"), path("journal"), PARAMS,
                                 path("cache")))

state = {"daemon": None, "target": None, "down": False}
lock = threading.Lock()
accepted = {}   # request id -> (partitions, cancelled by us)
refused = {}    # request id -> why: WindowPoSt refused while its parameter file was unreadable
faults = []     # [chmod 000 at, restored at (None while unreadable)] of the parameter file
fc_done = {k: 0 for k in lib.Fc2KiB.CIRCUITS}  # Filecoin proofs completed per kind (Prove answers)
events = {"vanished": 0, "cancels": 0, "duplicates": 0, "garbage": 0, "wrong_token": 0, "retries": 0,
          "params_unreadable": 0}
CURIO_ID = {"porep": "porep", "winning": "winpost", "window": "wdpost", "snap": "snap"}


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
                check(r.status == ST.COMPLETED and r.verified_partitions == parts,
                      "Prove %s: %s" % (rid, ST.Status.Name(r.status)))
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
                check(r.status == ST.COMPLETED and r.verified_partitions == parts + 2,
                      "retry after vanishing %s: %s" % (rid, ST.Status.Name(r.status)))
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
                      out[0].status == ST.COMPLETED, "duplicate id %s: one job, one proof" % rid)
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


def during_fault(t0, t1):
    """True when [t0, t1] overlaps a time the parameter file was unreadable."""
    with lock:
        return any(on <= t1 and (off is None or t0 <= off) for on, off in faults)


def prove_fc(kind, rid, until):
    """A Filecoin proof through a blocking Prove retried across the kill (Curio's way): the
    result (COMPLETED, its one partition verified by the daemon), or None when the WindowPoSt
    was refused FAILED_PRECONDITION naming the unreadable parameter file while it was so."""
    with lock:
        accepted[rid] = (1, False)
    t0 = time.time()
    try:
        r = call_retrying(lambda c: c.call("Prove", pb.ProveRequest(submit=FC.request(kind, rid)), timeout=600).result,
                          until)
    except grpc.RpcError as e:
        if e.code() != grpc.StatusCode.FAILED_PRECONDITION or not during_fault(t0, time.time()):
            raise
        check(kind == "window" and FAULT_FILE in e.details() and "not readable" in e.details(),
              "%s refused while the parameter file was unreadable: %r (want the file named)" % (rid, e.details()))
        with lock:
            del accepted[rid]
            refused[rid] = e.details()
        return None
    ok = r.status == ST.COMPLETED and r.verified_partitions == 1 and len(r.proof) == 192
    check(ok, "Prove %s: %s %r, %d partition(s) verified" % (rid, ST.Status.Name(r.status), r.error_message,
                                                             r.verified_partitions))
    with lock:
        fc_done[kind] += ok
    print("%s: %s in %.0f s" % (rid, ST.Status.Name(r.status), time.time() - t0), flush=True)
    return r


HEAVY_S = 60  # PoRep and SnapDeals take tens of seconds on 2 cores: none started this close to the end


def fc_worker(t, deadline):
    """Filecoin proofs, each kind in turn (the light PoSts more often), ids as Curio forms them."""
    order = ["winning", "snap", "window", "porep", "winning", "window"]
    n = 0
    while time.time() < deadline:
        kind = order[(n + 3 * t) % len(order)]
        n += 1
        if kind in ("porep", "snap") and deadline - time.time() < HEAVY_S:
            kind = "window" if n % 2 else "winning"
        rid = "%s-1000-%d-%d" % (CURIO_ID[kind], t, n)
        try:
            prove_fc(kind, rid, deadline + 600)
        except Exception as e:  # noqa: BLE001 - a failed check, never a crash of the soak
            check(False, "Filecoin client %d, %s: %r" % (t, rid, e))


def params_fault(n, until):
    """The WindowPoSt parameter file made unreadable mid-load (chmod 000) and its resident keys
    evicted once no job holds them: a WindowPoSt is refused FAILED_PRECONDITION naming the file
    (or proves from the resident keys if they never came free); the daemon keeps serving;
    after chmod 644 the next WindowPoSt proves."""
    with lock:
        events["params_unreadable"] += 1
        faults.append([time.time(), None])
    os.chmod(FAULT_FILE, 0)
    evicted, end = False, time.time() + 30
    while not evicted and time.time() < end:
        code, msg = client().code("EvictSRS", pb.EvictSrsRequest(circuit_id="wpost-2k"), 10)
        evicted = code == grpc.StatusCode.OK
        if not evicted:
            check(code == grpc.StatusCode.FAILED_PRECONDITION and "in use" in msg, "EvictSRS wpost-2k: %s %r" %
                  (code, msg))
            time.sleep(0.2)
    r = prove_fc("window", "wdpost-fault-%d" % n, until)
    check(r is None or not evicted, "WindowPoSt with its parameters unreadable and evicted: refused")
    check(client().call("GetStatus", pb.GetStatusRequest()) is not None, "the daemon keeps serving")
    os.chmod(FAULT_FILE, 0o644)
    with lock:
        faults[-1][1] = time.time()
    r = prove_fc("window", "wdpost-restored-%d" % n, until)
    check(r is not None and r.status == ST.COMPLETED, "the first WindowPoSt after the restore proves")
    print("parameter file unreadable: %s, then restored" % ("refused naming it" if r is not None and evicted else
                                                          "proved from the resident keys"), flush=True)


def rss_heap(d, c):
    """The daemon's anonymous RSS beside the a/b/c pool's free buffers (bytes): its heap; the
    parameters and point caches are file mappings."""
    with open("/proc/%d/status" % d.p.pid) as f:
        anon = int(re.search(r"RssAnon:\s+(\d+)", f.read()).group(1)) * 1024
    return anon - c.call("GetStatus", pb.GetStatusRequest()).pipeline.pool_free_bytes


def start(name):
    d = Daemon(name, "127.0.0.1:0", EXTRA, wrap=WRAP or ())
    with lock:
        state["daemon"], state["target"] = d, "127.0.0.1:%d" % d.grpc_port
    return d


d = start("soak-1")
c = client()
t_warm = time.time()
# warm-up: each Filecoin kind once (PoRep beside the others), the synthetic ones meanwhile,
# then the idle heap
fcw = [threading.Thread(target=lambda ks=ks: [prove_fc(k, "warm-" + k, time.time() + 900) for k in ks])
       for ks in (("porep",), ("winning", "window", "snap"))]
[x.start() for x in fcw]
for i in range(20):
    c.call("Prove", pb.ProveRequest(submit=synth("warm-%d" % i, 6, i, 1)))
[x.join() for x in fcw]
check(lib.wait_idle(c), "idle after the warm-up")
with lock:
    fc_warm = dict(fc_done)
rss0, heap0 = d.rss(), rss_heap(d, c)
t0 = time.time()
print("warm-up %.0f s" % (t0 - t_warm), flush=True)
deadline = t0 + args.minutes * 60
ths = [threading.Thread(target=worker, args=(t, deadline)) for t in range(args.clients)]
ths += [threading.Thread(target=fc_worker, args=(t, deadline)) for t in range(args.fc_clients)]
[x.start() for x in ths]
# the parameter file unreadable at a quarter (and three quarters) of the load, the kill -9 at
# half (after the first fault has been restored)
fault_at = [0.25] if args.minutes < 5 else [0.25, 0.75]
if WRAP is None:
    print("SKIP the unreadable parameter file: chmod 000 does not stop root here (setpriv cannot drop "
          "CAP_DAC_OVERRIDE)")
    fault_at = []


def sleep_until(frac):
    time.sleep(max(0.0, t0 + frac * args.minutes * 60 - time.time()))


for i, frac in enumerate(f for f in fault_at if f < 0.5):
    sleep_until(frac)
    params_fault(i + 1, deadline + 600)
sleep_until(0.5)  # kill -9 and restart on the journal
d.p.kill()
d.p.wait()
print("kill -9 at %.0f s with %d jobs accepted so far" % (time.time() - t0, len(accepted)), flush=True)
d = start("soak-2")
for i, frac in enumerate(f for f in fault_at if f >= 0.5):
    sleep_until(frac)
    params_fault(i + 10, deadline + 600)
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
    if r.status == ST.COMPLETED:
        done += 1
        check(r.verified_partitions == parts and len(r.proof) == 192 * parts,
              "%s: %d of %d partitions verified" % (rid, r.verified_partitions, parts))
    elif r.status == ST.CANCELLED:
        cancelled += 1
        check(we_cancelled, "%s cancelled although nobody cancelled it: %s" % (rid, r.error_message))
    else:
        failed += 1
        check(bool(r.error_message), "%s failed without a reason" % rid)
print("accounting: %d accepted: %d completed, %d cancelled (by the soak), %d failed with a reason, %d lost; "
      "%d refused while the parameter file was unreadable; Filecoin proofs %s (in the load %s); events %s" %
      (len(accepted), done, cancelled, failed, lost, len(refused), fc_done,
       {k: fc_done[k] - fc_warm[k] for k in fc_done}, events))
fc_load = {k: fc_done[k] - fc_warm[k] for k in fc_done}
check(all(fc_done.values()) and sum(fc_load.values()) > 0,
      "every Filecoin kind proved, Filecoin proofs in the load too: %s, in the load %s" % (fc_done, fc_load))
check(not fault_at or refused or "wdpost-fault-1" in accepted, "the unreadable parameter file was exercised")
check(lib.wait_idle(c, 120), "counters at zero at the end")
code, body = d.http("/status", token=TOKEN)
js = json.loads(body).get("journal", {}) if code == 200 else {}
check(js.get("set_aside") == 0 and js.get("entries", 0) > 0, "journal after the kill -9: nothing set aside: %s" % js)
rss1, heap1 = d.rss(), rss_heap(d, c)
print("RSS after warm-up %.1f MiB (heap %.1f MiB), at the end %.1f MiB (heap %.1f MiB, restarted daemon); "
      "load phase %.0f s, load average %.1f" % (rss0 / 2**20, heap0 / 2**20, rss1 / 2**20, heap1 / 2**20,
                                                time.time() - t0, os.getloadavg()[0]))
check(heap1 <= heap0 * 1.5 + (32 << 20), "the heap back near its starting level")
check(d.stop() == 0, "the daemon stops cleanly after the soak")
lib.summary()
