/*
 * lwIP's compiler and platform description for the TCP/IP server: musl's
 * headers give the types and errno; lwIP's diagnostics go to the server's
 * log line (tcpip_lwip_log in servers/net/tcpip/lwip_port.c).
 */
#ifndef MYRMEX_LWIP_CC_H
#define MYRMEX_LWIP_CC_H

#include <stdint.h>
#include <stdlib.h>

#define LWIP_NO_STDINT_H  0
#define LWIP_NO_INTTYPES_H 0
#define BYTE_ORDER LITTLE_ENDIAN

void tcpip_lwip_log(const char *fmt, ...);
void tcpip_lwip_assert(const char *msg, const char *file, int line);

#define LWIP_PLATFORM_DIAG(x) do { tcpip_lwip_log x; } while (0)
#define LWIP_PLATFORM_ASSERT(x) tcpip_lwip_assert((x), __FILE__, __LINE__)

#endif
