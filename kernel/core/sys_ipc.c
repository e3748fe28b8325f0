/*
 * System calls of ICAs and the communication mechanism (include/myrmex/ica.h):
 * decode and check the arguments, then call kernel/ica.c and kernel/ipc.c.
 */
#include <kernel/syscall.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/usercopy.h>

static struct process *self(void)
{
	return current_thread()->proc;
}

/* The caller's own idle ICA named by a handle, or NULL. */
static struct ica *own_idle(uint64_t handle, enum ica_state state)
{
	struct ica *ica = handle <= UINT32_MAX ? ica_lookup((uint32_t)handle) : NULL;
	return ica && ica->state == state && ica->owner == self() && !ica->kernel_channel ? ica : NULL;
}

long sys_ica_alloc(const struct syscall_args *a)
{
	if (a->arg[0] > MYRMEX_ICA_MAX_PAGES)
		return -EINVAL;
	struct ica *ica;
	int err = ica_alloc(self(), (uint32_t)a->arg[0], &ica);
	return err ? err : (long)ica->handle;
}

long sys_ica_free(const struct syscall_args *a)
{
	struct ica *ica = own_idle(a->arg[0], ICA_ATTACHED);
	if (!ica)
		ica = own_idle(a->arg[0], ICA_PARKED);
	if (!ica) {
		struct ica *other = a->arg[0] <= UINT32_MAX ? ica_lookup((uint32_t)a->arg[0]) : NULL;
		return other && other->state == ICA_IN_FLIGHT &&
		       (other->call.home == self() || other->call.handler == self()) ? -EBUSY : -EINVAL;
	}
	ica_destroy(ica);
	return 0;
}

long sys_ica_detach(const struct syscall_args *a)
{
	struct ica *ica = own_idle(a->arg[0], ICA_ATTACHED);
	if (!ica)
		return -EINVAL;
	ica_unmap(ica, self());
	ica->state = ICA_PARKED;
	return 0;
}

long sys_ica_attach(const struct syscall_args *a)
{
	struct ica *ica = own_idle(a->arg[0], ICA_PARKED);
	if (!ica)
		return -EINVAL;
	int err = ica_map(ica, self());
	if (err)
		return err;
	ica->state = ICA_ATTACHED;
	return 0;
}

long sys_registserver(const struct syscall_args *a)
{
	return ipc_register(self(), a->arg[0]);
}

long sys_callsync(const struct syscall_args *a)
{
	struct thread *t = current_thread();
	long r;
	t->ipc_resume = IPC_RESUME_CALL;
	if (!ipc_fast_call(t, a->arg[0], &r))
		r = ipc_call(t, a->arg[0], true);
	t->ipc_resume = IPC_RESUME_NONE;
	return r;
}

long sys_callasync(const struct syscall_args *a)
{
	return ipc_call(current_thread(), a->arg[0], false);
}

long sys_ret(const struct syscall_args *a)
{
	return ipc_return(current_thread(), a->arg[0]);
}

long sys_claim(const struct syscall_args *a)
{
	return ipc_claim(current_thread(), a->arg[0]);
}

long sys_get(const struct syscall_args *a)
{
	uptr_t ctl = a->arg[0], out = a->arg[1];
	struct myrmex_delivery d;
	/* Check the out pointer before anything moves; it may not lie in the
	 * ICA window, where the return below could unmap it. A server's loop
	 * gives the same place every time: once written by a get, it is not
	 * tried again (were it unmapped since, the delivery would be lost to
	 * the server, as it is when that happens while get waits). */
	struct thread *t = current_thread();
	if (out && ica_in_window(out, sizeof(d)))
		return -EINVAL;
	if (out && out != t->ipc_get_out_written &&
	    (copy_from_user(&d, out, sizeof(d)) < 0 || copy_to_user(out, &d, sizeof(d)) < 0))
		return -EFAULT;
	/* From here the fast path may finish this get for us (ipc_fast.c). */
	t->ipc_get_out = out;
	t->ipc_resume = IPC_RESUME_GET;
	if (ctl && !ipc_fast_reply(t, ctl)) {
		int err = ipc_return(t, ctl);
		if (err) {
			t->ipc_resume = IPC_RESUME_NONE;
			return err;
		}
	}
	long r = ipc_get(t, &d);
	t->ipc_resume = IPC_RESUME_NONE;
	if (r >= 0 && out)
		t->ipc_get_out_written = copy_to_user(out, &d, sizeof(d)) == 0 ? out : 0;
	return r;
}

long sys_server_pid(const struct syscall_args *a)
{
	struct process *server = ipc_server(a->arg[0]);
	return server ? server->pid : -ESRCH;
}
