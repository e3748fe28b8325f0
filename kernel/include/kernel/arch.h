/*
 * The architecture contract: everything the portable kernel needs from a CPU
 * port, and nothing else. A port (kernel/arch/<arch>/) implements these
 * functions and provides <arch/arch_types.h>, which defines the types named
 * here (struct arch_as, struct arch_thread, struct trapframe) and small inline
 * helpers. The portable kernel never touches page-table bits or registers by
 * name; it reads a trapframe only through the accessors below. This header is
 * the only way kernel/core reaches a port; docs/porting.md lists, section by
 * section, what a new port writes.
 *
 * What the port calls in the portable kernel: kmain (once booted), and from
 * its entry code syscall_dispatch (kernel/syscall.h), sched_tick and
 * device_interrupt (kernel/device.h) on interrupts, vm_fault (kernel/vm.h) and
 * personality_user_fault (kernel/personality.h) on user faults, panic.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <kernel/types.h>
#include <arch/arch_types.h>

struct thread;
struct boot_info;
struct myrmex_pci_info;

/* ---- Early console and machine control ---- */
void arch_console_init(void);
void arch_console_putc(char c);
/* Stops the machine; on QEMU the exit status becomes (code << 1) | 1. */
NORETURN void arch_poweroff(int code);

/* ---- CPU bring-up (called once from kmain, in this order) ---- */
/* Decodes the boot loader's information into the portable boot_info. */
void arch_boot_info(uint64_t magic, uint64_t info, struct boot_info *out);
/* Feature detection, descriptor tables, system-call entry, per-CPU data. */
void arch_cpu_init(void);
/* Builds the kernel's own page tables (direct map of RAM) and switches to them. */
void arch_paging_init(paddr_t max_phys);
/* Calibrates the time-stamp counter; returns its frequency in kHz. */
uint64_t arch_tsc_calibrate(void);
/* Starts the periodic scheduler timer at hz interrupts per second. */
void arch_timer_start(unsigned hz);
/* Seconds since the Unix epoch, read from the real-time clock. */
uint64_t arch_rtc_epoch_seconds(void);
/* The cycle counter (the CPU-time edges read it on every kernel entry and
 * exit): a port may define it inline in <arch/arch_types.h> and say so with
 * ARCH_READ_TSC_INLINE. */
#ifndef ARCH_READ_TSC_INLINE
uint64_t arch_read_tsc(void);
#endif
/* A random word from the CPU's own generator (x86-64: RDRAND): true and
 * *out set, or false when the CPU has none or it gave nothing after a few
 * tries (the caller then uses its own generator: kernel/posix/random.c). */
bool arch_random64(uint64_t *out);

/* Physical memory through the direct map; <arch/arch_types.h> defines, as a
 * static inline function on the hot path (every ICA the kernel reads),
 *   void *arch_phys_to_virt(paddr_t pa); */
paddr_t arch_virt_to_phys(const void *va);

/* ---- Address spaces ----
 * Portable protection bits for arch_as_map/arch_as_protect. */
#define MAP_R 1u
#define MAP_W 2u
#define MAP_X 4u
#define MAP_U 8u
#define MAP_DEVICE 16u   /* device memory: uncached */

/* Creates an empty user address space sharing the kernel half, allowed at
 * most table_limit page-table pages. 0 or -ENOMEM. */
int arch_as_create(struct arch_as *as, uint64_t table_limit);
/* Frees the page tables; calls release(pa) for every still-mapped user page. */
void arch_as_destroy(struct arch_as *as, void (*release)(paddr_t pa));
/* Maps one page. May allocate page-table pages: -ENOMEM, or -EAGAIN when the
 * address space's page-table limit is reached. Replaces nothing: -EEXIST. */
int arch_as_map(struct arch_as *as, vaddr_t va, paddr_t pa, unsigned prot);
/* Maps npages consecutive pages to consecutive frames (an ICA), walking the
 * tables once per page table. All or nothing: errors as arch_as_map. */
int arch_as_map_range(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot);
/* Maps n (at most 64) consecutive pages to the frames pas[], walking the
 * tables once per page table; a page already present is left alone. Bit i
 * of *mapped tells that page i was mapped now (also when an error stops
 * the walk: errors as arch_as_map, -EEXIST excepted). */
int arch_as_map_list(struct arch_as *as, vaddr_t va, const paddr_t *pas, unsigned n,
                     unsigned prot, uint64_t *mapped);
