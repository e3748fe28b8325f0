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
 * with 1 when the device cannot be used. docs/net.md describes it.
 */
#include "driver.h"

#include <stdarg.h>

#define RTL_VENDOR 0x10ec
#define RTL_8139   0x8139

void drv_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog(DRV_NAME, fmt, ap);
	va_end(ap);
}

int main(int argc, char **argv)
{
	static const uint16_t ids[] = { RTL_8139 };
	struct myrmex_pci_info info;
	int index = myrmex_dev_pick(argc > 1 ? argv[1] : NULL, RTL_VENDOR, ids, 1, &info);
	if (index < 0) {
		drv_log("no RTL8139%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	if (ops_init() < 0 || nic_init(&info) < 0)
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
