#!/usr/bin/python3
"""`cuzk daemon` with the GPU backend on OpenCL ([gpus] backend = "opencl": POCL on the CPU in
CI; exit 77, a skip, where there is no OpenCL device), over gRPC (Python grpcio client built
from the repository's .proto):
  - the daemon logs the backend and its device; GetStatus lists the prover workers on that
    device and one DeviceStatus with busy time, queue depth, resident bases and the uploads
    (a/b/c of both partitions straight from the engine's a/b/c pool, the domains' bytes; the
    witness scalars); /metrics and /status carry the same per device;
  - the demo's 2 KiB PoRep (Curio's envelope) and WinningPoSt COMPLETED through the device,
    each proof accepted by the CLI verifier (a separate process reading only the .vk) and,
    with the same fixed r, s (the CUZK_TEST_FIXED_RS test hook), byte-identical to the proof
    of `cuzk c2` / `cuzk post --backend cpu` (the CPU backend as the oracle), and `cuzk post
    --backend opencl --device 0` proves those same bytes on the device (c2, post and snap share
    that flag handling, tools/cuzk/cmd_filecoin.c; a PoRep or SnapDeals proof through the CLI on
    POCL takes minutes, the WinningPoSt seconds);
  - an injected device failure (CUZK_GPU_FAIL, first partition only) fails that job with an
    error naming the device, the daemon keeps serving and the next job completes; EvictSRS of
    its circuit drops the circuit's resident bases from the device too; with
    fallback_to_cpu the failed partition is proved on the CPU and the job completes;
  - [gpus] errors refuse to start naming the key: an unknown backend, a device that does
    not exist, a device list with a repeat.
Prints "N passed, N failed"."""
import json, os, re, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check, run_daemon, wait_idle, write_config  # noqa: E402

args, pb = lib.main_args("cuzk-gpu-daemon-", [("--params", {"required": True})])

info = subprocess.run([args.cuzk, "gpu-info", "--json"], capture_output=True, text=True)
try:
    ocl = [r for r in json.loads(info.stdout)["runtimes"] if r["runtime"] == "opencl"][0]
    has_device = len(ocl["devices"]) > 0
except (ValueError, KeyError, IndexError):
    has_device = False
if not has_device:
    print("SKIP: no OpenCL device (cuzk gpu-info: %s)" % info.stdout.strip()[:200])
    sys.exit(77)

GPUS = '[gpus]\nbackend = "opencl"\ngpu_workers_per_device = 2\ngpu_threads = 2\ntest_hooks = true\n'
STAGING = 2 * (32 << 20)  # the two workers' pinned staging (default staging_buffer), charged to the budget
SRS = '[srs]\nparam_cache = "%s"\ncache_dir = "%s"\n' % (args.params, os.path.join(lib.TMP, "cache"))


def synth(seed, k=8):
    return pb.SubmitProofRequest(proof_kind=pb.CIRCUIT,
                                 circuit=pb.CircuitInput(name="synthetic-%d" % k, seed=seed, partitions=1))


def prove(c, req, timeout=1200):
    return c.call("Prove", pb.ProveRequest(submit=req), timeout=timeout).result


def gen(kind, *argv):
    out = os.path.join(lib.TMP, kind + ".out")
    subprocess.run([args.bench, "gen-vanilla", kind] + list(argv) + ["-o", out], capture_output=True, check=True)
    return open(out, "rb").read()


def verify(cmd, *argv):
    v = subprocess.run([args.cuzk, cmd] + list(argv) + ["--param-cache", args.params], capture_output=True, text=True)
    return v.returncode == 0 and '"valid":true' in v.stdout, v.stdout + v.stderr


def done(r):
    return r.status == pb.AwaitProofResponse.COMPLETED


