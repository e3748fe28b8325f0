/*
 * postmark_shim: what Debian's PostMark 1.53 needs and musl lacks. PostMark
 * calls getwd(), which musl does not offer; tools/bench_fmap.py builds it with
 * -Dgetwd=postmark_getwd and links this file. Not a benchmark program.
 */
#include <limits.h>
#include <unistd.h>

char *postmark_getwd(char *buf);

/* getwd(buf): the current folder into buf (PATH_MAX bytes), or NULL. */
char *postmark_getwd(char *buf)
{
	return getcwd(buf, PATH_MAX);
}
