/*
 * The console protocol: what the console server (servers/console/uart)
 * serves at MYRMEX_COREID_CONSOLE. (Placeholder written by the file manager's
 * author with the agreed opcodes; the console server's author completes it.)
 *
 *   CONSOLE_WRITE  arg[1] byte length, data[0] the bytes. status: bytes.
 *   CONSOLE_READ   arg[1] most bytes wanted, data[0] receives one line.
 */
#ifndef MYRMEX_CONSOLE_H
#define MYRMEX_CONSOLE_H

#include <myrmex/fs.h>

#define CONSOLE_WRITE 1u
#define CONSOLE_READ  2u

#endif
