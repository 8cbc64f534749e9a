#!/usr/bin/env python3
"""Citations inside the repository.

Usage: check_citations.py ROOT

Every source, test and tool file under ROOT (src, tools, tests, proto, fuzz, bench, config,
README.md) must cite the upstream code or a page of ROOT/docs, never notes kept outside the
repository: no file names of the working notes (filecoin-circuits.md, filecoin-vanilla.md,
cuzk-reference.md, shared/reference) and no bare section signs, except after a published
work (an RFC, a paper, a manual). Every docs/NAME.md[#anchor] a file cites must exist, and
the anchor must be a heading of that page (GitHub's heading slugs).

Prints one line per offence (path:line: reason) and exits 1 if there is any, 0 otherwise.
"""
import os
import re
import sys

SCAN = ["src", "tools", "tests", "proto", "fuzz", "bench", "config", "README.md"]
SKIP_DIRS = {"node_modules", ".git"}
HERE = os.path.dirname(os.path.abspath(__file__))  # this checker and its self-test
NOTES = re.compile(r"filecoin-circuits\.md|filecoin-vanilla\.md|cuzk-reference\.md|shared/reference")
SECTION = re.compile("\u00a7")
# A section sign is fine right after a published work: "RFC 4648 §4", "(EUROCRYPT 2011) §3",
# "INDOCRYPT 2012, §4", "Aranha et al. 2011 §4", "Intel SDM vol. 1 §15.2", "3rd ed., §30.3".
PUBLISHED = re.compile(r"(RFC \d+|\(?(EUROCRYPT|INDOCRYPT|CRYPTO|ASIACRYPT) \d{4}\)?,?|et al\. \d{4},?"
                       r"|SDM vol\. \d+|\d+(st|nd|rd|th) ed\.,) \u00a7")
DOC_REF = re.compile(r"docs/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]*)?")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#+\s+(.*)", line)
            if m:
                out.add(slug(m.group(1)))
    return out


def files(root):
    for top in SCAN:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield p
        for d, dirs, names in os.walk(p):
            dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
            for n in names:
                yield os.path.join(d, n)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    docs = os.path.join(root, "docs")
    cache = {}
    bad = 0
    for path in files(root):
        if os.path.dirname(os.path.abspath(path)) == HERE:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary fixtures
        rel = os.path.relpath(path, root)
        for no, line in enumerate(text.split("\n"), 1):
            if NOTES.search(line):
                print(f"{rel}:{no}: cites working notes outside the repository: {line.strip()}")
                bad += 1
            if SECTION.search(line) and len(SECTION.findall(line)) > len(PUBLISHED.findall(line)):
                print(f"{rel}:{no}: section sign without a published work: {line.strip()}")
                bad += 1
            for m in DOC_REF.finditer(line):
                page = os.path.join(docs, m.group(1))
                if not os.path.isfile(page):
                    print(f"{rel}:{no}: no page docs/{m.group(1)}")
                    bad += 1
                    continue
                if m.group(2):
                    if page not in cache:
                        cache[page] = anchors(page)
                    if m.group(2)[1:] not in cache[page]:
                        print(f"{rel}:{no}: docs/{m.group(1)} has no heading {m.group(2)}")
                        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
