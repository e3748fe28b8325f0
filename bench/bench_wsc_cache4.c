/*
 * bench_wsc_cache4: bench_wsc_cache on the paper's own grid, widths in 4 KiB
 * steps (65 x 65 points; slow under the cachesim plugin, so not in
 * `make bench`: MYRMEX_WSC_CACHE_STEP=4, docs/benchmarks.md).
 */
#define WSC_CACHE_STEP_KIB 4u
#include "bench_wsc_cache.c"
