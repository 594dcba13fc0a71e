// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen-perfdata - writes a perf.data with branch stacks that exercise every
 * field host perf prints: all 16 branch types (and new_type names through
 * EXTEND_ABI), mispredicted/predicted/neither, cycle counts up to 65535,
 * empty and long stacks.  Usage: gen-perfdata OUT [ELF]
 */
#include <stdio.h>

#include "userspace/perfdata/perf_data.h"

int main(int argc, char **argv)
{
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 4096,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER |
				      PERF_SAMPLE_BRANCH_HW_INDEX,
		.exclude_kernel = 1,
		.arch = "riscv64",
		.osrelease = "6.12.0",
		.nr_cpus = 1,
	};
	struct pd_branch br[64];
	struct pd_writer w;
	unsigned int i, j;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: gen-perfdata OUT [ELF]\n");
		return 2;
	}
	if (pd_writer_open(&w, argv[1], &cfg)) {
		perror(argv[1]);
		return 1;
	}
	err = pd_write_comm(&w, 1234, 1234, "branchy", 1);
	err |= pd_write_mmap2(&w, 1234, 1234, 0x10000, 0x80000, 0,
			      argc > 2 ? argv[2] : "/bin/branchy", NULL, 0, 2);
	for (i = 0; i < 48; i++) {
		struct pd_sample s = {
			.ip = 0x10400 + 4 * i, .pid = 1234, .tid = 1234,
			.time = 100 + i, .period = 4096,
			.nr_branches = i % 40, .branches = br,
			.hw_idx = i, .has_hw_idx = 1,
		};

		for (j = 0; j < s.nr_branches; j++) {
			unsigned int type = (i + j) % 16;

			br[j].from = 0x10000 + 0x10 * j + i;
			br[j].to = 0x20000 + 0x8 * i + j;
			br[j].flags = pd_branch_flags(
				(i + j) % 3 == 1, (i + j) % 3 == 2,
				(i * 1021 + j * 4099) & 0xffff, type,
				type == 15 ? j % 3 : 0, (i + j) % 4);
		}
		err |= pd_write_sample(&w, &s);
	}
	err |= pd_writer_close(&w);
	if (err) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
