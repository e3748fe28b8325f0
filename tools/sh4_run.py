#!/usr/bin/env python3
"""Boots the SH-4 port on QEMU's r2d board (qemu-system-sh4 -M r2d) and
follows its console, the SCIF (QEMU's second serial port). The board's
RTL8139 (PCI slot 2) gets the MAC --mac and QEMU's user network with
restrict=on: what the guest sends never leaves QEMU, but for a TCP
connection to 10.0.2.100:7, which QEMU hands to tools/inet_peer.py (a
process of its own on this machine, peer_forward). Its CF slot gets a
fresh 4 MiB pattern image (cf_image: tools/mkpattern.py's, which
tests/sh4/t_cf and tests/kernel/t_disk check), attached with snapshot=on:
the guest's writes never reach the file (--cf IMAGE: that image, written in
place, for the file-system boot). The r2d has no
exit device: the kernel's arch_poweroff prints "MYRMEX-POWEROFF <code>",
on which this stops QEMU. `run` shows the console; `test` also checks the
test init's summary ("sh4: N passed, N failed") and that nothing panicked,
and exits 0 only when all passed.
--cf IMAGE attaches that image instead, writable (the file-system boot's
fresh ext2 image, which the Makefile checks with e2fsck -fn afterwards).
`bench` boots three times (ICAs in page tables, the same with the C
refill, ICAs in 32 reserved TLB entries), the last with --initrd-tlb's
archive when given (its program is told ica=tlb).
Usage: sh4_run.py [--mac MAC] [--cf IMAGE] run|test|bench --kernel BIN --initrd IMG
                  [--initrd-tlb IMG] [--append ARGS] [--log FILE] [--report FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

TIMEOUT = 300   # seconds of host time for one boot


# The CF slot's pattern disk (sh4fs): tools/mkpattern.py's image, 4 MiB
# (8192 sectors, what tests/kernel/t_disk needs): sector s begins with s
# (8 bytes, little endian), byte i >= 8 is (7 * s + i) mod 256.
CF_MIB = 4


def cf_image(kernel):
    """Writes the CF slot's pattern image beside the kernel and returns its path."""
    path = os.path.join(os.path.dirname(os.path.abspath(kernel)), "cf.img")
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mkpattern.py")
    subprocess.run([sys.executable, tool, path, str(CF_MIB)], check=True,
                   stdout=subprocess.DEVNULL)
    return path


# The host peer of the network test and benchmark (tests/sh4/libc/t_net.c):
# a TCP connection of the guest to 10.0.2.100:7 runs tools/inet_peer.py on
# it (its stdin and stdout), as the x86-64 tests' user network does
# (tools/qemu.py); with restrict=on nothing else leaves QEMU. The peer's
# UDP and connect-back commands are not used here: their ports are unused.
INET_PEER_ADDR = "10.0.2.100"


def peer_forward():
    here = os.path.dirname(os.path.abspath(__file__))
    peer = f"{sys.executable} {os.path.join(here, 'inet_peer.py')} --udp-port 9 --tcp-port 9"
    if "," in peer:
        raise SystemExit(f"sh4_run: the peer's command may hold no comma: {peer!r}")
    return f"guestfwd=tcp:{INET_PEER_ADDR}:7-cmd:{peer}"


