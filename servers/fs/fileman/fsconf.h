/*
 * fsconf.h - the file service's configuration, chosen at boot (issue 19,
 * paper 003; docs/fs.md, "Configurations"): the same file manager binary
 * runs as
 *
 *   one    one thread, answering the time calls too (MINIX's FS)
 *   split  one thread; the time server answers the time calls (the default)
 *   klt    FSCONF_THREADS kernel threads, each waiting in get() on the one
 *          request queue, blocking in the kernel on its own disk calls;
 *          the time calls answered here too (paper 003's multi-threaded
 *          server)
 *   ult    one kernel thread running every request on a user-level thread
 *          of its own (ult.c); a disk call is made asynchronously and parks
 *          its thread while others run; the time calls answered here too
 *
 * It comes as the file manager's second argument (`fileman 64 klt`), which
 * the service manager adds from sysinit's boot argument `fsconf=<name>`.
 */
#ifndef FILEMAN_FSCONF_H
#define FILEMAN_FSCONF_H

#include <server.h>

enum fsconf { FSCONF_SPLIT, FSCONF_ONE, FSCONF_KLT, FSCONF_ULT };

#define FSCONF_THREADS 8u              /* serving threads in klt */
#define FSCONF_STACK (256u * 1024)     /* each one's stack */

extern enum fsconf fsconf;

/* The configuration named by word (NULL: the default): 0, or -EINVAL with
 * the default kept. */
int fsconf_parse(const char *word);
const char *fsconf_name(void);

/* Serves s as the configuration says: one thread, or FSCONF_THREADS (all
 * that could be made). Never returns. */
__attribute__((noreturn)) void fsconf_serve(const struct server *s);

/* ult.c: the user-level threads. ult_serve runs the scheduler loop;
 * ult_active: a user-level thread runs now (not the scheduler, not before
 * serving); ult_call: callasync of h, the thread parked until its result
 * (then 0, the result in h as after callsync) or -errno of callasync;
 * ult_park: parked until ult_wake_all (fm_wait and fm_wake_all). */
#include <myrmex.h>
__attribute__((noreturn)) void ult_serve(const struct server *s);
bool ult_active(void);
long ult_call(struct myrmex_ctl_header *h);
void ult_park(void);
void ult_wake_all(void);

/* timecalls.c: in one and klt, registers the time service's coreid as our
 * second one and starts its clock and alarm thread. 0 or -errno. */
int timecalls_start(void);

#endif
