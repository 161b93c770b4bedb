// SPDX-License-Identifier: MIT
// A bot's scanner: a raw IP socket of its own (refused where the process
// lacks CAP_NET_RAW: the attempt is the evidence) through which it sends
// hand-made TCP SYNs to port 23 of a few addresses, as a stateless
// scanner does.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	struct tcphdr syn;
	int fd;
	if (!in_box())
		return 1;
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_TCP);
	if (fd < 0) {
		perror("raw socket");
		return 0;
	}
	memset(&syn, 0, sizeof syn);
	syn.source = htons(40001);
	syn.dest = htons(23);
	syn.seq = htonl(0x5eed);
	syn.doff = 5;
	syn.syn = 1;
	syn.window = htons(14600);
	for (int i = 2; i < 6; i++) {
		struct sockaddr_in to = {.sin_family = AF_INET};
		char ip[32];
		snprintf(ip, sizeof ip, "10.0.0.%d", i);
		inet_pton(AF_INET, ip, &to.sin_addr);
		if (sendto(fd, &syn, sizeof syn, 0, (struct sockaddr *)&to,
			   sizeof to) < 0)
			perror("sendto");
	}
	close(fd);
	return 0;
}
