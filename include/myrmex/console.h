/*
 * The console protocol: what a program (or the file manager, for
 * /dev/console) sends to the console server and what it gets back. The
 * server today is servers/console/uart, the driver of the serial port COM1.
 *
 * A call is one frame (include/myrmex/ica.h) with target
 * MYRMEX_COREID_CONSOLE, an opcode below, arg[1] a byte count and one data
 * ICA (data[0]) that carries the bytes and always comes back with the
 * result. arg[0] is ignored: the file manager puts the descriptor there when
 * it passes a call on (a second stage, usually with direct return).
 *
 *   CONSOLE_WRITE  the first arg[1] bytes of the data ICA go out on the
 *                  console, '\n' as "\r\n". status: bytes written (arg[1]).
 *   CONSOLE_READ   the data ICA receives at most arg[1] bytes of one line of
 *                  input, '\n' included. Input is cooked: typed characters
 *                  are echoed; backspace or DEL erases one character (a
 *                  whole UTF-8 sequence), Ctrl-U the whole line; CR or LF
 *                  ends the line, which is returned with '\n'; other control
 *                  characters and escape sequences (arrow keys) are dropped.
 *                  A line longer than arg[1] comes in several reads. The
 *                  call waits until a line is complete; several reads may
 *                  wait at once and are answered in the order they came.
 *                  status: bytes (arg[1] 0 gives 0 at once).
 *
 * Errors (status < 0): -EINVAL no data ICA, or arg[1] larger than the data
 * ICA; -EAGAIN too many reads waiting already (CONSOLE_MAX_READERS); -ENOSYS
 * an unknown opcode; -ENOMEM the data ICA could not be mapped. The kernel
 * adds -EPIPE if the server dies.
 */
#ifndef MYRMEX_CONSOLE_H
#define MYRMEX_CONSOLE_H

#include <stdint.h>

/* The same value as in include/myrmex/fs.h, which may be included too. */
#ifndef MYRMEX_COREID_CONSOLE
#define MYRMEX_COREID_CONSOLE 4u
#endif

#define CONSOLE_WRITE 1u
#define CONSOLE_READ  2u
#define CONSOLE_IOCTL 3u   /* arg[1] request, arg[2] integer argument; data ICA in/out */
#define CONSOLE_POLL  4u   /* status: POLLIN (1) if a read would not wait | POLLOUT (4) */

#define CONSOLE_MAX_READERS 32u   /* reads that may wait at once */

#endif