def boot(args):
    cmd = ["qemu-system-sh4", "-M", "r2d", "-kernel", args.kernel, "-initrd", args.initrd,
           "-append", args.append, "-display", "none", "-monitor", "none",
           "-serial", "null", "-serial", "stdio", "-no-reboot",
           "-nic", f"user,model=rtl8139,restrict=on,mac={args.mac}," + peer_forward(),
           "-drive", f"if=ide,format=raw,snapshot={'off' if args.cf else 'on'},"
                     f"file={args.cf or cf_image(args.kernel)}"]
    if args.icount:
        cmd += ["-icount", "shift=0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    lines, code = [], None
    deadline = time.monotonic() + args.timeout
    # A guest that hangs silently sends no line to end the loop below.
    watchdog = threading.Timer(args.timeout + 5, proc.kill)
    watchdog.start()
    try:
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\r\n")
            lines.append(line)
            if args.echo:
                print(line, flush=True)
            m = re.match(r"MYRMEX-POWEROFF (-?\d+)", line)
            if m:
                code = int(m.group(1))
                break
            if "KERNEL PANIC" in line:
                # Let the panic's report reach the log, then stop.
                deadline = min(deadline, time.monotonic() + 5)
            if time.monotonic() > deadline:
                break
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
    return lines, code


BENCH_RE = re.compile(r"BENCH sh4 (\S+) median=(\d+) min=(\d+) runs=(\d+) tlb_misses=([\d.]+)")


def bench(args):
    args.icount = True
    figures = {}
    methods = (("pt", ""), ("pt-c", "tlb_fast=off"), ("tlb", "ica_tlb=32"))
    page_tables_initrd = args.initrd
    for method, append in methods:
        args.append = append
        # The bench's archive tells its program the ICA method (sh4_bench
        # ica=pt|ica=tlb, passed on to the network servers).
        args.initrd = args.initrd_tlb if method == "tlb" and args.initrd_tlb else page_tables_initrd
        lines, code = boot(args)
        if args.log:
            with open(f"{args.log}-{method}", "w") as f:
                f.write("\n".join(lines) + "\n")
        done = any(l.startswith("BENCH-DONE") for l in lines)
        if not done or code != 0:
            print(f"sh4 bench ({method}): no BENCH-DONE (poweroff {code})")
            for l in lines[-20:]:
                print("  | " + l)
            return 1
        for l in lines:
            m = BENCH_RE.match(l)
            if m:
                name = m.group(1)
                figures.setdefault(name, {})[method] = (int(m.group(2)), int(m.group(3)),
                                                       m.group(5))
                print(f"sh4.{name}.{method} {m.group(2)} instructions "
                      f"(min {m.group(3)}) tlb_misses={m.group(5)}")
    rows = ["| name | pt | pt-c | tlb | tlb against pt | against pt-c | TLB misses per op: pt | tlb |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]

    def change(a, b):
        return f"{(b[0] - a[0]) * 100 / a[0]:+.0f} %" if a and b and a[0] else ""

    for name, f in figures.items():
        pt, ptc, tlb = f.get("pt"), f.get("pt-c"), f.get("tlb")
        cells = [str(x[0]) if x else "" for x in (pt, ptc, tlb)]
        rows.append(f"| `sh4.{name}` | {' | '.join(cells)} | {change(pt, tlb)} | "
                    f"{change(ptc, tlb)} | {pt[2] if pt else ''} | {tlb[2] if tlb else ''} |")
    if args.report:
        with open(args.report, "w") as f:
            f.write("\n".join(rows) + "\n")
    print("\n".join(rows))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("mode", choices=["run", "test", "bench"])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--initrd-tlb", help="bench: the archive of the ica_tlb=32 boot "
                    "(default: --initrd)")
    ap.add_argument("--append", default="")
    ap.add_argument("--timeout", type=int, default=TIMEOUT, help="seconds of host time for the boot")
    ap.add_argument("--log")
    ap.add_argument("--icount", action="store_true")
    ap.add_argument("--report")
    ap.add_argument("--mac", default="52:54:00:12:34:56")
    ap.add_argument("--cf", help="the CF slot's image (default: a fresh pattern image)")
    args = ap.parse_args()
    args.echo = args.mode == "run"
    if args.mode == "bench":
        return bench(args)
    lines, code = boot(args)
    if args.log:
        with open(args.log, "w") as f:
            f.write("\n".join(lines) + "\n")
    if args.mode == "run":
        return 0 if code == 0 else 1
    for line in lines:
        if line.startswith("sh4-test ") or line.startswith("FAIL") or "sh4init:" in line:
            print(line)
    panics = [l for l in lines if "KERNEL PANIC" in l]
    summary = [l for l in lines if re.match(r"sh4: \d+ passed, \d+ failed", l)]
    label = args.append or "default"
    if panics or not summary or code != 0:
        print(f"sh4 ({label}): FAILED (poweroff {code}, {len(panics)} panics; log {args.log})")
        for l in lines[-30:]:
            print("  | " + l)
        return 1
    print(f"{summary[-1]} ({label})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
