/*
 * Reads and writes of the console protocol (include/myrmex/console.h), the
 * reads waiting for input and the input path.
 *
 * A request is checked against the delivery (the kernel's word on the data
 * ICA and its size) before its data is touched. A read that the input does
 * not satisfy yet (line.h: line_can_read) is parked in a FIFO with its data
 * ICA, which this process holds until the reply; input goes to the oldest
 * waiting read first, when a line completes (canonical) or at the end of
 * each burst of bytes the UART held (raw).
 */
#include "uart.h"

#include <errno.h>

#define PAGE_SIZE 4096u

struct line_disc console_line;

/* A read waiting for input: its request, kept until the reply. */
struct reader {
	struct server_request rq;
	unsigned length;    /* most bytes to take, at most LINE_READY_MAX */
	char *data;         /* the data ICA, mapped */
};

static struct reader readers[CONSOLE_MAX_READERS];   /* FIFO, oldest at readers_first */
static unsigned readers_first, readers_count;

/* ---------------------------------------------------------- checks */

/* The data ICA holds length bytes and is mapped here (the library attaches
 * one that came parked). */
char *request_data(struct server_request *rq, uint64_t length, int64_t *err)
{
	uint64_t size;
	char *data = server_data(rq, 0, &size);
	if (!data || length > size) {
		*err = rq->d.ndata >= 1 && !data ? -ENOMEM : -EINVAL;
		return NULL;
	}
	return data;
}

/* ---------------------------------------------------------- handlers */

int64_t do_write(struct server_request *rq)
{
	uint64_t length = SERVER_IN(rq, struct console_io_args)->length;
	int64_t err;
	char *data = request_data(rq, length, &err);
	if (!data)
		return err;
	int64_t job = length > 0 ? tty_background_write(rq->d.client) : 0;
	if (job)
		return job;   /* a background job with TOSTOP: stopped by SIGTTOU */
	line_write(&console_line, data, length);
	return (int64_t)length;
}

/* The oldest waiting read leaves the FIFO with status. */
static void reader_answer(int64_t status)
{
	struct reader *r = &readers[readers_first];
	readers_first = (readers_first + 1) % CONSOLE_MAX_READERS;
	readers_count--;
	server_reply_later(console_server.name, &r->rq, status);
}

void readers_serve(void)
{
	while (readers_count > 0) {
		struct reader *r = &readers[readers_first];
		if (!line_can_read(&console_line, r->length))
			return;
		reader_answer(line_read(&console_line, r->data, r->length));
	}
}

void readers_interrupt(void)
{
	while (readers_count > 0)
		reader_answer(-EINTR);
}

/* CONSOLE_CANCEL: the waiting read whose control ICA is arg[0] leaves the
 * FIFO (the others keep their order) and is answered -EINTR. Only a read of
 * the same client (the kernel's word in the delivery, whoever forwarded
 * it) can be cancelled: -ESRCH for anyone else's. */
int64_t do_cancel(struct server_request *rq)
{
	uint64_t handle = SERVER_IN(rq, struct console_cancel_args)->handle;
	for (unsigned i = 0; i < readers_count; i++) {
		struct reader *r = &readers[(readers_first + i) % CONSOLE_MAX_READERS];
		if (r->rq.d.handle != handle || r->rq.d.client != rq->d.client)
			continue;
		struct reader gone = *r;
		for (unsigned j = i; j + 1 < readers_count; j++)
			readers[(readers_first + j) % CONSOLE_MAX_READERS] =
				readers[(readers_first + j + 1) % CONSOLE_MAX_READERS];
		readers_count--;
		server_reply_later(console_server.name, &gone.rq, -EINTR);
		return 0;
	}
	return -ESRCH;
}

int64_t do_read(struct server_request *rq)
{
	uint64_t length = SERVER_IN(rq, struct console_io_args)->length;
	int64_t err;
	char *data = request_data(rq, length, &err);
	if (!data)
		return err;
	if (length == 0)
		return 0;
	if (length > LINE_READY_MAX)
		length = LINE_READY_MAX;   /* never more input; keeps the count an unsigned */
	if (readers_count == CONSOLE_MAX_READERS)
		return -EAGAIN;
	int64_t job = tty_background_read(rq->d.client);
	if (job)
		return job;   /* a background job: stopped by SIGTTIN, reads again in front */
	struct reader *r = &readers[(readers_first + readers_count) % CONSOLE_MAX_READERS];
	r->rq = *rq;
	r->length = (unsigned)length;
	r->data = data;
	readers_count++;
	readers_serve();   /* input may be waiting already */
	return SERVER_LATER;
}

/* ---------------------------------------------------------- input */

static void out_to_uart(const char *s, unsigned n, void *ctx)
{
	(void)ctx;
	uart_write(s, n);
}

/* A line completed goes to a waiting read at once (before a Ctrl-C later
 * in the same burst can discard it); raw bytes wait for the end of the
 * burst, so that an escape sequence that came whole is read whole. */
static void take_byte(uint8_t c)
{
	enum line_event event = line_input(&console_line, c);
	if (event != LINE_EVENT_NONE)
		tty_signal(event);
	else if (console_line.tio.c_lflag & CONSOLE_ICANON)
		readers_serve();
}

void console_input_init(void)
{
	line_init(&console_line, out_to_uart, NULL);
	uart_receive(take_byte);   /* what was typed before the receive interrupt was on */
}

void console_interrupt(uint32_t lines)
{
	(void)lines;   /* one line: the receive interrupt */
	/* The line is edge-triggered: acknowledge first, then empty the UART,
	 * so that a byte arriving after the last LSR read raises a new edge
	 * on an unmasked line instead of being lost. */
	myrmex_dev_irq_ack();
	uart_receive(take_byte);
	readers_serve();
	tty_notice_input();
}
