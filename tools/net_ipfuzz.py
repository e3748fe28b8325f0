"""net_ipfuzz.py - the host peer's IPv4 side for the TCP/IP server's bad-input
test (tools/net_peer.py's `ipfuzz` command; tests/kernel/t_inet_wire.c).

The peer is 10.0.3.1 on the guest's wire (QEMU's socket netdev on 127.0.0.1)
and answers ARP for every 10.0.3.x but the guest's own. On `ipfuzz` it sends the
guest's TCP/IP server, in an order fixed by the seed:

- malformed IPv4: bad header checksums, versions other than 4, header lengths
  below 5 words or past the packet, total lengths past the frame or below the
  header, garbage options, truncated headers, fragments that overlap, run past
  64 KiB or never complete, the guest's own address as the source (a "land"
  packet), broadcast sources;
- malformed transport: TCP with bad checksums, data offsets below 5 or past the
  segment, every flag at once; UDP with bad checksums and lengths longer or
  shorter than the datagram; ICMP echo with a bad checksum or cut short;
  unknown protocol numbers with random payloads;
- a SYN flood: SYNs from random addresses and ports of 10.0.3.0/24 to the
  flooded port;

then checks that the server still works, each with a bounded wait: an ICMP
echo answered with the same identifier, sequence and data; a SYN to the live
port answered with SYN+ACK (then reset); a UDP datagram to the guest's UDP
port echoed back by the test program. Nothing here leaves the loopback.
"""

import random
import struct
import time

PEER_IP = bytes([10, 0, 3, 1])
NET_PREFIX = bytes([10, 0, 3])
ETH_IP = 0x0800
ETH_ARP = 0x0806
PROTO_ICMP, PROTO_TCP, PROTO_UDP = 1, 6, 17
WAIT = 3.0           # seconds for each liveness answer


def checksum(data):
    if len(data) & 1:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def ipv4(src, dst, proto, payload, ident=0, flags_frag=0x4000, ttl=64, ihl=5, options=b"",
         total=None, good_sum=True, version=4):
    total = 20 + len(options) + len(payload) if total is None else total
    head = struct.pack("!BBHHHBBH4s4s", (version << 4) | ihl, 0, total & 0xffff, ident,
                       flags_frag, ttl, proto, 0, src, dst) + options
    s = checksum(head)
    if not good_sum:
        s ^= 0x5a5a
    return head[:10] + struct.pack("!H", s) + head[12:] + payload


def pseudo(src, dst, proto, length):
    return struct.pack("!4s4sBBH", src, dst, 0, proto, length)


def tcp(src, dst, sport, dport, seq, ack, flags, payload=b"", offset=5, good_sum=True,
        window=8192):
    head = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, offset << 4, flags, window, 0, 0)
    s = checksum(pseudo(src, dst, PROTO_TCP, len(head) + len(payload)) + head + payload)
    if not good_sum:
        s ^= 0x1234
    return head[:16] + struct.pack("!H", s) + head[18:] + payload


def udp(src, dst, sport, dport, payload, length=None, good_sum=True):
    length = 8 + len(payload) if length is None else length
    head = struct.pack("!HHHH", sport, dport, length & 0xffff, 0)
    s = checksum(pseudo(src, dst, PROTO_UDP, 8 + len(payload)) + head + payload) or 0xffff
    if not good_sum:
        s ^= 0x4321
    return head[:6] + struct.pack("!H", s) + payload


def icmp_echo(ident, seq, data, good_sum=True):
    head = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
    s = checksum(head + data)
    if not good_sum:
        s ^= 0x1111
    return head[:2] + struct.pack("!H", s) + head[4:] + data


