#!/usr/bin/env python3
"""Where the instructions of one IPC round trip go (issue 15, item 4).

Boots Myrmex under TCG with QEMU's gdb stub, runs bench/bench_ipc_profile
(which warms the path up and brackets each traced operation with a marker
call, kstats(PROFILE_MARK + n, 0)), and single-steps from each opening
marker to its closing one with gdb, attributing every instruction to the
function it lies in: kernel functions by the kernel's symbols, user ones by
the client's and the server's (told apart by the CR3 the trace saw first).
The gdb stub steps with interrupts masked, so the trace is the operation's
own path. Prints a table per operation: instructions per function and per
phase (entry, personality, checks, copy, mapping, switch, delivery, exit,
user), and writes
the same as JSON with --json.

Usage: tools/ipc_profile.py [--kernel K] [--build build] [--json out.json]
       [--posix-modules MODULE...]   (make ipc-profile runs both)
"""
import argparse
import bisect
import json
import os
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402

MARK = 0x5ca1ab1e000
OPERATIONS = {1: "ipc.sync.roundtrip", 2: "markers (subtract)", 3: "ipc.sync.roundtrip.data4k"}
POSIX_OPERATIONS = {1: "posix.lseek (forwarded, no data)", 2: "markers (subtract)",
                    3: "posix.read4k (forwarded, data ICA + copy)",
                    5: "posix.pipe_pingpong (4 forwarded calls, a child echoing)"}

# Phases by function name: the first matching prefix wins; unknown kernel
# functions count as "other kernel".
PHASES = [
    ("entry", ("syscall_entry", "syscall_dispatch", "lookup", "sys_callsync", "sys_get",
               "sys_ret", "kernel_lock_take")),
    ("exit", ("syscall_return", "sched_return_to_user", "personality_return_to_user",
              "sched_thread_restarted", "thread_restart_user", "proc_check_killed",
              "arch_thread_set_return", "give_way", "deliver_pending",
              "kernel_lock_give", "trap_return", "sched_thread_start", "thread_first_run")),
    ("personality", ("forward_", "write_request", "read_result", "ensure", "own", "channel_of",
                     "sys_lseek", "sys_pread", "sys_read", "sys_write", "read_into", "write_from",
                     "read_inline", "write_inline", "inline_", "posix_")),
    ("delivery", ("ipc_receive", "ipc_call_record", "ipc_call_queue", "ipc_call_wait_end",
                  "ipc_carry", "hand_request", "carry", "get_restart", "call_restart",
                  "ipc_receive_sync", "ipc_get", "deliver_result", "call_commit", "proc_find",
                  "request_taken", "device_take_interrupts", "ica_kernel_ptr",
                  "arch_phys_to_virt", "ica_address", "memcpy", "memset")),
    ("checks", ("ipc_fast_call", "ipc_fast_reply", "ipc_call", "ipc_read_top_frame",
                "read_frame_head", "frame_offset_ok", "ipc_check_data", "ica_at",
                "ica_lookup", "ipc_return", "hop_lent", "may_block", "personality_interrupts",
                "sched_can_hand_off", "waiting_getter", "receiver_for", "ipc_server",
                "ica_in_window", "user_range")),
    ("copy", ("copy_from_user", "copy_to_user", "usercopy")),
    ("mapping", ("ica_map", "ica_unmap", "arch_ica", "ica_ptes", "arch_as_map", "arch_as_unmap",
                 "walk", "leaf_flags", "invalidate")),
    ("switch", ("sched_hand_off", "schedule", "pick_next", "arch_context_switch",
                "x86_switch_stacks", "arch_as_activate", "arch_thread_restart_user",
                "sched_finish_switch", "thread_block", "thread_wake", "sched_make_runnable",
                "waitq_wake", "wake_getters", "enqueue", "dequeue", "tss_set_rsp0", "wrmsr")),
]


def phase_of(name, user):
    if user:
        return "user"
    for phase, prefixes in PHASES:
        if name.startswith(prefixes):
            return phase
    return "other kernel"


class Symbols:
    """Function symbols of an ELF file, for address -> name lookups."""

    def __init__(self, path):
        out = subprocess.run(["nm", "-n", "--defined-only", path], check=True,
                             capture_output=True, text=True).stdout
        self.addrs, self.names = [], []
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                self.addrs.append(int(parts[0], 16))
                self.names.append(parts[2])

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "?"


