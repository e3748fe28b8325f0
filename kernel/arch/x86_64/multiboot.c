/*
 * Decodes the Multiboot (version 1) information into the portable
 * boot_info: the memory map and the boot modules with their command lines.
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/panic.h>
#include <kernel/string.h>
#include <arch/x86.h>

#define MULTIBOOT_LOADER_MAGIC 0x2badb002
#define MBI_FLAG_MMAP  (1u << 6)
#define MBI_FLAG_MODS  (1u << 3)
#define MBI_FLAG_CMDLINE (1u << 2)
#define LOW_MEMORY_END 0x100000

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct mb_module {
	uint32_t start, end, cmdline, reserved;
} __attribute__((packed));

struct mb_mmap_entry {
	uint32_t size;
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

extern char __kernel_start[], __kernel_end[];

/* The boot loader's data is below 1 MiB or just above the kernel; the low
 * tables are reachable through the boot identity map of the first GiB. */
static const void *low(uint32_t pa)
{
	return (const void *)(KERNEL_VMA + pa);
}

static void module_name(struct boot_module *m)
{
	const char *s = m->cmdline;
	size_t end = 0;
	while (s[end] && s[end] != ' ')
		end++;
	size_t start = end;
	while (start > 0 && s[start - 1] != '/')
		start--;
	size_t n = MIN(end - start, sizeof(m->name) - 1);
	memcpy(m->name, s + start, n);
	m->name[n] = '\0';
}

void arch_boot_info(uint64_t magic, uint64_t info, struct boot_info *out)
{
	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("boot: not started by a Multiboot loader (magic %#lx)", magic);
	const struct mb_info *mbi = low((uint32_t)info);
	out->kernel_start = (paddr_t)(__kernel_start - KERNEL_VMA);
	out->kernel_end = (paddr_t)(__kernel_end - KERNEL_VMA);
	/* The first MiB stays reserved: the PC's real-mode interrupt table,
	 * BIOS data, the EBDA and the ROMs live there. */
	out->reserved_end = LOW_MEMORY_END;

	if (!(mbi->flags & MBI_FLAG_MMAP))
		panic("boot: the loader gave no memory map");
	for (uint32_t off = 0; off < mbi->mmap_length;) {
		const struct mb_mmap_entry *e = low(mbi->mmap_addr + off);
		if (e->type == 1 && out->ram_count < BOOT_MAX_RANGES)
			out->ram[out->ram_count++] = (struct boot_range){ e->addr, e->addr + e->len };
		off += e->size + sizeof(e->size);
	}

	if ((mbi->flags & MBI_FLAG_CMDLINE) && mbi->cmdline)
		strlcpy(out->cmdline, (const char *)low(mbi->cmdline), sizeof(out->cmdline));

	if (mbi->flags & MBI_FLAG_MODS) {
		const struct mb_module *mods = low(mbi->mods_addr);
		for (uint32_t i = 0; i < mbi->mods_count && i < BOOT_MAX_MODULES; i++) {
			struct boot_module *m = &out->modules[out->module_count++];
			m->start = mods[i].start;
			m->end = mods[i].end;
			strlcpy(m->cmdline, mods[i].cmdline ? (const char *)low(mods[i].cmdline) : "",
			        sizeof(m->cmdline));
			module_name(m);
			out->reserved_end = MAX(out->reserved_end, (paddr_t)mods[i].cmdline + sizeof(m->cmdline));
		}
		out->reserved_end = MAX(out->reserved_end, (paddr_t)mbi->mods_addr + 16 * mbi->mods_count);
	}
	/* The information block itself and the memory map. */
	out->reserved_end = MAX(out->reserved_end, (paddr_t)info + sizeof(*mbi));
	out->reserved_end = MAX(out->reserved_end, (paddr_t)mbi->mmap_addr + mbi->mmap_length);
}
