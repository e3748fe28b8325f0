/*
 * t_pm_exec: the kernel's exec call for the process manager (proc_exec,
 * include/myrmex/proc.h), with this test in the process manager's place
 * (coreid 5). The image is a tiny static executable built here around the
 * probe below, in one-page ICAs so that its headers, code and data lie in
 * three of them. The probe checks what a new program must find (registers
 * zero, an aligned stack with argc, argv, envp and the auxiliary vector,
 * its data and a zeroed, writable bss, no thread pointer) and exits
 * PROBE_OK, or a number naming the first check that failed.
 *   t_pm_exec errors   every malformed request is refused before the target
 *                      changes (-EFAULT, -ESRCH, -EINVAL, -E2BIG, -ENOEXEC,
 *                      -ENOMEM): pm_helper checks that it is as it was; the
 *                      process manager cannot exec itself; then the good
 *                      image runs.
 *   t_pm_exec threads  the target has three more threads (spinning in user
 *                      mode, in futex_wait, in a call the test holds): they
 *                      are gone before the probe runs, and the held call's
 *                      thread is a stale tid afterwards.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_pm_exec"
#include "test_check.h"
#include "pm_test.h"

#include <stdint.h>

#define PAGE 4096u
#define PROBE_OK 42
#define TEXT_VADDR 0x400000ull
#define ENTRY (TEXT_VADDR + 0x1000)
#define DATA_VADDR 0x600000ull     /* must match the probe's movabs */
#define DATA_OFFSET 0x2000ull
#define DATA_FILESZ 8ull
#define DATA_MEMSZ 0x3000ull       /* the last two pages are bss */
#define PROBE_MAGIC 0x1122334455667788ull   /* must match the probe */
#define IMAGE_SIZE (DATA_OFFSET + DATA_FILESZ)
#define IMAGE_ICAS 3               /* one page each: 4096 + 4096 + 8 bytes */

/*
 * The probe's code, position independent but for the data address. Exit
 * codes: 1 a register was not 0, 2 the stack misaligned, 3 argc, 4 argv[1],
 * 5 argv not ended, 6 envp, 7 no AT_PAGESZ of 4096, 8 the data, 9 the rest
 * of the data page, 10 the bss, 11 the thread pointer.
 */
extern const uint8_t probe_start[], probe_end[];
__asm__(".section .rodata\n"
        ".globl probe_start, probe_end\n"
        "probe_start:\n"
        "	or %rbx, %rax\n"
        "	or %rcx, %rax\n"
        "	or %rdx, %rax\n"
        "	or %rsi, %rax\n"
        "	or %rdi, %rax\n"
        "	or %rbp, %rax\n"
        "	or %r8, %rax\n"
        "	or %r9, %rax\n"
        "	or %r10, %rax\n"
        "	or %r11, %rax\n"
        "	or %r12, %rax\n"
        "	or %r13, %rax\n"
        "	or %r14, %rax\n"
        "	or %r15, %rax\n"
        "	mov $1, %edi\n"
        "	test %rax, %rax\n"
        "	jnz 9f\n"
        "	mov $2, %edi\n"
        "	test $15, %spl\n"
        "	jnz 9f\n"
        "	mov $3, %edi\n"
        "	cmpq $2, (%rsp)\n"
        "	jne 9f\n"
        "	mov $4, %edi\n"
        "	mov 16(%rsp), %rax\n"
        "	cmpb $0x37, (%rax)\n"          /* '7' */
        "	jne 9f\n"
        "	mov $5, %edi\n"
        "	cmpq $0, 24(%rsp)\n"
        "	jne 9f\n"
        "	mov $6, %edi\n"
        "	mov 32(%rsp), %rax\n"
        "	cmpb $0x4b, (%rax)\n"          /* 'K' */
        "	jne 9f\n"
        "	cmpq $0, 40(%rsp)\n"
        "	jne 9f\n"
        "	mov $7, %edi\n"
        "	lea 48(%rsp), %rax\n"
        "1:	mov (%rax), %rcx\n"
        "	test %rcx, %rcx\n"
        "	jz 9f\n"
        "	cmp $6, %rcx\n"                /* AT_PAGESZ */
        "	je 2f\n"
        "	add $16, %rax\n"
        "	jmp 1b\n"
        "2:	cmpq $4096, 8(%rax)\n"
        "	jne 9f\n"
        "	mov $8, %edi\n"
        "	movabs $0x600000, %rax\n"
        "	movabs $0x1122334455667788, %rcx\n"
        "	cmp %rcx, (%rax)\n"
        "	jne 9f\n"
        "	mov $9, %edi\n"
        "	cmpq $0, 8(%rax)\n"
        "	jne 9f\n"
        "	cmpq $0, 0xff8(%rax)\n"
        "	jne 9f\n"
        "	mov $10, %edi\n"
        "	cmpq $0, 0x2000(%rax)\n"
        "	jne 9f\n"
        "	movq $1, 0x2000(%rax)\n"
        "	cmpq $1, 0x2000(%rax)\n"
        "	jne 9f\n"
        "	movq $-1, -64(%rsp)\n"
        "	lea -64(%rsp), %rsi\n"
        "	mov $0x1003, %edi\n"           /* ARCH_GET_FS */
        "	mov $158, %eax\n"              /* arch_prctl */
        "	syscall\n"
        "	mov $11, %edi\n"
        "	cmpq $0, -64(%rsp)\n"
        "	jne 9f\n"
        "	mov $42, %edi\n"               /* PROBE_OK */
        "9:	mov $231, %eax\n"              /* exit_group */
        "	syscall\n"
        "	ud2\n"
        "probe_end:\n"
        ".previous\n");

