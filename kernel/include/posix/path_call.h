/*
 * Forwarded calls that carry paths (kernel/posix/sys_path.c, sys_link.c,
 * sys_attr.c): the path, or two of them one after the other, copied from
 * user memory into the channel's data ICA, checked on the way (-EFAULT,
 * -ENAMETOOLONG at FS_PATH_MAX bytes, -ENOENT for an empty one).
 */
#ifndef POSIX_PATH_CALL_H
#define POSIX_PATH_CALL_H

#include <posix/forward.h>

#define AT_FDCWD            (-100)

struct path_call {
	struct fwd f;
	uint32_t used;          /* bytes of the data ICA holding paths */
};

/* Begins a call of opcode to the file manager with the user's path (and,
 * when second is not 0, the second path after its NUL) in the data ICA;
 * a dirfd other than AT_FDCWD goes in arg[3] with FS_AT_DIRFD in arg[4].
 * 0 or -errno; the caller fills its arguments and calls forward_call. */
int path_begin(struct path_call *c, uint32_t opcode, uptr_t path, uptr_t second, int64_t dirfd);

#endif
