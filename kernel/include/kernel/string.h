/*
 * The few C string and memory functions the kernel needs. GCC may emit calls
 * to memcpy/memset/memmove/memcmp itself, so these keep their standard names.
 */
#ifndef KERNEL_STRING_H
#define KERNEL_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
/* Copies at most size-1 bytes and always terminates (size > 0). */
void strlcpy(char *dst, const char *src, size_t size);

#endif
