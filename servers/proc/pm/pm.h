/*
 * pm: the process manager (docs/posix.md, include/myrmex/proc.h). Shared
 * declarations of its files: main.c (the operations for the server
 * library, lib/libmyrmex/server.h), fork.c, exec.c
 * (PM_FORK, PM_EXEC), image.c (executables read from the file manager and
 * kept in ICAs), fsio.c (its own calls to the file manager).
 */
#ifndef PM_H
#define PM_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/fs.h>
#include <myrmex/proc.h>
#include <server.h>

#define PM_NAME "pm"

/* ---- fsio.c: calls to the file manager ----
 * pm_fs_call: one synchronous request with arguments args[0..7] and the
 * data ICA `data` (0: none), which comes back; the status, or -errno.
 * res (may be NULL) receives the result's arg[]. */
long pm_fs_call(uint32_t opcode, const uint64_t args[8], uint32_t data, uint64_t res[8]);
/* pm_fs_call with the file-system ids uid and gid stamped where the kernel
 * stamps a caller's (FS_CRED_*): the file manager believes them on
 * FS_OPEN_AS alone, which opens for an execve in the caller's name. */
long pm_fs_call_as(uint32_t uid, uint32_t gid, uint32_t opcode, const uint64_t args[8],
                   uint32_t data, uint64_t res[8]);
/* A one-page data ICA of pm's, for paths and structures. */
void *pm_scratch(uint32_t *handle);

/* ---- image.c: executables ---- */
struct image {
	uint32_t ica[MYRMEX_EXEC_MAX_IMAGES];
	uint32_t nica;
	uint64_t size;
};
/* The executable at path, resolved against pid's current directory and
 * opened with the caller's file-system ids uid and gid (the file manager
 * checks search permission along the path and execute permission on the
 * file: FS_OPEN_AS): its bytes in ICAs (cached while the file does not
 * change) and its stat (mode and owner: set-user-id and set-group-id).
 * -ENOENT, -EACCES (not a regular file with an execute bit for the ids),
 * -ENOEXEC (too large), -ENOMEM... */
long image_get(int pid, const char *path, uint32_t uid, uint32_t gid, const struct image **out,
               struct myrmex_stat *st);
/* The first bytes of an image (for "#!"); n at most one page. */
const char *image_head(const struct image *im, uint64_t *n);

/* ---- the requests (main.c runs them with the server library) ---- */
int64_t do_fork(struct server_request *rq);
/* Starts the child of the last PM_FORK, once its parent has the answer. */
void pm_fork_start(void);
int64_t do_exec(struct server_request *rq);

#endif
