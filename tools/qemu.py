#!/usr/bin/env python3
"""qemu.py - how Myrmex is booted under QEMU (host side).

Role: the one place that knows the QEMU command line. It chooses the accelerator
(KVM only with real vmx/svm, TCG otherwise; see docs/testing.md), builds the command
line for a kernel plus its boot modules, and streams a guest's serial console with a
deadline (used by run_tests.py and bench.py). As a CLI it runs QEMU interactively
(`make run`) or prints the command line.

    python3 tools/qemu.py run   --kernel K --modules "init arg" "mod2" ...
                                [--disk A.img --disk B.img]   (virtio-blk disks, in order)
    python3 tools/qemu.py cmd   --kernel K --modules ...   (print the command line)
    python3 tools/qemu.py accel                            (print the accelerator)
"""

import argparse
import os
import queue
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

QEMU = "qemu-system-x86_64"
ACCEL_ENV = "MYRMEX_ACCEL"

# QEMU exits with (code << 1) | 1 when the guest writes `code` to isa-debug-exit.
STATUS_POWEROFF_OK = 1      # poweroff(0)
STATUS_POWEROFF_FAIL = 3    # poweroff(1)
STATUS_PANIC = 255          # kernel panic, code 0x7f


class QemuError(Exception):
    """A problem with the host setup (bad MYRMEX_ACCEL, missing file, ...)."""


# ---------------------------------------------------------------- accelerator

def cpu_flags(path="/proc/cpuinfo"):
    """Return the set of CPU feature flags listed in /proc/cpuinfo."""
    flags = set()
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() == "flags":
                    flags.update(value.split())
    except OSError:
        pass
    return flags


def kvm_usable(path="/dev/kvm"):
    """Return (True, "") if /dev/kvm opens read-write, else (False, why)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError as e:
        return False, "%s: %s" % (path, e.strerror or e)
    os.close(fd)
    return True, ""


def choose_accel():
    """Return ("kvm" or "tcg", reason). MYRMEX_ACCEL=kvm|tcg forces the choice."""
    forced = os.environ.get(ACCEL_ENV, "").strip().lower()
    if forced:
        if forced not in ("kvm", "tcg"):
            raise QemuError("%s=%r: must be 'kvm' or 'tcg'" % (ACCEL_ENV, forced))
        return forced, "forced by %s=%s" % (ACCEL_ENV, forced)
    flags = cpu_flags()
    virt = sorted(flags & {"vmx", "svm"})
    if not virt:
        return "tcg", "no vmx/svm in /proc/cpuinfo, so /dev/kvm (if any) is not hardware virtualization"
    ok, why = kvm_usable()
    if not ok:
        return "tcg", "CPU has %s but KVM is not usable (%s)" % (virt[0], why)
    return "kvm", "CPU has %s and /dev/kvm is usable" % virt[0]


# ---------------------------------------------------------------- command line

def module_path(module):
    """The file part of a module string "path arg1 arg2"."""
    words = module.split()
    return words[0] if words else ""


def initrd_arg(modules):
    """Join module strings for -initrd; a literal comma is escaped as ',,'."""
    return ",".join(m.strip().replace(",", ",,") for m in modules)


def check_files(kernel, modules, disk=None):
    """Raise QemuError naming the first kernel/module/disk file that is missing."""
    if not kernel:
        raise QemuError("no kernel given")
    if not os.path.isfile(kernel):
        raise QemuError("kernel not found: %s" % kernel)
    for m in modules:
        path = module_path(m)
        if not path:
            raise QemuError("empty boot module string")
        if not os.path.isfile(path):
            raise QemuError("boot module not found: %s" % path)
    for image in disk_list(disk):
        if not os.path.isfile(image):
            raise QemuError("disk image not found: %s" % image)


def disk_list(disk):
    """The disk images in `disk`: None, one path, or a list of paths (in the
    order the guest's PCI enumeration sees them)."""
    if not disk:
        return []
    if isinstance(disk, str):
        return [disk]
    return list(disk)


def accel_args(accel, icount=False):
    """QEMU arguments for the accelerator (icount always means TCG)."""
    if icount:
        return ["-accel", "tcg", "-cpu", "max",
                "-icount", "shift=0,align=off,sleep=off"]
    if accel == "kvm":
        return ["-accel", "kvm", "-cpu", "host"]
    if accel == "tcg":
        return ["-accel", "tcg", "-cpu", "max"]
    raise QemuError("unknown accelerator %r" % accel)


# The guest's NIC models (--net-model): name -> QEMU's device. Every one
# gets the MAC the network tests expect (tests/kernel/t_net.c). "user" is a
# second virtio-net NIC on QEMU's user network (restrict=on) for the TCP/IP
# tests: it needs no peer process of ours, QEMU runs tools/inet_peer.py for
# each connection the guest opens to INET_PEER_ADDR:7.
NET_MODELS = {"virtio": "virtio-net-pci", "rtl8139": "rtl8139", "user": "virtio-net-pci"}
NET_MAC = "52:54:00:12:34:56"
USER_MAC = "52:54:00:12:34:58"
INET_PEER_ADDR = "10.0.2.100"


def parse_net_models(text):
    """--net-model's value: one model or a comma-separated list (each NIC on a
    peer of its own), e.g. "virtio", "rtl8139", "virtio,rtl8139"."""
    models = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in models if m not in NET_MODELS]
    if bad or not models or len(set(models)) != len(models):
        raise ValueError("NIC models are %s (comma-separated, each once), got %r"
                         % ("/".join(sorted(NET_MODELS)), text))
    return models


