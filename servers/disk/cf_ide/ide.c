/*
 * The disk protocol (include/myrmex/disk.h) on an ATA drive by PIO: each
 * request is checked before anything reaches the drive, then queued; the
 * drive works on the oldest one. A read is READ SECTORS (up to 256 sectors
 * a command): the drive interrupts once per sector with DRQ set and the
 * sector is read from the data register into the caller's data ICA. A
 * write is WRITE SECTORS: the first sector is written when DRQ shows, each
 * following one after the interrupt that ends the one before, and the
 * last interrupt ends the command. A flush is FLUSH CACHE, ended by one
 * interrupt. Interrupts arrive as messages through get() (server_run calls
 * ide_interrupt); reading the status register drops the drive's INTRQ
 * before dev_irq_ack unmasks the line.
 *
 * An interrupt message is a hint, never a count: advance() moves a sector
 * only when the status says the drive is at that step (BSY clear; DRQ set
 * for a data phase, clear at a command's end). One read while the drive is
 * still busy is dropped (the drive raises INTRQ again when it is done), so
 * a stale message (left from a reset, or another owner's) cannot make the
 * driver count a sector the drive has not taken. Any error resets the
 * drive before the next command: a drive left in a data phase would ignore
 * the next command, and the sectors moved next would go to the old one.
 */
#include "driver.h"

#include <errno.h>
#include <myrmex/disk.h>

#define PAGE_SIZE 4096u
#define QUEUE_MAX 64                   /* requests held, the one in the drive included */

enum kind { IDE_READ, IDE_WRITE, IDE_FLUSH };

struct ide_request {
	struct server_request rq;          /* parked: answered by server_reply_later */
	enum kind kind;
	uint32_t sector;                   /* the first sector (< 2^28) */
	uint32_t count;                    /* sectors */
	uint32_t offset;                   /* bytes into the data ICA */
	uint32_t done;                     /* sectors transferred */
	uint32_t command_end;              /* done when the current command ends */
	uint8_t *buf;                      /* the data ICA, mapped when started */
};

static struct ata_drive drive;
/* FIFO; queue[first] is in the drive while busy. */
static struct ide_request queue[QUEUE_MAX];
static unsigned first, count;
static int busy;
static unsigned spurious, early;   /* interrupts dropped: no command; drive still busy */

void ide_init(const struct ata_drive *d)
{
	drive = *d;
}

static void finish(struct ide_request *r, int64_t status)
{
	server_reply_later(ide_server.name, &r->rq, status);
	first = (first + 1) % QUEUE_MAX;
	count--;
	busy = 0;
}

/* Ends r with -EIO after the drive went wrong, and resets the drive: it
 * may be in the middle of a command (a data phase half done). */
static void fail(struct ide_request *r, long st)
{
	drv_log("sector %u+%u: the drive went wrong (status %ld): -EIO", r->sector, r->done, st);
	finish(r, -EIO);
	if (ata_reset() < 0)
		drv_log("the drive stays busy after a reset");
	ata_interrupts_on();
}

/* Issues the next command of r (its next run of at most 256 sectors);
 * for a write, also writes the first sector. 0, or -EIO. */
static int issue(struct ide_request *r)
{
	if (r->kind == IDE_FLUSH)
		return ata_command(ATA_CMD_FLUSH_CACHE, 0, 0) < 0 ? -EIO : 0;
	uint32_t n = r->count - r->done;
	if (n > ATA_MAX_COUNT)
		n = ATA_MAX_COUNT;
	r->command_end = r->done + n;
	uint8_t cmd = r->kind == IDE_READ ? ATA_CMD_READ_SECTORS : ATA_CMD_WRITE_SECTORS;
	if (ata_command(cmd, r->sector + r->done, n) < 0)
		return -EIO;
	if (r->kind == IDE_WRITE) {
		long st = ata_wait(1);
		if (st < 0 || (st & (ATA_ST_ERR | ATA_ST_DF)))
			return -EIO;
		ata_write_sector(r->buf + r->offset + r->done * DISK_SECTOR_SIZE);
	}
	return 0;
}

/* Starts the oldest queued request unless the drive is busy; requests
 * that fail to start are answered and the next one tried. */
static void start_next(void)
{
	while (!busy && count > 0) {
		struct ide_request *r = &queue[first];
		if (r->kind != IDE_FLUSH) {
			uint64_t size;
			/* A data ICA that came parked is attached now; with every
			 * reserved TLB entry taken that can fail: try again later. */
			r->buf = server_data(&r->rq, 0, &size);
			if (!r->buf || size < r->offset + (uint64_t)r->count * DISK_SECTOR_SIZE) {
				finish(r, r->buf ? -EINVAL : -EAGAIN);
				continue;
			}
		}
		int err = issue(r);
		if (err) {
			fail(r, err);
			continue;
		}
		busy = 1;
	}
}

