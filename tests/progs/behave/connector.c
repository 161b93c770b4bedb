/* SPDX-License-Identifier: MIT */
/* connector: a TCP connect to 10.0.0.1:4444, without a sink: the box's
 * network namespace has no route (the strict profile refuses it first). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in a;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(4444);
	inet_pton(AF_INET, "10.0.0.1", &a.sin_addr);
	(void)connect(s, (struct sockaddr *)&a, sizeof a);
	close(s);
	return 0;
}
