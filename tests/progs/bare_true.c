/* SPDX-License-Identifier: MIT */
/*
 * bare_true: exits 0 with a single system call (exit_group) and no libc.
 * A filter that refuses openat, read, close or mmap stops the dynamic
 * loader of /bin/true before main; this program needs none of them, so a
 * run under such a filter shows whether sbxlua's own set-up still needs
 * them after the filter is loaded.  Built static, without the C library.
 */
#define NR_EXIT_GROUP 231 /* arch/x86/entry/syscalls/syscall_64.tbl */

void _start(void);

void _start(void)
{
	for (;;)
		__asm__ volatile("syscall"
				 :
				 : "a"(NR_EXIT_GROUP), "D"(0)
				 : "rcx", "r11", "memory");
}
