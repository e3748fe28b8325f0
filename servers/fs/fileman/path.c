/*
 * path.c - paths: resolution component by component from the root, the
 * current directory or a descriptor's directory, with "." and ".." (the
 * directories' own entries) and symbolic links followed (FM_SYMLOOP_MAX in
 * one resolution; an absolute target starts again at the root, a relative
 * one in the link's directory); the absolute path of a directory, found by
 * walking ".." up to the root (getcwd); and the special names.
 *
 * A symbolic link's target replaces the link's component in the text still
 * to resolve, in one of two buffers used in turn. The buffers are static:
 * the server is one thread and a resolution never calls itself.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>

static char text[2][FS_PATH_MAX];    /* what is left to resolve */
static char target[FS_PATH_MAX];     /* a link's target */

struct walk {
	uint32_t dir;                 /* the directory holding the last component */
	uint32_t ino;                 /* the last component (lookup) */
	char name[EXT2_NAME_MAX + 1]; /* the last component (parent) */
	bool trailing;                /* a '/' came after the last component */
};

static bool is_dir(uint32_t mode)
{
	return (mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
}

/* Replaces the component that ends at `rest` (a link) with the link's
 * target: the new text goes into the other buffer. An absolute target
 * starts again at the root; a relative one in the link's directory. */
static int expand(struct server_request *rq, uint32_t link, const char *rest, int *which, const char **p, uint32_t *dir)
{
	int len = ext2_readlink(fm_fs_for(rq), link, target, sizeof(target));
	if (len < 0)
		return len;
	size_t rest_len = strlen(rest);
	if ((size_t)len + rest_len >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	char *out = text[!*which];
	memcpy(out, target, (size_t)len);
	memcpy(out + len, rest, rest_len + 1);
	*which = !*which;
	*p = out;
	if (out[0] == '/')
		*dir = EXT2_ROOT_INO;
	return 0;
}

/* The resolution itself. parent: stop before the last component. */
static int walk(struct server_request *rq, uint32_t base, const char *path, bool parent, bool follow, struct walk *w)
{
	size_t len = strnlen(path, FS_PATH_MAX);
	if (len >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	if (len == 0)
		return -ENOENT;
	int which = 0;
	memcpy(text[0], path, len + 1);
	const char *p = text[0];
	uint32_t dir = path[0] == '/' ? EXT2_ROOT_INO : base;
	unsigned links = 0;
	if (dir == 0)
		return -ENOENT;   /* relative to a directory that was removed */
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0') {   /* "/", or a link to a directory with nothing after */
			w->dir = w->ino = dir;
			w->name[0] = '\0';
			w->trailing = false;
			return 0;
		}
		const char *end = p;
		while (*end && *end != '/')
			end++;
		size_t n = (size_t)(end - p);
		if (n > EXT2_NAME_MAX)
			return -ENAMETOOLONG;
		const char *after = end;
		while (*after == '/')
			after++;
		bool last = *after == '\0', trailing = last && after != end;
		if (last && parent) {
			memcpy(w->name, p, n);
			w->name[n] = '\0';
			w->dir = dir;
			w->trailing = trailing;
			return 0;
		}
		uint32_t ino;
		struct ext2_stat st;
		int rc = perm_search(rq, dir);   /* perm.c: looking in dir is searching it */
		if (rc == 0)
			rc = ext2_lookup(fm_fs_for(rq), dir, p, n, &ino);
		if (rc == 0)
			rc = ext2_stat(fm_fs_for(rq), ino, &st);
		if (rc < 0)
			return rc;
		if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFLNK && (!last || trailing || follow)) {
			if (++links > FM_SYMLOOP_MAX)
				return -ELOOP;
			rc = expand(rq, ino, end, &which, &p, &dir);
			if (rc < 0)
				return rc;
			continue;
		}
		if (last) {
			if (trailing && !is_dir(st.mode))
				return -ENOTDIR;
			w->dir = dir;
			w->ino = ino;
			w->trailing = trailing;
			return 0;
		}
		if (!is_dir(st.mode))
			return -ENOTDIR;
		dir = ino;
		p = end;
	}
}

