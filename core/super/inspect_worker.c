/* SPDX-License-Identifier: MIT */
/*
 * inspect_worker.c: the inspection worker (inspect.h), the child sbxlua
 * forks once to name files by libmagic.
 *
 * Trust boundary.  Every byte it is given was written by a boxed program,
 * and a file-type parser is a large body of C reading it.  So the parser
 * never runs in sbxlua: the worker loads libmagic and its database first
 * (the only files it opens), then locks itself down, in this order, and
 * only then reads a request:
 *   1. a session of its own (no terminal's signals), its descriptors
 *      closed but its socket (stdio on /dev/null), parent death kills it;
 *   2. limits: RLIMIT_CPU (its whole life), RLIMIT_AS (what it maps now
 *      and 256 MiB), no file size, no core (and, once Landlock's ruleset
 *      is closed, no new descriptor);
 *   3. as root: no supplementary groups, uid and gid 65534 (the setresuid
 *      clears every capability); any caller: the capability sets emptied,
 *      not dumpable (no ptrace by its own uid);
 *   4. no_new_privs;
 *   5. Landlock handling every right of the kernel's ABI and allowing none
 *      (no file, no TCP port, no abstract socket, no signal out);
 *   6. seccomp last: read and write (its socket), the memory calls
 *      libmagic's allocator needs (mmap never executable), its CPU clock,
 *      exit; anything else kills it.
 * A step that fails ends it before it reads a byte (the first message
 * says why), so an unconfined worker never serves.  libmagic is given
 * bytes in memory only (magic_buffer), with the checks that decompress
 * or follow a container's offsets off and its own bounds set.
 */
#include "inspect.h"

#include "compat.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <magic.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* no decompression (nor its fork), no reader that follows offsets the
 * file names (ELF sections, CDF streams, tar members) */
#define FLAGS                                                                  \
	(MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_COMPRESS_FORK |      \
	 MAGIC_NO_CHECK_ELF | MAGIC_NO_CHECK_CDF | MAGIC_NO_CHECK_TAR)

#ifndef SBX_LIBMAGIC
#define SBX_LIBMAGIC "/usr/lib/x86_64-linux-gnu/libmagic.so.1"
#endif

#define WORKER_UID 65534
#define WORKER_CPU 300		      /* seconds over its life: RLIMIT_CPU */
#define WORKER_AS ((rlim_t)256 << 20) /* bytes past what it maps at start */

/* libmagic's functions, from dlopen (by the path the build found, never
 * searched for by name) */
static struct {
	magic_t (*open)(int);
	int (*load)(magic_t, const char *);
	int (*setparam)(magic_t, int, const void *);
	const char *(*buffer)(magic_t, const void *, size_t);
} lib;

static int lib_open(void)
{
	void *h = dlopen(SBX_LIBMAGIC, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return -ELIBACC;
	lib.open = (__typeof__(lib.open))dlsym(h, "magic_open");
	lib.load = (__typeof__(lib.load))dlsym(h, "magic_load");
	lib.setparam = (__typeof__(lib.setparam))dlsym(h, "magic_setparam");
	lib.buffer = (__typeof__(lib.buffer))dlsym(h, "magic_buffer");
	return lib.open && lib.load && lib.setparam && lib.buffer ? 0
								  : -ELIBBAD;
}

/* One handle with flags, its database loaded (the operator's MAGIC, or
 * libmagic's default place) and its costs bounded; NULL when not. */
static magic_t open_one(int flags)
{
	size_t bytes = SBX_MAGIC_BYTES, indir = 8, regex = 4096;
	magic_t m = lib.open(flags);
	if (!m)
		return NULL;
	if (lib.load(m, NULL) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_BYTES_MAX, &bytes) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_INDIR_MAX, &indir) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_REGEX_MAX, &regex) != 0)
		return NULL; /* the worker ends: nothing to close */
	return m;
}

/* 1: alone, its socket at 3, stdio on /dev/null, nothing else open. */
static int isolate(int sock)
{
	sigset_t all;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL); /* EINVAL for KILL, STOP: harmless */
	if (null < 0 || setsid() < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 ||
	    getppid() == 1)
		return -errno;
	for (int fd = 0; fd < 3; fd++)
		if (dup2(null, fd) < 0)
			return -errno;
	if (sock != 3 && dup2(sock, 3) < 0)
		return -errno;
	if (sbx_close_range(4, ~0U, 0) < 0)
		return -errno;
	return 0;
}

