/*
 * The RTL8139 itself, through its memory-mapped registers (BAR 1): reset,
 * the MAC from IDR0-5, link state from the PHY's basic mode status
 * register, the four transmit slots, the receive ring and the interrupt.
 *
 * Transmit: no copy. Each of the four slots (TSAD0-3, TSD0-3) takes the
 * physical address of the frame in the caller's data ICA (an ICA is
 * physically contiguous; the device wants a 32-bit address) and its
 * length; the device reads it by DMA and sets TOK (or TUN, TABT) in the
 * slot's TSD, raising TOK (or TER). Slots are used in order and completed
 * in order; the request is answered then, its ICA going back with it. Sends
 * beyond the four wait in the library's FIFO (NETDRV_TX_PENDING_MAX).
 *
 * Receive: one copy. The device writes every frame into a ring in an ICA
 * of this driver, behind a 4-byte header (status, length including the
 * 4-byte CRC), at a 4-byte aligned offset. The ring is 64 KiB, the frames
 * wrapping at its end (WRAP off, the only mode a 64 KiB ring has), or,
 * with ICAs in reserved TLB entries (nic_init's small, the argument
 * ica=tlb), 8 KiB with WRAP on: a frame that reaches the end goes on past
 * it (the data sheet asks for 1.5 KiB there), whole, and the next starts
 * at its end's offset from the ring's start; 3 pages instead of 17. The
 * driver reads frames while CR.BUFE is
 * clear, hands each good one to copy_frame (which copies it out) and moves
 * CAPR to the next frame's offset minus 16, the register's well-known
 * bias. When no receive waits and the queue of copied frames is full, the
 * frames stay in the ring until a receive makes room (the ring is the
 * queue's overflow; when it is full the device drops, counted as missed). A header the device cannot have written (ISE, no ROK, a length
 * beyond the ring) resets the device: the ring starts again at 0.
 */
#include "driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Registers (offsets in BAR 1). */
#define REG_IDR0    0x00
#define REG_TSD0    0x10   /* 4 x 32 bits */
#define REG_TSAD0   0x20   /* 4 x 32 bits */
#define REG_RBSTART 0x30
#define REG_CR      0x37
#define REG_CAPR    0x38
#define REG_CBR     0x3a
#define REG_IMR     0x3c
#define REG_ISR     0x3e
#define REG_TCR     0x40
#define REG_RCR     0x44
#define REG_MPC     0x4c
#define REG_CONFIG1 0x52
#define REG_BMSR    0x64

#define CR_RST  0x10
#define CR_RE   0x08
#define CR_TE   0x04
#define CR_BUFE 0x01

/* ISR and IMR bits. */
#define INT_ROK      0x0001
#define INT_RER      0x0002
#define INT_TOK      0x0004
#define INT_TER      0x0008
#define INT_RXOVW    0x0010   /* receive ring overflow */
#define INT_LINKCHG  0x0020   /* packet underrun / link change */
#define INT_FOVW     0x0040   /* receive FIFO overflow */
#define INT_TIMEOUT  0x4000
#define INT_SERR     0x8000
#define INT_MASK (INT_ROK | INT_RER | INT_TOK | INT_TER | INT_RXOVW | INT_LINKCHG | INT_FOVW | \
                  INT_SERR)

#define TSD_OWN  0x00002000u   /* the device is done reading the frame */
#define TSD_TUN  0x00004000u
#define TSD_TOK  0x00008000u
#define TSD_TABT 0x40000000u
#define TSD_ERTXTH(n) ((uint32_t)(n) << 16)   /* early transmit threshold, 32-byte units */

/* RCR: every frame (as virtio_net: promiscuous), the ring's length
 * (RBLEN: 8 KiB << n) and wrap mode, unlimited DMA burst, no receive FIFO
 * threshold. */
#define RCR_ACCEPT_ALL 0x0000000fu   /* AAP, APM, AM, AB */
#define RCR_WRAP (1u << 7)           /* go on past the ring's end (not at 64 KiB) */
#define RCR_MXDMA_UNLIMITED (7u << 8)
#define RCR_RBLEN_8K (0u << 11)
#define RCR_RBLEN_64K (3u << 11)
#define RCR_RXFTH_NONE (7u << 13)
#define RCR_COMMON (RCR_ACCEPT_ALL | RCR_MXDMA_UNLIMITED | RCR_RXFTH_NONE)
#define TCR_VALUE ((3u << 24) | (6u << 8))   /* standard inter-frame gap, 1024-byte DMA bursts */

