/*
 * virtio_blk: the disk driver server for a virtio block device on the
 * modern virtio PCI transport. The init starts it with the server right and
 * the device (MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index)), passing the
 * device index as its argument, and the coreid of its client when it has
 * one (the file manager's, MYRMEX_COREID_FS):
 *
 *     virtio_blk <device index> [client coreid]
 *
 * Without an argument it takes the first virtio-blk device dev_info lists.
 * With a client, only the server registered as that coreid may read, write
 * or flush the disk (-EPERM for the others); without one, anyone may (the
 * disk tests drive it directly).
 * It brings the device up, registers MYRMEX_COREID_DISK, and then serves
 * the disk protocol (include/myrmex/disk.h) forever with the server
 * library: requests and interrupts both arrive through get(). Exits with 1 when the device cannot be used.
 */
/* server-libraries: servers/lib/virtio servers/lib/diskdrv */
#include "driver.h"
#include "../../lib/diskdrv/client.h"
#include "../../lib/virtio/virtio_pci.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <myrmex/disk.h>

#define VIRTIO_BLK_MODERN       0x1042
#define VIRTIO_BLK_TRANSITIONAL 0x1001

void drv_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog("virtio_blk", fmt, ap);
	va_end(ap);
}

/* The device this process was given: by index from argv, else the first
 * virtio-blk device. -1 when there is none. */
static int find_device(int argc, char **argv, struct myrmex_pci_info *info)
{
	static const uint16_t ids[] = { VIRTIO_BLK_MODERN, VIRTIO_BLK_TRANSITIONAL };
	return myrmex_dev_pick(argc > 1 ? argv[1] : NULL, VIRTIO_PCI_VENDOR, ids, 2, info);
}

int main(int argc, char **argv)
{
	struct myrmex_pci_info info;
	int index = find_device(argc, argv, &info);
	if (index < 0) {
		drv_log("no virtio-blk device%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	if (argc > 2 && disk_client_set(argv[2]) < 0) {
		drv_log("bad client coreid '%s'", argv[2]);
		return 1;
	}
	if (blk_init(&info) < 0)
		return 1;
	long r = myrmex_registserver(MYRMEX_COREID_DISK);
	if (r < 0) {
		drv_log("registserver(%u): %ld", MYRMEX_COREID_DISK, r);
		return 1;
	}
	char about[160];
	blk_describe(about, sizeof about);
	drv_log("device %d: %s%s%s", index, about, argc > 2 ? "; serves only coreid " : "",
	        argc > 2 ? argv[2] : "");

	server_run(&blk_server);
}
