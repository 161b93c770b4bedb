/* SPDX-License-Identifier: MIT */
/*
 * The stand-ins' entry point and shared helpers, and the tools that run
 * another command: sudo, doas, pkexec, su, sshpass, busybox, screen.  On a
 * host where the user may use sudo, `sudo CMD` runs CMD; here CMD runs as
 * the box user, so its exec is recorded and its writes meet the box's
 * walls (recorded as attempts) exactly as any other program's.
 */
#include "standin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DRAIN_MAX (16 << 20)

const char *su_env(const char *name)
{
	return getenv(name);
}

void su_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* the passwd line whose field `field` (0: name, 2: uid) is key */
static int passwd_line(int field, const char *key, char *line, size_t size)
{
	FILE *f = fopen("/etc/passwd", "re");

	if (!f)
		return -errno;
	while (fgets(line, (int)size, f)) {
		const char *p = line;
		size_t klen = strlen(key);

		for (int i = 0; i < field && p; i++) {
			p = strchr(p, ':');
			p = p ? p + 1 : NULL;
		}
		if (p && strncmp(p, key, klen) == 0 && p[klen] == ':') {
			fclose(f);
			line[strcspn(line, "\n")] = '\0';
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

const char *su_user(void)
{
	static char name[64];
	char line[512], uid[24];
	const char *u = su_env("USER");

	if (u && *u)
		return u;
	snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	if (passwd_line(2, uid, line, sizeof(line)) == 0) {
		line[strcspn(line, ":")] = '\0';
		snprintf(name, sizeof(name), "%.63s", line);
	} else {
		snprintf(name, sizeof(name), "%s", uid);
	}
	return name;
}

int su_account(const char *user, char *home, size_t hsize, char *shell,
	       size_t ssize)
{
	char line[512];
	char *f[7] = {0};
	char *p = line;
	int r = passwd_line(0, user, line, sizeof(line));

	snprintf(home, hsize, "/root");
	snprintf(shell, ssize, "/bin/bash");
	if (r < 0)
		return r;
	for (int i = 0; i < 7 && p; i++) {
		f[i] = p;
		p = strchr(p, ':');
		if (p)
			*p++ = '\0';
	}
	if (f[5] && *f[5])
		snprintf(home, hsize, "%s", f[5]);
	if (f[6] && *f[6])
		snprintf(shell, ssize, "%s", f[6]);
	return 0;
}

int su_drain(int fd)
{
	char buf[8192];
	size_t total = 0;

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 || (total += (size_t)n) > DRAIN_MAX)
			return 0;
	}
}

int su_drain_path(const char *path)
{
	int fd, r;

	if (strcmp(path, "-") == 0)
		return su_drain(0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = su_drain(fd);
	close(fd);
	return r;
}

int su_try_write(const char *path, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* the first regular, executable file called name in PATH's directories
 * (as sudo finds its command: one exec, not one per directory) */
static int find_in_path(const char *name, char *out, size_t size)
{
	const char *path = su_env("PATH");
	struct stat st;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(out, size, "%.*s/%s", (int)n, n ? path : ".", name);
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

int su_exec(char *const argv[])
{
	char path[4096];

	if (strchr(argv[0], '/')) {
		execv(argv[0], argv);
		return -errno;
	}
	if (find_in_path(argv[0], path, sizeof(path)) < 0)
		return -ENOENT;
	execv(path, argv);
	return -errno;
}

const char *su_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const struct standin *su_find(const char *name)
{
	const struct standin *sets[] = {standin_priv, standin_admin,
					standin_net, standin_partc};

	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
		for (const struct standin *t = sets[s]; t->name; t++)
			if (strcmp(t->name, name) == 0)
				return t;
	return NULL;
}

/* ---- sudo, doas, pkexec ---- */

/* sudo's options that take an argument */
static int sudo_takes_arg(int c)
{
	return c && strchr("ugCDpRrtTU", c) != NULL;
}

struct sudo_opts {
	const char *user;
	int shell, login, list, version, validate;
};

/* a long option (--user=X, --login...); returns 1 when it used next */
/* sudo's long options that take the next word as their argument (none
 * when written --opt=ARG) */
static int sudo_takes(const char *a)
{
	static const char *const with_arg[] = {
	    "--group",	    "--chroot",		 "--chdir", "--host",
	    "--prompt",	    "--close-from",	 "--role",  "--type",
	    "--other-user", "--command-timeout", NULL};
	for (int k = 0; with_arg[k]; k++)
		if (strcmp(a, with_arg[k]) == 0)
			return 1;
	return 0;
}

static int sudo_long(const char *a, const char *next, struct sudo_opts *o)
{
	if (strncmp(a, "--user=", 7) == 0)
		o->user = a + 7;
	else if (strcmp(a, "--user") == 0 && next)
		return o->user = next, 1;
	else if (sudo_takes(a) && next)
		return 1;
	else if (strcmp(a, "--shell") == 0)
		o->shell = 1;
	else if (strcmp(a, "--login") == 0)
		o->login = 1;
	else if (strcmp(a, "--list") == 0)
		o->list = 1;
	else if (strcmp(a, "--version") == 0)
		o->version = 1;
	else if (strcmp(a, "--validate") == 0 ||
		 strcmp(a, "--reset-timestamp") == 0)
		o->validate = 1;
	return 0;
}

/* the index of the command after sudo's options */
static int sudo_parse(int argc, char **argv, struct sudo_opts *o)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			return i + 1;
		if (a[1] == '-') {
			i += sudo_long(a, i + 1 < argc ? argv[i + 1] : NULL, o);
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			if (*c == 's')
				o->shell = 1;
			else if (*c == 'i')
				o->login = 1;
			else if (*c == 'l')
				o->list = 1;
			else if (*c == 'V')
				o->version = 1;
			else if (*c == 'v' || *c == 'k' || *c == 'K')
				o->validate = 1;
			if (!sudo_takes_arg(*c))
				continue;
			const char *v =
			    c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : "");
			if (*c == 'u')
				o->user = v;
			break;
		}
	}
	return i;
}

/* the environment sudo gives the command (HOME, USER of the target) */
static void sudo_env(const char *target, int argc, char **argv, int cmd)
{
	char home[256], shell[256], num[24], line[1024] = "";
	const char *me = su_user();

	setenv("SUDO_USER", me, 1);
	snprintf(num, sizeof(num), "%u", (unsigned)getuid());
	setenv("SUDO_UID", num, 1);
	snprintf(num, sizeof(num), "%u", (unsigned)getgid());
	setenv("SUDO_GID", num, 1);
	for (int i = cmd; i < argc; i++) {
		size_t n = strlen(line);

		snprintf(line + n, sizeof(line) - n, "%s%s", i > cmd ? " " : "",
			 argv[i]);
	}
	setenv("SUDO_COMMAND", line, 1);
	su_account(target, home, sizeof(home), shell, sizeof(shell));
	setenv("HOME", home, 1);
	setenv("USER", target, 1);
	setenv("LOGNAME", target, 1);
	setenv("SHELL", shell, 1);
}

/* `sudo su ...`: su run by root asks no password, so this program plays
 * it (an exec of its own, argv[0] "su"), never the host's su, which would
 * ask the box user's; returns 0 when argv is not su, else -errno */
static int as_root_su(char *const argv[])
{
	char self[4096];
	ssize_t n;

	if (strcmp(su_base(argv[0]), "su") != 0)
		return 0;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -ENOENT;
	self[n] = '\0';
	execv(self, argv);
	return -errno;
}

/* runs argv[cmd..], or a shell (with -c and the words joined) */
static int run_as(const char *tool, int argc, char **argv, int cmd, int shell)
{
	char sh[256], home[256], line[8192] = "";

	su_account(su_env("USER") ? su_env("USER") : "root", home, sizeof(home),
		   sh, sizeof(sh));
	if (shell && cmd < argc) {
		for (int i = cmd; i < argc; i++) {
			size_t n = strlen(line);

			snprintf(line + n, sizeof(line) - n, "%s%s",
				 i > cmd ? " " : "", argv[i]);
		}
		char *sargv[] = {sh, "-c", line, NULL};
		su_exec(sargv);
	} else if (cmd >= argc) {
		char *sargv[] = {sh, NULL};
		su_exec(sargv);
	} else {
		int r = as_root_su(argv + cmd);

		if (r == 0)
			r = su_exec(argv + cmd);

		if (r == -ENOENT)
			su_err("%s: %s: command not found\n", tool, argv[cmd]);
		else
			su_err("%s: unable to execute %s: %s\n", tool,
			       argv[cmd], strerror(-r));
		return 1;
	}
	su_err("%s: %s: command not found\n", tool, sh);
	return 1;
}

static int run_sudo(int argc, char **argv)
{
	struct sudo_opts o = {.user = "root"};
	int cmd = sudo_parse(argc, argv, &o);
	char host[256] = "localhost";

	if (o.version) {
		printf("Sudo version 1.9.13p3\n");
		return 0;
	}
	if (o.list) {
		gethostname(host, sizeof(host));
		printf("User %s may run the following commands on %s:\n"
		       "    (ALL : ALL) ALL\n",
		       su_user(), host);
		return 0;
	}
	if (o.validate && cmd >= argc)
		return 0;
	if (cmd >= argc && !o.shell && !o.login) {
		su_err("usage: sudo -h | -K | -k | -V\n");
		return 1;
	}
	sudo_env(o.user, argc, argv, cmd);
	return run_as("sudo", argc, argv, cmd, o.shell || o.login);
}

static int run_doas(int argc, char **argv)
{
	struct sudo_opts o = {.user = "root"};
	int cmd = sudo_parse(argc, argv, &o);

	if (cmd >= argc && !o.shell) {
		su_err("usage: doas [-Lns] [-C config] [-u user] command "
		       "[arg ...]\n");
		return 1;
	}
	sudo_env(o.user, argc, argv, cmd);
	return run_as("doas", argc, argv, cmd, o.shell);
}

static int run_pkexec(int argc, char **argv)
{
	int cmd = 1;

	while (cmd < argc && argv[cmd][0] == '-') {
		if (strcmp(argv[cmd], "--user") == 0 && cmd + 1 < argc)
			cmd++;
		cmd++;
	}
	sudo_env("root", argc, argv, cmd);
	return run_as("pkexec", argc, argv, cmd, 0);
}

/* ---- su ---- */

struct su_opts {
	const char *user, *command, *shell;
	int login;
};

static int su_parse(int argc, char **argv, struct su_opts *o)
{
	int i = 1;

	for (; i < argc; i++) {
		const char *a = argv[i],
			   *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "-") == 0 || strcmp(a, "-l") == 0 ||
		    strcmp(a, "--login") == 0)
			o->login = 1;
		else if ((strcmp(a, "-c") == 0 ||
			  strcmp(a, "--command") == 0) &&
			 next)
			o->command = argv[++i];
		else if (strncmp(a, "--command=", 10) == 0)
			o->command = a + 10;
		else if ((strcmp(a, "-s") == 0 || strcmp(a, "--shell") == 0) &&
			 next)
			o->shell = argv[++i];
		else if (strcmp(a, "-m") == 0 || strcmp(a, "-p") == 0)
			continue;
		else if (a[0] == '-' && a[1] == 'c' && a[2])
			o->command = a + 2;
		else if (!o->user && a[0] != '-')
			o->user = a;
		else
			break;
	}
	return i;
}

