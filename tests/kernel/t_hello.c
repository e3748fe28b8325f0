/*
 * t_hello: the first user program. Prints a greeting and checks what the
 * kernel put on the initial stack: argv as passed by the init
 * ({"t_hello", "alpha", "beta"}), the environment (MYRMEX_TEST=1) and the
 * auxiliary vector (page size, AT_RANDOM, program headers, entry point, the
 * platform: uname's machine).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_hello"
#include "test_check.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>

/* Provided by the linker: the ELF header at the start of the first segment,
 * and by musl's crt1: the entry point. */
extern const ElfW(Ehdr) __ehdr_start;
extern char _start[];

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void check_argv(int argc, char **argv)
{
	static const char *const expected[] = { "t_hello", "alpha", "beta" };

	CHECK(argc == 3, "argc is %d, expected 3", argc);
	for (int i = 0; i < 3 && i < argc; i++) {
		const char *got = i == 0 ? base_name(argv[i]) : argv[i];
		CHECK(strcmp(got, expected[i]) == 0, "argv[%d] is \"%s\", expected \"%s\"", i,
		      argv[i], expected[i]);
	}
	CHECK(argv[argc] == NULL, "argv[argc] is not NULL");
}

static void check_envp(char **envp)
{
	int found = 0;

	for (char **e = envp; *e; e++)
		if (strcmp(*e, "MYRMEX_TEST=1") == 0)
			found = 1;
	CHECK(found, "MYRMEX_TEST=1 is not in the environment");
}

/* The program headers the kernel reports must be ours, and an executable
 * PT_LOAD segment must hold this very function. */
static void check_program_headers(void)
{
	unsigned long phdr = getauxval(AT_PHDR);
	unsigned long phnum = getauxval(AT_PHNUM);
	unsigned long phent = getauxval(AT_PHENT);
	const char *ehdr = (const char *)&__ehdr_start;

	CHECK(memcmp(ehdr, ELFMAG, SELFMAG) == 0, "no ELF header at __ehdr_start");
	CHECK(phdr == (unsigned long)(ehdr + __ehdr_start.e_phoff),
	      "AT_PHDR is %#lx, the program headers are at %p", phdr,
	      (const void *)(ehdr + __ehdr_start.e_phoff));
	CHECK(phnum == __ehdr_start.e_phnum, "AT_PHNUM is %lu, the ELF header says %u", phnum,
	      (unsigned)__ehdr_start.e_phnum);
	CHECK(phent == sizeof(ElfW(Phdr)), "AT_PHENT is %lu, expected %zu", phent,
	      sizeof(ElfW(Phdr)));
	if (phdr == 0 || phnum == 0 || phent != sizeof(ElfW(Phdr)))
		return;

	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)phdr;
	uintptr_t load_bias = 0; /* nonzero only for a position-independent program */
	int text_found = 0;
	for (unsigned long i = 0; i < phnum; i++) {
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0)
			load_bias = (uintptr_t)ehdr - ph[i].p_vaddr;
	}
	for (unsigned long i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		uintptr_t start = load_bias + ph[i].p_vaddr;
		uintptr_t code = (uintptr_t)check_program_headers;
		if (code >= start && code < start + ph[i].p_memsz && (ph[i].p_flags & PF_X))
			text_found = 1;
	}
	CHECK(text_found, "no executable PT_LOAD segment in AT_PHDR holds the code");
}

static void check_auxv(void)
{
	CHECK(getauxval(AT_PAGESZ) == 4096, "AT_PAGESZ is %lu", getauxval(AT_PAGESZ));

	const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);
	CHECK(random != NULL, "AT_RANDOM is missing");
	if (random) {
		unsigned char copy[16];
		unsigned char any = 0;
		memcpy(copy, random, sizeof copy); /* must be readable */
		for (size_t i = 0; i < sizeof copy; i++)
			any |= copy[i];
		CHECK(any != 0, "the 16 AT_RANDOM bytes are all zero");
	}

	unsigned long entry = getauxval(AT_ENTRY);
	CHECK(entry != 0, "AT_ENTRY is missing");
	CHECK(entry == (unsigned long)_start, "AT_ENTRY is %#lx, _start is %p", entry,
	      (void *)_start);

	check_program_headers();

	const char *platform = (const char *)getauxval(AT_PLATFORM);
	struct utsname u;
	CHECK(uname(&u) == 0, "uname failed");
	CHECK(platform && strcmp(platform, u.machine) == 0,
	      "AT_PLATFORM is \"%s\", uname's machine \"%s\"", platform ? platform : "(missing)",
	      u.machine);
	CHECK(getauxval(AT_CLKTCK) == 100, "AT_CLKTCK is %lu", getauxval(AT_CLKTCK));
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	CHECK(execfn && execfn[0], "AT_EXECFN is missing or empty");

	if (myrmex_is_native()) {
		/* Myrmex runs everything as root, without set-id programs. */
		CHECK(getauxval(AT_UID) == 0 && getauxval(AT_EUID) == 0 &&
		      getauxval(AT_GID) == 0 && getauxval(AT_EGID) == 0,
		      "AT_UID/EUID/GID/EGID are not all 0");
		CHECK(getauxval(AT_SECURE) == 0, "AT_SECURE is %lu", getauxval(AT_SECURE));
	}
}

int main(int argc, char **argv, char **envp)
{
	myrmex_puts("Hello from Myrmex user space\n");
	check_argv(argc, argv);
	check_envp(envp);
	check_auxv();
	return test_exit_code();
}
