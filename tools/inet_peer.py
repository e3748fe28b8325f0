#!/usr/bin/env python3
"""The host peer of the TCP/IP tests and benchmarks (docs/net.md, "TCP/IP").

QEMU's user network (restrict=on: the guest reaches nothing but what is
forwarded) runs this program once per TCP connection the guest opens to
10.0.2.100:7 (guestfwd=...-cmd:), the connection being its stdin and stdout.
The guest names what it wants on a first line:

    echo            every byte comes back, until the guest closes
    source N        N pattern bytes (byte i is (i * 7 + 3) mod 256), then close
    sink N          N pattern bytes read and checked: "ok N" or "bad at K"
    discard         every byte read and dropped until the guest closes
                    (bench/posix/net_send.c: segments whose time is measured)
    udp             datagrams "udp-ping K" to 127.0.0.1:UDP_PORT (forwarded to
                    the guest's UDP port 7), one every 0.25 s, until the
                    guest sends a line back on this connection that is one
                    of them: "udp ok", else "udp none" (QEMU's restricted
                    network lets no guest datagram out)
    GET /path ...   an HTTP request (wget http://10.0.2.100:7/...): its headers
                    read, a short text/plain page answered (HTTP/1.0)
    connect         a TCP connection to 127.0.0.1:TCP_PORT (forwarded to the
                    guest's port 80): a line sent, the same line expected
                    back: "connect ok" or "connect fail: why"

Everything it talks to is on 127.0.0.1 or is its own stdio; every wait is
bounded and the program ends itself after --timeout seconds.
"""
import argparse
import os
import select
import signal
import socket
import sys
import time


PERIOD = bytes(((i * 7 + 3) & 0xff) for i in range(256))   # the pattern repeats every 256


def pattern(start, n):
    at = start % 256
    reps = (at + n) // 256 + 1
    return (PERIOD * reps)[at:at + n]


def log(path, text):
    if path:
        with open(path, "a") as f:
            f.write("%.3f %d %s\n" % (time.time(), os.getpid(), text))


def read_line(inp):
    line = b""
    while not line.endswith(b"\n") and len(line) < 200:
        c = inp.read(1)
        if not c:
            break
        line += c
    return line.decode("ascii", "replace").strip()


def do_echo(inp, out):
    total = 0
    while True:
        data = inp.read1(65536) if hasattr(inp, "read1") else inp.read(1)
        if not data:
            return total
        out.write(data)
        out.flush()
        total += len(data)


def do_source(out, n):
    sent = 0
    while sent < n:
        k = min(65536, n - sent)
        out.write(pattern(sent, k))
        sent += k
    out.flush()


def do_sink(inp, out, n):
    got = 0
    while got < n:
        data = inp.read1(min(65536, n - got))
        if not data:
            break
        want = pattern(got, len(data))
        if data != want:
            bad = next(i for i in range(len(data)) if data[i] != want[i])
            out.write(b"bad at %d\n" % (got + bad))
            out.flush()
            return
        got += len(data)
    out.write(b"ok %d\n" % got if got == n else b"short %d\n" % got)
    out.flush()


def do_discard(inp):
    total = 0
    while True:
        data = inp.read1(65536)
        if not data:
            return total
        total += len(data)


def do_udp(inp, out, port):
    sent = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        fd = inp.fileno()
        for k in range(80):
            msg = b"udp-ping %d" % k
            s.sendto(msg, ("127.0.0.1", port))
            sent.add(msg)
            ready, _, _ = select.select([fd], [], [], 0.25)
            if ready:
                line = inp.readline().strip()
                out.write(b"udp ok\n" if line in sent else b"udp none\n")
                out.flush()
                return
    out.write(b"udp none\n")
    out.flush()


def do_connect(out, port):
    line = b"hello from the host\n"
    deadline = time.time() + 10
    why = "no attempt"
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
                c.sendall(line)
                got = b""
                while len(got) < len(line):
                    data = c.recv(256)
                    if not data:
                        break
                    got += data
                if got == line:
                    out.write(b"connect ok\n")
                    out.flush()
                    return
                why = "got %r" % got
        except OSError as e:
            why = str(e)
        time.sleep(0.2)
    out.write(("connect fail: %s\n" % why).encode())
    out.flush()


def do_http(inp, out, request_line):
    for _ in range(100):   # the headers, up to the blank line
        line = inp.readline()
        if not line or not line.strip():
            break
    body = ("hello from the host peer (tools/inet_peer.py); you asked: %s\n"
            % request_line).encode()
    out.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
              b"Connection: close\r\n\r\n" % len(body) + body)
    out.flush()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--udp-port", type=int, required=True)
    p.add_argument("--tcp-port", type=int, required=True)
    p.add_argument("--log", default="")
    p.add_argument("--timeout", type=int, default=300)
    args = p.parse_args()
    signal.alarm(args.timeout)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    command = read_line(inp)
    log(args.log, "command %r" % command)
    words = command.split()
    try:
        if words == ["echo"]:
            log(args.log, "echo: %d bytes" % do_echo(inp, out))
        elif len(words) == 2 and words[0] == "source":
            do_source(out, int(words[1]))
        elif len(words) == 2 and words[0] == "sink":
            do_sink(inp, out, int(words[1]))
        elif words == ["discard"]:
            log(args.log, "discard: %d bytes" % do_discard(inp))
        elif words == ["udp"]:
            do_udp(inp, out, args.udp_port)
        elif words[:1] == ["GET"]:
            do_http(inp, out, command)
        elif words == ["connect"]:
            do_connect(out, args.tcp_port)
        else:
            out.write(b"unknown command\n")
            out.flush()
    except (BrokenPipeError, ConnectionResetError) as e:
        log(args.log, "%s: %s" % (command, e))
    log(args.log, "done %r" % command)


if __name__ == "__main__":
    main()
