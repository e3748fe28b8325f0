/*
 * The stub port: every function of the architecture contract
 * (kernel/arch.h), each trivial or a panic. Nothing here runs; linking it
 * with the portable kernel proves that the contract is all the kernel
 * needs from a port (see arch_types.h).
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/string.h>

/* ---- Early console and machine control ---- */
void arch_console_init(void) {}
void arch_console_putc(char c) { (void)c; }

NORETURN void arch_poweroff(int code)
{
	(void)code;
	for (;;)
		;
}

/* ---- CPU bring-up ---- */
void arch_boot_info(uint64_t magic, uint64_t info, struct boot_info *out)
{
	(void)magic;
	(void)info;
	memset(out, 0, sizeof(*out));
}

void arch_cpu_init(void) {}
void arch_paging_init(paddr_t max_phys) { (void)max_phys; }
uint64_t arch_tsc_calibrate(void) { return 1000000; }
void arch_timer_start(unsigned hz) { (void)hz; }
uint64_t arch_rtc_epoch_seconds(void) { return 0; }
uint64_t arch_read_tsc(void) { return 0; }
bool arch_random64(uint64_t *out) { (void)out; return false; }

/* A direct map at 3 GiB, as a 32-bit kernel would have (low memory only). */
#define DIRECT_MAP 0xc0000000u

paddr_t arch_virt_to_phys(const void *va) { return (uintptr_t)va - DIRECT_MAP; }

/* ---- Address spaces ---- */
int arch_as_create(struct arch_as *as, uint64_t table_limit)
{
	(void)as;
	(void)table_limit;
	return -ENOMEM;
}

void arch_as_destroy(struct arch_as *as, void (*release)(paddr_t pa))
{
	(void)as;
	(void)release;
}

int arch_as_map(struct arch_as *as, vaddr_t va, paddr_t pa, unsigned prot)
{
	(void)as, (void)va, (void)pa, (void)prot;
	return -ENOMEM;
}

int arch_as_map_range(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	(void)as, (void)va, (void)pa, (void)npages, (void)prot;
	return -ENOMEM;
}

int arch_as_map_list(struct arch_as *as, vaddr_t va, const paddr_t *pas, unsigned n,
                     unsigned prot, uint64_t *mapped)
{
	(void)as, (void)va, (void)pas, (void)n, (void)prot;
	*mapped = 0;
	return -ENOMEM;
}

void arch_as_unmap_range(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	(void)as, (void)va, (void)npages;
}

paddr_t arch_as_unmap(struct arch_as *as, vaddr_t va)
{
	(void)as, (void)va;
	return 0;
}

int arch_as_protect(struct arch_as *as, vaddr_t va, unsigned prot)
{
	(void)as, (void)va, (void)prot;
	return -ENOENT;
}

paddr_t arch_as_lookup(struct arch_as *as, vaddr_t va, unsigned *prot)
{
	(void)as, (void)va, (void)prot;
	return 0;
}

int arch_as_walk(struct arch_as *as, vaddr_t start, vaddr_t end,
                 int (*visit)(vaddr_t va, paddr_t pa, unsigned prot, void *arg), void *arg)
{
	(void)as, (void)start, (void)end, (void)visit, (void)arg;
	return 0;
}

void arch_as_activate(struct arch_as *as) { (void)as; }
void arch_as_activate_kernel(void) {}

/* ---- ICAs: attach and detach, as page-table entries would do it ---- */
int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	return arch_as_map_range(as, va, pa, npages, prot);
}

void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	arch_as_unmap_range(as, va, npages);
}

/* ---- CPUs: one ---- */
unsigned arch_cpu_count(void) { return 1; }

void arch_ipi_send(unsigned cpu, enum arch_ipi what)
{
	panic("stub32: no second CPU to interrupt (%u, %d)", cpu, (int)what);
}

void arch_tlb_shootdown(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	(void)as, (void)va, (void)npages;
}

/* ---- Threads ---- */
void arch_thread_init_user(struct thread *t, void *kstack, size_t kstack_size,
                           uptr_t ip, uptr_t sp, uptr_t tls)
{
	(void)t, (void)kstack, (void)kstack_size, (void)ip, (void)sp, (void)tls;
	panic("stub32: no user threads");
}