def net_args(links):
    """QEMU arguments for the guest's NICs (docs/net.md): for each (model,
    peer_port, qemu_port) of links, a NIC of that model (NET_MODELS) whose
    frames are UDP datagrams between 127.0.0.1:qemu_port (QEMU) and
    127.0.0.1:peer_port (tools/net_peer.py). Both ends are on the loopback:
    nothing leaves this machine. A -netdev option takes away QEMU's default
    NIC (an e1000 on user networking), which the device tests drive (t_dev,
    t_uart): it is added back without any back end, so its frames go nowhere
    (QEMU warns that it has no peer). The PCI order, which the guest sees:
    a virtio-net NIC, the e1000, an RTL8139 (so the e1000 keeps its place
    when only virtio is asked for)."""
    args = []
    for n, (model, peer_port, qemu_port) in enumerate(links):
        if model == "user":
            args += ["-netdev", user_netdev(n, peer_port, qemu_port)]
        else:
            args += ["-netdev", "socket,id=net%d,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d"
                     % (n, peer_port, qemu_port)]
    after_e1000 = []
    for n, (model, _, _) in enumerate(links):
        mac = USER_MAC if model == "user" else NET_MAC
        dev = ["-device", "%s,netdev=net%d,mac=%s" % (NET_MODELS[model], n, mac)]
        if model == "virtio":
            args += dev
        else:
            after_e1000 += dev
    return args + ["-device", "e1000"] + after_e1000


def user_netdev(n, udp_port, tcp_port, log=""):
    """The -netdev of the "user" model: QEMU's user network with restrict=on
    (the guest reaches nothing beyond QEMU but the forwards below), the
    guest at 10.0.2.15. A TCP connection of the guest to INET_PEER_ADDR:7
    runs tools/inet_peer.py on it (stdin/stdout); the host's
    127.0.0.1:udp_port and 127.0.0.1:tcp_port are forwarded to the guest's
    UDP port 7 and TCP port 80. Everything stays on this machine."""
    here = os.path.dirname(os.path.abspath(__file__))
    peer = "%s %s --udp-port %d --tcp-port %d" % (sys.executable, os.path.join(here, "inet_peer.py"),
                                                 udp_port, tcp_port)
    if log:
        peer += " --log %s" % log
    if "," in peer:
        raise QemuError("the peer's command may hold no comma: %r" % peer)
    return ("user,id=net%d,restrict=on,net=10.0.2.0/24,host=10.0.2.2,"
            "guestfwd=tcp:%s:7-cmd:%s,"
            "hostfwd=udp:127.0.0.1:%d-:7,hostfwd=tcp:127.0.0.1:%d-:80"
            % (n, INET_PEER_ADDR, peer, udp_port, tcp_port))


