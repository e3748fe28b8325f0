/*
 * random.c - the CPU's random number generator for the portable kernel
 * (arch_random64, kernel/arch.h): RDRAND where CPUID says the CPU has it
 * (QEMU's -cpu max does, KVM passes the host's through).
 */
#include <kernel/arch.h>
#include <arch/x86.h>

/* Intel asks callers to retry a few times: RDRAND may briefly come up
 * empty (carry clear) when the generator is drained. */
#define RDRAND_TRIES 10

bool arch_random64(uint64_t *out)
{
	if (!x86_features.rdrand)
		return false;
	for (int i = 0; i < RDRAND_TRIES; i++) {
		uint64_t v;
		uint8_t ok;
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		if (ok) {
			*out = v;
			return true;
		}
	}
	return false;
}
