#!/bin/sh
# setup.sh - check (and as root, install) the host tools Myrmex needs to build,
# test and benchmark: QEMU, musl-gcc, e2fsprogs, Python 3, GCC/binutils/make,
# Debian's static busybox (the POSIX suite's shell and the Linux guests' /init),
# autoconf, automake and autopoint (GNU make for the fsconf benchmark is built
# from Debian's source, which has no configure script: tools/build_make.py),
# GCC's AddressSanitizer/UBSan runtime for the host unit tests, and GCC's
# 32-bit support (gcc-multilib) for the 32-bit port check (make port-check),
# and Debian's SH-4 cross compiler, its plugin headers (with the host g++
# they build the plugin that cures its optimizer, tools/gcc-sh4) and
# qemu-system-sh4 for the SH-4 port (make ARCH=sh4, docs/sh4.md; its C
# library, musl, is built from Debian's source with that compiler and
# dpkg-source: tools/build_musl_sh4.py), and
# matplotlib (python3-matplotlib) for the benchmark plots.
# Usage: scripts/setup.sh   (exit 0: everything present; 1: something missing)
set -eu

# command -> Debian package
NEEDED="
qemu-system-x86_64:qemu-system-x86
musl-gcc:musl-tools
mke2fs:e2fsprogs
busybox:busybox-static
e2fsck:e2fsprogs
debugfs:e2fsprogs
python3:python3
gcc:build-essential
g++:build-essential
make:build-essential
ld:binutils
objcopy:binutils
nm:binutils
ar:binutils
dpkg-source:dpkg-dev
autoreconf:autoconf
automake:automake
autopoint:autopoint
sh4-linux-gnu-gcc:gcc-sh4-linux-gnu
qemu-system-sh4:qemu-system-misc
"

# e2fsprogs lives in /sbin, which a non-root PATH may lack.
have() {
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}

# Print the packages (once each) whose commands are missing.
missing_packages() {
    pkgs=""
    for pair in $NEEDED; do
        cmd=${pair%%:*}
        pkg=${pair#*:}
        if ! have "$cmd"; then
            case " $pkgs " in
                *" $pkg "*) ;;
                *) pkgs="$pkgs $pkg" ;;
            esac
        fi
    done
    # make bench draws its plots with matplotlib (tools/plot_wsc.py), from
    # Debian's python3-matplotlib: /usr/bin/python3 must import it.
    if ! /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1; then
        case " $pkgs " in
            *" python3-matplotlib "*) ;;
            *) pkgs="$pkgs python3-matplotlib" ;;
        esac
    fi
    # make port-check links the kernel for 32 bits: libgcc for -m32.
    if ! have gcc || [ ! -f "$(gcc -m32 -print-libgcc-file-name 2>/dev/null)" ]; then
        case " $pkgs " in
            *" gcc-multilib "*) ;;
            *) pkgs="$pkgs gcc-multilib" ;;
        esac
    fi
    # make ARCH=sh4 builds a GCC plugin (tools/gcc-sh4) against the SH-4
    # compiler's plugin headers (the package needs the compiler, so it goes
    # in with it on a first install).
    if ! have sh4-linux-gnu-gcc ||
        [ ! -f "$(sh4-linux-gnu-gcc -print-file-name=plugin)/include/gcc-plugin.h" ]; then
        case " $pkgs " in
            *" gcc-12-plugin-dev-sh4-linux-gnu "*) ;;
            *) pkgs="$pkgs gcc-12-plugin-dev-sh4-linux-gnu" ;;
        esac
    fi
    echo "$pkgs" | sed 's/^ //'
}

# Can gcc build and run a program with -fsanitize=address,undefined?
check_sanitizers() {
    have gcc || return 0
    dir=$(mktemp -d)
    printf 'int main(void) { int a[2] = {1, 2}; return a[1] - 2; }\n' >"$dir/t.c"
    ok=0
    if gcc -fsanitize=address,undefined -o "$dir/t" "$dir/t.c" >"$dir/log" 2>&1 &&
        "$dir/t" >>"$dir/log" 2>&1; then
        ok=1
    fi
    if [ "$ok" -eq 0 ]; then
        echo "setup: gcc cannot build/run with -fsanitize=address,undefined:" >&2
        sed 's/^/setup:   /' "$dir/log" >&2
        echo "setup: install GCC's sanitizer runtimes (on Debian they come with gcc:" \
            "libasan*/libubsan*, pulled in by libgcc-<version>-dev)" >&2
    fi
    rm -rf "$dir"
    return 0
}

pkgs=$(missing_packages)
if [ -z "$pkgs" ]; then
    echo "setup: all host tools present"
    check_sanitizers
    exit 0
fi

echo "setup: missing host packages: $pkgs"
uid=$(id -u 2>/dev/null || echo unknown)
if [ "$uid" != 0 ]; then
    echo "setup: run this as root, or:"
    echo "sudo apt-get install -y $pkgs"
    exit 1
fi

if ! apt-get update; then
    echo "setup: error: 'apt-get update' failed" >&2
    exit 1
fi
# shellcheck disable=SC2086  # $pkgs is a word list on purpose
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs; then
    echo "setup: error: 'apt-get install $pkgs' failed" >&2
    exit 1
fi

still=$(missing_packages)
if [ -n "$still" ]; then
    echo "setup: error: still missing after install: $still" >&2
    exit 1
fi
echo "setup: installed: $pkgs"
check_sanitizers
exit 0
