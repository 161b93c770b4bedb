-- SPDX-License-Identifier: MIT
-- profiles/default.lua: the standard box's seccomp profile, a deny-list.
--
-- Data, not code: lua/sbx/profile.lua loads it in an empty environment and
-- sbx.core.filter compiles it (the spec is in docs/seccomp.md).  Everything
-- not named here is allowed; what is named fails with the errno given.
-- docs/seccomp.md lists the same calls and errnos, and tests/filter_spec.lua
-- fails when the two disagree.
--
-- The filter also kills the process on any call of another ABI (the 32-bit
-- int 0x80 ABI, x32 numbers); that is not a rule here but part of every
-- filter sbx.core.filter builds.

local EPERM = { errno = "EPERM" }
local ENOSYS = { errno = "ENOSYS" }
local EAFNOSUPPORT = { errno = "EAFNOSUPPORT" }

-- clone's and unshare's namespace flags (include/uapi/linux/sched.h)
local CLONE_NEWNS = 0x00020000
local CLONE_NEWCGROUP = 0x02000000
local CLONE_NEWUTS = 0x04000000
local CLONE_NEWIPC = 0x08000000
local CLONE_NEWUSER = 0x10000000
local CLONE_NEWPID = 0x20000000
local CLONE_NEWNET = 0x40000000
local CLONE_NEWTIME = 0x00000080 -- unshare only: in clone it is CSIGNAL

-- ioctl requests that push input into a terminal (CVE-2017-5226 and kin)
local TIOCSTI = 0x5412
local TIOCLINUX = 0x541C

local LOW32 = 0xffffffff -- the kernel reads an unsigned int argument

-- fcntl's lease command (include/uapi/linux/fcntl.h: F_LINUX_SPECIFIC_BASE)
local F_SETLEASE = 1024

-- set-id mode bits (include/uapi/linux/stat.h) and the open flags under
-- which open reads its mode (include/uapi/asm-generic/fcntl.h, x86-64)
local S_ISUID = 0x800 -- 04000
local S_ISGID = 0x400 -- 02000
local O_CREAT = 0x40 -- 0100
local O_TMPFILE = 0x400000 -- __O_TMPFILE, 020000000

