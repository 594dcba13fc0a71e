// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench-perfdata - how fast the perf.data reader decodes branch-stack
 * samples, as a ratio to reading the same bytes raw (fread into a buffer),
 * both measured in this run on the same file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "userspace/perfdata/perf_data.h"

#define SAMPLES	200000
#define DEPTH	16
#define ROUNDS	3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE, .sample_period = 1000,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
		.arch = "riscv64", .nr_cpus = 1,
	};
	char path[64], *buf = malloc(1 << 20);
	double raw_best = 1e9, read_best = 1e9, t;
	struct pd_branch br[DEPTH];
	struct pd_writer w;
	uint64_t branches = 0, bytes = 0;
	int i, round;

	snprintf(path, sizeof(path), "/tmp/rvperf-bench-%d.data", getpid());
	if (!buf || pd_writer_open(&w, path, &cfg))
		return 1;
	for (i = 0; i < SAMPLES; i++) {
		struct pd_sample s = { .ip = 0x10000 + (uint64_t)i, .pid = 1,
				       .tid = 1, .time = (uint64_t)i,
				       .period = 1000, .nr_branches = DEPTH,
				       .branches = br };
		int j;

		for (j = 0; j < DEPTH; j++) {
			br[j].from = 0x10000 + (uint64_t)(i * 7 + j);
			br[j].to = 0x20000 + (uint64_t)(i * 3 + j);
			br[j].flags = pd_branch_flags(0, 1, (unsigned int)j, 1, 0, 1);
		}
		pd_write_sample(&w, &s);
	}
	if (pd_writer_close(&w))
		return 1;

	for (round = 0; round < ROUNDS; round++) {
		struct pd_reader r;
		struct pd_record rec;
		FILE *f = fopen(path, "rb");
		size_t n;

		t = now();
		bytes = 0;
		while ((n = fread(buf, 1, 1 << 20, f)) > 0)
			bytes += n;
		fclose(f);
		t = now() - t;
		raw_best = t < raw_best ? t : raw_best;

		t = now();
		branches = 0;
		if (pd_open(&r, path))
			return 1;
		while (pd_next(&r, &rec) == PD_OK)
			branches += rec.sample.nr_branches;
		pd_close(&r);
		t = now() - t;
		read_best = t < read_best ? t : read_best;
	}
	unlink(path);
	free(buf);
	printf("perf.data reader: %d samples x %d branches (%.1f MB), best of %d\n",
	       SAMPLES, DEPTH, (double)bytes / 1e6, ROUNDS);
	printf("  baseline  raw fread:      %8.1f MB/s\n",
	       (double)bytes / 1e6 / raw_best);
	printf("  reader    pd_next:        %8.1f MB/s, %.1f M branch records/s\n",
	       (double)bytes / 1e6 / read_best, (double)branches / 1e6 / read_best);
	printf("  ratio     reader / raw:   %8.2f\n", raw_best / read_best);
	return branches == (uint64_t)SAMPLES * DEPTH ? 0 : 1;
}