int path_lookup(struct server_request *rq, uint32_t base, const char *path, bool follow, uint32_t *ino)
{
	struct walk w;
	int rc = walk(rq, base, path, false, follow, &w);
	if (rc == 0)
		*ino = w.ino;
	return rc;
}

int path_parent(struct server_request *rq, uint32_t base, const char *path, uint32_t *dir, char name[EXT2_NAME_MAX + 1],
                bool *trailing)
{
	struct walk w;
	int rc = walk(rq, base, path, true, false, &w);
	if (rc == 0) {
		*dir = w.dir;
		memcpy(name, w.name, strlen(w.name) + 1);
		*trailing = w.trailing;
	}
	return rc;
}

/* The name under which directory `parent` holds child (not "." or ".."). */
static int name_in(struct server_request *rq, uint32_t parent, uint32_t child, struct ext2_dirent *ent)
{
	uint64_t pos = 0;
	int rc;
	while ((rc = ext2_readdir(fm_fs_for(rq), parent, &pos, ent)) == 1)
		if (ent->ino == child && strcmp(ent->name, ".") != 0 && strcmp(ent->name, "..") != 0)
			return 0;
	return rc < 0 ? rc : -ENOENT;
}

int path_of_dir(struct server_request *rq, uint32_t ino, char *buf, size_t size)
{
	/* Built from the end of target[] towards its start. */
	size_t pos = sizeof(target) - 1;
	target[pos] = '\0';
	uint32_t cur = ino;
	if (cur == 0)
		return -ENOENT;
	while (cur != EXT2_ROOT_INO) {
		uint32_t parent;
		struct ext2_dirent ent;
		int rc = ext2_lookup(fm_fs_for(rq), cur, "..", 2, &parent);
		if (rc == 0 && parent == cur)
			rc = -ENOENT;   /* only the root is its own parent */
		if (rc == 0)
			rc = name_in(rq, parent, cur, &ent);
		if (rc < 0)
			return rc;
		if ((size_t)ent.name_len + 1 > pos)
			return -ENAMETOOLONG;   /* also ends a loop of ".." entries */
		pos -= ent.name_len;
		memcpy(target + pos, ent.name, ent.name_len);
		target[--pos] = '/';
		cur = parent;
	}
	if (target[pos] == '\0')
		target[--pos] = '/';
	size_t len = sizeof(target) - 1 - pos;
	if (len + 1 > size)
		return -ENAMETOOLONG;
	memcpy(buf, target + pos, len + 1);
	return (int)len;
}

/* ---- the special names ---- */

/* Appends the components of s to out (len bytes so far, no trailing '/'),
 * "." dropped and ".." taking the last one off: a lexical normal form. */
static size_t normal_add(char *out, size_t len, const char *s)
{
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - s);
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
		} else if (n > 0 && !(n == 1 && s[0] == '.')) {
			out[len++] = '/';
			memcpy(out + len, s, n);
			len += n;
		}
		s = e;
	}
	return len;
}

const char *path_normal(const char *cwd, const char *path)
{
	static char normal[2 * FS_PATH_MAX + 2];
	if (path[0] != '/' && !cwd)
		return NULL;
	size_t len = path[0] == '/' ? 0 : normal_add(normal, 0, cwd);
	len = normal_add(normal, len, path);
	normal[len] = '\0';
	if (len == 0) {
		normal[0] = '/';
		normal[1] = '\0';
	}
	return normal;
}

enum fm_kind path_special(const char *cwd, const char *path, uint64_t *rdev)
{
	/* Most opens name neither /dev nor /proc: an absolute path whose first
	 * name starts with another letter, with no ".." that could climb back
	 * there, needs no normalizing. */
	if (path[0] == '/' && path[1] != '/' && path[1] != '.' && path[1] != 'd' && path[1] != 'p' &&
	    !strstr(path, ".."))
		return FM_FREE;
	const char *normal = path_normal(cwd, path);
	if (!normal)
		return FM_FREE;
	if (procfs_rest(normal)) {
		*rdev = 0;
		return FM_PROC;
	}
	enum fm_kind kind;
	if (devfile_by_name(normal, &kind, rdev))
		return kind;
	return FM_FREE;
}
