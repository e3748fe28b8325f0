/*
 * Host unit tests of the console server's line discipline
 * (servers/console/uart/line.c): what is echoed and what reads get for
 * typed bytes — plain lines, CR and LF, erasing (BS, DEL, Ctrl-U, UTF-8
 * sequences), dropped control characters and escape sequences, short
 * reads, a full line, a full ring of completed lines, and the ring's
 * wrap-around.
 */
/* unit-sources: servers/console/uart/line.c */
#define UNIT_SUITE "console_line"
#include "unit.h"

#include "../../servers/console/uart/line.h"

static struct line_disc ld;
static char echoed[16384];
static size_t echoed_len;

static void record_echo(const char *s, unsigned n, void *ctx)
{
	(void)ctx;
	if (echoed_len + n <= sizeof echoed) {
		memcpy(echoed + echoed_len, s, n);
		echoed_len += n;
	}
}

static void fresh(void)
{
	line_init(&ld, record_echo, NULL);
	echoed_len = 0;
}

static void type_bytes(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		line_input(&ld, (uint8_t)s[i]);
}
#define TYPE(literal) type_bytes(literal, sizeof(literal) - 1)

/* The next read of at most max bytes, as a string. */
static const char *take(unsigned max)
{
	static char out[LINE_READY_MAX + 1];
	unsigned n = line_take(&ld, out, max);
	out[n] = '\0';
	return out;
}

static int echo_is(const char *want, size_t len)
{
	return echoed_len == len && memcmp(echoed, want, len) == 0;
}
#define ECHO_IS(literal) echo_is(literal, sizeof(literal) - 1)

UNIT_TEST(plain_line)
{
	fresh();
	TYPE("hello");
	CHECK(!line_has_input(&ld));
	CHECK_STR(take(100), "");
	TYPE("\r");
	CHECK(line_has_input(&ld));
	CHECK(ECHO_IS("hello\n"));
	CHECK_STR(take(100), "hello\n");
	CHECK(!line_has_input(&ld));
}

UNIT_TEST(cr_and_lf_each_end_a_line)
{
	fresh();
	TYPE("a\rb\n\r\n");
	CHECK_STR(take(100), "a\n");
	CHECK_STR(take(100), "b\n");
	CHECK_STR(take(100), "\n");
	CHECK_STR(take(100), "\n");
	CHECK_STR(take(100), "");
}

UNIT_TEST(erasing)
{
	fresh();
	TYPE("helo\x7flo\x08o\r");
	CHECK_STR(take(100), "hello\n");
	CHECK(ECHO_IS("helo\b \blo\b \bo\n"));
	fresh();
	TYPE("\x7f\x08x\x15\x15y\r");   /* nothing to erase; Ctrl-U kills "x" */
	CHECK_STR(take(100), "y\n");
	CHECK(ECHO_IS("x\b \by\n"));
	fresh();
	TYPE("ab\x15\r");
	CHECK_STR(take(100), "\n");
	CHECK(ECHO_IS("ab\b \b\b \b\n"));
}

UNIT_TEST(utf8_erased_whole)
{
	fresh();
	TYPE("a\xc3\xa9\x7f" "b\xe2\x82\xac\x7f\xf0\x9f\x90\x9c\x7f" "c\r");
	CHECK_STR(take(100), "abc\n");
	fresh();
	TYPE("\xe2\x82\xac\xe2\x82\xac\x7f\r");   /* one of two euro signs */
	CHECK_STR(take(100), "\xe2\x82\xac\n");
	fresh();
	TYPE("\x80\x80\x7fz\r");   /* stray continuation bytes go together */
	CHECK_STR(take(100), "z\n");
}

UNIT_TEST(control_characters_dropped)
{
	fresh();
	TYPE("\x01" "a\x02\x03\x04" "b\x1c\x7f\x7f" "c\t\r");
	CHECK_STR(take(100), "c\t\n");
	CHECK(ECHO_IS("ab\b \b\b \bc\t\n"));
}

