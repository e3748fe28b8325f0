/*
 * /proc/<pid>/environ and /proc/<pid>/maps: a program run with a known
 * environment reads exactly those strings in its own environ (and setenv
 * does not change them: they are the ones on its stack), and its parent
 * reads them in /proc/<child>/environ; environ is mode 0400; maps has the
 * [stack], [vdso] and [heap] lines, an anonymous read-only mapping and a
 * shared one with their exact bounds and permissions, every line in
 * Linux's format; then bad names (ENOENT, ENOTDIR).
 */
#include "posix_test.h"

#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>

static size_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	size_t len = 0;
	ssize_t n;
	while (len < size && (n = read(fd, buf + len, size - len)) > 0)
		len += (size_t)n;
	close(fd);
	return len;
}

static void show_environ(const char *what, const char *path)
{
	char buf[4096];
	size_t n = slurp(path, buf, sizeof buf);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = '|';
	say("%s: %.*s\n", what, (int)n, buf);
}

/* Whether maps has a line for [start, end) with perms. */
static int has_mapping(const char *maps, uintptr_t start, uintptr_t end, const char *perms)
{
	char want[64];
	snprintf(want, sizeof want, "%08lx-%08lx %s ", (unsigned long)start, (unsigned long)end, perms);
	return strstr(maps, want) != NULL;
}

static int all_lines_parse(char *maps)
{
	int lines = 0;
	for (char *line = strtok(maps, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long s, e, off, ino;
		unsigned maj, min;
		char perms[5];
		if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu", &s, &e, perms, &off, &maj, &min, &ino) != 7 ||
		    s >= e || strlen(perms) != 4)
			return 0;
		lines++;
	}
	return lines > 0;
}

static int child_part(void)
{
	show_environ("own environ", "/proc/self/environ");
	setenv("ADDED", "later", 1);
	show_environ("after setenv", "/proc/self/environ");
	char c;
	read(0, &c, 1);   /* the parent reads our environ meanwhile */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_part();

	int gate[2];
	pipe(gate);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(gate[0], 0);
		close(gate[1]);
		char *const cargv[] = { argv[0], "child", NULL };
		char *const cenv[] = { "A=1", "BB=two", "EMPTY=", NULL };
		execve("/proc/self/exe", cargv, cenv);
		execve(argv[0], cargv, cenv);
		_exit(127);
	}
	usleep(200 * 1000);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	show_environ("the child's environ, read by its parent", path);
	struct stat st;
	say("environ mode: %o\n", stat(path, &st) == 0 ? (unsigned)(st.st_mode & 0777) : 0u);
	close(gate[1]);
	int status;
	waitpid(pid, &status, 0);
	say("child exit: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	void *heap = malloc(100000);
	(void)heap;
	char *ro = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *sh = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static char maps[65536];
	size_t n = slurp("/proc/self/maps", maps, sizeof maps - 1);
	maps[n] = '\0';
	say("maps has [stack]: %s, [vdso]: %s\n", yes(strstr(maps, "[stack]") != NULL),
	    yes(strstr(maps, "[vdso]") != NULL));
	say("maps has the read-only mapping, r--p: %s\n",
	    yes(has_mapping(maps, (uintptr_t)ro, (uintptr_t)ro + 3 * 4096, "r--p")));
	say("maps has the shared mapping, rw-s: %s\n",
	    yes(has_mapping(maps, (uintptr_t)sh, (uintptr_t)sh + 2 * 4096, "rw-s")));
	say("maps stat mode: %o\n", stat("/proc/self/maps", &st) == 0 ? (unsigned)(st.st_mode & 0777) : 0u);
	say("every line in Linux's format: %s\n", yes(all_lines_parse(maps)));

	errno = 0;
	outcome("open /proc/999999/maps", open("/proc/999999/maps", O_RDONLY));
	outcome("open /proc/self/maps/x", open("/proc/self/maps/x", O_RDONLY));
	outcome("open /proc/self/environ/x", open("/proc/self/environ/x", O_RDONLY));
	return 0;
}
