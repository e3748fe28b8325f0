#!/usr/bin/env python3
"""fscheck.py - judges the file-system test images after a guest run (host side).

Role: once the guest has powered off, the images the booted file-system tests
wrote must be clean ext2 (e2fsck -fn exits 0: the file manager flushed and
marked them clean at FS_SHUTDOWN) and hold what the tests left, read here
with debugfs, independently of Myrmex. tools/run_tests.py calls check_images()
and counts each check as one result; `python3 tools/fscheck.py fs.img full.img`
runs them by hand (all of them).

Each image must also be marked clean (s_state 1, as FS_SHUTDOWN leaves it).
What the guest must leave (keep in step with tests/kernel/t_fs_write.c and
t_fs_full.c, which write it, and tests/kernel/fs_sums.h, whose fs_pattern()
pattern() mirrors):
  fs.img    the tree of FS_EXPECT, after `t_fs write` (and `t_fs persist`)
  full.img  /after.txt and /README, no /fill*, after `t_fs full`
A check runs only when the tests behind it reported a result (a chosen
subset of tests leaves the other images fresh).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2fs  # noqa: E402  (tools/e2fs.py)
import ext2layout  # noqa: E402  (tools/ext2layout.py)

# Which reported test results call for which checks.
FS_IMAGE_TESTS = ("fs-read", "fs-write", "fs-persist", "fs-errors", "fs-hostile-ctl", "recover",
                  "disk-not-client", "fuzz", "fuzz-2")
FS_STATE_TESTS = ("fs-write",)
FULL_IMAGE_TESTS = ("fs-full",)


def pattern(seed, offset, length):
    """Bytes offset.. of the pattern t_fs writes: byte i of stream seed is the
    top byte of (i * 2654435761 + seed * 40503) mod 2^32 (fs_pattern())."""
    return bytes(((i * 2654435761 + seed * 40503) & 0xffffffff) >> 24
                 for i in range(offset, offset + length))


def lots_name(i):
    return "lots-entry-with-a-longer-name-%03d" % i


KEEP_TXT = b"line 1: written by t_fs write\nline 2: appended\n"
BIG_SIZE = 300 * 1024 + 123
HOLE_AT = 200000
LOTS = 120

# (kind, path, expected): "file" -> exact bytes, "dir" -> the set of names,
# "absent" -> None.
FS_EXPECT = [
    ("dir", "/made", {"keep.txt", "big", "holey", "trunc", "sub", "lots"}),
    ("file", "/made/keep.txt", KEEP_TXT),
    ("file", "/made/big", pattern(1, 0, BIG_SIZE)),
    ("file", "/made/holey", bytes(HOLE_AT) + pattern(2, HOLE_AT, 100)),
    ("file", "/made/trunc", pattern(3, 0, 5000) + bytes(70000 - 5000)),
    ("dir", "/made/sub", {"moved.txt", "a"}),
    ("file", "/made/sub/moved.txt", b"renamed twice\n"),
    ("dir", "/made/sub/a", {"b"}),
    ("dir", "/made/sub/a/b", {"leaf.txt"}),
    ("file", "/made/sub/a/b/leaf.txt", b"a leaf two levels down\n"),
    ("dir", "/made/lots", {lots_name(i) for i in range(0, LOTS, 2)}),
    ("file", "/made/lots/" + lots_name(118), b"lots 118\n"),
    ("absent", "/made/old.txt", None),
    ("absent", "/made/new.txt", None),
    ("absent", "/made/gone.txt", None),
    ("absent", "/made/tmpdir", None),
    ("absent", "/made/sub/a/b/c", None),
    ("absent", "/made/lots/" + lots_name(1), None),
    ("file", "/text/hello.txt", b"hello from the Myrmex test image\n"),
]

FULL_EXPECT = [
    ("file", "/after.txt", b"written after the disk was full\n"),
    ("file", "/README", b"the full-disk test image: t_fs full fills it\n"),
    ("absent", "/fill", None),
]


def describe_bytes(got, want):
    """Where two byte strings first differ, in a few words."""
    if got is None:
        return "missing"
    if len(got) != len(want):
        return "%d bytes, expected %d" % (len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return "byte %d is %#x, expected %#x" % (i, a, b)
    return "equal"


def check_entry(image, kind, path, expected):
    """One expectation on image: None when it holds, else the reason."""
    if kind == "absent":
        st = e2fs.debugfs_stat(image, path)
        return None if st is None else "still there (%s)" % st["type"]
    if kind == "dir":
        names = e2fs.debugfs_ls(image, path)
        if names is None:
            return "directory missing"
        got = set(names)
        if len(names) != len(got):
            return "a name is listed twice"
        if got != expected:
            return "extra %s, missing %s" % (sorted(got - expected)[:5],
                                             sorted(expected - got)[:5])
        return None
    data = e2fs.debugfs_cat(image, path)
    return None if data == expected else describe_bytes(data, expected)


def check_image(image, label, expect, with_state):
    """[(name, passed, reason)] for e2fsck and, with with_state, expect."""
    results = []
    if not os.path.isfile(image):
        return [("%s:present" % label, False, "image not found: %s" % image)]
    status, output = e2fs.fsck(image)
    lines = [l for l in output.splitlines() if l.strip() and not l.startswith("e2fsck ")]
    results.append(("%s:e2fsck" % label, status == 0,
                    "" if status == 0 else "e2fsck -fn exit %d: %s"
                    % (status, " / ".join(lines[:6]))))
    # e2fsck -fn passes a file system that was never unmounted; the state
    # field shows whether FS_SHUTDOWN marked it clean (and no error found).
    try:
        state = ext2layout.Image(image).sb("state")
        why = "" if state == ext2layout.STATE_VALID else "s_state %#x, expected %#x (clean)" \
            % (state, ext2layout.STATE_VALID)
    except (ext2layout.LayoutError, OSError) as e:
        why = str(e)
    results.append(("%s:clean" % label, not why, why))
    if with_state:
        for kind, path, expected in expect:
            why = check_entry(image, kind, path, expected)
            results.append(("%s:%s%s" % (label, "absent:" if kind == "absent" else "", path),
                            why is None, why or ""))
    return results


def check_images(fs_image, full_image, reported):
    """The checks the reported test names (a collection) call for, as
    [(name, passed, reason)]; e2fsprogs problems become failed results."""
    reported = set(reported)
    jobs = []
    if fs_image and reported & set(FS_IMAGE_TESTS):
        jobs.append((fs_image, "fs.img", FS_EXPECT, bool(reported & set(FS_STATE_TESTS))))
    if full_image and reported & set(FULL_IMAGE_TESTS):
        jobs.append((full_image, "full.img", FULL_EXPECT, True))
    results = []
    for image, label, expect, with_state in jobs:
        try:
            results += check_image(image, label, expect, with_state)
        except e2fs.E2fsError as e:
            results.append(("%s:tools" % label, False, str(e)))
    return results


def main(argv):
    if len(argv) != 2:
        print("usage: fscheck.py FS_IMAGE FULL_IMAGE", file=sys.stderr)
        return 2
    results = check_images(argv[0], argv[1], FS_IMAGE_TESTS + FULL_IMAGE_TESTS)
    for name, passed, reason in results:
        print("%s %s%s" % ("PASS" if passed else "FAIL", name, ": " + reason if reason else ""))
    return 0 if all(r[1] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
