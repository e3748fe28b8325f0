/*
 * The vDSO of POSIX processes (include/myrmex/vdso.h, docs/posix.md): the
 * port's image and the clock page, frames the personality keeps from boot
 * and maps into every POSIX process at a fixed place; and the clock page's
 * one writer, clock_publish, on behalf of the time server.
 *
 * Locking: the kernel lock (kernel/klock.h), as every kernel entry.
 */
#ifndef POSIX_VDSO_H
#define POSIX_VDSO_H

#include <kernel/types.h>

struct vm_space;
struct process;
struct syscall_args;

/* At boot, after the page allocator: copies the port's image into frames
 * of its own and allocates the clock page (nothing published). Panics when
 * memory is short (boot). A port with an empty image has no vDSO. */
void vdso_init(void);
/* The user address of the image (AT_SYSINFO_EHDR), or 0 without a vDSO. */
uptr_t vdso_ehdr(void);
/* Pages a vDSO mapping takes in an address space (0 without one). */
uint64_t vdso_pages(void);
/* Maps the clock page (read) and the image (read + execute) into vm at
 * their fixed place: 0 (also without a vDSO) or -ENOMEM. */
int vdso_map(struct vm_space *vm);

/* vdso_data.c: the clock page. */
/* clock_publish (include/myrmex/vdso.h): the time server's clock into the
 * page. */
long sys_clock_publish(const struct syscall_args *a);
/* p ends: if it published the page's clock, the page says "none" again. */
void vdso_process_exit(const struct process *p);
/* The clock page as the kernel writes it (vdso.c allocates it). */
struct myrmex_vdso_data *vdso_data_page(void);

#endif
