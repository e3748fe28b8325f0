#!/usr/bin/env python3
"""shell_net.py - the network of `make run`, used from its shell by busybox's tools.

Role: boots what `make run` boots (sysinit, the servers of the service table,
busybox ash on the serial console) with the NIC `make run` gives the guest (a
virtio-net NIC on QEMU's user network, restrict=on: tools/qemu.py's
user_netdev) and types at the prompt: `ifconfig` shows eth0's address and MAC
and lo; `route` and `route -n` show the default route and eth0's network
(/proc/net/route), which `route del default` and `route add default gw`
take away and put back (with the errors of a second add and of a route
that is not built); `ping -c 3 10.0.2.2` gets QEMU's answers (a raw ICMP
socket); `wget` fetches a page from the host peer (tools/inet_peer.py
behind 10.0.2.100:7); `nc` talks to the peer's echo; `nc -l` in the guest
receives a line from the host through the forwarded port; busybox `httpd`
in the guest serves a page that this program fetches from 127.0.0.1, and
`netstat -tln` shows it listening, `netstat -uln` a UDP `nc -l`; `ifconfig`
then counts eth0's packets (/proc/net/dev). Everything stays on this
machine.

    python3 tools/shell_net.py [--build build] [--timeout 180]    (make shell-net)

Prints one line per check (PASS/FAIL) and exits 1 if any failed.
"""

import argparse
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402  (tools/qemu.py: the user network's -netdev)
from shell_jobctl import PROMPT, Guest  # noqa: E402  (the serial-console driver)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = ("uart virtio_blk fileman eth virtio_net tcpip pm procfs svcman timed "
           "services.conf")


def qemu_argv(build, udp_port, tcp_port):
    mods = ["%s/user/sysinit /bin/sh" % build, "%s/user/posix_start" % build]
    mods += ["%s/servers/%s" % (build, s) for s in SERVERS.split()]
    net = ["-netdev", qemu.user_netdev(0, udp_port, tcp_port),
           "-device", "virtio-net-pci,netdev=net0,mac=%s" % qemu.USER_MAC]
    cmd = subprocess.check_output(
        [sys.executable, os.path.join(ROOT, "tools", "qemu.py"), "cmd",
         "--kernel", "%s/kernel/myrmex.bin" % build, "--disk", "%s/run/root.img" % build,
         "--modules"] + mods + ["--"] + net, stderr=subprocess.DEVNULL, cwd=ROOT).decode().strip()
    return shlex.split(cmd)


