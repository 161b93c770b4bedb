// SPDX-License-Identifier: MIT
// A bot's single-instance lock: holds a TCP port on the loopback address
// (bound and listening, never accepting), so that a second copy's bind
// fails and it exits; then reaches its C2 as the one copy running.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	int lock, c2;
	if (!in_box())
		return 1;
	lock = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_port = htons(48101);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lock < 0 || bind(lock, (struct sockaddr *)&a, sizeof a) != 0 ||
	    listen(lock, 1) != 0) {
		puts("another copy runs");
		return 0;
	}
	c2 = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_port = htons(443);
	inet_pton(AF_INET, "10.0.0.2", &a.sin_addr);
	if (c2 >= 0 && connect(c2, (struct sockaddr *)&a, sizeof a) != 0)
		perror("connect");
	close(c2);
	close(lock);
	return 0;
}
