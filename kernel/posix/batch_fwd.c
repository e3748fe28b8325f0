/*
 * Forwarded calls of a batch in one IPC (issue 18; docs/syscalls.md,
 * "Forwarded calls in one IPC"). Consecutive entries of a wrapped-call
 * batch that are descriptor calls for the file manager (read, write,
 * pread64, pwrite64 of up to GROUP_IO_MAX bytes, lseek, fstat, close) go as one
 * FS_BATCH request: one record each, their data as slices of one of the
 * thread's channel data ICAs (the one-page one when everything fits in it,
 * else the large one). The server runs them in order and answers once;
 * each entry then gets the result its own call would have given.
 *
 * Exactness first: an entry joins a group only if running it there gives
 * what running it alone would. Anything else (another call, a native
 * process, a count over the limit, a bad or unmapped buffer, a negative
 * offset, a descriptor the server would not run in a batch) ends the group
 * before it, and the core runs it alone through the ordinary path, errors
 * included: a bad pointer fails that entry alone, and the entries after it
 * start a new group. The server stops before a record it will not run (a
 * pipe or the console, which may wait): those run alone too.
 *
 * Each call here must stay what its handler in sys_file.c does (a
 * forwarded call and the checks around it): a change there is a change
 * here.
 *
 * The group's request waits like a page fault's (only the thread's death
 * ends it): none of its records waits for anything but the disk, and an
 * interrupted request would leave unknown which records ran. The batch
 * checks for signals after the group.
 */
#include <kernel/errno.h>
#include <kernel/personality.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/syscall.h>
#include <kernel/usercopy.h>
#include <kernel/vm.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <posix/syscall.h>
#include <arch/linux_abi.h>
#include <myrmex/fs.h>
#include <myrmex/syscall.h>

#define GROUP_IO_MAX   4096u   /* bytes of one read or write in a group */
#define RECORD_BYTES   ((uint32_t)sizeof(struct fs_batch_sub))
#define SEEK_CUR 1

/* What the kernel keeps of each entry of a group (never read back from
 * the ICA, which the server writes). */
struct member {
	uint32_t opcode;      /* FS_* */
	uint32_t count;       /* read/write: bytes asked */
	uint32_t data_off;    /* its slice */
	uint32_t data_len;
	uint64_t fd;
	uint64_t arg1, arg2;  /* its record's words 1 and 2 */
	uptr_t buf;           /* read, write: the user's bytes; fstat: the struct stat */
};

static uint32_t align8(uint32_t n)
{
	return (n + 7u) & ~7u;
}

/* The last call number a group looked up and its handler: a group mostly
 * repeats one call, and syscall_lookup depends on the number alone. */
struct lookup_memo {
	uint64_t nr;
	syscall_fn fn;
};

