/*
 * The console protocol's handlers (include/myrmex/console.h), the reads
 * waiting for a line, the input path and the one place that replies.
 *
 * A request is checked against the delivery (the kernel's word on the data
 * ICA and its size) before its data is touched. A read that finds no
 * complete line is parked in a FIFO with its data ICA, which this process
 * holds until the reply; each completed line (or the rest of one) goes to
 * the oldest waiting read.
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
static int64_t check_data(struct request *rq)
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
	int64_t err = check_data(rq);
	if (err)
		return err;
	uart_write(rq->data, rq->length);
	return (int64_t)rq->length;
}

/* Answers waiting reads, oldest first, while completed input waits. */
static void serve_readers(void)
{
	while (readers_count > 0 && line_has_input(&console_line)) {
		struct request *rq = &readers[readers_first];
		unsigned n = line_take(&console_line, rq->data, (unsigned)rq->length);
		readers_first = (readers_first + 1) % CONSOLE_MAX_READERS;
		readers_count--;
		console_reply(rq, n);
	}
}

int64_t do_read(struct request *rq)
{
	int64_t err = check_data(rq);
	if (err)
		return err;
	if (rq->length == 0)
		return 0;
	if (rq->length > LINE_READY_MAX)
		rq->length = LINE_READY_MAX;   /* no line is longer; keeps the count an unsigned */
	if (readers_count == CONSOLE_MAX_READERS)
		return -EAGAIN;
	readers[(readers_first + readers_count) % CONSOLE_MAX_READERS] = *rq;
	readers_count++;
	serve_readers();   /* input may be waiting already */
	return CONSOLE_LATER;
}

/* ---------------------------------------------------------- input */

static void echo_to_uart(const char *s, unsigned n, void *ctx)
{
	(void)ctx;
	uart_write(s, n);
}

static void take_byte(uint8_t c)
{
	line_input(&console_line, c);
}

void console_input_init(void)
{
	line_init(&console_line, echo_to_uart, NULL);
	uart_receive(take_byte);   /* what was typed before the receive interrupt was on */
}

void console_interrupt(void)
{
	/* The line is edge-triggered: acknowledge first, then empty the UART,
	 * so that a byte arriving after the last LSR read raises a new edge
	 * on an unmasked line instead of being lost. */
	myrmex_dev_irq_ack();
	uart_receive(take_byte);
	serve_readers();
}
