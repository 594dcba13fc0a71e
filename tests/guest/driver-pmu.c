// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver-pmu - the "cpu" PMU is rvperf's driver (linux-driver/), not the
 * stock SBI PMU driver: only ours has the rvperf/ directory in sysfs.  Also
 * checks what it says about itself against what the guest has (Debian's
 * OpenSBI 1.1: SBI v1.0, Sscofpmf sampling, no CTR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_util.h"
#include "tap.h"

int main(void)
{
	char buf[128];
	unsigned int hw = 0, fw = 0;
	int sbi_major;

	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/type", buf, sizeof(buf)) == 0 &&
	       atoi(buf) == 4,
	       "the cpu PMU takes PERF_TYPE_RAW (type %s)", buf);
	if (!tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/sbi_version", buf,
			      sizeof(buf)) == 0,
		    "the cpu PMU is rvperf's driver (it has rvperf/)"))
		return tap_done();
	tap_ok(strcmp(buf, "1.0") == 0 || strcmp(buf, "2.0") == 0 ||
	       strcmp(buf, "3.0") == 0 || strchr(buf, '.') != NULL,
	       "it reports the SBI version (%s)", buf);
	sbi_major = atoi(buf);
	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/counters", buf, sizeof(buf)) == 0 &&
	       sscanf(buf, "%u hw %u fw", &hw, &fw) == 2 && hw > 0 && fw > 0,
	       "it found hardware and firmware counters (%s)", buf);
	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/sampling", buf, sizeof(buf)) == 0 &&
	       strcmp(buf, "1") == 0,
	       "sampling is on: the guest has Sscofpmf (%s)", buf);
	if (perf_hart_has_ctr())
		tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/branch_stack", buf,
				 sizeof(buf)) == 0 && strcmp(buf, "1") == 0,
		       "branch stacks: the hart has CTR (%s)", buf);
	else
		tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/branch_stack", buf,
				 sizeof(buf)) == 0 && strcmp(buf, "0") == 0,
		       "no branch stacks: the hart has no CTR (%s)", buf);
	if (sbi_major >= 3)
		tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/format/event", buf, sizeof(buf)) == 0 &&
		       strcmp(buf, "config:0-55") == 0,
		       "raw events are config:0-55 from SBI v3.0 on (%s)", buf);
	else
		tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/format/event", buf, sizeof(buf)) == 0 &&
		       strcmp(buf, "config:0-47") == 0,
		       "raw events are config:0-47 below SBI v3.0 (%s)", buf);
	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/format/firmware", buf, sizeof(buf)) == 0 &&
	       strcmp(buf, "config:62-63") == 0,
	       "firmware events are selected by config:62-63 (%s)", buf);
	return tap_done();
}
