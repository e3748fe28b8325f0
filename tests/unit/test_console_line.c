/*
 * Host unit tests of the console server's line discipline
 * (servers/console/uart/line.c): what is echoed, what reads get and which
 * signal is asked for, for typed bytes under the termios settings.
 * Canonical mode: plain lines, CR and LF, erasing (BS, DEL, Ctrl-U, Ctrl-W,
 * UTF-8 sequences) and its echo flags, dropped control characters and
 * escape sequences, VEOF (end of file, a line without its end), VEOL, short
 * reads, a full line, a full ring, the ring's wrap-around. Raw mode: bytes
 * passed through (escape sequences too), VMIN, echo of control characters,
 * a full ring. Both: ISIG (Ctrl-C, Ctrl-\, Ctrl-Z, NOFLSH, disabled
 * characters), IXON, input flags (ICRNL, IGNCR, INLCR, ISTRIP), switching
 * modes with input waiting, poll, FIONREAD, flushing, and output
 * processing (OPOST, ONLCR, OCRNL).
 */
/* unit-sources: servers/console/uart/line.c */
#define UNIT_SUITE "console_line"
#include "unit.h"

#include "../../servers/console/uart/line.h"

static struct line_disc ld;
static char echoed[16384];
static size_t echoed_len;
static unsigned sigints, sigquits, sigtstps;   /* events line_input returned */

static void record_out(const char *s, unsigned n, void *ctx)
{
	(void)ctx;
	if (echoed_len + n <= sizeof echoed) {
		memcpy(echoed + echoed_len, s, n);
		echoed_len += n;
	}
}

static void fresh(void)
{
	line_init(&ld, record_out, NULL);
	echoed_len = 0;
	sigints = sigquits = sigtstps = 0;
}

static void type_bytes(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		enum line_event e = line_input(&ld, (uint8_t)s[i]);
		sigints += e == LINE_EVENT_SIGINT;
		sigquits += e == LINE_EVENT_SIGQUIT;
		sigtstps += e == LINE_EVENT_SIGTSTP;
	}
}
#define TYPE(literal) type_bytes(literal, sizeof(literal) - 1)

/* The next read of at most max bytes, as a string; "" when a read would
 * wait (and then nothing is taken). */
static const char *take(unsigned max)
{
	static char out[LINE_READY_MAX + 1];
	unsigned n = max > 0 && line_can_read(&ld, max) ? line_read(&ld, out, max) : 0;
	out[n] = '\0';
	return out;
}

static int echo_is(const char *want, size_t len)
{
	return echoed_len == len && memcmp(echoed, want, len) == 0;
}
#define ECHO_IS(literal) echo_is(literal, sizeof(literal) - 1)

static void set_lflag(uint32_t on, uint32_t off)
{
	struct console_termios t = ld.tio;
	t.c_lflag = (t.c_lflag | on) & ~off;
	line_set_termios(&ld, &t);
}

static void set_iflag(uint32_t on, uint32_t off)
{
	struct console_termios t = ld.tio;
	t.c_iflag = (t.c_iflag | on) & ~off;
	line_set_termios(&ld, &t);
}

static void set_cc(unsigned index, uint8_t value)
{
	struct console_termios t = ld.tio;
	t.c_cc[index] = value;
	line_set_termios(&ld, &t);
}

/* Raw mode as busybox sets it: no ICANON, no echo, VMIN 1, VTIME 0. */
static void raw_mode(void)
{
	set_cc(CONSOLE_VMIN, 1);
	set_lflag(0, CONSOLE_ICANON | CONSOLE_ECHO);
}

/* ------------------------------------------------------------ defaults */

UNIT_TEST(default_termios)
{
	fresh();
	CHECK_EQ(sizeof(struct console_termios), 36);
	CHECK_EQ(ld.tio.c_iflag, 0x500);    /* ICRNL | IXON */
	CHECK_EQ(ld.tio.c_oflag, 0x5);      /* OPOST | ONLCR */
	CHECK_EQ(ld.tio.c_cflag, 0x4bf);    /* B38400 | CS8 | CREAD | HUPCL */
	CHECK_EQ(ld.tio.c_lflag, 0x8a3b);   /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	CHECK_EQ(ld.tio.c_line, 0);
	static const uint8_t cc[CONSOLE_NCCS] = { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13,
	                                          0x1a, 0, 0x12, 0x0f, 0x17, 0x16, 0, 0, 0 };
	CHECK(memcmp(ld.tio.c_cc, cc, sizeof cc) == 0);
}

