/*
 * What the booted socket tests (t_inet, t_inet_more) share: an address from
 * its text and a port, and an alarm that ends a blocking call with EINTR
 * (no SA_RESTART), so that no wait of a test is unbounded. Header only;
 * include after test_check.h.
 */
#ifndef INET_TEST_H
#define INET_TEST_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static inline struct sockaddr_in addr_of(const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static inline void inet_test_alarm(int sig)
{
	(void)sig;
}

/* Arms SIGALRM without SA_RESTART: a blocking call ends with EINTR. */
static inline void guard(unsigned seconds)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = inet_test_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

#endif
