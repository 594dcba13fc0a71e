// SPDX-License-Identifier: BSD-2-Clause
/*
 * elf-syms-dump - prints the symbols elf_syms reads from an ELF file, one
 * "address size name" line each (hex), and its warning line when it has
 * one, so tests/userspace/syms-test.sh can hold them against objdump.
 *
 * Usage: elf-syms-dump [--perf] ELF   (--perf: elf_syms_load_perf's table)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "userspace/elf/elf_syms.h"

int main(int argc, char **argv)
{
	struct elf_syms es;
	int perf = argc == 3 && !strcmp(argv[1], "--perf");
	size_t i;

	if (argc != 2 + perf) {
		fprintf(stderr, "usage: elf-syms-dump [--perf] ELF\n");
		return 2;
	}
	if (perf ? elf_syms_load_perf(&es, argv[2]) :
		   elf_syms_load(&es, argv[1])) {
		fprintf(stderr, "elf-syms-dump: %s\n", es.error);
		return 1;
	}
	for (i = 0; i < es.nr_syms; i++)
		printf("%" PRIx64 " %" PRIx64 " %s\n", es.syms[i].addr,
		       es.syms[i].size, es.syms[i].name);
	elf_syms_free(&es);
	return 0;
}
