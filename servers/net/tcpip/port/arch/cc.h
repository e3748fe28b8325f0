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

/* lwIP's protocol headers as packed structures: with no Ethernet padding
 * (ETH_PAD_SIZE 0) the IPv4 header of a frame lies 2 bytes off a 4-byte
 * boundary, and a CPU that faults on misaligned loads (the SH-4) must read
 * its addresses byte by byte; GCC does that for packed members only. */
#define PACK_STRUCT_STRUCT __attribute__((packed))

void tcpip_lwip_log(const char *fmt, ...);
void tcpip_lwip_assert(const char *msg, const char *file, int line);

#define LWIP_PLATFORM_DIAG(x) do { tcpip_lwip_log x; } while (0)
#define LWIP_PLATFORM_ASSERT(x) tcpip_lwip_assert((x), __FILE__, __LINE__)

#endif
