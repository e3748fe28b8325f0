/*
 * Control-ICA helpers (see myrmex.h): write a fresh header, push a call frame
 * onto the frame stack, and find the newest frame, the frame whose result
 * arrived, or the frame at an offset. Frames sit one after another from
 * offset 32 (sizeof the header), each 112 bytes, as docs/ipc.md shows. The
 * helpers check offsets the way the kernel does (after the header, 8-byte
 * aligned) so that a header another process scribbled on gives NULL, not a
 * wild pointer; the bound of the ICA is the caller's npages.
 */
#include "myrmex.h"

#include <string.h>

#define CTL_PAGE_SIZE 4096u
#define CTL_FIRST_FRAME ((uint32_t)sizeof(struct myrmex_ctl_header))
#define CTL_FRAME_SIZE ((uint32_t)sizeof(struct myrmex_frame))

struct myrmex_ctl_header *myrmex_ctl_init(void *ica)
{
	struct myrmex_ctl_header *h = ica;
	memset(h, 0, sizeof(*h));
	h->magic = MYRMEX_CTL_MAGIC;
	return h;
}

struct myrmex_frame *myrmex_ctl_frame(struct myrmex_ctl_header *h, uint32_t offset)
{
	if (offset < CTL_FIRST_FRAME || (offset & 7u) != 0)
		return NULL;
	return (struct myrmex_frame *)((char *)h + offset);
}

struct myrmex_frame *myrmex_ctl_push(struct myrmex_ctl_header *h, uint32_t npages,
                                     uint32_t target, uint32_t opcode)
{
	uint32_t top = h->currentp;
	uint64_t next;
	if (top == 0) {
		next = CTL_FIRST_FRAME;
	} else {
		if (!myrmex_ctl_frame(h, top))
			return NULL;
		next = (uint64_t)top + CTL_FRAME_SIZE;
	}
	uint64_t depth = (next - CTL_FIRST_FRAME) / CTL_FRAME_SIZE + 1;
	if (depth > MYRMEX_MAX_STAGES || next + CTL_FRAME_SIZE > (uint64_t)npages * CTL_PAGE_SIZE)
		return NULL;
	struct myrmex_frame *f = (struct myrmex_frame *)((char *)h + next);
	memset(f, 0, sizeof(*f));
	f->prev = top;
	f->target = target;
	f->opcode = opcode;
	h->currentp = (uint32_t)next;
	return f;
}

struct myrmex_frame *myrmex_ctl_top(struct myrmex_ctl_header *h)
{
	return myrmex_ctl_frame(h, h->currentp);
}

struct myrmex_frame *myrmex_ctl_result(struct myrmex_ctl_header *h)
{
	return myrmex_ctl_frame(h, h->resultp);
}