/* Unmaps npages consecutive pages and invalidates exactly their TLB entries. */
void arch_as_unmap_range(struct arch_as *as, vaddr_t va, uint64_t npages);
/* Unmaps one page and invalidates its TLB entry; returns its frame or 0. */
paddr_t arch_as_unmap(struct arch_as *as, vaddr_t va);
/* Changes the protection of a mapped page (TLB entry invalidated); -ENOENT. */
int arch_as_protect(struct arch_as *as, vaddr_t va, unsigned prot);
/* Looks up a mapping: returns its frame and fills *prot, or 0. */
paddr_t arch_as_lookup(struct arch_as *as, vaddr_t va, unsigned *prot);
/* Calls visit(va, frame, prot, arg) for every page mapped in [start, end)
 * (end <= ARCH_USER_TOP), in address order, skipping absent page tables
 * whole. visit may protect or unmap the page it is given and map pages in
 * another address space, nothing else in as. Stops at the first nonzero
 * return of visit and returns it; 0 when all were visited. */
int arch_as_walk(struct arch_as *as, vaddr_t start, vaddr_t end,
                 int (*visit)(vaddr_t va, paddr_t pa, unsigned prot, void *arg), void *arg);
/* Makes the address space current on this CPU (the kernel half is shared). */
void arch_as_activate(struct arch_as *as);
/* Switches to the kernel's own address space (before destroying a user one). */
void arch_as_activate_kernel(void);

/* ---- ICAs: attach and detach (docs/ipc.md; paper 002) ----
 * How an ICA appears in an address space is the port's choice. x86-64 maps
 * it with page-table entries and invalidates them one by one on detach; the
 * SH-4 port will load it into reserved TLB entries, with no page-table entry
 * at all. The core calls nothing else to make an ICA visible or invisible.
 * attach: the npages frames from pa appear at va in as with protection prot,
 * all or nothing: 0, -ENOMEM, -EAGAIN (the page-table limit), -EEXIST.
 * detach: they disappear from as, stale translations included. */
int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot);
void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages);

/* ---- CPUs, per-CPU data, inter-processor interrupts ----
 * <arch/arch_types.h> defines ARCH_NAME (for the boot banner), ARCH_MAX_CPUS
 * and, inline (it is on every path), unsigned arch_cpu_id(void): the calling
 * CPU, 0..ARCH_MAX_CPUS-1.
 * The portable kernel keeps its per-CPU data in arrays indexed by it
 * (kernel/sched.c's struct cpu). Today every port brings up one CPU. */
/* CPUs running (1 until the SMP step). */
unsigned arch_cpu_count(void);
/* Interrupts another CPU: it reschedules, or drops stale translations
 * (after arch_tlb_shootdown's request), or halts. */
enum arch_ipi { ARCH_IPI_RESCHEDULE, ARCH_IPI_TLB_SHOOTDOWN, ARCH_IPI_HALT };
void arch_ipi_send(unsigned cpu, enum arch_ipi what);
/* Makes every CPU that may hold translations of as drop those of
 * [va, va + npages pages), this one included; returns when all have. The
 * arch_as_unmap* and arch_as_protect calls already invalidate on this CPU;
 * this is what a second CPU adds. */
void arch_tlb_shootdown(struct arch_as *as, vaddr_t va, uint64_t npages);

/* ---- Threads ---- */
/* Prepares a new thread that will enter user mode at ip with stack sp, with
 * the thread-pointer register set to tls; its kernel stack is [kstack, +size). */
void arch_thread_init_user(struct thread *t, void *kstack, size_t kstack_size,
                           uptr_t ip, uptr_t sp, uptr_t tls);
/* Like arch_thread_init_user but a copy of the parent's user registers (those
 * saved at its system call: the parent is the running thread, or one blocked
 * in a system call for fork), its FPU state and thread pointer, with the
 * return-value register 0, stack sp (0: the parent's) and, when set_tls,
 * thread pointer tls. */
void arch_thread_init_clone(struct thread *t, const struct thread *parent, void *kstack,
                            size_t kstack_size, uptr_t sp, bool set_tls, uptr_t tls);
/* exec: the user registers of t, a thread blocked in a system call, start
 * a new program when the call returns: instruction pointer ip, stack sp,
 * every other register 0 (the return value too, unless the call's result
 * is stored after), no thread pointer, the initial FPU state. */
void arch_thread_reset_user(struct thread *t, uptr_t ip, uptr_t sp);
/* t, a thread switched out in a system call, gives up its kernel stack:
 * the next switch to it runs sched_thread_restarted on a fresh stack, which
 * leaves for user mode through its saved user registers. */
void arch_thread_restart_user(struct thread *t);
/* Sets the result register of the system call t is in (its saved user
 * registers). */
void arch_thread_set_return(struct thread *t, uint64_t value);
/* The boot context becomes thread t (the idle thread). */
void arch_thread_init_boot(struct thread *t);
/* Saves prev's context and resumes next's (address space, thread pointer,
 * FPU state, kernel stack); returns when prev runs again. */
