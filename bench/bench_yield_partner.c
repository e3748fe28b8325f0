/*
 * Partner of the sched.process_switch benchmark: a process that only yields
 * the CPU, forever. bench_process_switch spawns it at its own priority and
 * kills it (signal 9) when the measurement is done.
 */
#include "bench.h"

int main(void)
{
	bench_yield_forever();
}
