/* SPDX-License-Identifier: MIT */
/* forker: three children, each runs /bin/true with its own argument. */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	static const char *const names[] = {"one", "two", "three"};
	for (int i = 0; i < 3; i++) {
		pid_t p = fork();
		if (p == 0) {
			execl("/bin/true", "/bin/true", names[i], (char *)NULL);
			_exit(127);
		}
		if (p < 0 || waitpid(p, NULL, 0) != p)
			return 1;
	}
	return 0;
}
