/*
 * The console server on COM1: what its files share. main.c starts it and
 * hands it to the server library (lib/libmyrmex/server.h); table.c is the
 * server for the library: opcode of the console protocol
 * (include/myrmex/console.h) to handler, and the interrupt callback;
 * requests.c holds reads and writes, the reads waiting for input and the
 * input path; tty.c the terminal requests (ioctl, poll), the foreground
 * group and the signals it gets; uart.c drives the 16550 through the
 * kernel's port calls; line.c is the line discipline. The server is one
 * thread: nothing needs a lock.
 */
#ifndef CONSOLE_UART_H
#define CONSOLE_UART_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/console.h>
#include <server.h>

#include "line.h"

/* table.c: the server for server_run (operations, interrupt callback). */
extern const struct server console_server;

/* Handlers (a status, or SERVER_LATER): requests.c and tty.c. */
int64_t do_write(struct server_request *rq);
int64_t do_read(struct server_request *rq);
int64_t do_ioctl(struct server_request *rq);
int64_t do_poll(struct server_request *rq);
/* After input: a readiness notice to the kernel when a poll found nothing
 * to read since the last one and there is now (MYRMEX_SYS_POLL_NOTICE). */
void tty_notice_input(void);
int64_t do_cancel(struct server_request *rq);

/* requests.c: the request's data ICA, checked to hold length bytes and
 * mapped: its address, or NULL with *err set (-EINVAL, -ENOMEM). */
char *request_data(struct server_request *rq, uint64_t length, int64_t *err);

/* requests.c: the console's input, and the interrupt that brings it:
 * acknowledge, take every byte the UART holds, answer waiting reads. */
extern struct line_disc console_line;
void console_input_init(void);
void console_interrupt(uint32_t lines);
/* requests.c: answers the waiting reads that the input now satisfies
 * (after the settings or the input changed). */
void readers_serve(void);
/* requests.c: answers every waiting read with -EINTR. */
void readers_interrupt(void);

/* tty.c: a typed signal character's event: the signal to the foreground
 * group (if one is set), then -EINTR to every waiting read. */
void tty_signal(enum line_event event);
/* A read by client (a pid) from outside the foreground group (a
 * background job): SIGTTIN to its group, decided by the kernel
 * (tty_signal), which runs the read again once the stopped job continues. */
int64_t tty_background_read(int32_t client);
/* The same for a write with TOSTOP set (SIGTTOU; a writer that ignores or
 * blocks it writes). Both return 0 (go on), -EINTR (the job was stopped:
 * the call runs again once it continues in front) or -EIO (an orphaned
 * group; a reader that ignores or blocks SIGTTIN), as Linux. */
int64_t tty_background_write(int32_t client);

/* uart.c: sets COM1 up for this driver (receive interrupts on, through
 * OUT2; the kernel's framing untouched). 0 or -errno. */
int uart_start(void);
/* Sends n bytes as they are, polling the transmitter. */
void uart_write(const char *s, uint64_t n);
/* Takes every byte received: take(c) for each, in order. */
void uart_receive(void (*take)(uint8_t c));

/* main.c: "uart: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void console_log(const char *fmt, ...);

#endif