local rules = {
	-- debugging and other processes' memory
	{ call = "ptrace", action = EPERM },
	{ call = "process_vm_readv", action = EPERM },
	{ call = "process_vm_writev", action = EPERM },
	{ call = "kcmp", action = EPERM },
	{ call = "pidfd_getfd", action = EPERM },
	-- no resource limit of another process: the command shares the
	-- box init's ids, and init's limits are the supervisor's.  pid 0
	-- (the caller) is what glibc's getrlimit/setrlimit pass; any
	-- other value, even the caller's own pid, is refused.  Compared
	-- on all 64 bits: a pid the kernel would read as 0 but with high
	-- bits set is refused too.
	{ call = "prlimit64", action = EPERM, args = { { 0, "!=", 0 } } },

	-- the file-system namespace is final once the box is set up
	{ call = "mount", action = EPERM },
	{ call = "umount2", action = EPERM },
	{ call = "pivot_root", action = EPERM },
	{ call = "chroot", action = EPERM },
	{ call = "move_mount", action = EPERM },
	{ call = "open_tree", action = EPERM },
	{ call = "fsopen", action = EPERM },
	{ call = "fsconfig", action = EPERM },
	{ call = "fsmount", action = EPERM },
	{ call = "fspick", action = EPERM },
	{ call = "mount_setattr", action = EPERM },

	-- other namespaces
	{ call = "setns", action = EPERM },

	-- the machine's administration
	{ call = "kexec_load", action = EPERM },
	{ call = "kexec_file_load", action = EPERM },
	{ call = "reboot", action = EPERM },
	{ call = "init_module", action = EPERM },
	{ call = "finit_module", action = EPERM },
	{ call = "delete_module", action = EPERM },
	{ call = "swapon", action = EPERM },
	{ call = "swapoff", action = EPERM },
	{ call = "acct", action = EPERM },
	{ call = "quotactl", action = EPERM },
	{ call = "settimeofday", action = EPERM },
	{ call = "clock_settime", action = EPERM },
	{ call = "clock_adjtime", action = EPERM },
	{ call = "adjtimex", action = EPERM },
	{ call = "sethostname", action = EPERM },
	{ call = "setdomainname", action = EPERM },
	{ call = "syslog", action = EPERM },
	{ call = "lookup_dcookie", action = EPERM },

	-- kernel keyrings are not namespaced
	{ call = "keyctl", action = EPERM },
	{ call = "add_key", action = EPERM },
	{ call = "request_key", action = EPERM },

	-- large interfaces with a history of kernel bugs
	{ call = "bpf", action = EPERM },
	{ call = "perf_event_open", action = EPERM },
	{ call = "userfaultfd", action = EPERM },
	{ call = "io_uring_setup", action = EPERM },
	{ call = "io_uring_enter", action = EPERM },
	{ call = "io_uring_register", action = EPERM },
	{ call = "open_by_handle_at", action = EPERM },
	{ call = "name_to_handle_at", action = EPERM },
	{ call = "fanotify_init", action = EPERM },

	-- host-wide quotas: every io_setup takes from fs.aio-max-nr,
	-- shared by all users of the host; ENOSYS makes libaio users
	-- fall back to plain reads and writes
	{ call = "io_setup", action = ENOSYS },

	-- memfd_secret's pages are hidden from the kernel's own accounting
	-- and from the supervisor: ENOSYS (as on a kernel before 5.14).
	-- memfd_create is not refused: it is watched (below).
	{ call = "memfd_secret", action = ENOSYS, optional = true },

	-- x86-64 only
	{ call = "iopl", action = EPERM },
	{ call = "ioperm", action = EPERM },
	{ call = "modify_ldt", action = EPERM },
	{ call = "uselib", action = EPERM },
	{ call = "sysfs", action = EPERM },
	-- Gone from the kernel (_sysctl since Linux 5.5, nfsservctl since
	-- 3.1), so skipping them where libseccomp cannot name them opens
	-- nothing: such a kernel answers ENOSYS itself.
	{ call = "_sysctl", action = EPERM, optional = true },
	{ call = "nfsservctl", action = EPERM, optional = true },

	-- clone3 keeps its flags in memory seccomp cannot read: ENOSYS
	-- makes libc fall back to clone, whose flags are checked below
	{ call = "clone3", action = ENOSYS },
	-- openat2 keeps its flags and mode in memory too: ENOSYS (as on a
	-- kernel before 5.6) makes a program fall back to openat, whose
	-- mode is checked below
	{ call = "openat2", action = ENOSYS },

	-- no new namespaces: one rule per flag, (flags & FLAG) == FLAG
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWNS, CLONE_NEWNS } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWCGROUP, CLONE_NEWCGROUP } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWUTS, CLONE_NEWUTS } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWIPC, CLONE_NEWIPC } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWUSER, CLONE_NEWUSER } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWPID, CLONE_NEWPID } } },
	{ call = "clone", action = EPERM, args = { { 0, "&==", CLONE_NEWNET, CLONE_NEWNET } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWNS, CLONE_NEWNS } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWCGROUP, CLONE_NEWCGROUP } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWUTS, CLONE_NEWUTS } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWIPC, CLONE_NEWIPC } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWUSER, CLONE_NEWUSER } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWPID, CLONE_NEWPID } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWNET, CLONE_NEWNET } } },
	{ call = "unshare", action = EPERM, args = { { 0, "&==", CLONE_NEWTIME, CLONE_NEWTIME } } },

	-- socket: only AF_UNIX (1), AF_INET (2), AF_INET6 (10) and
	-- AF_NETLINK (16).  Compared on all 64 bits, so a family with any
	-- high bit set is refused by the "> 16" rule.
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 0 } } }, -- AF_UNSPEC
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 3 } } }, -- AF_AX25
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 4 } } }, -- AF_IPX
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 5 } } }, -- AF_APPLETALK
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 6 } } }, -- AF_NETROM
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 7 } } }, -- AF_BRIDGE
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 8 } } }, -- AF_ATMPVC
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 9 } } }, -- AF_X25
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 11 } } }, -- AF_ROSE
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 12 } } }, -- AF_DECnet
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 13 } } }, -- AF_NETBEUI
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 14 } } }, -- AF_SECURITY
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, "==", 15 } } }, -- AF_KEY
	{ call = "socket", action = EAFNOSUPPORT, args = { { 0, ">", 16 } } }, -- AF_PACKET and up

	-- no typing into the caller's terminal; the kernel reads the
	-- request as 32 bits, so high bits must not hide it (CVE-2019-10063)
	{ call = "ioctl", action = EPERM, args = { { 1, "&==", TIOCSTI, LOW32 } } },
	{ call = "ioctl", action = EPERM, args = { { 1, "&==", TIOCLINUX, LOW32 } } },

	-- No set-id file: a box's --rw directory outlives it, and a
	-- set-user-ID or set-group-ID file left there runs as the box's
	-- host id for any local user.  Each call that sets a mode is
	-- refused when the mode holds S_ISUID or S_ISGID; open, openat
	-- and creat only when they create (O_CREAT, O_TMPFILE), since the
	-- mode is ignored otherwise.  The kernel reads a mode as 16 bits
	-- and flags as 32: single-bit masks see exactly what it sees.
	-- mkdir and mkdirat are not listed: the kernel drops both bits from
	-- their mode.  What escapes (openat2, whose mode is in memory) the
	-- supervisor's scan of --rw directories clears after the run.
	{ call = "chmod", action = EPERM, args = { { 1, "&==", S_ISUID, S_ISUID } } },
	{ call = "chmod", action = EPERM, args = { { 1, "&==", S_ISGID, S_ISGID } } },
	{ call = "fchmod", action = EPERM, args = { { 1, "&==", S_ISUID, S_ISUID } } },
	{ call = "fchmod", action = EPERM, args = { { 1, "&==", S_ISGID, S_ISGID } } },
	{ call = "fchmodat", action = EPERM, args = { { 2, "&==", S_ISUID, S_ISUID } } },
	{ call = "fchmodat", action = EPERM, args = { { 2, "&==", S_ISGID, S_ISGID } } },
	{ call = "fchmodat2", action = EPERM, args = { { 2, "&==", S_ISUID, S_ISUID } } },
	{ call = "fchmodat2", action = EPERM, args = { { 2, "&==", S_ISGID, S_ISGID } } },
	{ call = "open", action = EPERM, args = { { 1, "&==", O_CREAT, O_CREAT }, { 2, "&==", S_ISUID, S_ISUID } } },
	{ call = "open", action = EPERM, args = { { 1, "&==", O_CREAT, O_CREAT }, { 2, "&==", S_ISGID, S_ISGID } } },
	{ call = "open", action = EPERM, args = { { 1, "&==", O_TMPFILE, O_TMPFILE }, { 2, "&==", S_ISUID, S_ISUID } } },
	{ call = "open", action = EPERM, args = { { 1, "&==", O_TMPFILE, O_TMPFILE }, { 2, "&==", S_ISGID, S_ISGID } } },
	{ call = "openat", action = EPERM, args = { { 2, "&==", O_CREAT, O_CREAT }, { 3, "&==", S_ISUID, S_ISUID } } },
	{ call = "openat", action = EPERM, args = { { 2, "&==", O_CREAT, O_CREAT }, { 3, "&==", S_ISGID, S_ISGID } } },
	{ call = "openat", action = EPERM, args = { { 2, "&==", O_TMPFILE, O_TMPFILE }, { 3, "&==", S_ISUID, S_ISUID } } },
	{ call = "openat", action = EPERM, args = { { 2, "&==", O_TMPFILE, O_TMPFILE }, { 3, "&==", S_ISGID, S_ISGID } } },
	{ call = "creat", action = EPERM, args = { { 1, "&==", S_ISUID, S_ISUID } } },
	{ call = "creat", action = EPERM, args = { { 1, "&==", S_ISGID, S_ISGID } } },
	{ call = "mknod", action = EPERM, args = { { 1, "&==", S_ISUID, S_ISUID } } },
	{ call = "mknod", action = EPERM, args = { { 1, "&==", S_ISGID, S_ISGID } } },
	{ call = "mknodat", action = EPERM, args = { { 2, "&==", S_ISUID, S_ISUID } } },
	{ call = "mknodat", action = EPERM, args = { { 2, "&==", S_ISGID, S_ISGID } } },

	-- no lease: a lease on a file the box can read (an --ro bind it
	-- owns) stalls every host process that opens it for writing until
	-- the box ends.  The command is an unsigned int: low 32 bits.
	{ call = "fcntl", action = EPERM, args = { { 1, "&==", F_SETLEASE, LOW32 } } },

	-- no seccomp listener of the box's own: it could answer for the
	-- supervisor.  operation == SECCOMP_SET_MODE_FILTER (1) and flags
	-- with SECCOMP_FILTER_FLAG_NEW_LISTENER (8); both are 32 bits.
	{ call = "seccomp", action = EPERM, args = { { 0, "&==", 1, LOW32 }, { 1, "&==", 8, 8 } } },
}