static int run_su(int argc, char **argv)
{
	struct su_opts o = {0};
	char home[256], shell[256];
	int rest = su_parse(argc, argv, &o);
	char *sargv[64];
	int n = 0;

	if (!o.user)
		o.user = "root";
	su_account(o.user, home, sizeof(home), shell, sizeof(shell));
	setenv("HOME", home, 1);
	setenv("USER", o.user, 1);
	setenv("LOGNAME", o.user, 1);
	if (o.login && chdir(home) < 0)
		su_err("su: warning: cannot change directory to %s: %s\n", home,
		       strerror(errno));
	sargv[n++] = o.shell ? (char *)o.shell : shell;
	if (o.command) {
		sargv[n++] = "-c";
		sargv[n++] = (char *)o.command;
	}
	for (; rest < argc && n < 62; rest++)
		sargv[n++] = argv[rest];
	sargv[n] = NULL;
	int r = su_exec(sargv);
	su_err("su: failed to execute %s: %s\n", sargv[0], strerror(-r));
	return 126;
}

/* ---- sshpass: runs the rest once its own options are read ---- */

static int run_sshpass(int argc, char **argv)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		i += (strchr("pfdP", a[1]) && a[1] && !a[2]) ? 2 : 1;
	}
	if (i >= argc) {
		su_err("Usage: sshpass [-f|-d|-p|-e] [-hV] command "
		       "parameters\n");
		return 1;
	}
	int r = su_exec(argv + i);
	su_err("sshpass: Failed to run command: %s\n", strerror(-r));
	return 3;
}

