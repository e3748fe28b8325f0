# shell.sh - the shell test of the POSIX suite, run by busybox sh on Linux and
# on Myrmex (run.sh runs it after the programs); its output must equal
# shell.expected. It works in ./shell.scratch and removes it at the end.
# Pipes, redirections, fork/exec chains, variables, loops, exit statuses,
# kill of a background job, trap.

rm -rf shell.scratch
mkdir shell.scratch && cd shell.scratch || exit 1

echo "== pipes"
echo hello big world | wc -w
printf 'cherry\napple\nbanana\n' | sort | head -n 2
printf 'one\ntwo\nthree\nfour\n' | grep o
printf 'a b\nc d\n' | grep -c ' '
echo abc | tr a-z A-Z | cat | cat
seq 1 100 | sort -n -r | head -n 3 | wc -l

echo "== redirection"
echo first > f
echo second >> f
cat f
wc -l < f
cat < f > g
cat g | wc -c
ls missing-file > out 2>&1
echo "ls status $?"
grep -c "missing-file" out
(echo to-stdout; echo to-stderr >&2) 2> err > std
cat std err
{ echo grouped; echo lines; } > grp
cat grp
cat <<END
here document with $((6 * 7)) inside
END
echo "appended" 1>> f
tail -n 1 f

echo "== substitution and subshells"
x=$(echo inner)
echo "command substitution: $x"
y=`echo backquotes`
echo "$y"
n=$(printf 'a\nb\nc\n' | wc -l)
echo "lines: $n"
v=outer
(v=inner; echo "subshell sees $v")
echo "parent keeps $v"
(cd /; pwd)
basename "$(pwd)"
sh -c 'echo "sh -c with args: $0 $1 $2"' zero one two
sh -c 'exit 3'
echo "sh -c exit status $?"
echo "nested: $(echo "$(echo deep)")"

echo "== variables and loops"
name=world
echo "hello $name, ${name}wide, ${#name} letters"
unset name
echo "unset gives [${name}] and default [${name:-fallback}]"
for i in 1 2 3; do printf '%s ' "$i"; done; echo
i=0
while [ $i -lt 5 ]; do i=$((i + 1)); done
echo "while counted to $i"
until [ $i -eq 0 ]; do i=$((i - 1)); done
echo "until counted down to $i"
for w in alpha beta gamma; do
    case $w in
        a*) echo "$w starts with a" ;;
        *a) echo "$w ends with a" ;;
    esac
done
add() { echo $(($1 + $2)); }
echo "function: $(add 19 23)"
set -- p q r
echo "positional: $# $2"
echo "arithmetic: $((7 * 6)) $((100 / 7)) $((100 % 7))"

echo "== exit statuses"
true; echo "true $?"
false; echo "false $?"
! false; echo "! false $?"
(exit 7); echo "subshell exit $?"
true && echo "and-list ran"
false || echo "or-list ran"
false && echo "not printed"
if grep -q second f; then echo "if took grep's status"; fi
test -d /posix && [ -f /posix/run.sh ] && echo "test and [ work"
missing-command-xyz 2>/dev/null; echo "missing command $?"
echo foo | grep -q bar; echo "pipeline status is the last's: $?"

echo "== background jobs and signals"
# The shell reports a job killed by a signal ("Terminated") on its stderr:
# those reports are sent to /dev/null, they are not what is tested.
{
sleep 100 &
pid=$!
kill $pid
wait $pid
echo "killed sleep: status $?"
(exit 4) &
wait $!
echo "background exit status $?"
sleep 100 &
kill -9 $!
wait $!
echo "kill -9: status $?"
} 2>/dev/null
kill -0 $$ && echo "kill -0 of the shell itself works"
trap 'echo "trap: USR1 caught"' USR1
kill -USR1 $$
echo "after the trap"
trap - USR1
sh -c 'trap "echo trap: TERM caught, exiting 5; exit 5" TERM; kill -TERM $$; echo not reached'
echo "sh with a TERM trap: status $?"
sh -c 'trap "echo trap: EXIT runs" EXIT; echo "shell ends"'
{ sh -c 'kill -TERM $$; echo not reached'; } 2>/dev/null
echo "sh killed by TERM: status $?"

echo "== links and attributes (ln, ln -s, chmod, chown, touch, stat)"
mkdir lnk && cd lnk
echo data > a
ln a b && echo "ln: a has $(stat -c %h a) links, b is a: $([ a -ef b ] && echo yes)"
ln -s a s && echo "ln -s: s -> $(readlink s), reads $(cat s)"
[ -L s ] && echo "s is a symbolic link"
ln -s /nowhere dangling && [ -L dangling ] && [ ! -e dangling ] && echo "dangling link made"
chmod 640 a && echo "chmod: $(stat -c %a a)"
chmod u+x,g-r a && echo "chmod symbolic: $(stat -c %a a)"
chown 12:34 a && echo "chown: $(stat -c %u:%g a) (b too: $(stat -c %u:%g b))"
touch newfile && [ -f newfile ] && echo "touch created newfile, size $(stat -c %s newfile)"
touch -t 200109090146.40 newfile && echo "touch -t: mtime $(stat -c %Y newfile)"
stat -c '%n %s %F' a s newfile
rm b s dangling && echo "left:" $(ls)
cd ..
rm -rf lnk

echo "== /dev (ls, ls -l, dd, tty)"
# Linux's /dev holds more than these; the ones Myrmex serves are compared.
ls /dev | grep -E '^(null|zero|full|random|urandom|tty|console|stdin|stdout|stderr|fd)$' | tr '\n' ' '; echo
ls -l /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty | while read mode links u g maj min rest; do
    echo "$mode $maj $min ${rest##* }"
done
dd if=/dev/zero of=ddout bs=4k count=4 2>/dev/null && echo "dd: $(wc -c < ddout) bytes, $(tr -d '\000' < ddout | wc -c) not zero"
echo hello > /dev/full 2>/dev/null || echo "write to /dev/full fails"
echo "head -c 32 /dev/urandom: $(head -c 32 /dev/urandom | wc -c) bytes"
rm ddout
echo "tty: $(tty)"

echo "== /proc (ps, free, uptime, pidof)"
ps > ps.out
grep -q '[s]h /posix/shell.sh' ps.out && echo "ps shows the shell"
head -1 ps.out | grep -q PID && echo "ps header has PID"
echo "free:" $(free | head -1)
echo "free Mem lines: $(free | grep -c '^Mem:')"
echo "uptime load average: $(uptime | grep -c 'load average')"
pidof sh > /dev/null && echo "pidof finds sh"
echo "lines in /proc/self/stat: $(grep -c . /proc/self/stat)"
rm ps.out

echo "== users (whoami, id, su, owners' names)"
echo "whoami: $(whoami)"
echo "id: $(id)"
touch owned
chown guest owned
echo "owned: $(stat -c '%U %G %u' owned)"
echo "su guest: $(su -c id guest)"
mkdir guesthome
chown guest:guest guesthome
su -c 'touch made-by-guest' guest
su -c 'touch guesthome/made-by-guest' guest
echo "made by guest: $(stat -c '%U %G' guesthome/made-by-guest)"
su -c 'cat /posix/run.sh > /dev/null && echo guest reads run.sh' guest
su -c 'echo x > owned && echo guest writes its file' guest
chmod 600 owned
chown root owned
su -c 'cat owned 2>/dev/null || echo guest cannot read root 0600 file' guest
rm -r owned guesthome

cd ..
rm -rf shell.scratch
echo "== done"
