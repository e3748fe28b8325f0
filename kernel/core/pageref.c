/*
 * Reference counts of shared page frames (see kernel/pageref.h).
 */
#include <kernel/pageref.h>
#include <stddef.h>

void pageref_init(struct pageref *r, uint16_t *extra, uint64_t npages)
{
	r->extra = extra;
	r->npages = npages;
	for (uint64_t i = 0; i < npages; i++)
		extra[i] = 0;
}

int pageref_get(struct pageref *r, uint64_t page)
{
	if (page >= r->npages || r->extra[page] == PAGEREF_MAX_EXTRA)
		return -1;
	r->extra[page]++;
	return 0;
}

int pageref_put(struct pageref *r, uint64_t page)
{
	if (page >= r->npages)
		return -1;
	if (r->extra[page] == 0)
		return 1;
	r->extra[page]--;
	return 0;
}

bool pageref_shared(const struct pageref *r, uint64_t page)
{
	return page < r->npages && r->extra[page] != 0;
}
