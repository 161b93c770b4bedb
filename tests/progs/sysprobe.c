/* SPDX-License-Identifier: MIT */
/*
 * sysprobe: make one raw system call and print how it ended.
 *
 *   sysprobe CASE [ARG]   prints "ok" or the errno name (EPERM, ...)
 *   sysprobe list         prints the known cases, one a line
 *
 * A CASE is a system call of the seccomp deny-list (ptrace, mount, ...) or
 * an argument case (clone-newuser, ioctl-tiocsti-high, socket FAMILY, ...).
 * Every call is made with arguments the kernel rejects or that change
 * nothing outside this short-lived process (bad pointers, invalid flags,
 * descriptor -1, a socket closed at once), so that the probe is harmless when
 * it runs without a filter, even as root.  Used by tests/filter_spec.lua.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#define BAD ((long)1) /* an address that is never mapped */
#define HIGH (1UL << 32)

static unsigned long arg_ul; /* the optional ARG */

/* A clone with flags; a child that comes to life exits at once. */
static long do_clone(unsigned long flags)
{
	long rc = syscall(SYS_clone, flags | SIGCHLD, 0L, 0L, 0L, 0L);
	if (rc == 0)
		_exit(0);
	if (rc > 0)
		waitpid((pid_t)rc, NULL, 0);
	return rc;
}

/* unshare changes only this process, which ends right after. */
static long do_unshare(unsigned long flags)
{
	return syscall(SYS_unshare, flags);
}

static long do_socket(unsigned long family)
{
	long rc = syscall(SYS_socket, family, (long)SOCK_DGRAM, 0L);
	if (rc >= 0)
		close((int)rc);
	return rc;
}

#define P(name) static long p_##name(void)