def net_log_path(log_path, model, first):
    """The peer log of model's NIC: log_path for the first one, else
    log_path with ".<model>" before its extension."""
    if first:
        return log_path
    base, ext = os.path.splitext(log_path)
    return "%s.%s%s" % (base, model, ext)


def net_peers_start(models, log_path, timeout):
    """A host peer for each NIC model (net_peer_start): the list of (model,
    process, its port, QEMU's port, log). net_peers_stop ends them."""
    peers = []
    try:
        for i, model in enumerate(models):
            log = net_log_path(log_path, model, i == 0)
            if model == "user":   # QEMU runs the peer; two host ports forwarded in
                peers.append((model, None, free_udp_port(), free_tcp_port(), log))
                continue
            proc, peer_port, qemu_port = net_peer_start(log, timeout)
            peers.append((model, proc, peer_port, qemu_port, log))
    except Exception:
        net_peers_stop(peers)
        raise
    return peers


def net_peers_stop(peers):
    for peer in peers:
        if peer[1] is not None:
            net_peer_stop(peer[1])


def net_links(peers):
    """net_args' links for peers from net_peers_start."""
    return [(model, peer_port, qemu_port) for model, _, peer_port, qemu_port, _ in peers]


def free_tcp_port():
    """A TCP port of 127.0.0.1 free now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_udp_port():
    """A UDP port of 127.0.0.1 free now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def net_peer_start(log_path, timeout):
    """Starts the host peer tools/net_peer.py for the guest's NIC on two free
    ports of 127.0.0.1: (process, its port, QEMU's port), for net_args. It
    ends by itself after `timeout` seconds; net_peer_stop ends it at once.
    Its summary line goes to log_path."""
    peer_port, qemu_port = free_udp_port(), free_udp_port()
    while qemu_port == peer_port:
        qemu_port = free_udp_port()
    log_dir = os.path.dirname(log_path)
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, os.path.join(here, "net_peer.py"),
                                 "--port", str(peer_port), "--qemu-port", str(qemu_port),
                                 "--timeout", str(int(timeout))],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    return proc, peer_port, qemu_port


