# Myrmex top-level build.
#
#   make          build the kernel, the user programs, tests and benchmarks
#   make run      boot Myrmex in QEMU to a busybox shell on the serial console
#   make demo     boot the demo init (the mechanisms one by one), then power off
#   make test     host unit tests + booted integration tests: "N passed, N failed",
#                 then the file service's other configurations (make test-fsconf)
#                 and the SH-4 port's tests (make ARCH=sh4 test, mk/arch-sh4.mk)
#   make fuzz     the system-call fuzzer, one long seeded round (SEED= ROUNDS= PROCS=)
#   make bench    benchmarks under TCG -icount (instructions) and normally (cycles)
#   make clean
#
# `make run` and `make test` first run scripts/setup.sh, which installs missing
# host packages (or says what to install).

BUILD        := build
ARCH         := x86_64
PYTHON       := python3
# `make` alone builds everything (the first rule below is not `all`).
.DEFAULT_GOAL := all

# The SH-4 port has rules of its own (mk/arch-sh4.mk, docs/sh4.md); the
# rest of this file is the x86-64 build.
ifeq ($(ARCH),sh4)
include mk/arch-sh4.mk
else

# ---------------------------------------------------------------- kernel --
KCC          := gcc
KERNEL_CFLAGS := -std=gnu17 -O2 -g -ffreestanding -fno-builtin -nostdlib \
	-mno-red-zone -mgeneral-regs-only -mcmodel=kernel -fno-pic -fno-pie \
	-fno-stack-protector -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-fno-tree-loop-distribute-patterns -Wa,--noexecstack -Wall -Wextra -Werror \
	-Ikernel/include -Ikernel/arch/$(ARCH)/include -Iinclude
KERNEL_LDFLAGS := -nostdlib -static -no-pie -z max-page-size=0x1000 -z noexecstack -Wl,--build-id=none \
	-T kernel/arch/$(ARCH)/linker.ld