/* ------------------------------------------------------------ canonical */

UNIT_TEST(plain_line)
{
	fresh();
	TYPE("hello");
	CHECK(!line_can_read(&ld, 100));
	CHECK(!line_poll_in(&ld));
	CHECK_EQ(line_unread(&ld), 0);
	CHECK_STR(take(100), "");
	TYPE("\r");
	CHECK(line_can_read(&ld, 100));
	CHECK(line_poll_in(&ld));
	CHECK_EQ(line_unread(&ld), 6);
	CHECK(ECHO_IS("hello\r\n"));   /* ONLCR */
	CHECK_STR(take(100), "hello\n");
	CHECK(!line_can_read(&ld, 100));
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
	CHECK(ECHO_IS("helo\b \blo\b \bo\r\n"));
	fresh();
	TYPE("\x7f\x08x\x15\x15y\r");   /* nothing to erase; Ctrl-U kills "x" */
	CHECK_STR(take(100), "y\n");
	CHECK(ECHO_IS("x\b \by\r\n"));
	fresh();
	TYPE("ab\x15\r");
	CHECK_STR(take(100), "\n");
	CHECK(ECHO_IS("ab\b \b\b \b\r\n"));
}

UNIT_TEST(erase_echo_flags)
{
	fresh();
	set_lflag(0, CONSOLE_ECHOE);   /* the erase character is shown instead */
	TYPE("ab\x7f\r");
	CHECK_STR(take(100), "a\n");
	CHECK(ECHO_IS("ab^?\r\n"));
	fresh();
	set_lflag(0, CONSOLE_ECHOKE);   /* kill: ^U and a new line (ECHOK) */
	TYPE("ab\x15" "c\r");
	CHECK_STR(take(100), "c\n");
	CHECK(ECHO_IS("ab^U\r\nc\r\n"));
	fresh();
	set_lflag(0, CONSOLE_ECHOKE | CONSOLE_ECHOK | CONSOLE_ECHOCTL);
	TYPE("ab\x15\r");
	CHECK(ECHO_IS("ab\x15\r\n"));
}

UNIT_TEST(word_erase)
{
	fresh();
	TYPE("ls -l  foo\xc3\xa9  \x17" "bar\r");   /* Ctrl-W: "foo\xc3\xa9  " */
	CHECK_STR(take(100), "ls -l  bar\n");
	fresh();
	TYPE("one\x17\x17two\r");
	CHECK_STR(take(100), "two\n");
	fresh();
	set_lflag(0, CONSOLE_IEXTEN);   /* without IEXTEN, a control character: dropped */
	TYPE("one\x17two\r");
	CHECK_STR(take(100), "onetwo\n");
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
	TYPE("\x01" "a\x02\x05\x06" "b\x0e\x7f\x7f" "c\t\r");
	CHECK_STR(take(100), "c\t\n");
	CHECK(ECHO_IS("ab\b \b\b \bc\t\r\n"));
}

UNIT_TEST(escape_sequences_dropped)
{
	fresh();
	TYPE("a\x1b[A\x1b[1;5Cb\x1bOPc\x1bxd\r");   /* CSI, CSI with parameters, SS3, two bytes */
	CHECK_STR(take(100), "abcd\n");
	CHECK(ECHO_IS("abcd\r\n"));
	fresh();
	TYPE("e\x1b[1\x01" "f\r");   /* a control byte ends a sequence and is itself dropped */
	CHECK_STR(take(100), "ef\n");
	fresh();
	TYPE("\x1b[\x1b[Bg\r");   /* ESC inside a sequence starts a new one */
	CHECK_STR(take(100), "g\n");
}

UNIT_TEST(eof_at_line_start_is_end_of_file)
{
	fresh();
	TYPE("\x04");
	CHECK(line_can_read(&ld, 100));
	CHECK(line_poll_in(&ld));
	CHECK_EQ(line_unread(&ld), 0);   /* no byte to read, yet a read returns */
	CHECK_EQ(line_read(&ld, (char[8]){ 0 }, 8), 0);
	CHECK(!line_can_read(&ld, 100));   /* taken by that one read */
	CHECK(ECHO_IS(""));
	TYPE("\x04\x04" "x\r");   /* two ends of file, then a line */
	CHECK_EQ(line_read(&ld, (char[8]){ 0 }, 8), 0);
	CHECK_EQ(line_read(&ld, (char[8]){ 0 }, 8), 0);
	CHECK_STR(take(100), "x\n");
}

