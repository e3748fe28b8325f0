/*
 * Call rights: which servers (coreids) a process may call, and who may hand
 * out rights and devices (docs/ipc.md, "Rights"; docs/services.md).
 *
 * Every process carries a set of coreids. callsync/callasync to a coreid
 * outside the set fail with -EPERM before anything is queued (the kernel
 * counts the refusal in kstats.ipc_refused). Calls the kernel makes itself on
 * a thread's channel (the Linux calls it forwards) are not checked: a POSIX
 * process reaches the servers only that way and holds no rights.
 *
 * A set is given at spawn by a process that holds at least that set, is
 * inherited by fork and exec, and is never widened: rights() can only
 * narrow it. The first process (pid 1) holds every right.
 */
#ifndef MYRMEX_RIGHTS_H
#define MYRMEX_RIGHTS_H

#include <stdint.h>
#include <myrmex/syscall.h>

#define MYRMEX_RIGHTS_WORDS 4   /* 256 coreids (MYRMEX_MAX_COREID + 1) */

struct myrmex_rights {
	uint64_t call[MYRMEX_RIGHTS_WORDS];   /* bit c of word c / 64: may call coreid c */
};

static inline void myrmex_rights_add(struct myrmex_rights *r, unsigned coreid)
{
	if (coreid < 64 * MYRMEX_RIGHTS_WORDS)
		r->call[coreid / 64] |= (uint64_t)1 << (coreid % 64);
}

static inline int myrmex_rights_has(const struct myrmex_rights *r, unsigned coreid)
{
	return coreid < 64 * MYRMEX_RIGHTS_WORDS && (r->call[coreid / 64] >> (coreid % 64) & 1);
}

/* spawn flags (include/myrmex/syscall.h):
 * MYRMEX_SPAWN_RIGHTS: spawn's sixth argument points at the child's rights,
 *     which must be a subset of the caller's (-EPERM otherwise). Without it
 *     the child inherits the caller's set, and a POSIX child gets none.
 * MYRMEX_SPAWN_MANAGER: the child may give devices (MYRMEX_SPAWN_DEVICE)
 *     and this flag at spawn, as pid 1 may: the service manager. Only a
 *     process that has the power may pass it on (-EPERM). */
#define MYRMEX_SPAWN_RIGHTS  4u
#define MYRMEX_SPAWN_MANAGER 8u

/*
 * rights(const struct myrmex_rights *keep, struct myrmex_rights *out)
 * Narrows the caller's set to its intersection with *keep (keep NULL: no
 * change) and copies the result to *out (out NULL: no copy). 0 or -EFAULT
 * (nothing changed when keep cannot be read).
 */
#define MYRMEX_SYS_RIGHTS (MYRMEX_SYS_BASE + 49)

#endif