def host_line(port, line, seconds=20):
    """Connects to 127.0.0.1:port (retrying until the guest listens) and
    sends line; True once sent."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as c:
                c.sendall(line)
                time.sleep(1)
                return True
        except OSError:
            time.sleep(0.5)
    return False


def host_get(port, seconds=30):
    """GET / from 127.0.0.1:port: the body, or b"" when nothing answers."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=10) as r:
                return r.read()
        except OSError:
            time.sleep(0.5)
    return b""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=int, default=180, help="seconds for the boot")
    args = ap.parse_args()
    udp_port, tcp_port = qemu.free_udp_port(), qemu.free_tcp_port()
    guest = Guest(qemu_argv(args.build, udp_port, tcp_port))
    results = []

    def check(name, cond, out=b""):
        results.append(cond)
        print("%s shell-net/%s" % ("PASS" if cond else "FAIL", name), flush=True)
        if not cond and out:
            print("  guest said: %r" % out[-600:], flush=True)

    try:
        check("prompt", guest.read_until(PROMPT, args.timeout))
        out = guest.type(b"ifconfig eth0\r")
        check("ifconfig-eth0", b"10.0.2.15" in out and b"52:54:00:12:34:58" in out.lower(), out)
        out = guest.type(b"ifconfig\r")
        check("ifconfig-all", b"lo" in out and b"127.0.0.1" in out and b"eth0" in out, out)
        out = guest.type(b"route -n\r")
        check("route-n", re.search(rb"0\.0\.0\.0 +10\.0\.2\.2 +0\.0\.0\.0 +UG .*eth0", out) is not None
              and re.search(rb"10\.0\.2\.0 +0\.0\.0\.0 +255\.255\.255\.0 +U .*eth0", out) is not None, out)
        out = guest.type(b"route\r", seconds=60)
        check("route", re.search(rb"default +10\.0\.2\.2 +0\.0\.0\.0 +UG", out) is not None, out)
        out = guest.type(b"route add default gw 10.0.2.2\r")
        check("route-add-exists", b"File exists" in out, out)
        out = guest.type(b"route add -net 192.168.5.0 netmask 255.255.255.0 gw 10.0.2.2\r")
        check("route-add-other", b"Invalid argument" in out, out)
        out = guest.type(b"route del default && route -n\r")
        check("route-del", b"UG" not in out and b"10.0.2.0" in out, out)
        out = guest.type(b"route del default\r")
        check("route-del-none", b"No such process" in out, out)
        out = guest.type(b"route add default gw 192.168.9.1\r")
        check("route-add-unreachable", b"Network is unreachable" in out, out)
        out = guest.type(b"route add default gw 10.0.2.2 && route -n\r")
        check("route-add", re.search(rb"0\.0\.0\.0 +10\.0\.2\.2 +0\.0\.0\.0 +UG", out) is not None, out)
        out = guest.type(b"ping -c 3 10.0.2.2\r", seconds=60)
        check("ping", b"3 packets transmitted, 3 packets received" in out, out)
        out = guest.type(b"wget -q -O - http://10.0.2.100:7/hello\r", seconds=60)
        check("wget", b"hello from the host peer" in out and b"GET /hello" in out, out)
        out = guest.type(b"printf 'echo\\nover nc\\n' | nc -w 3 10.0.2.100 7\r", seconds=60)
        check("nc-client", out.count(b"over nc") >= 2, out)
        # nc -l in the background, the host connects through the forward.
        out = guest.type(b"nc -l -p 80 > /tmp/from-host &\r")
        time.sleep(2)
        sent = host_line(tcp_port, b"a line from the host\n")
        time.sleep(3)
        out = guest.type(b"cat /tmp/from-host\r")
        check("nc-listen", sent and b"a line from the host" in out, out)
        guest.type(b"kill %1 2>/dev/null; wait\r")
        out = guest.type(b"mkdir -p /tmp/www && echo served-by-httpd > /tmp/www/index.html && "
                         b"httpd -p 80 -h /tmp/www && echo httpd-started\r", seconds=30)
        body = host_get(tcp_port)
        check("httpd", b"served-by-httpd" in body, out + b" / host got: " + body)
        out = guest.type(b"netstat -tln\r")
        check("netstat-tln", re.search(rb"tcp +0 +0 0\.0\.0\.0:80 +0\.0\.0\.0:\* +LISTEN", out) is not None, out)
        # A connection held open for a while (the peer waits for a command).
        guest.type(b"(sleep 6 | nc 10.0.2.100 7) &\r")
        time.sleep(2)
        out = guest.type(b"netstat -tn\r")
        check("netstat-tn", re.search(rb"tcp +0 +0 10\.0\.2\.15:\d+ +10\.0\.2\.100:7 +ESTABLISHED", out)
              is not None, out)
        guest.type(b"wait\r", seconds=20)
        # busybox's nc has no UDP: the table's header (t_inet_more checks its lines).
        out = guest.type(b"netstat -un && echo netstat-ok\r")
        check("netstat-un", b"Active Internet connections" in out and b"netstat-ok" in out, out)
        out = guest.type(b"ifconfig eth0\r")
        check("ifconfig-counts", re.search(rb"RX packets:[1-9]", out) is not None and
              re.search(rb"TX packets:[1-9]", out) is not None, out)
        guest.type(b"exit\r", until=b"sysinit:", seconds=30)
    finally:
        guest.stop()
    failed = results.count(False)
    print("shell-net: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
