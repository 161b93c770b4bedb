/* SPDX-License-Identifier: MIT */
/*
 * lock.c: the command's process locking itself in: its capabilities
 * dropped (bounding set included), and Landlock's ruleset (the ABI probed
 * by spec.c, its rights clamped to it) restricting it.
 * Runs between clone and execve (child.h): raw system calls and
 * async-signal-safe libc calls only, every failure sent as (stage, errno,
 * index) by sbx_die.
 */
#include "child.h"

#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>

/* Empties all five capability sets: bounding and ambient by prctl, then
 * effective, permitted and inheritable by capset. */
int sbx_drop_caps(int last_cap, int bounding)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	if (bounding)
		for (int c = 0; c <= last_cap; c++)
			if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 &&
			    errno != EINVAL)
				return -1;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	memset(d, 0, sizeof d);
	return (int)syscall(SYS_capset, &h, d);
}

int sbx_apply_landlock(const struct sbx_landlock *ll)
{
	struct sbx_landlock_ruleset_attr ra = {ll->handled_fs, ll->handled_net,
					       ll->scoped};
	size_t rsize = ll->abi >= 6   ? sizeof ra
		       : ll->abi >= 4 ? 2 * sizeof(uint64_t)
				      : sizeof(uint64_t);
	int fd = sbx_landlock_create_ruleset(&ra, rsize, 0), e;

	if (fd < 0)
		return -1;
	for (size_t i = 0; i < ll->nrules; i++) {
		struct landlock_path_beneath_attr pb;
		int pfd = open(ll->rules[i].path, O_PATH | O_CLOEXEC);
		if (pfd < 0) {
			if (ll->rules[i].optional && errno == ENOENT)
				continue;
			goto fail;
		}
		pb.allowed_access = ll->rules[i].access;
		pb.parent_fd = pfd;
		if (!sbx_is_dir(pfd))
			pb.allowed_access &= LANDLOCK_ACCESS_FS_EXECUTE |
					     LANDLOCK_ACCESS_FS_WRITE_FILE |
					     LANDLOCK_ACCESS_FS_READ_FILE |
					     LANDLOCK_ACCESS_FS_TRUNCATE |
					     LANDLOCK_ACCESS_FS_IOCTL_DEV;
		e = sbx_landlock_add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &pb,
					  0);
		close(pfd);
		if (e < 0)
			goto fail;
	}
	for (size_t i = 0; i < ll->nports; i++) {
		struct sbx_landlock_net_port_attr np = {ll->ports[i].access,
							ll->ports[i].port};
		if (sbx_landlock_add_rule(fd, LANDLOCK_RULE_NET_PORT, &np, 0) <
		    0)
			goto fail;
	}
	if (sbx_landlock_restrict_self(fd, 0) < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	return sbx_drop(fd, -1);
}
