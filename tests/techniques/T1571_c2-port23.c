// SPDX-License-Identifier: MIT
// A bot's C2 on the telnet port that speaks no telnet: it resolves its
// server's name, connects to port 23 and sends a binary hello (a length
// and an id), reconnecting a few times as a bot whose server drops it
// does.  One service, one protocol that is not the port's: no login.
#include <netdb.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	static const unsigned char hello[] = {0,   0,	0,   1,	 4,
					      'b', 'o', 't', '7'};
	struct addrinfo hint = {.ai_family = AF_INET,
				.ai_socktype = SOCK_STREAM},
			*ai = NULL;
	if (!in_box())
		return 1;
	if (getaddrinfo("cnc.bot-example.net", "23", &hint, &ai) != 0) {
		puts("no C2");
		return 0;
	}
	for (int i = 0; i < 6; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    write(fd, hello, sizeof hello) < 0)
			perror("write");
		if (fd >= 0)
			close(fd);
	}
	freeaddrinfo(ai);
	return 0;
}