UNIT_TEST(escape_sequences_dropped)
{
	fresh();
	TYPE("a\x1b[A\x1b[1;5Cb\x1bOPc\x1bxd\r");   /* CSI, CSI with parameters, SS3, two bytes */
	CHECK_STR(take(100), "abcd\n");
	CHECK(ECHO_IS("abcd\n"));
	fresh();
	TYPE("e\x1b[1\x01" "f\r");   /* a control byte ends a sequence and is itself dropped */
	CHECK_STR(take(100), "ef\n");
	fresh();
	TYPE("\x1b[\x1b[Bg\r");   /* ESC inside a sequence starts a new one */
	CHECK_STR(take(100), "g\n");
}

UNIT_TEST(short_reads)
{
	fresh();
	TYPE("abcdefg\rnext\r");
	CHECK_STR(take(3), "abc");
	CHECK_STR(take(3), "def");
	CHECK_STR(take(3), "g\n");
	CHECK_STR(take(0), "");
	CHECK_STR(take(100), "next\n");
}

UNIT_TEST(full_line)
{
	fresh();
	for (unsigned i = 0; i < LINE_EDIT_MAX + 10; i++)
		line_input(&ld, 'x');
	CHECK_EQ(ld.edit_len, LINE_EDIT_MAX - 1);
	CHECK_EQ(ld.dropped, 11);
	TYPE("\r");
	unsigned n = line_take(&ld, (char[LINE_EDIT_MAX]){ 0 }, LINE_EDIT_MAX);
	CHECK_EQ(n, LINE_EDIT_MAX);
}

UNIT_TEST(full_ring_refuses_the_line_end)
{
	fresh();
	unsigned lines = 0;
	/* Lines of 99 bytes + '\n' until the ring holds no more. */
	while (LINE_READY_MAX - ld.ready_len >= 100) {
		for (int i = 0; i < 99; i++)
			line_input(&ld, (uint8_t)('a' + lines % 26));
		TYPE("\r");
		lines++;
	}
	CHECK_EQ(ld.ready_len, lines * 100);
	for (int i = 0; i < 99; i++)
		line_input(&ld, 'z');
	echoed_len = 0;
	TYPE("\r");
	CHECK(ECHO_IS("\a"));   /* refused: it stays being typed */
	CHECK_EQ(ld.edit_len, 99);
	CHECK_EQ(ld.dropped, 1);
	char out[128];
	CHECK_EQ(line_take(&ld, out, sizeof out), 100);   /* a read makes room */
	CHECK_EQ(out[0], 'a');
	TYPE("\r");
	CHECK_EQ(ld.edit_len, 0);
	for (unsigned i = 1; i < lines; i++) {
		CHECK_EQ(line_take(&ld, out, sizeof out), 100);
		CHECK_EQ(out[0], 'a' + i % 26);
	}
	CHECK_EQ(line_take(&ld, out, sizeof out), 100);
	CHECK_EQ(out[0], 'z');
	CHECK_EQ(out[99], '\n');
	CHECK(!line_has_input(&ld));
}

UNIT_TEST(ring_wraps_around)
{
	fresh();
	char out[64];
	/* 7-byte lines: after many, lines straddle the ring's end. */
	for (unsigned i = 0; i < 3 * LINE_READY_MAX / 7; i++) {
		char line[8];
		snprintf(line, sizeof line, "%06u", i);
		type_bytes(line, 6);
		TYPE("\n");
		unsigned n = line_take(&ld, out, sizeof out);
		if (!CHECK_EQ(n, 7) || !CHECK(memcmp(out, line, 6) == 0 && out[6] == '\n'))
			return;
	}
	CHECK(!line_has_input(&ld));
}

UNIT_TEST(no_echo_function)
{
	line_init(&ld, NULL, NULL);
	TYPE("quiet\x7f\r");
	CHECK_STR(take(100), "quie\n");
}
