/*
 * Loads a static ELF64 program from a boot module into a fresh address space
 * and lays out its initial stack as Linux does, so that unmodified musl
 * start-up code runs.
 */
#include <kernel/loader.h>
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <kernel/ustack.h>
#include <kernel/vm.h>

#define STACK_IMAGE_PAGES 8   /* argv + envp + auxv may use at most 32 KiB */

static unsigned map_prot(unsigned elf_prot)
{
	return ((elf_prot & ELF_PROT_R) ? MAP_R : 0) | ((elf_prot & ELF_PROT_W) ? MAP_W : 0) |
	       ((elf_prot & ELF_PROT_X) ? MAP_X : 0);
}

static int load_segments(struct vm_space *vm, const uint8_t *image, const struct elf_info *info)
{
	vaddr_t prev_end = 0;
	unsigned prev_prot = 0;
	for (unsigned i = 0; i < info->segment_count; i++) {
		const struct elf_segment *s = &info->segments[i];
		unsigned prot = map_prot(s->prot);
		vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
		vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
		if (start < prev_end) {
			/* The segment begins on the previous one's last page: that page
			 * takes both protections. */
			int err = vm_protect(vm, prev_end - PAGE_SIZE, PAGE_SIZE, prev_prot | prot);
			if (err)
				return err;
			start = prev_end;
		}
		if (end > start) {
			vaddr_t at = start;
			int err = vm_map(vm, &at, end - start, prot, VM_NOREPLACE | VM_POPULATE);
			if (err)
				return err;
		}
		int err = vm_write(vm, s->vaddr, image + s->offset, s->filesz);
		if (err)
			return err;
		prev_end = MAX(end, prev_end);
		prev_prot = prot;
	}
	return 0;
}

static int build_stack(struct vm_space *vm, const struct elf_info *info,
                       const struct program_args *args, uptr_t *sp)
{
	vaddr_t stack = USER_STACK_TOP - USER_STACK_SIZE;
	int err = vm_map(vm, &stack, USER_STACK_SIZE, MAP_R | MAP_W, VM_NOREPLACE);
	if (err)
		return err;
	paddr_t scratch = pmm_alloc(STACK_IMAGE_PAGES);
	if (!scratch)
		return -ENOMEM;
	struct ustack_params p = {
		.argv = args->argv, .argc = args->argc, .envp = args->envp, .envc = args->envc,
		.execfn = args->argc > 0 ? args->argv[0] : "", .platform = "x86_64",
		.phdr = info->phdr_vaddr, .phent = info->phentsize, .phnum = info->phnum,
		.entry = info->entry, .hwcap = 0, .clktck = 100, .pagesz = PAGE_SIZE,
	};
	/* AT_RANDOM: not cryptographic, but different for every program. */
	uint64_t seed = arch_read_tsc() ^ (uint64_t)args->argc * 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 16; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		p.random[i] = (uint8_t)seed;
	}
	size_t used = 0;
	size_t size = STACK_IMAGE_PAGES * PAGE_SIZE;
	uint8_t *buf = arch_phys_to_virt(scratch);
	*sp = ustack_build(&p, USER_STACK_TOP, buf, size, &used);
	err = *sp ? vm_write(vm, USER_STACK_TOP - used, buf + size - used, used) : -E2BIG;
	pmm_free(scratch, STACK_IMAGE_PAGES);
	return err;
}

int loader_load(struct vm_space *vm, const struct boot_module *m,
                const struct program_args *args, uptr_t *entry, uptr_t *sp)
{
	const uint8_t *image = arch_phys_to_virt(m->start);
	struct elf_info info;
	int err = elf_parse(image, m->end - m->start, USER_MMAP_TOP, &info);
	if (err)
		return err;
	err = load_segments(vm, image, &info);
	if (err)
		return err == -EEXIST || err == -EPERM ? -ENOEXEC : err;
	const struct elf_segment *last = &info.segments[info.segment_count - 1];
	vm->brk_start = vm->brk = ALIGN_UP(last->vaddr + last->memsz, PAGE_SIZE);
	err = build_stack(vm, &info, args, sp);
	if (err)
		return err;
	*entry = info.entry;
	return 0;
}
