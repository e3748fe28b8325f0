/*
 * The console server on COM1: what its files share. main.c starts it and
 * runs the get() loop; table.c maps an opcode of the console protocol
 * (include/myrmex/console.h) to its handler; requests.c holds reads and
 * writes, the reads waiting for input, the input path and the one place
 * that replies; tty.c the terminal requests (ioctl, poll), the foreground
 * group and the signals it gets; uart.c drives the 16550 through the
 * kernel's port calls; line.c is the line discipline. The server is one
 * thread: nothing needs a lock.
 */
#ifndef CONSOLE_SERVER_H
#define CONSOLE_SERVER_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/console.h>

#include "line.h"

/* A handler's status meaning "the request is parked: the reply comes later"
 * (a read waiting for a line). Never a real status. */
#define CONSOLE_LATER INT64_MIN

/* One request taken by get(). The delivery is the kernel's trusted account
 * (opcode, data ICAs and their sizes); the frame is the one at d.frame,
 * wherever it sits in the control ICA (the file manager's forwards arrive
 * as a second stage); its arguments are copied once, on arrival, because a
 * caller's other threads may still write the control ICA. */
struct request {
	struct myrmex_delivery d;
	struct myrmex_frame *frame;
	uint64_t length;    /* arg[1]: bytes to write, most bytes to read, or the
	                       ioctl request (then the structure's size) */
	uint64_t value;     /* arg[2]: an ioctl's integer argument */
	char *data;         /* the data ICA, mapped (set by request_map_data) */
};

typedef int64_t (*console_handler)(struct request *rq);

/* table.c: the handler of opcode, or NULL (the caller replies -ENOSYS). */
console_handler table_lookup(uint32_t opcode);

/* Handlers (a status, or CONSOLE_LATER): requests.c and tty.c. */
int64_t do_write(struct request *rq);
int64_t do_read(struct request *rq);
int64_t do_ioctl(struct request *rq);
int64_t do_poll(struct request *rq);
int64_t do_cancel(struct request *rq);

/* requests.c: checks that the data ICA holds rq->length bytes and maps it
 * (rq->data): 0 or -errno. */
int64_t request_map_data(struct request *rq);

/* requests.c: writes status (and the data ICA received) into the request's
 * frame and returns it with ret(). The one reply site. */
void console_reply(struct request *rq, int64_t status);

/* requests.c: the console's input, and the interrupt that brings it:
 * acknowledge, take every byte the UART holds, answer waiting reads. */
extern struct line_disc console_line;
void console_input_init(void);
void console_interrupt(void);
/* requests.c: answers the waiting reads that the input now satisfies
 * (after the settings or the input changed). */
void readers_serve(void);
/* requests.c: answers every waiting read with -EINTR. */
void readers_interrupt(void);

/* tty.c: a typed signal character's event: the signal to the foreground
 * group (if one is set), then -EINTR to every waiting read. */
void tty_signal(enum line_event event);

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