struct ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

_Static_assert(sizeof(struct ehdr) == 64 && sizeof(struct phdr) == 56, "ELF64 layout");

/* The probe executable: text (headers and code, R X) and data (R W, with
 * bss), the way a static linker lays them out. */
struct probe_file {
	uint8_t bytes[IMAGE_SIZE];
	struct ehdr *eh;
	struct phdr *text, *data;
};

static void probe_build(struct probe_file *p)
{
	memset(p->bytes, 0, sizeof(p->bytes));
	p->eh = (struct ehdr *)p->bytes;
	p->text = (struct phdr *)(p->bytes + 64);
	p->data = p->text + 1;
	static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	memcpy(p->eh->ident, ident, sizeof(ident));
	p->eh->type = 2;         /* ET_EXEC */
	p->eh->machine = 62;     /* EM_X86_64 */
	p->eh->version = 1;
	p->eh->entry = ENTRY;
	p->eh->phoff = 64;
	p->eh->ehsize = 64;
	p->eh->phentsize = 56;
	p->eh->phnum = 2;
	size_t code = (size_t)(probe_end - probe_start);
	memcpy(p->bytes + 0x1000, probe_start, code);
	*p->text = (struct phdr){ 1, 4 | 1, 0, TEXT_VADDR, TEXT_VADDR, 0x1000 + code,
	                          0x1000 + code, 0x1000 };
	uint64_t magic = PROBE_MAGIC;
	memcpy(p->bytes + DATA_OFFSET, &magic, sizeof(magic));
	*p->data = (struct phdr){ 1, 4 | 2, DATA_OFFSET, DATA_VADDR, DATA_VADDR, DATA_FILESZ,
	                          DATA_MEMSZ, 0x1000 };
}

/* The ICAs of a request: the image in one-page ICAs, and the arguments. */
static uint32_t image_ica[IMAGE_ICAS], args_ica;
static const char args_text[] = "probe\0" "7\0" "K=V";   /* argc 2, envc 1 */

static int make_icas(void)
{
	for (int i = 0; i < IMAGE_ICAS; i++) {
		long h = myrmex_ica_alloc(1);
		if (h < 0) {
			test_fail("ica_alloc: %ld", h);
			return -1;
		}
		image_ica[i] = (uint32_t)h;
	}
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		test_fail("ica_alloc: %ld", h);
		return -1;
	}
	args_ica = (uint32_t)h;
	memcpy(myrmex_ica_addr(args_ica), args_text, sizeof(args_text));
	return 0;
}

static void load_image(const struct probe_file *p)
{
	for (int i = 0; i < IMAGE_ICAS; i++) {
		size_t off = (size_t)i * PAGE;
		size_t n = IMAGE_SIZE - off < PAGE ? IMAGE_SIZE - off : PAGE;
		memcpy(myrmex_ica_addr(image_ica[i]), p->bytes + off, n);
	}
}

/* A well-formed request for the probe. */
static void good_request(struct myrmex_exec *how)
{
	memset(how, 0, sizeof(*how));
	for (int i = 0; i < IMAGE_ICAS; i++)
		how->image[i] = image_ica[i];
	how->nimage = IMAGE_ICAS;
	how->args = args_ica;
	how->image_size = IMAGE_SIZE;
	how->argc = 2;
	how->envc = 1;
	how->args_size = sizeof(args_text);
}