def net_peer_stop(proc):
    """Ends the peer (SIGTERM: it prints its summary; then SIGKILL) and reaps it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def qemu_command(kernel, modules, accel, icount=False, memory="512M", disk=None,
                 extra=(), interactive=False):
    """Return the QEMU argv (a list) booting `kernel` with `modules` (init first).

    disk is one raw image or a list of them; each becomes a virtio-blk PCI
    device (drive ids hd0, hd1, ...). QEMU gives devices without an explicit
    address the next free PCI slot in command-line order, so the guest finds
    them in this order (the booted tests count on it: docs/testing.md).
    interactive (make run): Ctrl-C goes to the guest (its terminal server
    turns it into SIGINT), not to QEMU; Ctrl-A x still quits. A disk may
    also be a QEMU URL (tools/nbd_latency.py's nbd+unix:///?socket=...).
    """
    cmd = [QEMU, "-kernel", kernel]
    # The kernel's own options (its command line, docs/architecture.md's
    # "Boot options"), e.g. ipc_fast=off; not for a Linux guest, whose
    # caller passes -append itself.
    kernel_args = os.environ.get("MYRMEX_KERNEL_ARGS", "")
    if kernel_args and "-append" not in extra:
        cmd += ["-append", kernel_args]
    if modules:
        cmd += ["-initrd", initrd_arg(modules)]
    cmd += ["-m", memory, "-smp", "1",
            "-display", "none", "-monitor", "none",
            "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if interactive:
        cmd += ["-chardev", "stdio,id=con0,mux=on,signal=off", "-serial", "chardev:con0"]
    else:
        cmd += ["-serial", "stdio"]
    cmd += accel_args(accel, icount)
    for i, image in enumerate(disk_list(disk)):
        # A comma in a -drive option value is written twice.
        cmd += ["-drive", "file=%s,format=raw,if=none,id=hd%d" % (image.replace(",", ",,"), i),
                "-device", "virtio-blk-pci,drive=hd%d" % i]
    cmd += list(extra)
    return cmd


def linux_command(kernel, initrd, append, accel, icount=False, memory="512M",
                  extra=()):
    """Return the QEMU argv booting a Linux bzImage with an initramfs and a kernel
    command line, on the same machine as qemu_command (used by linux_guest.py)."""
    return qemu_command(kernel, [initrd], accel, icount=icount, memory=memory,
                        extra=["-append", append] + list(extra))


def describe_run(run):
    """One line on how a GuestRun ended."""
    if run.start_error:
        return run.start_error
    if run.timed_out:
        return "killed by the host tool after the timeout (%.1f s)" % run.elapsed
    if run.stopped_early:
        return "killed by the host tool: it did not exit after the guest finished"
    what = describe_status(run.status)
    # QEMU's warnings (e.g. "nic e1000.0 has no peer" when a -netdev is given)
    # say nothing of how it ended.
    errors = [line for line in run.stderr_lines if "warning:" not in line]
    if run.status == STATUS_POWEROFF_OK and errors:
        what = "status 1: QEMU failed (see its stderr) or the guest powered off with 0"
    return "%s (after %.1f s)" % (what, run.elapsed)


def describe_status(status):
    """Human-readable meaning of a QEMU exit status."""
    if status is None:
        return "did not exit"
    if status < 0:
        return "killed by signal %d" % -status
    if status == 0:
        return ("QEMU exited with status 0: guest reset (a triple fault, with "
                "-no-reboot) or QEMU was terminated")
    if status == STATUS_POWEROFF_OK:
        return "guest powered off with code 0"
    if status == STATUS_PANIC:
        return "guest exit code 0x7f (kernel panic)"
    if status & 1:
        return "guest powered off with code %d" % (status >> 1)
    return "QEMU itself failed (status %d, not from isa-debug-exit)" % status


def qemu_version():
    """First line of `qemu-system-x86_64 --version`, or a note why not."""
    try:
        out = subprocess.run([QEMU, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as e:
        return "unknown (%s)" % e
    lines = out.splitlines()
    return lines[0].strip() if lines else "unknown"


# ---------------------------------------------------------------- streaming runs

class GuestRun:
    """Outcome of run_guest()."""

    def __init__(self):
        self.status = None          # QEMU exit status (negative: signal)
        self.start_error = None     # str if QEMU could not be started
        self.timed_out = False      # killed because the whole-run deadline passed
        self.stopped_early = False  # killed after a grace period asked by on_line
        self.stderr_lines = []      # what QEMU printed on stderr
        self.elapsed = 0.0


def kill_group(proc, grace=3.0):
    """Terminate the process group of proc (SIGTERM, then SIGKILL) and reap it."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _pump(stream, tag, q):
    """Reader thread: put (tag, bytes) chunks on q, then (tag, None) at EOF."""
    fd = stream.fileno()
    try:
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            q.put((tag, chunk))
    except OSError:
        pass
    q.put((tag, None))


def _echo(data, echo):
    if echo is not None:
        echo.flush()
        target = getattr(echo, "buffer", None)
        if target is not None:
            target.write(data)
        else:
            echo.write(data.decode("utf-8", "replace"))
        echo.flush()


def _split_lines(pending, chunk):
    """Append chunk to pending bytes; return (complete lines as str, rest)."""
    pending += chunk
    parts = pending.split(b"\n")
    rest = parts.pop()
    lines = [p.rstrip(b"\r").decode("utf-8", "replace") for p in parts]
    return lines, rest


# A guest line asking the host to type into its serial port (docs/testing.md):
# "CONSOLE-TYPE <hex bytes>", written by a console test before it reads.
CONSOLE_TYPE = "CONSOLE-TYPE"


def console_type_request(line):
    """The bytes a `CONSOLE-TYPE <hex>` console line asks to type, else None.

    For run_guest(stdin_for=...): the line is exactly those two words (a
    carriage return aside), so that a message quoting one types nothing."""
    words = line.replace("\r", " ").split()
    if len(words) != 2 or words[0] != CONSOLE_TYPE:
        return None
    try:
        return bytes.fromhex(words[1]) or None
    except ValueError:
        return None


def _type_input(proc, data):
    """Write data to QEMU's stdin (the guest's serial port); False if closed."""
    try:
        proc.stdin.write(data)
        proc.stdin.flush()
        return True
    except (OSError, ValueError):
        return False


def run_guest(cmd, log_path, timeout, on_line, echo=sys.stdout, stdin_for=None):
    """Run QEMU `cmd`, streaming its serial console (stdout).

    Raw output goes to log_path and (when echo is a stream) live to echo. on_line(str)
    is called for every complete line; it may return a number of seconds after which
    QEMU is killed if it has not exited yet (e.g. after the test summary). The whole
    run is killed after `timeout` seconds. Never blocks longer than the deadlines.

    stdin_for, when given, is called with every complete console line too and may
    return bytes, which are written at once to QEMU's stdin: with `-serial stdio`
    they arrive on the guest's serial port as typed input (console_type_request is
    the one the tests use). Without it QEMU's stdin is /dev/null.
    """
    res = GuestRun()
    log_dir = os.path.dirname(log_path)
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    start = time.monotonic()
    deadline = start + timeout
    stop_at = None
    with open(log_path, "wb") as log:
        try:
            stdin = subprocess.PIPE if stdin_for else subprocess.DEVNULL
            proc = subprocess.Popen(cmd, stdin=stdin,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True)
        except OSError as e:
            res.start_error = "cannot start %s: %s" % (cmd[0], e.strerror or e)
            return res
        q = queue.Queue()
        threads = [threading.Thread(target=_pump, args=(proc.stdout, "out", q),
                                    daemon=True),
                   threading.Thread(target=_pump, args=(proc.stderr, "err", q),
                                    daemon=True)]
        for t in threads:
            t.start()
        pending = {"out": b"", "err": b""}
        open_streams = {"out", "err"}
        try:
            while open_streams:
                now = time.monotonic()
                limit = deadline if stop_at is None else min(deadline, stop_at)
                if now >= limit:
                    if now >= deadline:
                        res.timed_out = True
                    else:
                        res.stopped_early = True
                    break
                try:
                    tag, chunk = q.get(timeout=min(0.5, limit - now))
                except queue.Empty:
                    continue
                if chunk is None:
                    # End of stream: a last line without newline still counts.
                    open_streams.discard(tag)
                    lines, pending[tag] = _split_lines(pending[tag], b"\n")
                    lines = [l for l in lines if l]
                elif tag == "out":
                    log.write(chunk)
                    log.flush()
                    _echo(chunk, echo)
                    lines, pending[tag] = _split_lines(pending[tag], chunk)
                else:
                    lines, pending[tag] = _split_lines(pending[tag], chunk)
                if tag == "out":
                    for line in lines:
                        typed = stdin_for(line) if stdin_for else None
                        if typed:
                            _type_input(proc, typed)
                        grace = on_line(line)
                        if grace is not None:
                            t_stop = time.monotonic() + grace
                            stop_at = t_stop if stop_at is None else min(stop_at, t_stop)
                else:
                    for line in lines:
                        res.stderr_lines.append(line)
                        if echo is not None:
                            print("[qemu stderr] %s" % line, file=sys.stderr, flush=True)
            if open_streams:
                kill_group(proc)
            else:
                # Output closed: QEMU is exiting; wait for it within the deadlines.
                limit = deadline if stop_at is None else min(deadline, stop_at)
                try:
                    proc.wait(timeout=max(0.1, limit - time.monotonic()))
                except subprocess.TimeoutExpired:
                    res.timed_out = time.monotonic() >= deadline
                    res.stopped_early = not res.timed_out
                    kill_group(proc)
        except BaseException:
            kill_group(proc)
            raise
        finally:
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
        res.status = proc.returncode
    res.elapsed = time.monotonic() - start
    return res


# ---------------------------------------------------------------- CLI

def map_status(status):
    """Exit status for `run`: QEMU 1 (poweroff(0)) -> 0, else the raw status."""
    if status == STATUS_POWEROFF_OK:
        return 0
    if status < 0:
        return 128 - status
    return status


def command_from_args(args):
    """Check files, choose the accelerator, and build the argv for run/cmd."""
    check_files(args.kernel, args.modules, args.disk)
    if args.icount:
        accel, reason = "tcg", "icount requested (always TCG)"
    else:
        accel, reason = choose_accel()
    cmd = qemu_command(args.kernel, args.modules, accel, icount=args.icount,
                       memory=args.memory, disk=args.disk, extra=args.extra,
                       interactive=getattr(args, "interactive", False))
    return cmd, accel, reason


def run_network(args):
    """make run's NIC (--user-net): a virtio-net NIC on QEMU's user network
    with restrict=on, the host's 127.0.0.1:<port> forwarded to the guest's
    TCP port 80 (httpd) and UDP port 7, and tools/inet_peer.py behind
    INET_PEER_ADDR:7 (docs/net.md, "TCP/IP"). Nothing leaves this machine."""
    tcp_port = int(os.environ.get("MYRMEX_HTTP_PORT", "0")) or free_tcp_port()
    udp_port = free_udp_port()
    print("network: guest 10.0.2.15/24; host 127.0.0.1:%d -> guest TCP port 80, "
          "127.0.0.1:%d -> guest UDP port 7; guest %s:7 -> tools/inet_peer.py"
          % (tcp_port, udp_port, INET_PEER_ADDR), file=sys.stderr, flush=True)
    return ["-netdev", user_netdev(0, udp_port, tcp_port),
            "-device", "virtio-net-pci,netdev=net0,mac=%s" % USER_MAC]


def cli_run(args):
    args.interactive = True
    if getattr(args, "user_net", False):
        args.extra = run_network(args) + list(args.extra)
    cmd, accel, reason = command_from_args(args)
    print("accelerator: %s (%s)" % (accel, reason), file=sys.stderr, flush=True)
    # QEMU receives Ctrl-C itself (stdio chardev); we only wait for it.
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        status = subprocess.call(cmd)
    except OSError as e:
        print("qemu.py: cannot start %s: %s" % (cmd[0], e.strerror or e),
              file=sys.stderr)
        return 127
    finally:
        signal.signal(signal.SIGINT, old)
    if status != STATUS_POWEROFF_OK:
        print("qemu.py: %s" % describe_status(status), file=sys.stderr)
    return map_status(status)


def cli_cmd(args):
    cmd, accel, reason = command_from_args(args)
    print("accelerator: %s (%s)" % (accel, reason), file=sys.stderr)
    print(shlex.join(cmd))
    return 0


def cli_accel(_args):
    accel, reason = choose_accel()
    print("%s (%s)" % (accel, reason))
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(description="Boot Myrmex under QEMU.")
    sub = p.add_subparsers(dest="action", required=True)
    for name, helptext in (("run", "run QEMU interactively (make run)"),
                           ("cmd", "print the QEMU command line")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("--kernel", required=True, help="kernel ELF (multiboot)")
        s.add_argument("--modules", nargs="*", default=[],
                       help='boot modules, init first; each "path arg1 arg2"')
        s.add_argument("--memory", default="512M")
        s.add_argument("--disk", action="append",
                       help="raw disk image (virtio-blk); repeat for more disks")
        s.add_argument("--icount", action="store_true",
                       help="TCG with -icount shift=0 (instruction-count TSC)")
        s.add_argument("--user-net", action="store_true",
                       help="a virtio-net NIC on QEMU's restricted user network (make run)")
        s.add_argument("extra", nargs="*",
                       help="extra QEMU arguments (after --)")
    sub.add_parser("accel", help="print the accelerator that would be used")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    actions = {"run": cli_run, "cmd": cli_cmd, "accel": cli_accel}
    try:
        return actions[args.action](args)
    except QemuError as e:
        print("qemu.py: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