P(ptrace)
{
	return syscall(SYS_ptrace, (long)PTRACE_ATTACH, 0x7fffffffL);
}
P(process_vm_readv)
{
	return syscall(SYS_process_vm_readv, (long)getpid(), 0L, 0L, 0L, 0L,
		       1L);
}
P(process_vm_writev)
{
	return syscall(SYS_process_vm_writev, (long)getpid(), 0L, 0L, 0L, 0L,
		       1L);
}
P(kcmp)
{
	return syscall(SYS_kcmp, (long)getpid(), (long)getpid(), 99L);
}
P(pidfd_getfd)
{
	return syscall(SYS_pidfd_getfd, -1L, 0L, 1L);
}
P(mount)
{
	return syscall(SYS_mount, BAD, BAD, BAD, 0L, 0L);
}
P(umount2)
{
	return syscall(SYS_umount2, BAD, -1L);
}
P(pivot_root)
{
	return syscall(SYS_pivot_root, BAD, BAD);
}
P(chroot)
{
	return syscall(SYS_chroot, BAD);
}
P(move_mount)
{
	return syscall(SYS_move_mount, -1L, BAD, -1L, BAD, -1L);
}
P(open_tree)
{
	return syscall(SYS_open_tree, -1L, BAD, -1L);
}
P(fsopen)
{
	return syscall(SYS_fsopen, BAD, -1L);
}
P(fsconfig)
{
	return syscall(SYS_fsconfig, -1L, -1L, 0L, 0L, 0L);
}
P(fsmount)
{
	return syscall(SYS_fsmount, -1L, -1L, 0L);
}
P(fspick)
{
	return syscall(SYS_fspick, -1L, BAD, -1L);
}
P(mount_setattr)
{
	return syscall(SYS_mount_setattr, -1L, BAD, -1L, 0L, 0L);
}
P(setns)
{
	return syscall(SYS_setns, -1L, 0L);
}
P(kexec_load)
{
	return syscall(SYS_kexec_load, 0L, 0L, 0L, -1L);
}
P(kexec_file_load)
{
	return syscall(SYS_kexec_file_load, -1L, -1L, 0L, 0L, -1L);
}
P(reboot)
{
	return syscall(SYS_reboot, 0L, 0L, 0L, 0L);
}
P(init_module)
{
	return syscall(SYS_init_module, BAD, 0L, BAD);
}
P(finit_module)
{
	return syscall(SYS_finit_module, -1L, BAD, -1L);
}
P(delete_module)
{
	return syscall(SYS_delete_module, BAD, 0L);
}
P(swapon)
{
	return syscall(SYS_swapon, BAD, 0L);
}
P(swapoff)
{
	return syscall(SYS_swapoff, BAD);
}
P(acct)
{
	return syscall(SYS_acct, BAD);
}
P(quotactl)
{
	return syscall(SYS_quotactl, 0L, BAD, 0L, BAD);
}
P(settimeofday)
{
	return syscall(SYS_settimeofday, BAD, BAD);
}
P(clock_settime)
{
	return syscall(SYS_clock_settime, -1L, BAD);
}
P(clock_adjtime)
{
	return syscall(SYS_clock_adjtime, -1L, BAD);
}
P(adjtimex)
{
	return syscall(SYS_adjtimex, BAD);
}
P(sethostname)
{
	return syscall(SYS_sethostname, BAD, -1L);
}
P(setdomainname)
{
	return syscall(SYS_setdomainname, BAD, -1L);
}
P(syslog)
{
	return syscall(SYS_syslog, 99L, 0L, 0L);
}
P(lookup_dcookie)
{
	return syscall(SYS_lookup_dcookie, 0L, 0L, 0L);
}
P(keyctl)
{
	return syscall(SYS_keyctl, -1L, 0L, 0L, 0L, 0L);
}
P(add_key)
{
	return syscall(SYS_add_key, BAD, BAD, 0L, 0L, 0L);
}
P(request_key)
{
	return syscall(SYS_request_key, BAD, BAD, 0L, 0L);
}
P(bpf)
{
	return syscall(SYS_bpf, -1L, 0L, 0L);
}
P(perf_event_open)
{
	return syscall(SYS_perf_event_open, BAD, 0L, -1L, -1L, 0L);
}
P(userfaultfd)
{
	return syscall(SYS_userfaultfd, -1L);
}
P(io_uring_setup)
{
	return syscall(SYS_io_uring_setup, 0L, BAD);
}
P(io_uring_enter)
{
	return syscall(SYS_io_uring_enter, -1L, 0L, 0L, 0L, 0L, 0L);
}
P(io_uring_register)
{
	return syscall(SYS_io_uring_register, -1L, 0L, 0L, 0L);
}
P(open_by_handle_at)
{
	return syscall(SYS_open_by_handle_at, -1L, BAD, 0L);
}
P(name_to_handle_at)
{
	return syscall(SYS_name_to_handle_at, -1L, BAD, BAD, BAD, -1L);
}
P(fanotify_init)
{
	return syscall(SYS_fanotify_init, -1L, 0L);
}
P(iopl)
{
	return syscall(SYS_iopl, 99L);
}
P(ioperm)
{
	return syscall(SYS_ioperm, 0x10000L, 1L, 0L);
}
P(modify_ldt)
{
	return syscall(SYS_modify_ldt, 0L, 0L, 0L);
}
P(uselib)
{
	return syscall(SYS_uselib, BAD);
}
P(_sysctl)
{
	return syscall(SYS__sysctl, BAD);
}
P(sysfs)
{
	return syscall(SYS_sysfs, 99L);
}
P(nfsservctl)
{
	return syscall(SYS_nfsservctl, -1L, 0L, 0L);
}
/* clone3 with a size the kernel rejects: EINVAL without a filter */
P(clone3)
{
	return syscall(SYS_clone3, 0L, 0L);
}
P(getpid)
{
	return syscall(SYS_getpid);
}