static int become_pm(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r != 0)
		test_fail("registserver(%u): %ld", MYRMEX_COREID_PM, r);
	return (int)r;
}

/* ------------------------------------------------------------ errors */

/* The request's fields, one at a time. */
static void check_bad_requests(int tid)
{
	struct myrmex_exec how;
#define BAD_REQUEST(expected, ...) \
	do { \
		good_request(&how); \
		__VA_ARGS__; \
		CHECK_EQ(myrmex_proc_exec(tid, &how), expected); \
	} while (0)
	BAD_REQUEST(-EINVAL, how.nimage = 0);
	BAD_REQUEST(-EINVAL, how.nimage = MYRMEX_EXEC_MAX_IMAGES + 1);
	BAD_REQUEST(-EINVAL, how.image[1] = 0xdeadbeef);
	BAD_REQUEST(-EINVAL, how.image[2] = image_ica[2] ^ (1u << 12));   /* stale generation */
	BAD_REQUEST(-EINVAL, how.args = 0xdeadbeef);
	BAD_REQUEST(-EINVAL, how.image_size = 0);
	BAD_REQUEST(-EINVAL, how.image_size = 3 * PAGE + 1);    /* more than the ICAs hold */
	BAD_REQUEST(-EINVAL, how.image_size = 2 * PAGE);        /* the last ICA unused */
	BAD_REQUEST(-EINVAL, how.nimage = 2);                    /* the image does not fit */
	BAD_REQUEST(-EINVAL, how.args_size = PAGE + 1);
	BAD_REQUEST(-EINVAL, how.argc = 3);
	BAD_REQUEST(-EINVAL, how.envc = 0);
	BAD_REQUEST(-EINVAL, how.args_size = sizeof(args_text) - 1);   /* last string unended */
	BAD_REQUEST(-EINVAL, how.flags = 16);                      /* unknown */
	BAD_REQUEST(-EINVAL, how.flags = MYRMEX_EXEC_SKIP_ARGV0);   /* without CALLER_ARGS */
	BAD_REQUEST(-EINVAL, how.flags = MYRMEX_EXEC_CALLER_ARGS);   /* the thread is in no execve */
	BAD_REQUEST(-EINVAL, how.flags = MYRMEX_EXEC_CALLER_ARGS | MYRMEX_EXEC_SKIP_ARGV0);
	BAD_REQUEST(-E2BIG, how.argc = 1000000);
	BAD_REQUEST(-E2BIG, how.envc = 1000000);
	/* A parked ICA is not the caller's to give. */
	CHECK_EQ(myrmex_ica_detach(image_ica[1]), 0);
	BAD_REQUEST(-EINVAL, (void)0);
	CHECK_EQ(myrmex_ica_attach(image_ica[1]), 0);
	CHECK_EQ(myrmex_ica_detach(args_ica), 0);
	BAD_REQUEST(-EINVAL, (void)0);
	CHECK_EQ(myrmex_ica_attach(args_ica), 0);
#undef BAD_REQUEST
	CHECK_EQ(myrmex_proc_exec(tid, NULL), -EFAULT);
	long kernel_address = (long)0xffff800000000000ull;
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_EXEC, tid, kernel_address, 0, 0, 0, 0), -EFAULT);
	good_request(&how);
	CHECK_EQ(myrmex_proc_exec((int)raw0(SYS_gettid), &how), -ESRCH);   /* not waiting */
	CHECK_EQ(myrmex_proc_exec(0, &how), -ESRCH);
	CHECK_EQ(myrmex_proc_exec(1 << 30, &how), -ESRCH);
}

