/*
 * plugin.c - cachesim, a QEMU TCG plugin that drives the cache and TLB model
 * of model.h with every data access of the guest and reports the misses
 * between markers the guest program sets (issue 18's cache experiment,
 * bench/bench_wsc_cache.c; docs/benchmarks.md, "Caches and the TLB").
 *
 *   qemu-system-x86_64 ... -plugin build/tools/cachesim.so,out=FILE
 *
 * A marker is the no-op `nopl 0x4d59000c(%rax,%rax,1)` (bytes 0f 1f 84 00
 * and the 32-bit displacement), harmless on any x86-64 CPU and on Linux:
 * code c = 1 starts a measurement, c = 2 ends it and appends to FILE
 *   CACHESIM <seq> accesses=<n> dtlb=<n> l2_256k=<n> l2_512k=<n> cr3=<n>
 * the counts since the start, on that vCPU. The model runs all the time
 * (so that it is warm at a start), one per vCPU. A `mov ..., %cr3` empties
 * the vCPU's model TLB after it runs; invlpg is not modelled (the measured
 * loops make none). Accesses to I/O memory are skipped.
 *
 * With profile=1 it also counts, between the markers, how often each
 * instruction (by virtual address) runs, and at each end appends
 *   PROFILE <seq> <address in hex> <executions>
 * for each (tools/wsc_profile.py names the functions): where the
 * instructions of a measured loop go.
 */
#include "model.h"
#include "qemu_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = CACHESIM_PLUGIN_VERSION;

#define MAX_VCPUS 8
#define MARK_BYTES 8
#define MARK_MAGIC 0x4d590000u    /* "MY" in the displacement's high half */
#define MARK_START 1u
#define MARK_STOP 2u

struct vcpu {
	struct model m;
	struct model_counts start;
	int counting;
};

static struct vcpu vcpus[MAX_VCPUS];
static FILE *out;
static unsigned long seq;

/* The profile: an open-addressing table of instruction addresses (never
 * full: a measured loop runs far fewer distinct instructions). */
#define PROFILE_BITS 20
#define PROFILE_SLOTS (1u << PROFILE_BITS)
struct pc_count {
	uint64_t pc;
	uint64_t n;
};
static struct pc_count *profile;

static void on_insn(unsigned int cpu, void *u)
{
	uint64_t pc = (uint64_t)(uintptr_t)u;
	if (cpu >= MAX_VCPUS || !vcpus[cpu].counting)
		return;
	for (uint64_t i = (pc * 0x9e3779b97f4a7c15ull) >> (64 - PROFILE_BITS);;
	     i = (i + 1) & (PROFILE_SLOTS - 1)) {
		struct pc_count *c = &profile[i];
		if (c->pc == pc || c->n == 0) {
			c->pc = pc;
			c->n++;
			return;
		}
	}
}

static void on_mem(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
	(void)u;
	if (cpu >= MAX_VCPUS)
		return;
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	model_access(&vcpus[cpu].m, vaddr, qemu_plugin_hwaddr_phys_addr(hw),
	             1u << qemu_plugin_mem_size_shift(info));
}

static void on_cr3(unsigned int cpu, void *u)
{
	(void)u;
	if (cpu < MAX_VCPUS)
		model_flush_tlb(&vcpus[cpu].m);
}

static void on_mark(unsigned int cpu, void *u)
{
	unsigned code = (unsigned)(uintptr_t)u;
	if (cpu >= MAX_VCPUS)
		return;
	struct vcpu *v = &vcpus[cpu];
	if (code == MARK_START) {
		v->start = v->m.n;
		v->counting = 1;
		return;
	}
	if (code != MARK_STOP || !v->counting)
		return;
	v->counting = 0;
	const struct model_counts *a = &v->start, *b = &v->m.n;
	fprintf(out, "CACHESIM %lu accesses=%llu dtlb=%llu l2_256k=%llu l2_512k=%llu cr3=%llu\n",
	        seq++, (unsigned long long)(b->accesses - a->accesses),
	        (unsigned long long)(b->dtlb_misses - a->dtlb_misses),
	        (unsigned long long)(b->l2_misses[0] - a->l2_misses[0]),
	        (unsigned long long)(b->l2_misses[1] - a->l2_misses[1]),
	        (unsigned long long)(b->tlb_flushes - a->tlb_flushes));
	for (uint64_t i = 0; profile && i < PROFILE_SLOTS; i++)
		if (profile[i].n) {
			fprintf(out, "PROFILE %lu %llx %llu\n", seq - 1,
			        (unsigned long long)profile[i].pc, (unsigned long long)profile[i].n);
			profile[i].n = 0;
			profile[i].pc = 0;
		}
	fflush(out);
}

/* The marker's code, or 0 when the instruction is no marker. */
static unsigned mark_code(const uint8_t *b, size_t size)
{
	if (size != MARK_BYTES || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x84 || b[3] != 0x00)
		return 0;
	uint32_t disp = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
	                (uint32_t)b[7] << 24;
	return (disp & 0xffff0000u) == MARK_MAGIC ? disp & 0xffffu : 0;
}

/* mov r64, %cr3: optional REX (0x40..0x4f), 0f 22, ModRM with reg = 3. */
static int is_cr3_write(const uint8_t *b, size_t size)
{
	size_t i = size > 0 && (b[0] & 0xf0) == 0x40 ? 1 : 0;
	return size >= i + 3 && b[i] == 0x0f && b[i + 1] == 0x22 && ((b[i + 2] >> 3) & 7) == 3;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		unsigned code = mark_code(bytes, size);
		if (code) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
			                                       (void *)(uintptr_t)code);
			continue;
		}
		if (profile)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
			                                       (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn));
		if (is_cr3_write(bytes, size))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_cr3, QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
		                                 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *u)
{
	(void)id;
	(void)u;
	if (out)
		fflush(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
	(void)info;
	const char *path = NULL;
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "out=", 4) == 0)
			path = argv[i] + 4;
		else if (strcmp(argv[i], "profile=1") == 0 && !profile)
			profile = calloc(PROFILE_SLOTS, sizeof *profile);
	if (!path) {
		fprintf(stderr, "cachesim: needs out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	for (unsigned i = 0; i < MAX_VCPUS; i++)
		if (model_init(&vcpus[i].m) != 0) {
			fprintf(stderr, "cachesim: out of memory\n");
			return -1;
		}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
