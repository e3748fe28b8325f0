/*
 * The ids calls: getuid, geteuid, getgid, getegid, getresuid, getresgid,
 * setuid, setgid, setreuid, setregid, setresuid, setresgid, setfsuid,
 * setfsgid, getgroups, setgroups, on the process's credentials
 * (posix/cred.h), with Linux's rules: a privileged process (effective uid
 * 0) sets any id; another may only move among its real, effective and
 * saved ids. The file-system ids follow the effective ones. The file
 * manager learns the caller's fsuid and fsgid from every forwarded call
 * (forward.c stamps them into the kernel channel's control ICA header,
 * include/myrmex/fs.h, FS_CRED_*).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/cred.h>
#include <posix/posix.h>
#include <posix/route.h>
#include <myrmex/fs.h>

_Static_assert(CRED_GROUPS_MAX == FS_GROUPS_MAX, "proc_groups' array");

#define ID_UNCHANGED 0xffffffffu   /* -1: leave it */

static struct posix_cred *cred(void)
{
	return &current_thread()->proc->px->cred;
}

static bool privileged(const struct posix_cred *c)
{
	return c->euid == 0;
}

/* The ids whose change makes a process not dumpable (Linux's commit_creds). */
struct dump_ids {
	uint32_t euid, egid, fsuid, fsgid;
};

static struct dump_ids dump_ids(const struct posix_cred *c)
{
	return (struct dump_ids){ c->euid, c->egid, c->fsuid, c->fsgid };
}

/* After a set call: not dumpable any more if one of those ids moved. */
static long settled(struct posix_cred *c, struct dump_ids before, long r)
{
	struct dump_ids now = dump_ids(c);
	if (now.euid != before.euid || now.egid != before.egid || now.fsuid != before.fsuid ||
	    now.fsgid != before.fsgid)
		c->not_dumpable = 1;
	return r;
}

long sys_getuid(const struct syscall_args *a)
{
	(void)a;
	return cred()->ruid;
}

long sys_geteuid(const struct syscall_args *a)
{
	(void)a;
	return cred()->euid;
}

long sys_getgid(const struct syscall_args *a)
{
	(void)a;
	return cred()->rgid;
}

long sys_getegid(const struct syscall_args *a)
{
	(void)a;
	return cred()->egid;
}

static long put_three(const struct syscall_args *a, uint32_t r, uint32_t e, uint32_t s)
{
	const uint32_t v[3] = { r, e, s };
	for (int i = 0; i < 3; i++)
		if (copy_to_user(a->arg[i], &v[i], sizeof(v[i])) < 0)
			return -EFAULT;
	return 0;
}

long sys_getresuid(const struct syscall_args *a)
{
	const struct posix_cred *c = cred();
	return put_three(a, c->ruid, c->euid, c->suid);
}

long sys_getresgid(const struct syscall_args *a)
{
	const struct posix_cred *c = cred();
	return put_three(a, c->rgid, c->egid, c->sgid);
}

/* The three ids of one kind (uid or gid), so that both share the rules. */
struct ids {
	uint32_t *r, *e, *s, *fs;
};

static struct ids uids(struct posix_cred *c)
{
	return (struct ids){ &c->ruid, &c->euid, &c->suid, &c->fsuid };
}

static struct ids gids(struct posix_cred *c)
{
	return (struct ids){ &c->rgid, &c->egid, &c->sgid, &c->fsgid };
}

static bool one_of_three(struct ids x, uint32_t id)
{
	return id == *x.r || id == *x.e || id == *x.s;
}

/* setuid/setgid: privileged, all three; else the effective one, to the
 * real or saved id. */
static long set_one(struct ids x, bool priv, uint64_t arg)
{
	uint32_t id = (uint32_t)arg;
	if (id == ID_UNCHANGED)
		return -EINVAL;
	if (priv)
		*x.r = *x.s = id;
	else if (id != *x.r && id != *x.s)
		return -EPERM;
	*x.e = *x.fs = id;
	return 0;
}

long sys_setuid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_one(uids(c), privileged(c), a->arg[0]));
}

long sys_setgid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_one(gids(c), privileged(c), a->arg[0]));
}

/* setreuid/setregid: the real id to the real or effective one, the
 * effective to any of the three; the saved id follows the new effective
 * one when the real one is set or the effective one moves off the real. */