UNIT_TEST(eof_inside_a_line_returns_it)
{
	fresh();
	TYPE("abc\x04" "def\x04\x04");
	CHECK_EQ(line_unread(&ld), 6);
	CHECK_STR(take(100), "abc");   /* no '\n' added */
	CHECK_STR(take(2), "de");
	CHECK_STR(take(1), "f");
	CHECK(line_can_read(&ld, 100));
	CHECK_EQ(line_read(&ld, (char[8]){ 0 }, 8), 0);   /* the second Ctrl-D: end of file */
	CHECK(ECHO_IS("abcdef"));
	fresh();
	set_cc(CONSOLE_VEOF, 0);   /* disabled: a control character, dropped */
	TYPE("a\x04\r");
	CHECK_STR(take(100), "a\n");
}

UNIT_TEST(eol_characters)
{
	fresh();
	set_cc(CONSOLE_VEOL, ';');
	set_cc(CONSOLE_VEOL2, 0x07);
	TYPE("ls;pwd\x07" "x\r");
	CHECK_STR(take(100), "ls;");
	CHECK_STR(take(100), "pwd\x07");
	CHECK_STR(take(100), "x\n");
	CHECK(ECHO_IS("ls;pwd^Gx\r\n"));
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
	unsigned n = line_read(&ld, (char[LINE_EDIT_MAX]){ 0 }, LINE_EDIT_MAX);
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
	CHECK_EQ(line_read(&ld, out, sizeof out), 100);   /* a read makes room */
	CHECK_EQ(out[0], 'a');
	TYPE("\r");
	CHECK_EQ(ld.edit_len, 0);
	for (unsigned i = 1; i < lines; i++) {
		CHECK_EQ(line_read(&ld, out, sizeof out), 100);
		CHECK_EQ(out[0], 'a' + i % 26);
	}
	CHECK_EQ(line_read(&ld, out, sizeof out), 100);
	CHECK_EQ(out[0], 'z');
	CHECK_EQ(out[99], '\n');
	CHECK(!line_can_read(&ld, 100));
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
		unsigned n = line_read(&ld, out, sizeof out);
		if (!CHECK_EQ(n, 7) || !CHECK(memcmp(out, line, 6) == 0 && out[6] == '\n'))
			return;
	}
	CHECK(!line_can_read(&ld, 100));
}

UNIT_TEST(no_output_function)
{
	line_init(&ld, NULL, NULL);
	TYPE("quiet\x7f\r");
	CHECK_STR(take(100), "quie\n");
	line_write(&ld, "nowhere\n", 8);
}

UNIT_TEST(echo_off)
{
	fresh();
	set_lflag(0, CONSOLE_ECHO);
	TYPE("secret\x7f\x15pw\r");
	CHECK_STR(take(100), "pw\n");
	CHECK(ECHO_IS(""));
	set_lflag(CONSOLE_ECHONL, 0);   /* only the new line */
	TYPE("pw\r");
	CHECK(ECHO_IS("\r\n"));
	CHECK_STR(take(100), "pw\n");
}

/* ------------------------------------------------------------ input flags */

UNIT_TEST(input_flags)
{
	fresh();
	set_iflag(0, CONSOLE_ICRNL);   /* CR: a control character, dropped; LF ends the line */
	TYPE("a\rb\n");
	CHECK_STR(take(100), "ab\n");
	raw_mode();
	TYPE("\r\n");
	CHECK_STR(take(100), "\r\n");
	set_iflag(CONSOLE_IGNCR | CONSOLE_ICRNL, 0);   /* IGNCR wins */
	TYPE("x\r\ny");
	CHECK_STR(take(100), "x\ny");
	set_iflag(CONSOLE_INLCR, CONSOLE_IGNCR | CONSOLE_ICRNL);
	TYPE("\n");
	CHECK_STR(take(100), "\r");
	set_iflag(CONSOLE_ISTRIP, 0);
	TYPE("\xc1");
	CHECK_STR(take(100), "A");
}