/* argument filters */
P(clone_plain)
{
	return do_clone(0);
}
P(clone_newns)
{
	return do_clone(CLONE_NEWNS);
}
P(clone_newcgroup)
{
	return do_clone(CLONE_NEWCGROUP);
}
P(clone_newuts)
{
	return do_clone(CLONE_NEWUTS);
}
P(clone_newipc)
{
	return do_clone(CLONE_NEWIPC);
}
P(clone_newuser)
{
	return do_clone(CLONE_NEWUSER);
}
P(clone_newpid)
{
	return do_clone(CLONE_NEWPID);
}
P(clone_newnet)
{
	return do_clone(CLONE_NEWNET);
}
P(clone_newuser_high)
{
	return do_clone(CLONE_NEWUSER | HIGH);
}
P(unshare_plain)
{
	return do_unshare(CLONE_FILES);
}
P(unshare_newns)
{
	return do_unshare(CLONE_NEWNS);
}
P(unshare_newcgroup)
{
	return do_unshare(CLONE_NEWCGROUP);
}
P(unshare_newuts)
{
	return do_unshare(CLONE_NEWUTS);
}
P(unshare_newipc)
{
	return do_unshare(CLONE_NEWIPC);
}
P(unshare_newuser)
{
	return do_unshare(CLONE_NEWUSER);
}
P(unshare_newpid)
{
	return do_unshare(CLONE_NEWPID);
}
P(unshare_newnet)
{
	return do_unshare(CLONE_NEWNET);
}
P(unshare_newtime)
{
	return do_unshare(CLONE_NEWTIME);
}
P(socket)
{
	return do_socket(arg_ul);
}
/* descriptor -1: nothing is ever injected, even without a filter */
P(ioctl_tiocsti)
{
	return syscall(SYS_ioctl, -1L, (long)TIOCSTI, BAD);
}
P(ioctl_tiocsti_high)
{
	return syscall(SYS_ioctl, -1L, (long)(TIOCSTI | HIGH), BAD);
}
P(ioctl_tioclinux)
{
	return syscall(SYS_ioctl, -1L, (long)TIOCLINUX, BAD);
}
P(ioctl_tioclinux_high)
{
	return syscall(SYS_ioctl, -1L, (long)(TIOCLINUX | HIGH), BAD);
}
P(ioctl_tcgets)
{
	return syscall(SYS_ioctl, -1L, (long)TCGETS, BAD);
}
/* a bad pointer: EFAULT when the call is allowed, before any context */
P(io_setup)
{
	return syscall(SYS_io_setup, 0L, BAD);
}
/* a bad name pointer: EFAULT when the call is allowed, no memfd made */
P(memfd_create)
{
	return syscall(SYS_memfd_create, BAD, 0L);
}
/* unknown flags: EINVAL when the call is allowed (ENOSYS where the kernel
 * has no secret memory) */
P(memfd_secret)
{
	return syscall(SYS_memfd_secret, ~0L);
}
/* descriptor -1: EBADF when the call is allowed; no lease is ever taken */
P(fcntl_setlease)
{
	return syscall(SYS_fcntl, -1L, (long)F_SETLEASE, (long)F_RDLCK);
}
P(fcntl_setlease_high)
{
	return syscall(SYS_fcntl, -1L, (long)(F_SETLEASE | HIGH),
		       (long)F_RDLCK);
}
P(fcntl_getlease)
{
	return syscall(SYS_fcntl, -1L, (long)F_GETLEASE, 0L);
}
/* a bad pointer: EFAULT when the call is allowed */
P(openat2)
{
	return syscall(SYS_openat2, -1L, BAD, BAD, 24L);
}

/*
 * Modes with set-id bits.  Every path is a bad pointer and every
 * descriptor -1, so that nothing is created or changed when the call is
 * allowed (EFAULT, EBADF).  fchmodat2 takes its number as ARG: this
 * machine's headers predate it, the test asks libseccomp.
 */
