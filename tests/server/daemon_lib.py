"""Shared harness of the daemon integration tests (tests/server/*.py,
tests/filecoin_e2e/daemon_*.py): a temporary folder removed on every exit path, the Python
protobuf module built from the repository's .proto, a CHECK counter, a grpcio client,
daemons started from a config file and killed at exit, and the Filecoin requests of a 2 KiB
sector sealed by `cuzk-bench gen-vanilla` (Fc2KiB). Call init() first."""
import argparse, atexit, base64, json, os, re, shutil, signal, subprocess, sys, tempfile, time
import urllib.request

import grpc

TMP = None
DAEMONS = []  # every daemon started, killed at exit if still running
CUZK = None
pb = None
passed = failed = 0


def cleanup():
    """Runs on every exit path (normal end, sys.exit, an exception, SIGTERM/SIGINT/SIGHUP
    from ctest or the user): kill leftover daemons, then remove TMP."""
    for dm in DAEMONS:
        if dm.p.poll() is None:
            dm.p.kill()
            dm.p.wait()
        dm.log.close()
    if TMP:
        shutil.rmtree(TMP, ignore_errors=True)


def init(cuzk, proto, prefix="cuzk-daemon-test-"):
    """Make TMP, install the cleanup, compile proving.proto for Python; returns the pb module."""
    global TMP, CUZK, pb
    CUZK = cuzk
    TMP = tempfile.mkdtemp(prefix=prefix)
    atexit.register(cleanup)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda n, f: sys.exit(128 + n))
    subprocess.run(["protoc", "--python_out=" + TMP, "-I" + proto, os.path.join(proto, "cuzk/v1/proving.proto")],
                   check=True)
    sys.path.insert(0, TMP)
    from cuzk.v1 import proving_pb2  # noqa: E402
    pb = proving_pb2
    RPCS.update({
        "SubmitProof": pb.SubmitProofResponse, "AwaitProof": pb.AwaitProofResponse, "Prove": pb.ProveResponse,
        "CancelProof": pb.CancelProofResponse, "GetStatus": pb.GetStatusResponse,
        "GetMetrics": pb.GetMetricsResponse, "PreloadSRS": pb.PreloadSrsResponse, "EvictSRS": pb.EvictSrsResponse,
    })
    return pb


