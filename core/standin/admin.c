/* SPDX-License-Identifier: MIT */
/*
 * The stand-ins for the administration tools an unprivileged user meets
 * refused: cron and at (the table is read, the spool written: an attempt
 * the box records), the service manager, the firewall, the account tools,
 * kernel modules, SELinux and audit, the clipboard, the logs.  Each says
 * what the tool says to a user without rights, and exits as it does.
 */
#include "standin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CRONTABS "/var/spool/cron/crontabs"
#define ATJOBS "/var/spool/cron/atjobs"
#define SLURP_MAX (64 << 10)

/* reads up to size bytes of path ("-": stdin) into buf, then drains the
 * rest; the length or -errno */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	su_drain(fd);
	if (fd != 0)
		close(fd);
	return (ssize_t)len;
}

/* ---- crontab (Debian's cron: the spool is /var/spool/cron/crontabs) ---- */

/* crontab FILE / crontab -: the table is written where cron keeps it */
static int crontab_replace(const char *user, const char *file)
{
	static char buf[SLURP_MAX];
	char path[256];
	ssize_t len = slurp(file, buf, sizeof(buf));
	int fd;

	if (len < 0) {
		su_err("%s: %s\n", file, strerror((int)-len));
		return 1;
	}
	snprintf(path, sizeof(path), CRONTABS "/%s", user);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		su_err("%s: %s\n", path, strerror(errno));
		return 1;
	}
	if (write(fd, buf, (size_t)len) != len) {
		su_err("%s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int crontab_list(const char *user, int remove)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), CRONTABS "/%s", user);
	if (remove ? unlink(path) == 0 : (fd = open(path, O_RDONLY)) >= 0) {
		if (!remove) {
			char buf[4096];
			ssize_t n;

			while ((n = read(fd, buf, sizeof(buf))) > 0)
				fwrite(buf, 1, (size_t)n, stdout);
			close(fd);
		}
		return 0;
	}
	if (errno == ENOENT)
		su_err("no crontab for %s\n", user);
	else
		su_err("%s: %s\n", path, strerror(errno));
	return 1;
}

static int run_crontab(int argc, char **argv)
{
	const char *me = su_user(), *file = NULL;
	int op = 'R';

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-u") == 0 && i + 1 < argc) {
			if (strcmp(argv[++i], me) != 0) {
				su_err("must be privileged to use -u\n");
				return 1;
			}
		} else if (a[0] == '-' && a[1] && !a[2] &&
			   strchr("lreis", a[1])) {
			op = a[1] == 'i' || a[1] == 's' ? op : a[1];
		} else if (a[0] == '-' && a[1]) {
			su_err("crontab: invalid option -- '%c'\n"
			       "crontab: usage error: unrecognized option\n",
			       a[1]);
			return 1;
		} else {
			file = a;
		}
	}
	if (op == 'l' || op == 'r')
		return crontab_list(me, op == 'r');
	if (op == 'e') {
		su_err("no crontab for %s - using an empty one\n", me);
		return crontab_replace(me, "/dev/null");
	}
	if (!file) {
		su_err("crontab: usage error: file name must be specified for "
		       "replace\n");
		return 1;
	}
	return crontab_replace(me, file);
}

/* ---- at, batch, atq, atrm (Debian's at: no atd, no spool) ---- */

static int at_spool(void)
{
	if (chdir(ATJOBS) == 0)
		return 0;
	su_err("Cannot change to " ATJOBS ": %s\n", strerror(errno));
	return 1;
}

static int run_at(int argc, char **argv)
{
	const char *input = "-";
	int when = 0, batch = strcmp(su_base(argv[0]), "batch") == 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-l") == 0)
			return at_spool();
		if (strcmp(a, "-r") == 0 || strcmp(a, "-d") == 0)
			return at_spool();
		if (strcmp(a, "-f") == 0 && i + 1 < argc)
			input = argv[++i];
		else if ((strcmp(a, "-q") == 0 || strcmp(a, "-t") == 0) &&
			 i + 1 < argc)
			when |= a[1] == 't', i++;
		else if (a[0] != '-')
			when = 1;
	}
	if (!when && !batch) {
		su_err("Garbled time\n");
		return 1;
	}
	int r = su_drain_path(input);
	if (r < 0) {
		su_err("Cannot open input file %s: %s\n", input, strerror(-r));
		return 1;
	}
	su_err("warning: commands will be executed using /bin/sh\n");
	r = su_try_write(ATJOBS "/.SEQ", 0);
	if (r < 0) {
		su_err("Cannot open lockfile " ATJOBS "/.SEQ: %s\n",
		       strerror(-r));
		return 1;
	}
	return 0;
}

