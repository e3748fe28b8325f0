/*
 * Error numbers, the Linux x86-64 values, because the kernel speaks the Linux
 * system-call ABI: a system call returns -E... on failure.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define ENXIO    6
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD  10
#define EAGAIN  11
#define ENOMEM  12
#define EFAULT  14
#define EACCES  13
#define EBUSY   16
#define EEXIST  17
#define EXDEV   18
#define ENODEV  19
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22
#define EMFILE  24
#define EPIPE   32
#define ENOTTY  25
#define ESPIPE  29
#define EDOM    33
#define ERANGE  34
#define ENAMETOOLONG 36
#define ENOSYS  38
#define EMSGSIZE 90
#define ENOPROTOOPT 92
#define EPROTONOSUPPORT 93
#define ESOCKTNOSUPPORT 94
#define EOPNOTSUPP 95
#define EAFNOSUPPORT 97
#define ETIMEDOUT 110
#define ECANCELED 125

#endif
