#!/usr/bin/env python3
"""net_peer.py - the host end of the guest's Ethernet, on the loopback only.

Role: QEMU's virtio-net device is connected to this program through a UDP
socket netdev (`-netdev socket,udp=127.0.0.1:<peer port>,localaddr=127.0.0.1:<qemu
port>`): every frame the guest sends arrives here as one datagram from QEMU's
port, and every datagram sent to QEMU's port is a frame the guest receives.
Both ends are bound to 127.0.0.1, so nothing leaves this machine.

What it answers (docs/net.md):

- a data frame (EtherType 0x88b5): in mode `echo` (the start) the same frame with
  source and destination swapped; in mode `ack` a 60-byte frame whose first
  payload byte is 0x06, as paper 004's server machine answered with a 1-byte ACK;
- a control frame (EtherType 0x88b6) whose payload is an ASCII command, answered
  with a control frame "ok <command>" after doing it:
    `mode echo` / `mode ack`  switch the answer to data frames;
    `fuzz <seed> <n>`         first send n bad frames (truncated: shorter than a
                              header; oversized: 1515..4000 bytes; garbage: random
                              bytes of valid sizes, any EtherType but 0x88b5/0x88b6),
                              then the "ok";
    `stats`                   answer with "ok stats <frames in> <frames out>";
    `ipfuzz <seed> <n> <flood> <guest-ip> <flood-port> <live-port> <udp-port>`
                              play 10.0.3.1 to the guest's TCP/IP server: n
                              malformed IPv4 packets, a SYN flood of <flood>
                              SYNs, then a ping, a SYN and a UDP datagram that
                              must be answered; "ok ipfuzz n flood live" or
                              "... failed <what>" (tools/net_ipfuzz.py);
- an ARP request for an address of 10.0.3.0/24 (the TCP/IP server's wire in
  that test): answered with the peer's MAC;
- anything else: ignored (counted).

Every loop is bounded: it exits by itself after --timeout seconds, or after
--idle seconds without a datagram once one came. It prints a summary line on
stderr at the end.

    python3 tools/net_peer.py --port P --qemu-port Q [--timeout 900] [--idle 600]
"""

import argparse
import os
import random
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import net_ipfuzz  # noqa: E402  (the IPv4 side of the `ipfuzz` command)

ETH_DATA = 0x88b5
ETH_CONTROL = 0x88b6
PEER_MAC = bytes.fromhex("020000000001")
ACK_BYTE = 0x06
FRAME_MIN = 60        # what a real wire pads every frame to (without FCS)
LOOPBACK = "127.0.0.1"


def header(dst, src, ethertype):
    return dst + src + ethertype.to_bytes(2, "big")


def answer_data(frame, mode):
    """The answer to a data frame: the echo, or the 1-byte ACK padded to 60."""
    dst, src = frame[0:6], frame[6:12]
    if mode == "ack":
        body = bytes([ACK_BYTE]) + bytes(FRAME_MIN - 15)
        return header(src, PEER_MAC, ETH_DATA) + body
    return src + dst + frame[12:]


def bad_frames(seed, count, guest_mac):
    """count frames the guest's driver or Ethernet server must drop: truncated,
    oversized and garbage ones, in a order fixed by seed."""
    rng = random.Random(seed)
    frames = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            frames.append(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 13))))
        elif kind == 1:
            size = rng.randint(1515, 4000)
            frames.append(header(guest_mac, PEER_MAC, ETH_DATA) + bytes(size - 14))
        else:
            size = rng.randint(14, 1514)
            ethertype = rng.choice([0x0800, 0x0806, 0x86dd, 0x1234, 0x0005])
            body = bytes(rng.getrandbits(8) for _ in range(size - 14))
            frames.append(header(guest_mac, PEER_MAC, ethertype) + body)
    return frames


