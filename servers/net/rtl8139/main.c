/*
 * rtl8139: the NIC driver server for a Realtek RTL8139 (QEMU's
 * `-device rtl8139`), serving the same protocol as virtio_net
 * (include/myrmex/net.h) at the same coreid, MYRMEX_COREID_NIC: only one
 * NIC driver runs at a time. The init starts it with the server right and
 * the device (MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index)):
 *
 *     rtl8139 [device index] [ica=pt|ica=tlb]
 *
 * Without an index it takes the first RTL8139 dev_info lists. ica=tlb says
 * that ICAs live in reserved TLB entries (paper 002's method on SH-4,
 * docs/sh4.md), which all address spaces share: the driver then holds 4
 * ICA pages (an 8 KiB receive ring in 3, one spare) instead of 33 (64 KiB
 * in 17, 16 spares); ica=pt, the default, is the latter. Exits with 1 when
 * an argument is bad or the device cannot be used. The protocol is served by the NIC
 * driver library (servers/lib/netdrv). docs/net.md describes it.
 */
/* server-libraries: servers/lib/netdrv */
#include "driver.h"

#include <string.h>

#define RTL_VENDOR 0x10ec
#define RTL_8139   0x8139
#define SPARES_TLB 1u   /* ica=tlb: frames queued for later receives */

/* Frames are copied to the start of the receiver's ICA; the control ICA is
 * claimed only when the ICA going back is not the one lent (a queued
 * frame's spare). */
const struct netdrv netdrv = { .name = DRV_NAME, .rx_offset = 0, .claim_always = false };

int main(int argc, char **argv)
{
	static const uint16_t ids[] = { RTL_8139 };
	const char *at = NULL;
	bool few = false;   /* ica=tlb */
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "ica=", 4) == 0 &&
		    (strcmp(argv[i] + 4, "pt") == 0 || strcmp(argv[i] + 4, "tlb") == 0)) {
			few = argv[i][4] == 't';
		} else if (strncmp(argv[i], "ica=", 4) != 0 && !at) {
			at = argv[i];
		} else {
			drv_log("bad argument \"%s\": usage: rtl8139 [device index] [ica=pt|ica=tlb]",
			        argv[i]);
			return 1;
		}
	}
	struct myrmex_pci_info info;
	int index = myrmex_dev_pick(at, RTL_VENDOR, ids, 1, &info);
	if (index < 0) {
		drv_log("no RTL8139%s%s", at ? " at index " : "", at ? at : "");
		return 1;
	}
	if (copy_init(few ? SPARES_TLB : NET_RX_QUEUE_MAX) < 0 || nic_init(&info, few) < 0)
		return 1;
	return netdrv_serve(index);
}
