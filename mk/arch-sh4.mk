# The SH-4 port's build (docs/sh4.md), included by the Makefile for
# `make ARCH=sh4 ...`: the kernel (kernel/arch/sh4 with the portable
# kernel) with Debian's sh4-linux-gnu cross compiler, musl and libmyrmex
# for SH-4, the SH-4 test programs (tests/sh4) and the shared ones
# (tests/kernel, user/), their boot-module archive (the initrd QEMU's r2d
# loads), and the run and test commands on qemu-system-sh4 -M r2d.
#
#   make ARCH=sh4          the kernel, musl, libmyrmex and the test programs
#   make ARCH=sh4 run      boot the SH-4 tests' init on the serial console
#   make ARCH=sh4 test     the booted SH-4 tests: "sh4: N passed, N failed"
#   make ARCH=sh4 bench    paper 002's figures with either ICA method (instructions)

SH4_BUILD  := $(BUILD)/sh4
SH4_CROSS  := sh4-linux-gnu-
SH4_CC     := $(SH4_CROSS)gcc

# The optimization every SH-4 object is built with (kernel, tests, bench and
# whatever else builds for SH-4): one setting for the whole port.
SH4_OPT    := -O2

# The cure for GCC 12's SH back end (docs/sh4.md, "How the port is
# optimized"): a plugin, built here with the host g++ against the plugin
# headers of gcc-12-plugin-dev-sh4-linux-gnu, replaces the sh_treg_combine
# passes, which deleted tests of spilled bools (tests/sh4/t_codegen.c).
# Every SH-4 compile loads it and depends on it. SH4_GCC_CURE= builds
# without it (the broken setup, to see t_codegen fail).
SH4_PLUGIN_INC := $(shell $(SH4_CC) -print-file-name=plugin)/include
SH4_PLUGIN   := $(SH4_BUILD)/tools/no_treg_combine.so
# (An absolute path: musl is built in a folder of its own.)
SH4_GCC_CURE := -fplugin=$(abspath $(SH4_PLUGIN))
HOSTCXX      ?= g++
$(SH4_PLUGIN): tools/gcc-sh4/no_treg_combine.cc
	@mkdir -p $(dir $@)
	@test -f $(SH4_PLUGIN_INC)/gcc-plugin.h || { echo "no GCC plugin headers for SH-4:" \
		"install gcc-12-plugin-dev-sh4-linux-gnu (scripts/setup.sh)"; exit 1; }
	$(HOSTCXX) -std=gnu++17 -shared -fPIC -fno-rtti -O2 -Wall -Wextra -Werror \
		-I$(SH4_PLUGIN_INC) $< -o $@

SH4_COMMON := -std=gnu17 $(SH4_OPT) $(SH4_GCC_CURE) -g -ml -m4-nofpu -ffreestanding \
	-fno-builtin -nostdlib -fno-pic -fno-pie -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
	-Wa,--noexecstack -Wall -Wextra -Werror

# Every SH-4 compile depends on the plugin and on this stamp, which changes
# when the flags do (a new SH4_OPT rebuilds everything): a new rule that
# compiles for SH-4 takes its flags from SH4_COMMON (or SH4_KCFLAGS,
# SH4_UCFLAGS) and lists $(SH4_CDEPS) among its prerequisites.
SH4_STAMP := $(SH4_BUILD)/cflags.stamp
$(shell mkdir -p $(SH4_BUILD) && { echo '$(SH4_COMMON)' | cmp -s - $(SH4_STAMP) || \
	echo '$(SH4_COMMON)' > $(SH4_STAMP); })
SH4_CDEPS := $(SH4_STAMP) $(if $(SH4_GCC_CURE),$(SH4_PLUGIN))
SH4_KCFLAGS := $(SH4_COMMON) -fno-omit-frame-pointer -Ikernel/include -Ikernel/arch/sh4/include -Iinclude
SH4_KLDFLAGS := -ml -m4-nofpu -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,--no-warn-rwx-segments -T kernel/arch/sh4/linker.ld

