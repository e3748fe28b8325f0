/*
 * Loads a static ELF program into an address space and lays out its
 * initial stack as Linux does, so that unmodified musl start-up code runs
 * (see posix/loader.h). The file is read through its elf_image view: one
 * buffer for a boot module, a list of ICAs for exec.
 */
#include <posix/loader.h>
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <posix/ustack.h>
#include <posix/vdso.h>
#include <kernel/vm.h>

static unsigned map_prot(unsigned elf_prot)
{
	return ((elf_prot & ELF_PROT_R) ? MAP_R : 0) | ((elf_prot & ELF_PROT_W) ? MAP_W : 0) |
	       ((elf_prot & ELF_PROT_X) ? MAP_X : 0);
}

/* What vm_map would refuse must be refused here, before anything is
 * mapped: a segment below USER_BASE or across the kernel's windows (between
 * USER_BRK_TOP and USER_MMAP_BASE), or more memory than the system's
 * whole commit budget. elf_parse has checked that the segments ascend below USER_MMAP_TOP. */
static int check_layout(const struct elf_info *info, bool vdso)
{
	uint64_t pages = vdso ? vdso_pages() : 0;   /* the stack commits as it grows */
	vaddr_t prev_end = 0;
	for (unsigned i = 0; i < info->segment_count; i++) {
		const struct elf_segment *s = &info->segments[i];
		vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
		vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
		if (start < USER_BASE || (start < USER_MMAP_BASE && end > USER_BRK_TOP))
			return -ENOEXEC;
		pages += (end - MAX(start, prev_end)) / PAGE_SIZE;   /* a shared page counts once */
		prev_end = MAX(end, prev_end);
	}
	return pages > vm_commit_limit_pages() ? -ENOMEM : 0;
}

/* Bytes the stack image needs at most: the strings, the vectors, and a
 * page for the auxiliary vector, the random bytes and the alignment. */
static uint64_t stack_image_bound(const struct program_args *args, const char *execfn)
{
	uint64_t bytes = strlen(execfn) + 1 + PAGE_SIZE;
	for (int i = 0; i < args->argc; i++)
		bytes += strlen(args->argv[i]) + 1;
	for (int i = 0; i < args->envc; i++)
		bytes += strlen(args->envp[i]) + 1;
	return bytes + sizeof(linux_auxv_word) * ((uint64_t)args->argc + (uint64_t)args->envc + 3);
}

static int build_stack(struct program *prog, const struct program_args *args)
{
	const char *execfn = args->argc > 0 ? args->argv[0] : "";
	uint64_t bound = stack_image_bound(args, execfn);
	if (bound > LOADER_STACK_IMAGE_MAX)
		return -E2BIG;
	prog->stack_pages = ALIGN_UP(bound, PAGE_SIZE) / PAGE_SIZE;
	prog->stack_image = pmm_alloc(prog->stack_pages);
	if (!prog->stack_image)
		return -ENOMEM;
	const struct elf_info *info = &prog->info;
	struct ustack_params p = {
		.argv = args->argv, .argc = args->argc, .envp = args->envp, .envc = args->envc,
		.execfn = execfn, .platform = LINUX_PLATFORM,
		.phdr = info->phdr_vaddr, .phent = info->phentsize, .phnum = info->phnum,
		.entry = info->entry, .hwcap = 0, .clktck = 100, .pagesz = PAGE_SIZE,
		.sysinfo_ehdr = args->vdso ? vdso_ehdr() : 0,
		.uid = args->uid, .euid = args->euid, .gid = args->gid, .egid = args->egid,
		.secure = args->secure,
	};
	struct ustack_layout layout = { 0, 0 };
	p.layout = &layout;
	/* AT_RANDOM: not cryptographic, but different for every program. */
	uint64_t seed = arch_read_tsc() ^ (uint64_t)args->argc * 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 16; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		p.random[i] = (uint8_t)seed;
	}
	prog->sp = ustack_build(&p, USER_STACK_TOP, arch_phys_to_virt(prog->stack_image),
	                        prog->stack_pages * PAGE_SIZE, &prog->stack_used);
	prog->env_start = layout.env_start;
	prog->env_end = layout.env_end;
	return prog->sp ? 0 : -E2BIG;
}

int loader_prepare(struct program *prog, const struct elf_image *file,
                   const struct program_args *args)
{
	memset(prog, 0, sizeof(*prog));
	prog->file = file;
	prog->vdso = args->vdso;
	int err = elf_parse_image(file, USER_MMAP_TOP, &prog->info);
	if (!err)
		err = check_layout(&prog->info, prog->vdso);
	if (!err)
		err = build_stack(prog, args);
	if (err)
		loader_release(prog);
	return err;
}

void loader_release(struct program *prog)
{
	if (prog->stack_image)
		pmm_free(prog->stack_image, prog->stack_pages);
	prog->stack_image = 0;
}

/* Copies a segment's file bytes, piece by piece of the file. */
static int copy_segment(struct vm_space *vm, const struct elf_image *file,
                        const struct elf_segment *s)
{
	uint64_t done = 0;
	while (done < s->filesz) {
		const void *bytes;
		uint64_t n = MIN(file->view(file, s->offset + done, &bytes), s->filesz - done);
		int err = vm_write(vm, s->vaddr + done, bytes, n);
		if (err)
			return err;
		done += n;
	}
	return 0;
}

static int load_segments(struct vm_space *vm, const struct program *prog)
{
	const struct elf_info *info = &prog->info;
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
		int err = copy_segment(vm, prog->file, s);
		if (err)
			return err;
		prev_end = MAX(end, prev_end);
		prev_prot = prot;
	}
	return 0;
}

int loader_install(struct vm_space *vm, const struct program *prog, uptr_t *entry, uptr_t *sp)
{
	int err = load_segments(vm, prog);
	if (err)
		return err;
	const struct elf_segment *last = &prog->info.segments[prog->info.segment_count - 1];
	vm->brk_start = vm->brk = ALIGN_UP(last->vaddr + last->memsz, PAGE_SIZE);
	vm->overcommit = prog->vdso;   /* a POSIX program overcommits, as on Linux */
	vaddr_t stack = USER_STACK_TOP - USER_STACK_SIZE;
	err = vm_map(vm, &stack, USER_STACK_SIZE, MAP_R | MAP_W, VM_NOREPLACE | VM_NORESERVE);
	if (!err && prog->vdso)
		err = vdso_map(vm);
	if (err)
		return err;
	const uint8_t *image = arch_phys_to_virt(prog->stack_image);
	err = vm_write(vm, USER_STACK_TOP - prog->stack_used,
	               image + prog->stack_pages * PAGE_SIZE - prog->stack_used, prog->stack_used);
	if (err)
		return err;
	vm->env_start = prog->env_start;
	vm->env_end = prog->env_end;
	*entry = prog->info.entry;
	*sp = prog->sp;
	return 0;
}

int loader_load(struct vm_space *vm, const struct boot_module *m,
                const struct program_args *args, uptr_t *entry, uptr_t *sp)
{
	struct elf_image file;
	elf_image_of_buffer(&file, arch_phys_to_virt(m->start), m->end - m->start);
	struct program prog;
	int err = loader_prepare(&prog, &file, args);
	if (err)
		return err;
	err = loader_install(vm, &prog, entry, sp);
	loader_release(&prog);
	/* The layout was checked: vm_map has nothing left to refuse but memory. */
	return err == -EEXIST || err == -EPERM ? -ENOEXEC : err;
}
