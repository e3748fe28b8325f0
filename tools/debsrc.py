#!/usr/bin/env python3
"""Fetches a Debian source package from apt's own mirror, checks it and unpacks it.

Dependencies that Myrmex builds from source (PostMark for the file benchmarks,
lwIP for the TCP/IP server) come from Debian's source packages at build time,
never from copies in the repository. The mirror is the one apt already uses:
the pool folder is taken from the URI apt prints for one of the package's
binary packages, so no mirror is named here and no deb-src line is needed.
Every file the .dsc lists is checked against its SHA-256 before
dpkg-source unpacks it.

    tools/debsrc.py BINARY_PACKAGE CACHE_DIR     prints the unpacked tree's path
"""
import glob
import hashlib
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request


class DebSrcError(Exception):
    """The source cannot be had (no apt lists, no network, a bad checksum...)."""


def run(cmd, cwd=None):
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if res.returncode != 0:
        raise DebSrcError("%s: %s" % (" ".join(cmd), (res.stderr or res.stdout).strip()[-800:]))
    return res.stdout


def apt_show(binary):
    """apt-cache show's text; apt's lists are fetched first (as root) when a
    fresh machine has none."""
    try:
        return run(["apt-cache", "show", binary])
    except DebSrcError:
        if os.geteuid() != 0:
            raise DebSrcError("apt-cache show %s failed: run apt-get update as root" % binary)
        print("debsrc: apt-get update (no package lists yet)", file=sys.stderr)
        run(["apt-get", "update", "-qq"])
        return run(["apt-cache", "show", binary])


def source_of(binary):
    """(source package, version) of a binary package, from apt's lists."""
    text = apt_show(binary)
    name, version = binary, None
    for line in text.splitlines():
        m = re.match(r"Source:\s*(\S+)(?:\s*\((\S+)\))?", line)
        if m:
            name = m.group(1)
            version = m.group(2) or version
        elif line.startswith("Version:") and version is None:
            version = line.split()[1].split("+b")[0]
        elif not line.strip() and version:
            break
    if not version:
        raise DebSrcError("apt-cache show %s: no version (run apt-get update)" % binary)
    if ":" in version:   # an epoch is not part of the file names
        version = version.split(":", 1)[1]
    return name, version


def pool_url(binary):
    """The pool folder of the package on apt's mirror."""
    text = run(["apt-get", "download", "--print-uris", binary])
    m = re.search(r"'([^']+)'", text)
    if not m:
        raise DebSrcError("apt-get download --print-uris %s printed no URI" % binary)
    return m.group(1).rsplit("/", 1)[0] + "/"


def fetch(url, dest):
    with urllib.request.urlopen(url, timeout=60) as r, open(dest + ".part", "wb") as f:
        f.write(r.read())
    os.replace(dest + ".part", dest)


def dsc_files(dsc_text):
    """[(name, sha256)] of a .dsc's Checksums-Sha256 field."""
    files, inside = [], False
    for line in dsc_text.splitlines():
        if line.startswith("Checksums-Sha256:"):
            inside = True
        elif inside and line.startswith(" "):
            digest, _size, name = line.split()
            files.append((name, digest))
        elif inside:
            break
    if not files:
        raise DebSrcError("the .dsc lists no Checksums-Sha256 files")
    return files


def source_tree(binary, cache, marker):
    """The unpacked source of binary's source package under cache: the
    folder holding a file matching marker (a glob relative to the tree),
    fetched and checked the first time."""
    def found():
        hits = sorted(glob.glob(os.path.join(cache, "*", marker)))
        return hits[-1] if hits else None

    hit = found()
    if hit:
        return hit
    os.makedirs(cache, exist_ok=True)
    name, version = source_of(binary)
    pool = pool_url(binary)
    dsc = "%s_%s.dsc" % (name, version)
    print("debsrc: fetching %s from apt's mirror" % dsc, file=sys.stderr)
    fetch(pool + urllib.parse.quote(dsc), os.path.join(cache, dsc))
    with open(os.path.join(cache, dsc), encoding="utf-8") as f:
        files = dsc_files(f.read())
    for fname, digest in files:
        path = os.path.join(cache, fname)
        fetch(pool + urllib.parse.quote(fname), path)
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != digest:
                raise DebSrcError("%s: SHA-256 does not match the .dsc" % fname)
    run(["dpkg-source", "--no-check", "-x", dsc], cwd=cache)
    hit = found()
    if not hit:
        raise DebSrcError("no %s in the unpacked source under %s" % (marker, cache))
    return hit


def main(argv):
    if len(argv) not in (3, 4):
        print("usage: debsrc.py BINARY_PACKAGE CACHE_DIR [MARKER_GLOB]", file=sys.stderr)
        return 2
    marker = argv[3] if len(argv) == 4 else "debian/control"
    try:
        hit = source_tree(argv[1], argv[2], marker)
    except (DebSrcError, OSError) as e:
        print("debsrc: %s" % e, file=sys.stderr)
        return 1
    tree = hit
    for _ in range(marker.count("/") + 1):
        tree = os.path.dirname(tree)
    print(tree)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