void arch_thread_init_clone(struct thread *t, const struct thread *parent, void *kstack,
                            size_t kstack_size, uptr_t sp, bool set_tls, uptr_t tls)
{
	(void)t, (void)parent, (void)kstack, (void)kstack_size, (void)sp, (void)set_tls, (void)tls;
	panic("stub32: no user threads");
}

void arch_thread_reset_user(struct thread *t, uptr_t ip, uptr_t sp)
{
	(void)t, (void)ip, (void)sp;
	panic("stub32: no user threads");
}

void arch_thread_init_boot(struct thread *t) { (void)t; }

void arch_thread_restart_user(struct thread *t)
{
	(void)t;
	panic("stub32: no threads to restart");
}

void arch_thread_set_return(struct thread *t, uint64_t value)
{
	(void)t, (void)value;
	panic("stub32: no user registers");
}

void arch_context_switch(struct thread *prev, struct thread *next)
{
	(void)prev, (void)next;
	panic("stub32: no context switch");
}

int arch_thread_set_tls(struct thread *t, uptr_t tls)
{
	(void)t, (void)tls;
	return -EPERM;
}

uptr_t arch_thread_get_tls(const struct thread *t)
{
	(void)t;
	return 0;
}

/* ---- Signal frames ---- */
int arch_signal_setup(struct thread *t, const struct sig_frame *f)
{
	(void)t, (void)f;
	return -EFAULT;
}

int arch_signal_info_out(uptr_t dst, int sig, const struct sig_info *info)
{
	(void)dst, (void)sig, (void)info;
	return -EFAULT;
}

int arch_signal_return(struct thread *t, struct sig_restored *out)
{
	(void)t, (void)out;
	return -EFAULT;
}

uptr_t arch_signal_user_sp(const struct thread *t)
{
	(void)t;
	return 0;
}

void arch_signal_restart_syscall(struct thread *t) { (void)t; }

/* ---- Trapframes ---- */
uint64_t arch_tf_frame_pointer(const struct trapframe *tf) { return tf->fp; }
void arch_tf_dump(const struct trapframe *tf) { (void)tf; }
void arch_dump_cpu_state(void) {}

/* ---- PCI, legacy devices and device interrupts: none ---- */
uint32_t arch_pci_read32(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	(void)bus, (void)slot, (void)fn, (void)offset;
	return 0xffffffffu;
}

void arch_pci_write32(unsigned bus, unsigned slot, unsigned fn, unsigned offset, uint32_t v)
{
	(void)bus, (void)slot, (void)fn, (void)offset, (void)v;
}

bool arch_legacy_device(unsigned i, struct myrmex_pci_info *out, const struct device_ops **guard)
{
	(void)i, (void)out, (void)guard;
	return false;
}

uint32_t arch_port_read(unsigned port, unsigned width)
{
	(void)port, (void)width;
	return 0;
}

void arch_port_write(unsigned port, unsigned width, uint32_t value)
{
	(void)port, (void)width, (void)value;
}

void arch_irq_route(unsigned line, enum irq_trigger trigger) { (void)line, (void)trigger; }
void arch_irq_mask(unsigned line) { (void)line; }
void arch_irq_unmask(unsigned line) { (void)line; }

/* ---- Interrupt state and idle ---- */
void arch_wait_for_interrupt(void) {}

/* ---- Copying from and to user space: no user space ---- */
int arch_copy_from_user(void *dst, uptr_t src, size_t n)
{
	(void)dst, (void)src, (void)n;
	return -EFAULT;
}

int arch_copy_to_user(uptr_t dst, const void *src, size_t n)
{
	(void)dst, (void)src, (void)n;
	return -EFAULT;
}

/* ---- Backtrace ---- */
void arch_backtrace(uint64_t fp, void (*visit)(uint64_t ip)) { (void)fp, (void)visit; }

/* ---- The string primitives a port provides (kernel/string.h) ---- */
void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}
