# applets.sh - the busybox applets a person uses at the shell, run by busybox
# sh on Linux and on Myrmex (run.sh's "applets", after the shell test); the
# host diffs the two outputs (tools/posix_suite.py), as for the programs.
# It works in /tmp/applets.scratch and removes it at the end.
#
# What may differ by design is normalised here, each where it is done:
#   - numbers that measure the machine or the moment (memory, disk use,
#     pids, times, load) become N: `num`;
#   - inode numbers (each system's allocator picks its own);
#   - the system's own processes (Linux's init script and kernel threads,
#     Myrmex's servers) are left out: only this run's processes are listed;
#   - the name of the root device (Linux's initramfs mounts /dev/vda; a
#     system whose kernel mounts its root itself, as Myrmex's file manager
#     does, shows /dev/root): ROOTDEV.

num() { sed 's/[0-9][0-9]*/N/g' | tr -s ' '; }
rootdev() { sed 's|^/dev/[a-z]*|ROOTDEV|'; }
# ls -l without the date (a device node's time is its boot's on Linux).
nodate() { awk '{ print $1, $2, $3, $4, $5, $6, $NF }'; }
# stat's three time lines without the time itself, and the inode number
# without its value (each system's allocator picks its own free inode).
notime() { sed 's/^\(Access\|Modify\|Change\): [0-9].*/\1: TIME/; s/Inode: [0-9]* */Inode: N /'; }

rm -rf /tmp/applets.scratch
mkdir /tmp/applets.scratch && cd /tmp/applets.scratch || exit 1

echo "== ps"
# Into a file first: the members of a pipeline may not have exec'd yet.
ps > ps.out
awk 'NR == 1 || /posix/' ps.out | num
ps -o pid,ppid,pgid,user,group,stat,comm,args > ps.out
awk 'NR == 1 || /posix/' ps.out | num

echo "== top"
top -n1 -b > top.out
sed -n 1,3p top.out | num
awk '/PID/ { print }' top.out | num
awk '/posix|top -n1/' top.out | num | sort

echo "== free"
free | num

echo "== df"
df | rootdev | num
df /tmp | rootdev | num

echo "== mount"
mount | rootdev | num
grep -c . /proc/mounts

echo "== uptime"
uptime | sed 's/^.* up .*,  *\([0-9][0-9]* users*\),/up T, \1,/' | num

echo "== users"
id
id -u
id -g
id -un
whoami
tty
su guest -c 'id; whoami; id -G'
su guest -c 'ps -o user,group,comm,args' | awk '$1 == "guest"' | sort
su guest -c 'touch made-by-guest' 2>&1 | sed 's/^[^:]*: //'
su guest -c 'touch /tmp/applets.scratch/../guest-file; ls -ln /tmp/guest-file' | nodate
rm -f /tmp/guest-file

echo "== links"
echo hello > f
ln f hard
ln -s f soft
ln -s /no/such/place dangling
ln f hard 2>&1 | sed 's/^[^:]*: //'
ls -l f hard soft dangling | nodate
readlink soft
cat soft hard
rm f
cat hard
cat soft 2>&1 | sed 's/^[^:]*: //'
ls -lL hard | nodate

echo "== chmod, chown, touch"
touch new
ls -l new | nodate
chmod 750 new
chmod u-w,o+r new
ls -l new | nodate
chmod 4755 new
ls -l new | nodate
chown 1000:1000 new
ls -l new | nodate
ls -ln new | nodate
chown guest new
chgrp root new 2>/dev/null || chown :root new
ls -l new | nodate
touch -d '2020-01-02 03:04:05' new
stat -c '%y %x' new
touch -c missing
ls missing 2>&1 | sed 's/^[^:]*: //'

echo "== stat"
stat hard | notime
stat -c '%n %a %A %U %G %u %g %s %h %F' hard soft new . /dev/null /dev/zero /dev/tty
stat -L -c '%n %F %s' soft 2>&1 | sed 's/^[^:]*: //'
stat -c '%n %F %a %U' /proc/self /proc/1 /proc/self/status /proc/self/fd
stat -c '%n %t %T' /dev/null /dev/zero /dev/full /dev/urandom /dev/console
stat -c '%d %D' hard
stat -f -c '%T %b %f' / | num
stat -f -c '%T' /dev /proc

echo "== dd"
dd if=/dev/zero of=z bs=1k count=16 2>&1
dd if=z of=/dev/null bs=4k 2>&1
dd if=/dev/urandom of=r bs=512 count=3 2>&1
dd if=z of=part bs=1000 skip=3 count=2 2>&1
ls -l z r part | nodate
echo abcdefgh | dd bs=2 skip=1 count=2 2>/dev/null
echo
dd if=/dev/full of=full bs=1k count=1 2>&1
dd if=z of=/dev/full bs=1k count=1 2>&1 | sed 's/^[^:]*: //'

cd /tmp && rm -rf /tmp/applets.scratch