def control(frame, state, send):
    """Does the command in control frame `frame`; returns the answer's text."""
    text = frame[14:].split(b"\0", 1)[0].decode("ascii", "replace").strip()
    words = text.split()
    if words[:1] == ["mode"] and len(words) == 2 and words[1] in ("echo", "ack"):
        state["mode"] = words[1]
    elif words[:1] == ["fuzz"] and len(words) == 3:
        try:
            seed, count = int(words[1]), min(int(words[2]), 1000)
        except ValueError:
            return "bad " + text
        for bad in bad_frames(seed, count, frame[6:12]):
            send(bad)
            state["bad_out"] += 1
    elif words == ["stats"]:
        text = "stats %d %d" % (state["in"], state["out"])
    elif words[:1] == ["ipfuzz"] and len(words) == 8:
        try:
            return "ok " + net_ipfuzz.run(state["wire"](frame[6:12]), frame[6:12], words[1:])
        except (ValueError, IndexError):
            return "bad " + text
    else:
        return "bad " + text
    return "ok " + text


class Stop(Exception):
    """SIGTERM: the runner ends the peer after the boot."""


def on_term(signum, frame):
    raise Stop()


def answer_arp(frame, send):
    """Answers an ARP request for 10.0.3.x (not the asker's own): whether it was one."""
    answer = net_ipfuzz.arp_answer(frame, PEER_MAC, frame[28:32])
    if answer:
        send(header(answer[0], PEER_MAC, net_ipfuzz.ETH_ARP) + answer[1])
    return answer is not None


def serve(sock, qemu, timeout, idle):
    state = {"mode": "echo", "in": 0, "out": 0, "bad_out": 0, "ignored": 0}

    def send(frame):
        sock.sendto(frame, qemu)
        state["out"] += 1

    def wire(guest_mac):
        """net_ipfuzz's view of the wire while a command runs (ARP answered)."""
        def send_ip(ethertype, dst, payload):
            send(header(dst, PEER_MAC, ethertype) + payload)

        def recv(wait):
            sock.settimeout(max(0.001, min(wait, 1.0)))
            try:
                frame, addr = sock.recvfrom(65536)
            except socket.timeout:
                return None
            if addr[0] != LOOPBACK or len(frame) < 14:
                return None
            state["in"] += 1
            if answer_arp(frame, send):
                return None
            return frame
        return net_ipfuzz.Wire(send_ip, recv)
    state["wire"] = wire

    start = time.monotonic()
    try:
        loop(sock, send, state, start, timeout, idle)
    except Stop:
        pass
    return state


def loop(sock, send, state, start, timeout, idle):
    last = None
    while True:
        now = time.monotonic()
        left = start + timeout - now
        if last is not None:
            left = min(left, last + idle - now)
        if left <= 0:
            break
        sock.settimeout(min(left, 1.0))
        try:
            frame, addr = sock.recvfrom(65536)
        except socket.timeout:
            continue
        if addr[0] != LOOPBACK:
            continue
        last = time.monotonic()
        state["in"] += 1
        if len(frame) < 14:
            state["ignored"] += 1
            continue
        ethertype = int.from_bytes(frame[12:14], "big")
        if ethertype == ETH_DATA:
            send(answer_data(frame, state["mode"]))
        elif ethertype == ETH_CONTROL:
            reply = control(frame, state, send).encode("ascii")
            body = reply + bytes(max(0, FRAME_MIN - 14 - len(reply)))
            send(header(frame[6:12], PEER_MAC, ETH_CONTROL) + body)
        elif not answer_arp(frame, send):
            state["ignored"] += 1


def main(argv=None):
    p = argparse.ArgumentParser(description="Loopback Ethernet peer for QEMU's socket netdev.")
    p.add_argument("--port", type=int, required=True, help="UDP port this peer binds on 127.0.0.1")
    p.add_argument("--qemu-port", type=int, required=True,
                   help="UDP port QEMU binds on 127.0.0.1 (its localaddr)")
    p.add_argument("--timeout", type=float, default=900, help="seconds before it exits")
    p.add_argument("--idle", type=float, default=600,
                   help="seconds without a frame (once one came) before it exits")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, on_term)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((LOOPBACK, args.port))
    state = serve(sock, (LOOPBACK, args.qemu_port), args.timeout, args.idle)
    print("net_peer: %d frames in, %d out (%d bad ones sent), %d ignored, mode %s"
          % (state["in"], state["out"], state["bad_out"], state["ignored"], state["mode"]),
          file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