GDB_SCRIPT = r'''
import gdb, json
MARK = %(mark)d
out = open(%(out)r, "w")
gdb.execute("set pagination off")
gdb.execute("target remote 127.0.0.1:%(port)d")
bp = gdb.Breakpoint("sys_myrmex_kstats")
def mark_value():
    return int(gdb.parse_and_eval("a->arg[0]")) - MARK
def cr3():
    try:
        return int(gdb.parse_and_eval("$cr3"))
    except gdb.error:
        return 0
pending = set(%(opens)r)
kstats = int(gdb.parse_and_eval("(unsigned long)&sys_myrmex_kstats"))
at_mark = False   # stopped at a marker already (the previous trace's end)
while pending:
    if not at_mark:
        gdb.execute("continue")
    at_mark = False
    m = mark_value()
    if m not in pending:
        continue
    pending.discard(m)
    # Step out of the marker call first: the trace starts at the user
    # instruction after its syscall.
    bp.enabled = False
    while int(gdb.parse_and_eval("$cs")) & 3 == 0:
        gdb.execute("stepi", to_string=True)
    pcs = []
    while True:
        pc = int(gdb.parse_and_eval("$pc"))
        if pc == kstats or len(pcs) > 200000:
            break
        user = int(gdb.parse_and_eval("$cs")) & 3 == 3
        pcs.append((pc, user, cr3() if user else 0))
        gdb.execute("stepi", to_string=True)
    bp.enabled = True
    at_mark = pc == kstats
    out.write(json.dumps({"mark": m, "pcs": pcs}) + "\n")
    out.flush()
gdb.execute("kill")
'''


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def trace(args, tmp, operations):
    build = args.build
    disk = None
    if args.posix_modules:
        # The POSIX benchmark boot (tools/bench_posix.py) with this program
        # as sysinit's first POSIX program.
        import bench_posix
        disk = bench_posix.make_image(os.path.join(build, "bench", "posix"), tmp)
        modules = ["%s/user/sysinit /bench/posix/profile_calls" % build] + args.posix_modules
    else:
        modules = ["%s/bench/benchinit bench_ipc_profile" % build,
                   "%s/bench/bench_ipc_profile" % build, "%s/bench/bench_ipcsrv" % build]
    port = free_port()
    cmd = qemu.qemu_command(args.kernel, modules, "tcg", disk=disk,
                            extra=["-S", "-gdb", "tcp:127.0.0.1:%d" % port])
    log = open(os.path.join(tmp, "serial.log"), "wb")
    guest = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    out = os.path.join(tmp, "trace.jsonl")
    script = os.path.join(tmp, "trace.py")
    with open(script, "w") as f:
        f.write(GDB_SCRIPT % {"mark": MARK, "out": out, "port": port,
                              "opens": sorted(operations)})
    try:
        subprocess.run(["gdb", "-nx", "-batch", "-ex", "file %s" % args.elf, "-x", script],
                       check=True, capture_output=True, timeout=args.timeout)
    finally:
        guest.kill()
        guest.wait()
    with open(out) as f:
        return [json.loads(line) for line in f]


def attribute(record, kernel, users, roles):
    """Counts per function and per phase. roles maps a CR3 to the user
    program it belongs to: the first one seen is the client, the next the
    server (the first trace has only those two), any later one a child of
    the client (its symbols)."""
    funcs, phases = {}, {}
    for pc, user, cr3 in record["pcs"]:
        if user:
            if cr3 not in roles:
                roles[cr3] = ("client", "server", "child")[min(len(roles), 2)]
            who = roles[cr3]
            syms = users["client"] if who == "child" else users[who]
            name = "%s:%s" % (who, syms.name(pc))
        else:
            name = kernel.name(pc)
        funcs[name] = funcs.get(name, 0) + 1
        ph = phase_of(name, user)
        phases[ph] = phases.get(ph, 0) + 1
    return funcs, phases


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--kernel", default=None)
    ap.add_argument("--elf", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--posix-modules", nargs="*", default=[],
                    help="trace forwarded POSIX calls (bench/posix/profile_calls) in the "
                         "POSIX benchmark boot with these modules after sysinit")
    args = ap.parse_args(argv)
    args.kernel = args.kernel or "%s/kernel/myrmex.bin" % args.build
    args.elf = args.elf or "%s/kernel/myrmex.elf" % args.build
    kernel = Symbols(args.elf)
    if args.posix_modules:
        operations = POSIX_OPERATIONS
        users = {"client": Symbols("%s/bench/posix/profile_calls" % args.build),
                 "server": Symbols("%s/servers/fileman" % args.build)}
    else:
        operations = OPERATIONS
        users = {"client": Symbols("%s/bench/bench_ipc_profile" % args.build),
                 "server": Symbols("%s/bench/bench_ipcsrv" % args.build)}
    with tempfile.TemporaryDirectory() as tmp:
        records = trace(args, tmp, operations)
    report = {}
    roles = {}
    for rec in records:
        name = operations[rec["mark"]]
        funcs, phases = attribute(rec, kernel, users, roles)
        total = len(rec["pcs"])
        report[name] = {"instructions": total, "phases": phases, "functions": funcs}
        print("%s: %d instructions" % (name, total))
        for ph, n in sorted(phases.items(), key=lambda kv: -kv[1]):
            print("  %-13s %6d" % (ph, n))
        for fn, n in sorted(funcs.items(), key=lambda kv: -kv[1])[:args.top]:
            print("    %-40s %6d  (%s)" % (fn, n, phase_of(fn, ":" in fn)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
