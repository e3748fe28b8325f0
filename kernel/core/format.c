/*
 * kvsnprintf: the kernel's formatter (see kernel/printk.h). Pure code, also
 * compiled into the host unit tests.
 */
#include <kernel/printk.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, bool left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;
	if (!left)
		while (fill-- > 0)
			put(o, pad);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (left)
		while (fill-- > 0)
			put(o, ' ');
}

static void put_number(struct out *o, uint64_t v, bool negative, unsigned base, bool upper,
                       int width, bool left, char pad, const char *prefix)
{
	char tmp[24];
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t n = 0;
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	char text[32];
	size_t t = 0;
	if (negative)
		text[t++] = '-';
	for (const char *p = prefix; *p; p++)
		text[t++] = *p;
	/* With zero padding the sign and prefix go before the zeros. */
	if (pad == '0' && !left) {
		int zeros = width - (int)(t + n);
		for (size_t i = 0; i < t; i++)
			put(o, text[i]);
		while (zeros-- > 0)
			put(o, '0');
		while (n)
			put(o, tmp[--n]);
		return;
	}
	while (n)
		text[t++] = tmp[--n];
	put_padded(o, text, t, width, left, ' ');
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		p++;
		bool left = false, alt = false;
		char pad = ' ';
		for (;; p++) {
			if (*p == '-')
				left = true;
			else if (*p == '0')
				pad = '0';
			else if (*p == '#')
				alt = true;
			else
				break;
		}
		int width = 0;
		while (*p >= '0' && *p <= '9')
			width = width * 10 + (*p++ - '0');
		/* Each length modifier reads its own C type: long is 32 bits on a
		 * 32-bit port, and size_t may differ from long. */
		enum { LEN_INT, LEN_LONG, LEN_LLONG, LEN_SIZE } len = LEN_INT;
		if (*p == 'z') {
			len = LEN_SIZE;
			p++;
		} else if (*p == 'l') {
			len = LEN_LONG;
			if (*++p == 'l') {
				len = LEN_LLONG;
				p++;
			}
		}
		switch (*p) {
		case 'd':
		case 'i': {
			int64_t v = len == LEN_LONG ? va_arg(ap, long)
			          : len == LEN_LLONG ? va_arg(ap, long long)
			          : len == LEN_SIZE ? va_arg(ap, ptrdiff_t)   /* signed size_t */
			          : va_arg(ap, int);
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			put_number(&o, mag, v < 0, 10, false, width, left, pad, "");
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = len == LEN_LONG ? va_arg(ap, unsigned long)
			           : len == LEN_LLONG ? va_arg(ap, unsigned long long)
			           : len == LEN_SIZE ? va_arg(ap, size_t)
			           : va_arg(ap, unsigned);
			unsigned base = *p == 'u' ? 10 : 16;
			put_number(&o, v, false, base, *p == 'X', width, left, pad,
			           alt && base == 16 ? "0x" : "");
			break;
		}
		case 'p':
			put_number(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), false, 16, false,
			           width, left, pad, "0x");
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			size_t n = 0;
			while (s[n])
				n++;
			put_padded(&o, s, n, width, left, ' ');
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);
			put_padded(&o, &c, 1, width, left, ' ');
			break;
		}
		case '%':
			put(&o, '%');
			break;
		case '\0':
			p--;
			break;
		default:
			put(&o, '%');
			put(&o, *p);
			break;
		}
	}
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
