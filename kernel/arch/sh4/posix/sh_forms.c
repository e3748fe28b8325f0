/*
 * More of SH Linux's 32-bit call forms (arch/sh_calls.h), beside
 * sh_calls.c's: the old fcntl and fcntl64's lock commands, the 32-bit
 * truncate lengths, the 16-bit uid chown calls, preadv/pwritev's offset in
 * two registers, statfs64/fstatfs64 with their size argument, and waitid's
 * siginfo, whose _sigchld fields sit 4 bytes lower on 32-bit Linux than
 * where kernel/posix writes them. Each rebuilds what kernel/posix's
 * handler takes and calls it; where the handler writes a layout SH Linux
 * lays out otherwise, the answer is read back from the caller's buffer
 * and rewritten in SH Linux's layout (the buffer is the caller's own, and
 * every access goes through the user copies).
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/syscall.h>
#include <arch/linux_abi.h>
#include <arch/sh_calls.h>

static uint64_t pair(uint64_t lo, uint64_t hi)
{
	return (hi & 0xffffffffu) << 32 | (lo & 0xffffffffu);
}

static uint64_t sign32(uint64_t v)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

/* fcntl's commands as 32-bit Linux numbers them. */
#define SH_F_GETLK      5
#define SH_F_SETLK      6
#define SH_F_SETLKW     7
#define SH_F_GETLK64    12
#define SH_F_SETLK64    13
#define SH_F_SETLKW64   14
#define SH_F_OFD_GETLK  36
#define SH_F_OFD_SETLK  37
#define SH_F_OFD_SETLKW 38

/* The lock commands of the old fcntl (and fcntl64's 5..7) take 32-bit
 * Linux's struct flock, whose offsets are 32 bits; kernel/posix reads
 * struct flock64 (linux_flock). That form is not served: -EINVAL. musl
 * never uses it (its F_GETLK is 12, through fcntl64). */
static bool old_lock_cmd(uint64_t cmd)
{
	return cmd == SH_F_GETLK || cmd == SH_F_SETLK || cmd == SH_F_SETLKW;
}

/* fcntl (55): the descriptor commands as fcntl64's; lock commands refused
 * (the OFD ones take struct flock here too). */
long sys_sh_fcntl(const struct syscall_args *a)
{
	uint64_t cmd = a->arg[1] & 0xffffffffu;
	if (old_lock_cmd(cmd) || cmd == SH_F_OFD_GETLK || cmd == SH_F_OFD_SETLK ||
	    cmd == SH_F_OFD_SETLKW)
		return -EINVAL;
	return sys_fcntl(a);
}

/* fcntl64 (221): F_GETLK64..F_SETLKW64 are kernel/posix's record locks on
 * struct flock64; the OFD commands take struct flock64 in this call. */
long sys_sh_fcntl64(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	uint64_t cmd = a->arg[1] & 0xffffffffu;
	if (old_lock_cmd(cmd))
		return -EINVAL;
	if (cmd >= SH_F_GETLK64 && cmd <= SH_F_SETLKW64)
		cmd = cmd - SH_F_GETLK64 + SH_F_GETLK;
	b.arg[1] = cmd;
	return sys_fcntl(&b);
}

/* truncate and ftruncate (92, 93): a signed 32-bit length. */
long sys_sh_truncate(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = sign32(a->arg[1]);
	return sys_truncate(&b);
}

long sys_sh_ftruncate(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = sign32(a->arg[1]);
	return sys_ftruncate(&b);
}

/* A 16-bit uid or gid (the old chown calls): 0xffff is -1, "unchanged". */
static uint64_t id16(uint64_t v)
{
	uint32_t id = (uint32_t)v & 0xffffu;
	return id == 0xffffu ? 0xffffffffu : id;
}

/* chown (182) and lchown (16): 16-bit ids. */
long sys_sh_chown16(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = id16(a->arg[1]);
	b.arg[2] = id16(a->arg[2]);
	return sys_chown(&b);
}

long sys_sh_lchown16(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = id16(a->arg[1]);
	b.arg[2] = id16(a->arg[2]);
	return sys_lchown(&b);
}