/* Fills m for entry e if it may run in a group; false otherwise. */
static bool join(const struct myrmex_batch_entry *e, uint64_t memo, struct member *m,
                 struct lookup_memo *lm)
{
	if (e->state != MYRMEX_BATCH_STORED)
		return false;
	if (e->nr != lm->nr) {
		lm->nr = e->nr;
		lm->fn = syscall_lookup(e->nr);
	}
	syscall_fn fn = lm->fn;
	bool read = fn == sys_read || fn == sys_pread64;
	bool write = fn == sys_write || fn == sys_pwrite64;
	bool positioned = fn == sys_pread64 || fn == sys_pwrite64;
	uint64_t fd = e->arg[0], count = e->arg[2];
	uptr_t buf = (uptr_t)e->arg[1];
	*m = (struct member){ .fd = fd };   /* stores, not a memset call */
	if (fn == sys_lseek) {
		m->opcode = FS_LSEEK;
		m->arg1 = e->arg[1];
		m->arg2 = e->arg[2];
		return true;
	}
	if (fn == sys_close) {
		m->opcode = FS_CLOSE;
		posix_fd_gone(fd);
		return true;
	}
	if (fn == sys_fstat) {
		if (e->arg[1] != (uint64_t)buf || !user_range_ok(buf, sizeof(struct linux_stat)))
			return false;
		m->opcode = FS_FSTAT;
		m->buf = buf;
		m->data_len = sizeof(struct myrmex_stat);
		return true;
	}
	if (!read && !write)
		return false;
	if (count > GROUP_IO_MAX || e->arg[1] != (uint64_t)buf || !user_range_ok(buf, count))
		return false;
	if (positioned && (int64_t)e->arg[3] < 0)
		return false;
	if (memo && memo - 1 == fd)
		return false;   /* the server would not run it: a pipe, the console */
	/* A read that moves the offset must be able to deliver: if its copy
	 * failed afterwards, moving the offset back would come after the later
	 * records. */
	if (read && !positioned && !vm_range_allows(&current_thread()->proc->vm, buf, count, MAP_W))
		return false;
	m->opcode = read ? (positioned ? FS_PREAD : FS_READ) : (positioned ? FS_PWRITE : FS_WRITE);
	m->count = (uint32_t)count;
	m->buf = buf;
	m->data_len = (uint32_t)count;
	m->arg1 = count;
	m->arg2 = positioned ? e->arg[3] : 0;
	return true;
}

/* Writes m's record rec with its slice at data_off; a write's bytes are
 * copied into the slice now. false: they could not be read. */
static bool place(struct member *m, uint32_t data_off, uint8_t *data, struct fs_batch_sub *rec)
{
	bool write = m->opcode == FS_WRITE || m->opcode == FS_PWRITE;
	if (write && m->count && copy_from_user(data + data_off, m->buf, m->count) < 0)
		return false;
	m->data_off = data_off;
	/* Every word written (the answer's zeroed), field by field: cheaper
	 * than a memset call of the whole record first. */
	rec->opcode = m->opcode;
	rec->data_len = m->data_len;
	rec->data_off = data_off;
	rec->arg[0] = m->fd;
	rec->arg[1] = m->arg1;
	rec->arg[2] = m->arg2;
	rec->arg[3] = 0;
	rec->status = 0;
	for (unsigned i = 0; i < 8; i++)
		rec->res[i] = 0;
	return true;
}

/* The entry's result from its record's answer, the bytes of a read or
 * the struct stat copied out. */
static long finish(const struct member *m, const struct fs_batch_sub *rec, const uint8_t *data)
{
	long status = (long)rec->status;
	if (status < -4095)
		return -EIO;   /* not an errno: a confused server */
	switch (m->opcode) {
	case FS_READ:
	case FS_PREAD:
		if (status <= 0)
			return status;
		if ((uint64_t)status > m->count)
			return -EIO;
		if (copy_to_user(m->buf, data + m->data_off, (uint64_t)status) < 0) {
			/* The buffer went meanwhile (another thread): as a read
			 * alone, the offset does not keep what was not delivered. */
			if (m->opcode == FS_READ && rec->res[FS_RESULT_KIND] == FS_KIND_REGULAR)
				posix_fs_call(FS_LSEEK, m->fd, (uint64_t)-status, SEEK_CUR, NULL);
			return -EFAULT;
		}
		return status;
	case FS_WRITE:
	case FS_PWRITE:
		return status > 0 && (uint64_t)status > m->count ? -EIO : status;
	case FS_FSTAT: {
		if (status < 0)
			return status;
		struct myrmex_stat st;
		memcpy(&st, data + m->data_off, sizeof(st));
		long err = posix_stat_out(m->buf, &st);
		return err ? err : status;
	}
	default:
		return status;   /* FS_LSEEK, FS_CLOSE */
	}
}

/* Writes an entry's result and state DONE back: 0 or -EFAULT. */
static int put_result(uptr_t entry, long result)
{
	struct { int64_t result; uint32_t state; } out = { result, MYRMEX_BATCH_DONE };
	return copy_to_user(entry + __builtin_offsetof(struct myrmex_batch_entry, result), &out,
	                    sizeof(out.result) + sizeof(out.state));
}