def malformed(rng, guest_ip, live_port, udp_port):
    """One malformed IPv4 packet (bytes after the Ethernet header)."""
    src = PEER_IP
    kind = rng.randrange(16)
    body = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
    if kind == 0:
        return ipv4(src, guest_ip, PROTO_UDP, udp(src, guest_ip, 5, udp_port, body),
                    good_sum=False)
    if kind == 1:
        return ipv4(src, guest_ip, PROTO_TCP, body, version=rng.choice([0, 5, 6, 15]))
    if kind == 2:
        return ipv4(src, guest_ip, PROTO_UDP, body, ihl=rng.randint(0, 4))
    if kind == 3:
        return ipv4(src, guest_ip, PROTO_UDP, body, ihl=15)       # options past the packet
    if kind == 4:
        return ipv4(src, guest_ip, PROTO_UDP, body, total=rng.randint(len(body) + 21, 65535))
    if kind == 5:
        return ipv4(src, guest_ip, PROTO_UDP, body, total=rng.randint(0, 19))
    if kind == 6:
        opts = bytes(rng.getrandbits(8) for _ in range(rng.choice([4, 8, 40])))
        return ipv4(src, guest_ip, PROTO_ICMP, icmp_echo(7, 7, body), ihl=5 + len(opts) // 4,
                    options=opts)
    if kind == 7:
        return ipv4(src, guest_ip, PROTO_TCP, b"")[:rng.randint(1, 19)]   # cut short
    if kind == 8:    # a fragment running past 64 KiB, or overlapping ones
        off = rng.choice([8189, 8000, 1])
        return ipv4(src, guest_ip, PROTO_UDP, body + bytes(64), ident=rng.getrandbits(16),
                    flags_frag=0x2000 | off)
    if kind == 9:    # a first fragment that is never completed
        return ipv4(src, guest_ip, PROTO_UDP, udp(src, guest_ip, 5, udp_port, bytes(64)),
                    ident=rng.getrandbits(16), flags_frag=0x2000)
    if kind == 10:
        seg = tcp(src, guest_ip, rng.randint(1024, 65535), live_port, rng.getrandbits(32), 0,
                  0x02, good_sum=False)
        return ipv4(src, guest_ip, PROTO_TCP, seg)
    if kind == 11:
        seg = tcp(src, guest_ip, rng.randint(1024, 65535), live_port, rng.getrandbits(32), 0,
                  0x02, offset=rng.choice([0, 1, 4, 15]))
        return ipv4(src, guest_ip, PROTO_TCP, seg)
    if kind == 12:   # every flag at once
        seg = tcp(src, guest_ip, rng.randint(1024, 65535), live_port, rng.getrandbits(32),
                  rng.getrandbits(32), 0x3f, body)
        return ipv4(src, guest_ip, PROTO_TCP, seg)
    if kind == 13:   # UDP lengths that lie, a bad UDP checksum
        length = rng.choice([0, 3, 7, len(body) + 9, 65535])
        dgram = udp(src, guest_ip, 5, udp_port, body, length=length, good_sum=rng.random() < 0.5)
        return ipv4(src, guest_ip, PROTO_UDP, dgram)
    if kind == 14:   # ICMP echo with a bad checksum or cut short; a land packet
        if rng.random() < 0.5:
            return ipv4(src, guest_ip, PROTO_ICMP, icmp_echo(9, 9, body, good_sum=False))
        seg = tcp(guest_ip, guest_ip, live_port, live_port, 1, 0, 0x02)
        return ipv4(guest_ip, guest_ip, PROTO_TCP, seg)
    proto = rng.choice([0, 2, 41, 50, 132, 255])     # unknown protocols, broadcast source
    return ipv4(rng.choice([src, bytes([255] * 4), bytes([10, 0, 3, 255])]), guest_ip, proto,
                body)


def syn_flood(rng, guest_ip, port, count):
    for _ in range(count):
        src = NET_PREFIX + bytes([rng.randint(2, 250)])
        if src == guest_ip:
            continue
        seg = tcp(src, guest_ip, rng.randint(1024, 65535), port, rng.getrandbits(32), 0, 0x02)
        yield ipv4(src, guest_ip, PROTO_TCP, seg, ident=rng.getrandbits(16))


class Wire:
    """What the peer gives this module: send(ethertype, dst_mac, payload), and
    recv(timeout) -> a frame or None, which answers ARP by itself."""

    def __init__(self, send, recv):
        self.send, self.recv = send, recv