-- Ids outside the box.  The box holds one uid and one gid, BOX_ID (the
-- standard box's user, sbx.stdbox.user), and its user namespace maps no other:
-- the kernel answers EINVAL for any other id (not mapped) where every
-- normal system answers EPERM (not permitted), and programs and test
-- suites check for EPERM.  So each id argument of the calls below that is
-- neither BOX_ID nor -1 (0xffffffff: "unchanged" for setreuid, setresuid,
-- chown and kin; setuid(-1) keeps the kernel's own EINVAL) is refused with
-- EPERM, what a process without CAP_SETUID, CAP_SETGID or CAP_CHOWN gets.
-- BOX_ID and -1 reach the kernel as before.  The comparisons see the low
-- 32 bits, as the kernel reads a uid_t.  setfsuid and setfsgid are not
-- listed: they never fail, and return the old id for an id not mapped as
-- for one not permitted.  setgroups is not listed: without CAP_SETGID the
-- kernel answers EPERM before it reads a group.  Only the native ABI is
-- named (x86-64 has no setuid32 and the like); every call of another ABI
-- is killed by the filter.
--
-- One comparison per argument and rule (libseccomp's limit), so "x is
-- neither BOX_ID nor 0xffffffff" is a union of masked comparisons, each a
-- rule of its own: x lacks one of BOX_ID's one bits (one rule per such
-- bit), or, among BOX_ID's zero bits z_1..z_n taken in a circle, x has
-- z_i set and z_(i+1) clear (one rule per i).  An x that has every one
-- bit of BOX_ID and is not BOX_ID has some zero bit set; not being
-- 0xffffffff, some zero bit clear: going round the circle, a set bit is
-- followed by a clear one somewhere.  BOX_ID and 0xffffffff match no rule.
local BOX_ID = 1000

local function foreign(index)
	local out, zeros = {}, {}
	for b = 0, 31 do
		local bit = 1 << b
		if BOX_ID & bit ~= 0 then
			out[#out + 1] = { { index, "&==", 0, bit } }
		else
			zeros[#zeros + 1] = bit
		end
	end
	for i = 1, #zeros do
		local set, clear = zeros[i], zeros[i % #zeros + 1]
		out[#out + 1] = { { index, "&==", set, set | clear } }
	end
	return out
end

-- each call and the indexes of its id arguments
local id_calls = {
	{ "setuid", 0 }, { "setgid", 0 },
	{ "setreuid", 0, 1 }, { "setregid", 0, 1 },
	{ "setresuid", 0, 1, 2 }, { "setresgid", 0, 1, 2 },
	{ "chown", 1, 2 }, { "fchown", 1, 2 }, { "lchown", 1, 2 },
	{ "fchownat", 2, 3 },
}
-- (the argument lists of an index made once: each rule only reads them)
local foreign_at = {}
for c = 1, #id_calls do
	local call = id_calls[c]
	for a = 2, #call do
		local index = call[a]
		foreign_at[index] = foreign_at[index] or foreign(index)
		local cmps = foreign_at[index]
		for k = 1, #cmps do
			rules[#rules + 1] = { call = call[1], action = EPERM, args = cmps[k] }
		end
	end
end

-- Watched: sent to the supervisor and let through in every mode
-- (sbx.profile.compile makes each a notify rule; docs/seccomp.md).
-- memfd_create: the supervisor makes the memfd itself and holds it, so
-- that the memory limit counts its pages (a memfd's pages are in no mount
-- of the box and in no process until mapped: docs/limits.md), with the
-- caller's flags (MFD_CLOEXEC, MFD_ALLOW_SEALING, MFD_NOEXEC_SEAL,
-- MFD_EXEC, MFD_HUGETLB: huge pages are refused nowhere else either).
-- execveat: an exec of a descriptor (a fileless program's exec of its
-- memfd) is recorded, with its payload's hash.  A backend without a
-- supervisor (OCI) reads `rules` only: these run there as the kernel
-- answers them.
local watched = { "memfd_create", "execveat" }

return {
	default = "allow",
	rules = rules,
	watched = watched,
}
