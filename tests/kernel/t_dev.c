/*
 * t_dev: devices for user-level drivers (include/myrmex/device.h).
 *
 *   t_dev none    a process without a device: every device call is refused,
 *                 dev_info checks its index and pointer, and only the init
 *                 may give a device at spawn.
 *   t_dev owner   run by the test init with the emulated e1000 NIC given to
 *                 it: its configuration space, a memory BAR mapped uncached
 *                 (a register read back), its interrupt arriving through get()
 *                 as a message (twice, with dev_irq_ack between), the limits on
 *                 configuration writes, and the physical address of an ICA.
 */
#define TEST_NAME "t_dev"
#include "test_check.h"

#include <errno.h>
#include <myrmex/device.h>

#define NIC_VENDOR 0x8086
#define NIC_DEVICE 0x100e
#define E1000_STATUS 0x8
#define E1000_ICR    0xc0   /* interrupt cause read (reading clears it) */
#define E1000_ICS    0xc8   /* interrupt cause set */
#define E1000_IMS    0xd0   /* interrupt mask set */
#define E1000_IMC    0xd8   /* interrupt mask clear */
#define E1000_INT_LSC 0x4   /* link status change */

static long dev_call(long nr, long a, long b)
{
	return myrmex_syscall6(nr, a, b, 0, 0, 0, 0);
}

static void without_device(void)
{
	struct myrmex_pci_info info;
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_INFO, 0, (long)&info), 0);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_INFO, MYRMEX_MAX_DEVICES, (long)&info), -ENODEV);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_INFO, -1, (long)&info), -ENODEV);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_INFO, 0, 0), -EFAULT);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_INFO, 0, (long)0xffffffff80100000ul), -EFAULT);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_READ, 0, 0), -ENODEV);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_WRITE, 4, 0), -ENODEV);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_MAP_BAR, 0, 0), -ENODEV);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_IRQ_ACK, 0, 0), -ENODEV);
	long h = myrmex_ica_alloc(1);
	CHECK(h > 0, "ica_alloc: %ld", h);
	CHECK_EQ(dev_call(MYRMEX_SYS_ICA_PHYS, h, 0), -EPERM);
	myrmex_ica_free((uint32_t)h);
	/* Only the init gives devices. */
	char *argv[] = { "t_alive", NULL };
	CHECK_EQ(myrmex_spawn_flags("t_alive", argv, argv + 1, -1, MYRMEX_SPAWN_DEVICE(0)), -EPERM);
	CHECK_EQ(myrmex_spawn_flags("t_alive", argv, argv + 1, -1, 1u << 20), -EINVAL);
	/* The device window is the kernel's: no mapping may land there. */
	CHECK_EQ(myrmex_syscall6(SYS_mmap, (long)MYRMEX_DEVICE_WINDOW, 4096, 3, 0x32, -1, 0), -ENOMEM);
}

/* Makes the NIC raise its interrupt line and expects it as a get() message;
 * after the driver clears the cause and acknowledges, it comes again. */
static void interrupt_as_message(volatile uint32_t *regs)
{
	regs[E1000_IMS / 4] = E1000_INT_LSC;
	for (int round = 0; round < 2; round++) {
		regs[E1000_ICS / 4] = E1000_INT_LSC;
		struct myrmex_delivery d;
		long r = myrmex_get(NULL, &d);
		CHECK_EQ(r, 0);
		CHECK(d.kind == MYRMEX_DELIVERY_INTERRUPT && d.opcode >= 1,
		      "round %d: get gave kind %u count %u, not an interrupt", round, d.kind, d.opcode);
		uint32_t cause = regs[E1000_ICR / 4];   /* deasserts the line */
		CHECK(cause & E1000_INT_LSC, "round %d: ICR %#x lacks the cause", round, cause);
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_DEV_IRQ_ACK, 0, 0, 0, 0, 0, 0), 0);
	}
	regs[E1000_IMC / 4] = 0xffffffffu;
}

static void with_device(void)
{
	struct myrmex_pci_info info;
	int index = -1;
	for (int i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		if (dev_call(MYRMEX_SYS_DEV_INFO, i, (long)&info) < 0)
			break;
		if (info.vendor == NIC_VENDOR && info.device == NIC_DEVICE) {
			index = i;
			break;
		}
	}
	CHECK(index >= 0 && info.owned, "the NIC is not listed as given");
	if (index < 0)
		return;
	long id = dev_call(MYRMEX_SYS_DEV_CONFIG_READ, 0, 0);
	CHECK_EQ(id, (long)(NIC_VENDOR | (uint32_t)NIC_DEVICE << 16));
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_READ, 2, 0), -EINVAL);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_READ, 256, 0), -EINVAL);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_WRITE, 0x10, 0), -EPERM);   /* a BAR */
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_WRITE, 0x3c, 0), -EPERM);   /* interrupt line */
	long command = dev_call(MYRMEX_SYS_DEV_CONFIG_READ, 4, 0);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_CONFIG_WRITE, 4, (command & 0xffff) | 0x6), 0);
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_MAP_BAR, 6, 0), -EINVAL);
	long bar = dev_call(MYRMEX_SYS_DEV_MAP_BAR, 0, 0);
	CHECK_EQ(bar, (long)myrmex_device_bar(0));
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_MAP_BAR, 0, 0), bar);
	if (bar > 0) {
		volatile uint32_t *regs = (volatile uint32_t *)bar;
		uint32_t status = regs[E1000_STATUS / 4];
		CHECK(status != 0xffffffffu, "e1000 STATUS reads all ones: BAR not mapped to the device");
		if (info.irq_line < 24)
			interrupt_as_message(regs);
		else
			test_fail("the NIC has no interrupt line (%u)", info.irq_line);
	}
	if (info.bar_is_io & 2)
		CHECK_EQ(dev_call(MYRMEX_SYS_DEV_MAP_BAR, 1, 0), -EINVAL);   /* I/O ports */
	long h = myrmex_ica_alloc(2);
	long phys = dev_call(MYRMEX_SYS_ICA_PHYS, h, 0);
	CHECK(phys > 0 && (phys & 0xfff) == 0, "ica_phys: %ld", phys);
	CHECK_EQ(dev_call(MYRMEX_SYS_ICA_PHYS, h + 1, 0), -EINVAL);
	myrmex_ica_free((uint32_t)h);
	CHECK_EQ(dev_call(MYRMEX_SYS_ICA_PHYS, h, 0), -EINVAL);   /* freed */
	CHECK_EQ(dev_call(MYRMEX_SYS_DEV_IRQ_ACK, 0, 0), 0);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "owner") == 0)
		with_device();
	else
		without_device();
	return test_exit_code();
}
