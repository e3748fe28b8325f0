/*
 * test_table.h - the booted tests the test init runs, in order, and the
 * flags their entries use. Included once, by testinit.c, after the limits it
 * defines (MAX_ARGS); each entry names the test, the program (a boot
 * module), its arguments, how it must end, whether it is hostile (then
 * t_alive runs after it) and what it needs (the server right, a device, the
 * disk driver, the file manager, the console server, the time server, the
 * process manager).
 */
#ifndef TEST_TABLE_H
#define TEST_TABLE_H

#include <myrmex/proc.h>

enum ending { EXITS, KILLED };

struct test {
	const char *name;
	const char *module;
	const char *args[MAX_ARGS]; /* after argv[0], which is the module name */
	enum ending ending;
	int value;                  /* exit code or signal number */
	int hostile;                /* followed by alive-after-<name> */
	unsigned spawn_flags;       /* MYRMEX_SPAWN_SERVER: the test may start servers */
};

/* IPC tests start their own servers: they need the server right. */
#define SERVER MYRMEX_SPAWN_SERVER
/* A POSIX process: its file calls go to the file manager (docs/posix.md). */
#define POSIX MYRMEX_SPAWN_POSIX
#define GIVE_NIC (1u << 31)  /* testinit only: give the test the emulated e1000 */
#define DISK (1u << 30)      /* testinit only: the virtio-blk driver runs during the test */
#define FS (1u << 29)        /* testinit only: the driver and the file manager run during it */
#define ON_DISK(n) ((unsigned)(n) << 24)  /* testinit only: DISK and FS use disk n (0..15) */
#define DISK_OF(flags) ((int)((flags) >> 24 & 15u))
#define CONSOLE (1u << 28)   /* testinit only: the console server (uart) runs during the test */
#define GIVE_COM1 (1u << 23) /* testinit only: give the test COM1, the serial port's UART */
#define TIME (1u << 22)      /* testinit only: the time server (timed) runs during the test */
/* testinit only: a POSIX test (which holds no call rights by default) given
 * the right to call the file manager and the time server directly, for
 * their statistics and the cache drop it measures with. */
#define MEASURE (1u << 21)
/* testinit only: the test holds no call rights at all (an ordinary program,
 * as the shell starts them), even when it is not a POSIX process. */
#define NO_RIGHTS (1u << 20)
#define PM (1u << 19)        /* testinit only (with FS): the process manager (pm) runs during it */
/* testinit only: a POSIX test given the right to call every server (2..6),
 * as a hostile server with a wide table entry would have: its native calls
 * reach the servers' own checks, not only the kernel's refusal. */
#define SERVER_RIGHTS (1u << 18)
/* testinit only: the virtio-net driver (virtio_net, given the NIC that
 * run_tests.py --net attaches) runs during the test (docs/net.md). */
#define NET (1u << 17)
/* testinit only (with NET): the Ethernet server (eth) runs over the driver. */
#define ETH (1u << 16)
/* testinit only (with NET): the RTL8139 driver (rtl8139) instead of
 * virtio_net (run_tests.py --net-model virtio,rtl8139 attaches both NICs).
 * Bit 15: MYRMEX_SPAWN_DEVICE's index stays below it. */
#define RTL (1u << 15)
/* testinit only (with NET and ETH): the TCP/IP server (tcpip) runs over the
 * Ethernet server, on the second virtio-net NIC, which run_tests.py --net
 * --net-model ...,user puts on QEMU's user network (docs/net.md, "TCP/IP").
 * Bit 7: below MYRMEX_SPAWN_DEVICE's bits, above the spawn flags. */
#define INET (1u << 7)
/* testinit only (with INET): the test may call the TCP/IP server itself
 * (paper 002's send path, t_inet_zc). Bit 6, below INET. */
#define INET_RIGHT (1u << 6)
/* testinit only (with INET): the TCP/IP server on the first virtio-net NIC,
 * the one joined to tools/net_peer.py, at 10.0.3.15/24 (the peer plays
 * 10.0.3.1: t_inet_wire's malformed packets). Bit 5. */