/* ---- busybox: an applet is the tool of that name ---- */

static int run_busybox(int argc, char **argv)
{
	const char *applet;

	if (argc < 2) {
		printf("BusyBox v1.36.1 (Debian 1:1.36.1-9) multi-call "
		       "binary.\n");
		return 0;
	}
	/* the host's tool, or another stand-in: an exec of its own */
	applet = su_base(argv[1]);
	int r = su_exec(argv + 1);
	if (r == -ENOENT) {
		su_err("%s: applet not found\n", applet);
		return 127;
	}
	su_err("%s: %s\n", applet, strerror(-r));
	return 126;
}

/* ---- screen: -dm runs its command detached, as a session of its own ---- */

static int run_screen(int argc, char **argv)
{
	int detached = 0, i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-ls") == 0 ||
		    strcmp(argv[i], "-list") == 0) {
			printf("No Sockets found in /run/screen/S-%s.\n\n",
			       su_user());
			return 1;
		}
		if (strchr(argv[i], 'd') && strchr(argv[i], 'm'))
			detached = 1;
		/* an option that takes a value ends its cluster (-dmS NAME) */
		if (strchr("SchpteTX", argv[i][strlen(argv[i]) - 1]) &&
		    i + 1 < argc)
			i++;
	}
	if (!detached) {
		su_err("Must be connected to a terminal.\n");
		return 1;
	}
	if (i >= argc)
		return 0;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		setsid();
		su_exec(argv + i);
		_exit(127);
	}
	return 0;
}

const struct standin standin_priv[] = {
    {"sudo", run_sudo},	      {"doas", run_doas},
    {"pkexec", run_pkexec},   {"su", run_su},
    {"sshpass", run_sshpass}, {"busybox", run_busybox},
    {"screen", run_screen},   {NULL, NULL},
};

/* the names, one a line: what the build puts in the names file */
static int list_names(void)
{
	const struct standin *sets[] = {standin_priv, standin_admin,
					standin_net, standin_partc};

	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++)
		for (const struct standin *t = sets[s]; t->name; t++)
			printf("%s\n", t->name);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = su_base(argc > 0 ? argv[0] : "");
	const struct standin *t;

	if (strcmp(name, "standin") == 0 && argc == 2 &&
	    strcmp(argv[1], "--names") == 0)
		return list_names();
	t = su_find(name);
	if (!t) {
		su_err("%s: command not found\n", name);
		return 127;
	}
	return t->run(argc, argv);
}
