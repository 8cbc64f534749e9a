#!/usr/bin/python3
"""Transport security of `cuzk daemon` (issue 20): TLS and mutual TLS on a TCP listener with a
CA, server and client certificates made here with the openssl command; the bearer token
([daemon] auth_token_file) on gRPC (TCP with TLS and a unix socket) and on HTTP /status and
/metrics; a wrong, missing or differently long token refused with UNAUTHENTICATED / 401 and
the daemon serving on; clients that do not trust the server, or that present no or a foreign
client certificate, refused; the start-up warning for an exposed listener; bad TLS and token
settings refused at start naming the key; cuzk-bench --tls-ca / --tls-cert / --tls-key /
--token-file. The gRPC client is Python grpcio (an independent TLS stack's configuration of
the same .proto). Prints "N passed, N failed" and exits non-zero on any failure."""
import os, re, subprocess, sys

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check, run_daemon, write_config  # noqa: E402

args, pb = lib.main_args("cuzk-tls-test-")
TMP = lib.TMP


def path(name):
    return os.path.join(TMP, name)


def read(name):
    with open(path(name), "rb") as f:
        return f.read()


lib.make_ca(TMP, "ca")
lib.make_ca(TMP, "rogue-ca")
lib.make_cert(TMP, "server", "ca", "cuzk-test-server", "DNS:localhost,IP:127.0.0.1")
lib.make_cert(TMP, "client", "ca", "curio-node-1", client=True)
lib.make_cert(TMP, "rogue-client", "rogue-ca", "intruder", client=True)
TOKEN = "t0k3n-" + os.urandom(12).hex()
with open(path("token"), "w") as f:
    f.write(TOKEN + "\n")
os.chmod(path("token"), 0o600)
TLS = 'tls_cert = "%s"\ntls_key = "%s"\nauth_token_file = "%s"\n' % (path("server.crt"), path("server.key"),
                                                                   path("token"))
CA = grpc.ssl_channel_credentials(root_certificates=read("ca.crt"))


def synth(k=5, seed=1, rid=""):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.CIRCUIT,
                                 circuit=pb.CircuitInput(name="synthetic-%d" % k, seed=seed, partitions=1))


def code_of(c, name="GetStatus", req=None, timeout=20):
    return c.code(name, req if req is not None else pb.GetStatusRequest(), timeout)


# ---------------------------------------------------------------- TLS + token on TCP
d = Daemon("tls", "127.0.0.1:0", TLS)
log = d.logtext()
check("(TLS, token)" in log and "non-loopback" not in log, "serving line says TLS and token: %r" % log[-300:])
good = Client(d.target, CA, TOKEN)
check(good.call("GetStatus", pb.GetStatusRequest()).uptime_seconds >= 0, "GetStatus over TLS with the token")
r = good.call("Prove", pb.ProveRequest(submit=synth(6, 3, "tls-1"))).result
check(r.status == pb.AwaitProofResponse.COMPLETED and r.verified_partitions == 1 and len(r.proof) == 192,
      "Prove over TLS: %s" % r.status)
for what, token in [("missing", None), ("wrong", "x" + TOKEN[1:]), ("shorter", TOKEN[:-1]),
                    ("longer", TOKEN + "0"), ("empty", "")]:
    c = Client(d.target, CA, token)
    for name, req in (("GetStatus", pb.GetStatusRequest()), ("SubmitProof", synth(5, 1, "nope")),
                      ("CancelProof", pb.CancelProofRequest(job_id="tls-1"))):
        code, msg = code_of(c, name, req)
        check(code == grpc.StatusCode.UNAUTHENTICATED and "bearer token" in msg and TOKEN not in msg,
              "%s token, %s: %s %r" % (what, name, code, msg))
# Other metadata forms: the scheme is case-insensitive; a bare token or another scheme is not one.
for value, want in [("bearer " + TOKEN, grpc.StatusCode.OK), ("BEARER " + TOKEN, grpc.StatusCode.OK),
                    (TOKEN, grpc.StatusCode.UNAUTHENTICATED), ("Basic " + TOKEN, grpc.StatusCode.UNAUTHENTICATED),
                    ("Bearer  " + TOKEN, grpc.StatusCode.UNAUTHENTICATED)]:
    c = Client(d.target, CA)
    c.md = [("authorization", value)]
    check(code_of(c)[0] == want, "authorization %r -> %s" % (value.replace(TOKEN, "<token>"), want))
# An unknown method without the token: UNAUTHENTICATED (nothing about the service is told).
try:
    Client(d.target, CA).ch.unary_unary("/cuzk.v1.ProvingEngine/NoSuch", request_serializer=lambda b: b,
                                        response_deserializer=lambda b: b)(b"", timeout=20)
    code = grpc.StatusCode.OK
except grpc.RpcError as e:
    code = e.code()