KERNEL_C   := $(wildcard kernel/core/*.c) $(wildcard kernel/posix/*.c) \
	$(wildcard kernel/arch/$(ARCH)/*.c) $(wildcard kernel/arch/$(ARCH)/posix/*.c)
KERNEL_S   := $(wildcard kernel/arch/$(ARCH)/*.S)
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(KERNEL_C)) $(patsubst %.S,$(BUILD)/%.o,$(KERNEL_S))
KERNEL_ELF := $(BUILD)/kernel/myrmex.elf
KERNEL_BIN := $(BUILD)/kernel/myrmex.bin

$(BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel/%.o: kernel/%.S
	@mkdir -p $(dir $@)
	$(KCC) $(KERNEL_CFLAGS) -MMD -MP -c $< -o $@

# Two links: the symbol table made from the first goes into the second, in a
# section after all code, so no code address moves (see kernel/ksyms.h).
$(BUILD)/kernel/ksyms_empty.S: tools/gen_ksyms.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_ksyms.py --empty -o $@

$(BUILD)/kernel/ksyms_empty.o: $(BUILD)/kernel/ksyms_empty.S
	$(KCC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/kernel/pass1.elf: $(KERNEL_OBJ) $(BUILD)/kernel/ksyms_empty.o kernel/arch/$(ARCH)/linker.ld
	$(KCC) $(KERNEL_LDFLAGS) $(KERNEL_OBJ) $(BUILD)/kernel/ksyms_empty.o -o $@ -lgcc

$(BUILD)/kernel/ksyms.S: $(BUILD)/kernel/pass1.elf tools/gen_ksyms.py
	$(PYTHON) tools/gen_ksyms.py $< -o $@

$(BUILD)/kernel/ksyms.o: $(BUILD)/kernel/ksyms.S
	$(KCC) $(KERNEL_CFLAGS) -c $< -o $@

$(KERNEL_ELF): $(KERNEL_OBJ) $(BUILD)/kernel/ksyms.o kernel/arch/$(ARCH)/linker.ld
	$(KCC) $(KERNEL_LDFLAGS) $(KERNEL_OBJ) $(BUILD)/kernel/ksyms.o -o $@ -lgcc

$(KERNEL_BIN): $(KERNEL_ELF)
	objcopy -O binary $< $@

# The vDSO of POSIX processes (kernel/arch/$(ARCH)/vdso, include/myrmex/vdso.h):
# freestanding position-independent C linked by its own script into a small
# shared object (both hash tables, the LINUX_2.6 version), which
# vdso_image.S embeds in the kernel with .incbin. It must need no relocation.
VDSO_DIR    := kernel/arch/$(ARCH)/vdso
VDSO_SO     := $(BUILD)/$(VDSO_DIR)/vdso.so
VDSO_CFLAGS := -std=gnu17 -O2 -fPIC -ffreestanding -nostdlib -fno-builtin -fno-stack-protector \
	-fno-asynchronous-unwind-tables -mgeneral-regs-only -Wall -Wextra -Werror -Iinclude
VDSO_LDFLAGS := -nostdlib -shared -Wl,-T,$(VDSO_DIR)/vdso.lds -Wl,--hash-style=both \
	-Wl,-soname=linux-vdso.so.1 -Wl,--build-id=none -Wl,-Bsymbolic -Wl,-z,max-page-size=4096 \
	-Wl,-z,noexecstack

$(BUILD)/$(VDSO_DIR)/vdso.o: $(VDSO_DIR)/vdso.c
	@mkdir -p $(dir $@)
	$(KCC) $(VDSO_CFLAGS) -MMD -MP -c $< -o $@

$(VDSO_SO): $(BUILD)/$(VDSO_DIR)/vdso.o $(VDSO_DIR)/vdso.lds
	$(KCC) $(VDSO_LDFLAGS) $< -o $@
	@if readelf -r $@ | grep -q 'Relocation section'; then \
		echo "vdso: $@ has relocations"; rm -f $@; exit 1; fi

$(BUILD)/kernel/arch/$(ARCH)/vdso_image.o: $(VDSO_SO)
$(BUILD)/kernel/arch/$(ARCH)/vdso_image.o: KERNEL_CFLAGS += -DVDSO_IMAGE_PATH='"$(VDSO_SO)"'

# ------------------------------------------------------ 32-bit port check --
# make port-check: the portable kernel (kernel/core, kernel/posix) compiled
# for a 32-bit CPU against the stub port kernel/arch/stub32 and linked with
# it (so every function of kernel/arch.h is provided), and every user ABI
# header (include/myrmex) compiled for 32 and for 64 bits (its layout
# asserts must hold on both). `make test` runs it first.
PORT32        := stub32
PORT32_BUILD  := $(BUILD)/port32
PORT32_CFLAGS := $(filter-out -mno-red-zone -mcmodel=kernel -Ikernel/arch/$(ARCH)/include,$(KERNEL_CFLAGS)) \
	-m32 -Ikernel/arch/$(PORT32)/include
PORT32_C   := $(wildcard kernel/core/*.c) $(wildcard kernel/posix/*.c) \
	$(wildcard kernel/arch/$(PORT32)/*.c) $(wildcard kernel/arch/$(PORT32)/posix/*.c)
PORT32_OBJ := $(patsubst %.c,$(PORT32_BUILD)/%.o,$(PORT32_C))
PORT32_ELF := $(PORT32_BUILD)/myrmex32.elf
ABI_HEADERS := $(wildcard include/myrmex/*.h)

$(PORT32_BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(PORT32_CFLAGS) -MMD -MP -c $< -o $@

$(PORT32_BUILD)/ksyms_empty.o: $(BUILD)/kernel/ksyms_empty.S
	@mkdir -p $(dir $@)
	$(KCC) $(PORT32_CFLAGS) -c $< -o $@

$(PORT32_ELF): $(PORT32_OBJ) $(PORT32_BUILD)/ksyms_empty.o kernel/arch/$(PORT32)/linker.ld
	$(KCC) -m32 -nostdlib -static -no-pie -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
		-T kernel/arch/$(PORT32)/linker.ld \
		$(PORT32_OBJ) $(PORT32_BUILD)/ksyms_empty.o -o $@ -lgcc

# abi-m32.ok, abi-m64.ok: each header alone, with -m32 or -m64.
$(PORT32_BUILD)/abi-%.ok: $(ABI_HEADERS)
	@mkdir -p $(dir $@)
	@for h in $(ABI_HEADERS); do \
		$(HOSTCC) -$* -std=gnu17 -ffreestanding -fsyntax-only -Wall -Wextra -Werror -Iinclude \
			-include $$h -x c /dev/null || { echo "port-check: $$h fails with -$*"; exit 1; }; \
	done
	@touch $@
	@echo "port-check: include/myrmex headers compile with -$*"

# ------------------------------------------------------------ user space --
# Static Linux x86-64 programs, built with musl: the same binaries run on Linux.
UCC         := musl-gcc
USER_CFLAGS := -std=gnu17 -O2 -g -static -no-pie -Wall -Wextra -Werror -Iinclude -Ilib/libmyrmex
# The library's portable files and its port's (lib/libmyrmex/arch/$(ARCH)).
LIBMYRMEX_SRC := $(wildcard lib/libmyrmex/*.c) $(wildcard lib/libmyrmex/*.S) \
	$(wildcard lib/libmyrmex/arch/$(ARCH)/*.c) $(wildcard lib/libmyrmex/arch/$(ARCH)/*.S)
LIBMYRMEX_HDR := $(wildcard lib/libmyrmex/*.h) $(wildcard lib/libmyrmex/arch/$(ARCH)/*.h)
LIBMYRMEX_OBJ := $(patsubst %,$(BUILD)/%.o,$(LIBMYRMEX_SRC))
LIBMYRMEX   := $(BUILD)/lib/libmyrmex.a

$(BUILD)/lib/libmyrmex/%.c.o: lib/libmyrmex/%.c $(LIBMYRMEX_HDR) $(wildcard include/myrmex/*.h)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -c $< -o $@

$(BUILD)/lib/libmyrmex/%.S.o: lib/libmyrmex/%.S
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -c $< -o $@

$(LIBMYRMEX): $(LIBMYRMEX_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# Demo programs (make run): user/<name>/*.c -> build/user/<name>
USER_PROGS := $(notdir $(wildcard user/*))
USER_BINS  := $(addprefix $(BUILD)/user/,$(USER_PROGS))
$(BUILD)/user/%: user/%/*.c $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) $(filter %.c,$^) $(LIBMYRMEX) -o $@

# Booted tests: tests/kernel/<name>.c -> build/tests/kernel/<name>
KTEST_SRC   := $(wildcard tests/kernel/*.c)
KTEST_BINS  := $(patsubst tests/kernel/%.c,$(BUILD)/tests/kernel/%,$(KTEST_SRC))
$(BUILD)/tests/kernel/%: tests/kernel/%.c $(wildcard tests/kernel/*.h) $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -Itests/kernel $< $(LIBMYRMEX) -o $@

# Benchmarks: bench/bench_*.c each with bench_stats.c; benchinit alone.
BENCH_PROGS := $(filter-out bench_stats,$(patsubst bench/%.c,%,$(wildcard bench/bench_*.c)))
BENCH_BINS  := $(BUILD)/bench/benchinit $(addprefix $(BUILD)/bench/,$(BENCH_PROGS))
$(BUILD)/bench/benchinit: bench/benchinit.c bench/bench.h $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -Ibench $< $(LIBMYRMEX) -o $@
$(BUILD)/bench/bench_%: bench/bench_%.c bench/bench_stats.c bench/bench.h $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -Ibench $< bench/bench_stats.c $(LIBMYRMEX) -o $@

# The cachesim QEMU TCG plugin (tools/cachesim, issue 18): a model of paper
# 001's data TLB and L2 caches driven by every guest data access, for the
# wsccache part of make bench (tools/bench_wsc_cache.py). A host shared object.
CACHESIM := $(BUILD)/tools/cachesim.so
$(CACHESIM): tools/cachesim/plugin.c tools/cachesim/model.c tools/cachesim/model.h \
		tools/cachesim/qemu_api.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu17 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
		tools/cachesim/plugin.c tools/cachesim/model.c -o $@

# POSIX benchmarks: bench/posix/<name>.c -> $(BUILD)/bench/posix/<name>, run from
# an ext2 disk under sysinit (tools/bench_posix.py); exit0, the program that
# posix.fork_exec_wait executes, is linked alone, as small as musl makes it.
BENCH_POSIX_BINS := $(patsubst bench/posix/%.c,$(BUILD)/bench/posix/%,$(wildcard bench/posix/*.c))
$(BUILD)/bench/posix/exit0: bench/posix/exit0.c
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) $< -o $@
$(BUILD)/bench/posix/%: bench/posix/%.c $(wildcard bench/posix/*.h) bench/bench_stats.c bench/bench.h $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) -Ibench $< bench/bench_stats.c $(LIBMYRMEX) -o $@

# On-Memory File benchmarks (issue 6): bench/fmap/<name>.c with fmap_bench.c ->
# $(BUILD)/bench/fmap/<name>, run from an ext2 disk under sysinit
# (tools/bench_fmap.py, which also builds Debian's PostMark there with
# postmark_shim.c). The OMF library calls are used once lib/libmyrmex/omf.c exists.
BENCH_FMAP_SRC  := $(filter-out bench/fmap/fmap_bench.c bench/fmap/postmark_shim.c,$(wildcard bench/fmap/*.c))
BENCH_FMAP_BINS := $(patsubst bench/fmap/%.c,$(BUILD)/bench/fmap/%,$(BENCH_FMAP_SRC))
BENCH_FMAP_OMF  := $(if $(wildcard lib/libmyrmex/omf.c),-DFMAP_OMF_LIB)
$(BUILD)/bench/fmap/%: bench/fmap/%.c bench/fmap/fmap_bench.c bench/fmap/fmap_bench.h $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) $(BENCH_FMAP_OMF) -Ibench/fmap $< bench/fmap/fmap_bench.c $(LIBMYRMEX) -o $@

# POSIX conformance suite: tests/posix/<name>.c -> build/posix/<name>, plain
# static musl programs (no Myrmex headers): the same binaries run on Linux and
# on Myrmex, and tools/posix_suite.py compares what they print (docs/testing.md).
POSIX_CFLAGS := -std=gnu17 -O2 -g -static -no-pie -Wall -Wextra -Werror
POSIX_SRC    := $(wildcard tests/posix/*.c)
POSIX_BINS   := $(patsubst tests/posix/%.c,$(BUILD)/posix/%,$(POSIX_SRC))
$(BUILD)/posix/%: tests/posix/%.c tests/posix/posix_test.h
	@mkdir -p $(dir $@)
	$(UCC) $(POSIX_CFLAGS) $< -o $@

# ------------------------------------------------------- host unit tests --
# Each tests/unit/test_<x>.c names the kernel sources it needs on a line
# "/* unit-sources: a.c b.c */".
HOSTCC      := gcc
UNIT_CFLAGS := -std=gnu17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Wall -Wextra -Werror -Ikernel/include -Ikernel/arch/$(ARCH)/include -Iinclude -Itests/unit
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))
unit_sources = $(shell sed -n 's|.*unit-sources: *\(.*\) *\*/.*|\1|p' $(1))

