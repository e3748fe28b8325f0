/*
 * rtl8139: the NIC driver server for a Realtek RTL8139 (QEMU's
 * `-device rtl8139`), serving the same protocol as virtio_net
 * (include/myrmex/net.h) at the same coreid, MYRMEX_COREID_NIC: only one
 * NIC driver runs at a time. The init starts it with the server right and
 * the device (MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index)):
 *
 *     rtl8139 [device index]
 *
 * Without an argument it takes the first RTL8139 dev_info lists. Exits
 * with 1 when the device cannot be used. The protocol is served by the NIC
 * driver library (servers/lib/netdrv). docs/net.md describes it.
 */
/* server-libraries: servers/lib/netdrv */
#include "driver.h"

#define RTL_VENDOR 0x10ec
#define RTL_8139   0x8139

/* Frames are copied to the start of the receiver's ICA; the control ICA is
 * claimed only when the ICA going back is not the one lent (a queued
 * frame's spare). */
const struct netdrv netdrv = { .name = DRV_NAME, .rx_offset = 0, .claim_always = false };

int main(int argc, char **argv)
{
	static const uint16_t ids[] = { RTL_8139 };
	struct myrmex_pci_info info;
	int index = myrmex_dev_pick(argc > 1 ? argv[1] : NULL, RTL_VENDOR, ids, 1, &info);
	if (index < 0) {
		drv_log("no RTL8139%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	if (copy_init() < 0 || nic_init(&info) < 0)
		return 1;
	return netdrv_serve(index);
}