static int run_atq(int argc, char **argv)
{
	return at_spool();
}

/* ---- systemctl, service (systemd 252 on a server: no polkit) ---- */

static int in_list(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(w, *list) == 0)
			return 1;
	return 0;
}

static const char *const JOB_VERBS[] = {
    "start",	   "stop",	  "restart",
    "reload",	   "try-restart", "reload-or-restart",
    "kill",	   "isolate",	  "try-reload-or-restart",
    "condrestart", NULL};
static const char *const FILE_VERBS[] = {"enable", "disable",  "mask",
					 "unmask", "reenable", "preset",
					 "link",   "revert",   NULL};
static const char *const LIST_VERBS[] = {"list-units", "list-unit-files",
					 "list-timers", "list-sockets", NULL};

/* the unit name as systemctl completes it (".service" when no suffix) */
static const char *unit(const char *name)
{
	static char buf[512];

	if (strchr(name, '.'))
		return name;
	snprintf(buf, sizeof(buf), "%s.service", name);
	return buf;
}

static int systemctl_verb(const char *verb, const char *arg)
{
	/* a server's answer (no polkit: systemd refuses the bus call);
	 * Access denied is the one error systemctl exits 4 for on a job */
	static const char auth[] = "Access denied";

	if (in_list(verb, JOB_VERBS) && arg) {
		su_err("Failed to %s %s: %s\n", verb, unit(arg), auth);
		return 4;
	}
	if (in_list(verb, FILE_VERBS)) {
		su_err("Failed to %s unit: %s\n", verb, auth);
		return 1;
	}
	if (strcmp(verb, "daemon-reload") == 0 ||
	    strcmp(verb, "daemon-reexec") == 0) {
		su_err("Failed to %s daemon: %s\n",
		       verb[7] == 'l' ? "reload" : "reexecute", auth);
		return 1;
	}
	if (strcmp(verb, "set-default") == 0) {
		su_err("Failed to set default target: %s\n", auth);
		return 1;
	}
	if (strcmp(verb, "poweroff") == 0 || strcmp(verb, "reboot") == 0 ||
	    strcmp(verb, "halt") == 0) {
		su_err("Failed to %s system via logind: %s\n",
		       verb[0] == 'p' ? "power off" : verb, auth);
		return 1;
	}
	return -1;
}

static int systemctl_query(const char *verb, const char *arg)
{
	if (strcmp(verb, "status") == 0 && arg) {
		su_err("Unit %s could not be found.\n", unit(arg));
		return 4;
	}
	if (strcmp(verb, "is-active") == 0 || strcmp(verb, "is-failed") == 0) {
		printf("inactive\n");
		return verb[3] == 'a' ? 3 : 1;
	}
	if (strcmp(verb, "is-enabled") == 0 && arg) {
		su_err("Failed to get unit file state for %s: No such file or "
		       "directory\n",
		       unit(arg));
		return 1;
	}
	if (in_list(verb, LIST_VERBS)) {
		printf("0 %s listed.\n", verb[5] == 'u' && verb[9] == 'f'
					     ? "unit files"
					 : verb[5] == 't' ? "timers"
					 : verb[5] == 's' ? "sockets"
							  : "loaded units");
		return 0;
	}
	if (strcmp(verb, "cat") == 0 && arg) {
		su_err("No files found for %s.\n", unit(arg));
		return 1;
	}
	return -1;
}

static int run_systemctl(int argc, char **argv)
{
	const char *verb = NULL, *arg = NULL;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("systemd 252 (252.22-1~deb12u1)\n");
			return 0;
		}
		if (strcmp(argv[i], "--user") == 0) {
			su_err("Failed to connect to bus: No medium found\n");
			return 1;
		}
		if (argv[i][0] == '-')
			continue;
		if (!verb)
			verb = argv[i];
		else if (!arg)
			arg = argv[i];
	}
	if (!verb)
		verb = "list-units";
	int r = systemctl_verb(verb, arg);
	if (r < 0)
		r = systemctl_query(verb, arg);
	if (r >= 0)
		return r;
	if (strcmp(verb, "show") == 0 || strcmp(verb, "status") == 0)
		return 0;
	su_err("Unknown command verb '%s'.\n", verb);
	return 1;
}

