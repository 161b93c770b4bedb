/* SPDX-License-Identifier: MIT */
/* The floor: the least work a strict box needs, hand-written, no library.
 * clone(user mount pid ipc uts net cgroup) + id maps + tmpfs root + ro /usr
 * + merged-usr links + pivot_root + /proc + tmpfs /tmp + caps dropped + NNP
 * + landlock (ro /usr, rw /tmp) + a small seccomp deny-list + execve.
 * Build: cc -O2 -o floor scripts/bench-floor.c ; run: ./floor /bin/true ; ./floor --dump-bpf f.bpf (for bwrap --seccomp 3 3<f.bpf) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int sync_pipe[2];
static char **cmd;
static char stack[1 << 16] __attribute__((aligned(16)));

static void die(const char *m) { perror(m); _exit(126); }

static void wfile(const char *p, const char *s)
{
	int fd = open(p, O_WRONLY);
	if (fd < 0 || write(fd, s, strlen(s)) < 0) die(p);
	close(fd);
}

/* arch gate + a deny-list of 20 calls answering EPERM */
static struct sock_fprog deny_list(void)
{
	static const int deny[] = {SYS_ptrace, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_unshare, SYS_setns,
		SYS_add_key, SYS_keyctl, SYS_request_key, SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,
		SYS_open_by_handle_at, SYS_kexec_load, SYS_init_module, SYS_finit_module, SYS_delete_module,
		SYS_reboot, SYS_swapon, SYS_io_uring_setup};
	enum { N = sizeof deny / sizeof deny[0] };
	static struct sock_filter f[4 + 2 * N + 2];
	int k = 0;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003e, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (int i = 0; i < N; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, deny[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return (struct sock_fprog){.len = (unsigned short)k, .filter = f};
}

static int child(void *arg)
{
	char c;
	if (read(sync_pipe[0], &c, 1) != 1) die("sync");
	/* become the mapped id (a root caller's kuid 0 is not in the map) */
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) die("setresuid");
	{
		struct __user_cap_header_struct h0 = {_LINUX_CAPABILITY_VERSION_3, 0};
		struct __user_cap_data_struct d0[2];
		if (syscall(SYS_capget, &h0, d0)) die("capget");
		d0[0].effective = d0[0].permitted; d0[1].effective = d0[1].permitted;
		if (syscall(SYS_capset, &h0, d0)) die("capset up");
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) die("private");
	if (mount("none", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")) die("root tmpfs");
	if (mkdir("/tmp/usr", 0755) || mkdir("/tmp/proc", 0755) || mkdir("/tmp/tmp", 01777) || mkdir("/tmp/old", 0755)) die("mkdir");
	if (mount("/usr", "/tmp/usr", NULL, MS_BIND | MS_REC, NULL)) die("bind usr");
	if (mount(NULL, "/tmp/usr", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL)) die("ro usr");
	symlink("usr/bin", "/tmp/bin"); symlink("usr/lib", "/tmp/lib"); symlink("usr/lib64", "/tmp/lib64"); symlink("usr/sbin", "/tmp/sbin");
	if (mount("none", "/tmp/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m")) die("tmp");
	/* proc before the old root goes: the kernel wants a fully visible proc in the namespace */
	if (mount("proc", "/tmp/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) die("proc");
	if (chdir("/tmp")) die("chdir");
	if (syscall(SYS_pivot_root, ".", "old")) die("pivot");
	if (umount2("/old", MNT_DETACH)) die("umount old");
	rmdir("/old");
	if (chdir("/")) die("chdir /");
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL)) die("ro root");
	sethostname("box", 3);
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};
	for (int cap = 0; cap <= 40; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	if (syscall(SYS_capset, &h, d)) die("capset");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) die("nnp");
	/* landlock: read /usr, rw /tmp */
	struct landlock_ruleset_attr ra = {.handled_access_fs = (1ULL << 13) - 1};
	int rs = syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
	if (rs >= 0) {
		struct landlock_path_beneath_attr pb;
		pb.allowed_access = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
		pb.parent_fd = open("/usr", O_PATH | O_CLOEXEC);
		syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
		close(pb.parent_fd);
		pb.allowed_access = (1ULL << 13) - 1;
		pb.parent_fd = open("/tmp", O_PATH | O_CLOEXEC);
		syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
		close(pb.parent_fd);
		pb.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
		pb.parent_fd = open("/proc", O_PATH | O_CLOEXEC);
		syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
		close(pb.parent_fd);
		if (syscall(SYS_landlock_restrict_self, rs, 0)) die("landlock");
		close(rs);
	}
	struct sock_fprog prog = deny_list();
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) die("seccomp");
	execv(cmd[0], cmd);
	die("execv");
	return 126;
}

int main(int argc, char **argv)
{
	char p[64], s[64];
	int st;
	if (argc < 2) { fprintf(stderr, "usage: floor PROG... | floor --dump-bpf FILE\n"); return 2; }
	if (strcmp(argv[1], "--dump-bpf") == 0 && argc == 3) { /* the same filter, for bwrap --seccomp */
		struct sock_fprog fp = deny_list();
		FILE *o = fopen(argv[2], "w");
		if (!o || fwrite(fp.filter, sizeof fp.filter[0], fp.len, o) != fp.len || fclose(o)) die(argv[2]);
		return 0;
	}
	cmd = argv + 1;
	if (pipe2(sync_pipe, O_CLOEXEC)) die("pipe");
	pid_t pid = clone(child, stack + sizeof stack,
		CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP | SIGCHLD, NULL);
	if (pid < 0) die("clone");
	snprintf(p, sizeof p, "/proc/%d/setgroups", pid); wfile(p, "deny");
	snprintf(p, sizeof p, "/proc/%d/uid_map", pid); snprintf(s, sizeof s, "1000 %d 1\n", (int)geteuid() ? (int)geteuid() : 65534); wfile(p, s);
	snprintf(p, sizeof p, "/proc/%d/gid_map", pid); snprintf(s, sizeof s, "1000 %d 1\n", (int)getegid() ? (int)getegid() : 65534); wfile(p, s);
	if (write(sync_pipe[1], "x", 1) != 1) die("sync");
	if (waitpid(pid, &st, 0) < 0) die("wait");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
