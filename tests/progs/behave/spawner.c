/* SPDX-License-Identifier: MIT */
/* spawner: benign; runs /bin/true once and waits for it. */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int st;
	pid_t p = fork();
	if (p == 0) {
		execl("/bin/true", "/bin/true", "child", (char *)NULL);
		_exit(127);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
