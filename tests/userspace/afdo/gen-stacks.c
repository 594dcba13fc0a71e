// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen-stacks - a perf.data whose branch stacks are given as text, so the
 * AutoFDO test can state exactly which code ran.
 *
 * Usage: gen-stacks OUT FILENAME [BUILD_ID] < spec
 * Each spec line is one sample: "COUNT FROM>TO FROM>TO ..." (hex
 * addresses, newest record first), written COUNT times.  One MMAP2 of
 * FILENAME at its link-time addresses precedes the samples; with
 * BUILD_ID (hex), the MMAP2 carries it, as perf record writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/perfdata/perf_data.h"

int main(int argc, char **argv)
{
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER,
		.exclude_kernel = 1,
		.arch = "riscv64",
		.osrelease = "6.12.0",
		.nr_cpus = 1,
	};
	struct pd_branch br[256];
	unsigned char id[20];
	unsigned int id_size = 0;
	struct pd_writer w;
	char line[8192];
	uint64_t t = 10;
	int err;

	if (argc != 3 && argc != 4) {
		fprintf(stderr,
			"usage: gen-stacks OUT FILENAME [BUILD_ID] < spec\n");
		return 2;
	}
	for (; argc == 4 && argv[3][2 * id_size] && id_size < sizeof(id);
	     id_size++)
		if (sscanf(argv[3] + 2 * id_size, "%2hhx", &id[id_size]) != 1)
			break;
	if (pd_writer_open(&w, argv[1], &cfg)) {
		perror(argv[1]);
		return 1;
	}
	err = pd_write_comm(&w, 42, 42, "prog", 1);
	err |= pd_write_mmap2(&w, 42, 42, 0x10000, 0x100000, 0, argv[2],
			      id_size ? id : NULL, id_size, 2);
	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *end;
		unsigned long count = strtoul(p, &end, 10), i;
		struct pd_sample s = { .pid = 42, .tid = 42, .period = 1000,
				       .branches = br };

		if (end == p)
			continue;
		p = end;
		while (s.nr_branches < 256) {
			br[s.nr_branches].from = strtoull(p, &end, 16);
			if (end == p || *end != '>')
				break;
			p = end + 1;
			br[s.nr_branches].to = strtoull(p, &end, 16);
			br[s.nr_branches].flags = 0;
			p = end;
			s.nr_branches++;
		}
		s.ip = s.nr_branches ? br[0].to : 0;
		for (i = 0; i < count; i++) {
			s.time = t++;
			err |= pd_write_sample(&w, &s);
		}
	}
	err |= pd_writer_close(&w);
	return err ? 1 : 0;
}
