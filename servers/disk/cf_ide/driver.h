/*
 * cf_ide: the disk driver server for an ATA drive on a legacy IDE port
 * range (the r2d's CF slot in True IDE mode; a PC's primary IDE channel
 * if a port lists one). What its files share: main.c starts it, table.c is
 * the driver for the server library (opcodes, the client check, the
 * interrupt), ide.c the handlers and the queue of requests, ata.c the
 * drive's registers. One thread: nothing needs a lock.
 */
#ifndef CF_IDE_DRIVER_H
#define CF_IDE_DRIVER_H

#include <stdint.h>
#include <myrmex.h>
#include <server.h>

/* ata.c: the drive through the port range of the device given to this
 * process (offsets 0-7 the task file, 8 device control / alternate
 * status). Every access is a system call (dev_port_read/write). */
#define ATA_DATA    0
#define ATA_ERROR   1   /* read; write: features */
#define ATA_COUNT   2
#define ATA_LBA0    3
#define ATA_LBA1    4
#define ATA_LBA2    5
#define ATA_DEVICE  6
#define ATA_STATUS  7   /* read (drops INTRQ); write: the command */
#define ATA_CONTROL 8   /* write; read: the alternate status (drops nothing) */

#define ATA_ST_BSY 0x80u
#define ATA_ST_DF  0x20u
#define ATA_ST_DRQ 0x08u
#define ATA_ST_ERR 0x01u

#define ATA_CMD_READ_SECTORS  0x20u
#define ATA_CMD_WRITE_SECTORS 0x30u
#define ATA_CMD_FLUSH_CACHE   0xe7u
#define ATA_CMD_IDENTIFY      0xecu

#define ATA_LBA28_MAX (1u << 28)     /* sectors LBA28 commands can name */
#define ATA_MAX_COUNT 256u           /* sectors per command (count 0 means 256) */

/* What IDENTIFY DEVICE told. */
struct ata_drive {
	uint32_t sectors;            /* LBA28 capacity */
	int can_flush;               /* FLUSH CACHE supported */
	char model[41];
};

/* Reads register reg (its width: data 2 bytes, the rest 1); -1 on a
 * refused access. */
long ata_read(unsigned reg);
void ata_write(unsigned reg, uint32_t value);
/* Polls the alternate status until BSY clears (and DRQ is set when
 * want_drq): the status, or -1 after a bounded number of polls. */
long ata_wait(int want_drq);
/* Polls the alternate status until BSY and DRQ are both clear (the
 * drive takes a command): the status, or -1 after a bounded number of polls. */
long ata_wait_idle(void);
/* Starts command cmd for count sectors (1..256) at lba (LBA mode, master)
 * once the drive is idle (ata_wait_idle); 0, or -1 when it stays busy. */
int ata_command(uint8_t cmd, uint32_t lba, uint32_t count);
/* One sector through the data register, 256 little-endian words. */
void ata_read_sector(uint8_t *buf);
void ata_write_sector(const uint8_t *buf);
/* Software reset (SRST), interrupts off (nIEN), INTRQ dropped: the drive
 * idle with no command. 0, or -1 when it stays busy. */
int ata_reset(void);
/* Interrupts on (nIEN clear) after a reset or polling. */
void ata_interrupts_on(void);
/* IDENTIFY DEVICE by polling (interrupts off meanwhile), then interrupts
 * on. 0, or -1 when no ATA drive answers. */
int ata_identify(struct ata_drive *out);

/* ide.c */
int64_t do_read(struct server_request *rq);
int64_t do_write(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_flush(struct server_request *rq);
void ide_interrupt(uint32_t lines);
/* Takes the drive's description (main.c, once, before serving). */
void ide_init(const struct ata_drive *drive);

/* table.c */
extern const struct server ide_server;

/* main.c: "cf_ide: <message>" on stderr. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
