# The SH-4 port's build (docs/sh4.md), included by the Makefile for
# `make ARCH=sh4 ...`: the kernel (kernel/arch/sh4 with the portable
# kernel) with Debian's sh4-linux-gnu cross compiler, the SH-4 test
# programs (tests/sh4), their boot-module archive (the initrd QEMU's r2d
# loads), and the run and test commands on qemu-system-sh4 -M r2d.
#
#   make ARCH=sh4          the kernel and the test programs
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
SH4_GCC_CURE := -fplugin=$(SH4_PLUGIN)
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
# tests/sh4/<name>.c -> build/sh4/tests/<name>: freestanding programs (no
# C library on this port yet) with tests/sh4/crt0.S, making system calls
# through tests/sh4/sh4_user.h.
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

# The tests sh4init runs, in order; a trailing "!" means the kernel must
# kill the program (a fault). One boot-module archive per ICA method:
# initrd-pt.img for page-table entries (the default), initrd-tlb.img for
# the reserved UTLB entries of the boot option ica_tlb=32 (paper 002); the
# only difference is sh4init's first argument, which tells the tests.
# A leading "+" gives the test the power to hand out devices (the device
# tests); t_rtl8139 checks the card's MAC against the one QEMU is given,
# t_cf the CF slot's image (tools/sh4_run.py writes both).
SH4_NIC_MAC := 52:54:00:5e:04:21
SH4_TESTS := t_hello t_codegen t_fault! t_badcalls t_trap:align! t_trap:p1! t_trap:p4! \
	t_trap:illegal! t_trap:fpu! t_trap:miss! t_ipc t_ica_touch! t_ica_limit t_asid \
	+t_rtl8139:$(SH4_NIC_MAC) +t_cf
SH4_RUN := $(PYTHON) tools/sh4_run.py --mac $(SH4_NIC_MAC)
SH4_INITRD := $(SH4_BUILD)/initrd-pt.img
$(SH4_BUILD)/initrd-%.img: $(SH4_TEST_BINS) tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ "$(SH4_BUILD)/tests/sh4init ica=$* $(SH4_TESTS)" \
		$(filter-out $(SH4_BUILD)/tests/sh4init,$(SH4_TEST_BINS))

# The benchmark (bench/sh4/sh4_bench.c) is the first process of its boot.
SH4_BENCH := $(SH4_BUILD)/bench/sh4_bench
$(SH4_BENCH): bench/sh4/sh4_bench.c tests/sh4/sh4_user.h $(SH4_BUILD)/tests/crt0.o $(SH4_CDEPS)
	@mkdir -p $(dir $@)
	$(SH4_CC) $(SH4_UCFLAGS) $(SH4_ULDFLAGS) $(SH4_BUILD)/tests/crt0.o $< -o $@ -lgcc
$(SH4_BUILD)/bench/initrd.img: $(SH4_BENCH) $(SH4_BUILD)/tests/sh4_srv tools/sh4_initrd.py
	$(PYTHON) tools/sh4_initrd.py $@ $(SH4_BENCH) $(SH4_BUILD)/tests/sh4_srv

.PHONY: all kernel tests benchmarks run test bench setup clean
all: kernel tests benchmarks
benchmarks: $(SH4_BUILD)/bench/initrd.img
bench: setup
	@$(MAKE) --no-print-directory ARCH=sh4 all
	$(SH4_RUN) bench --kernel $(SH4_BIN) --initrd $(SH4_BUILD)/bench/initrd.img \
		--log $(SH4_BUILD)/bench/bench.log --report $(SH4_BUILD)/bench/report.md
kernel: $(SH4_BIN)
tests: $(SH4_BUILD)/initrd-pt.img $(SH4_BUILD)/initrd-tlb.img
run: setup
	@$(MAKE) --no-print-directory ARCH=sh4 all
	$(SH4_RUN) run --kernel $(SH4_BIN) --initrd $(SH4_INITRD)
# Four boots of the whole list: ICAs in page tables, the same with the
# TLB-refill fast path off (every miss through sh4_tlb_refill), ICAs in
# reserved UTLB entries, and reserved entries with the IPC fast path off
# (every call on the slow path, docs/ipc.md).
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
setup:
	@scripts/setup.sh
clean:
	rm -rf $(SH4_BUILD)

-include $(shell find $(SH4_BUILD) -name '*.d' 2>/dev/null)
