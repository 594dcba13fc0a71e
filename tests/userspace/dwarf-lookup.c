// SPDX-License-Identifier: BSD-2-Clause
/*
 * dwarf-lookup - prints the inline chain of each address read from stdin,
 * in the form of binutils' `addr2line -a -f -i` (file names without their
 * directories), so tests/userspace/dwarf-test.sh can compare the two.
 *
 * Usage: dwarf-lookup ELF < addresses
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/dwarf/dw_chain.h"

int main(int argc, char **argv)
{
	struct dw_info di;
	char line[128];

	if (argc != 2) {
		fprintf(stderr, "usage: dwarf-lookup ELF < addresses\n");
		return 2;
	}
	if (dw_load(&di, argv[1])) {
		fprintf(stderr, "dwarf-lookup: %s\n", di.error);
		return 1;
	}
	if (di.warning[0])
		fprintf(stderr, "dwarf-lookup: warning: %s\n", di.warning);
	while (fgets(line, sizeof(line), stdin)) {
		struct dw_frame fr[32];
		uint64_t addr = strtoull(line, NULL, 16);
		int n = dw_lookup(&di, addr, fr, 32), i;

		printf("0x%016" PRIx64 "\n", addr);
		if (!n) {
			printf("??\n??:0\n");
			continue;
		}
		for (i = 0; i < n; i++) {
			const char *file = i == 0 && fr[0].file ? fr[0].file : NULL;
			const char *base = file ? strrchr(file, '/') : NULL;

			printf("%s\n%s:%u", fr[i].name,
			       file ? (base ? base + 1 : file) : "?", fr[i].line);
			if (fr[i].discriminator)
				printf(" (discriminator %u)", fr[i].discriminator);
			printf("\n");
		}
	}
	dw_free(&di);
	return 0;
}
