#!/usr/bin/env python3
"""Builds lwIP for the TCP/IP server from Debian's source package.

    tools/build_lwip.py [--ar AR] OUT_DIR CC PORT_DIR [CFLAGS...]

Fetches Debian's lwip source (tools/debsrc.py: apt's mirror, checked against
the .dsc) into OUT_DIR/src once, compiles the parts the server uses (the
core, IPv4, Ethernet; no sockets, netconn or IPv6) with CC, lwIP's own
headers and the server's configuration in PORT_DIR (lwipopts.h, arch/cc.h),
and writes OUT_DIR/liblwip.a and OUT_DIR/include (a link to lwIP's headers).
Nothing of lwIP is kept in the repository. --ar names the archiver (the
SH-4 build passes sh4-linux-gnu-ar, whose symbol index knows SH-4 objects;
the default is the host's ar).
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debsrc  # noqa: E402

SOURCES = ["src/core/*.c", "src/core/ipv4/*.c", "src/netif/ethernet.c"]
SKIP = {"altcp.c", "altcp_alloc.c", "altcp_tcp.c", "dns.c"}


def main(argv):
    ar = "ar"
    if len(argv) > 2 and argv[1] == "--ar":
        ar = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    out, cc, port, cflags = argv[1], argv[2], argv[3], argv[4:]
    try:
        hit = debsrc.source_tree("liblwip-dev", os.path.join(out, "src"), "src/core/tcp.c")
    except (debsrc.DebSrcError, OSError) as e:
        print("build_lwip: lwIP's source cannot be had: %s" % e, file=sys.stderr)
        return 1
    tree = os.path.dirname(os.path.dirname(os.path.dirname(hit)))
    include = os.path.join(tree, "src", "include")
    objdir = os.path.join(out, "obj")
    os.makedirs(objdir, exist_ok=True)
    objects = []
    for pattern in SOURCES:
        for src in sorted(glob.glob(os.path.join(tree, pattern))):
            if os.path.basename(src) in SKIP:
                continue
            obj = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            cmd = [cc] + cflags + ["-w", "-I" + port, "-I" + include, "-c", src, "-o", obj]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                print("build_lwip: %s\n%s" % (" ".join(cmd), res.stderr), file=sys.stderr)
                return 1
            objects.append(obj)
    lib = os.path.join(out, "liblwip.a")
    if os.path.exists(lib):
        os.remove(lib)
    subprocess.run([ar, "rcs", lib] + objects, check=True)
    link = os.path.join(out, "include")
    if os.path.islink(link):
        os.remove(link)
    os.symlink(os.path.abspath(include), link)
    print("build_lwip: %s from %s (%d files)" % (lib, os.path.relpath(tree), len(objects)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
