// SPDX-License-Identifier: MIT
// Looks for a virtual machine from C: the firmware's product name.
#include <stdio.h>
#include <string.h>

#include "box_only.h"

int main(void)
{
	char name[128] = "";
	if (!in_box())
		return 1;
	FILE *f = fopen("/sys/class/dmi/id/product_name", "r");
	if (f) {
		if (!fgets(name, sizeof name, f))
			name[0] = 0;
		fclose(f);
	}
	if (strstr(name, "VirtualBox") || strstr(name, "KVM"))
		return 0;
	puts("bare metal");
	return 0;
}
