/*
 * cf_ide: the disk driver server for an ATA drive on a legacy IDE port
 * range, by PIO with completions as interrupt messages: today the r2d's CF
 * slot in True IDE mode (kernel/arch/sh4/cf.c lists it: legacy, class
 * 0x01/0x01). The init starts it with the server right and the device
 * (MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index)):
 *
 *     cf_ide [device index] [client coreid]
 *
 * Without an index, or with "-", it takes the first legacy IDE device
 * dev_info lists.
 * With a client, only the server registered as that coreid may read, write
 * or flush (-EPERM for the others), as with virtio_blk. It identifies the
 * drive, registers MYRMEX_COREID_DISK and serves the disk protocol
 * (include/myrmex/disk.h) exactly as virtio_blk does, so the file manager
 * runs on either. Exits with 1 when there is no drive.
 */
/* server-libraries: servers/lib/diskdrv */
#include "driver.h"
#include "../../lib/diskdrv/client.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <myrmex/disk.h>

void drv_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog("cf_ide", fmt, ap);
	va_end(ap);
}

static int is_ide(const struct myrmex_pci_info *info)
{
	return info->kind == MYRMEX_DEV_KIND_LEGACY && info->class_code == 0x01 &&
	       info->subclass == 0x01;
}

/* The device given by index in arg, else the first legacy IDE device; -1
 * when there is none. */
static int find_device(const char *arg, struct myrmex_pci_info *info)
{
	if (arg) {
		char *end;
		long index = strtol(arg, &end, 10);
		if (*arg == '\0' || *end != '\0' || index < 0 || index >= MYRMEX_MAX_DEVICES ||
		    myrmex_dev_info((uint32_t)index, info) < 0 || !is_ide(info))
			return -1;
		return (int)index;
	}
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES && myrmex_dev_info(i, info) == 0; i++)
		if (is_ide(info))
			return (int)i;
	return -1;
}

int main(int argc, char **argv)
{
	struct myrmex_pci_info info;
	const char *which = argc > 1 && strcmp(argv[1], "-") != 0 ? argv[1] : NULL;
	int index = find_device(which, &info);
	if (index < 0) {
		drv_log("no legacy IDE device%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	if (argc > 2 && disk_client_set(argv[2]) < 0) {
		drv_log("bad client coreid '%s'", argv[2]);
		return 1;
	}
	struct ata_drive drive;
	if (ata_identify(&drive) < 0) {
		drv_log("device %d: no ATA drive answers IDENTIFY", index);
		return 1;
	}
	ide_init(&drive);
	long r = myrmex_registserver(MYRMEX_COREID_DISK);
	if (r < 0) {
		drv_log("registserver(%u): %ld", MYRMEX_COREID_DISK, r);
		return 1;
	}
	drv_log("device %d: %s, %u sectors (%u MiB), irq %u%s%s%s", index, drive.model,
	        drive.sectors, drive.sectors >> 11, info.irq_line,
	        drive.can_flush ? ", write cache" : "", argc > 2 ? "; serves only coreid " : "",
	        argc > 2 ? argv[2] : "");
	server_run(&ide_server);
}