# ---- [gpus] errors: the daemon refuses to start, naming the key
for body, needle in (('backend = "vulkan"', "gpus.backend"), ('backend = "opencl"\ndevices = [63]', "device 63"),
                     ('devices = [0, 0]', "listed twice"), ('device_memory_percent = 0', "device_memory_percent")):
    folder, cfg = write_config("bad", "unix://%s/bad.sock" % lib.TMP, "[gpus]\n%s\n" % body)
    rc, err = run_daemon(["--config", cfg])
    check(rc == 2 and needle in err, "[gpus] %r: exit %s, %r" % (body, rc, err[-300:]))

# ---- the demo's proofs through the device
os.environ["CUZK_GPU_CACHE"] = os.environ.get("CUZK_GPU_CACHE", os.path.join(lib.TMP, "gpu-cache"))
os.environ["CUZK_TEST_FIXED_RS"] = "11"
d = Daemon("gpu", "unix://%s/gpu.sock" % lib.TMP, GPUS + SRS, max_message="64MiB")
c = Client(d.target)
log = d.logtext()
check("prover backend: opencl: opencl:0" in log, "the daemon logs its backend and device: %r" % log[-600:])

env = gen("porep", "--registered-proof", "5", "--miner", "1000", "--sector", "1", "--cc", "--format", "envelope")
r = prove(c, pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=env, miner_id=1000, sector_number=1,
                                   sector_size=2048))
check(done(r) and r.verified_partitions == 1, "PoRep 2 KiB on the device: %s %r" % (r.status, r.error_message))
c1 = os.path.join(lib.TMP, "c1.json")
pf = os.path.join(lib.TMP, "porep.proof")
open(c1, "wb").write(env)
open(pf, "wb").write(r.proof)
ok, msg = verify("verify-c2", c1, pf)
check(ok, "verify-c2 of the device's PoRep proof: %s" % msg)
CACHE = ["--param-cache", args.params, "--cache-dir", os.path.join(lib.TMP, "cache")]


def same_as_cpu(what, device_proof, argv):
    out = os.path.join(lib.TMP, what + ".cpu.proof")
    p = subprocess.run([args.cuzk] + argv + ["-o", out, "--backend", "cpu"] + CACHE, capture_output=True, text=True)
    check(p.returncode == 0 and open(out, "rb").read() == open(device_proof, "rb").read(),
          "%s: the device's proof is byte-identical to the CPU backend's for the same r, s (%s)" %
          (what, (p.stdout + p.stderr)[-300:]))


def cli_on_device(what, want_proof, argv):
    """`cuzk ARGV --backend opencl --device 0` proves on the device (-v: the backend it opened)
    the bytes of want_proof (the CPU backend's, for the same fixed r, s)."""
    out = os.path.join(lib.TMP, what + ".cli-opencl.proof")
    p = subprocess.run([args.cuzk] + argv + ["-v", "-o", out, "--backend", "opencl", "--device", "0"] + CACHE,
                       capture_output=True, text=True)
    check(p.returncode == 0 and "prover backend opencl: opencl:0" in p.stderr and os.path.exists(out) and
          open(out, "rb").read() == open(want_proof, "rb").read(),
          "%s --backend opencl --device 0: the CLI's device proof is the CPU's bytes (%s)" %
          (what, (p.stdout + p.stderr)[-300:]))
    return out


same_as_cpu("porep", pf, ["c2", "--test-hooks", c1])

R = bytes(range(32))[:31] + b"\x00"
win = gen("winning-post", "--registered-proof", "0", "--miner", "1000", "--sectors", "1", "--randomness", R.hex(),
          "--format", "blobs")
import base64  # noqa: E402
r = prove(c, pb.SubmitProofRequest(proof_kind=pb.WINNING_POST, registered_proof=0, miner_id=1000, randomness=R,
                                   vanilla_proofs=[base64.b64decode(x) for x in json.loads(win)]))
