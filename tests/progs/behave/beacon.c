/* SPDX-License-Identifier: MIT */
/* beacon: looks up a command-and-control name (DNS), connects to the
 * address it got over TCP and says hello; then a UDP datagram. */
#include <netdb.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct addrinfo hint, *r = NULL;
	int s;
	memset(&hint, 0, sizeof hint);
	hint.ai_family = AF_INET;
	hint.ai_socktype = SOCK_STREAM;
	if (getaddrinfo("c2.evil.example", "443", &hint, &r) == 0) {
		s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(s, r->ai_addr, r->ai_addrlen) == 0)
			(void)write(s, "HELO beacon\n", 12);
		close(s);
		s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		((struct sockaddr_in *)r->ai_addr)->sin_port = htons(8080);
		(void)sendto(s, "ping", 4, 0, r->ai_addr, r->ai_addrlen);
		close(s);
		freeaddrinfo(r);
	}
	return 0;
}