/* Executables that are refused whole, before the target changes. */
static void check_bad_images(int tid)
{
	struct myrmex_exec how;
	struct probe_file p;
#define BAD_IMAGE(expected, ...) \
	do { \
		probe_build(&p); \
		__VA_ARGS__; \
		load_image(&p); \
		good_request(&how); \
		CHECK_EQ(myrmex_proc_exec(tid, &how), expected); \
	} while (0)
	BAD_IMAGE(-ENOEXEC, p.eh->ident[1] = 'X');
	BAD_IMAGE(-ENOEXEC, p.eh->type = 3);                          /* ET_DYN */
	BAD_IMAGE(-ENOEXEC, p.eh->entry = DATA_VADDR);                /* not in code */
	BAD_IMAGE(-ENOEXEC, p.data->filesz = 16);                     /* past image_size */
	BAD_IMAGE(-ENOEXEC, p.text->vaddr = p.text->paddr = 0x1000;   /* below USER_BASE */
	          p.eh->entry = 0x2000);
	BAD_IMAGE(-ENOEXEC, p.data->vaddr = MYRMEX_ICA_WINDOW);       /* the kernel's window */
	BAD_IMAGE(-ENOEXEC, p.data->vaddr = MYRMEX_DEVICE_WINDOW - PAGE);
	BAD_IMAGE(-ENOMEM, p.data->memsz = 1ull << 30);               /* over the commit budget */
#undef BAD_IMAGE
	probe_build(&p);
	load_image(&p);
}

/* The process manager's own thread, waiting in a call it handles. */
static void self_caller(void *arg)
{
	(void)arg;
	long h = myrmex_ica_alloc(1);
	if (h < 0)
		return;
	struct myrmex_ctl_header *c = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
	struct myrmex_frame *f = myrmex_ctl_push(c, 1, MYRMEX_COREID_PM, PM_T_HOLD);
	f->arg[0] = (uint64_t)raw0(SYS_gettid);
	myrmex_callsync(c);
	myrmex_ica_free((uint32_t)h);
}

static void check_exec_self(void)
{
	struct myrmex_thread thread;
	if (myrmex_thread_create(&thread, self_caller, NULL, 0) < 0) {
		test_fail("thread_create");
		return;
	}
	struct myrmex_delivery d;
	struct myrmex_frame *f = pm_take(&d);
	if (f && d.opcode == PM_T_HOLD) {
		struct myrmex_exec how;
		good_request(&how);
		CHECK_EQ(myrmex_proc_exec((int)f->arg[0], &how), -EINVAL);
		myrmex_reply(TEST_NAME, &d, 0);
	}
	myrmex_thread_join(&thread);
}

static void run_errors(void)
{
	if (become_pm() != 0 || make_icas() != 0)
		return;
	struct probe_file p;
	probe_build(&p);
	load_image(&p);
	check_exec_self();
	long helper = pm_spawn_helper("exec", 0);
	if (helper <= 0)
		return;
	struct myrmex_delivery d;
	struct myrmex_frame *f = pm_take(&d);
	if (!f || d.opcode != PM_EXEC)
		return;
	int tid = (int)f->arg[0];
	check_bad_requests(tid);
	check_bad_images(tid);
	myrmex_reply(TEST_NAME, &d, -ENOEXEC);

	f = pm_take(&d);
	if (!f || d.opcode != PM_EXEC)
		return;
	struct myrmex_exec how;
	good_request(&how);
	CHECK_EQ(myrmex_proc_exec((int)f->arg[0], &how), 0);
	myrmex_reply(TEST_NAME, &d, 0);
	pm_expect_exit(helper, PROBE_OK, "the probe");
}

/* ------------------------------------------------------------ threads */

static void run_threads(void)
{
	if (become_pm() != 0 || make_icas() != 0)
		return;
	struct probe_file p;
	probe_build(&p);
	load_image(&p);
	long helper = pm_spawn_helper("exec-threads", 0);
	if (helper <= 0)
		return;
	struct myrmex_delivery d, held;
	int have_held = 0;
	struct myrmex_frame *f;
	for (;;) {
		f = pm_take(&d);
		if (!f)
			return;
		if (d.opcode != PM_T_HOLD)
			break;
		held = d;
		have_held = 1;
	}
	if (d.opcode != PM_EXEC) {
		test_fail("threads: opcode %u", d.opcode);
		return;
	}
	struct myrmex_exec how;
	good_request(&how);
	CHECK_EQ(myrmex_proc_exec((int)f->arg[0], &how), 0);
	if (have_held) {
		struct myrmex_frame *h =
			(struct myrmex_frame *)(uintptr_t)(held.control + held.frame);
		CHECK_EQ(myrmex_proc_fork((int)h->arg[0], 0), -ESRCH);   /* its thread is gone */
		myrmex_reply(TEST_NAME, &held, 0);
	}
	myrmex_reply(TEST_NAME, &d, 0);
	pm_expect_exit(helper, PROBE_OK, "the probe");
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "errors") == 0)
		run_errors();
	else if (strcmp(mode, "threads") == 0)
		run_threads();
	else
		test_fail("unknown mode \"%s\"", mode);
	return test_exit_code();
}
