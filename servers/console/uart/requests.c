/*
 * Reads and writes of the console protocol (include/myrmex/console.h), the
 * reads waiting for input, the input path and the one place that replies.
 *
 * A request is checked against the delivery (the kernel's word on the data
 * ICA and its size) before its data is touched. A read that the input does
 * not satisfy yet (line.h: line_can_read) is parked in a FIFO with its data
 * ICA, which this process holds until the reply; input goes to the oldest
 * waiting read first, when a line completes (canonical) or at the end of
 * each burst of bytes the UART held (raw).
 */
#include "server.h"

#include <errno.h>

#define PAGE_SIZE 4096u

struct line_disc console_line;

static struct request readers[CONSOLE_MAX_READERS];   /* FIFO, oldest at readers_first */
static unsigned readers_first, readers_count;

/* ---------------------------------------------------------- replies */

void console_reply(struct request *rq, int64_t status)
{
	myrmex_reply("uart", &rq->d, status);
}

/* ---------------------------------------------------------- checks */

/* The data ICA holds rq->length bytes and is mapped here: 0 (rq->data set)
 * or -errno. It may have come parked (the kernel could not map it at get):
 * attach maps a parked ICA and refuses (-EINVAL) one already attached. */
int64_t request_map_data(struct request *rq)
{
	if (rq->d.ndata < 1)
		return -EINVAL;
	if (rq->length > (uint64_t)rq->d.data_pages[0] * PAGE_SIZE)
		return -EINVAL;
	long r = myrmex_ica_attach(rq->d.data[0]);
	if (r < 0 && r != -EINVAL)
		return r == -EAGAIN ? -ENOMEM : r;
	rq->data = myrmex_ica_addr(rq->d.data[0]);
	return 0;
}

/* ---------------------------------------------------------- handlers */

int64_t do_write(struct request *rq)
{
	int64_t err = request_map_data(rq);
	if (err)
		return err;
	line_write(&console_line, rq->data, rq->length);
	return (int64_t)rq->length;
}

/* The oldest waiting read leaves the FIFO with status. */
static void reader_answer(int64_t status)
{
	struct request *rq = &readers[readers_first];
	readers_first = (readers_first + 1) % CONSOLE_MAX_READERS;
	readers_count--;
	console_reply(rq, status);
}

void readers_serve(void)
{
	while (readers_count > 0) {
		struct request *rq = &readers[readers_first];
		if (!line_can_read(&console_line, (unsigned)rq->length))
			return;
		reader_answer(line_read(&console_line, rq->data, (unsigned)rq->length));
	}
}

void readers_interrupt(void)
{
	while (readers_count > 0)
		reader_answer(-EINTR);
}

/* CONSOLE_CANCEL: the waiting read whose control ICA is arg[0] leaves the
 * FIFO (the others keep their order) and is answered -EINTR. */
int64_t do_cancel(struct request *rq)
{
	uint64_t handle = rq->frame->arg[0];
	for (unsigned i = 0; i < readers_count; i++) {
		struct request *r = &readers[(readers_first + i) % CONSOLE_MAX_READERS];
		if (r->d.handle != handle)
			continue;
		struct request gone = *r;
		for (unsigned j = i; j + 1 < readers_count; j++)
			readers[(readers_first + j) % CONSOLE_MAX_READERS] =
				readers[(readers_first + j + 1) % CONSOLE_MAX_READERS];
		readers_count--;
		console_reply(&gone, -EINTR);
		return 0;
	}
	return -ESRCH;
}

int64_t do_read(struct request *rq)
{
	int64_t err = request_map_data(rq);
	if (err)
		return err;
	if (rq->length == 0)
		return 0;
	if (rq->length > LINE_READY_MAX)
		rq->length = LINE_READY_MAX;   /* never more input; keeps the count an unsigned */
	if (readers_count == CONSOLE_MAX_READERS)
		return -EAGAIN;
	readers[(readers_first + readers_count) % CONSOLE_MAX_READERS] = *rq;
	readers_count++;
	readers_serve();   /* input may be waiting already */
	return CONSOLE_LATER;
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

void console_interrupt(void)
{
	/* The line is edge-triggered: acknowledge first, then empty the UART,
	 * so that a byte arriving after the last LSR read raises a new edge
	 * on an unmasked line instead of being lost. */
	myrmex_dev_irq_ack();
	uart_receive(take_byte);
	readers_serve();
}