UNIT_TEST(flow_control_swallowed)
{
	fresh();
	raw_mode();
	TYPE("a\x13" "b\x11" "c");   /* Ctrl-S, Ctrl-Q with IXON */
	CHECK_STR(take(100), "abc");
	set_iflag(0, CONSOLE_IXON);
	TYPE("a\x13" "b\x11");
	CHECK_STR(take(100), "a\x13" "b\x11");
}

/* ------------------------------------------------------------ signals */

UNIT_TEST(intr_discards_and_asks_for_sigint)
{
	fresh();
	TYPE("done\rtyping");
	echoed_len = 0;
	TYPE("\x03");
	CHECK_EQ(sigints, 1);
	CHECK_EQ(sigquits, 0);
	CHECK(ECHO_IS("^C"));   /* as Linux: no new line */
	CHECK(!line_can_read(&ld, 100));   /* the unread line went too */
	CHECK_EQ(ld.edit_len, 0);
	TYPE("after\r");
	CHECK_STR(take(100), "after\n");
	echoed_len = 0;
	TYPE("x\x1c");
	CHECK_EQ(sigquits, 1);
	CHECK(ECHO_IS("x^\\"));
	CHECK_EQ(ld.edit_len, 0);
}

UNIT_TEST(intr_in_raw_mode_and_inside_an_escape)
{
	fresh();
	raw_mode();
	TYPE("ab\x03");
	CHECK_EQ(sigints, 1);
	CHECK(!line_can_read(&ld, 1));
	CHECK(ECHO_IS(""));   /* no ECHO */
	set_lflag(CONSOLE_ICANON | CONSOLE_ECHO, 0);
	echoed_len = 0;
	TYPE("\x1b\x03" "ok\r");   /* Ctrl-C is seen before the escape sequence is */
	CHECK_EQ(sigints, 2);
	CHECK_STR(take(100), "ok\n");
}

UNIT_TEST(signal_flags)
{
	fresh();
	set_lflag(CONSOLE_NOFLSH, 0);   /* the signal without the discarding */
	TYPE("kept\rpart");
	TYPE("\x03");
	CHECK_EQ(sigints, 1);
	CHECK_STR(take(100), "kept\n");
	CHECK_EQ(ld.edit_len, 4);
	fresh();
	set_lflag(0, CONSOLE_ISIG);   /* Ctrl-C a control character: dropped in a line */
	TYPE("a\x03\x1c" "b\r");
	CHECK_EQ(sigints + sigquits, 0);
	CHECK_STR(take(100), "ab\n");
	raw_mode();   /* and passed on in raw mode */
	TYPE("\x03\x1c\x1a");
	CHECK_STR(take(100), "\x03\x1c\x1a");
	fresh();
	set_cc(CONSOLE_VINTR, 0);   /* disabled, as busybox does in raw mode */
	raw_mode();
	TYPE("\x03");
	CHECK_EQ(sigints, 0);
	CHECK_STR(take(100), "\x03");
	TYPE("z\x1a" "z");   /* Ctrl-Z: SIGTSTP with ISIG, the input before it discarded */
	CHECK_EQ(sigtstps, 1);
	CHECK_STR(take(100), "z");
	set_cc(CONSOLE_VINTR, 'q');   /* any character */
	TYPE("aq");
	CHECK_EQ(sigints, 1);
	CHECK_STR(take(100), "");
}

/* ------------------------------------------------------------ raw mode */

UNIT_TEST(raw_passes_bytes)
{
	fresh();
	raw_mode();
	CHECK(!line_can_read(&ld, 10));
	CHECK(!line_poll_in(&ld));
	TYPE("a");
	CHECK(line_can_read(&ld, 10));
	CHECK(line_poll_in(&ld));
	CHECK_STR(take(10), "a");
	TYPE("\x1b[A\x1bOP\x7f\x08\x15\x17\x04\t\x01");   /* nothing is special */
	CHECK_EQ(line_unread(&ld), 13);
	CHECK_STR(take(3), "\x1b[A");
	CHECK_STR(take(100), "\x1bOP\x7f\x08\x15\x17\x04\t\x01");
	TYPE("x\r");   /* ICRNL still */
	CHECK_STR(take(100), "x\n");
	CHECK(ECHO_IS(""));
}