/* preadv, pwritev (333, 334): (fd, iov, count, offset low, offset high);
 * preadv2, pwritev2 (381, 382) add the flags in r0. The offset is signed
 * 64 bits (-1: the v2 forms' "the descriptor's offset"). */
static struct syscall_args vector_args(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[3] = pair(a->arg[3], a->arg[4]);
	b.arg[4] = 0;
	b.arg[5] = a->arg[5] & 0xffffffffu;
	return b;
}

long sys_sh_preadv(const struct syscall_args *a)
{
	struct syscall_args b = vector_args(a);
	return sys_preadv(&b);
}

long sys_sh_pwritev(const struct syscall_args *a)
{
	struct syscall_args b = vector_args(a);
	return sys_pwritev(&b);
}

long sys_sh_preadv2(const struct syscall_args *a)
{
	struct syscall_args b = vector_args(a);
	return sys_preadv2(&b);
}

long sys_sh_pwritev2(const struct syscall_args *a)
{
	struct syscall_args b = vector_args(a);
	return sys_pwritev2(&b);
}

/* struct statfs64 of 32-bit SH Linux: the counts 64 bits, 4-byte aligned
 * (SH's long long), 84 bytes; the size argument must be exactly that. */
struct sh_statfs64 {
	uint32_t f_type, f_bsize;
	uint32_t f_blocks[2], f_bfree[2], f_bavail[2], f_files[2], f_ffree[2];
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct sh_statfs64) == 84, "struct statfs64 of SH Linux");

static void put64(uint32_t w[2], uint32_t v)
{
	w[0] = v;   /* little-endian: the low word first */
	w[1] = 0;
}

/* kernel/posix's handler writes the 32-bit struct statfs (64 bytes) into
 * the caller's buffer, which holds 84; it is read back and widened. */
static long statfs64_from(long (*handler)(const struct syscall_args *),
                          const struct syscall_args *a)
{
	if ((a->arg[1] & 0xffffffffu) != sizeof(struct sh_statfs64))
		return -EINVAL;
	uptr_t buf = a->arg[2];
	struct syscall_args b = *a;
	b.arg[1] = buf;
	long r = handler(&b);
	if (r < 0)
		return r;
	struct linux_statfs s;
	if (copy_from_user(&s, buf, sizeof(s)) != 0)
		return -EFAULT;
	struct sh_statfs64 w;
	memset(&w, 0, sizeof(w));
	w.f_type = s.f_type;
	w.f_bsize = s.f_bsize;
	put64(w.f_blocks, s.f_blocks);
	put64(w.f_bfree, s.f_bfree);
	put64(w.f_bavail, s.f_bavail);
	put64(w.f_files, s.f_files);
	put64(w.f_ffree, s.f_ffree);
	w.f_fsid[0] = s.f_fsid[0];
	w.f_fsid[1] = s.f_fsid[1];
	w.f_namelen = s.f_namelen;
	w.f_frsize = s.f_frsize;
	w.f_flags = s.f_flags;
	return copy_to_user(buf, &w, sizeof(w)) != 0 ? -EFAULT : 0;
}

/* statfs64 (268): (path, size, buf); fstatfs64 (269): (fd, size, buf). */
long sys_sh_statfs64(const struct syscall_args *a)
{
	return statfs64_from(sys_statfs, a);
}

long sys_sh_fstatfs64(const struct syscall_args *a)
{
	return statfs64_from(sys_fstatfs, a);
}

/* waitid (284): kernel/posix writes siginfo's _sigchld fields (pid, uid,
 * status) at 16, 20, 24, after a 64-bit union's padding; 32-bit Linux has
 * them at 12, 16, 20. The answer is read back from infop and moved down. */
long sys_sh_waitid(const struct syscall_args *a)
{
	long r = sys_waitid(a);
	uptr_t infop = a->arg[2];
	if (r < 0 || !infop)
		return r;
	int32_t w[7];
	if (copy_from_user(w, infop, sizeof(w)) != 0)
		return -EFAULT;
	w[3] = w[4];   /* si_pid */
	w[4] = w[5];   /* si_uid */
	w[5] = w[6];   /* si_status */
	w[6] = 0;
	return copy_to_user(infop, w, sizeof(w)) != 0 ? -EFAULT : r;
}