#define WIRE (1u << 5)
/* testinit only (with INET): the TCP/IP server is started with `tcpip dhcp`
 * (QEMU's user network offers 10.0.2.15/24 via 10.0.2.2). Bit 4, the last
 * free one above the spawn flags. */
#define DHCP (1u << 4)
#define TESTINIT_FLAGS (GIVE_NIC | DISK | FS | ON_DISK(15) | CONSOLE | GIVE_COM1 | TIME | \
                        MEASURE | NO_RIGHTS | PM | SERVER_RIGHTS | NET | ETH | RTL | INET | \
                        INET_RIGHT | WIRE | DHCP)

/* The virtio-blk disks of `make test`, in the order of the Makefile's
 * TEST_DISKS: QEMU puts them on the PCI bus in command-line order, and the
 * kernel lists PCI devices in bus order. */
enum {
	DISK_PATTERN,    /* disk.img (tools/mkpattern.py): t_disk */
	DISK_FS,         /* fs.img (tools/mkfsimage.py): t_fs, t_fs_write, t_fs_errors */
	DISK_FULL,       /* full.img: t_fs_full */
	DISK_BAD_MAGIC,  /* corrupt-<kind>.img: t_fs_corrupt <kind> */
	DISK_BAD_COUNT,
	DISK_BAD_INODE,
	DISK_BAD_DIRENT,
};
#define FS_TEST(name, module, mode, disk) \
	{ name, module, { mode }, EXITS, 0, 0, FS | ON_DISK(disk) }
/* A test of the file manager's POSIX side on fs.img: it may register as
 * the process manager, whose calls (FS_FORK, FS_EXEC, FS_OPEN_AS) it makes. */
#define FS_PM_TEST(name, module, mode) \
	{ name, module, { mode }, EXITS, 0, 0, FS | ON_DISK(DISK_FS) | SERVER }
/* The file manager's cache in MiB: small, so that the tests' big files make
 * it evict and write back. */
#define FS_CACHE_MIB "2"
#define FS_SHUTDOWN_NS (30ULL * 1000000000ULL)

/* The fuzzer's processes: POSIX ones, with every server they may call. */
#define FUZZ_FLAGS (FS | ON_DISK(DISK_FS) | CONSOLE | TIME | PM | POSIX)

#define FAULT(kind, sig) { "fault-" kind, "t_fault", { kind }, KILLED, sig, 1, 0 }
/* A signal test mode that must end the process with SIGSEGV (hostile). */
#define SIGNAL_DEATH(prefix, module, mode) \
	{ prefix mode, module, { mode }, KILLED, SIGSEGV, 1, 0 }

