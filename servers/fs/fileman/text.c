/*
 * text.c - the programs processes run (Linux's "text" files), for
 * ETXTBSY: a file some process runs cannot be opened for writing or
 * truncated, and a file open for writing cannot be exec'd.
 *
 * The process manager's open for an exec (FS_OPEN_AS) names the file for
 * the pid as pending (a script's interpreter, opened after the script,
 * is what runs, as on Linux); the exec itself (FS_EXEC) makes it the
 * pid's text; fork gives the child its parent's; exit forgets the pid.
 * The process manager does not keep the file open while the program
 * runs, so a program whose last name goes has its inode freed (Linux
 * keeps it as an orphan): its number is forgotten here then, since a new
 * file may get it (text_forget).
 * One entry per process that has exec'd: a scan per write open is a few
 * hundred comparisons at most.
 */
#include "fileman.h"

#include <stdlib.h>

struct text {
	int pid;
	uint32_t ino;        /* what it runs (0: nothing known) */
	uint32_t pending;    /* opened for an exec not yet done */
};

static struct text *texts;
static unsigned text_count, text_room;

static struct text *text_of(int pid, bool make)
{
	for (unsigned i = 0; i < text_count; i++)
		if (texts[i].pid == pid)
			return &texts[i];
	if (!make)
		return NULL;
	if (text_count == text_room) {
		unsigned room = text_room ? text_room * 2 : 64;
		struct text *more = realloc(texts, room * sizeof(*more));
		if (!more)
			return NULL;   /* the pid is not tracked: no ETXTBSY for it */
		texts = more;
		text_room = room;
	}
	texts[text_count] = (struct text){ .pid = pid };
	return &texts[text_count++];
}

void text_opened(int pid, uint32_t ino)
{
	struct text *t = text_of(pid, true);
	if (t)
		t->pending = ino;
}

void text_exec(int pid)
{
	struct text *t = text_of(pid, false);
	if (t && t->pending) {
		t->ino = t->pending;
		t->pending = 0;
	}
}

void text_fork(int parent, int child)
{
	struct text *p = text_of(parent, false);
	uint32_t ino = p ? p->ino : 0;
	if (!ino)
		return;
	struct text *c = text_of(child, true);   /* may move texts: p not used after */
	if (c)
		c->ino = ino;
}

void text_exit(int pid)
{
	struct text *t = text_of(pid, false);
	if (t)
		*t = texts[--text_count];
}

bool text_busy(uint32_t ino)
{
	for (unsigned i = 0; i < text_count; i++)
		if (texts[i].ino == ino)
			return true;
	return false;
}

void text_forget(uint32_t ino)
{
	for (unsigned i = 0; i < text_count; i++) {
		if (texts[i].ino == ino)
			texts[i].ino = 0;
		if (texts[i].pending == ino)
			texts[i].pending = 0;
	}
}
