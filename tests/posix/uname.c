/*
 * uname: the fields that do not name the system. The sysname line differs
 * by design (tests/posix/EXCEPTIONS); the release, version and node name are
 * only checked to be filled in.
 */
#include "posix_test.h"

#include <sys/utsname.h>

int main(void)
{
	struct utsname u;
	memset(&u, 0, sizeof u);
	outcome("uname", uname(&u));
	say("sysname: %s\n", u.sysname);
	say("machine: %s\n", u.machine);
	say("release filled in: %s\n", yes(u.release[0] != 0));
	say("version filled in: %s\n", yes(u.version[0] != 0));
	say("nodename filled in: %s\n", yes(u.nodename[0] != 0));
	return 0;
}
