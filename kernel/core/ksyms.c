/*
 * Symbol lookup over the generated table (see kernel/ksyms.h). The table is
 * sorted by address: a binary search finds the last symbol at or below addr.
 */
#include <kernel/ksyms.h>

struct ksym {
	uint64_t addr;
	uint64_t name_offset;
};

extern const uint64_t ksyms_count;
extern const struct ksym ksyms_table[];
extern const char ksyms_names[];
extern const char __text_start[], __text_end[];

const char *ksyms_lookup(uint64_t addr, uint64_t *offset)
{
	if (addr < (uintptr_t)__text_start || addr >= (uintptr_t)__text_end || ksyms_count == 0)
		return NULL;
	uint64_t lo = 0, hi = ksyms_count;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (ksyms_table[lo].addr > addr)
		return NULL;
	*offset = addr - ksyms_table[lo].addr;
	return ksyms_names + ksyms_table[lo].name_offset;
}