#define BMSR_LINK 0x0004

/* The receive packet header's status half. */
#define RX_ROK 0x0001
#define RX_ISE 0x0020
#define RX_CRC_LEN 4u

/* By default the largest ring: frames arriving while the driver waits
 * for the CPU pile up in it (the host peer's fuzz burst is 41 KB), and a
 * full ring drops them (counted: rx_missed, rx_dropped). The small one
 * holds five full frames; TCP sends again what it drops. */
#define RX_RING_BIG 65536u
#define RX_RING_SMALL 8192u
/* The ICA behind the ring: the ring, the 16 bytes the data sheet adds to
 * each length, and with WRAP the room for the rest of a frame that runs
 * past the end (a whole one, 1.5 KiB), in whole pages: 17 and 3. */
#define RX_PAD 16u
#define RX_WRAP_ROOM 1536u
#define CAPR_BIAS 16u
#define TX_SLOTS 4
#define RESET_POLLS 1000

static struct myrmex_pci_info device;
static volatile uint8_t *regs;
static uint64_t mac;
static uint32_t ring_ica;
static uint8_t *ring;
static uint32_t ring_phys;
static uint32_t ring_bytes;      /* RX_RING_BIG or RX_RING_SMALL */
static uint32_t ring_wrap_at;    /* where a frame's bytes wrap to the start:
                                    ring_bytes, or past the ICA's end (WRAP) */
static uint32_t rcr_value;
static uint32_t rx_offset;       /* where the next frame's header is */

static struct netdrv_send tx_slot[TX_SLOTS];
static unsigned tx_head, tx_tail, tx_busy;   /* next slot to fill, oldest in flight, in flight */

static uint8_t r8(unsigned r) { return regs[r]; }
static uint16_t r16(unsigned r) { return *(volatile uint16_t *)(regs + r); }
static uint32_t r32(unsigned r) { return *(volatile uint32_t *)(regs + r); }
static void w8(unsigned r, uint8_t v) { regs[r] = v; }
static void w16(unsigned r, uint16_t v) { *(volatile uint16_t *)(regs + r) = v; }
static void w32(unsigned r, uint32_t v) { *(volatile uint32_t *)(regs + r) = v; }

/* ---------------------------------------------------------- start-up */

/* The receiver on the ring from its start, CAPR one bias before offset
 * 0 (after a reset, which also zeroes the device's own ring pointers). */
static void rx_start(void)
{
	rx_offset = 0;
	w32(REG_RBSTART, ring_phys);
	w8(REG_CR, CR_RE | CR_TE);
	w32(REG_RCR, rcr_value);
	w16(REG_CAPR, (uint16_t)(0u - CAPR_BIAS));
}

static int map_registers(const struct myrmex_pci_info *info)
{
	if ((info->bar_is_io & 2u) || info->bar_size[1] < 0x100) {
		drv_log("BAR 1 is not the 256-byte register window");
		return -ENODEV;
	}
	long command = myrmex_dev_config_read(4);
	if (command < 0)
		return (int)command;
	/* Memory space and bus mastering on, INTx not disabled; only the
	 * command half (zeros leave the status half's error bits alone). */
	long r = myrmex_dev_config_write(4, ((uint32_t)command & 0xffff & ~0x400u) | 0x2u | 0x4u);
	long base = r < 0 ? r : myrmex_dev_map_bar(1);
	if (base < 0) {
		drv_log("cannot map the registers: %ld", base);
		return (int)base;
	}
	regs = (volatile uint8_t *)base;
	return 0;
}

/* Soft reset: every register to its default, the rings' pointers to 0. */
static int device_reset(void)
{
	w8(REG_CR, CR_RST);
	for (int polls = 0; (r8(REG_CR) & CR_RST) && polls < RESET_POLLS; polls++)
		myrmex_sleep_ns(10000);
	if (r8(REG_CR) & CR_RST) {
		drv_log("the reset did not complete");
		return -EIO;
	}
	return 0;
}

/* After a reset: receiver and transmitter on, interrupts unmasked. */
static void device_start(void)
{
	w16(REG_IMR, 0);
	rx_start();
	w32(REG_TCR, TCR_VALUE);
	w32(REG_MPC, 0);
	w16(REG_ISR, 0xffff);
	w16(REG_IMR, INT_MASK);
}