check(done(r), "WinningPoSt on the device: %s %r" % (r.status, r.error_message))
wf, wp = os.path.join(lib.TMP, "win.json"), os.path.join(lib.TMP, "win.proof")
open(wf, "wb").write(win)
open(wp, "wb").write(r.proof)
ok, msg = verify("verify-post", "--kind", "winning", "--registered-proof", "0", "--miner", "1000", "--randomness",
                 R.hex(), wp, wf)
check(ok, "verify-post of the device's WinningPoSt proof: %s" % msg)
same_as_cpu("winning", wp, ["post", "--test-hooks", "--kind", "winning", "--registered-proof", "0", "--miner", "1000", "--randomness",
                            R.hex(), wf])
cli_on_device("winning", wp, ["post", "--test-hooks", "--kind", "winning", "--registered-proof", "0", "--miner", "1000",
                              "--randomness", R.hex(), wf])
del os.environ["CUZK_TEST_FIXED_RS"]

st = c.call("GetStatus", pb.GetStatusRequest())
check(len(st.devices) == 1 and "opencl:0" in st.devices[0].name and st.devices[0].backend == "gpu",
      "one OpenCL device in GetStatus: %s" % st.devices)
dv = st.devices[0]
check(dv.partitions_proved >= 2 and dv.partitions_failed == 0 and dv.busy_ms > 0 and dv.queue_depth == 0,
      "device counters: %s" % dv)
check(dv.bases_resident == 2 and dv.bases_bytes > 0 and dv.bases_bytes <= dv.bases_budget_bytes and
      dv.mem_total_bytes > 0, "resident bases of porep-2k and winning-2k: %s" % dv)
