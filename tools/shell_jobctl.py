#!/usr/bin/env python3
"""shell_jobctl.py - job control in the interactive shell of `make run`, end to end.

Role: boots what `make run` boots (sysinit, the servers, busybox ash on the
serial console) with QEMU's stdio on pipes, types at the prompt as a person
would, and checks what the shell prints: Ctrl-Z stops the foreground job
(`[1]+  Stopped`), `jobs` lists it, `bg` runs it in the background
(`Running`), `fg` brings it back and Ctrl-C ends it; a stopped `cat` whose
read was cut short by Ctrl-Z reads again after `fg`; `cat &` is stopped by
SIGTTIN when it reads, leaves the input to the shell, and reads after `fg`. Typed bytes reach the
guest's serial port as the console tests' CONSOLE-TYPE bytes do.

    python3 tools/shell_jobctl.py [--build build] [--timeout 180]    (make shell-jobctl)

Prints one line per check (PASS/FAIL) and exits 1 if any failed. Not part of
`make test`: it boots a second guest for a few checks the t_console_tty
test and tests/posix/stopcont.c already make piecewise.
"""

import argparse
import os
import select
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = "uart virtio_blk fileman eth virtio_net pm procfs svcman timed services.conf"
PROMPT = b"/ # "


class Guest:
    """QEMU with the guest's serial port on pipes; everything read is kept."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""

    def read_until(self, want, seconds, start=0):
        """Reads until want appears in the output after offset start, or the
        time runs out; True if it appeared."""
        end = time.time() + seconds
        while want not in self.out[start:] and time.time() < end:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                data = os.read(self.proc.stdout.fileno(), 4096)
                if not data:
                    break
                self.out += data
        return want in self.out[start:]

    def type(self, data, until=PROMPT, seconds=20):
        """Types data; returns what the guest printed up to `until` (or the
        time out)."""
        start = len(self.out)
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        self.read_until(until, seconds, start)
        return self.out[start:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def qemu_argv(build):
    mods = ["%s/user/sysinit /bin/sh" % build, "%s/user/posix_start" % build]
    mods += ["%s/servers/%s" % (build, s) for s in SERVERS.split()]
    cmd = subprocess.check_output(
        [sys.executable, os.path.join(ROOT, "tools", "qemu.py"), "cmd",
         "--kernel", "%s/kernel/myrmex.bin" % build, "--disk", "%s/run/root.img" % build,
         "--modules"] + mods, stderr=subprocess.DEVNULL, cwd=ROOT).decode().strip()
    return shlex.split(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=int, default=180, help="seconds for the boot")
    args = ap.parse_args()
    guest = Guest(qemu_argv(args.build))
    results = []

    def check(name, cond):
        results.append(cond)
        print("%s shell-jobctl/%s" % ("PASS" if cond else "FAIL", name), flush=True)

    try:
        check("prompt", guest.read_until(PROMPT, args.timeout))
        # The job is stopped once the shell prints the prompt again.
        out = guest.type(b"sleep 100\r", until=b"\n", seconds=10)
        time.sleep(2)   # sleep has started and reads nothing
        out = guest.type(b"\x1a")
        check("ctrl-z-stops", b"Stopped" in out and b"sleep 100" in out)
        out = guest.type(b"jobs\r")
        check("jobs-lists-stopped", b"[1]+" in out and b"Stopped" in out)
        out = guest.type(b"bg\r")
        out = guest.type(b"jobs\r")
        check("bg-runs", b"Running" in out and b"sleep 100" in out)
        out = guest.type(b"fg\r", until=b"sleep 100", seconds=10)
        time.sleep(2)
        out = guest.type(b"\x03")
        out = guest.type(b"jobs\r")
        check("fg-then-ctrl-c-ends-it", b"sleep" not in out)
        out = guest.type(b"cat\r", until=b"\n", seconds=10)
        time.sleep(2)
        out = guest.type(b"\x1a")
        check("ctrl-z-stops-a-reader", b"Stopped" in out and b"cat" in out)
        out = guest.type(b"fg\r", until=b"cat", seconds=10)
        time.sleep(1)
        out = guest.type(b"typed after fg\r", until=b"typed after fg", seconds=10)
        time.sleep(1)
        out = guest.type(b"\x04")
        check("reader-reads-after-fg", guest.out.count(b"typed after fg") >= 2)
        out = guest.type(b"echo status $?\r")
        check("reader-exits-0", b"status 0" in out)
        # A background reader is stopped by SIGTTIN instead of taking input.
        out = guest.type(b"cat &\r")
        time.sleep(3)
        out = guest.type(b"jobs\r")
        check("background-reader-stopped", b"Stopped" in out and b"cat" in out)
        out = guest.type(b"echo still mine\r")
        check("shell-keeps-input", out.count(b"still mine") >= 2)
        out = guest.type(b"fg\r", until=b"cat", seconds=10)
        time.sleep(1)
        out = guest.type(b"now for cat\r", until=b"now for cat", seconds=10)
        time.sleep(1)
        guest.type(b"\x04")
        check("background-reader-reads-after-fg", guest.out.count(b"now for cat") >= 2)
        guest.type(b"exit\r", until=b"sysinit:", seconds=30)
    finally:
        guest.stop()
    failed = results.count(False)
    print("shell-jobctl: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
