/*
 * fsconf.c - the configuration the file manager runs in (fsconf.h): its
 * name from the command line, and the serving threads of klt. Each runs
 * a loop around get() that takes the turn first (lock.h: requests reach
 * the lock in the queue's order) and serves with server_serve_one; the
 * lock lets only one run file-manager code at a time, and any of them may
 * take any request.
 */
#include "fileman.h"
#include "fsconf.h"
#include "lock.h"

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

/* A klt thread: takes the turn, a delivery, and serves it (the reply at
 * once: riding on the next get() would wait for the turn). */
static __attribute__((noreturn)) void serve_loop(const struct server *s)
{
	for (;;) {
		struct server_request rq;
		fm_turn_take();
		long r = myrmex_get(NULL, &rq.d);
		if (r < 0 || rq.d.kind != MYRMEX_DELIVERY_REQUEST) {
			fm_turn_give();
			if (r < 0) {
				fm_log("get: %ld", r);
				myrmex_sleep_ns(1000000);
			} else {
				server_deliver_other(s, &rq.d);
			}
			continue;
		}
		fm_turn_pass(&rq);
		server_serve_one(s, &rq);
	}
}

static void serve_thread(void *s)
{
	serve_loop(s);
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
		serve_loop(s);
	}
	server_run(s);
}
