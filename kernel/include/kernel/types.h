/*
 * Basic kernel types. The kernel is freestanding: it takes the fixed-width
 * integer types from the compiler's <stdint.h>/<stddef.h>/<stdbool.h> and
 * adds the few names it uses everywhere.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint64_t paddr_t;   /* physical address */
typedef uint64_t vaddr_t;   /* virtual address (kernel or user) */
typedef uint64_t uptr_t;    /* an address supplied by user space: never trusted */

#define PAGE_SHIFT 12
#define PAGE_SIZE  ((uint64_t)1 << PAGE_SHIFT)
#define PAGE_MASK  (PAGE_SIZE - 1)

#define ALIGN_DOWN(x, a) ((x) & ~((uint64_t)(a) - 1))
#define ALIGN_UP(x, a)   (((x) + ((uint64_t)(a) - 1)) & ~((uint64_t)(a) - 1))
#define ARRAY_SIZE(a)    (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)        ((a) < (b) ? (a) : (b))
#define MAX(a, b)        ((a) > (b) ? (a) : (b))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define NORETURN __attribute__((noreturn))
#define UNUSED   __attribute__((unused))

#endif
