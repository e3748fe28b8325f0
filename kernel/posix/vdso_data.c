/*
 * The vDSO's clock page (include/myrmex/vdso.h): the time server is the
 * clock's authority and publishes its parameters with clock_publish; the
 * kernel alone writes the page, under its sequence lock, so no process
 * maps it writable and a server that dies cannot leave it half written.
 * While no time server has published (before it starts, after it ends)
 * the page says so and the vDSO makes the real system call, which the
 * time server or the kernel answers; so the vDSO never answers with a
 * clock that the system call would not give.
 */
#include <posix/vdso.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <myrmex/vdso.h>
#include <posix/route.h>

/* The pid whose clock the page holds (0: none). */
static int publisher;

/* Writes the page: seq odd, the fields, seq even. A reader that saw an odd
 * seq or two different ones tries again. On one CPU with interrupts off no
 * reader runs meanwhile; the fences keep the order for more CPUs. */
static void write_page(const struct myrmex_clock_info *clock, uint32_t published)
{
	struct myrmex_vdso_data *d = vdso_data_page();
	__atomic_store_n(&d->seq, d->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (clock)
		d->clock = *clock;
	d->res_ns = 1;
	d->published = published;
	__atomic_store_n(&d->seq, d->seq + 1, __ATOMIC_RELEASE);
}

long sys_clock_publish(const struct syscall_args *a)
{
	struct process *me = current_thread()->proc;
	if (posix_server(SERVICE_TIME) != me)
		return -EPERM;
	struct myrmex_clock_info clock;
	if (copy_from_user(&clock, a->arg[0], sizeof(clock)) < 0)
		return -EFAULT;
	if (clock.mult == 0 || clock.tsc_khz == 0)
		return -EINVAL;
	/* The time server's REALTIME is the system's: a clock it set
	 * (TIME_SET) is the kernel's too, for its own answers and for a
	 * restarted server's clock_info. */
	time_set_epoch(clock.epoch_ns);
	if (!vdso_data_page())
		return 0;   /* no vDSO on this port: nothing to publish into */
	write_page(&clock, 1);
	publisher = me->pid;
	return 0;
}

void vdso_process_exit(const struct process *p)
{
	if (publisher == 0 || p->pid != publisher)
		return;
	publisher = 0;
	write_page(NULL, 0);
}