static int run_service(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--status-all") == 0)
		return 0;
	if (argc < 3 || argv[1][0] == '-') {
		su_err("Usage: service < option > | --status-all | "
		       "[ service_name [ command | --full-restart ] ]\n");
		return 1;
	}
	char *sargv[] = {"systemctl", argv[2], argv[1], NULL};
	return run_systemctl(3, sargv);
}

/* ---- the tools whose answer to a user is a fixed refusal ---- */

struct refusal {
	const char *name, *text; /* %1$s: the tool's name */
	int status;
};

static const struct refusal REFUSALS[] = {
    {"ufw", "ERROR: You need to be root to run this script\n", 1},
    {"firewall-cmd", "FirewallD is not running\n", 252},
    {"chkconfig",
     "You do not have enough privileges to perform this operation.\n", 1},
    {"nft",
     "netlink: Error: cache initialization failed: Operation not "
     "permitted\n",
     1},
    {"adduser", "%s: Only root may add a user or group to the system.\n", 1},
    {"addgroup", "%s: Only root may add a user or group to the system.\n", 1},
    {"deluser", "%s: Only root may remove a user or group from the system.\n",
     1},
    {"delgroup", "%s: Only root may remove a user or group from the system.\n",
     1},
    {"setenforce", "%s: SELinux is disabled\n", 1},
    {"auditctl", "You must be root to run this program.\n", 4},
    {"xsel",
     "xsel: Can't open display: (null)\n: Inappropriate ioctl for "
     "device\n",
     1},
    {NULL, NULL, 0},
};

static int run_refusal(int argc, char **argv)
{
	const char *name = su_base(argv[0]);

	for (const struct refusal *r = REFUSALS; r->name; r++) {
		if (strcmp(r->name, name) == 0) {
			/* a text that begins with %s begins with the name */
			if (strncmp(r->text, "%s", 2) == 0)
				fputs(name, stderr);
			fputs(r->text + (r->text[0] == '%' ? 2 : 0), stderr);
			return r->status;
		}
	}
	return 1;
}

/* ---- iptables and its kin (1.8.9, nf_tables) ---- */

static int run_iptables(int argc, char **argv)
{
	const char *name = su_base(argv[0]);

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-V") == 0 ||
		    strcmp(argv[i], "--version") == 0) {
			printf("%s v1.8.9 (nf_tables)\n", name);
			return 0;
		}
	}
	su_err("%s v1.8.9 (nf_tables): Could not fetch rule set generation "
	       "id: Permission denied (you must be root)\n\n",
	       name);
	return 4;
}

/* ---- the shadow tools: the lock file next to /etc/passwd or /etc/group */

static int run_shadow(int argc, char **argv)
{
	const char *name = su_base(argv[0]);
	int group = strncmp(name, "group", 5) == 0;
	const char *file = group ? "/etc/group" : "/etc/passwd";
	char lock[64];

	snprintf(lock, sizeof(lock), "%s.%ld", file, (long)getpid());
	if (su_try_write(lock, O_EXCL) == 0) {
		unlink(lock);
		return 0;
	}
	su_err("%s: Permission denied.\n%s: cannot lock %s; try again later.\n",
	       name, name, file);
	return group ? 10 : 1;
}

static int run_passwd(int argc, char **argv)
{
	const char *me = su_user(), *who = NULL;

	for (int i = 1; i < argc; i++)
		if (argv[i][0] != '-')
			who = argv[i];
	if (who && strcmp(who, me) != 0) {
		su_err("passwd: You may not view or modify password "
		       "information for %s.\n",
		       who);
		return 1;
	}
	printf("Changing password for %s.\n", me);
	fflush(stdout);
	su_err("Current password: ");
	su_drain(0);
	su_err("passwd: Authentication token manipulation error\n"
	       "passwd: password unchanged\n");
	return 10;
}

static int run_chpasswd(int argc, char **argv)
{
	char line[1024];
	int n = 0, failed = 0;

	while (fgets(line, sizeof(line), stdin)) {
		n++;
		line[strcspn(line, ":\n")] = '\0';
		if (!line[0])
			continue;
		su_err("chpasswd: (user %s) pam_chauthtok() failed, error:\n"
		       "Authentication token manipulation error\n"
		       "chpasswd: (line %d, user %s) password not changed\n",
		       line, n, line);
		failed = 1;
	}
	return failed;
}