def arp_answer(frame, peer_mac, guest_ip):
    """The ARP reply the peer owes for an ARP request in frame, or None."""
    if len(frame) < 42 or int.from_bytes(frame[12:14], "big") != ETH_ARP:
        return None
    op = int.from_bytes(frame[20:22], "big")
    sender_mac, sender_ip, target_ip = frame[22:28], frame[28:32], frame[38:42]
    if op != 1 or target_ip[:3] != NET_PREFIX or target_ip == guest_ip:
        return None
    reply = struct.pack("!HHBBH6s4s6s4s", 1, ETH_IP, 6, 4, 2, peer_mac, target_ip,
                        sender_mac, sender_ip)
    return sender_mac, reply


def await_ip(wire, want, timeout=WAIT):
    """The first IPv4 packet from the guest for which want(packet) holds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frame = wire.recv(end - time.monotonic())
        if frame and int.from_bytes(frame[12:14], "big") == ETH_IP and want(frame[14:]):
            return frame[14:]
    return None


def liveness(wire, guest_mac, guest_ip, live_port, udp_port):
    """The three checks: a list of what failed (empty: all answered)."""
    failed = []
    data = b"myrmex-ipfuzz-ping"
    wire.send(ETH_IP, guest_mac, ipv4(PEER_IP, guest_ip, PROTO_ICMP, icmp_echo(0x4d59, 1, data)))
    if not await_ip(wire, lambda p: p[9] == PROTO_ICMP and p[20] == 0 and
                    p[24:28] == struct.pack("!HH", 0x4d59, 1) and p[28:28 + len(data)] == data):
        failed.append("ping")
    seq = 0x10203040
    wire.send(ETH_IP, guest_mac, ipv4(PEER_IP, guest_ip, PROTO_TCP,
                                      tcp(PEER_IP, guest_ip, 40000, live_port, seq, 0, 0x02)))
    answer = await_ip(wire, lambda p: p[9] == PROTO_TCP and
                      struct.unpack("!HH", p[20:24]) == (live_port, 40000))
    if not answer or answer[33] & 0x12 != 0x12 or struct.unpack("!I", answer[28:32])[0] != seq + 1:
        failed.append("syn-ack")
    else:
        ack = struct.unpack("!I", answer[24:28])[0] + 1
        wire.send(ETH_IP, guest_mac, ipv4(PEER_IP, guest_ip, PROTO_TCP,
                                          tcp(PEER_IP, guest_ip, 40000, live_port, seq + 1, ack,
                                              0x14)))
    hello = b"ipfuzz-hello"
    wire.send(ETH_IP, guest_mac, ipv4(PEER_IP, guest_ip, PROTO_UDP,
                                      udp(PEER_IP, guest_ip, 40001, udp_port, hello)))
    if not await_ip(wire, lambda p: p[9] == PROTO_UDP and
                    struct.unpack("!HH", p[20:24]) == (udp_port, 40001) and
                    p[28:28 + len(hello)] == hello):
        failed.append("udp-echo")
    return failed


def run(wire, guest_mac, words):
    """The `ipfuzz <seed> <count> <flood> <guest-ip> <flood-port> <live-port> <udp-port>`
    command: the reply's text after "ok "."""
    seed, count, flood = int(words[0]), min(int(words[1]), 5000), min(int(words[2]), 5000)
    guest_ip = bytes(int(x) for x in words[3].split("."))
    flood_port, live_port, udp_port = int(words[4]), int(words[5]), int(words[6])
    rng = random.Random(seed)
    for _ in range(count):
        wire.send(ETH_IP, guest_mac, malformed(rng, guest_ip, live_port, udp_port))
    for packet in syn_flood(rng, guest_ip, flood_port, flood):
        wire.send(ETH_IP, guest_mac, packet)
    time.sleep(0.5)   # let the guest work through them (ARP answered meanwhile)
    while wire.recv(0.05):
        pass
    failed = liveness(wire, guest_mac, guest_ip, live_port, udp_port)
    return "ipfuzz %d %d live" % (count, flood) if not failed else \
        "ipfuzz %d %d failed %s" % (count, flood, ",".join(failed))