SH4_KC   := $(wildcard kernel/core/*.c) $(wildcard kernel/posix/*.c) \
	$(wildcard kernel/arch/sh4/*.c) $(wildcard kernel/arch/sh4/posix/*.c)
SH4_KS   := $(wildcard kernel/arch/sh4/*.S)
SH4_KOBJ := $(patsubst %.c,$(SH4_BUILD)/%.o,$(SH4_KC)) $(patsubst %.S,$(SH4_BUILD)/%.o,$(SH4_KS))
SH4_ELF  := $(SH4_BUILD)/kernel/myrmex.elf
SH4_BIN  := $(SH4_BUILD)/kernel/myrmex.bin

$(SH4_BUILD)/kernel/%.o: kernel/%.c $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_KCFLAGS) -MMD -MP -c $< -o $@

$(SH4_BUILD)/kernel/%.o: kernel/%.S $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_KCFLAGS) -MMD -MP -c $< -o $@

# Two links, as on x86-64: the symbol table of the first goes into the second.
$(SH4_BUILD)/kernel/ksyms_empty.S: tools/gen_ksyms.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_ksyms.py --empty -o $@

$(SH4_BUILD)/kernel/%.o: $(SH4_BUILD)/kernel/%.S $(SH4_CDEPS)
	$(SH4_CC) $(SH4_KCFLAGS) -c $< -o $@

$(SH4_BUILD)/kernel/pass1.elf: $(SH4_KOBJ) $(SH4_BUILD)/kernel/ksyms_empty.o kernel/arch/sh4/linker.ld
	$(SH4_CC) $(SH4_KLDFLAGS) $(SH4_KOBJ) $(SH4_BUILD)/kernel/ksyms_empty.o -o $@ -lgcc

$(SH4_BUILD)/kernel/ksyms.S: $(SH4_BUILD)/kernel/pass1.elf tools/gen_ksyms.py
	$(PYTHON) tools/gen_ksyms.py $< -o $@

$(SH4_ELF): $(SH4_KOBJ) $(SH4_BUILD)/kernel/ksyms.o kernel/arch/sh4/linker.ld
	$(SH4_CC) $(SH4_KLDFLAGS) $(SH4_KOBJ) $(SH4_BUILD)/kernel/ksyms.o -o $@ -lgcc

$(SH4_BIN): $(SH4_ELF)
	$(SH4_CROSS)objcopy -O binary $< $@

# ------------------------------------------------- SH-4 test programs --
# tests/sh4/<name>.c -> build/sh4/tests/<name>: the port's freestanding
# programs (no C library: the tests closest to the hardware, sh4init and
# the benchmark's server) with tests/sh4/crt0.S, making system calls through
# tests/sh4/sh4_user.h. Programs with musl and libmyrmex are further down.
SH4_UCFLAGS := $(SH4_COMMON) -Iinclude -Itests/sh4
SH4_ULDFLAGS := -ml -m4-nofpu -nostdlib -static -no-pie -Wl,--build-id=none
SH4_TEST_SRC := $(wildcard tests/sh4/*.c)
SH4_TEST_BINS := $(patsubst tests/sh4/%.c,$(SH4_BUILD)/tests/%,$(SH4_TEST_SRC))
$(SH4_BUILD)/tests/crt0.o: tests/sh4/crt0.S $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_UCFLAGS) -c $< -o $@
.SECONDARY: $(SH4_TEST_BINS)
$(SH4_BUILD)/tests/%: tests/sh4/%.c tests/sh4/sh4_user.h tests/sh4/sh4_dev.h $(SH4_BUILD)/tests/crt0.o $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_UCFLAGS) $(SH4_ULDFLAGS) $(SH4_BUILD)/tests/crt0.o $< -o $@ -lgcc

# ------------------------------------------- musl, libmyrmex, programs --
# musl, the C library of SH-4 programs: Debian's source package, fetched and
# checked by tools/debsrc.py, built static by tools/build_musl_sh4.py with
# -ml -m4-nofpu (musl's sh-nofpu variant) and SH4_OPT into build/sh4/musl
# (include/, lib/crt1.o, lib/libc.a); never kept in the tree. The flags are
# kept in a file that changes only with them, so a new SH4_OPT rebuilds musl.
SH4_MUSL        := $(SH4_BUILD)/musl
SH4_LIBC        := $(SH4_MUSL)/lib/libc.a
SH4_MUSL_CFLAGS := $(SH4_OPT) $(SH4_GCC_CURE) -ml -m4-nofpu
SH4_MUSL_FLAGS  := $(SH4_MUSL)/cflags
$(shell mkdir -p $(SH4_MUSL) && (echo '$(SH4_MUSL_CFLAGS)' | cmp -s - $(SH4_MUSL_FLAGS) || \
	echo '$(SH4_MUSL_CFLAGS)' > $(SH4_MUSL_FLAGS)))
$(SH4_LIBC): $(SH4_MUSL_FLAGS) tools/build_musl_sh4.py tools/debsrc.py $(SH4_CDEPS)
	$(PYTHON) tools/build_musl_sh4.py $(SH4_MUSL) $(SH4_CC) "$(SH4_MUSL_CFLAGS)"

# Programs from the shared sources (tests/kernel, user/, lib/libmyrmex with
# its arch/sh4 part), compiled against musl's headers and linked with
# musl's crt files and libc.a, like musl-gcc -static on x86-64.
SH4_MUSL_INC := -nostdinc -isystem $(SH4_MUSL)/include -isystem $(shell $(SH4_CC) -print-file-name=include)
SH4_PCFLAGS  := -std=gnu17 $(SH4_OPT) $(SH4_GCC_CURE) -g -ml -m4-nofpu -fno-pic -fno-pie -Wa,--noexecstack \
	-Wall -Wextra -Werror $(SH4_MUSL_INC) -Iinclude -Ilib/libmyrmex
SH4_LIBGCC   := $(shell $(SH4_CC) -ml -m4-nofpu -print-libgcc-file-name)
SH4_PLINK    = $(SH4_CC) -ml -m4-nofpu -nostdlib -static -no-pie -Wl,--build-id=none \
	$(SH4_MUSL)/lib/crt1.o $(SH4_MUSL)/lib/crti.o $(1) $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_LIBGCC) \
	$(SH4_LIBC) $(SH4_MUSL)/lib/crtn.o

SH4_LIBMYRMEX_SRC := $(wildcard lib/libmyrmex/*.c) $(wildcard lib/libmyrmex/arch/sh4/*.c)
SH4_LIBMYRMEX_OBJ := $(patsubst %.c,$(SH4_BUILD)/%.o,$(SH4_LIBMYRMEX_SRC))
SH4_LIBMYRMEX     := $(SH4_BUILD)/lib/libmyrmex.a
$(SH4_BUILD)/lib/libmyrmex/%.o: lib/libmyrmex/%.c $(SH4_LIBC) $(SH4_CDEPS) $(wildcard lib/libmyrmex/*.h) \
		$(wildcard lib/libmyrmex/arch/sh4/*.h) $(wildcard include/myrmex/*.h)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_PCFLAGS) -c $< -o $@
$(SH4_LIBMYRMEX): $(SH4_LIBMYRMEX_OBJ)
	rm -f $@
	$(SH4_CROSS)ar rcs $@ $^

# The shared tests run as the x86-64 test init runs them (sh4init's "="
# marker: no filler arguments, priority 15); t_spawn spawns t_hello, t_alive
# and, as t_fault, the port's tests/sh4/t_fault (it takes t_spawn's kinds).
SH4_KTESTS_SHARED := t_threads t_sched t_spawn t_alive
SH4_SHARED_TESTS := =t_threads =t_sched:15 =t_spawn

# The shared booted tests that need no disk, file server or network, and
# their server (tests/kernel/ipc_server.c): build/sh4/ktests/<name>.
SH4_KTESTS := t_hello t_disk t_fs t_fs_write t_fs_errors t_fs_poll t_fs_events t_fs_stress ipc_server t_ipc_sync t_ipc_async t_ipc_stages t_ipc_death t_ipc_touch \
	t_ipc_badcalls t_ipc_limits t_ipc_stage_death t_ipc_threads t_ipc_fast t_ipc_queue \
	t_ipc_orphan t_ipc_claim t_ids t_brk t_futex t_mmap $(SH4_KTESTS_SHARED)
SH4_KTEST_BINS := $(addprefix $(SH4_BUILD)/ktests/,$(SH4_KTESTS))
$(SH4_BUILD)/ktests/%: tests/kernel/%.c $(wildcard tests/kernel/*.h) $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	@mkdir -p $(SH4_BUILD)/obj/ktests
	$(SH4_CC) $(SH4_PCFLAGS) -Itests/kernel -c $< -o $(SH4_BUILD)/obj/ktests/$*.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/ktests/$*.o) -o $@

# SH-4 tests that need the C library (tests/sh4/libc, with tests/kernel's
# test_check.h): build/sh4/ltests/<name>.
SH4_LTEST_BINS := $(patsubst tests/sh4/libc/%.c,$(SH4_BUILD)/ltests/%,$(wildcard tests/sh4/libc/*.c))
$(SH4_BUILD)/ltests/%: tests/sh4/libc/%.c $(wildcard tests/kernel/*.h) $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@) $(SH4_BUILD)/obj/ltests
	$(SH4_CC) $(SH4_PCFLAGS) -Itests/kernel -c $< -o $(SH4_BUILD)/obj/ltests/$*.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/ltests/$*.o) -o $@

# The echo and three-stage demos (user/): build/sh4/user/<name>.
SH4_USER_PROGS := echo_server echo_client stage_a stage_b stage_c stage_client
SH4_USER_BINS  := $(addprefix $(SH4_BUILD)/user/,$(SH4_USER_PROGS))
$(SH4_BUILD)/user/%: user/%/*.c $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	@mkdir -p $(SH4_BUILD)/obj/user
	$(SH4_CC) $(SH4_PCFLAGS) -c $(filter %.c,$^) -o $(SH4_BUILD)/obj/user/$*.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/user/$*.o) -o $@
.SECONDARY: $(SH4_KTEST_BINS) $(SH4_LTEST_BINS) $(SH4_USER_BINS)

# ------------------------------------------------------- SH-4 servers --
# Servers from their x86-64 sources (servers/<kind>/<name>, with the
# libraries their main.c names on its server-libraries line):
# build/sh4/servers/<name>. The RTL8139 driver, the Ethernet server and the
# TCP/IP server (docs/net.md, docs/sh4.md "The network"; lwIP is Debian's
# source built by tools/build_lwip.py with the SH-4 compiler and musl's
# headers into build/sh4/lwip); cf_ide, the CF slot's disk driver, and the
# file manager (docs/sh4.md, "The disk").
SH4_NET_SERVERS := rtl8139 eth tcpip
SH4_SERVERS     := $(SH4_NET_SERVERS) cf_ide fileman pm
SH4_SERVER_BINS := $(addprefix $(SH4_BUILD)/servers/,$(SH4_SERVERS))
SH4_NET_BINS    := $(addprefix $(SH4_BUILD)/servers/,$(SH4_NET_SERVERS))
SH4_LWIP_DIR    := $(SH4_BUILD)/lwip
SH4_LWIP_LIB    := $(SH4_LWIP_DIR)/liblwip.a
SH4_LWIP_PORT   := servers/net/tcpip/port
$(SH4_LWIP_LIB): tools/build_lwip.py tools/debsrc.py $(wildcard $(SH4_LWIP_PORT)/*.h $(SH4_LWIP_PORT)/arch/*.h) \
		$(SH4_LIBC) $(SH4_CDEPS)
	$(PYTHON) tools/build_lwip.py --ar $(SH4_CROSS)ar $(SH4_LWIP_DIR) $(SH4_CC) $(SH4_LWIP_PORT) \
		$(filter-out -Werror,$(SH4_PCFLAGS))
SH4_SRV_CFLAGS_tcpip := -I$(SH4_LWIP_PORT) -I$(SH4_LWIP_DIR)/include
SH4_SRV_LIBS_tcpip   := $(SH4_LWIP_LIB)
sh4_server_libs = $(shell sed -n 's|.*server-libraries: *\(.*\) *\*/.*|\1|p' $(wildcard servers/*/$(1)/main.c))
define SH4_SERVER_RULE
$(SH4_BUILD)/servers/$(1): $(wildcard servers/*/$(1)/*.c servers/*/$(1)/*.h) \
		$(foreach d,$(call sh4_server_libs,$(1)),$(wildcard $(d)/*.c $(d)/*.h)) \
		$(wildcard include/myrmex/*.h) $(SH4_SRV_LIBS_$(1)) $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $$(dir $$@)
	$$(call SH4_PLINK,$$(SH4_SRV_IN)) -o $$@
$(SH4_BUILD)/servers/$(1): SH4_SRV_IN = $$(SH4_PCFLAGS) $$(SH4_SRV_CFLAGS_$(1)) $$(filter %.c,$$^) $$(SH4_SRV_LIBS_$(1))
endef
# (The sources and flags reach SH4_PLINK through SH4_SRV_IN: a comma of the
# flags, as in -Wa,..., would split call's arguments if written there.)
$(foreach s,$(SH4_SERVERS),$(eval $(call SH4_SERVER_RULE,$(s))))
.SECONDARY: $(SH4_SERVER_BINS)

# The tests sh4init runs, in order; a trailing "!" means the kernel must
# kill the program (a fault), "client@srv,..." runs a demo client with its
# servers. The SH-4-specific freestanding tests (tests/sh4), then the
# shared ones (tests/kernel, user/) built with musl. One boot-module archive per ICA method:
# initrd-pt.img for page-table entries (the default), initrd-tlb.img for
# the reserved UTLB entries of the boot option ica_tlb=32 (paper 002); the
# only difference is sh4init's first argument, which tells the tests.
# A leading "^" gives the test the power to hand out devices (the device
# tests); t_rtl8139 checks the card's MAC against the one QEMU is given,
# t_cf the CF slot's image (tools/sh4_run.py writes both).
SH4_NIC_MAC := 52:54:00:5e:04:21
# The CF slot's disk driver (servers/disk/cf_ide) under the shared disk
# tests (tests/kernel/t_disk), on tools/sh4_run.py's pattern image;
# "*cf_ide" is started with the slot. read and orphan use 64-page data
# ICAs, async 48 ICAs at once, t_cf_restart (tests/sh4/libc: drivers killed
# mid-write and restarted) a 32-page one: with 32 reserved TLB entries they
# run with page tables only.
SH4_DISK_TESTS_BIG := t_disk:async@*cf_ide t_disk:read@*cf_ide t_disk:orphan@*cf_ide \
	^t_cf_restart
SH4_DISK_TESTS := t_disk:info@*cf_ide t_disk:write@*cf_ide \
	t_disk:range@*cf_ide t_disk:small@*cf_ide t_disk:badop@*cf_ide $(SH4_DISK_TESTS_BIG)
SH4_RUN := $(PYTHON) tools/sh4_run.py --mac $(SH4_NIC_MAC)
# A page taken away (an ICA freed or detached) after a first touch at
# offset 0xc08 must fault: the fast refill once left the entry
# unreachable to paging.c's invalidation (the cf_ide failures, docs/sh4.md).
SH4_TLB_TESTS := t_tlb_stale:freed! t_tlb_stale:detached!
SH4_TESTS := t_hello t_codegen t_fault! t_badcalls t_trap:align! t_trap:p1! t_trap:p4! \
	t_trap:illegal! t_trap:fpu! t_trap:miss! t_trap:stale! t_ica_limit t_asid t_gusa \
	t_ipc_sync t_ipc_async t_ipc_stages t_ipc_death t_ipc_badcalls t_ipc_limits \
	t_ipc_stage_death:async t_ipc_stage_death:sync t_ipc_touch:freed! t_ipc_touch:parked! \
	t_ipc_touch:passed-data! t_ipc_touch:passed-ctl! t_ipc_touch:returned! \
	t_ipc_threads t_ipc_fast t_ipc_queue t_ipc_orphan t_ipc_claim:calls t_ids t_brk \
	t_futex t_mmap +t_linux +t_linux:forged-pc! +t_linux:unmapped! +t_linux:forged-sr! \
	echo_client@echo_server stage_client@stage_a,stage_b,stage_c \
	^t_rtl8139:$(SH4_NIC_MAC) ^t_cf ^t_net:$(SH4_NIC_MAC) $(SH4_DISK_TESTS) $(SH4_TLB_TESTS) \
	$(SH4_SHARED_TESTS)
# With ICAs in 32 reserved TLB entries (initrd-tlb.img) at most 32 ICA pages
# are attached at once (t_ica_limit checks the refusal): t_ipc_sync (data ICAs
# of 1+2+16+64 pages) and t_ipc_limits (512 ICAs) run with page tables only.
# t_net runs in both: with MYRMEX_ICA=tlb it starts the network servers with
# ica=tlb, which keeps them to 20 ICA pages (docs/sh4.md, "The network").
SH4_TESTS_pt  := $(SH4_TESTS)
SH4_TESTS_tlb := $(filter-out t_ipc_sync t_ipc_limits $(SH4_DISK_TESTS_BIG),$(SH4_TESTS))
# The file-system boot (sh4fs): the file manager (servers/fs/fileman with
# ext2) on cf_ide, on a fresh copy of tools/mkfsimage.py's fs.img in the CF
# slot, under the shared file-system tests; each test starts the driver
# (the first IDE device, "-", serving only coreid 3, the file manager's:
# t_disk not-client checks it) and a file manager with a 4 MiB cache; sh4init shuts the file manager
# down (FS_SHUTDOWN: written back, unmounted) and kills both after it, and
# the image, written in place, must pass e2fsck -fn after the boot.
# In this order: t_fs reads the image as made, t_fs_write persist what
# write left (under a new file manager).
SH4_FS_SERVERS := *cf_ide:-:3,fileman:4
SH4_FS_TESTS := t_fs:read@$(SH4_FS_SERVERS) t_disk:not-client@$(SH4_FS_SERVERS) \
	t_fs_write:write@$(SH4_FS_SERVERS) \
	t_fs_write:persist@$(SH4_FS_SERVERS) t_fs_errors:errors@$(SH4_FS_SERVERS) \
	t_fs_errors:hostile-ctl@$(SH4_FS_SERVERS) t_fs_poll:poll@$(SH4_FS_SERVERS) \
	t_fs_events:events@$(SH4_FS_SERVERS) t_fs_stress:run@$(SH4_FS_SERVERS)
SH4_TESTS_fs := $(SH4_FS_TESTS)
# Each list is a boot module of its own, sh4-tests-<method> (sh4init's
# list=: a module's command line holds 248 bytes), kept in a file that
# changes only with it.
$(foreach m,pt tlb fs,$(shell mkdir -p $(SH4_BUILD) && \
	(echo '$(SH4_TESTS_$(m))' | cmp -s - $(SH4_BUILD)/sh4-tests-$(m) || \
	 echo '$(SH4_TESTS_$(m))' > $(SH4_BUILD)/sh4-tests-$(m))))
SH4_INITRD := $(SH4_BUILD)/initrd-pt.img
$(SH4_BUILD)/initrd-%.img: $(SH4_TEST_BINS) $(SH4_KTEST_BINS) $(SH4_LTEST_BINS) $(SH4_USER_BINS) \
		$(SH4_SERVER_BINS) $(SH4_BUILD)/sh4-tests-% tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ "$(SH4_BUILD)/tests/sh4init ica=$* list=sh4-tests-$*" \
		$(filter-out $(SH4_BUILD)/tests/sh4init,$(SH4_TEST_BINS)) $(SH4_KTEST_BINS) \
		$(SH4_LTEST_BINS) $(SH4_USER_BINS) $(SH4_SERVER_BINS) $(SH4_BUILD)/sh4-tests-$*

# The file-system boot's archive: the same programs, its own list.
$(SH4_BUILD)/initrd-fs.img: $(SH4_TEST_BINS) $(SH4_KTEST_BINS) $(SH4_SERVER_BINS) \
		$(SH4_BUILD)/sh4-tests-fs tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ "$(SH4_BUILD)/tests/sh4init ica=pt list=sh4-tests-fs" \
		$(SH4_KTEST_BINS) $(SH4_SERVER_BINS) $(SH4_BUILD)/sh4-tests-fs

# ------------------------------------------------- SH-4 POSIX suite --
# The POSIX boot (sh4posix, docs/sh4.md "POSIX programs"): the programs of
# tests/posix built with musl for SH-4 (build/sh4/posix/<name>, plain:
# no libmyrmex) on an ext2 image of their own (tools/sh4_posix.py image:
# /posix/<name>, /posix/LIST, /tmp, /dev, /etc) in the CF slot; sh4init
# starts the disk driver, the file manager and the process manager
# (servers/proc/pm) beside posix_run (tests/sh4/posix), a POSIX process
# that forks and execs each from the disk and writes run.sh's transcript
# to /sh4-posix.out; after the boot tools/sh4_posix.py check compares each
# program's section with Linux's (tools/posix_suite.py's transcript) and
# e2fsck -fn must find the image clean. SH4_POSIX_PROGS are the programs
# checked, in run.sh's order; the ones left out, and why, are in
# docs/sh4.md.
SH4_POSIX_PROGS := fork wait exit ids pgrp sigmask sigchld sigpipe alarm shmanon threads file_io dir fd \
	path poll time links calls devfiles stopcont unlinkopen rmcwd setid waitid nice pipe_signal \
	eintr_calls bad_fd fork_bomb
SH4_POSIX_BINS  := $(addprefix $(SH4_BUILD)/posix/,$(SH4_POSIX_PROGS))
SH4_POSIX_RUN   := $(SH4_BUILD)/posix-run/posix_run
$(SH4_BUILD)/posix/%: tests/posix/%.c tests/posix/posix_test.h $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@) $(SH4_BUILD)/obj/posix
	$(SH4_CC) $(filter-out -Iinclude -Ilib/libmyrmex,$(SH4_PCFLAGS)) -c $< -o $(SH4_BUILD)/obj/posix/$*.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/posix/$*.o) -o $@
$(SH4_POSIX_RUN): tests/sh4/posix/posix_run.c $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@) $(SH4_BUILD)/obj/posix-run
	$(SH4_CC) $(SH4_PCFLAGS) -c $< -o $(SH4_BUILD)/obj/posix-run/posix_run.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/posix-run/posix_run.o) -o $@
.SECONDARY: $(SH4_POSIX_BINS)
SH4_POSIX_SERVERS := *cf_ide:-:3,fileman:4,pm
SH4_TESTS_posix := +posix_run@$(SH4_POSIX_SERVERS)
$(shell mkdir -p $(SH4_BUILD) && (echo '$(SH4_TESTS_posix)' | cmp -s - $(SH4_BUILD)/sh4-tests-posix || \
	echo '$(SH4_TESTS_posix)' > $(SH4_BUILD)/sh4-tests-posix))
$(SH4_BUILD)/initrd-posix.img: $(SH4_TEST_BINS) $(SH4_POSIX_RUN) $(SH4_SERVER_BINS) \
		$(SH4_BUILD)/sh4-tests-posix tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ "$(SH4_BUILD)/tests/sh4init ica=pt list=sh4-tests-posix" \
		$(SH4_POSIX_RUN) $(SH4_SERVER_BINS) $(SH4_BUILD)/sh4-tests-posix
SH4_POSIX_DISK := $(SH4_BUILD)/posix-disk.img
SH4_POSIX_TIMEOUT := 900
sh4-posix-test: $(SH4_BUILD)/initrd-posix.img $(SH4_POSIX_BINS) $(SH4_BIN)
	$(PYTHON) tools/sh4_posix.py image --programs $(SH4_BUILD)/posix --out $(SH4_POSIX_DISK) \
		$(SH4_POSIX_PROGS)
	$(SH4_RUN) --cf $(SH4_POSIX_DISK) test --kernel $(SH4_BIN) \
		--initrd $(SH4_BUILD)/initrd-posix.img --log $(SH4_BUILD)/test-posix.log --timeout $(SH4_POSIX_TIMEOUT)
	e2fsck -fn $(SH4_POSIX_DISK) > $(SH4_BUILD)/test-posix-e2fsck.log 2>&1 || \
		{ cat $(SH4_BUILD)/test-posix-e2fsck.log; echo "sh4: e2fsck found the POSIX disk damaged"; exit 1; }
	@$(MAKE) --no-print-directory ARCH=x86_64 posix   # the Linux reference's programs
	$(PYTHON) tools/sh4_posix.py check --image $(SH4_POSIX_DISK) --build build $(SH4_POSIX_PROGS)
.PHONY: sh4-posix-test

# The benchmark (bench/sh4/sh4_bench.c) is the first process of its boot.
SH4_BENCH := $(SH4_BUILD)/bench/sh4_bench
$(SH4_BENCH): bench/sh4/sh4_bench.c tests/sh4/sh4_user.h $(SH4_BUILD)/tests/crt0.o $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_UCFLAGS) $(SH4_ULDFLAGS) $(SH4_BUILD)/tests/crt0.o $< -o $@ -lgcc
# Paper 002's figures 9-10 (bench/sh4/net_send.c, with musl), which sh4_bench
# starts with the network servers.
SH4_NET_BENCH := $(SH4_BUILD)/bench/net_send
$(SH4_NET_BENCH): bench/sh4/net_send.c $(SH4_LIBMYRMEX) $(SH4_LIBC) $(SH4_CDEPS)
	@mkdir -p $(dir $@) $(SH4_BUILD)/obj/bench
	$(SH4_CC) $(SH4_PCFLAGS) -c $< -o $(SH4_BUILD)/obj/bench/net_send.o
	$(call SH4_PLINK,$(SH4_BUILD)/obj/bench/net_send.o) -o $@
# One archive per ICA method: sh4_bench's argument ica=pt|ica=tlb tells
# net_send, which gives it to the network servers (ica=tlb: few ICA pages).
$(SH4_BUILD)/bench/initrd-%.img: $(SH4_BENCH) $(SH4_BUILD)/tests/sh4_srv $(SH4_NET_BENCH) $(SH4_NET_BINS) \
		tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ "$(SH4_BENCH) ica=$*" $(SH4_BUILD)/tests/sh4_srv $(SH4_NET_BENCH) \
		$(SH4_NET_BINS)

.PHONY: all kernel tests benchmarks run test bench setup clean
all: kernel tests benchmarks
benchmarks: $(SH4_BUILD)/bench/initrd-pt.img $(SH4_BUILD)/bench/initrd-tlb.img
bench: setup
	@$(MAKE) --no-print-directory ARCH=sh4 all
	$(SH4_RUN) bench --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/bench/initrd-pt.img \
		--initrd-tlb $(SH4_BUILD)/bench/initrd-tlb.img \
		--log $(SH4_BUILD)/bench/bench.log --report $(SH4_BUILD)/bench/report.md
kernel: $(SH4_BIN)
tests: $(SH4_BUILD)/initrd-pt.img $(SH4_BUILD)/initrd-tlb.img $(SH4_BUILD)/initrd-fs.img
run: setup
	@$(MAKE) --no-print-directory ARCH=sh4 all
	$(SH4_RUN) run --kernel $(SH4_BIN) --initrd $(SH4_INITRD)
# Four boots of the whole list: ICAs in page tables, the same with the
# TLB-refill fast path off (every miss through sh4_tlb_refill), ICAs in
# reserved UTLB entries, and reserved entries with the IPC fast path off
# (every call on the slow path, docs/ipc.md); then the file-system boot
# on a fresh ext2 image in the CF slot, and the POSIX boot (above).
test: setup
	@$(MAKE) --no-print-directory ARCH=sh4 all
	$(SH4_RUN) test --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/initrd-pt.img \
		--log $(SH4_BUILD)/test-pt.log
	$(SH4_RUN) test --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/initrd-pt.img \
		--append "tlb_fast=off" --log $(SH4_BUILD)/test-pt-slowrefill.log
	$(SH4_RUN) test --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/initrd-tlb.img \
		--append "ica_tlb=32" --log $(SH4_BUILD)/test-tlb.log
	$(SH4_RUN) test --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/initrd-tlb.img \
		--append "ica_tlb=32 ipc_fast=off" --log $(SH4_BUILD)/test-tlb-slow.log
	$(PYTHON) tools/mkfsimage.py tests $(SH4_BUILD)/fs > /dev/null
	$(SH4_RUN) --cf $(SH4_BUILD)/fs/fs.img test --kernel $(SH4_BIN) \
		--initrd $(SH4_BUILD)/initrd-fs.img --log $(SH4_BUILD)/test-fs.log
	e2fsck -fn $(SH4_BUILD)/fs/fs.img > $(SH4_BUILD)/test-fs-e2fsck.log 2>&1 || \
		{ cat $(SH4_BUILD)/test-fs-e2fsck.log; echo "sh4: e2fsck found the CF image damaged"; exit 1; }
	@echo "sh4: e2fsck -fn: the CF image written by SH-4's file manager is clean"
	@$(MAKE) --no-print-directory ARCH=sh4 sh4-posix-test
setup:
	@scripts/setup.sh
clean:
	rm -rf $(SH4_BUILD)

-include $(shell find $(SH4_BUILD) -name '*.d' 2>/dev/null)