#define SUID (S_ISUID | 0755L)
#define SGID (S_ISGID | 0755L)
P(chmod_setuid)
{
	return syscall(SYS_chmod, BAD, SUID);
}
P(chmod_setgid)
{
	return syscall(SYS_chmod, BAD, SGID);
}
P(chmod_plain)
{
	return syscall(SYS_chmod, BAD, 01777L);
}
P(fchmod_setuid)
{
	return syscall(SYS_fchmod, -1L, SUID);
}
P(fchmod_setgid)
{
	return syscall(SYS_fchmod, -1L, SGID);
}
P(fchmod_plain)
{
	return syscall(SYS_fchmod, -1L, 0755L);
}
P(fchmodat_setuid)
{
	return syscall(SYS_fchmodat, -1L, BAD, SUID);
}
P(fchmodat_setgid)
{
	return syscall(SYS_fchmodat, -1L, BAD, SGID);
}
P(fchmodat2_setuid)
{
	return syscall((long)arg_ul, -1L, BAD, SUID, 0L);
}
P(fchmodat2_setgid)
{
	return syscall((long)arg_ul, -1L, BAD, SGID, 0L);
}
P(fchmodat2_plain)
{
	return syscall((long)arg_ul, -1L, BAD, 0755L, 0L);
}
P(open_creat_setuid)
{
	return syscall(SYS_open, BAD, (long)(O_CREAT | O_WRONLY), SUID);
}
P(open_creat_setgid)
{
	return syscall(SYS_open, BAD, (long)(O_CREAT | O_WRONLY), SGID);
}
P(open_tmpfile_setuid)
{
	return syscall(SYS_open, BAD, (long)(O_TMPFILE | O_WRONLY), SUID);
}
P(open_tmpfile_setgid)
{
	return syscall(SYS_open, BAD, (long)(O_TMPFILE | O_WRONLY), SGID);
}
P(open_creat_plain)
{
	return syscall(SYS_open, BAD, (long)(O_CREAT | O_WRONLY), 0644L);
}
/* no O_CREAT: the mode is ignored, and so is the argument */
P(open_nocreat_setuid)
{
	return syscall(SYS_open, BAD, (long)O_RDONLY, SUID | SGID);
}
P(openat_creat_setuid)
{
	return syscall(SYS_openat, -1L, BAD, (long)(O_CREAT | O_WRONLY), SUID);
}
P(openat_creat_setgid)
{
	return syscall(SYS_openat, -1L, BAD, (long)(O_CREAT | O_WRONLY), SGID);
}
P(openat_tmpfile_setuid)
{
	return syscall(SYS_openat, -1L, BAD, (long)(O_TMPFILE | O_WRONLY),
		       SUID);
}
P(openat_tmpfile_setgid)
{
	return syscall(SYS_openat, -1L, BAD, (long)(O_TMPFILE | O_WRONLY),
		       SGID);
}
P(openat_creat_plain)
{
	return syscall(SYS_openat, -1L, BAD, (long)(O_CREAT | O_WRONLY), 0644L);
}
P(openat_nocreat_setuid)
{
	return syscall(SYS_openat, -1L, BAD, (long)O_RDONLY, SUID | SGID);
}
P(creat_setuid)
{
	return syscall(SYS_creat, BAD, SUID);
}
P(creat_setgid)
{
	return syscall(SYS_creat, BAD, SGID);
}
P(mknod_setuid)
{
	return syscall(SYS_mknod, BAD, (long)S_IFREG | SUID, 0L);
}
P(mknod_setgid)
{
	return syscall(SYS_mknod, BAD, (long)S_IFREG | SGID, 0L);
}
P(mknodat_setuid)
{
	return syscall(SYS_mknodat, -1L, BAD, (long)S_IFREG | SUID, 0L);
}
P(mknodat_setgid)
{
	return syscall(SYS_mknodat, -1L, BAD, (long)S_IFREG | SGID, 0L);
}

/* a NULL program: EFAULT when the call is allowed */
P(seccomp_listener)
{
	return syscall(SYS_seccomp, 1L, 8L, 0L);
}
P(seccomp_filter)
{
	return syscall(SYS_seccomp, 1L, 0L, 0L);
}

/* reads nothing (old limit NULL): ok when allowed */
P(prlimit_self)
{
	return syscall(SYS_prlimit64, 0L, (long)RLIMIT_CPU, 0L, 0L);
}
P(prlimit_pid)
{
	return syscall(SYS_prlimit64, (long)getpid(), (long)RLIMIT_CPU, 0L, 0L);
}
/* the kernel reads pid 0; the filter, comparing 64 bits, refuses */
P(prlimit_high)
{
	return syscall(SYS_prlimit64, (long)HIGH, (long)RLIMIT_CPU, 0L, 0L);
}

#define C(name)                                                                \
	{                                                                      \
#name, p_##name                                                \
	}
#define A(name, fn)                                                            \
	{                                                                      \
		name, p_##fn                                                   \
	}