int nic_init(const struct myrmex_pci_info *info, bool small)
{
	device = *info;
	ring_bytes = small ? RX_RING_SMALL : RX_RING_BIG;
	rcr_value = RCR_COMMON | (small ? RCR_RBLEN_8K | RCR_WRAP : RCR_RBLEN_64K);
	uint32_t ica_bytes = ring_bytes + RX_PAD + (small ? RX_WRAP_ROOM : 0);
	uint32_t pages = (ica_bytes + 4095) / 4096;
	/* With WRAP a frame never wraps: it ends inside the ICA (the header
	 * starts below ring_bytes, the frame is at most NET_FRAME_MAX). */
	ring_wrap_at = small ? pages * 4096 : ring_bytes;
	int err = map_registers(info);
	if (err)
		return err;
	w8(REG_CONFIG1, 0);   /* out of low-power state */
	if ((err = device_reset()) < 0)
		return err;
	mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)r8(REG_IDR0 + i) << (8 * i);
	long h = myrmex_ica_alloc(pages);
	long phys = h < 0 ? h : myrmex_ica_phys((uint32_t)h);
	if (phys < 0 || (uint64_t)phys + pages * 4096ull > 0x100000000ull) {
		drv_log("no receive ring below 4 GiB: %ld", phys);
		return phys < 0 ? (int)phys : -ENOMEM;
	}
	ring_ica = (uint32_t)h;
	ring = myrmex_ica_addr(ring_ica);
	ring_phys = (uint32_t)phys;
	device_start();
	return 0;
}

uint64_t nic_mac(void)
{
	return mac;
}

uint64_t nic_link(void)
{
	/* The link bit latches a failure until read: the second read is now. */
	(void)r16(REG_BMSR);
	return (r16(REG_BMSR) & BMSR_LINK) ? NET_LINK_UP : 0;
}

void nic_describe(char *buf, unsigned long size)
{
	uint8_t b[6];
	for (unsigned i = 0; i < 6; i++)
		b[i] = (uint8_t)(mac >> (8 * i));
	snprintf(buf, size, "MAC %02x:%02x:%02x:%02x:%02x:%02x, link %s, ring %u KiB%s, irq %u",
	         b[0], b[1], b[2], b[3], b[4], b[5], nic_link() ? "up" : "down",
	         ring_bytes / 1024, (rcr_value & RCR_WRAP) ? " (WRAP)" : "", device.irq_line);
}

/* ---------------------------------------------------------- transmit */

int nic_submit(const struct netdrv_send *s)
{
	if (tx_busy == TX_SLOTS)
		return -EAGAIN;
	unsigned slot = tx_head;
	tx_slot[slot] = *s;
	tx_head = (tx_head + 1) % TX_SLOTS;
	tx_busy++;
	w32(REG_TSAD0 + 4 * slot, (uint32_t)s->phys);   /* below 4 GiB: nic_send */
	/* Writing the size clears OWN: the device starts reading. */
	w32(REG_TSD0 + 4 * slot, s->length | TSD_ERTXTH(0x3f));
	return 0;
}

/* A checked send (servers/lib/netdrv): the device takes a 32-bit address,
 * so the frame must lie below 4 GiB. */
int64_t nic_send(const struct server_request *rq, uint64_t phys, uint64_t offset,
                 uint32_t length)
{
	if (phys + offset + length > 0x100000000ull) {
		net_counters.tx_errors++;
		return -EINVAL;
	}
	const struct netdrv_send s = { .rq = *rq, .phys = phys + offset, .length = length };
	return netdrv_send(&s);
}

/* Answers the sends the device has finished, oldest first, and fills the
 * slots they free. */
static void tx_complete(void)
{
	while (tx_busy > 0) {
		uint32_t tsd = r32(REG_TSD0 + 4 * tx_tail);
		if (!(tsd & (TSD_TOK | TSD_TUN | TSD_TABT)))
			break;
		struct netdrv_send *s = &tx_slot[tx_tail];
		tx_tail = (tx_tail + 1) % TX_SLOTS;
		tx_busy--;
		if (tsd & TSD_TOK) {
			net_counters.tx_frames++;
			net_counters.tx_bytes += s->length;
			server_reply_later(DRV_NAME, &s->rq, s->length);
		} else {
			net_more.tx_device_errors++;
			server_reply_later(DRV_NAME, &s->rq, -EIO);
		}
	}
	netdrv_send_pending();
}

