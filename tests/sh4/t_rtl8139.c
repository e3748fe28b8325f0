/*
 * t_rtl8139:MAC — the r2d's RTL8139 through the device interface a
 * user-level driver uses (include/myrmex/device.h), on the SH-4 port's PCI
 * bridge and interrupt lines (kernel/arch/sh4/pci.c, irq.c).
 *
 * As a manager (sh4init gives the power for this test), it finds the card in
 * the kernel's device list (vendor 0x10ec, device 0x8139) with the BAR and
 * line the port placed, checks that a process owning no device gets errors
 * from every device call, and gives the card to a copy of itself ("drv"),
 * which: reads the configuration space, is refused the kernel's part of it
 * and bad BARs, maps the register BAR, resets the card and reads its MAC
 * (the one tools/sh4_run.py gives QEMU: argv), and transmits two frames from
 * an ICA by DMA, each completion (TxOK) arriving as an interrupt message
 * through get(), the second only after dev_irq_ack unmasked the line (QEMU's
 * user network, restricted, ignores their EtherType); then, with the
 * receiver on, an ARP request for QEMU's gateway, whose reply the card
 * writes by DMA into a receive ring in another ICA (RxOK by message).
 * Nothing leaves QEMU. A next owner ("after") finds bus mastering off.
 */
#include "sh4_dev.h"
#include <myrmex/rights.h>

#define ENODEV 19
#define EBUSY 16
#define EPERM 1

#define RTL_VENDOR 0x10ec
#define RTL_DEVICE 0x8139
#define REG_IDR0   0x00
#define REG_TSD0   0x10    /* + 4 * n: status and size of descriptor n */
#define REG_TSAD0  0x20    /* + 4 * n: its buffer's physical address */
#define REG_RBSTART 0x30   /* the receive ring's physical address */
#define REG_CR     0x37
#define REG_IMR    0x3c
#define REG_ISR    0x3e
#define REG_RCR    0x44
#define REG_HLTCLK 0x5b
#define CR_RST     0x10
#define CR_RE      0x08
#define CR_TE      0x04
#define RCR_ACCEPT 0x0000078eu   /* broadcast, multicast, our MAC; WRAP; no DMA burst limit */
#define RX_RING    (8192 + 16)   /* RBLEN 0, and WRAP lets a frame run past the end */
#define INT_ROK    0x0001u
#define INT_TOK    0x0004u
#define INT_TER    0x0008u
#define TSD_TOK    (1u << 15)
#define TSD_OWN    (1u << 13)
#define FRAME_LEN  60

static volatile uint8_t *regs;

