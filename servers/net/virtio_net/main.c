/*
 * virtio_net: the NIC driver server for a virtio network device on the
 * modern virtio PCI transport (QEMU's virtio-net-pci). The init starts it
 * with the server right and the device (MYRMEX_SPAWN_SERVER |
 * MYRMEX_SPAWN_DEVICE(index)), passing the device index:
 *
 *     virtio_net [device index]
 *
 * Without an argument it takes the first virtio-net device dev_info lists.
 * It brings the device up, registers MYRMEX_COREID_NIC and serves the
 * network protocol (include/myrmex/net.h) forever with the server library:
 * requests and interrupts both arrive through get(). Exits with 1 when the
 * device cannot be used. docs/net.md describes it.
 */
/* server-libraries: servers/lib/virtio */
#include "driver.h"
#include "../../lib/virtio/virtio_pci.h"

#include <stdarg.h>

#define VIRTIO_NET_MODERN       0x1041
#define VIRTIO_NET_TRANSITIONAL 0x1000

void drv_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog(DRV_NAME, fmt, ap);
	va_end(ap);
}

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
	long r = myrmex_registserver(MYRMEX_COREID_NIC);
	if (r < 0) {
		drv_log("registserver(%u): %ld", MYRMEX_COREID_NIC, r);
		return 1;
	}
	char about[160];
	nic_describe(about, sizeof about);
	drv_log("device %d: %s", index, about);
	server_run(&net_server);
}
