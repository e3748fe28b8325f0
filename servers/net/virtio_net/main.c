/*
 * virtio_net: the NIC driver server for a virtio network device on the
 * modern virtio PCI transport (QEMU's virtio-net-pci). The init starts it
 * with the server right and the device (MYRMEX_SPAWN_SERVER |
 * MYRMEX_SPAWN_DEVICE(index)), passing the device index:
 *
 *     virtio_net [device index]
 *
 * Without an argument it takes the first virtio-net device dev_info lists.
 * It brings the device up, then registers MYRMEX_COREID_NIC and serves the
 * network protocol (include/myrmex/net.h) forever with the NIC driver
 * library (servers/lib/netdrv, netdrv_serve) on the server library:
 * requests and interrupts both arrive through get(). Exits with 1 when the
 * device cannot be used. docs/net.md describes it.
 */
/* server-libraries: servers/lib/virtio servers/lib/netdrv */
#include "driver.h"
#include "../../lib/virtio/virtio_pci.h"

#define VIRTIO_NET_MODERN       0x1041
#define VIRTIO_NET_TRANSITIONAL 0x1000

/* Frames start past the virtio_net_hdr in the ICA the device wrote; the
 * control ICA is claimed for every answer (the ICA going back is the
 * ring's, even when it is the one this receive lent). */
const struct netdrv netdrv = { .name = DRV_NAME, .rx_offset = VNET_HDR_LEN, .claim_always = true };

int main(int argc, char **argv)
{
	static const uint16_t ids[] = { VIRTIO_NET_MODERN, VIRTIO_NET_TRANSITIONAL };
	struct myrmex_pci_info info;
	int index = myrmex_dev_pick(argc > 1 ? argv[1] : NULL, VIRTIO_PCI_VENDOR, ids, 2, &info);
	if (index < 0) {
		drv_log("no virtio-net device%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	if (nic_init(&info) < 0)
		return 1;
	return netdrv_serve(index);
}
