/*
 * The vDSO's frames and their mapping (see posix/vdso.h). The image the
 * port embeds (<arch/linux_abi.h>) is copied at boot into frames the
 * personality keeps for good, one page after the clock page; every POSIX
 * program gets both mapped at VDSO_BASE (loader_install), and fork shares
 * them like any page. The frames are never freed: the kernel's own
 * reference keeps them shared, so every process maps them read-only
 * (vm_map_frames) and a store by a process can only ever reach a private
 * copy.
 */
#include <posix/vdso.h>
#include <arch/linux_abi.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <kernel/vm.h>
#include <myrmex/vdso.h>

/* In the gap between the mmap area and the stack, which nothing else
 * maps unless a program asks for the place (MAP_FIXED). */
#define VDSO_BASE        USER_MMAP_TOP
#define VDSO_IMAGE_MAX   4   /* pages of image at most */

_Static_assert(MYRMEX_VDSO_DATA_SIZE == PAGE_SIZE, "the clock page is one page");
_Static_assert(VDSO_BASE + (1 + VDSO_IMAGE_MAX) * PAGE_SIZE <= USER_STACK_TOP - USER_STACK_SIZE,
               "the vDSO lies below the stack");

static paddr_t data_frame;
static paddr_t image_frames[VDSO_IMAGE_MAX];
static uint64_t image_pages;

void vdso_init(void)
{
	uint64_t size = (uint64_t)(linux_vdso_image_end - linux_vdso_image);
	if (size == 0)
		return;
	image_pages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	if (image_pages > VDSO_IMAGE_MAX)
		panic("vdso: image of %llu bytes is over %u pages", (unsigned long long)size,
		      VDSO_IMAGE_MAX);
	data_frame = pmm_alloc_page();   /* zeroed: nothing published */
	if (!data_frame)
		panic("vdso: no page for the clock page");
	for (uint64_t i = 0; i < image_pages; i++) {
		image_frames[i] = pmm_alloc_page();
		if (!image_frames[i])
			panic("vdso: no page for the image");
		uint64_t off = i * PAGE_SIZE;
		memcpy(arch_phys_to_virt(image_frames[i]), linux_vdso_image + off,
		       (size_t)MIN((uint64_t)PAGE_SIZE, size - off));
	}
}

uptr_t vdso_ehdr(void)
{
	return image_pages ? VDSO_BASE + PAGE_SIZE : 0;
}

uint64_t vdso_pages(void)
{
	return image_pages ? 1 + image_pages : 0;
}

struct myrmex_vdso_data *vdso_data_page(void)
{
	return data_frame ? arch_phys_to_virt(data_frame) : NULL;
}

int vdso_map(struct vm_space *vm)
{
	if (!image_pages)
		return 0;
	int err = vm_map_frames(vm, VDSO_BASE, &data_frame, 1, MAP_R);
	if (!err)
		err = vm_map_frames(vm, VDSO_BASE + PAGE_SIZE, image_frames, image_pages, MAP_R | MAP_X);
	/* The loader mapped nothing here before: a clash would be a bug. */
	return err == -EEXIST || err == -EPERM || err == -EINVAL ? -ENOMEM : err;
}
