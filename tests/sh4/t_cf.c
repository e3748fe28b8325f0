/*
 * t_cf — the r2d's CF slot (True IDE mode) through the device interface a
 * user-level driver uses: the port lists it as a legacy device (class
 * 0x01/0x01, ports: the task file at offsets 0-7, device control and
 * alternate status at 8; kernel/arch/sh4/cf.c). As a manager, this finds it
 * and gives it to a copy of itself ("drv"), which is refused bad port
 * accesses, then reads sector 5 by PIO (READ SECTORS, LBA 5), the
 * completion arriving as an interrupt message through get(), and compares
 * it with the image tools/sh4_run.py attaches (tools/mkpattern.py's:
 * sector s begins with s, 8 bytes little endian, then byte i is
 * (7 * s + i) mod 256); then asks for a sector past the end and gets the
 * drive's error, again by interrupt once dev_irq_ack unmasked the line.
 */
#include "sh4_dev.h"
#include <myrmex/rights.h>

#define ENODEV 19

#define ATA_DATA    0
#define ATA_ERROR   1
#define ATA_COUNT   2
#define ATA_LBA0    3
#define ATA_LBA1    4
#define ATA_LBA2    5
#define ATA_DEVICE  6
#define ATA_STATUS  7   /* read; write: the command */
#define ATA_CONTROL 8   /* write; read: the alternate status */
#define ST_BSY  0x80u
#define ST_DRQ  0x08u
#define ST_ERR  0x01u
#define CMD_READ_SECTORS 0x20u
#define ERR_ABRT_IDNF 0x14u
#define CF_SECTORS 8192

/* Byte i of sector s of tools/mkpattern.py's image: s in the first 8
 * bytes (little endian), then (7 * s + i) mod 256. */
static unsigned pattern(unsigned s, unsigned i)
{
	return i < 8 ? (i < 4 ? (s >> (8 * i)) & 0xff : 0) : (7 * s + i) & 0xff;
}

static long rd(uint32_t reg) { return u_dev_port_read(reg, reg == ATA_DATA ? 2 : 1); }
static long wr(uint32_t reg, uint32_t v) { return u_dev_port_write(reg, 1, v); }

/* Waits for BSY to clear on the alternate status (which does not
 * acknowledge the interrupt): the status, or -1 after many polls. */
static long idle_status(void)
{
	for (int i = 0; i < 100000; i++) {
		long st = rd(ATA_CONTROL);
		if (st >= 0 && !(st & ST_BSY))
			return st;
	}
	return -1;
}

/* Starts READ SECTORS of one sector at lba and waits for its interrupt:
 * the status read after it (which drops INTRQ). */
static long read_command(uint32_t lba)
{
	U_CHECK(idle_status() >= 0, "the drive is idle");
	wr(ATA_DEVICE, 0xe0u | ((lba >> 24) & 0xf));   /* LBA, master */
	wr(ATA_COUNT, 1);
	wr(ATA_LBA0, lba & 0xff);
	wr(ATA_LBA1, (lba >> 8) & 0xff);
	wr(ATA_LBA2, (lba >> 16) & 0xff);
	wr(ATA_STATUS, CMD_READ_SECTORS);
	struct myrmex_delivery d;
	long r = u_get(NULL, &d);
	U_CHECK(r == 0 && d.kind == MYRMEX_DELIVERY_INTERRUPT && d.opcode >= 1,
	        "the completion arrives as an interrupt message");
	return rd(ATA_STATUS);
}

static int driver(void)
{
	/* Bad port accesses: widths the registers do not have, past the
	 * range, misaligned, a value wider than the access. */
	U_CHECK(u_dev_port_read(ATA_DATA, 1) == -EINVAL && u_dev_port_read(ATA_DATA, 4) == -EINVAL,
	        "the data register is 16 bits");
	U_CHECK(u_dev_port_read(ATA_STATUS, 2) == -EINVAL && u_dev_port_read(2, 3) == -EINVAL,
	        "the other registers are bytes");
	U_CHECK(u_dev_port_read(9, 1) == -EINVAL && u_dev_port_read(0xffffffffu, 1) == -EINVAL &&
	        u_dev_port_write(16, 1, 0) == -EINVAL, "past the range");
	U_CHECK(u_dev_port_read(3, 2) == -EINVAL, "misaligned");
	U_CHECK(u_dev_port_write(ATA_COUNT, 1, 0x100) == -EINVAL, "a value wider than the access");
	U_CHECK(u_dev_config_read(0) == -EINVAL, "a legacy device has no configuration space");
	U_CHECK(u_dev_map_bar(0) == -EINVAL, "its ports are not memory");

	wr(ATA_CONTROL, 0);   /* nIEN off: interrupts on */
	long st = read_command(5);
	U_CHECK(st >= 0 && (st & (ST_BSY | ST_DRQ | ST_ERR)) == ST_DRQ, "data ready, no error");
	bool same = true;
	for (unsigned i = 0; i < 512; i += 2) {
		long w = rd(ATA_DATA);
		same = same && w == (long)(pattern(5, i) | pattern(5, i + 1) << 8);
	}
	U_CHECK(same, "sector 5 is the image's");
	U_CHECK(u_dev_irq_ack() == 0, "dev_irq_ack");

	st = read_command(CF_SECTORS + 1000);
	U_CHECK(st >= 0 && (st & ST_ERR) && !(st & ST_DRQ), "a sector past the end is an error");
	U_CHECK(rd(ATA_ERROR) & ERR_ABRT_IDNF, "the error register tells why");
	U_CHECK(u_dev_irq_ack() == 0, "dev_irq_ack again");
	wr(ATA_CONTROL, 0x02);   /* nIEN */
	return u_failures ? 1 : 0;
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc > 1 && argv[1][0] == 'd' && argv[1][1] == 'r' && argv[1][2] == 'v')
		return driver();

	struct myrmex_pci_info info;
	long index = -1;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES && u_dev_info(i, &info) == 0; i++)
		if (info.kind == MYRMEX_DEV_KIND_LEGACY && info.class_code == 1 && info.subclass == 1) {
			index = i;
			break;
		}
	U_CHECK(index >= 0, "the CF slot is listed");
	if (index < 0)
		u_exit(1);
	U_CHECK(info.vendor == MYRMEX_DEV_VENDOR_LEGACY && info.irq_line == 1 &&
	        (info.bar_is_io & 1) && info.bar_size[0] == 9 && !info.owned,
	        "legacy, line 1 (the FPGA's CF IDE), 9 ports, not owned");
	U_CHECK(u_dev_port_read(ATA_STATUS, 1) == -ENODEV, "ports without a device");

	const uint64_t dargv[] = { (uintptr_t)"t_cf", (uintptr_t)"drv", 0 };
	const uint64_t envp0[] = { 0 };
	long pid = sys5(MYRMEX_SYS_SPAWN, "t_cf", dargv, envp0, -1,
	                MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	U_CHECK(pid > 0, "spawn the driver with the slot");
	int status = -1;
	U_CHECK(pid > 0 && sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0) == pid && status == 0,
	        "the driver passes");
	return u_failures ? 1 : 0;
}
