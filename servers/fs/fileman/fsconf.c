/*
 * fsconf.c - the configuration the file manager runs in (fsconf.h): its
 * name from the command line, and the serving threads of klt. Each runs
 * the server library's loop (server_run keeps all of its state on the
 * thread's stack); the lock (lock.h) lets only one run file-manager code
 * at a time, and any of them may take any request.
 */
#include "fileman.h"
#include "fsconf.h"

#include <errno.h>
#include <string.h>

enum fsconf fsconf = FSCONF_SPLIT;

static const char *const names[] = {
	[FSCONF_SPLIT] = "split",
	[FSCONF_ONE] = "one",
	[FSCONF_KLT] = "klt",
	[FSCONF_ULT] = "ult",
};

int fsconf_parse(const char *word)
{
	if (!word)
		return 0;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(word, names[i]) == 0) {
			fsconf = (enum fsconf)i;
			return 0;
		}
	return -EINVAL;
}

const char *fsconf_name(void)
{
	return names[fsconf];
}

static void serve_thread(void *s)
{
	server_run(s);
}

void fsconf_serve(const struct server *s)
{
	if (fsconf == FSCONF_ULT)
		ult_serve(s);
	if (fsconf == FSCONF_KLT) {
		static struct myrmex_thread threads[FSCONF_THREADS - 1];
		unsigned made = 1;
		for (unsigned i = 0; i + 1 < FSCONF_THREADS; i++) {
			long r = myrmex_thread_create(&threads[i], serve_thread, (void *)s, FSCONF_STACK);
			if (r < 0) {
				fm_log("klt: thread %u: error %ld; serving with %u", i + 1, -r, made);
				break;
			}
			made++;
		}
		fm_log("klt: %u threads serve", made);
	}
	server_run(s);
}
