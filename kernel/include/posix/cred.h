/*
 * A POSIX process's credentials (kernel/posix/sys_cred.c): real, effective,
 * saved and file-system user and group ids, and the supplementary groups,
 * as Linux keeps them. 0 everywhere at the start (root); fork copies them,
 * exec keeps the real ids and groups and honours set-user-id and
 * set-group-id files (kernel/posix/exec.c). "Privileged" is an effective uid of 0 (Linux's CAP_SETUID, CAP_SETGID, CAP_CHOWN and the
 * DAC overrides, which root holds and loses with its effective uid).
 */
#ifndef POSIX_CRED_H
#define POSIX_CRED_H

#include <kernel/types.h>

#define CRED_GROUPS_MAX 64u   /* supplementary groups kept (Linux: 65536); FS_GROUPS_MAX */

struct posix_cred {
	uint32_t ruid, euid, suid, fsuid;
	uint32_t rgid, egid, sgid, fsgid;
	uint32_t ngroups;
	/* Linux's "dumpable" cleared (0 at the start: dumpable). Set when a
	 * call changes the effective or file-system uid or gid, recomputed by
	 * exec (cleared unless the effective ids are the real ones), set or
	 * cleared by prctl(PR_SET_DUMPABLE). A process that is not dumpable
	 * has its /proc/<pid> owned by root (servers/proc/procfs/pid.c). */
	uint32_t not_dumpable;
	uint32_t groups[CRED_GROUPS_MAX];
};

#endif
