#!/usr/bin/python3
"""`cuzk daemon` as a service (issue 20): the sd_notify protocol read from a NOTIFY_SOCKET
of our own (READY=1 once serving, RELOADING=1 / READY=1 around SIGHUP, STOPPING=1 at
SIGTERM); SIGPIPE, SIGUSR1 and SIGUSR2 never end it; SIGHUP applies a new log level, names a
changed listen, keeps the running config when the file no longer parses, reopens [logging]
file after a rotation and reads auth_token_file again; `--check-config` (good and bad
configurations, the prover backend opened as the daemon would, a missing param_cache a
warning in the verdict, Filecoin parameter files found by their published manifest names); `make
install` into a DESTDIR (binaries, unit with the prefix's paths, sysusers.d entry, the
configuration kept on reinstall). Prints "N passed, N failed"; exits non-zero on failure."""
import os, re, signal, socket, subprocess, sys, time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_lib as lib  # noqa: E402
from daemon_lib import Client, Daemon, check, run_daemon, write_config  # noqa: E402

args, pb = lib.main_args("cuzk-service-test-")
TMP = lib.TMP
os.environ.pop("FIL_PROOFS_PARAMETER_CACHE", None)  # param_cache below must be the one in effect
SRC = os.path.dirname(args.proto)


def path(name):
    return os.path.join(TMP, name)


def write(p, text):
    with open(p, "w") as f:
        f.write(text)


def wait_for(pred, secs=30):
    end = time.time() + secs
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def status_ok(c):
    try:
        return c.call("GetStatus", pb.GetStatusRequest(), timeout=10).uptime_seconds >= 0
    except grpc.RpcError:
        return False


# ---------------------------------------------------------------- sd_notify and signals
ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
ns.bind(path("notify"))
ns.settimeout(30)


def notes():
    """The next datagram on the notify socket, as its list of lines ([] after 30 s)."""
    try:
        return ns.recv(4096).decode().split("\n")
    except socket.timeout:
        return []


d = Daemon("notify", "127.0.0.1:0", env={"NOTIFY_SOCKET": path("notify")})
c = Client(d.target)
m = notes()
check("READY=1" in m and "MAINPID=%d" % d.p.pid in m and "STATUS=serving on 127.0.0.1:0 (plain)" in m,
      "READY=1 with MAINPID and STATUS: %s" % m)
for sig in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGPIPE):
    d.p.send_signal(sig)
    time.sleep(0.3)
    check(d.p.poll() is None and status_ok(c), "%s does not end the daemon" % signal.Signals(sig).name)
with open(d.cfg) as f:
    base = f.read()
write(d.cfg, base + '[logging]\nlevel = "debug"\n')
d.p.send_signal(signal.SIGHUP)
m1, m2 = notes(), notes()
check(m1[:1] == ["RELOADING=1"] and "READY=1" in m2, "SIGHUP: RELOADING=1 then READY=1: %s %s" % (m1, m2))
check(d.p.poll() is None and status_ok(c), "serving after SIGHUP")
check("SIGHUP: reloaded (log level debug" in d.logtext(), "SIGHUP applied logging.level: %r" % d.logtext()[-300:])
write(d.cfg, base.replace('listen = "127.0.0.1:0"', 'listen = "127.0.0.1:1"'))
d.p.send_signal(signal.SIGHUP)
notes(), notes()
check("SIGHUP: [daemon] listen changed, needs a restart" in d.logtext() and status_ok(c),
      "SIGHUP names a changed listen and keeps serving")
check("log level info" in d.logtext().split("SIGHUP: reloaded")[-1], "level back to info with the key removed")
# every changed key that needs a restart is named (not only the string ones), unchanged ones not
before = len(d.logtext())
check('shutdown_grace = "2s"' in base and "[memory]" not in base and "[logging]" not in base, "base config")
write(d.cfg, base.replace('shutdown_grace = "2s"', 'shutdown_grace = "7s"') + '[memory]\ntotal_budget = "3GiB"\n'
      '[synthesis]\npartition_workers = 3\n[logging]\nformat = "json"\n')