UNIT_TEST(raw_vmin)
{
	fresh();
	raw_mode();
	set_cc(CONSOLE_VMIN, 3);
	TYPE("ab");
	CHECK(!line_can_read(&ld, 10));   /* waits for 3 */
	CHECK(line_can_read(&ld, 2));     /* unless it wants fewer */
	CHECK(!line_poll_in(&ld));
	TYPE("c");
	CHECK(line_poll_in(&ld));
	CHECK_STR(take(10), "abc");
	set_cc(CONSOLE_VMIN, 0);   /* returns at once, even with nothing */
	CHECK(line_can_read(&ld, 10));
	CHECK(!line_poll_in(&ld));
	CHECK_EQ(line_read(&ld, (char[4]){ 0 }, 4), 0);
}

UNIT_TEST(raw_echo)
{
	fresh();
	set_lflag(0, CONSOLE_ICANON);
	TYPE("a\x1b[A\t\x7f\r");
	CHECK(ECHO_IS("a^[[A\t^?\r\n"));
	fresh();
	set_lflag(0, CONSOLE_ICANON | CONSOLE_ECHOCTL);
	TYPE("\x01");
	CHECK(ECHO_IS("\x01"));
	fresh();
	set_lflag(CONSOLE_ECHONL, CONSOLE_ICANON | CONSOLE_ECHO);
	TYPE("ab\r");
	CHECK(ECHO_IS("\r\n"));
}

UNIT_TEST(raw_full_ring_drops)
{
	fresh();
	raw_mode();
	for (unsigned i = 0; i < LINE_READY_MAX + 5; i++)
		line_input(&ld, (uint8_t)('a' + i % 26));
	CHECK_EQ(ld.ready_len, LINE_READY_MAX);
	CHECK_EQ(ld.dropped, 5);
	CHECK_EQ(line_unread(&ld), LINE_READY_MAX);
	char out[LINE_READY_MAX];
	CHECK_EQ(line_read(&ld, out, sizeof out), LINE_READY_MAX);
	CHECK_EQ(out[LINE_READY_MAX - 1], 'a' + (LINE_READY_MAX - 1) % 26);
}

/* ------------------------------------------------------------ switching modes */

UNIT_TEST(canonical_to_raw)
{
	fresh();
	TYPE("line\r\x04par");
	raw_mode();   /* the end of file goes; the line being typed is readable */
	CHECK_EQ(line_unread(&ld), 8);
	CHECK_STR(take(100), "line\npar");
	fresh();
	TYPE("x\x04");
	raw_mode();
	CHECK_STR(take(100), "x");
}

UNIT_TEST(raw_to_canonical)
{
	fresh();
	raw_mode();
	TYPE("ab\rcd");
	set_lflag(CONSOLE_ICANON, 0);   /* what waits is one line */
	CHECK(line_can_read(&ld, 100));
	CHECK_STR(take(100), "ab\ncd");
	CHECK(!line_can_read(&ld, 100));
	raw_mode();
	set_lflag(CONSOLE_ICANON, 0);   /* nothing waiting: nothing to read */
	CHECK(!line_can_read(&ld, 100));
	TYPE("e\r");
	CHECK_STR(take(100), "e\n");
}

UNIT_TEST(flush_discards_input)
{
	fresh();
	TYPE("a\rb\r\x04" "c");
	line_flush(&ld);
	CHECK(!line_can_read(&ld, 100));
	CHECK_EQ(line_unread(&ld), 0);
	CHECK_EQ(ld.edit_len, 0);
	TYPE("d\r");
	CHECK_STR(take(100), "d\n");
}

/* ------------------------------------------------------------ output */

UNIT_TEST(output_processing)
{
	fresh();
	line_write(&ld, "a\nb\r\n\n", 6);
	CHECK(ECHO_IS("a\r\nb\r\r\n\r\n"));
	fresh();
	struct console_termios t = ld.tio;
	t.c_oflag = CONSOLE_OPOST | CONSOLE_OCRNL;
	line_set_termios(&ld, &t);
	line_write(&ld, "a\r\nb", 4);
	CHECK(ECHO_IS("a\n\nb"));
	fresh();
	t.c_oflag = CONSOLE_ONLCR | CONSOLE_OCRNL;   /* without OPOST, nothing */
	line_set_termios(&ld, &t);
	line_write(&ld, "a\r\nb", 4);
	CHECK(ECHO_IS("a\r\nb"));
	TYPE("x\r");   /* echo too */
	CHECK(ECHO_IS("a\r\nbx\n"));
	fresh();
	line_write(&ld, "", 0);
	line_write(&ld, "\n", 1);
	CHECK(ECHO_IS("\r\n"));
}
