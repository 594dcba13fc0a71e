// SPDX-License-Identifier: BSD-2-Clause
/* tests/qemu/pmu-map-print.c - prints the riscv,pmu map of
 * qemu-model/core/hpmhw_map.h as pmu.sh reads it from the devicetree:
 *	pmu-map-print COUNTERS
 * COUNTERS: the hart's counter bitmap (hex), which limits the counter
 * bitmaps ending each tuple of STRIDE cells. */
#include <stdio.h>
#include <stdlib.h>

#include "qemu-model/core/hpmhw_map.h"

static void show(const char *name, const unsigned int *c, unsigned int n,
		 unsigned int stride, unsigned int counters)
{
	printf("%s", name);
	for (unsigned int i = 0; i < n; i++)
		printf(" 0x%x", stride && i % stride == stride - 1 ?
					c[i] & counters : c[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const unsigned int a[] = HPMHW_MAP_EVENT_TO_MHPMEVENT;
	static const unsigned int b[] = HPMHW_MAP_EVENT_TO_MHPMCOUNTERS;
	static const unsigned int c[] = HPMHW_MAP_RAW_EVENT_TO_MHPMCOUNTERS;

	unsigned int counters;

	if (argc != 2) {
		fprintf(stderr, "usage: pmu-map-print COUNTERS\n");
		return 2;
	}
	counters = (unsigned int)strtoul(argv[1], NULL, 16);
	show("riscv,event-to-mhpmevent", a, sizeof(a) / sizeof(a[0]), 0, 0);
	show("riscv,event-to-mhpmcounters", b, sizeof(b) / sizeof(b[0]), 3,
	     counters);
	show("riscv,raw-event-to-mhpmcounters", c, sizeof(c) / sizeof(c[0]),
	     5, counters);
	return 0;
}