bool personality_batch_may_group(syscall_fn fn)
{
	return fn == sys_lseek || fn == sys_fstat || fn == sys_read || fn == sys_write ||
	       fn == sys_pread64 || fn == sys_pwrite64 || fn == sys_close;
}

uint64_t personality_batch_group(const struct myrmex_batch_entry *first, uptr_t at,
                                 uint64_t left, uint64_t *memo, unsigned *flags)
{
	if (!posix_process() || left < 2)
		return 0;
	struct fwd f;
	/* The members first, then a data ICA as small as they fit in: the
	 * small one (one page) for most groups, whose attach and detach cost
	 * one TLB entry instead of sixteen. */
	struct member m[FS_BATCH_MAX];   /* 3 KiB of the 16 KiB kernel stack */
	uint32_t bytes = 0, n = 0;
	uint64_t limit = left < FS_BATCH_MAX ? left : FS_BATCH_MAX;
	struct lookup_memo lm = { first->nr, syscall_lookup(first->nr) };
	for (; n < limit; n++) {
		struct myrmex_batch_entry e;
		const struct myrmex_batch_entry *ep = first;
		if (n) {
			if (copy_from_user(&e, at + n * sizeof(e), sizeof(e)))
				break;
			ep = &e;
		}
		if (!join(ep, *memo, &m[n], &lm))
			break;
		uint32_t more = RECORD_BYTES + align8(m[n].data_len);
		if (more > FORWARD_LARGE_BYTES - bytes)
			break;   /* no room left: it starts the next group */
		bytes += more;
	}
	if (n < 2)
		return 0;   /* alone costs less: inline transfers, no records */
	if (forward_begin(&f, SERVICE_FILES, FS_BATCH, bytes) || !f.data)
		return 0;
	uint8_t *data = forward_data(&f);
	struct fs_batch_sub *rec = (struct fs_batch_sub *)(void *)data;
	uint32_t off = n * RECORD_BYTES;
	for (uint32_t i = 0; i < n; i++) {
		if (!place(&m[i], off, data, &rec[i])) {
			n = i;   /* a write whose bytes cannot be read goes alone */
			break;
		}
		off += align8(m[i].data_len);
	}
	if (n < 2)
		return 0;

	f.arg[0] = n;
	struct thread *t = current_thread();
	bool was = t->only_death_wakes;
	t->only_death_wakes = true;
	long r = forward_call(&f);
	t->only_death_wakes = was;
	personality_batch_entry_end();
	if (r >= 0 && !f.data)
		r = -EIO;   /* the data ICA did not come back */
	if (r < 0 && r != -EIO && r != -EINTR)
		return 0;   /* refused before any record ran (no server, no file
		             * system, -ENOSYS): the calls go alone */
	if (r > (long)n)
		r = -EIO;   /* a confused server: more run than sent */
	/* -EIO: the server died with the request, lost its ICAs or answered
	 * nonsense; -EINTR: the thread is dying. Which records ran is unknown:
	 * each call gets the error, as a call alone would. */
	uint64_t ran = r < 0 ? n : (uint64_t)r;
	if (ran < n) {
		/* The server stopped before record ran: that call runs alone, and
		 * later transfers on its descriptor do not try a group again. */
		*flags |= BATCH_GROUP_ALONE;
		if (m[ran].opcode != FS_LSEEK && m[ran].opcode != FS_FSTAT &&
		    m[ran].opcode != FS_CLOSE)
			*memo = m[ran].fd + 1;
	}
	for (uint64_t i = 0; i < ran; i++) {
		/* The request failed as a whole (the server died, the thread is
		 * dying): every call in it gets that error. */
		long result = r < 0 ? r : finish(&m[i], &rec[i], data);
		if (put_result(at + i * sizeof(struct myrmex_batch_entry), result)) {
			*flags |= BATCH_GROUP_STOP;
			break;
		}
	}
	return ran;
}