check(code == grpc.StatusCode.UNAUTHENTICATED, "unknown method without token: %s" % code)
# The SubmitProof refused above never ran: no job "nope".
check(good.code("AwaitProof", pb.AwaitProofRequest(job_id="nope"))[0] == grpc.StatusCode.NOT_FOUND,
      "a refused SubmitProof created no job")
# A plain-text client and a client that trusts another CA get no connection; the daemon serves on.
check(code_of(Client(d.target, None, TOKEN), timeout=5)[0] == grpc.StatusCode.UNAVAILABLE, "plain text to TLS refused")
rogue = grpc.ssl_channel_credentials(root_certificates=read("rogue-ca.crt"))
check(code_of(Client(d.target, rogue, TOKEN), timeout=5)[0] == grpc.StatusCode.UNAVAILABLE,
      "client trusting another CA refused")
check(good.call("GetStatus", pb.GetStatusRequest()).total_proofs_completed == 1, "serving after refused clients")
# HTTP: /status and /metrics need the token, /healthz does not.
for p in ("/status", "/metrics"):
    code, body, hdrs = d.http(p, headers=True)
    check(code == 401 and hdrs.get("WWW-Authenticate") == "Bearer" and "completed" not in body,
          "%s without token: %s %s" % (p, code, hdrs))
    check(d.http(p, token="wrong")[0] == 401, "%s with a wrong token: 401" % p)
    code, body = d.http(p, token=TOKEN)
    check(code == 200 and ("total_completed" in body or "cuzk_" in body), "%s with the token: %s" % (p, code))
check(d.http("/healthz") == (200, "ok\n"), "/healthz without token")