def main_args(prefix, extra=()):
    """Parse the daemon tests' --cuzk, --bench, --proto (and `extra`: (flag, add_argument
    keywords) pairs of the calling script) and call init(); returns (args, pb)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--build", help="the build folder (tests of make install)")
    for flag, kw in extra:
        ap.add_argument(flag, **kw)
    args = ap.parse_args()
    return args, init(args.cuzk, args.proto, prefix)


def openssl(*argv):
    subprocess.run(["openssl"] + list(argv), check=True, capture_output=True)


def make_ca(folder, name):
    """A self-signed P-256 CA: FOLDER/NAME.key, FOLDER/NAME.crt."""
    p = lambda s: os.path.join(folder, s)  # noqa: E731
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=%s" % name, "-keyout", p(name + ".key"), "-out", p(name + ".crt"))


def make_cert(folder, name, ca, cn, san=None, client=False):
    """A P-256 key and a certificate for it signed by CA (made by make_ca): FOLDER/NAME.key/.crt."""
    p = lambda s: os.path.join(folder, s)  # noqa: E731
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=%s" % cn,
            "-keyout", p(name + ".key"), "-out", p(name + ".csr"))
    with open(p(name + ".ext"), "w") as f:
        f.write("basicConstraints=CA:FALSE\nextendedKeyUsage=%s\n" % ("clientAuth" if client else "serverAuth"))
        if san:
            f.write("subjectAltName=%s\n" % san)
    openssl("x509", "-req", "-in", p(name + ".csr"), "-CA", p(ca + ".crt"), "-CAkey", p(ca + ".key"),
            "-CAcreateserial", "-days", "2", "-extfile", p(name + ".ext"), "-out", p(name + ".crt"))


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr, flush=True)


def summary():
    """Print the closing line and exit with the verdict."""
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


RPCS = {}
OPTS = [("grpc.max_send_message_length", 256 << 20), ("grpc.max_receive_message_length", 256 << 20)]


class Client:
    def __init__(self, target, creds=None, token=None):
        """creds: grpc.ssl_channel_credentials for a TLS daemon (None: plain text); token: sent
        as "authorization: Bearer <token>" with every call."""
        self.ch = grpc.secure_channel(target, creds, options=OPTS) if creds else grpc.insecure_channel(target, options=OPTS)
        self.md = [("authorization", "Bearer " + token)] if token is not None else None

    def raw(self, name, data, timeout=120):
        f = self.ch.unary_unary("/cuzk.v1.ProvingEngine/" + name, request_serializer=lambda b: b,
                                response_deserializer=RPCS[name].FromString)
        return f(data, timeout=timeout, metadata=self.md)

    def call(self, name, req, timeout=120):
        return self.raw(name, req.SerializeToString(), timeout)

    def code(self, name, req, timeout=120):
        """(status code, details) of a call expected to fail."""
        try:
            self.call(name, req, timeout)
            return grpc.StatusCode.OK, ""
        except grpc.RpcError as e:
            return e.code(), e.details()


def write_config(name, listen, extra="", max_message="256KiB", grace="2s"):
    """A config file in a new folder; returns (folder, path)."""
    folder = tempfile.mkdtemp(prefix=name + "-", dir=TMP)
    cfg = os.path.join(folder, "cuzk.toml")
    with open(cfg, "w") as f:
        f.write('[daemon]\nlisten = "%s"\nstatus_listen = "127.0.0.1:0"\nmax_message_size = "%s"\n'
                'shutdown_grace = "%s"\n%s' % (listen, max_message, grace, extra))
    return folder, cfg


def run_daemon(argv, timeout=30):
    """Run `cuzk daemon ARGV` expecting it to exit by itself: (exit code, stderr)."""
    try:
        p = subprocess.run([CUZK, "daemon"] + argv, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b"").decode()


# Lines of gRPC core's / libmicrohttpd's own logging, which must never reach stderr raw.
RAW_LOG = re.compile(r"^[EIWD]\d{4} |chttp2|Error processing request|Closing connection", re.M)


class Daemon:
    def __init__(self, name, listen, extra="", max_message="256KiB", wrap=(), grace="2s", env=None):
        """`wrap`: a command prefix the daemon runs under (e.g. unshare); `grace`: shutdown_grace;
        `env`: variables added to the daemon's environment."""
        self.dir, self.cfg = write_config(name, listen, extra, max_message, grace)
        self.log = open(os.path.join(self.dir, "log"), "w+")
        self.p = subprocess.Popen(list(wrap) + [CUZK, "daemon", "--config", self.cfg], stderr=self.log,
                                  env=dict(os.environ, **env) if env else None)
        DAEMONS.append(self)
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

    def http(self, path, headers=False, token=None):
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.http_port, path),
                                     headers={"Authorization": "Bearer " + token} if token is not None else {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                out = r.status, r.read().decode()
                h = dict(r.headers)
        except urllib.error.HTTPError as e:
            out = e.code, e.read().decode()
            h = dict(e.headers)
        return out + (h,) if headers else out

    def logtext(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

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


def idle(c, standing_bytes=0):
    """True when GetStatus shows no job, no partition in flight and no memory reserved but
    the a/b/c pool's free buffers (none in use), standing_bytes (charged for the daemon's
    lifetime: a GPU backend's pinned staging) and the HOT parameters (every circuit's, charged
    to the budget while resident)."""
    s = c.call("GetStatus", pb.GetStatusRequest())
    p = s.pipeline
    resident = sum(x.size_bytes for x in s.loaded_srs if x.tier == pb.SRSStatus.HOT)
    return (p.jobs_queued + p.jobs_synthesizing + p.jobs_proving + p.jobs_finishing + p.partitions_synthesizing +
            p.partitions_awaiting_send + p.partitions_queued + p.partitions_proving + p.partitions_pending_finish +
            p.permits_held + p.pool_in_use_bytes) == 0 and \
        p.memory_used_bytes == resident + p.pool_free_bytes + standing_bytes and \
        not s.queues


def wait_idle(c, secs=60, standing_bytes=0):
    end = time.time() + secs
    while time.time() < end:
        if idle(c, standing_bytes):
            return True
        time.sleep(0.1)
    return False


def gen_vanilla(bench, kind, *argv):
    """`cuzk-bench gen-vanilla KIND ARGV -o TMP/KIND.out`: (the output file's bytes, the JSON
    object it prints about the sealed sector)."""
    out = os.path.join(TMP, kind + ".out")
    p = subprocess.run([bench, "gen-vanilla", kind] + list(argv) + ["-o", out], capture_output=True, text=True,
                       check=True)
    with open(out, "rb") as f:
        return f.read(), json.loads(p.stdout)


def blobs(data):
    """gen-vanilla's --format blobs output (a JSON array of base64 strings) as a list of bytes:
    the vanilla proofs as Curio forwards them in SubmitProofRequest.vanilla_proofs."""
    return [base64.b64decode(x) for x in json.loads(data)]


class Fc2KiB:
    """Vanilla inputs of 2 KiB sectors sealed by `cuzk-bench gen-vanilla` (miner 1000, sector 1;
    WindowPoSt over sectors 1 and 2; randomness 32 bytes of 3) as Curio sends them, and a
    SubmitProofRequest of each Filecoin kind on them. Each proof is one partition (192 bytes)
    with the test-only parameters of tests/filecoin_e2e/gen_params.sh."""
    R = bytes([3] * 32)
    # kind -> (circuit id in GetStatus / EvictSRS, `cuzk params gen` circuit name)
    CIRCUITS = {"porep": ("porep-2k", "porep"), "winning": ("winning-2k", "winning-post"),
                "window": ("wpost-2k", "window-post"), "snap": ("snap-2k", "snap")}

    def __init__(self, bench):
        self.env, _ = gen_vanilla(bench, "porep", "--registered-proof", "5", "--format", "envelope")
        self.win = blobs(gen_vanilla(bench, "winning-post", "--registered-proof", "0", "--format", "blobs")[0])
        self.wdp = blobs(gen_vanilla(bench, "window-post", "--registered-proof", "10", "--sectors", "1,2",
                                     "--format", "blobs")[0])
        snap, sm = gen_vanilla(bench, "snap", "--registered-proof", "0", "--format", "blobs")
        self.snap_proofs = blobs(snap)
        self.commits = {k: bytes.fromhex(sm[k]) for k in ("comm_r_old", "comm_r_new", "comm_d_new")}

    def porep(self, rid=""):
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=self.env,
                                     miner_id=1000, sector_number=1, sector_size=2048)

    def winning(self, rid="", proofs=None):
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST, registered_proof=0,
                                     vanilla_proofs=self.win if proofs is None else proofs, miner_id=1000,
                                     randomness=self.R)

    def window(self, rid=""):
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
                                     vanilla_proofs=self.wdp, miner_id=1000, randomness=self.R)

    def snap(self, rid=""):
        return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE, registered_proof=0,
                                     vanilla_proofs=self.snap_proofs, **self.commits)

    def request(self, kind, rid=""):
        return getattr(self, kind)(rid)

    @staticmethod
    def params_file(kind, params):
        """Path of the .params file in the folder `params` that the 2 KiB circuit of `kind`
        reads, as `cuzk params gen` names it (the file must exist: --keep-existing)."""
        p = subprocess.run([CUZK, "params", "gen", Fc2KiB.CIRCUITS[kind][1], "--sector-size", "2KiB", "--out", params,
                            "--keep-existing"], capture_output=True, text=True, check=True)
        return json.loads(p.stdout)["params"]