static const struct probe {
	const char *name;
	long (*fn)(void);
} probes[] = {
    C(ptrace),
    C(process_vm_readv),
    C(process_vm_writev),
    C(kcmp),
    C(pidfd_getfd),
    C(mount),
    C(umount2),
    C(pivot_root),
    C(chroot),
    C(move_mount),
    C(open_tree),
    C(fsopen),
    C(fsconfig),
    C(fsmount),
    C(fspick),
    C(mount_setattr),
    C(setns),
    C(kexec_load),
    C(kexec_file_load),
    C(reboot),
    C(init_module),
    C(finit_module),
    C(delete_module),
    C(swapon),
    C(swapoff),
    C(acct),
    C(quotactl),
    C(settimeofday),
    C(clock_settime),
    C(clock_adjtime),
    C(adjtimex),
    C(sethostname),
    C(setdomainname),
    C(syslog),
    C(lookup_dcookie),
    C(keyctl),
    C(add_key),
    C(request_key),
    C(bpf),
    C(perf_event_open),
    C(userfaultfd),
    C(io_uring_setup),
    C(io_uring_enter),
    C(io_uring_register),
    C(open_by_handle_at),
    C(name_to_handle_at),
    C(fanotify_init),
    C(io_setup),
    C(memfd_create),
    C(memfd_secret),
    C(iopl),
    C(ioperm),
    C(modify_ldt),
    C(uselib),
    C(_sysctl),
    C(sysfs),
    C(nfsservctl),
    C(clone3),
    C(openat2),
    C(getpid),
    A("clone-plain", clone_plain),
    A("clone-newns", clone_newns),
    A("clone-newcgroup", clone_newcgroup),
    A("clone-newuts", clone_newuts),
    A("clone-newipc", clone_newipc),
    A("clone-newuser", clone_newuser),
    A("clone-newpid", clone_newpid),
    A("clone-newnet", clone_newnet),
    A("clone-newuser-high", clone_newuser_high),
    A("unshare-plain", unshare_plain),
    A("unshare-newns", unshare_newns),
    A("unshare-newcgroup", unshare_newcgroup),
    A("unshare-newuts", unshare_newuts),
    A("unshare-newipc", unshare_newipc),
    A("unshare-newuser", unshare_newuser),
    A("unshare-newpid", unshare_newpid),
    A("unshare-newnet", unshare_newnet),
    A("unshare-newtime", unshare_newtime),
    A("socket", socket),
    A("ioctl-tiocsti", ioctl_tiocsti),
    A("ioctl-tiocsti-high", ioctl_tiocsti_high),
    A("ioctl-tioclinux", ioctl_tioclinux),
    A("ioctl-tioclinux-high", ioctl_tioclinux_high),
    A("ioctl-tcgets", ioctl_tcgets),
    A("chmod-setuid", chmod_setuid),
    A("chmod-setgid", chmod_setgid),
    A("chmod-plain", chmod_plain),
    A("fchmod-setuid", fchmod_setuid),
    A("fchmod-setgid", fchmod_setgid),
    A("fchmod-plain", fchmod_plain),
    A("fchmodat-setuid", fchmodat_setuid),
    A("fchmodat-setgid", fchmodat_setgid),
    A("fchmodat2-setuid", fchmodat2_setuid),
    A("fchmodat2-setgid", fchmodat2_setgid),
    A("fchmodat2-plain", fchmodat2_plain),
    A("open-creat-setuid", open_creat_setuid),
    A("open-creat-setgid", open_creat_setgid),
    A("open-tmpfile-setuid", open_tmpfile_setuid),
    A("open-tmpfile-setgid", open_tmpfile_setgid),
    A("open-creat-plain", open_creat_plain),
    A("open-nocreat-setuid", open_nocreat_setuid),
    A("openat-creat-setuid", openat_creat_setuid),
    A("openat-creat-setgid", openat_creat_setgid),
    A("openat-tmpfile-setuid", openat_tmpfile_setuid),
    A("openat-tmpfile-setgid", openat_tmpfile_setgid),
    A("openat-creat-plain", openat_creat_plain),
    A("openat-nocreat-setuid", openat_nocreat_setuid),
    A("creat-setuid", creat_setuid),
    A("creat-setgid", creat_setgid),
    A("mknod-setuid", mknod_setuid),
    A("mknod-setgid", mknod_setgid),
    A("mknodat-setuid", mknodat_setuid),
    A("mknodat-setgid", mknodat_setgid),
    A("fcntl-setlease", fcntl_setlease),
    A("fcntl-setlease-high", fcntl_setlease_high),
    A("fcntl-getlease", fcntl_getlease),
    A("seccomp-listener", seccomp_listener),
    A("seccomp-filter", seccomp_filter),
    A("prlimit-self", prlimit_self),
    A("prlimit-pid", prlimit_pid),
    A("prlimit-high", prlimit_high),
};

int main(int argc, char **argv)
{
	size_t n = sizeof probes / sizeof probes[0];
	const char *name;
	long rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: sysprobe CASE [ARG] | list\n");
		return 2;
	}
	if (strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", probes[i].name);
		return 0;
	}
	if (argc == 3) {
		char *end;
		errno = 0;
		arg_ul = strtoul(argv[2], &end, 0);
		if (errno != 0 || *end != '\0' || end == argv[2]) {
			fprintf(stderr, "sysprobe: bad number '%s'\n", argv[2]);
			return 2;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(argv[1], probes[i].name) != 0)
			continue;
		errno = 0;
		rc = probes[i].fn();
		if (rc >= 0) {
			printf("ok\n");
		} else {
			name = strerrorname_np(errno);
			printf("%s\n", name != NULL ? name : "E?");
		}
		return 0;
	}
	fprintf(stderr, "sysprobe: unknown case '%s'\n", argv[1]);
	return 2;
}
