// SPDX-License-Identifier: MIT
// A miner's first words to its pool: the stratum JSON-RPC login (as
// Monero pools speak it) and a subscribe (as Bitcoin-style pools do),
// each a line of JSON over plain TCP, on a port no rule lists.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

static void say(int port, const char *line)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	char reply[256];
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return;
	a.sin_port = htons((unsigned short)port);
	inet_pton(AF_INET, "10.0.0.2", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    write(fd, line, strlen(line)) > 0) {
		shutdown(fd, SHUT_WR);
		if (read(fd, reply, sizeof reply) < 0)
			reply[0] = '\0';
	}
	close(fd);
}

int main(void)
{
	if (!in_box())
		return 1;
	say(4444,
	    "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"login\",\"params\":"
	    "{\"login\":\"4AdUndXHHZ6cfufTMvppY6JwXNouMBzSkbLYfpAV5Usx3s"
	    "kxNgYeYTRj5UzqtReoS44qo9mtmXCqY45DJ852K5Jv2684Rge\","
	    "\"pass\":\"x\",\"agent\":\"cpu/1.0\"}}\n");
	say(8080, "{\"id\":1,\"method\":\"mining.subscribe\",\"params\":"
		  "[\"cpu/1.0\"]}\n");
	return 0;
}
