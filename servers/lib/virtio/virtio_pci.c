/*
 * The modern virtio PCI transport (see virtio_pci.h). Configuration space is
 * read through the kernel (dev_config_read); the structures themselves are
 * in memory BARs mapped uncached, accessed with the natural width of each
 * field through volatile pointers, as the spec requires.
 */
#include "virtio_pci.h"

#include <errno.h>
#include <myrmex.h>

#define PCI_COMMAND        0x04
#define PCI_STATUS_CAPS    (1u << 20)   /* in the dword at 0x04: the status half */
#define PCI_CAP_POINTER    0x34
#define PCI_CAP_VENDOR     0x09
#define PCI_CMD_MEMORY     0x2
#define PCI_CMD_MASTER     0x4
#define PCI_CMD_INTX_OFF   0x400
#define PCI_CAPS_MAX       48          /* a longer list is a loop */

/* cfg_type of a virtio structure capability. */
#define CAP_COMMON 1
#define CAP_NOTIFY 2
#define CAP_ISR    3
#define CAP_DEVICE 4
#define CAP_TYPES  5

#define CAP_LEN_MIN        16          /* struct virtio_pci_cap */
#define CAP_NOTIFY_LEN_MIN 20          /* ... followed by notify_off_multiplier */
#define DEVICE_CFG_LIMIT   4096        /* the spec's advice: map no more */

#define RESET_POLL_NS   (100ull * 1000)
#define RESET_POLLS     10000          /* one second */

struct cap {
	int found;
	uint8_t bar;
	uint32_t offset, length, multiplier;
};

static long config(uint32_t offset)
{
	return myrmex_dev_config_read(offset);
}

/* Walks the capability list and keeps the first usable structure of each
 * type (the device lists them in its order of preference). */
static int find_caps(struct cap caps[CAP_TYPES])
{
	long word = config(PCI_COMMAND);
	if (word < 0)
		return (int)word;
	if (!(word & PCI_STATUS_CAPS))
		return -ENODEV;
	long ptr = config(PCI_CAP_POINTER);
	if (ptr < 0)
		return (int)ptr;
	uint32_t at = (uint32_t)ptr & 0xfc;
	for (int n = 0; at >= 0x40 && n < PCI_CAPS_MAX; n++) {
		long head = config(at);
		if (head < 0)
			return (int)head;
		uint32_t id = head & 0xff, next = (head >> 8) & 0xfc, len = (head >> 16) & 0xff;
		uint32_t type = (uint32_t)head >> 24;
		uint32_t need = type == CAP_NOTIFY ? CAP_NOTIFY_LEN_MIN : CAP_LEN_MIN;
		if (id == PCI_CAP_VENDOR && type >= CAP_COMMON && type < CAP_TYPES &&
		    !caps[type].found && len >= need && at + need <= 256) {
			long bar = config(at + 4), offset = config(at + 8), length = config(at + 12);
			long mult = type == CAP_NOTIFY ? config(at + 16) : 0;
			if (bar < 0 || offset < 0 || length < 0 || mult < 0)
				return -EIO;
			if ((bar & 0xff) <= 5) {   /* other values are reserved: ignore */
				caps[type] = (struct cap){ 1, (uint8_t)bar, (uint32_t)offset,
				                           (uint32_t)length, (uint32_t)mult };
			}
		}
		at = next;
	}
	return 0;
}

/* The mapped address of structure c, after checking that it lies in a
 * memory BAR and is at least `need` bytes long; NULL otherwise. */
static volatile uint8_t *map_cap(const struct cap *c, uint32_t need,
                                 const struct myrmex_pci_info *info)
{
	if (!c->found || c->length < need)
		return NULL;
	unsigned bar = c->bar;
	if ((info->bar_is_io & (1u << bar)) || info->bar_size[bar] == 0 ||
	    (uint64_t)c->offset + c->length > info->bar_size[bar])
		return NULL;
	long base = myrmex_dev_map_bar(bar);
	if (base < 0)
		return NULL;
	return (volatile uint8_t *)base + c->offset;
}

