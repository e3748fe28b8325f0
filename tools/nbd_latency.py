#!/usr/bin/env python3
"""nbd_latency.py - a disk whose requests take time: an NBD server for QEMU.

Under TCG QEMU's virtio disk completes a request at once, so a file server
that overlaps disk waits (issue 19's thread configurations) cannot show it.
QEMU 7.2's own means are unfit: its throttling (-drive throttling.*) is a
rate limit with one queue (requests served one after the other, a burst
let through first), and null-co's latency-ns has no data. This server gives
the guest's disk, over QEMU's NBD client, a fixed latency per request with
requests served in parallel (QEMU keeps up to 16 in flight), like a device
with a deep queue: each request is answered LATENCY after it arrived, in
whatever order they finish, reading and writing the image file.

    tools/nbd_latency.py IMAGE SOCKET LATENCY_US     serve until killed

As a module: start(image, socket, latency_us) starts it as a child process
and returns (Popen, the -drive file= value); stop(proc) ends it.

The protocol (the NBD protocol's fixed newstyle negotiation, the subset
QEMU's client uses): the server's greeting; the client's flags; options
until NBD_OPT_GO (answered with the export's size and flags) or
NBD_OPT_EXPORT_NAME, every other option refused with NBD_REP_ERR_UNSUP (so
no structured replies); then requests READ, WRITE, FLUSH and DISC with
simple replies. A request outside the image is answered EINVAL.
"""

import os
import socket
import struct
import subprocess
import sys
import threading
import time

NBDMAGIC = 0x4E42444D41474943
IHAVEOPT = 0x49484156454F5054
REPLY_MAGIC = 0x3E889045565A9
REQUEST_MAGIC = 0x25609513
SIMPLE_REPLY = 0x67446698
FLAG_FIXED_NEWSTYLE, FLAG_NO_ZEROES = 1, 2
OPT_EXPORT_NAME, OPT_ABORT, OPT_GO = 1, 2, 7
REP_ACK, REP_INFO, REP_ERR_UNSUP = 1, 3, (1 << 31) + 1
INFO_EXPORT = 0
TFLAG_HAS_FLAGS, TFLAG_SEND_FLUSH = 1, 4
CMD_READ, CMD_WRITE, CMD_DISC, CMD_FLUSH = 0, 1, 2, 3
EINVAL, EIO = 22, 5


def recv_all(conn, n):
    data = b""
    while len(data) < n:
        part = conn.recv(n - len(data))
        if not part:
            raise EOFError
        data += part
    return data


def opt_reply(conn, opt, kind, data=b""):
    conn.sendall(struct.pack(">QIII", REPLY_MAGIC, opt, kind, len(data)) + data)


def negotiate(conn, size):
    """Returns True once the client is in the transmission phase."""
    tflags = TFLAG_HAS_FLAGS | TFLAG_SEND_FLUSH
    conn.sendall(struct.pack(">QQH", NBDMAGIC, IHAVEOPT,
                             FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES))
    (cflags,) = struct.unpack(">I", recv_all(conn, 4))
    while True:
        magic, opt, length = struct.unpack(">QII", recv_all(conn, 16))
        data = recv_all(conn, length)
        if magic != IHAVEOPT:
            return False
        if opt == OPT_EXPORT_NAME:
            pad = b"" if cflags & FLAG_NO_ZEROES else bytes(124)
            conn.sendall(struct.pack(">QH", size, tflags) + pad)
            return True
        if opt == OPT_GO:
            opt_reply(conn, opt, REP_INFO, struct.pack(">HQH", INFO_EXPORT, size, tflags))
            opt_reply(conn, opt, REP_ACK)
            return True
        if opt == OPT_ABORT:
            opt_reply(conn, opt, REP_ACK)
            return False
        opt_reply(conn, opt, REP_ERR_UNSUP)


def serve(conn, fd, size, latency):
    """The transmission phase: each request answered latency seconds after
    it arrived, by a thread of its own; replies written whole under a lock."""
    send_lock = threading.Lock()

    def answer(due, handle, error, data=b""):
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        with send_lock:
            conn.sendall(struct.pack(">IIQ", SIMPLE_REPLY, error, handle) + data)

    while True:
        magic, _flags, cmd, handle, offset, length = struct.unpack(
            ">IHHQQI", recv_all(conn, 28))
        if magic != REQUEST_MAGIC:
            return
        due = time.monotonic() + latency
        if cmd == CMD_DISC:
            return
        payload = recv_all(conn, length) if cmd == CMD_WRITE else b""
        error, data = 0, b""
        if cmd in (CMD_READ, CMD_WRITE) and offset + length > size:
            error = EINVAL
        elif cmd == CMD_READ:
            data = os.pread(fd, length, offset)
            if len(data) != length:
                error, data = EIO, b""
        elif cmd == CMD_WRITE:
            if os.pwrite(fd, payload, offset) != length:
                error = EIO
        elif cmd == CMD_FLUSH:
            pass   # the image is a copy for one boot: nothing to make durable
        else:
            error = EINVAL
        threading.Thread(target=answer, args=(due, handle, error, data), daemon=True).start()


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    image, path, latency = argv[1], argv[2], int(argv[3]) / 1e6
    fd = os.open(image, os.O_RDWR)
    size = os.fstat(fd).st_size
    if os.path.exists(path):
        os.remove(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    print("nbd_latency: %s on %s, %d us per request" % (image, path, int(argv[3])),
          flush=True)
    while True:   # QEMU connects once; a second connection is served alike
        conn, _ = srv.accept()
        try:
            if negotiate(conn, size):
                serve(conn, fd, size, latency)
        except (EOFError, OSError):
            pass
        conn.close()


def start(image, path, latency_us, log):
    """Starts the server as a child; returns (Popen, QEMU's -drive file= value)
    once the socket is there."""
    if os.path.exists(path):   # an earlier boot's: it must not pass for ours
        os.remove(path)
    out = open(log, "w", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), image, path,
                             str(int(latency_us))], stdout=out, stderr=subprocess.STDOUT)
    out.close()
    for _ in range(200):   # until it accepts (a probe: it serves the next one)
        if proc.poll() is not None:
            break
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(path)
            probe.close()
            return proc, "nbd+unix:///?socket=%s" % path
        except OSError:
            probe.close()
            time.sleep(0.05)
    stop(proc)
    raise RuntimeError("nbd_latency.py did not start (see %s)" % log)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
