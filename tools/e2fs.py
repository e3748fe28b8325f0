#!/usr/bin/env python3
"""e2fs.py - finding and running the e2fsprogs tools (host side).

Role: the one place that knows how mke2fs, e2fsck and debugfs are found and
called, for tools/mkfsimage.py (which makes images) and tools/fscheck.py
(which judges them after a guest run). The tools live in /sbin or /usr/sbin,
which a non-root PATH often lacks, so those folders are searched too.
scripts/setup.sh installs e2fsprogs.

Images are ext2 with 4096-byte blocks, the only block size the file manager's
ext2 library (servers/fs/ext2) accepts.
"""

import os
import shutil
import subprocess
import tempfile

SBIN_DIRS = ("/usr/sbin", "/sbin")
TOOL_TIMEOUT = 120      # seconds for one tool run


class E2fsError(Exception):
    """A tool is missing or failed; the message says which and why."""


def find_tool(name):
    """Full path of an e2fsprogs tool, or raise E2fsError."""
    found = shutil.which(name)
    if found:
        return found
    for d in SBIN_DIRS:
        path = os.path.join(d, name)
        if os.access(path, os.X_OK):
            return path
    raise E2fsError("%s not found: install e2fsprogs (scripts/setup.sh)" % name)


def run_tool(name, args, check=True):
    """Run an e2fsprogs tool with args; return the CompletedProcess (bytes).

    The environment pins the time mke2fs writes (E2FSPROGS_FAKE_TIME) so
    that images differ only where their contents do. With check, a non-zero
    exit raises E2fsError quoting the tool's output.
    """
    env = dict(os.environ, E2FSPROGS_FAKE_TIME="1700000000")
    cmd = [find_tool(name)] + list(args)
    try:
        res = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                             timeout=TOOL_TIMEOUT, env=env)
    except (OSError, subprocess.SubprocessError) as e:
        raise E2fsError("%s: %s" % (name, e))
    if check and res.returncode != 0:
        text = (res.stdout + res.stderr).decode("utf-8", "replace").strip()
        raise E2fsError("%s exited with %d: %s" % (" ".join(cmd), res.returncode,
                                                   text[-2000:]))
    return res


def mke2fs(image, source_dir, mib, label="myrmex"):
    """Make `image` (mib MiB) as ext2 with 4 KiB blocks holding the tree of
    source_dir (mke2fs -d: no root needed). The file is written afresh."""
    if os.path.exists(image):
        os.remove(image)
    run_tool("mke2fs", ["-q", "-F", "-t", "ext2", "-b", "4096", "-L", label,
                        "-U", "6d797278-6d65-7800-0000-000000000001",
                        "-E", "hash_seed=6d797278-6d65-7800-0000-000000000002",
                        "-d", source_dir, image, "%dM" % mib])


# /dev as Linux's devtmpfs has it (name, major, minor, mode) and its links:
# mke2fs -d cannot make device nodes without root, debugfs can. The file
# manager serves these names itself (servers/fs/fileman/devfile.c); the
# nodes are there so that `ls /dev` lists them with the same numbers.
DEV_NODES = [("console", 5, 1, 0o600), ("tty", 5, 0, 0o666), ("null", 1, 3, 0o666),
             ("zero", 1, 5, 0o666), ("full", 1, 7, 0o666), ("random", 1, 8, 0o666),
             ("urandom", 1, 9, 0o666)]
DEV_LINKS = [("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
             ("stderr", "/proc/self/fd/2"), ("fd", "/proc/self/fd")]


def debugfs_write(image, cmds, what):
    """Runs debugfs -w on image with cmds (one per line, from a script
    file); E2fsError naming what when debugfs reports an error."""
    fd, script = tempfile.mkstemp(prefix="myrmex-debugfs.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(cmds) + "\n")
        res = run_tool("debugfs", ["-w", "-f", script, image])
    finally:
        os.remove(script)
    text = (res.stdout + res.stderr).decode("utf-8", "replace")
    if "rror" in text or "not found" in text:
        raise E2fsError("debugfs could not %s: %s" % (what, text[-1000:]))


def make_dev_nodes(image):
    """Adds DEV_NODES and DEV_LINKS to the image's /dev (which must exist)."""
    cmds = ["cd /dev"]
    for name, major, minor, mode in DEV_NODES:
        cmds.append("mknod %s c %d %d" % (name, major, minor))
        cmds.append("sif %s mode 0%o" % (name, 0o20000 | mode))
    for name, target in DEV_LINKS:
        cmds.append("symlink %s %s" % (name, target))
    debugfs_write(image, cmds, "make /dev")


def set_owners(image, owners):
    """Gives each (path, uid, gid) of owners in image to that user and group
    (debugfs: mke2fs -d keeps the builder's ids, and chown needs root)."""
    cmds = []
    for path, uid, gid in owners:
        cmds.append("sif %s uid %d" % (path, uid))
        cmds.append("sif %s gid %d" % (path, gid))
    debugfs_write(image, cmds, "set owners")


def fsck(image):
    """e2fsck -fn on image: (exit status, output text). 0 means clean."""
    res = run_tool("e2fsck", ["-fn", image], check=False)
    return res.returncode, (res.stdout + res.stderr).decode("utf-8", "replace")


def debugfs(image, request):
    """Output (stdout text) of one debugfs request on image, read-only."""
    res = run_tool("debugfs", ["-R", request, image], check=False)
    return res.stdout.decode("utf-8", "replace")


def debugfs_cat(image, path):
    """The bytes of file `path` in image (debugfs cat), or None when debugfs
    cannot find it."""
    res = run_tool("debugfs", ["-R", "cat %s" % path, image], check=False)
    err = res.stderr.decode("utf-8", "replace")
    if "File not found" in err or "not found by ext2_lookup" in err:
        return None
    return res.stdout


def debugfs_ls(image, path):
    """Names in directory `path` of image ('.' and '..' left out), or None
    when it is not there. Uses `ls -p`, whose lines are
    /inode/mode/uid/gid/name/size/."""
    res = run_tool("debugfs", ["-R", "ls -p %s" % path, image], check=False)
    err = res.stderr.decode("utf-8", "replace")
    if "File not found" in err or "not found by ext2_lookup" in err:
        return None
    names = []
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        fields = line.split("/")
        if len(fields) >= 7 and fields[5] not in (".", ".."):
            names.append(fields[5])
    return names


def debugfs_stat(image, path):
    """{"type": "regular"|"directory"|..., "size": n, "links": n} of `path`
    in image from `debugfs stat`, or None when it is not there."""
    res = run_tool("debugfs", ["-R", "stat %s" % path, image], check=False)
    words = res.stdout.decode("utf-8", "replace").replace(":", " ").split()
    info = {}
    for key, value in zip(words, words[1:]):
        if key == "Type" and "type" not in info:
            info["type"] = value
        elif key == "Size" and "size" not in info:
            info["size"] = int(value)
        elif key == "Links" and "links" not in info:
            info["links"] = int(value)
    return info if len(info) == 3 else None