/* 2: its limits (address space from what it maps now, statm's pages). */
static int limits(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");
	struct rlimit cpu = {WORKER_CPU, WORKER_CPU}, zero = {0, 0}, as;
	if (!f)
		return -errno;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	if (!pages)
		return -EIO;
	as.rlim_cur = as.rlim_max =
	    (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + WORKER_AS;
	if (setrlimit(RLIMIT_CPU, &cpu) < 0 || setrlimit(RLIMIT_AS, &as) < 0 ||
	    setrlimit(RLIMIT_FSIZE, &zero) < 0 ||
	    setrlimit(RLIMIT_CORE, &zero) < 0)
		return -errno;
	return 0;
}

/* 3, 4: no id of root's, no capability, not dumpable, no_new_privs. */
static int drop(void)
{
	cap_t none;
	int r;
	if (geteuid() == 0 &&
	    (setgroups(0, NULL) < 0 ||
	     setresgid(WORKER_UID, WORKER_UID, WORKER_UID) < 0 ||
	     setresuid(WORKER_UID, WORKER_UID, WORKER_UID) < 0))
		return -errno;
	none = cap_init();
	if (!none)
		return -ENOMEM;
	r = cap_set_proc(none) < 0 ? -errno : 0;
	cap_free(none);
	if (r < 0)
		return r;
	if (prctl(PR_SET_DUMPABLE, 0) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return 0;
}

/* 5: Landlock, every right of the kernel's ABI handled, none allowed;
 * a kernel without it leaves the rest to hold. */
static int landlock(void)
{
	struct sbx_landlock_ruleset_attr a;
	int abi = sbx_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);
	int fd, r;
	if (abi < 1)
		return 0;
	memset(&a, 0, sizeof a);
	a.handled_access_fs = (1ULL << 13) - 1; /* ABI 1 */
	if (abi >= 2)
		a.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		a.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 4)
		a.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP |
				       LANDLOCK_ACCESS_NET_CONNECT_TCP;
	if (abi >= 5)
		a.handled_access_fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	if (abi >= 6)
		a.scoped =
		    LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
	fd = sbx_landlock_create_ruleset(&a,
					 abi >= 6   ? sizeof a
					 : abi >= 4 ? 16
						    : 8,
					 0);
	if (fd < 0)
		return -errno;
	r = sbx_landlock_restrict_self(fd, 0) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/* no descriptor past the four it holds (after Landlock's own) */
static int no_files(void)
{
	struct rlimit four = {4, 4};
	return setrlimit(RLIMIT_NOFILE, &four) < 0 ? -errno : 0;
}

/* 6: the worker's calls; anything else kills it. */
static int filter(void)
{
	static const int calls[] = {
	    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(munmap), SCMP_SYS(mremap),
	    SCMP_SYS(brk), SCMP_SYS(madvise), SCMP_SYS(exit),
	    SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn),
	    SCMP_SYS(clock_gettime),
	    /* libyara's scan catches SIGBUS and SIGSEGV around its reads
	     * (sigaction, and sigsetjmp's mask): its own handlers only */
	    SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask)};
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_KILL_PROCESS);
	int r = f ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < sizeof calls / sizeof calls[0]; i++)
		r = seccomp_rule_add(f, SCMP_ACT_ALLOW, calls[i], 0);
	/* mmap, never executable */
	if (r == 0)
		r = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
				     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	if (r == 0)
		r = seccomp_load(f);
	if (f)
		seccomp_release(f);
	return r;
}

/* The worker's CPU so far, in microseconds. */
static uint64_t cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void answer(const struct sbx_inspect_answer *a)
{
	ssize_t r;
	do
		r = write(3, a, sizeof *a);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof *a)
		_exit(1);
}

/* the operator's YARA rules, loaded before the lockdown when sbxlua has
 * some (inspect_yara.c) */
static void *rules;

/* 2 to 6: the lockdown, in order */
static int lockdown(void)
{
	int r;
	if ((r = limits()) < 0 || (r = drop()) < 0 || (r = landlock()) < 0 ||
	    (r = no_files()) < 0 || (r = filter()) < 0)
		return r;
	return 0;
}

/* libyara and the compiled rules sbxlua holds, if it holds any (bytes
 * this process inherited at its fork, never a file) */
static int load_rules(void)
{
	size_t len;
	const void *blob = sbx_inspect_yara_blob(&len);
	int r;
	if (!blob)
		return 0;
	if (!sbx_inspect_yara_area())
		return -ENOMEM;
	if ((r = sbx_yara_open()) < 0)
		return r;
	return sbx_yara_load(blob, len, &rules);
}

/* Loads libmagic (and libyara with its rules), locks down (the steps
 * above), says so; -errno at the first step that failed. */