static int64_t enqueue(struct server_request *rq, enum kind kind, uint32_t sector,
                       uint32_t sectors, uint32_t offset)
{
	if (count == QUEUE_MAX)
		return -EAGAIN;
	struct ide_request *r = &queue[(first + count) % QUEUE_MAX];
	*r = (struct ide_request){ .rq = *rq, .kind = kind, .sector = sector, .count = sectors,
	                           .offset = offset };
	count++;
	start_next();
	return SERVER_LATER;
}

/* ---------------------------------------------------------- handlers */

/* Checks a read or write: a range inside the disk, a data ICA that holds
 * count sectors from a sector-aligned offset. 0 or -EINVAL. */
static int64_t check_transfer(struct server_request *rq, uint32_t *sector, uint32_t *sectors,
                              uint32_t *offset)
{
	const struct disk_transfer_args *a = SERVER_IN(rq, struct disk_transfer_args);
	uint64_t s = a->sector, n = a->count, off = a->offset;
	if (n == 0 || s >= drive.sectors || n > drive.sectors - s)
		return -EINVAL;
	uint64_t ica_sectors = rq->d.ndata ? (uint64_t)rq->d.data_pages[0] * (PAGE_SIZE / DISK_SECTOR_SIZE) : 0;
	if (off % DISK_SECTOR_SIZE != 0 || off / DISK_SECTOR_SIZE >= ica_sectors ||
	    n > ica_sectors - off / DISK_SECTOR_SIZE)
		return -EINVAL;
	/* All three now fit in 32 bits: the disk has < 2^28 sectors and an
	 * ICA at most MYRMEX_ICA_MAX_PAGES pages. */
	*sector = (uint32_t)s;
	*sectors = (uint32_t)n;
	*offset = (uint32_t)off;
	return 0;
}

int64_t do_read(struct server_request *rq)
{
	uint32_t sector, sectors, offset;
	int64_t err = check_transfer(rq, &sector, &sectors, &offset);
	return err ? err : enqueue(rq, IDE_READ, sector, sectors, offset);
}

int64_t do_write(struct server_request *rq)
{
	uint32_t sector, sectors, offset;
	int64_t err = check_transfer(rq, &sector, &sectors, &offset);
	return err ? err : enqueue(rq, IDE_WRITE, sector, sectors, offset);
}

int64_t do_info(struct server_request *rq)
{
	struct disk_info_result *res = SERVER_OUT(rq, struct disk_info_result);
	res->sectors = drive.sectors;
	res->sector_size = DISK_SECTOR_SIZE;
	res->block_size = DISK_SECTOR_SIZE;
	res->flags = drive.can_flush ? DISK_INFO_FLUSH : 0;
	return 0;
}

int64_t do_flush(struct server_request *rq)
{
	if (!drive.can_flush)
		return 0;   /* no write cache to empty: every completed write is stable */
	return enqueue(rq, IDE_FLUSH, 0, 0, 0);
}

/* ---------------------------------------------------------- completion */

/* The drive interrupted for r and its status register reads st: moves the
 * transfer on when the drive is where r expects it, ends r (finish, or
 * fail), or drops the interrupt while the drive is still busy. */
static void advance(struct ide_request *r, long st)
{
	if (st < 0) {
		fail(r, st);
		return;
	}
	if (st & ATA_ST_BSY) {
		if (++early == 1)
			drv_log("an interrupt while the drive is busy (status %#lx): dropped", st);
		return;
	}
	if (st & (ATA_ST_ERR | ATA_ST_DF)) {
		fail(r, st);
		return;
	}
	if (r->kind == IDE_FLUSH) {
		if (st & ATA_ST_DRQ)
			fail(r, st);
		else
			finish(r, 0);
		return;
	}
	if (r->kind == IDE_READ) {
		if (!(st & ATA_ST_DRQ)) {   /* no sector to read */
			fail(r, st);
			return;
		}
		ata_read_sector(r->buf + r->offset + r->done * DISK_SECTOR_SIZE);
		r->done++;
	} else {
		/* A write's interrupt ends the sector written last: DRQ set when
		 * the drive wants the next one of this command, clear at its end. */
		r->done++;
		if ((r->done < r->command_end) != !!(st & ATA_ST_DRQ)) {
			fail(r, st);
			return;
		}
	}
	if (r->done == r->count) {
		finish(r, (int64_t)r->count * DISK_SECTOR_SIZE);
		return;
	}
	if (r->done == r->command_end) {
		if (issue(r) < 0)
			fail(r, -1);
		return;
	}
	if (r->kind == IDE_WRITE)
		ata_write_sector(r->buf + r->offset + r->done * DISK_SECTOR_SIZE);
}

void ide_interrupt(uint32_t lines)
{
	(void)lines;   /* the drive has one line */
	long st = ata_read(ATA_STATUS);   /* drops INTRQ */
	if (busy)
		advance(&queue[first], st);
	else if (++spurious == 1)
		drv_log("an interrupt with no command in the drive (status %#lx)", st);
	start_next();
	myrmex_dev_irq_ack();
}