d.p.send_signal(signal.SIGHUP)
notes(), notes()
log = d.logtext()[before:]
named = sorted(set(re.findall(r"SIGHUP: (\[[a-z]+\] [a-z_]+) changed, needs a restart", log)))
want = ["[daemon] shutdown_grace", "[logging] format", "[memory] total_budget", "[synthesis] partition_workers"]
check(named == sorted(want) and "SIGHUP: reloaded" in log, "SIGHUP names exactly the changed keys: %r" % log)
before = len(d.logtext())
write(d.cfg, base + "[daemon\nbroken = \n")
d.p.send_signal(signal.SIGHUP)
notes(), notes()
log = d.logtext()
check("does not load (above); the running configuration stays" in log and d.cfg in log and status_ok(c),
      "SIGHUP with a broken config keeps the running one: %r" % log[-400:])
check("SIGHUP: reloaded" not in log[before:] and "changed, needs a restart" not in log[before:],
      "a failed reload does not say reloaded: %r" % log[before:])
write(d.cfg, base)
d.p.send_signal(signal.SIGTERM)
m = notes()
check("STOPPING=1" in m, "SIGTERM: STOPPING=1: %s" % m)
check(d.p.wait(30) == 0, "exit 0 after SIGTERM")

# ---------------------------------------------------------------- [logging] file and rotation
logf = path("cuzk.log")
folder, cfg = write_config("logfile", "127.0.0.1:0", '[logging]\nfile = "%s"\n' % logf)
early = open(path("early-stderr"), "w+")
p = subprocess.Popen([args.cuzk, "daemon", "--config", cfg], stderr=early)
lib.DAEMONS.append(type("D", (), {"p": p, "log": early})())


def logged(f, needle):
    try:
        with open(f) as h:
            return needle in h.read()
    except OSError:
        return False


check(wait_for(lambda: logged(logf, "grpc_port=")), "log written to [logging] file")
with open(logf) as h:
    port = int(re.search(r"grpc_port=(\d+)", h.read()).group(1))
c = Client("127.0.0.1:%d" % port)
os.rename(logf, logf + ".1")
p.send_signal(signal.SIGHUP)
check(wait_for(lambda: logged(logf, "SIGHUP: reloaded")), "SIGHUP reopened the log file after rotation")
check(logged(logf + ".1", "serving") and not logged(logf + ".1", "SIGHUP"), "the rotated file kept the earlier lines")
check(status_ok(c), "serving after the log rotation")
p.send_signal(signal.SIGTERM)
check(p.wait(30) == 0 and logged(logf, "stopped"), "shutdown logged to the new file")
early.seek(0)
check("serving" not in early.read(), "nothing after start-up on the inherited stderr")

# ---------------------------------------------------------------- SIGHUP reads the token again
tok = path("token")
write(tok, "first-token\n")
d = Daemon("token", "127.0.0.1:0", 'auth_token_file = "%s"\n' % tok)
check(status_ok(Client(d.target, None, "first-token")), "first token accepted")
write(tok, "second-token\n")
d.p.send_signal(signal.SIGHUP)
check(wait_for(lambda: "token read again" in d.logtext()), "SIGHUP read the token file")
check(Client(d.target, None, "first-token").code("GetStatus", pb.GetStatusRequest())[0] ==
      grpc.StatusCode.UNAUTHENTICATED and status_ok(Client(d.target, None, "second-token")),
      "after SIGHUP the new token is the one accepted")
write(tok, "\n")
d.p.send_signal(signal.SIGHUP)
check(wait_for(lambda: "the previous token stays" in d.logtext()), "an emptied token file is reported")
check(status_ok(Client(d.target, None, "second-token")), "the previous token stays in force")
check("first-token" not in d.logtext() and "second-token" not in d.logtext(), "no token in the log")
check(d.stop() == 0, "token daemon stops")

# ---------------------------------------------------------------- --check-config
# The published manifest name (rust-fil-proofs parameters.json) of the 2 KiB PoRep parameters.
POREP_2K = ("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f")
params = path("params")
os.makedirs(params)
busy = socket.socket()
busy.bind(("127.0.0.1", 0))
busy.listen()
good = '[srs]\nparam_cache = "%s"\n' % params
folder, cfg = write_config("check", "127.0.0.1:%d" % busy.getsockname()[1], good)
rc, err = run_daemon(["--check-config", "--config", cfg])
check(rc == 0 and "config %s: OK" % cfg in err and "0 Filecoin parameter set(s)" in err and "serving" not in err,
      "--check-config of a good config (its port in use: nothing binds): rc %s %r" % (rc, err[-400:]))
