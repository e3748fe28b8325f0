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
 *
 * It comes as the file manager's second argument (`fileman 64 klt`), which
 * the service manager adds from sysinit's boot argument `fsconf=<name>`.
 */
#ifndef FILEMAN_FSCONF_H
#define FILEMAN_FSCONF_H

#include <server.h>

enum fsconf { FSCONF_SPLIT, FSCONF_ONE, FSCONF_KLT };

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

/* timecalls.c: in one and klt, registers the time service's coreid as our
 * second one and starts its clock and alarm thread. 0 or -errno. */
int timecalls_start(void);

#endif