void arch_context_switch(struct thread *prev, struct thread *next);
/* Thread-pointer register (FS base on x86-64): -EPERM for a non-user address. */
int arch_thread_set_tls(struct thread *t, uptr_t tls);
uptr_t arch_thread_get_tls(const struct thread *t);

/* ---- Signal frames (struct sig_frame, sig_restored: posix/signal.h) ---- */
struct sig_frame;
struct sig_restored;
/* Builds Linux's signal frame for the current thread t on its user stack (or
 * at f->stack_top), saving its user registers, FPU state and f->saved_mask,
 * and points the registers at the handler, with the restorer as return
 * address. 0, or -EFAULT when the frame cannot be written or the handler is
 * not a user address (nothing changed then). */
int arch_signal_setup(struct thread *t, const struct sig_frame *f);
/* rt_sigreturn for the current thread t: reads the frame below its stack
 * pointer, checks it (user addresses, user flags only, a valid FPU state)
 * and restores the registers and FPU state. 0, or -EFAULT with nothing
 * restored. */
int arch_signal_return(struct thread *t, struct sig_restored *out);
/* Writes Linux's siginfo for sig and info at user address dst (as a
 * handler's frame holds it): 0 or -EFAULT. */
struct sig_info;
int arch_signal_info_out(uptr_t dst, int sig, const struct sig_info *info);
/* The user stack pointer saved at t's kernel entry. */
uptr_t arch_signal_user_sp(const struct thread *t);
/* Makes the system call t is returning from run again (its number back in
 * the number register, the instruction pointer back on the instruction). */
void arch_signal_restart_syscall(struct thread *t);

/* ---- Trapframes: registers by role ----
 * <arch/arch_types.h> defines, as static inline functions on the hot path:
 *   uint64_t arch_tf_syscall_nr(const struct trapframe *tf);
 *   uint64_t arch_tf_syscall_arg(const struct trapframe *tf, int index);  (0..5)
 *   void arch_tf_set_return(struct trapframe *tf, uint64_t value);
 *   uptr_t arch_tf_ip(const struct trapframe *tf);
 *   bool arch_tf_from_user(const struct trapframe *tf);
 */
uint64_t arch_tf_frame_pointer(const struct trapframe *tf);
void arch_tf_dump(const struct trapframe *tf);
/* Prints the current CPU's control registers (a panic without a trapframe). */
void arch_dump_cpu_state(void);

/* ---- PCI, legacy devices and device interrupts ---- */
uint32_t arch_pci_read32(unsigned bus, unsigned slot, unsigned fn, unsigned offset);
void arch_pci_write32(unsigned bus, unsigned slot, unsigned fn, unsigned offset, uint32_t v);
/* Describes legacy device i of the platform (0, 1, ... until false) the way
 * include/myrmex/device.h lists it: kind MYRMEX_DEV_KIND_LEGACY, ports in
 * BAR 0, irq_line the interrupt input its (edge-triggered) line reaches; and
 * *guard, the kernel's check of its owner's port accesses (kernel/device.h),
 * or NULL when the port has none (the device is then not listed). */
struct device_ops;
bool arch_legacy_device(unsigned i, struct myrmex_pci_info *out, const struct device_ops **guard);
/* Device registers in the port space (x86 I/O ports); width 1, 2 or 4
 * bytes. The caller has checked port and width. */
uint32_t arch_port_read(unsigned port, unsigned width);
void arch_port_write(unsigned port, unsigned width, uint32_t value);
/* Device interrupt lines (0..ARCH_IRQ_LINES-1) arrive as device_interrupt(line)
 * (kernel/device.h). route sets a line up masked, level-triggered (PCI) or
 * edge-triggered (ISA), active high; mask/unmask gate it. */
enum irq_trigger { IRQ_LEVEL, IRQ_EDGE };
void arch_irq_route(unsigned line, enum irq_trigger trigger);
void arch_irq_mask(unsigned line);
void arch_irq_unmask(unsigned line);

/* ---- Interrupt state and idle ---- */
void arch_wait_for_interrupt(void); /* enable interrupts, halt, disable again */

/* ---- Copying from and to user space ----
 * Both copy n bytes and return 0, or -EFAULT when an access faults that the
 * page-fault handler cannot resolve. The caller has range-checked the address
 * (see kernel/usercopy.h); these do the access itself. */
int arch_copy_from_user(void *dst, uptr_t src, size_t n);
int arch_copy_to_user(uptr_t dst, const void *src, size_t n);

/* ---- Backtrace ---- */
/* Calls visit(return address) for each frame of the current kernel stack,
 * starting from frame pointer fp (0 = the caller's own frame). */
void arch_backtrace(uint64_t fp, void (*visit)(uint64_t ip));

#endif