int vp_probe(struct virtio_pci *vp, const struct myrmex_pci_info *info)
{
	struct cap caps[CAP_TYPES] = { { 0 } };
	int err = find_caps(caps);
	if (err)
		return err;
	volatile uint8_t *common = map_cap(&caps[CAP_COMMON], sizeof(struct virtio_pci_common_cfg), info);
	volatile uint8_t *notify = map_cap(&caps[CAP_NOTIFY], 2, info);
	volatile uint8_t *isr = map_cap(&caps[CAP_ISR], 1, info);
	volatile uint8_t *device = map_cap(&caps[CAP_DEVICE], 4, info);
	if (!common || !notify || !isr || !device)
		return -ENODEV;
	vp->common = (volatile struct virtio_pci_common_cfg *)common;
	vp->notify = notify;
	vp->notify_len = caps[CAP_NOTIFY].length;
	vp->notify_multiplier = caps[CAP_NOTIFY].multiplier;
	vp->isr = isr;
	vp->device_cfg = device;
	vp->device_cfg_len = caps[CAP_DEVICE].length < DEVICE_CFG_LIMIT ? caps[CAP_DEVICE].length
	                                                                 : DEVICE_CFG_LIMIT;
	vp->features = 0;

	long command = config(PCI_COMMAND);
	if (command < 0)
		return (int)command;
	/* Only the command half: zeros leave the status half's error bits alone. */
	uint32_t cmd = ((uint32_t)command & 0xffff & ~PCI_CMD_INTX_OFF) | PCI_CMD_MEMORY | PCI_CMD_MASTER;
	long r = myrmex_dev_config_write(PCI_COMMAND, cmd);
	return r < 0 ? (int)r : 0;
}

void vp_reset(struct virtio_pci *vp)
{
	vp->common->device_status = 0;
}

void vp_fail(struct virtio_pci *vp)
{
	vp->common->device_status |= VIRTIO_STATUS_FAILED;
}

void vp_driver_ok(struct virtio_pci *vp)
{
	vp->common->device_status |= VIRTIO_STATUS_DRIVER_OK;
}

int vp_negotiate(struct virtio_pci *vp, uint64_t wanted, uint64_t required)
{
	volatile struct virtio_pci_common_cfg *c = vp->common;
	vp_reset(vp);
	/* The spec: wait for the status to read 0 before initialising again. */
	int polls = 0;
	while (c->device_status != 0) {
		if (++polls == RESET_POLLS)
			return -ETIMEDOUT;
		myrmex_sleep_ns(RESET_POLL_NS);
	}
	c->device_status = VIRTIO_STATUS_ACKNOWLEDGE;
	c->device_status |= VIRTIO_STATUS_DRIVER;

	c->device_feature_select = 0;
	uint64_t offered = c->device_feature;
	c->device_feature_select = 1;
	offered |= (uint64_t)c->device_feature << 32;
	if ((offered & required) != required) {
		vp_fail(vp);
		return -ENODEV;
	}
	uint64_t accepted = offered & wanted;
	c->driver_feature_select = 0;
	c->driver_feature = (uint32_t)accepted;
	c->driver_feature_select = 1;
	c->driver_feature = (uint32_t)(accepted >> 32);

	c->device_status |= VIRTIO_STATUS_FEATURES_OK;
	if (!(c->device_status & VIRTIO_STATUS_FEATURES_OK)) {
		vp_fail(vp);
		return -EIO;
	}
	vp->features = accepted;
	return 0;
}

uint16_t vp_queue_max(struct virtio_pci *vp, uint16_t index)
{
	vp->common->queue_select = index;
	return vp->common->queue_size;
}

volatile uint16_t *vp_queue_enable(struct virtio_pci *vp, uint16_t index, uint16_t size,
                                   uint64_t desc, uint64_t driver, uint64_t device)
{
	volatile struct virtio_pci_common_cfg *c = vp->common;
	c->queue_select = index;
	uint64_t where = (uint64_t)c->queue_notify_off * vp->notify_multiplier;
	if (where + 2 > vp->notify_len)
		return NULL;
	c->queue_size = size;
	c->queue_desc_lo = (uint32_t)desc;
	c->queue_desc_hi = (uint32_t)(desc >> 32);
	c->queue_driver_lo = (uint32_t)driver;
	c->queue_driver_hi = (uint32_t)(driver >> 32);
	c->queue_device_lo = (uint32_t)device;
	c->queue_device_hi = (uint32_t)(device >> 32);
	c->queue_enable = 1;
	return (volatile uint16_t *)(vp->notify + where);
}

uint8_t vp_isr(struct virtio_pci *vp)
{
	return *vp->isr;
}

uint32_t vp_config32(struct virtio_pci *vp, uint32_t offset)
{
	if ((offset & 3) || (uint64_t)offset + 4 > vp->device_cfg_len)
		return 0;
	uint8_t generation;
	uint32_t v;
	do {
		generation = vp->common->config_generation;
		v = *(volatile uint32_t *)(vp->device_cfg + offset);
	} while (generation != vp->common->config_generation);
	return v;
}

uint64_t vp_config64(struct virtio_pci *vp, uint32_t offset)
{
	if ((offset & 3) || (uint64_t)offset + 8 > vp->device_cfg_len)
		return 0;
	uint8_t generation;
	uint64_t v;
	do {
		generation = vp->common->config_generation;
		v = *(volatile uint32_t *)(vp->device_cfg + offset);
		v |= (uint64_t)*(volatile uint32_t *)(vp->device_cfg + offset + 4) << 32;
	} while (generation != vp->common->config_generation);
	return v;
}
