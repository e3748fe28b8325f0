/*
 * What QEMU's r2d hands the kernel, decoded into boot_info: SDRAM is
 * 64 MiB at physical 0x0c000000; the boot parameters (Linux's SH layout)
 * lie at 0x0c010000, with the initrd's place at +0x10/+0x14 (relative to
 * the SDRAM) and the command line (-append) at +0x100. The initrd (-initrd,
 * at 0x0d800000) is the port's archive of boot modules, written by
 * tools/sh4_initrd.py: a header "MYRMEXIR", a count, then per module its
 * offset, size and command line; each module starts on a page.
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <arch/sh4.h>

#define SDRAM_BASE  0x0c000000u
#define SDRAM_SIZE  (64u << 20)
#define BOOT_PARAMS (SDRAM_BASE + 0x10000)
#define PARAM_INITRD_START 0x10
#define PARAM_INITRD_SIZE  0x14
#define PARAM_CMDLINE      0x100
#define PARAM_CMDLINE_MAX  256

struct initrd_header {
	char magic[8];
	uint32_t count, reserved;
};

struct initrd_entry {
	uint32_t offset, size;
	char cmdline[248];
};
_Static_assert(sizeof(struct initrd_entry) == 256, "tools/sh4_initrd.py writes 256-byte entries");

extern char __kernel_start[], __kernel_end[];
void kmain(uint64_t magic, uint64_t info);

/* boot.S continues here, in P1, on the boot stack. */
NORETURN void sh4_main(void);
NORETURN void sh4_main(void)
{
	kmain(0, 0);
	panic("kmain returned");
}

static void module_name(struct boot_module *m)
{
	const char *word = m->cmdline, *base = word;
	for (const char *p = word; *p && *p != ' '; p++)
		if (*p == '/')
			base = p + 1;
	size_t n = 0;
	while (base[n] && base[n] != ' ' && n + 1 < sizeof(m->name))
		n++;
	memcpy(m->name, base, n);
	m->name[n] = '\0';
}

static void read_modules(struct boot_info *out, uint32_t start, uint32_t size)
{
	const struct initrd_header *h = arch_phys_to_virt(start);
	if (size < sizeof(*h) || memcmp(h->magic, "MYRMEXIR", 8) != 0) {
		printk("boot: the initrd is not a module archive\n");
		return;
	}
	const struct initrd_entry *e = (const void *)(h + 1);
	uint32_t count = h->count;
	if (count > BOOT_MAX_MODULES || sizeof(*h) + count * sizeof(*e) > size)
		panic("boot: bad module archive (%u modules)", count);
	for (uint32_t i = 0; i < count; i++) {
		if (e[i].offset > size || e[i].size > size - e[i].offset)
			panic("boot: module %u lies outside the initrd", i);
		struct boot_module *m = &out->modules[out->module_count++];
		m->start = start + e[i].offset;
		m->end = m->start + e[i].size;
		size_t n = strnlen(e[i].cmdline, sizeof(e[i].cmdline));
		n = MIN(n, sizeof(m->cmdline) - 1);
		memcpy(m->cmdline, e[i].cmdline, n);
		m->cmdline[n] = '\0';
		module_name(m);
	}
}

void arch_boot_info(uint64_t magic, uint64_t info, struct boot_info *out)
{
	(void)magic, (void)info;
	memset(out, 0, sizeof(*out));
	const uint8_t *params = arch_phys_to_virt(BOOT_PARAMS);
	out->ram[0].start = SDRAM_BASE;
	out->ram[0].end = SDRAM_BASE + SDRAM_SIZE;
	out->ram_count = 1;
	out->reserved_end = BOOT_PARAMS + PAGE_SIZE;
	out->kernel_start = arch_virt_to_phys(__kernel_start);
	out->kernel_end = arch_virt_to_phys(__kernel_end);
	size_t n = strnlen((const char *)params + PARAM_CMDLINE, PARAM_CMDLINE_MAX);
	n = MIN(n, sizeof(out->cmdline) - 1);
	memcpy(out->cmdline, params + PARAM_CMDLINE, n);
	out->cmdline[n] = '\0';
	uint32_t initrd = *(const uint32_t *)(params + PARAM_INITRD_START);
	uint32_t initrd_size = *(const uint32_t *)(params + PARAM_INITRD_SIZE);
	if (initrd_size) {
		if (initrd < SDRAM_BASE)
			initrd += SDRAM_BASE;   /* QEMU gives it relative to the SDRAM */
		if (initrd < SDRAM_BASE || initrd_size > SDRAM_BASE + SDRAM_SIZE - initrd)
			panic("boot: the initrd lies outside the SDRAM");
		read_modules(out, initrd, initrd_size);
	}
}

paddr_t arch_virt_to_phys(const void *va)
{
	return (uint32_t)(uintptr_t)va & 0x1fffffffu;
}