static int run_visudo(int argc, char **argv)
{
	int fd = open("/etc/sudoers", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	su_err("visudo: /etc/sudoers: Permission denied\n");
	return 1;
}

/* ---- kernel modules (kmod 30): the calls are tried, the kernel refuses */

static int run_insmod(int argc, char **argv)
{
	int fd;

	if (argc < 2) {
		su_err("insmod: ERROR: missing filename.\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		su_err("insmod: ERROR: could not load module %s: %s\n", argv[1],
		       strerror(errno));
		return 1;
	}
	if (syscall(SYS_finit_module, fd, "", 0) == 0) {
		close(fd);
		return 0;
	}
	su_err("insmod: ERROR: could not insert module %s: %s\n", argv[1],
	       strerror(errno));
	close(fd);
	return 1;
}

static int run_rmmod(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (syscall(SYS_delete_module, argv[i], O_NONBLOCK) == 0)
			continue;
		if (errno == ENOENT)
			su_err("rmmod: ERROR: Module %s is not currently "
			       "loaded\n",
			       argv[i]);
		else
			su_err("rmmod: ERROR: could not remove module %s: %s\n",
			       argv[i], strerror(errno));
		return 1;
	}
	return 0;
}

static int run_modprobe(int argc, char **argv)
{
	struct utsname u;
	char dep[512];
	const char *mod = NULL;

	for (int i = 1; i < argc && !mod; i++) {
		if (strcmp(argv[i], "-r") == 0)
			return run_rmmod(argc - i, argv + i);
		if (argv[i][0] != '-')
			mod = argv[i];
	}
	if (!mod)
		return 0;
	uname(&u);
	snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", u.release);
	if (access(dep, R_OK) == 0)
		su_err("modprobe: ERROR: could not insert '%s': Operation not "
		       "permitted\n",
		       mod);
	else
		su_err("modprobe: FATAL: Module %s not found in directory "
		       "/lib/modules/%s\n",
		       mod, u.release);
	return 1;
}

static int run_lsmod(int argc, char **argv)
{
	char line[1024], name[256], size[32], used[32], by[512];
	FILE *f = fopen("/proc/modules", "re");

	printf("Module                  Size  Used by\n");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %31s %511s", name, size, used,
			   by) != 4)
			continue;
		if (strcmp(by, "-") == 0)
			by[0] = '\0';
		by[strcspn(by, "\n")] = '\0';
		if (by[0] && by[strlen(by) - 1] == ',')
			by[strlen(by) - 1] = '\0';
		printf("%-19s %8s  %s %s\n", name, size, used, by);
	}
	fclose(f);
	return 0;
}

/* ---- SELinux, the clipboard, the journal, logrotate, dmidecode ---- */

static int run_getenforce(int argc, char **argv)
{
	printf("Disabled\n");
	return 0;
}

static int run_sestatus(int argc, char **argv)
{
	printf("SELinux status:                 disabled\n");
	return 0;
}

static int run_xclip(int argc, char **argv)
{
	const char *d = su_env("DISPLAY");

	su_err("Error: Can't open display: %s\n", d && *d ? d : "(null)");
	return 1;
}

static int run_journalctl(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--vacuum", 8) == 0) {
			su_err("Vacuuming done, freed 0B of archived journals "
			       "from /var/log/journal.\n");
			return 0;
		}
	}
	su_err("No journal files were found.\n");
	printf("-- No entries --\n");
	return 0;
}

static int run_logrotate(int argc, char **argv)
{
	struct stat st;
	int any = 0;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			i += (strcmp(argv[i], "-s") == 0 ||
			      strcmp(argv[i], "-l") == 0);
			continue;
		}
		any = 1;
		if (stat(argv[i], &st) < 0) {
			su_err("error: cannot stat %s: %s\n", argv[i],
			       strerror(errno));
			return 1;
		}
	}
	if (!any) {
		su_err("logrotate 3.21.0 - Copyright (C) 1995-2001 Red Hat, "
		       "Inc.\n");
		return 1;
	}
	int r = su_try_write("/var/lib/logrotate/status.tmp", O_TRUNC);
	if (r < 0) {
		su_err("error: error creating output file "
		       "/var/lib/logrotate/status.tmp: %s\n",
		       strerror(-r));
		return 1;
	}
	return 0;
}