/* ---------------------------------------------------------- receive */

/* After a corrupt receive header: a reset puts the ring back to its
 * start; the sends in the slots are lost with it (-EIO), those waiting
 * go out after it. */
static void restart(void)
{
	while (tx_busy > 0) {
		net_more.tx_device_errors++;
		server_reply_later(DRV_NAME, &tx_slot[tx_tail].rq, -EIO);
		tx_tail = (tx_tail + 1) % TX_SLOTS;
		tx_busy--;
	}
	tx_head = tx_tail = 0;
	if (device_reset() == 0) {
		device_start();
		netdrv_send_pending();
	}
}

/* The frame of length bytes at offset in the ring (wrapping at
 * ring_wrap_at) is read from memory, not from lines cached before the
 * device wrote it. */
static void rx_fresh(uint32_t offset, uint32_t length)
{
	uint32_t first = length < ring_wrap_at - offset ? length : ring_wrap_at - offset;
	myrmex_dma_from_device(ring + offset, first);
	if (first < length)
		myrmex_dma_from_device(ring, length - first);
}

/* Takes every frame the device has written, up to the ring's empty flag. */
static void rx_drain(void)
{
	while (!(r8(REG_CR) & CR_BUFE)) {
		/* The ring's bytes are the device's: read them after the flag,
		 * from memory (a cache that DMA does not update drops its lines
		 * first: myrmex_dma_from_device, a no-op where DMA is coherent). */
		__asm__ volatile("" ::: "memory");
		myrmex_dma_from_device(ring + rx_offset, 4);
		uint32_t header;
		memcpy(&header, ring + rx_offset, 4);   /* 4-aligned: never wraps */
		uint16_t status = (uint16_t)header, length = (uint16_t)(header >> 16);
		if ((status & RX_ISE) || !(status & RX_ROK) || length < RX_CRC_LEN ||
		    length > ring_bytes - 8) {
			/* Not a header the device wrote for a good frame: the ring
			 * cannot be trusted past it. */
			drv_log("bad receive header %#x at %u: device reset", header, rx_offset);
			net_counters.rx_errors++;
			net_more.resets++;
			restart();
			return;
		}
		/* The frame follows its header: wrapped to the start only where
		 * the device wraps (WRAP off), else right after it. */
		uint32_t frame = length - RX_CRC_LEN, at = (rx_offset + 4) % ring_wrap_at;
		if (frame < NET_FRAME_MIN || frame > NET_FRAME_MAX) {
			net_counters.rx_errors++;   /* runt or oversized: skipped */
		} else {
			rx_fresh(at, frame);
			if (!copy_frame(ring, ring_wrap_at, at, frame))
				return;   /* no room for it yet: it waits in the ring (nic_rx_resume) */
			net_counters.rx_frames++;
			net_counters.rx_bytes += frame;
		}
		rx_offset = (rx_offset + 4 + length + 3) & ~3u;
		rx_offset %= ring_bytes;   /* with WRAP, the bytes past the end */
		w16(REG_CAPR, (uint16_t)(rx_offset - CAPR_BIAS));
	}
}

void nic_rx_resume(void)
{
	rx_drain();
}

/* ---------------------------------------------------------- interrupt */

void nic_interrupt(uint32_t lines)
{
	(void)lines;   /* one line, perhaps shared: an empty ISR is not ours */
	net_counters.interrupts++;
	uint16_t isr = r16(REG_ISR);
	if (isr == 0xffff)
		isr = 0;   /* the device does not answer */
	/* Acknowledge first (write 1 to clear), then empty the ring and the
	 * slots: an event after this raises the line again. */
	if (isr)
		w16(REG_ISR, isr);
	if (isr & (INT_RXOVW | INT_FOVW)) {
		net_more.rx_overflows++;
		uint32_t missed = r32(REG_MPC) & 0xffffff;
		net_more.rx_missed += missed;
		net_counters.rx_dropped += missed;
		w32(REG_MPC, 0);
	}
	if (isr & INT_LINKCHG)
		drv_log("link %s", nic_link() ? "up" : "down");
	if (isr & INT_SERR)
		drv_log("PCI system error");
	rx_drain();
	tx_complete();
	myrmex_dev_irq_ack();
}