static long set_re(struct ids x, bool priv, uint64_t ra, uint64_t ea)
{
	uint32_t r = (uint32_t)ra, e = (uint32_t)ea;
	if (!priv && r != ID_UNCHANGED && r != *x.r && r != *x.e)
		return -EPERM;
	if (!priv && e != ID_UNCHANGED && !one_of_three(x, e))
		return -EPERM;
	uint32_t old_r = *x.r;
	if (r != ID_UNCHANGED)
		*x.r = r;
	if (e != ID_UNCHANGED)
		*x.e = e;
	if (r != ID_UNCHANGED || (e != ID_UNCHANGED && e != old_r))
		*x.s = *x.e;
	*x.fs = *x.e;
	return 0;
}

long sys_setreuid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_re(uids(c), privileged(c), a->arg[0], a->arg[1]));
}

long sys_setregid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_re(gids(c), privileged(c), a->arg[0], a->arg[1]));
}

/* setresuid/setresgid: each given id, unprivileged only to one of the three. */
static long set_res(struct ids x, bool priv, const uint64_t arg[3])
{
	uint32_t *dst[3] = { x.r, x.e, x.s };
	for (int i = 0; i < 3; i++)
		if (!priv && (uint32_t)arg[i] != ID_UNCHANGED && !one_of_three(x, (uint32_t)arg[i]))
			return -EPERM;
	for (int i = 0; i < 3; i++)
		if ((uint32_t)arg[i] != ID_UNCHANGED)
			*dst[i] = (uint32_t)arg[i];
	*x.fs = *x.e;
	return 0;
}

long sys_setresuid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_res(uids(c), privileged(c), a->arg));
}

long sys_setresgid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_res(gids(c), privileged(c), a->arg));
}

/* setfsuid/setfsgid: the old file-system id always; the new one when
 * privileged or one of the other ids (or the current fs id). */
static long set_fs(struct ids x, bool priv, uint64_t arg)
{
	uint32_t old = *x.fs, id = (uint32_t)arg;
	if (id != ID_UNCHANGED && (priv || one_of_three(x, id) || id == *x.fs))
		*x.fs = id;
	return old;
}

long sys_setfsuid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_fs(uids(c), privileged(c), a->arg[0]));
}

long sys_setfsgid(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	struct dump_ids before = dump_ids(c);
	return settled(c, before, set_fs(gids(c), privileged(c), a->arg[0]));
}

long sys_getgroups(const struct syscall_args *a)
{
	const struct posix_cred *c = cred();
	int32_t size = (int32_t)a->arg[0];
	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return c->ngroups;
	if ((uint32_t)size < c->ngroups)
		return -EINVAL;
	if (copy_to_user(a->arg[1], c->groups, c->ngroups * sizeof(c->groups[0])) < 0)
		return -EFAULT;
	return c->ngroups;
}

/* proc_groups (include/myrmex/fs.h): the file server's view of a
 * process's groups for its permission checks. */
long sys_proc_groups(const struct syscall_args *a)
{
	if (posix_server(SERVICE_FILES) != current_thread()->proc)
		return -EPERM;
	int64_t pid = (int64_t)a->arg[0];
	struct process *p = pid > 0 && pid <= INT32_MAX ? proc_find((int)pid) : NULL;
	if (!p || !p->posix || !p->px)
		return -ESRCH;
	const struct posix_cred *c = &p->px->cred;
	if (c->ngroups && copy_to_user(a->arg[1], c->groups, c->ngroups * sizeof(c->groups[0])) < 0)
		return -EFAULT;
	return c->ngroups;
}

long sys_setgroups(const struct syscall_args *a)
{
	struct posix_cred *c = cred();
	uint64_t n = a->arg[0];
	if (!privileged(c))
		return -EPERM;
	if ((int32_t)n < 0 || n > CRED_GROUPS_MAX)
		return -EINVAL;
	uint32_t g[CRED_GROUPS_MAX];
	if (n && copy_from_user(g, a->arg[1], n * sizeof(g[0])) < 0)
		return -EFAULT;
	for (uint64_t i = 1; i < n; i++)   /* kept sorted, as Linux does */
		for (uint64_t j = i; j > 0 && g[j] < g[j - 1]; j--) {
			uint32_t t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	memcpy(c->groups, g, n * sizeof(g[0]));
	c->ngroups = (uint32_t)n;
	return 0;
}
