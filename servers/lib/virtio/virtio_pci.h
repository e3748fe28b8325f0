/*
 * The modern virtio PCI transport (virtio 1.x, "Virtio Over PCI Bus"): find
 * the device's virtio structures through its vendor capabilities, map them,
 * and drive the generic part of the device's life: reset, status bits,
 * feature negotiation, virtqueue registers, notifications, the ISR status
 * byte and the device-specific configuration. Nothing here knows what kind of
 * device it is; the virtio-blk and virtio-net drivers link it (a library
 * folder of servers/, named in their main.c).
 */
#ifndef VIRTIO_PCI_H
#define VIRTIO_PCI_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex/device.h>

#define VIRTIO_PCI_VENDOR 0x1af4

/* Device status bits (virtio 1.x, "Device Status Field"). */
#define VIRTIO_STATUS_ACKNOWLEDGE 1u
#define VIRTIO_STATUS_DRIVER      2u
#define VIRTIO_STATUS_DRIVER_OK   4u
#define VIRTIO_STATUS_FEATURES_OK 8u
#define VIRTIO_STATUS_NEEDS_RESET 64u
#define VIRTIO_STATUS_FAILED      128u

/* Feature bits shared by every device type. */
#define VIRTIO_F_VERSION_1 (1ull << 32)

/* ISR status bits (read clears them and deasserts INTx). */
#define VIRTIO_ISR_QUEUE  1u
#define VIRTIO_ISR_CONFIG 2u

/* The common configuration structure, in the order the spec gives it. The
 * 64-bit queue addresses are written as two 32-bit halves, as the spec asks
 * of drivers. */
struct virtio_pci_common_cfg {
	uint32_t device_feature_select;
	uint32_t device_feature;
	uint32_t driver_feature_select;
	uint32_t driver_feature;
	uint16_t config_msix_vector;
	uint16_t num_queues;
	uint8_t device_status;
	uint8_t config_generation;
	uint16_t queue_select;
	uint16_t queue_size;
	uint16_t queue_msix_vector;
	uint16_t queue_enable;
	uint16_t queue_notify_off;
	uint32_t queue_desc_lo, queue_desc_hi;
	uint32_t queue_driver_lo, queue_driver_hi;
	uint32_t queue_device_lo, queue_device_hi;
};
_Static_assert(offsetof(struct virtio_pci_common_cfg, device_status) == 20, "common cfg layout");
_Static_assert(offsetof(struct virtio_pci_common_cfg, queue_select) == 22, "common cfg layout");
_Static_assert(offsetof(struct virtio_pci_common_cfg, queue_notify_off) == 30, "common cfg layout");
_Static_assert(offsetof(struct virtio_pci_common_cfg, queue_desc_lo) == 32, "common cfg layout");
_Static_assert(sizeof(struct virtio_pci_common_cfg) == 56, "common cfg layout");

struct virtio_pci {
	volatile struct virtio_pci_common_cfg *common;
	volatile uint8_t *isr;
	volatile uint8_t *device_cfg;
	uint32_t device_cfg_len;
	volatile uint8_t *notify;      /* start of the notification structure */
	uint32_t notify_len;
	uint32_t notify_multiplier;
	uint64_t features;             /* negotiated */
};

/*
 * Finds the common, notification, ISR and device-specific structures in the
 * capability list of the caller's device (described by info), checks that
 * each lies inside a memory BAR, maps those BARs and turns on memory decoding
 * and bus mastering (INTx left enabled). 0, or -ENODEV when a structure is
 * missing or malformed, or the error of the mapping call.
 */
int vp_probe(struct virtio_pci *vp, const struct myrmex_pci_info *info);

/*
 * Resets the device, then ACKNOWLEDGE, DRIVER, and accepts the features in
 * `wanted` that the device offers; `required` must all be offered. Ends
 * with FEATURES_OK set and confirmed by the device (vp->features holds the
 * result). 0, -ETIMEDOUT (reset never finished), -ENODEV (required features
 * missing; FAILED is set) or -EIO (FEATURES_OK refused; FAILED is set).
 */
int vp_negotiate(struct virtio_pci *vp, uint64_t wanted, uint64_t required);

/* Writes 0 to the status: the device forgets its queues and stops DMA. */
void vp_reset(struct virtio_pci *vp);

/* Sets FAILED: the driver gave up on the device. */
void vp_fail(struct virtio_pci *vp);

/* Sets DRIVER_OK: the device may start using its queues. */
void vp_driver_ok(struct virtio_pci *vp);

/* The largest size the device allows for queue `index` (0: no such queue). */
uint16_t vp_queue_max(struct virtio_pci *vp, uint16_t index);

/*
 * Gives queue `index` its size and the physical addresses of its three areas
 * and enables it. Returns the queue's notification register, or NULL when
 * the device's notification offset lies outside the structure.
 */
volatile uint16_t *vp_queue_enable(struct virtio_pci *vp, uint16_t index, uint16_t size,
                                   uint64_t desc, uint64_t driver, uint64_t device);

/* Reads (and so clears) the ISR status byte, which deasserts INTx. */
uint8_t vp_isr(struct virtio_pci *vp);

/*
 * The 32- or 64-bit little-endian field at `offset` in the device-specific
 * configuration, read consistently (retried while config_generation moves).
 * 0 when the field lies outside the structure.
 */
uint32_t vp_config32(struct virtio_pci *vp, uint32_t offset);
uint64_t vp_config64(struct virtio_pci *vp, uint32_t offset);

#endif
