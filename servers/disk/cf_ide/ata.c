/*
 * The ATA drive's registers (ATA/ATAPI-6's task file and PIO protocol) as
 * the legacy device's ports. The kernel's guard allows each register at
 * its own width only, so every access names it (data 2 bytes, others 1).
 * Polling is bounded: a drive that stays busy is an error, never a hang.
 */
#include "driver.h"

#define POLLS 200000

long ata_read(unsigned reg)
{
	return myrmex_dev_port_read(reg, reg == ATA_DATA ? 2 : 1);
}

void ata_write(unsigned reg, uint32_t value)
{
	myrmex_dev_port_write(reg, reg == ATA_DATA ? 2 : 1, value);
}

long ata_wait(int want_drq)
{
	for (int i = 0; i < POLLS; i++) {
		long st = ata_read(ATA_CONTROL);
		if (st < 0)
			return -1;
		if (st & ATA_ST_BSY)
			continue;
		if (!want_drq || (st & (ATA_ST_DRQ | ATA_ST_ERR | ATA_ST_DF)))
			return st;
	}
	return -1;
}

long ata_wait_idle(void)
{
	for (int i = 0; i < POLLS; i++) {
		long st = ata_read(ATA_CONTROL);
		if (st < 0)
			return -1;
		if (!(st & (ATA_ST_BSY | ATA_ST_DRQ)))
			return st;
	}
	return -1;
}

int ata_command(uint8_t cmd, uint32_t lba, uint32_t count)
{
	/* BSY and DRQ both clear: a drive ignores the task file and the
	 * command while either is set (a command written during another's
	 * data phase would be lost, and the sectors moved next would belong
	 * to the old one). */
	if (ata_wait_idle() < 0)
		return -1;
	ata_write(ATA_DEVICE, 0xe0u | ((lba >> 24) & 0x0fu));   /* LBA, master */
	ata_write(ATA_COUNT, count & 0xffu);                   /* 256 is 0 */
	ata_write(ATA_LBA0, lba & 0xffu);
	ata_write(ATA_LBA1, (lba >> 8) & 0xffu);
	ata_write(ATA_LBA2, (lba >> 16) & 0xffu);
	ata_write(ATA_STATUS, cmd);
	return 0;
}

/* Byte by byte, so that neither the byte order of the CPU nor the
 * buffer's alignment matters (SH-4 faults on misaligned word accesses). */
void ata_read_sector(uint8_t *buf)
{
	for (unsigned i = 0; i < 512; i += 2) {
		long w = ata_read(ATA_DATA);
		buf[i] = (uint8_t)w;
		buf[i + 1] = (uint8_t)(w >> 8);
	}
}

void ata_write_sector(const uint8_t *buf)
{
	for (unsigned i = 0; i < 512; i += 2)
		ata_write(ATA_DATA, buf[i] | (uint32_t)buf[i + 1] << 8);
}

int ata_reset(void)
{
	/* SRST with nIEN, then nIEN alone; the drive is busy until the reset
	 * is over. SRST ends whatever command was in the drive (a data phase
	 * half done included) and leaves BSY and DRQ clear. */
	ata_write(ATA_CONTROL, 0x06);
	for (int i = 0; i < 8; i++)
		ata_read(ATA_CONTROL);   /* each a system call: well over 5 us */
	ata_write(ATA_CONTROL, 0x02);   /* nIEN: poll */
	long st = ata_wait_idle();
	/* The status register, not the alternate: reading it drops an INTRQ
	 * the old command left raised. */
	ata_read(ATA_STATUS);
	return st < 0 ? -1 : 0;
}

void ata_interrupts_on(void)
{
	ata_read(ATA_STATUS);           /* no INTRQ left from polling */
	ata_write(ATA_CONTROL, 0);
}

int ata_identify(struct ata_drive *out)
{
	uint8_t id[512];
	/* A software reset first: a driver that died mid-command (killed, or
	 * restarted) may have left the drive with a transfer half done, whose
	 * data would otherwise pass for IDENTIFY's. */
	if (ata_reset() < 0)
		return -1;
	if (ata_command(ATA_CMD_IDENTIFY, 0, 0) < 0)
		return -1;
	long st = ata_wait(1);
	if (st < 0 || (st & (ATA_ST_ERR | ATA_ST_DF)) || !(st & ATA_ST_DRQ))
		return -1;
	ata_read_sector(id);
	ata_read(ATA_STATUS);
	/* Words 60-61: user-addressable sectors for LBA28 commands. Word 83
	 * bit 12 (valid when bit 14 is set, bit 15 clear): FLUSH CACHE. */
	uint32_t sectors = id[120] | (uint32_t)id[121] << 8 | (uint32_t)id[122] << 16 |
	                   (uint32_t)id[123] << 24;
	unsigned w83 = id[166] | (unsigned)id[167] << 8;
	out->sectors = sectors < ATA_LBA28_MAX ? sectors : ATA_LBA28_MAX - 1;
	out->can_flush = (w83 & 0xc000u) == 0x4000u && (w83 & 0x1000u);
	/* Words 27-46: the model, two characters a word, the first in the
	 * high byte. */
	for (unsigned i = 0; i < 40; i += 2) {
		out->model[i] = (char)id[54 + i + 1];
		out->model[i + 1] = (char)id[54 + i];
	}
	int end = 40;
	while (end > 0 && out->model[end - 1] == ' ')
		end--;
	out->model[end] = '\0';
	ata_interrupts_on();
	return 0;
}