write(os.path.join(params, POREP_2K + ".params"), "")
rc, err = run_daemon(["--check-config", "--config", cfg])
check(rc == 2 and "porep-2k" in err and POREP_2K + ".vk does not" in err,
      ".params without .vk refused: rc %s %r" % (rc, err[-400:]))
write(os.path.join(params, POREP_2K + ".vk"), "")
rc, err = run_daemon(["--check-config", "--config", cfg])
check(rc == 0 and "1 Filecoin parameter set(s): porep-2k" in err, "parameter set found by its name: %r" % err[-300:])
folder, cfg2 = write_config("check2", "127.0.0.1:0", '[srs]\nparam_cache = "%s"\n' % path("nonexistent"))
rc, err = run_daemon(["--check-config", "--config", cfg2])
check(rc == 0 and "is not a directory: no Filecoin proof can run" in err and
      "config %s: OK, but [srs] param_cache is not a directory (above)" % cfg2 in err,
      "missing param_cache warned, in the verdict line too: %r" % err[-300:])
# the backend the daemon would open: [gpus] backend = "cuda" without a CUDA device is refused
# by the daemon (exit 2) and so by --check-config
gpu_info = subprocess.run([args.cuzk, "gpu-info"], capture_output=True, text=True).stdout
if "cuda: no device" in gpu_info:
    folder, cfg4 = write_config("cuda", "127.0.0.1:0", '[gpus]\nbackend = "cuda"\n')
    rc, err = run_daemon(["--config", cfg4])
    check(rc == 2 and "backend cuda: no device" in err, "the daemon refuses backend cuda: rc %s %r" % (rc, err[-300:]))
    rc, err = run_daemon(["--check-config", "--config", cfg4])
    check(rc == 2 and "[gpus] backend cuda: no device" in err and ": OK" not in err,
          "--check-config refuses backend cuda without a device: rc %s %r" % (rc, err[-300:]))
else:
    print("SKIP: a CUDA device is present: backend cuda opens")
folder, cfg4 = write_config("cpu", "127.0.0.1:0", '[gpus]\nbackend = "cpu"\n')
rc, err = run_daemon(["--check-config", "--config", cfg4])
check(rc == 0 and "prover backend: cpu" in err, "--check-config names the backend it opened: %r" % err[-300:])
# the engine the daemon would start over that backend: its memory budget (a safety_margin
# above any host's MemTotal) and, on an OpenCL device, the backend's pinned staging charged
# to it (1 TiB a worker) are refused by the daemon (exit 2) and so by --check-config
refusals = [("safety_margin above MemTotal", '[gpus]\nbackend = "cpu"\n[memory]\nsafety_margin = "100TiB"\n',
             "safety_margin 109951162777600 bytes leaves no budget")]
if re.search(r"^opencl: .*device", gpu_info, re.M) and "opencl: no device" not in gpu_info:
    refusals.append(("1 TiB of pinned staging", '[gpus]\nbackend = "opencl"\nstaging_buffer = "1TiB"\n',
                     "[gpus] staging_buffer 1099511627776) does not fit the host memory budget"))
    # 16 workers x 2^60 bytes is 2^64: the product must not wrap to 0 (nothing charged)
    refusals.append(("16 x 2^60 bytes of pinned staging",
                     '[gpus]\nbackend = "opencl"\nstaging_buffer = 1152921504606846976\ngpu_workers_per_device = 16\n',
                     "pinned staging of more than 18446744073709551615 bytes"))
else:
    print("SKIP: no OpenCL device: the staging_buffer refusal is not checked")
for what, extra, needle in refusals:
    folder, cfg5 = write_config("engine", "127.0.0.1:0", extra)
    rc, err = run_daemon(["--config", cfg5])
    check(rc == 2 and needle in err, "the daemon refuses %s: rc %s %r" % (what, rc, err[-400:]))
    rc, err = run_daemon(["--check-config", "--config", cfg5])
    check(rc == 2 and "config: cannot start the engine: " in err and needle in err and ": OK" not in err,
          "--check-config refuses %s: rc %s %r" % (what, rc, err[-400:]))