check(dv.staging_bytes in (STAGING // 2, STAGING),
      "pinned staging of the workers that ran (32 MiB each): %d bytes" % dv.staging_bytes)
# a, b, c of the two partitions, 32 bytes a domain point each (domains 2^22 and 2^17 of PoRep and
# WinningPoSt 2 KiB, docs/circuits.md), from the engine's a/b/c pool ([memory] abc_pool, on by
# default): straight from its registered buffers
ABC = 3 * 32 * ((1 << 22) + (1 << 17))
check(dv.abc_direct_bytes + dv.abc_staged_bytes == ABC and dv.abc_direct_bytes > 0,
      "a/b/c uploads: direct %d + staged %d bytes, expected %d in all" % (dv.abc_direct_bytes, dv.abc_staged_bytes, ABC))
check(dv.scalar_upload_bytes > 0 and dv.scalar_upload_bytes % 32 == 0,
      "witness scalars uploaded: %d bytes" % dv.scalar_upload_bytes)
check(len(st.gpus) == 2 and all("opencl:0" in g.name and g.vram_total_bytes == dv.mem_total_bytes for g in st.gpus),
      "two prover workers on the device: %s" % [g.name for g in st.gpus])
code, text = d.http("/metrics")
check(code == 200 and 'cuzk_device_bases_bytes{device="0",name="opencl:0' in text and
      "cuzk_device_busy_seconds_total" in text and "cuzk_device_queue_depth" in text and
      'cuzk_device_staging_bytes{device="0",name="opencl:0' in text and
      re.search(r'^cuzk_device_abc_direct_bytes_total\{device="0",name="opencl:0[^}]*\} %d$' % dv.abc_direct_bytes,
                text, re.M) and
      re.search(r'^cuzk_device_scalar_upload_bytes_total\{device="0",name="opencl:0[^}]*\} %d$' %
                dv.scalar_upload_bytes, text, re.M) and
      'cuzk_device_abc_staged_bytes_total{device="0"' in text and
      'cuzk_device_abc_registered_bytes{device="0"' in text and
      "cuzk_device_memory_free_bytes{" not in text, "/metrics per device (no free memory sample: OpenCL cannot tell)")
code, text = d.http("/status")
sd = json.loads(text)["devices"][0] if code == 200 else {}
check(sd.get("bases_resident") == 2 and sd.get("staging_bytes") == dv.staging_bytes and
      sd.get("abc_direct_bytes") == dv.abc_direct_bytes and sd.get("abc_staged_bytes") == dv.abc_staged_bytes and
      sd.get("scalar_upload_bytes") == dv.scalar_upload_bytes and "abc_registered_bytes" in sd and
      sd.get("mem_free_bytes") == 0 and sd.get("mem_total_bytes") == dv.mem_total_bytes, "/status devices: %s" % sd)
d.stop()

# ---- an injected device failure fails only its job; the daemon keeps serving
os.environ["CUZK_GPU_FAIL"] = "msm:0:1"
d = Daemon("gpu-fail", "unix://%s/fail.sock" % lib.TMP, GPUS + SRS)
c = Client(d.target)
r = prove(c, synth(1))
check(r.status == pb.AwaitProofResponse.FAILED and "opencl:0" in r.error_message and "msm" in r.error_message,
      "injected failure: %s %r" % (r.status, r.error_message))
r = prove(c, synth(2))
check(done(r), "the next job after a device failure: %s %r" % (r.status, r.error_message))
st = c.call("GetStatus", pb.GetStatusRequest())
check(st.devices[0].partitions_failed == 1 and st.devices[0].partitions_proved == 1 and st.total_proofs_failed == 1,
      "failure counted: %s" % st.devices[0])
check(wait_idle(c, 30, standing_bytes=STAGING), "counters back at zero after the failure (the staging charged)")
# EvictSRS of the circuit drops its bases from the device too; the next proof uploads them again
dv = c.call("GetStatus", pb.GetStatusRequest()).devices[0]
check(dv.bases_resident == 1 and dv.bases_bytes > 0, "synthetic-8's bases resident: %s" % dv)
ev = c.call("EvictSRS", pb.EvictSrsRequest(circuit_id="synthetic-8"))
dv = c.call("GetStatus", pb.GetStatusRequest()).devices[0]
check(ev.was_loaded and dv.bases_resident == 0 and dv.bases_bytes == 0,
      "EvictSRS synthetic-8 drops its device copy: was_loaded %s, %s" % (ev.was_loaded, dv))
r = prove(c, synth(4))
dv = c.call("GetStatus", pb.GetStatusRequest()).devices[0]
check(done(r) and dv.bases_resident == 1, "a proof after the evict uploads the bases again: %s %r %s" %
      (r.status, r.error_message, dv))
d.stop()

# ---- with fallback_to_cpu the failed partition is proved on the CPU
os.environ["CUZK_GPU_FAIL"] = "h"
d = Daemon("gpu-fallback", "unix://%s/fb.sock" % lib.TMP, GPUS + "fallback_to_cpu = true\n" + SRS)
c = Client(d.target)
r = prove(c, synth(3))
check(done(r) and r.verified_partitions == 1, "fallback to the CPU: %s %r" % (r.status, r.error_message))
st = c.call("GetStatus", pb.GetStatusRequest())
check(st.devices[0].cpu_fallbacks == 1, "fallback counted: %s" % st.devices[0])
check("fallback_to_cpu" in d.logtext(), "the fallback is logged")
d.stop()

# ---- without [gpus] test_hooks the hooks' variables are ignored (a warning names each)
os.environ["CUZK_GPU_FAIL"] = "msm:0:1"
os.environ["CUZK_TEST_FIXED_RS"] = "11"
d = Daemon("gpu-nohooks", "unix://%s/nohooks.sock" % lib.TMP, GPUS.replace("test_hooks = true", "test_hooks = false") + SRS)
c = Client(d.target)
r = prove(c, synth(4))
log = d.logtext()
check(done(r) and "CUZK_GPU_FAIL is set but ignored" in log and "CUZK_TEST_FIXED_RS is set but ignored" in log and
      "TEST ONLY" not in log, "hooks off: the injected failure ignored, warned: %s %r" % (r.status, log[-600:]))
d.stop()
del os.environ["CUZK_GPU_FAIL"]
del os.environ["CUZK_TEST_FIXED_RS"]
lib.summary()
