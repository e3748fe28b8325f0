# run.sh - the runner of the POSIX conformance suite, run by busybox sh on
# Linux and on Myrmex alike (tools/posix_suite.py boots both):
#
#     sh /posix/run.sh [name ...]      (default: every program, then the shell test)
#
# It works in /tmp (writable; each program makes and removes its own scratch
# directory there) and prints, for each program in PROGRAMS order,
#     === <name>
#     <what the program printed>
#     --- exit <status>
# then the same for the shell test (shell.sh, compared with shell.expected by
# the host), and POSIX-SUITE-DONE at the end. The host diffs each program's
# section between the two systems (docs/testing.md). A new program is a
# tests/posix/<name>.c plus its name here.

PROGRAMS="fork execve wait exit ids pgrp sigaction sigmask sigchld sigpipe alarm
brk mmap mmap_file shmanon threads file_io dir fd path tty poll time uname
links attr iov calls devfiles procself stopcont orphan unlinkopen epoll
eventfd timerfd signalfd statx rmcwd users setid sigwait waitid cputime settime mremap
procmaps execargs tostop sockets nice pipe_signal packet sockopts procowner statfs textbusy eintr_calls locks
limits bad_pointer bad_fd bad_flags fork_bomb mem_exhaust"

export PATH=/bin
export HOME=/tmp
umask 022
cd /tmp || { echo "run.sh: no /tmp"; exit 1; }

if [ $# -gt 0 ]; then
    list="$*"
else
    list="$PROGRAMS shell applets"
fi
echo "POSIX-SUITE-START $(echo $list | wc -w)"
for name in $list; do
    echo "=== $name"
    if [ "$name" = shell ]; then
        sh /posix/shell.sh
    elif [ "$name" = applets ]; then
        sh /posix/applets.sh
    else
        /posix/$name
    fi
    echo "--- exit $?"
done
echo "POSIX-SUITE-DONE"