for what, extra, needles in [
        ("unknown key", "bogus = 1\n", ["%s:6: daemon.bogus: unknown key"]),
        ("missing circuit file", '[[circuits]]\nname = "x"\nr1cs = "/nonexistent/x.r1cs"\nzkey = "/nonexistent/x.zkey"\n',
         ["/nonexistent/x.r1cs"]),
        ("TLS key without certificate", 'tls_key = "%s"\n' % tok, ["tls_key is set but tls_cert is not"]),
        ("unwritable log file", '[logging]\nfile = "/nonexistent/dir/cuzk.log"\n', ["/nonexistent/dir/cuzk.log"]),
        ("cache_dir a regular file", '[srs]\ncache_dir = "%s"\n' % tok, ["[srs] cache_dir %s is not a directory" % tok])]:
    folder, cfg3 = write_config("bad", "127.0.0.1:0", extra)
    rc, err = run_daemon(["--check-config", "--config", cfg3])
    check(rc == 2 and all((n % cfg3 if "%s" in n else n) in err for n in needles) and "OK" not in err,
          "--check-config refuses %s: rc %s %r" % (what, rc, err[-400:]))
busy.close()

# ---------------------------------------------------------------- make install
if args.build:
    root = path("root")
    env = dict(os.environ, DESTDIR=root)
    r = subprocess.run(["cmake", "--install", args.build, "--prefix", "/usr"], env=env, capture_output=True, text=True)
    check(r.returncode == 0, "cmake --install into DESTDIR: %s %r" % (r.returncode, r.stderr[-400:]))
    for b in ("cuzk", "cuzk-bench"):
        f = os.path.join(root, "usr/bin", b)
        check(os.access(f, os.X_OK), "installed %s" % f)
    r = subprocess.run([os.path.join(root, "usr/bin/cuzk"), "daemon", "--help"], capture_output=True, text=True)
    check(r.returncode == 0 and "--check-config" in r.stdout, "installed cuzk runs")
    unit_path = os.path.join(root, "usr/lib/systemd/system/cuzk.service")
    unit = open(unit_path).read() if os.path.exists(unit_path) else ""
    keys = dict(ln.split("=", 1) for ln in unit.splitlines() if "=" in ln and not ln.startswith("#"))
    check(keys.get("Type") == "notify" and keys.get("ExecStart") == "/usr/bin/cuzk daemon --config /etc/cuzk/cuzk.toml"
          and keys.get("ExecStartPre") == "/usr/bin/cuzk daemon --check-config --config /etc/cuzk/cuzk.toml"
          and keys.get("LimitMEMLOCK") == "infinity" and keys.get("Restart") == "on-failure"
          and keys.get("User") == "cuzk" and keys.get("Group") == "curio" and "-HUP" in keys.get("ExecReload", "")
          and "@" not in unit, "unit file: %s" % keys)
    sysusers = os.path.join(root, "usr/lib/sysusers.d/cuzk.conf")
    check(os.path.exists(sysusers) and re.search(r"^u cuzk ", open(sysusers).read(), re.M), "sysusers.d entry")
    conf = os.path.join(root, "etc/cuzk/cuzk.toml")
    example = open(os.path.join(SRC, "config/cuzk.example.toml")).read()
    check(os.path.exists(conf) and open(conf).read() == example, "example config installed as /etc/cuzk/cuzk.toml")
    rc, err = run_daemon(["--check-config", "--config", conf])
    check(rc == 0, "the installed config passes --check-config: %r" % err[-300:])
    write(conf, example + "\n# edited\n")
    r = subprocess.run(["cmake", "--install", args.build, "--prefix", "/usr"], env=env, capture_output=True, text=True)
    check(r.returncode == 0 and open(conf).read().endswith("# edited\n"), "reinstall keeps an edited config")
    r = subprocess.run(["cmake", "--install", args.build, "--prefix", "/opt/cuzk"], env=env, capture_output=True,
                       text=True)
    unit = open(os.path.join(root, "opt/cuzk/lib/systemd/system/cuzk.service")).read()
    check(r.returncode == 0 and "ExecStart=/opt/cuzk/bin/cuzk daemon --config /opt/cuzk/etc/cuzk/cuzk.toml" in unit
          and os.path.exists(os.path.join(root, "opt/cuzk/etc/cuzk/cuzk.toml")), "PREFIX=/opt/cuzk paths")
    r = subprocess.run(["make", "-n", "-o", "all", "-C", SRC, "install", "BUILD=" + args.build, "PREFIX=/p", "DESTDIR=/d"],
                       capture_output=True, text=True)
    check('DESTDIR="/d" cmake --install %s --prefix "/p"' % args.build in r.stdout,
          "make install passes PREFIX and DESTDIR: %r" % r.stdout[-300:])

lib.summary()
