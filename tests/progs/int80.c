/* SPDX-License-Identifier: MIT */
/*
 * int80: getpid through the 32-bit compat entry (int $0x80) of an x86-64
 * process.  Prints "ok" when the kernel answered with our pid, else what it
 * returned.  Under an sbxlua filter the process must die of SIGSYS: system
 * call numbers mean other calls in that ABI (20 is getpid there, lseek
 * here), so the filter kills anything that is not the native ABI.
 */
#include <stdio.h>
#include <unistd.h>

#define NR32_GETPID 20 /* arch/x86/entry/syscalls/syscall_32.tbl */

int main(void)
{
	long ret = NR32_GETPID;

	/* int $0x80 takes eax (and ebx..ebp); r8-r11 are clobbered by older
	 * kernels */
	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 :
			 : "r8", "r9", "r10", "r11", "memory");
	if (ret == (long)getpid())
		printf("ok\n");
	else
		printf("int80 getpid returned %ld\n", ret);
	return 0;
}
