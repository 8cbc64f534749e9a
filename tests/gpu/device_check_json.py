"""The JSON side of tests/gpu/device-check.sh, in Python 3 alone (a bare GPU image has no jq):

  device_check_json.py has-devices RUNTIME < gpu-info.json
      exit 0 when `cuzk gpu-info --json` lists a device of RUNTIME, else 1
  device_check_json.py rows RUNTIME < bench.json
      the rows of one `cuzk-bench gpu ... --json` object (its last stdout line), one JSON
      object a line, each with "runtime" and the object's "peak_rss_bytes" added; exit 1 when
      the input holds no such object
  device_check_json.py table GPUS TESTS ROWS SECONDS
      the script's one JSON object {"gpus", "tests", "rows", "seconds"} from the gpu-info file
      and the two JSON-lines files; exit 0 when every test and row has "ok": true, else 1
"""
import json
import sys


def last_object(text):
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "has-devices" and len(argv) == 3:
        g = json.load(sys.stdin)
        return 0 if any(r.get("runtime") == argv[2] and r.get("devices") for r in g.get("runtimes", [])) else 1
    if cmd == "rows" and len(argv) == 3:
        o = last_object(sys.stdin.read())
        if not isinstance(o, dict) or not isinstance(o.get("rows"), list):
            return 1
        for r in o["rows"]:
            r["runtime"] = argv[2]
            r["peak_rss_bytes"] = o.get("peak_rss_bytes")
            print(json.dumps(r, separators=(",", ":")))
        return 0
    if cmd == "table" and len(argv) == 6:
        with open(argv[2], encoding="utf-8") as f:
            gpus = json.load(f)
        tests, rows = lines(argv[3]), lines(argv[4])
        out = {"gpus": gpus, "tests": tests, "rows": rows, "seconds": int(argv[5])}
        print(json.dumps(out, indent=2))
        return 0 if all(t.get("ok") for t in tests) and all(r.get("ok") for r in rows) else 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