static uint8_t r8(unsigned off) { return regs[off]; }
static uint16_t r16(unsigned off) { return *(volatile uint16_t *)(regs + off); }
static uint32_t r32(unsigned off) { return *(volatile uint32_t *)(regs + off); }
static void w8(unsigned off, uint8_t v) { regs[off] = v; }
static void w16(unsigned off, uint16_t v) { *(volatile uint16_t *)(regs + off) = v; }
static void w32(unsigned off, uint32_t v) { *(volatile uint32_t *)(regs + off) = v; }

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "52:54:00:12:34:56" -> mac; false when malformed. */
static bool parse_mac(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		int hi = hexval(s[3 * i]), lo = hi < 0 ? -1 : hexval(s[3 * i + 1]);
		if (lo < 0 || (i < 5 && s[3 * i + 2] != ':') || (i == 5 && s[3 * i + 2] != '\0'))
			return false;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* A broadcast frame of the local experimental EtherType 0x88b5, which
 * QEMU's user network ignores (no reply, nothing forwarded). */
static void build_frame(uint8_t *f, const uint8_t mac[6])
{
	static const char text[] = "myrmex sh4 rtl8139 test";
	u_zero(f, FRAME_LEN);
	for (int i = 0; i < 6; i++) {
		f[i] = 0xff;
		f[6 + i] = mac[i];
	}
	f[12] = 0x88, f[13] = 0xb5;
	for (unsigned i = 0; i < sizeof(text); i++)
		f[14 + i] = (uint8_t)text[i];
}

/* An ARP request for QEMU's user-network gateway (10.0.2.2) from 10.0.2.15:
 * QEMU answers it itself (nothing leaves QEMU). */
static void build_arp(uint8_t *f, const uint8_t mac[6])
{
	static const uint8_t head[] = { 0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1 };
	static const uint8_t ips[] = { 10, 0, 2, 15, 0, 0, 0, 0, 0, 0, 10, 0, 2, 2 };
	u_zero(f, FRAME_LEN);
	for (int i = 0; i < 6; i++) {
		f[i] = 0xff;
		f[6 + i] = mac[i];
		f[22 + i] = mac[i];
	}
	for (unsigned i = 0; i < sizeof(head); i++)
		f[12 + i] = head[i];
	for (unsigned i = 0; i < sizeof(ips); i++)
		f[28 + i] = ips[i];
}

/* Sends the ARP request through descriptor 2 with the receiver on, and
 * takes interrupt messages until the reply is in the ring: the card wrote
 * it there by DMA, at the physical address ica_phys gave. */
static void arp_exchange(uint8_t *tx, uint32_t tx_phys, uint8_t *ring, uint32_t ring_phys,
                         const uint8_t mac[6])
{
	w32(REG_RBSTART, ring_phys);
	w32(REG_RCR, RCR_ACCEPT);
	w8(REG_HLTCLK, 'R');   /* the clock running (the 8139's HltClk) */
	w8(REG_CR, CR_TE | CR_RE);
	w16(REG_IMR, INT_TOK | INT_ROK);
	build_arp(tx, mac);
	u_cache_wback(tx, FRAME_LEN);
	u_cache_inval(ring, 3 * 4096);   /* drop stale lines before the card writes */
	w32(REG_TSAD0 + 8, tx_phys);
	w32(REG_TSD0 + 8, FRAME_LEN);
	uint16_t seen = 0;
	for (int n = 0; n < 4 && !(seen & INT_ROK); n++) {
		struct myrmex_delivery d;
		long r = u_get(NULL, &d);
		U_CHECK(r == 0 && d.kind == MYRMEX_DELIVERY_INTERRUPT, "an interrupt message");
		uint16_t isr = r16(REG_ISR);
		seen |= isr;
		w16(REG_ISR, isr);
		U_CHECK(u_dev_irq_ack() == 0, "dev_irq_ack");
	}
	U_CHECK((seen & (INT_TOK | INT_ROK)) == (INT_TOK | INT_ROK), "TxOK and RxOK arrived");
	u_cache_inval(ring, 3 * 4096);   /* what the card wrote is in memory, not in the cache */
	/* The ring's first packet: a status word (ROK in bit 0), the length
	 * with the CRC, then the frame. */
	uint16_t status = (uint16_t)(ring[0] | ring[1] << 8), len = (uint16_t)(ring[2] | ring[3] << 8);
	const uint8_t *f = ring + 4;
	bool to_us = true;
	for (int i = 0; i < 6; i++)
		to_us = to_us && f[i] == mac[i] && f[32 + i] == mac[i];
	U_CHECK((status & 1) && len >= 42 + 4, "the ring holds a good packet");
	U_CHECK(f[12] == 0x08 && f[13] == 0x06 && f[20] == 0 && f[21] == 2, "it is an ARP reply");
	U_CHECK(to_us && f[28] == 10 && f[29] == 0 && f[30] == 2 && f[31] == 2,
	        "from 10.0.2.2, to our MAC");
}

/* Transmits the frame at phys through descriptor n and waits for the
 * interrupt message: 0 or a failure already reported. */
static int transmit(unsigned n, uint32_t phys)
{
	w32(REG_TSAD0 + 4 * n, phys);
	w32(REG_TSD0 + 4 * n, FRAME_LEN);   /* OWN clear: the card sends */
	struct myrmex_delivery d;
	long r = u_get(NULL, &d);
	U_CHECK(r == 0 && d.kind == MYRMEX_DELIVERY_INTERRUPT && d.opcode >= 1,
	        "the TxOK interrupt arrives as a message");
	uint16_t isr = r16(REG_ISR);
	U_CHECK(isr & INT_TOK, "ISR shows TxOK");
	U_CHECK((r32(REG_TSD0 + 4 * n) & (TSD_TOK | TSD_OWN)) == (TSD_TOK | TSD_OWN),
	        "the descriptor is done and sent");
	w16(REG_ISR, isr);   /* write 1 to clear: the line's level drops */
	U_CHECK(u_dev_irq_ack() == 0, "dev_irq_ack unmasks the line");
	return 0;
}

static int driver(const char *mac_arg)
{
	uint8_t want[6];
	U_CHECK(mac_arg && parse_mac(mac_arg, want), "the MAC argument");
	U_CHECK(u_dev_config_read(0) == (long)(RTL_DEVICE << 16 | RTL_VENDOR),
	        "config read of the ID");
	/* Bad configuration accesses and BARs. */
	U_CHECK(u_dev_config_read(256) == -EINVAL && u_dev_config_read(2) == -EINVAL &&
	        u_dev_config_read(0xffffffffu) == -EINVAL, "config read past 255 or misaligned");
	U_CHECK(u_dev_config_write(0x10, 0) == -EPERM && u_dev_config_write(0x3c, 0) == -EPERM,
	        "config write to a BAR or the line is -EPERM");
	U_CHECK(u_dev_config_write(6, 0) == -EINVAL, "misaligned config write");
	U_CHECK(u_dev_map_bar(0) == -EINVAL, "map of the I/O BAR is -EINVAL");
	U_CHECK(u_dev_map_bar(2) == -EINVAL && u_dev_map_bar(6) == -EINVAL &&
	        u_dev_map_bar(0x80000001u) == -EINVAL, "map of an absent BAR is -EINVAL");
	U_CHECK(u_dev_port_read(0, 1) == -EINVAL, "a PCI device has no port range");
	U_CHECK(u_ica_phys(0x12345) == -EINVAL, "ica_phys of a bad handle");

	long va = u_dev_map_bar(1);
	U_CHECK(va == (long)MYRMEX_DEVICE_WINDOW + (long)MYRMEX_DEVICE_BAR_SPAN, "map BAR 1");
	U_CHECK(u_dev_map_bar(1) == va, "a second map gives the same address");
	if (va < 0)
		return 1;
	regs = (volatile uint8_t *)va;
	long cmd = u_dev_config_read(4);
	U_CHECK(cmd >= 0 && (cmd & 2), "the port turned memory decoding on");
	U_CHECK(u_dev_config_write(4, (uint32_t)cmd | 4) == 0, "bus mastering on");

	w8(REG_CR, CR_RST);
	int spins = 0;
	while ((r8(REG_CR) & CR_RST) && spins < 1000000)
		spins++;
	U_CHECK(!(r8(REG_CR) & CR_RST), "the reset completes");
	bool same = true;
	for (int i = 0; i < 6; i++)
		same = same && r8(REG_IDR0 + i) == want[i];
	U_CHECK(same, "the MAC is the one QEMU was given");

	long h = u_ica_alloc(1);
	U_CHECK(h > 0, "ica_alloc");
	if (h <= 0)
		return 1;
	uint8_t *buf = myrmex_ica_addr((uint32_t)h);
	long phys = u_ica_phys((uint32_t)h);
	U_CHECK(phys >= 0x0c000000 && phys < 0x10000000 && !(phys & 0xfff),
	        "ica_phys is a page of the SDRAM");
	build_frame(buf, want);
	build_frame(buf + 2048, want);
	u_cache_wback(buf, 4096);   /* the card reads memory, not the cache */

	w16(REG_IMR, INT_TOK | INT_TER);
	w8(REG_CR, CR_TE);
	transmit(0, (uint32_t)phys);
	transmit(1, (uint32_t)phys + 2048);

	long rh = u_ica_alloc(3);
	long ring_phys = rh > 0 ? u_ica_phys((uint32_t)rh) : -1;
	U_CHECK(rh > 0 && ring_phys > 0, "a receive ring");
	if (ring_phys > 0)
		arp_exchange(buf, (uint32_t)phys, myrmex_ica_addr((uint32_t)rh), (uint32_t)ring_phys, want);
	w16(REG_IMR, 0);
	w8(REG_CR, 0);
	U_CHECK(u_ica_free((uint32_t)h) == 0 && (rh <= 0 || u_ica_free((uint32_t)rh) == 0), "ica_free");

	/* Giving away a device one owns again: busy. */
	const uint64_t argv[] = { (uintptr_t)"t_rtl8139", (uintptr_t)"none", 0 };
	long self = -1;
	struct myrmex_pci_info info;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES && u_dev_info(i, &info) == 0; i++)
		if (info.vendor == RTL_VENDOR && info.device == RTL_DEVICE) {
			self = i;
			break;
		}
	U_CHECK(self >= 0 && info.owned, "listed as owned");
	U_CHECK(sys5(MYRMEX_SYS_SPAWN, "t_rtl8139", argv, argv + 2, -1,
	             MYRMEX_SPAWN_DEVICE(self)) == -EBUSY, "a device owned already is -EBUSY");
	int status;
	U_CHECK(sys6(SH_NR_WAIT4, -1, (long)&status, 0, 0, 0, 0) > 0, "the refused child reaped");
	return u_failures ? 1 : 0;
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc > 2 && argv[1][0] == 'd' && argv[1][1] == 'r' && argv[1][2] == 'v')
		return driver(argv[2]);
	if (argc > 1 && argv[1][0] == 'n')
		return 0;   /* the refused copy, never started */
	if (argc > 1 && argv[1][0] == 'a') {
		/* The next owner: the kernel turned bus mastering off when the
		 * driver before it ended (kernel/core/device.c's quiesce, through
		 * this port's configuration cycles). */
		long cmd = u_dev_config_read(4);
		U_CHECK(cmd >= 0 && !(cmd & 4), "bus mastering off after the last owner");
		return u_failures ? 1 : 0;
	}

	struct myrmex_pci_info info;
	long index = -1;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES && u_dev_info(i, &info) == 0; i++)
		if (info.vendor == RTL_VENDOR && info.device == RTL_DEVICE) {
			index = i;
			break;
		}
	U_CHECK(index >= 0, "the RTL8139 is on the PCI bus");
	if (index < 0)
		u_exit(1);
	U_CHECK(info.kind == MYRMEX_DEV_KIND_PCI && info.bus == 0 && info.slot == 2 && !info.owned,
	        "PCI 0:2.0, not owned");
	U_CHECK(info.irq_line == 3, "its line is the FPGA's PCI INTC (IRL 3)");
	U_CHECK((info.bar_is_io & 3) == 1 && info.bar_size[0] == 256 && info.bar_base[0] >= 0x1000,
	        "BAR 0: 256 I/O ports placed");
	U_CHECK(info.bar_size[1] == 256 && info.bar_base[1] >= 0x1d000000 &&
	        info.bar_base[1] < 0x1e000000 && !(info.bar_base[1] & 0xfff),
	        "BAR 1: a page of the PCI memory window");
	U_CHECK(u_dev_info(MYRMEX_MAX_DEVICES, &info) == -ENODEV && u_dev_info(0xffffffffu, &info) == -ENODEV,
	        "dev_info past the end");
	U_CHECK(u_dev_info(0, (void *)0x8c800000) == -EFAULT, "dev_info into the kernel");

	/* A process that owns no device. */
	U_CHECK(u_dev_config_read(0) == -ENODEV && u_dev_config_write(4, 0) == -ENODEV,
	        "config space of no device");
	U_CHECK(u_dev_map_bar(1) == -ENODEV && u_dev_irq_ack() == -ENODEV, "map or ack without a device");
	long h = u_ica_alloc(1);
	U_CHECK(h > 0 && u_ica_phys((uint32_t)h) == -EPERM, "ica_phys without a device is -EPERM");
	if (h > 0)
		u_ica_free((uint32_t)h);

	const uint64_t envp0[] = { 0 };
	U_CHECK(sys5(MYRMEX_SYS_SPAWN, "t_rtl8139", envp0, envp0, -1,
	             MYRMEX_SPAWN_DEVICE(MYRMEX_MAX_DEVICES - 1)) == -ENODEV, "spawn with no such device");
	const uint64_t dargv[] = { (uintptr_t)"t_rtl8139", (uintptr_t)"drv",
	                           (uintptr_t)(argc > 1 ? argv[1] : ""), 0 };
	long pid = sys5(MYRMEX_SYS_SPAWN, "t_rtl8139", dargv, envp0, -1,
	                MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER | MYRMEX_SPAWN_DEVICE(index));
	U_CHECK(pid > 0, "spawn the driver with the card");
	int status = -1;
	U_CHECK(pid > 0 && sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0) == pid && status == 0,
	        "the driver passes");
	U_CHECK(u_dev_info((uint32_t)index, &info) == 0 && !info.owned, "free again after the driver");
	const uint64_t aargv[] = { (uintptr_t)"t_rtl8139", (uintptr_t)"after", 0 };
	pid = sys5(MYRMEX_SYS_SPAWN, "t_rtl8139", aargv, envp0, -1, MYRMEX_SPAWN_DEVICE(index));
	status = -1;
	U_CHECK(pid > 0 && sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0) == pid && status == 0,
	        "the next owner finds the card quiet");
	return u_failures ? 1 : 0;
}
