// SPDX-License-Identifier: BSD-2-Clause
/* tests/qemu/pmu-map-print.c - prints the riscv,pmu map of
 * qemu-model/core/rvp_pmu_map.h as pmu.sh reads it from the devicetree. */
#include <stdio.h>

#include "rvp_pmu_map.h"

static void show(const char *name, const unsigned int *c, unsigned int n)
{
	printf("%s", name);
	for (unsigned int i = 0; i < n; i++)
		printf(" 0x%x", c[i]);
	printf("\n");
}

int main(void)
{
	static const unsigned int a[] = RVP_PMU_MAP_EVENT_TO_MHPMEVENT;
	static const unsigned int b[] = RVP_PMU_MAP_EVENT_TO_MHPMCOUNTERS;
	static const unsigned int c[] = RVP_PMU_MAP_RAW_EVENT_TO_MHPMCOUNTERS;

	show("riscv,event-to-mhpmevent", a, sizeof(a) / sizeof(a[0]));
	show("riscv,event-to-mhpmcounters", b, sizeof(b) / sizeof(b[0]));
	show("riscv,raw-event-to-mhpmcounters", c, sizeof(c) / sizeof(c[0]));
	return 0;
}
