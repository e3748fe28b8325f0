#!/usr/bin/env python3
"""posix_compare.py - reading and comparing the POSIX suite's transcripts.

Role: the pure part of tools/posix_suite.py, no QEMU. run.sh prints, on the
console of either system,

    POSIX-SUITE-START <count>
    === <name>
    <what the program printed>
    --- exit <status>
    ...
    POSIX-SUITE-DONE

parse_transcript() cuts that into one Section per name (its lines, with the
"--- exit <status>" line kept as the last, so an exception can name it), and
drops the lines a system prints on its own (NOISE: Linux kernel messages,
Myrmex's kernel and server logs). compare() diffs a Myrmex section against the
Linux one after dropping the lines that tests/posix/EXCEPTIONS excuses.

EXCEPTIONS holds one exception a line, `#` starts a comment:

    <program> <pattern> <reason...>

<pattern> is a Python regular expression searched in each line of that
program's output (in double or single quotes when it holds spaces; ".*"
excuses the whole program); matching lines are dropped from both outputs before the diff.
The reason is required: it says why the systems may differ there.
"""

import difflib
import re

START = "POSIX-SUITE-START"
DONE = "POSIX-SUITE-DONE"
REBOOT = "POSIX-SUITE-REBOOT"    # put between two boots' lines by the host
SECTION = "=== "
EXIT = "--- exit "

# Lines a system prints by itself into the console, never a program's: the
# Linux kernel's printk lines, and Myrmex's kernel and server messages.
NOISE = [re.compile(p) for p in (
    r"^\[\s*\d+\.\d+\] ",
    r"^(myrmex|sysinit|svcman|timed|fileman|pm|uart|virtio_blk|posix_start): ",
)]


class Section:
    """One program's output: lines (the exit line last), and whether it ended."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.status = None      # the exit status as text, None if never printed

    def text(self):
        return "\n".join(self.lines) + "\n"


class Transcript:
    """A whole run: sections by name in order, whether it started and ended."""

    def __init__(self):
        self.started = False
        self.done = False
        self.planned = None
        self.sections = {}
        self.order = []


def is_noise(line):
    return any(p.search(line) for p in NOISE)


def parse_transcript(lines):
    """A Transcript from console lines (a list of str, as the log holds them)."""
    t = Transcript()
    current = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line == REBOOT:
            t.started = t.done = False
            current = None
            continue
        if line.startswith(START):
            current = None
            t.started = True
            words = line.split()
            if len(words) == 2 and words[1].isdigit():
                t.planned = int(words[1])
            continue
        if not t.started or t.done:
            continue
        if line == DONE:
            t.done = True
            current = None
            continue
        if line.startswith(SECTION):
            current = Section(line[len(SECTION):].strip())
            t.sections[current.name] = current
            t.order.append(current.name)
            continue
        if current is None or is_noise(line):
            continue
        current.lines.append(line)
        if line.startswith(EXIT):
            current.status = line[len(EXIT):].strip()
            current = None
    return t


class ExceptionsError(Exception):
    """A malformed line in the exceptions file."""


def read_exceptions(path):
    """{program: [(compiled pattern, reason)]} from an exceptions file."""
    table = {}
    try:
        with open(path, encoding="utf-8") as f:
            numbered = list(enumerate(f, 1))
    except FileNotFoundError:
        return table
    for number, line in numbered:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = split_exception(line)
        if words is None:
            raise ExceptionsError("%s:%d: want <program> <pattern> <reason>" % (path, number))
        try:
            pattern = re.compile(words[1])
        except re.error as e:
            raise ExceptionsError("%s:%d: bad pattern %r: %s" % (path, number, words[1], e))
        table.setdefault(words[0], []).append((pattern, " ".join(words[2:])))
    return table


def split_exception(line):
    """[program, pattern, reason] of an exceptions line, or None. The pattern
    is one word, or quoted with " or ' (no escapes); the reason is the rest."""
    program, _, rest = line.strip().partition(" ")
    rest = rest.lstrip()
    if not program or not rest:
        return None
    if rest[0] in "\"'":
        end = rest.find(rest[0], 1)
        if end < 0:
            return None
        pattern, reason = rest[1:end], rest[end + 1:]
    else:
        pattern, _, reason = rest.partition(" ")
    reason = reason.strip()
    return [program, pattern, reason] if reason else None


def excuse(lines, rules):
    """(kept lines, dropped count) after removing the lines any rule matches."""
    kept = [l for l in lines if not any(p.search(l) for p, _ in rules)]
    return kept, len(lines) - len(kept)


def diff_lines(reference, tested, ref_label, test_label, limit=30):
    """A unified diff (at most limit lines) of two line lists; [] if equal."""
    if reference == tested:
        return []
    out = list(difflib.unified_diff(reference, tested, ref_label, test_label,
                                    n=1, lineterm=""))
    if len(out) > limit:
        out = out[:limit] + ["... (%d more diff lines)" % (len(out) - limit)]
    return out


def compare(name, linux, myrmex, rules):
    """Judge one program: (passed, reason, diff lines, excused count).

    linux, myrmex: Sections or None. rules: the EXCEPTIONS entries of name."""
    if linux is None:
        return False, "no Linux reference output", [], 0
    if myrmex is None:
        return False, "Myrmex never ran it (the run stopped before)", [], 0
    if myrmex.status is None:
        return False, "no exit line on Myrmex: hung or the run died inside it", \
            myrmex.lines[-10:], 0
    ref, n_ref = excuse(linux.lines, rules)
    got, n_got = excuse(myrmex.lines, rules)
    diff = diff_lines(ref, got, "linux/" + name, "myrmex/" + name)
    if diff:
        changed = sum(1 for l in diff if l[:1] in "+-" and l[:3] not in ("+++", "---"))
        return False, "output differs from Linux (%d lines)" % changed, diff, max(n_ref, n_got)
    return True, "", [], max(n_ref, n_got)


def unused_exceptions(table, transcripts):
    """Exceptions whose pattern matches no line of their program in any of the
    transcripts given: worth a note (the difference may be gone)."""
    stale = []
    for program, rules in table.items():
        lines = []
        for t in transcripts:
            if t is not None and program in t.sections:
                lines += t.sections[program].lines
        for pattern, reason in rules:
            if not any(pattern.search(l) for l in lines):
                stale.append("%s %s" % (program, pattern.pattern))
    return stale