static const struct test tests[] = {
	{ "hello", "t_hello", { "alpha", "beta" }, EXITS, 0, 0, 0 },
	{ "ids", "t_ids", { 0 }, EXITS, 0, 0, 0 },
	{ "time", "t_time", { 0 }, EXITS, 0, 0, 0 },
	{ "brk", "t_brk", { 0 }, EXITS, 0, 0, 0 },
	{ "mmap", "t_mmap", { 0 }, EXITS, 0, 0, 0 },
	{ "threads", "t_threads", { 0 }, EXITS, 0, 0, 0 },
	{ "threads-group-exit", "t_threads", { "group" }, EXITS, 7, 0, 0 },
	{ "threads-leader-exit", "t_threads", { "leader" }, EXITS, 5, 0, 0 },
	{ "futex", "t_futex", { 0 }, EXITS, 0, 0, 0 },
	{ "sched", "t_sched", { STRINGIFY(TEST_PRIO) }, EXITS, 0, 0, 0 },
	{ "spawn", "t_spawn", { 0 }, EXITS, 0, 0, 0 },
	{ "alive", "t_alive", { 0 }, EXITS, 0, 0, 0 },
	{ "signal", "t_signal", { 0 }, EXITS, 0, 0, 0 },
	{ "signal-term", "t_signal", { "term" }, KILLED, SIGTERM, 0, 0 },
	{ "signal-blocked-fatal", "t_signal", { "blocked-fatal" }, KILLED, SIGUSR1, 0, 0 },
	{ "signal-abort", "t_signal", { "abort" }, KILLED, SIGABRT, 0, 0 },
	{ "signal-fault", "t_signal_fault", { 0 }, EXITS, 0, 0, 0 },
	SIGNAL_DEATH("signal-fault-", "t_signal_fault", "no-handler"),
	SIGNAL_DEATH("signal-fault-", "t_signal_fault", "blocked"),
	SIGNAL_DEATH("signal-fault-", "t_signal_fault", "fault-in-handler"),
	SIGNAL_DEATH("signal-fault-", "t_signal_fault", "overflow"),
	{ "signal-bad", "t_signal_bad", { 0 }, EXITS, 0, 1, 0 },
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "unmapped-stack"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "no-restorer"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "kernel-handler"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "noncanonical-handler"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-rip"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-hole-rip"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-rsp"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-mxcsr"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-fpstate"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-unmapped"),
	SIGNAL_DEATH("signal-bad-", "t_signal_bad", "forged-privilege"),
	{ "signal-bad-forged-restore", "t_signal_bad", { "forged-restore" }, EXITS, 0, 1, 0 },
	{ "signal-bad-forged-nofpu", "t_signal_bad", { "forged-nofpu" }, EXITS, 0, 1, 0 },
	{ "pgrp", "t_pgrp", { 0 }, EXITS, 0, 0, 0 },
	FAULT("null-read", SIGSEGV),
	FAULT("null-write", SIGSEGV),
	FAULT("kernel-read", SIGSEGV),
	FAULT("kernel-write", SIGSEGV),
	FAULT("physmap-read", SIGSEGV),
	FAULT("physmap-write", SIGSEGV),
	FAULT("exec-nx", SIGSEGV),
	FAULT("exec-kernel", SIGSEGV),
	FAULT("noncanonical", SIGSEGV),
	FAULT("privileged", SIGSEGV),
	FAULT("port-io", SIGSEGV),
	FAULT("read-cr3", SIGSEGV),
	FAULT("soft-int", SIGSEGV),
	FAULT("ud", SIGILL),
	FAULT("divide", SIGFPE),
	FAULT("int3", SIGTRAP),
	FAULT("stack-overflow", SIGSEGV),
	FAULT("write-readonly", SIGSEGV),
	FAULT("write-text", SIGSEGV),
	FAULT("write-rodata", SIGSEGV),
	FAULT("kernel-stack-syscall", SIGSEGV),
	FAULT("sysret-noncanonical", SIGSEGV),
	FAULT("thread-bad-stack", SIGSEGV),
	{ "fault-hostile-rsp", "t_fault", { "hostile-rsp" }, EXITS, 0, 1, 0 },
	{ "badsys", "t_badsys", { 0 }, EXITS, 0, 1, 0 },
	/* Wrapped calls and the trap gate (issue 18). */
	{ "batch", "t_batch", { 0 }, EXITS, 0, 1, 0 },
	{ "ktouch", "t_ktouch", { 0 }, EXITS, 0, 1, 0 },
	{ "fthread", "t_fthread", { 0 }, EXITS, 0, 0, 0 },
	{ "exhaust-mem", "t_exhaust_mem", { 0 }, EXITS, 0, 1, 0 },
	{ "exhaust-threads", "t_exhaust_threads", { 0 }, EXITS, 0, 1, 0 },
	{ "exhaust-threads-abandon", "t_exhaust_threads", { "abandon" }, EXITS, 0, 1, 0 },
	{ "exhaust-procs", "t_exhaust_procs", { 0 }, EXITS, 0, 1, 0 },
	{ "ipc-sync", "t_ipc_sync", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-fast", "t_ipc_fast", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-async", "t_ipc_async", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-threads", "t_ipc_threads", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-stages", "t_ipc_stages", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-limits", "t_ipc_limits", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-register", "t_ipc_register", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-queue", "t_ipc_queue", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-death", "t_ipc_death", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-orphan", "t_ipc_orphan", { 0 }, EXITS, 0, 0, SERVER },
	{ "ipc-stage-death-async", "t_ipc_stage_death", { "async" }, EXITS, 0, 0, SERVER },
	{ "ipc-stage-death-sync", "t_ipc_stage_death", { "sync" }, EXITS, 0, 0, SERVER },
	{ "ipc-badcalls", "t_ipc_badcalls", { 0 }, EXITS, 0, 1, SERVER },
	{ "ipc-claim", "t_ipc_claim", { "calls" }, EXITS, 0, 1, SERVER },
	{ "ipc-exhaust", "t_ipc_exhaust", { 0 }, EXITS, 0, 1, SERVER },
	{ "ipc-touch-freed", "t_ipc_touch", { "freed" }, KILLED, SIGSEGV, 1, 0 },
	{ "ipc-touch-parked", "t_ipc_touch", { "parked" }, KILLED, SIGSEGV, 1, 0 },
	{ "ipc-touch-passed-data", "t_ipc_touch", { "passed-data" }, KILLED, SIGSEGV, 1, SERVER },
	{ "ipc-touch-passed-ctl", "t_ipc_touch", { "passed-ctl" }, KILLED, SIGSEGV, 1, SERVER },
	{ "ipc-touch-returned", "t_ipc_touch", { "returned" }, KILLED, SIGSEGV, 1, SERVER },
	/* Isolation (issue 14): what an ordinary program may not do to servers. */
	{ "attack-calls", "t_attack", { "calls" }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | TIME | NO_RIGHTS },
	{ "attack-cancel-other", "t_attack", { "cancel-other" }, EXITS, 0, 1, CONSOLE | SERVER },
	{ "attack-ret-theft", "t_attack", { "ret-theft" }, EXITS, 0, 1, SERVER },
	{ "attack-ica-slots", "t_attack", { "ica-slots" }, EXITS, 0, 1, SERVER },
	{ "attack-signals", "t_attack", { "signals" }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | TIME | POSIX },
	/* Recovery (issue 14): the service manager restarts the disk driver, the
	 * time server and the console server killed under load. */
	{ "recover", "t_recover", { "test" }, EXITS, 0, 0, SERVER | MYRMEX_SPAWN_MANAGER },
	/* The network's servers killed under TCP transfers (services.net). */
	{ "recover-net", "t_recover", { "net" }, EXITS, 0, 0, SERVER | MYRMEX_SPAWN_MANAGER },
	/* The process manager's kernel calls: the test registers as coreid 5. */
	{ "pm-fork", "t_pm_fork", { "cow" }, EXITS, 0, 0, SERVER },
	{ "pm-fork-calls", "t_pm_fork", { "calls" }, EXITS, 0, 1, SERVER },
	{ "pm-fork-abandon", "t_pm_fork", { "abandon" }, EXITS, 0, 1, SERVER },
	{ "pm-fork-forged", "t_pm_fork", { "forged" }, EXITS, 0, 1, SERVER },
	{ "pm-exec-errors", "t_pm_exec", { "errors" }, EXITS, 0, 1, SERVER },
	{ "pm-exec-threads", "t_pm_exec", { "threads" }, EXITS, 0, 0, SERVER },
	{ "dev-none", "t_dev", { "none" }, EXITS, 0, 1, 0 },
	{ "dev-owner", "t_dev", { "owner" }, EXITS, 0, 1, GIVE_NIC },
	{ "disk-info", "t_disk", { "info" }, EXITS, 0, 0, DISK },
	{ "disk-read", "t_disk", { "read" }, EXITS, 0, 0, DISK },
	{ "disk-write", "t_disk", { "write" }, EXITS, 0, 0, DISK },
	{ "disk-async", "t_disk", { "async" }, EXITS, 0, 0, DISK },
	{ "disk-range", "t_disk", { "range" }, EXITS, 0, 1, DISK },
	{ "disk-small", "t_disk", { "small" }, EXITS, 0, 1, DISK },
	{ "disk-badop", "t_disk", { "badop" }, EXITS, 0, 1, DISK },
	{ "disk-orphan", "t_disk", { "orphan" }, EXITS, 0, 0, DISK },
	/* On fs.img, with the file manager: the driver serves it alone. */
	{ "disk-not-client", "t_disk", { "not-client" }, EXITS, 0, 1, FS | ON_DISK(DISK_FS) },
	/* The network (docs/net.md): the virtio-net driver, frames echoed by
	 * the host peer tools/net_peer.py. */
	{ "net-driver-echo", "t_net", { "driver-echo" }, EXITS, 0, 0, NET },
	{ "net-driver-bad", "t_net", { "driver-bad" }, EXITS, 0, 1, NET },
	{ "net-driver-orphan", "t_net", { "driver-orphan" }, EXITS, 0, 0, NET },
	/* ... and through the Ethernet server (paper 004's three processes). */
	{ "net-eth-echo", "t_net", { "eth-echo" }, EXITS, 0, 0, NET | ETH },
	{ "net-eth-bad", "t_net", { "eth-bad" }, EXITS, 0, 1, NET | ETH },
	{ "net-eth-orphan", "t_net", { "eth-orphan" }, EXITS, 0, 0, NET | ETH },
	/* Two programs receiving one EtherType each get every frame. */
	{ "net-eth-fanout", "t_net", { "eth-fanout" }, EXITS, 0, 0, NET | ETH },
	/* It starts (and kills) its own driver and Ethernet server. */
	{ "net-eth-driver-death", "t_net", { "eth-driver-death" }, EXITS, 0, 1,
	  SERVER | MYRMEX_SPAWN_MANAGER },
	/* It starts (and kills) its own driver: requests in flight at its death. */
	{ "net-driver-inflight", "t_net", { "driver-inflight" }, EXITS, 0, 1,
	  SERVER | MYRMEX_SPAWN_MANAGER },
	/* The same over the RTL8139 (rtl8139): its receive ring costs a copy
	 * per frame, counted. */
	{ "net-rtl-driver-echo", "t_net", { "driver-echo", "rtl8139" }, EXITS, 0, 0, NET | RTL },
	{ "net-rtl-driver-bad", "t_net", { "driver-bad", "rtl8139" }, EXITS, 0, 1, NET | RTL },
	{ "net-rtl-driver-orphan", "t_net", { "driver-orphan", "rtl8139" }, EXITS, 0, 0, NET | RTL },
	{ "net-rtl-eth-echo", "t_net", { "eth-echo", "rtl8139" }, EXITS, 0, 0, NET | ETH | RTL },
	{ "net-rtl-eth-bad", "t_net", { "eth-bad", "rtl8139" }, EXITS, 0, 1, NET | ETH | RTL },
	{ "net-rtl-eth-orphan", "t_net", { "eth-orphan", "rtl8139" }, EXITS, 0, 0, NET | ETH | RTL },
	{ "net-rtl-eth-driver-death", "t_net", { "eth-driver-death", "rtl8139" }, EXITS, 0, 1,
	  SERVER | MYRMEX_SPAWN_MANAGER },
	{ "net-rtl-driver-inflight", "t_net", { "driver-inflight", "rtl8139" }, EXITS, 0, 1,
	  SERVER | MYRMEX_SPAWN_MANAGER },
	/* Linux AF_PACKET sockets of a POSIX process, through the file
	 * manager and the Ethernet server. */
	{ "net-packet", "t_packet", { 0 }, EXITS, 0, 0,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | NET | ETH },
	/* TCP and UDP sockets of POSIX processes, through the file manager
	 * and the TCP/IP server, to a host peer over QEMU's user network. */
	{ "inet-sockets", "t_inet", { 0 }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | PM | NET | ETH | INET },
	/* Paper 002's send path: a POSIX program calling the TCP/IP server
	 * itself, the payload sent from its data ICAs without a copy. */
	{ "inet-zerocopy", "t_inet_zc", { 0 }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | PM | NET | ETH | INET | INET_RIGHT },
	/* Malformed IPv4 and a SYN flood from the host peer on the wire. */
	{ "inet-wire-fuzz", "t_inet_wire", { 0 }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | PM | NET | ETH | INET | WIRE },
	/* Raw ICMP sockets, options, /proc/net and the routing ioctls on the
	 * user network; then an address by DHCP. */
	{ "inet-more", "t_inet_more", { 0 }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | PM | NET | ETH | INET },
	{ "inet-dhcp", "t_inet_more", { "dhcp" }, EXITS, 0, 0,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | PM | NET | ETH | INET | DHCP },
	{ "uart-none", "t_uart", { "none" }, EXITS, 0, 1, 0 },
	{ "uart-pci", "t_uart", { "pci" }, EXITS, 0, 1, GIVE_NIC },
	{ "uart-owner", "t_uart", { "owner" }, EXITS, 0, 1, GIVE_COM1 },
	{ "uart-quiesced", "t_uart", { "quiesced" }, EXITS, 0, 0, GIVE_COM1 },
	{ "console-write", "t_console", { "write" }, EXITS, 0, 0, CONSOLE | SERVER },
	{ "console-read", "t_console", { "read" }, EXITS, 0, 0, CONSOLE | SERVER },
	{ "console-bad", "t_console", { "bad" }, EXITS, 0, 1, CONSOLE | SERVER },
	{ "console-stage", "t_console", { "stage" }, EXITS, 0, 0, CONSOLE | SERVER },
	{ "console-orphan", "t_console", { "orphan" }, EXITS, 0, 0, CONSOLE | SERVER },
	{ "console-file", "t_console", { "file" }, EXITS, 0, 0, CONSOLE | FS | ON_DISK(DISK_FS) },
	{ "console-tty-defaults", "t_console_tty", { "defaults" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-raw", "t_console_tty", { "raw" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-eof", "t_console_tty", { "eof" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-intr", "t_console_tty", { "intr" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-quit", "t_console_tty", { "quit" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-susp", "t_console_tty", { "susp" }, EXITS, 0, 0, CONSOLE },
	{ "console-tty-bad", "t_console_tty", { "bad" }, EXITS, 0, 1, CONSOLE },
	/* fs-persist reads what fs-write left; both run on the same image. */
	FS_TEST("fs-read", "t_fs", "read", DISK_FS),
	FS_TEST("fs-write", "t_fs_write", "write", DISK_FS),
	FS_TEST("fs-persist", "t_fs_write", "persist", DISK_FS),
	FS_TEST("fs-errors", "t_fs_errors", "errors", DISK_FS),
	FS_TEST("fs-hostile-ctl", "t_fs_errors", "hostile-ctl", DISK_FS),
	/* The POSIX side: these act as the process manager (SERVER). */
	FS_PM_TEST("fs-posix-fds", "t_fs_posix", "fds"),
	FS_PM_TEST("fs-posix-paths", "t_fs_posix", "paths"),
	FS_TEST("fs-poll", "t_fs_poll", "poll", DISK_FS),
	{ "fs-poll-console", "t_fs_poll", { "console" }, EXITS, 0, 0, CONSOLE | FS | ON_DISK(DISK_FS) },
	FS_TEST("fs-events", "t_fs_events", "events", DISK_FS),
	FS_PM_TEST("fs-pipe-basic", "t_fs_pipe", "basic"),
	FS_PM_TEST("fs-pipe-park", "t_fs_pipe", "park"),
	FS_PM_TEST("fs-pipe-transfer", "t_fs_pipe_proc", "transfer"),
	FS_PM_TEST("fs-pipe-exit", "t_fs_pipe_proc", "exit"),
	/* Many processes creating, writing, renaming, truncating, removing at
	 * once (issue 19); the e2fsck of fs.img after the boot checks the disk. */
	FS_TEST("fs-stress", "t_fs_stress", "run", DISK_FS),
	{ "posix-calls", "t_posix_calls", { 0 }, EXITS, 0, 0, FS | ON_DISK(DISK_FS) | CONSOLE | POSIX },
	/* File mappings (docs/fmap.md): the On-Memory File and mmap of files,
	 * POSIX processes on fs.img (their scratch files removed at the end). */
	{ "omf", "t_omf", { 0 }, EXITS, 0, 0, FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | MEASURE },
	{ "omf-dma", "t_omf", { "dma" }, EXITS, 0, 0, FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | MEASURE },
	{ "mmap-file", "t_mmap_file", { 0 }, EXITS, 0, 0, FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | MEASURE },
	{ "mmap-file-notice-self", "t_mmap_file", { "notice-self" }, EXITS, 0, 0,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | MEASURE },
	/* The time server: the Linux time calls of a POSIX process through it
	 * (messages on the console, so with the file manager and the console
	 * server); a native test forging its requests beside POSIX sleepers;
	 * the server's death (the test starts and kills its own timed). */
	{ "time-server", "t_time_server", { "posix" }, EXITS, 0, 0,
	  TIME | FS | ON_DISK(DISK_FS) | CONSOLE | POSIX | MEASURE },
	{ "time-server-forged", "t_time_server", { "forged" }, EXITS, 0, 1, TIME },
	/* Forwarded calls in a batch (issue 18). */
	{ "batch-forwarded", "t_batch", { "forwarded" }, EXITS, 0, 0,
	  TIME | FS | ON_DISK(DISK_FS) | CONSOLE | POSIX },
	/* Forwarded calls of a batch in one IPC (issue 18): counted with the
	 * file manager's counters, so MEASURE; a forked child killed, so PM. */
	{ "batch-fwd", "t_batch_fwd", { 0 }, EXITS, 0, 1,
	  FS | ON_DISK(DISK_FS) | CONSOLE | PM | POSIX | MEASURE },
	/* Fine-grained threads reading fs.img's files (issue 18). */
	{ "fthread-files", "t_fthread", { "files" }, EXITS, 0, 0,
	  FS | ON_DISK(DISK_FS) | CONSOLE | POSIX },
	{ "time-server-death", "t_time_server", { "death" }, EXITS, 0, 0, SERVER },
	/* The vDSO (issue 15): clock reads without a call, equal to the time
	 * server's; its pages written by nobody; after fork and execve. */
	{ "vdso", "t_vdso", { "main" }, EXITS, 0, 1,
	  TIME | FS | ON_DISK(DISK_FS) | CONSOLE | PM | POSIX | MEASURE },
	FS_TEST("fs-full", "t_fs_full", "full", DISK_FULL),
	FS_TEST("fs-corrupt-magic", "t_fs_corrupt", "magic", DISK_BAD_MAGIC),
	FS_TEST("fs-corrupt-count", "t_fs_corrupt", "count", DISK_BAD_COUNT),
	FS_TEST("fs-corrupt-inode", "t_fs_corrupt", "inode", DISK_BAD_INODE),
	FS_TEST("fs-corrupt-dirent", "t_fs_corrupt", "dirent", DISK_BAD_DIRENT),
	/* The system-call fuzzer (docs/testing.md): children of a POSIX
	 * process make random Linux and native calls; then the system must
	 * still work. Last, on fs.img, after the tests that read its tree. */
	{ "fuzz", "t_fuzz", { "1", "2000", "4" }, EXITS, 0, 1, FUZZ_FLAGS },
	{ "fuzz-2", "t_fuzz", { "2", "2000", "4" }, EXITS, 0, 1, FUZZ_FLAGS | SERVER_RIGHTS },
};

#endif