static int prepare(int sock, magic_t *desc, magic_t *mime)
{
	int r = isolate(sock);
	if (r < 0)
		return r;
	if ((r = lib_open()) < 0)
		return r;
	*desc = open_one(FLAGS);
	*mime = *desc ? open_one(FLAGS | MAGIC_MIME_TYPE) : NULL;
	if (!*mime)
		return -ENOENT; /* no database, or not one it reads */
	/* the time zone read now, as a rule (no file): a type that prints a
	 * date (a .pyc's timestamp) would open /etc/localtime at its first
	 * localtime, which the filter kills */
	if (setenv("TZ", "UTC0", 1) < 0)
		return -errno;
	tzset();
	if ((r = load_rules()) < 0)
		return r;
	return lockdown();
}

/* A scan request ('Y' and its struct sbx_yara_req, n bytes in all): the
 * shared area's first len bytes, by the rules loaded. */
static void scan(const unsigned char *msg, ssize_t n,
		 struct sbx_inspect_answer *a)
{
	struct sbx_yara_req y;
	int r;
	if (!rules || n != (ssize_t)(1 + sizeof y)) {
		a->err = EINVAL;
		return;
	}
	memcpy(&y, msg + 1, sizeof y);
	if (y.len > SBX_YARA_BYTES || y.timeout < 1) {
		a->err = EINVAL;
		return;
	}
	r = sbx_yara_scan(rules, sbx_inspect_yara_area(), (size_t)y.len,
			  y.timeout, a->text, sizeof a->text);
	a->err = -r;
}

/* A type request: 'T' and the bytes. */
static void type(magic_t desc, magic_t mime, const unsigned char *buf,
		 ssize_t n, struct sbx_inspect_answer *a)
{
	const char *t, *m;
	n = n > SBX_MAGIC_BYTES + 1 ? SBX_MAGIC_BYTES : n - 1;
	t = lib.buffer(desc, buf + 1, (size_t)n);
	m = t ? lib.buffer(mime, buf + 1, (size_t)n) : NULL;
	if (t && m) {
		snprintf(a->type, sizeof a->type, "%s", t);
		snprintf(a->mime, sizeof a->mime, "%s", m);
	} else {
		a->err = EIO;
	}
	/* rules loaded during a run (sbx_inspect_yara_inline): the same
	 * bytes scanned too; a scan that stops leaves its text as far as it
	 * got and says "stopped" */
	if (rules && !a->err &&
	    sbx_yara_scan(rules, buf + 1, (size_t)n, SBX_YARA_TIMEOUT, a->text,
			  sizeof a->text - 16) < 0)
		strcat(a->text, "stopped\n");
}

void sbx_inspect_worker_main(int sock)
{
	static unsigned char buf[SBX_MAGIC_BYTES + 2];
	static struct sbx_inspect_answer a;
	magic_t desc = NULL, mime = NULL;
	int r = prepare(sock, &desc, &mime);

	memset(&a, 0, sizeof a);
	a.err = -r;
	if (r < 0 && fcntl(3, F_GETFD) < 0)
		_exit(1); /* no socket at 3 to say why on */
	answer(&a);	  /* ready, or why not */
	if (r < 0)
		_exit(1);
	for (;;) {
		ssize_t n = read(3, buf, sizeof buf);
		uint64_t t0 = cpu_us();
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0); /* sbxlua closed its end */
		memset(&a, 0, sizeof a);
		if (buf[0] == 'Y')
			scan(buf, n, &a);
		else
			type(desc, mime, buf, n, &a);
		a.cpu_us = (uint32_t)(cpu_us() - t0);
		answer(&a);
	}
}

/* The compiling child: libyara opened, locked down as the worker is,
 * then the operator's rules compiled from the memory it inherited; its
 * answer (err, libyara's messages), then the compiled rules, on its end
 * of a stream.  It reads no box's byte. */
void sbx_yara_compile_main(int sock, const struct sbx_yara_source *src,
			   size_t n)
{
	static struct sbx_inspect_answer a;
	unsigned char *blob = NULL;
	size_t len = 0, off = 0;
	int r = isolate(sock);
	if (r < 0 && fcntl(3, F_GETFD) < 0)
		_exit(1); /* no socket at 3 to say why on */
	if (r == 0 && (r = sbx_yara_open()) == 0 && (r = lockdown()) == 0)
		r = sbx_yara_compile(src, n, &blob, &len, a.text,
				     sizeof a.text);
	a.err = -r;
	answer(&a);
	while (r == 0 && off < len) {
		ssize_t w = write(3, blob + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		off += (size_t)w;
	}
	_exit(0);
}