static int run_dmidecode(int argc, char **argv)
{
	static const char *const src[] = {
	    "/sys/firmware/dmi/tables/smbios_entry_point", "/dev/mem"};

	printf("# dmidecode 3.4\n");
	fflush(stdout);
	for (int i = 0; i < 2; i++) {
		int fd = open(src[i], O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			close(fd);
			continue;
		}
		su_err("%s: %s\n", src[i], strerror(errno));
		if (i == 0)
			printf("Scanning /dev/mem for entry point.\n");
		fflush(stdout);
	}
	return 1;
}

/* ---- chattr, lsattr: the flags are asked of the file system ---- */

static int chattr_one(const char *path, int set, unsigned bits)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	unsigned flags = 0;

	if (fd < 0) {
		su_err("chattr: %s while trying to stat %s\n", strerror(errno),
		       path);
		return 1;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		su_err("chattr: %s while reading flags on %s\n",
		       strerror(errno), path);
		close(fd);
		return 1;
	}
	flags = set ? flags | bits : flags & ~bits;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
		su_err("chattr: %s while setting flags on %s\n",
		       strerror(errno), path);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int run_chattr(int argc, char **argv)
{
	unsigned bits = 0;
	int set = 1, status = 0, i = 1;

	for (; i < argc &&
	       (argv[i][0] == '+' || argv[i][0] == '-' || argv[i][0] == '=');
	     i++) {
		set = argv[i][0] != '-';
		for (const char *c = argv[i] + 1; *c; c++)
			bits |= *c == 'i'   ? FS_IMMUTABLE_FL
				: *c == 'a' ? FS_APPEND_FL
					    : 0;
	}
	if (i >= argc) {
		su_err("Usage: chattr [-RVf] [-+=aAcCdDeijPsStTuFx] [-p "
		       "project] [-v version] files...\n");
		return 1;
	}
	for (; i < argc; i++)
		status |= chattr_one(argv[i], set, bits);
	return status;
}

static int run_lsattr(int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		unsigned flags = 0;
		int fd;

		if (argv[i][0] == '-')
			continue;
		fd = open(argv[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
			su_err("lsattr: %s While reading flags on %s\n",
			       strerror(errno), argv[i]);
			status = 1;
		} else {
			printf("----%c%c--------%c------- %s\n",
			       flags & FS_IMMUTABLE_FL ? 'i' : '-',
			       flags & FS_APPEND_FL ? 'a' : '-',
			       flags & FS_EXTENT_FL ? 'e' : '-', argv[i]);
		}
		if (fd >= 0)
			close(fd);
	}
	return status;
}

const struct standin standin_admin[] = {
    {"crontab", run_crontab},
    {"at", run_at},
    {"batch", run_at},
    {"atq", run_atq},
    {"atrm", run_atq},
    {"systemctl", run_systemctl},
    {"service", run_service},
    {"ufw", run_refusal},
    {"firewall-cmd", run_refusal},
    {"chkconfig", run_refusal},
    {"nft", run_refusal},
    {"iptables", run_iptables},
    {"ip6tables", run_iptables},
    {"iptables-save", run_iptables},
    {"iptables-restore", run_iptables},
    {"ip6tables-save", run_iptables},
    {"useradd", run_shadow},
    {"usermod", run_shadow},
    {"userdel", run_shadow},
    {"groupadd", run_shadow},
    {"groupmod", run_shadow},
    {"groupdel", run_shadow},
    {"newusers", run_shadow},
    {"adduser", run_refusal},
    {"addgroup", run_refusal},
    {"deluser", run_refusal},
    {"delgroup", run_refusal},
    {"passwd", run_passwd},
    {"chpasswd", run_chpasswd},
    {"visudo", run_visudo},
    {"insmod", run_insmod},
    {"rmmod", run_rmmod},
    {"modprobe", run_modprobe},
    {"lsmod", run_lsmod},
    {"setenforce", run_refusal},
    {"getenforce", run_getenforce},
    {"sestatus", run_sestatus},
    {"auditctl", run_refusal},
    {"xclip", run_xclip},
    {"xsel", run_refusal},
    {"journalctl", run_journalctl},
    {"logrotate", run_logrotate},
    {"dmidecode", run_dmidecode},
    {"chattr", run_chattr},
    {"lsattr", run_lsattr},
    {NULL, NULL},
};