def bench(*argv, timeout=120):
    p = subprocess.run([args.bench, "--addr"] + list(argv), capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


addr = "127.0.0.1:%d" % d.grpc_port
rc, out, err = bench(addr, "--tls-ca", path("ca.crt"), "--token-file", path("token"), "single", "--circuit",
                     "synthetic-5", "--partitions", "2")
check(rc == 0 and "status: COMPLETED" in out and "2 partition(s) verified" in out,
      "bench single over TLS with the token: %s %r %r" % (rc, out, err))
rc, out, err = bench(addr, "--tls-ca", path("ca.crt"), "status")
check(rc != 0 and "bearer token" in out + err, "bench without --token-file: %s %r %r" % (rc, out, err))
rc, out, err = bench(addr, "--token-file", path("token"), "status", timeout=60)
check(rc != 0 and "completed" not in out, "bench in plain text to TLS: %s %r" % (rc, out))
rc, out, err = bench(addr, "--tls-ca", path("ca.crt"), "--token-file", path("token"), "--tls-name", "other.example",
                     "status", timeout=60)
check(rc != 0 and "completed" not in out, "bench with a name the certificate lacks: %s %r" % (rc, out))
for argv, needle in [(["--tls-cert", path("client.crt"), "status"], "need --tls-ca"),
                     (["--tls-ca", path("ca.crt"), "--tls-cert", path("client.crt"), "status"], "go together"),
                     (["--tls-ca", path("nonexistent.crt"), "status"], "nonexistent.crt"),
                     (["--token-file", path("nonexistent"), "status"], "nonexistent"),
                     (["--token-file"], "needs a value")]:
    rc, out, err = bench(addr, *argv, timeout=30)
    check(rc == 2 and needle in err, "bench %s: %s %r" % (argv[:-1], rc, err))
rc, out, err = bench("--help")
check(rc == 0 and "--tls-ca" in out and "--token-file" in out, "bench --addr --help names the options")
check(d.stop() == 0, "TLS daemon stops")
check(TOKEN not in d.logtext(), "the token never appears in the log")

# ---------------------------------------------------------------- mutual TLS
d = Daemon("mtls", "127.0.0.1:0", TLS + 'tls_client_ca = "%s"\n' % path("ca.crt"))
check("(mutual TLS, token)" in d.logtext(), "serving line says mutual TLS")
mine = grpc.ssl_channel_credentials(read("ca.crt"), read("client.key"), read("client.crt"))
c = Client(d.target, mine, TOKEN)
r = c.call("Prove", pb.ProveRequest(submit=synth(5, 8, "mtls-1"))).result
check(r.status == pb.AwaitProofResponse.COMPLETED, "Prove over mutual TLS")
check(code_of(Client(d.target, mine, None))[0] == grpc.StatusCode.UNAUTHENTICATED, "mTLS still needs the token")
check(code_of(Client(d.target, CA, TOKEN), timeout=5)[0] == grpc.StatusCode.UNAVAILABLE,
      "no client certificate refused")
foreign = grpc.ssl_channel_credentials(read("ca.crt"), read("rogue-client.key"), read("rogue-client.crt"))
check(code_of(Client(d.target, foreign, TOKEN), timeout=5)[0] == grpc.StatusCode.UNAVAILABLE,
      "client certificate of another CA refused")
addr = "127.0.0.1:%d" % d.grpc_port
rc, out, err = bench(addr, "--tls-ca", path("ca.crt"), "--tls-cert", path("client.crt"), "--tls-key",
                     path("client.key"), "--token-file", path("token"), "status")
check(rc == 0 and "completed: 1" in out, "bench over mutual TLS: %s %r %r" % (rc, out, err))
check(c.call("GetStatus", pb.GetStatusRequest()).uptime_seconds >= 0, "serving after refused handshakes")
check(d.stop() == 0, "mTLS daemon stops")

# ---------------------------------------------------------------- token on a unix socket
sock = path("run/cuzk.sock")
d = Daemon("unixtoken", "unix://" + sock, 'auth_token_file = "%s"\n' % path("token"))
check(code_of(Client(d.target))[0] == grpc.StatusCode.UNAUTHENTICATED, "unix socket: no token refused")
check(Client(d.target, None, TOKEN).call("GetStatus", pb.GetStatusRequest()).uptime_seconds >= 0,
      "unix socket: token accepted")
check(d.stop() == 0, "unix token daemon stops")

# ---------------------------------------------------------------- start-up warnings
for what, listen, extra, warned in [
        ("0.0.0.0 plain, no token", "0.0.0.0:0", "", True),
        ("0.0.0.0 with token", "0.0.0.0:0", 'auth_token_file = "%s"\n' % path("token"), False),
        ("0.0.0.0 with TLS", "0.0.0.0:0", 'tls_cert = "%s"\ntls_key = "%s"\n' % (path("server.crt"),
                                                                                 path("server.key")), False),
        ("127.0.0.1 plain", "127.0.0.1:0", "", False)]:
    d = Daemon("warn", listen, extra)
    log = d.logtext()
    check(("gRPC listens on %s, a non-loopback address" % listen in log) == warned,
          "warning for %s: %s" % (what, warned))
    d.stop()
folder, cfg = write_config("httpwarn", "127.0.0.1:0")
with open(cfg) as f:
    text = f.read().replace('status_listen = "127.0.0.1:0"', 'status_listen = "0.0.0.0:0"')
with open(cfg, "w") as f:
    f.write(text)
p = subprocess.Popen([args.cuzk, "daemon", "--config", cfg], stderr=subprocess.PIPE, text=True)
line, seen = "", ""
while "serving" not in line and p.poll() is None:
    line = p.stderr.readline()
    seen += line
p.terminate()
p.wait(30)
check("HTTP status listens on 0.0.0.0:0, a non-loopback address, without a token" in seen,
      "warning for an exposed HTTP status listener: %r" % seen)

# ---------------------------------------------------------------- bad settings refused at start
with open(path("empty-token"), "w") as f:
    f.write("\n \n")
with open(path("spaced-token"), "w") as f:
    f.write("two words\n")
with open(path("garbage.crt"), "w") as f:
    f.write("not a certificate\n")
for what, extra, needles in [
        ("cert without key", 'tls_cert = "%s"\n' % path("server.crt"), ["tls_cert is set but tls_key is not"]),
        ("key without cert", 'tls_key = "%s"\n' % path("server.key"), ["tls_key is set but tls_cert is not"]),
        ("client CA without TLS", 'tls_client_ca = "%s"\n' % path("ca.crt"), ["tls_client_ca", "mutual TLS needs"]),
        ("key of another certificate", 'tls_cert = "%s"\ntls_key = "%s"\n' % (path("server.crt"), path("client.key")),
         ["does not match", "client.key"]),
        ("garbage certificate", 'tls_cert = "%s"\ntls_key = "%s"\n' % (path("garbage.crt"), path("server.key")),
         ["tls_cert", "garbage.crt", "no PEM certificate"]),
        ("missing certificate", 'tls_cert = "%s"\ntls_key = "%s"\n' % (path("nonexistent.crt"), path("server.key")),
         ["tls_cert", "nonexistent.crt"]),
        ("garbage client CA", TLS + 'tls_client_ca = "%s"\n' % path("garbage.crt"), ["tls_client_ca", "garbage.crt"]),
        ("missing token file", 'auth_token_file = "%s"\n' % path("nonexistent"), ["auth_token_file", "nonexistent"]),
        ("empty token file", 'auth_token_file = "%s"\n' % path("empty-token"), ["empty-token", "is empty"]),
        ("token with a space", 'auth_token_file = "%s"\n' % path("spaced-token"), ["spaced-token", "visible ASCII"])]:
    folder, cfg = write_config("bad", "127.0.0.1:0", extra)
    rc, err = run_daemon(["--config", cfg])
    check(rc == 2 and all(n in err for n in needles) and "serving" not in err,
          "refused at start, %s: rc %s %r" % (what, rc, err[-400:]))
os.chmod(path("token"), 0o644)
d = Daemon("worldreadable", "127.0.0.1:0", 'auth_token_file = "%s"\n' % path("token"))
check("is readable by every user" in d.logtext(), "warning for a world-readable token file")
d.stop()

lib.summary()