.SECONDEXPANSION:
$(BUILD)/unit/%: tests/unit/%.c $$(call unit_sources,tests/unit/%.c) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(UNIT_CFLAGS) $< $(call unit_sources,$<) -o $@

# --------------------------------------------------------------- servers --
# OS servers and drivers: servers/<group>/<name>/ holding a main.c, with every
# .c beside it -> build/servers/<name> (a folder without main.c, such as
# servers/fs/ext2, is a library for a server, not a program). They are boot
# modules of `make run` and `make test`, started by the init. A server links
# such a library by naming its folder in main.c: /* server-libraries: servers/fs/ext2 */
SERVER_DIRS := $(patsubst %/main.c,%,$(wildcard servers/*/*/main.c))
SERVER_BINS := $(addprefix $(BUILD)/servers/,$(notdir $(SERVER_DIRS)))
server_libs = $(shell sed -n 's|.*server-libraries: *\(.*\) *\*/.*|\1|p' $(wildcard servers/*/$(1)/main.c))
$(BUILD)/servers/%: $$(wildcard servers/*/$$*/*.c) $$(wildcard servers/*/$$*/*.h) \
		$$(foreach d,$$(call server_libs,$$*),$$(wildcard $$(d)/*.c $$(d)/*.h)) \
		$(wildcard include/myrmex/*.h) $(LIBMYRMEX)
	@mkdir -p $(dir $@)
	$(UCC) $(USER_CFLAGS) $(SERVER_CFLAGS) $(filter %.c,$^) $(LIBMYRMEX) $(SERVER_LIBS) -o $@
# lwIP for the TCP/IP server (servers/net/tcpip): Debian's source package,
# fetched from apt's mirror, checked and built by tools/build_lwip.py with the
# server's configuration (servers/net/tcpip/port); never kept in the tree.
LWIP_DIR  := $(BUILD)/lwip
LWIP_LIB  := $(LWIP_DIR)/liblwip.a
LWIP_PORT := servers/net/tcpip/port
$(LWIP_LIB): tools/build_lwip.py tools/debsrc.py $(wildcard $(LWIP_PORT)/*.h $(LWIP_PORT)/arch/*.h)
	$(PYTHON) tools/build_lwip.py $(LWIP_DIR) $(UCC) $(LWIP_PORT) $(filter-out -Werror,$(USER_CFLAGS))
$(BUILD)/servers/tcpip: $(LWIP_LIB)
$(BUILD)/servers/tcpip: SERVER_CFLAGS = -I$(LWIP_PORT) -I$(LWIP_DIR)/include
$(BUILD)/servers/tcpip: SERVER_LIBS = $(LWIP_LIB)
# GNU make for the fsconf part's commands (paper 003's figure 2): Debian's
# make-dfsg source, fetched and checked by tools/debsrc.py, built static with
# musl by tools/build_make.py; its untouched source is the commands' tree.
GNUMAKE_DIR := $(BUILD)/gnumake
GNUMAKE     := $(GNUMAKE_DIR)/make
$(GNUMAKE): tools/build_make.py tools/debsrc.py
	$(PYTHON) tools/build_make.py $(GNUMAKE_DIR)
# The service manager's table (docs/services.md), a boot module of its own.
SERVICE_TABLE := $(BUILD)/servers/services.conf
$(SERVICE_TABLE): servers/proc/svcman/services.conf
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/tests/kernel/services.test: tests/kernel/services.test
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/tests/kernel/services.net: tests/kernel/services.net
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/bench/services.bench: bench/services.bench
	@mkdir -p $(dir $@)
	cp $< $@

# ------------------------------------------------------------ disk images --
# The raw pattern disk of the driver tests, written by tools/mkpattern.py:
# sector s starts with s (8 bytes, little endian), the rest follows from s,
# so a test can check what it reads. `make test` writes a fresh one for every
# run (the tests write to it).
DISK_MIB  := 64
TEST_DISK := $(BUILD)/test/disk.img

# ext2 images, made by tools/mkfsimage.py with `mke2fs -t ext2 -b 4096 -d`
# (no root needed). The file-system tests' set (fs.img, full.img and the
# corrupt images) is written afresh for every `make test`, because the tests
# change it. TEST_DISKS is the order of the virtio-blk disks of `make test`:
# the pattern disk first (the disk tests use the first one), then these;
# testinit's DISK_* numbers count on this order. `make run` attaches the
# root image, made from the folder rootfs/ (once; delete it to start afresh).
FS_IMAGES  := fs.img full.img corrupt-magic.img corrupt-count.img corrupt-inode.img \
	corrupt-dirent.img
TEST_DISKS := $(TEST_DISK) $(addprefix $(BUILD)/test/,$(FS_IMAGES))
ROOT_MIB   := 64
ROOT_IMG   := $(BUILD)/run/root.img
FSIMAGE_PY := tools/mkfsimage.py tools/e2fs.py tools/ext2layout.py
# rootfs/ plus Debian's static busybox and its applets (tools/mkrootfs.py).
$(ROOT_IMG): tools/mkrootfs.py $(FSIMAGE_PY) $(shell find rootfs 2>/dev/null)
	$(PYTHON) tools/mkrootfs.py $@ $(ROOT_MIB)

# The disk of the file-system benchmarks (bench_fs): ext2 holding
# /bench/file64m, 64 MiB of pseudo-random bytes made by tools/mkbenchimg.py
# (not kept in git). bench.py gives every boot a fresh copy of it.
BENCH_DISK := $(BUILD)/bench/fs.img
$(BENCH_DISK): tools/mkbenchimg.py tools/e2fs.py
	$(PYTHON) tools/mkbenchimg.py $@

# ------------------------------------------------------------- commands --
.PHONY: shell-net shell-jobctl test-cachesim test-slowpath test-fsconf ipc-profile all kernel user servers tests benchmarks unit posix posix-suite run demo test bench setup clean \
	port-check fuzz

all: kernel user servers tests benchmarks unit posix
kernel: $(KERNEL_BIN)
user: $(USER_BINS)
servers: $(SERVER_BINS) $(SERVICE_TABLE)
tests: $(KTEST_BINS) $(BUILD)/tests/kernel/services.test $(BUILD)/tests/kernel/services.net
benchmarks: $(BENCH_BINS) $(BENCH_POSIX_BINS) $(BENCH_FMAP_BINS) $(CACHESIM)
unit: $(UNIT_BINS)
posix: $(POSIX_BINS)
port-check: $(PORT32_ELF) $(PORT32_BUILD)/abi-m32.ok $(PORT32_BUILD)/abi-m64.ok
	@echo "port-check: kernel/core and kernel/posix build and link for 32 bits ($(PORT32_ELF))"

setup:
	@scripts/setup.sh

# Boot modules: the first is init (pid 1); the others are programs it spawns.
# make run: sysinit brings the servers up and runs the shell from the disk.
RUN_MODULES  := "$(BUILD)/user/sysinit /bin/sh" $(BUILD)/user/posix_start $(SERVER_BINS) \
	$(SERVICE_TABLE)
# make demo: the demo init shows the mechanisms one by one and powers off.
DEMO_MODULES := $(BUILD)/user/init $(filter-out $(BUILD)/user/init $(BUILD)/user/sysinit,$(USER_BINS)) \
	$(SERVER_BINS)
TEST_MODULES := $(filter-out $(BUILD)/tests/kernel/testinit,$(KTEST_BINS)) $(SERVER_BINS) \
	$(BUILD)/tests/kernel/services.test $(BUILD)/tests/kernel/services.net
BENCH_SERVERS := $(BUILD)/servers/virtio_blk $(BUILD)/servers/fileman $(BUILD)/servers/svcman \
	$(BUILD)/servers/timed $(BUILD)/servers/uart $(BUILD)/servers/virtio_net $(BUILD)/servers/eth \
	$(BUILD)/servers/rtl8139 \
	$(BUILD)/bench/services.bench
BENCH_MODULES := $(filter-out $(BUILD)/bench/benchinit,$(BENCH_BINS)) $(BENCH_SERVERS)
# The POSIX boot's modules after sysinit (its init; the disk holds the programs).
BENCH_POSIX_MODULES := $(BUILD)/user/posix_start $(BUILD)/servers/timed \
	$(BUILD)/servers/virtio_blk $(BUILD)/servers/uart $(BUILD)/servers/fileman \
	$(BUILD)/servers/pm $(BUILD)/servers/procfs $(BUILD)/servers/svcman $(SERVICE_TABLE) \
	$(BUILD)/servers/virtio_net $(BUILD)/servers/eth $(BUILD)/servers/tcpip

# Where the instructions of an IPC round trip and of forwarded POSIX calls
# go: tools/ipc_profile.py single-steps them under QEMU's gdb stub.
ipc-profile: setup
	@$(MAKE) --no-print-directory all benchmarks
	$(PYTHON) tools/ipc_profile.py --build $(BUILD) --json $(BUILD)/bench/ipc_profile.json
	$(PYTHON) tools/ipc_profile.py --build $(BUILD) --posix-modules $(BENCH_POSIX_MODULES) \
		--json $(BUILD)/bench/ipc_profile_posix.json

run: setup
	@$(MAKE) --no-print-directory kernel user servers $(ROOT_IMG)
	$(PYTHON) tools/qemu.py run --user-net --kernel $(KERNEL_BIN) --disk $(ROOT_IMG) --modules $(RUN_MODULES)

# make shell-net: the network of `make run` used from its shell: ifconfig,
# wget, nc (client and server), httpd (tools/shell_net.py; make test runs it).
shell-net: setup
	@$(MAKE) --no-print-directory kernel user servers $(ROOT_IMG)
	$(PYTHON) tools/shell_net.py --build $(BUILD)

# make shell-jobctl: the shell of `make run` driven through the serial port:
# Ctrl-Z, jobs, bg, fg, the same session on Linux first and the job lines
# compared (tools/shell_jobctl.py --linux; not part of make test).
shell-jobctl: setup
	@$(MAKE) --no-print-directory kernel user servers $(ROOT_IMG)
	$(PYTHON) tools/shell_jobctl.py --build $(BUILD) --linux

demo: setup
	@$(MAKE) --no-print-directory kernel user servers $(ROOT_IMG)
	$(PYTHON) tools/qemu.py run --kernel $(KERNEL_BIN) --disk $(ROOT_IMG) --modules $(DEMO_MODULES)

# The NICs of the test and bench boots, each on a host peer of its own
# (docs/net.md): the net-* tests and bench_eth over virtio-net, the
# net-rtl-* tests and bench_eth again over the RTL8139.
NET_MODELS := virtio,rtl8139,user

# The file service's configuration (docs/fs.md, "Configurations"): one,
# split (the default), ult, klt. MYRMEX_FSCONF=klt make test ... (or FSCONF=klt)
# has the test init start the file manager so, and the POSIX boots give
# sysinit the boot argument fsconf=klt.
FSCONF ?= $(MYRMEX_FSCONF)
FSCONF_OPT := $(if $(FSCONF),-fsconf=$(FSCONF))
export MYRMEX_FSCONF := $(FSCONF)

# TESTS="t_hello t_mmap" runs a subset of the booted tests (and leaves the
# POSIX suite out; `make posix-suite` runs that alone).
test: setup
	@$(MAKE) --no-print-directory port-check
	@$(MAKE) --no-print-directory all
	$(PYTHON) tools/mkpattern.py $(TEST_DISK) $(DISK_MIB)
	$(PYTHON) tools/mkfsimage.py tests $(BUILD)/test
	MYRMEX_TEST_ELF=$(BUILD)/tests/kernel/t_hello $(PYTHON) tools/run_tests.py \
		--unit $(UNIT_BINS) --kernel $(KERNEL_BIN) $(addprefix --disk ,$(TEST_DISKS)) \
		--fs-image $(BUILD)/test/fs.img --full-image $(BUILD)/test/full.img \
		--log $(BUILD)/test/kernel.log --net --net-model $(NET_MODELS) \
		--init "$(BUILD)/tests/kernel/testinit $(FSCONF_OPT) $(TESTS)" --modules $(TEST_MODULES) \
		$(if $(TESTS),,--posix $(BUILD))
	$(if $(TESTS),,@$(MAKE) --no-print-directory test-cachesim)
	$(if $(TESTS),,@$(MAKE) --no-print-directory test-slowpath)
	$(if $(TESTS),,@$(MAKE) --no-print-directory test-fsconf)
	$(if $(TESTS),,@$(MAKE) --no-print-directory shell-net)
	$(if $(TESTS),,@$(MAKE) --no-print-directory ARCH=sh4 test)

# The IPC and POSIX tiers again with the IPC fast path off (kernel option
# ipc_fast=off, docs/ipc.md): every call then takes the slow path, which
# must give the same results. make test runs it after the full run.
SLOWPATH_TESTS := ipc* attack* posix* fs-posix* time* console* alive* batch-fwd* fthread-files*
# The booted check of the cachesim plugin (issue 18): t_cachesim alone under it.
test-cachesim: setup
	@$(MAKE) --no-print-directory kernel $(BUILD)/tests/kernel/t_cachesim $(CACHESIM)
	$(PYTHON) tools/cachesim_check.py --kernel $(KERNEL_BIN) \
		--program $(BUILD)/tests/kernel/t_cachesim --plugin $(CACHESIM) --out $(BUILD)/test

test-slowpath: setup
	@$(MAKE) --no-print-directory all
	$(PYTHON) tools/mkpattern.py $(TEST_DISK) $(DISK_MIB)
	$(PYTHON) tools/mkfsimage.py tests $(BUILD)/test
	MYRMEX_KERNEL_ARGS=ipc_fast=off MYRMEX_TEST_ELF=$(BUILD)/tests/kernel/t_hello \
		$(PYTHON) tools/run_tests.py --no-panic-checks --kernel $(KERNEL_BIN) \
		$(addprefix --disk ,$(TEST_DISKS)) \
		--fs-image $(BUILD)/test/fs.img --full-image $(BUILD)/test/full.img \
		--log $(BUILD)/test/kernel-slowpath.log \
		--init "$(BUILD)/tests/kernel/testinit $(SLOWPATH_TESTS)" --modules $(TEST_MODULES) \
		--posix $(BUILD)

# The file-system tiers and the POSIX suite again in each other
# configuration of the file service (docs/fs.md, "Configurations"), each on
# fresh images: make test runs it after the slow-path run.
FSCONF_CONFIGS := one ult klt
FSCONF_TESTS := fs* pm* posix-calls omf* mmap-file console-file disk-not-client \
	batch-fwd* fthread-files*
test-fsconf: setup
	@$(MAKE) --no-print-directory all
	@for conf in $(FSCONF_CONFIGS); do \
		echo "== file service configuration $$conf"; \
		$(PYTHON) tools/mkpattern.py $(TEST_DISK) $(DISK_MIB) && \
		$(PYTHON) tools/mkfsimage.py tests $(BUILD)/test && \
		MYRMEX_FSCONF=$$conf MYRMEX_TEST_ELF=$(BUILD)/tests/kernel/t_hello \
		$(PYTHON) tools/run_tests.py --no-panic-checks --kernel $(KERNEL_BIN) \
			$(addprefix --disk ,$(TEST_DISKS)) \
			--fs-image $(BUILD)/test/fs.img --full-image $(BUILD)/test/full.img \
			--log $(BUILD)/test/kernel-$$conf.log \
			--init "$(BUILD)/tests/kernel/testinit -fsconf=$$conf $(FSCONF_TESTS)" \
			--modules $(TEST_MODULES) --posix $(BUILD) || exit 1; \
	done

# The system-call fuzzer alone (tests/kernel/t_fuzz.c, docs/testing.md): the
# test init runs only its `fuzz` entry, with SEED (default: the date, in
# seconds), ROUNDS calls per thread, PROCS processes and FUZZ_DEADLINE
# seconds after which it kills its processes; FUZZ_VERBOSE=1 prints every
# call. The guest run is bounded by FUZZ_DEADLINE plus FUZZ_SLACK seconds.
# FUZZ_TEST=fuzz-2 fuzzes with the right to call every server (the servers'
# own checks), the default `fuzz` as an ordinary program without rights.
# The last line says how to replay the run.
ifndef SEED
SEED := $(shell date +%s)
endif
ROUNDS        ?= 20000
PROCS         ?= 8
FUZZ_DEADLINE ?= 300
FUZZ_SLACK    ?= 300
FUZZ_VERBOSE  ?= 0
FUZZ_TEST     ?= fuzz
FUZZ_ARGS = $(SEED),$(ROUNDS),$(PROCS),deadline=$(FUZZ_DEADLINE)$(if $(filter 1,$(FUZZ_VERBOSE)),$(comma)verbose)
comma := ,
fuzz: setup
	@$(MAKE) --no-print-directory kernel tests servers
	$(PYTHON) tools/mkpattern.py $(TEST_DISK) $(DISK_MIB)
	$(PYTHON) tools/mkfsimage.py tests $(BUILD)/test
	@$(PYTHON) tools/run_tests.py --no-panic-checks --kernel $(KERNEL_BIN) \
		$(addprefix --disk ,$(TEST_DISKS)) --fs-image $(BUILD)/test/fs.img \
		--log $(BUILD)/test/fuzz.log --timeout $$(($(FUZZ_DEADLINE) + $(FUZZ_SLACK))) \
		--init "$(BUILD)/tests/kernel/testinit -t$$(($(FUZZ_DEADLINE) + $(FUZZ_SLACK) / 2)) $(FUZZ_TEST)=$(FUZZ_ARGS)" \
		--modules $(TEST_MODULES); \
	status=$$?; \
	echo "fuzz: seed $(SEED), $(ROUNDS) rounds, $(PROCS) processes; log $(BUILD)/test/fuzz.log"; \
	echo "fuzz: replay with: make fuzz FUZZ_TEST=$(FUZZ_TEST) SEED=$(SEED) ROUNDS=$(ROUNDS) PROCS=$(PROCS) [FUZZ_VERBOSE=1]"; \
	exit $$status

# The POSIX conformance suite alone (make test runs it too): Linux's output
# (cached in $(BUILD)/posix-suite/linux-cache) against Myrmex's.
# POSIX="fork wait shell" runs a subset.
posix-suite: setup
	@$(MAKE) --no-print-directory kernel user servers posix
	$(PYTHON) tools/posix_suite.py --build $(BUILD) --kernel $(KERNEL_BIN) $(if $(POSIX),--only $(POSIX))

# Myrmex first, then the same bench binaries on Linux in the same QEMU machine
# (tools/linux_guest.py, kernel cached in build/linux); MYRMEX_BENCH_LINUX=0 skips Linux.
# Then the POSIX boot, on both (tools/bench_posix.py); MYRMEX_BENCH_ONLY=posix runs
# only that, MYRMEX_BENCH_ONLY=benchinit only the others; =fmap the On-Memory File
# boot, =wsc the wrapped-call boot (bench/posix/wsc_fwd alone, issue 18), =wsccache
# paper 001's cache and TLB experiment under the cachesim plugin
# (tools/bench_wsc_cache.py; MYRMEX_WSC_CACHE_STEP=4 for the 4 KiB grid). Plots
# with matplotlib (tools/plot_wsc.py, tools/plot_panels.py).
# The file service's configurations (tools/bench_fsconf.py, Linux beside):
# MYRMEX_BENCH_ONLY=fsconf, MYRMEX_FSCONF_CONFIGS=one,klt,linux for some of them.
bench: setup
	@$(MAKE) --no-print-directory kernel benchmarks $(BENCH_SERVERS) $(BENCH_DISK) \
		$(BUILD)/user/sysinit $(BENCH_POSIX_MODULES) $(GNUMAKE)
	$(PYTHON) tools/bench.py --kernel $(KERNEL_BIN) --init $(BUILD)/bench/benchinit \
		--modules $(BENCH_MODULES) --disk $(BENCH_DISK) --net --net-model $(NET_MODELS) \
		--out $(BUILD)/bench \
		--posix-init $(BUILD)/user/sysinit --posix-modules $(BENCH_POSIX_MODULES) \
		--posix-dir $(BUILD)/bench/posix --fmap-dir $(BUILD)/bench/fmap \
		--gnumake-dir $(GNUMAKE_DIR) --cachesim $(CACHESIM)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

endif   # ARCH
