/*
 * execve's argument and environment strings, held by the kernel between
 * the system call and proc_exec (docs/posix.md, "PM_EXEC"). Linux's limits:
 * the strings with their NULs, the path's among them, and one pointer per
 * string take at most a quarter of the stack limit (at most 6 MiB, at least
 * 128 KiB: EXEC_ARGS_LIMIT), each string at most MAX_ARG_STRLEN with its
 * NUL; beyond: -E2BIG.
 *
 * The strings lie end to end, argv's then envp's, in runs of
 * EXEC_CHUNK_PAGES physically contiguous pages (a string never crosses a
 * run's end, so that each is contiguous in the direct map). Only the
 * process manager's view differs: it gets the path alone, and proc_exec
 * takes the strings from the waiting thread (MYRMEX_EXEC_CALLER_ARGS).
 */
#ifndef POSIX_EXEC_STRINGS_H
#define POSIX_EXEC_STRINGS_H

#include <kernel/types.h>

#define EXEC_ARG_STRLEN   (32u * 4096u)        /* Linux's MAX_ARG_STRLEN, with the NUL */
#define EXEC_ARGS_MIN     (32u * 4096u)        /* Linux's ARG_MAX: the least limit */
#define EXEC_ARGS_MAX     (6u << 20)           /* Linux's _STK_LIM / 4 * 3 */
#define EXEC_CHUNK_PAGES  64u                  /* 256 KiB: two strings of the longest */
/* A run is left only when the next string does not fit, so each run left
 * holds more than 128 KiB: EXEC_ARGS_MAX / 128 KiB runs and one more. */
#define EXEC_CHUNKS       (EXEC_ARGS_MAX / EXEC_ARG_STRLEN + 1)

struct exec_strings {
	paddr_t chunk[EXEC_CHUNKS];
	uint32_t used[EXEC_CHUNKS];   /* bytes of each run used */
	uint32_t nchunks;
	uint32_t argc, envc;
};

/* The limit for a stack limit of stack_rlimit bytes, as Linux's
 * bprm_stack_limits: stack_rlimit / 4, within [EXEC_ARGS_MIN, EXEC_ARGS_MAX]. */
uint64_t exec_args_limit(uint64_t stack_rlimit);

/* Copies the NULL-terminated user vectors argv and envp (either may be 0:
 * none) into s (zeroed by the caller), given the path's length with its
 * NUL and the limit. 0, or -EFAULT, -E2BIG, -ENOMEM; on error s may hold
 * runs: exec_strings_free frees them in any case. */
int exec_strings_copy(struct exec_strings *s, uptr_t argv, uptr_t envp, uint64_t path_bytes,
                      uint64_t limit);

/* Fills vec[0 .. argc + envc) with the strings' kernel addresses in order. */
void exec_strings_vector(const struct exec_strings *s, const char **vec);

void exec_strings_free(struct exec_strings *s);

#endif
