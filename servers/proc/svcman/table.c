/*
 * table.c - the service table's text form (docs/services.md): one service
 * per line, `service <name>` followed by key=value words; '#' starts a
 * comment. Keys: program (boot module, default the name), coreid, device
 * (virtio-blk, virtio-blk:<n> for the n-th, virtio-net, virtio-net:<n>,
 * com1), calls (comma-separated coreids or service names already listed,
 * or "-"), args (comma-separated),
 * restart (always, reboot, never), optional (yes: a service whose device is
 * missing, or that calls a skipped one, is skipped, not fatal), fsconf (the
 * file service's configurations, comma-separated, in which the service
 * runs; all without).
 */
#include "svcman.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(unsigned line, const char *what, const char *word)
{
	fprintf(stderr, "svcman: service table line %u: %s '%s'\n", line, what, word);
	return -1;
}

static void copy_word(char *dst, const char *src, size_t size)
{
	snprintf(dst, size, "%s", src);
}

/* calls=2,console,...: coreids, or the names of services listed before (or
 * of this one, whose coreid= must then come first). */
static int parse_calls(struct svc_table *t, struct service *s, char *list, unsigned line)
{
	if (!strcmp(list, "-"))
		return 0;
	for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *end;
		long id = strtol(w, &end, 10);
		if (*end) {
			id = -1;
			for (unsigned i = 0; i <= t->n; i++)   /* itself included */
				if (!strcmp(t->s[i].name, w))
					id = t->s[i].coreid;
		}
		if (id < 0 || id > MYRMEX_MAX_COREID)
			return fail(line, "unknown service or coreid in calls", w);
		myrmex_rights_add(&s->calls, (unsigned)id);
	}
	return 0;
}

static int parse_key(struct svc_table *t, struct service *s, char *word, unsigned line)
{
	char *eq = strchr(word, '=');
	if (!eq)
		return fail(line, "expected key=value, got", word);
	*eq = '\0';
	char *value = eq + 1;
	if (!strcmp(word, "program")) {
		copy_word(s->program, value, sizeof s->program);
	} else if (!strcmp(word, "coreid")) {
		char *end;
		long id = strtol(value, &end, 10);
		if (*end || id < 0 || id > MYRMEX_MAX_COREID)
			return fail(line, "bad coreid", value);
		s->coreid = (int)id;
	} else if (!strcmp(word, "device")) {
		copy_word(s->device, value, sizeof s->device);
	} else if (!strcmp(word, "calls")) {
		return parse_calls(t, s, value, line);
	} else if (!strcmp(word, "args")) {
		for (char *save = NULL, *w = strtok_r(value, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			if (s->nargs == SVC_ARGS_MAX)
				return fail(line, "too many args at", w);
			copy_word(s->args[s->nargs++], w, SVC_ARG_LEN);
		}
	} else if (!strcmp(word, "fsconf")) {
		/* Only in these configurations of the file service (docs/fs.md). */
		copy_word(s->fsconf, value, sizeof s->fsconf);
	} else if (!strcmp(word, "restart")) {
		if (!strcmp(value, "always"))
			s->restart = RESTART_ALWAYS;
		else if (!strcmp(value, "reboot"))
			s->restart = RESTART_REBOOT;
		else if (!strcmp(value, "never"))
			s->restart = RESTART_NEVER;
		else
			return fail(line, "unknown restart policy", value);
	} else if (!strcmp(word, "optional")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return fail(line, "optional is yes or no, not", value);
		s->optional = !strcmp(value, "yes");
	} else {
		return fail(line, "unknown key", word);
	}
	return 0;
}

int table_parse(const char *text, struct svc_table *t)
{
	memset(t, 0, sizeof(*t));
	unsigned line = 0;
	while (*text) {
		line++;
		char buf[512];
		size_t len = strcspn(text, "\n");
		if (len >= sizeof buf)
			return fail(line, "line too long", "");
		memcpy(buf, text, len);
		buf[len] = '\0';
		text += len + (text[len] == '\n');
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		char *save = NULL, *w = strtok_r(buf, " \t", &save);
		if (!w)
			continue;
		if (strcmp(w, "service"))
			return fail(line, "expected 'service', got", w);
		char *name = strtok_r(NULL, " \t", &save);
		if (!name)
			return fail(line, "a service needs a name", "");
		if (t->n == SVC_MAX)
			return fail(line, "too many services at", name);
		struct service *s = &t->s[t->n];
		copy_word(s->name, name, sizeof s->name);
		copy_word(s->program, name, sizeof s->program);
		s->coreid = -1;
		while ((w = strtok_r(NULL, " \t", &save)))
			if (parse_key(t, s, w, line) < 0)
				return -1;
		t->n++;
	}
	return 0;
}

struct service *table_find_coreid(struct svc_table *t, int coreid)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->s[i].coreid == coreid)
			return &t->s[i];
	return NULL;
}
