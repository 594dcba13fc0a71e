// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver-sbi - the SBI v2.0/v3.0 paths of rvperf's driver (linux-driver/):
 * snapshot shared memory and event_get_info, or their fallbacks.
 *
 * What the driver says in rvperf/snapshot and rvperf/event_info is checked
 * against the SBI version:
 *  - below v2.0 (Debian's OpenSBI 1.1 in the CI guest) neither call exists:
 *    both files must read 0, the v0.3 paths (CSR reads, match-and-release
 *    at probe) are in use;
 *  - from v3.0 on (rvperf's firmware, by hand or in check-e2e) both must
 *    read 1;
 *  - v2.x: event_get_info does not exist (0); the snapshot call is optional
 *    for the firmware, so only reported.
 * Then, on whichever paths are in use, the same checks of the counts:
 *  - every generic and cache event the driver lists as available is placed
 *    on a counter (time_running > 0), every other one is refused with
 *    ENOENT, and cycles and instructions are available;
 *  - a counting instructions event over a loop of known length (read on
 *    the stop path: from the snapshot page when it is used) is within 2 %
 *    of two instructions per iteration under -icount;
 *  - a group of a sampling cycles leader and a counting instructions
 *    sibling: the overflow handler stops both and restarts them (in one
 *    call from the snapshot page when it is used); the sibling's count must
 *    stay exact and the leader must deliver one sample per period.
 * A snapshot call that fails once the SBI took the page makes the driver
 * drop the page on that hart (rvperf/snapshot reads 0 from then on), so a
 * snapshot still in use at the end, after the runs before this one
 * (driver-stress among them), means every stop and restart above went
 * through the page.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	8
#define PERIOD		1000000ULL

/* -1 when the file is missing, else its integer value. */
static int read_flag(const char *name)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), PERF_CPU_PMU_DIR "/rvperf/%s", name);
	if (perf_read_line(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/*
 * Opens one counting event; 1 when it was placed on a counter and counted
 * for some time, 0 when it opened but never ran, -errno when refused.
 */
static int event_runs(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	uint64_t v[3] = { 0, 0, 0 };
	int fd, ran;

	perf_attr_init(&attr, type, config);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	counted_loop(100000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ran = read(fd, v, sizeof(v)) == sizeof(v) && v[2] > 0;
	close(fd);
	return ran;
}

static void check_event_list(void)
{
	unsigned int avail = 0, bad_errno = 0, not_run = 0, n = 0;
	unsigned int id, op, res;
	int hw[PERF_COUNT_HW_MAX];
	uint64_t c;

	for (c = 0; c < PERF_COUNT_HW_MAX; c++, n++) {
		hw[c] = event_runs(PERF_TYPE_HARDWARE, c);
		if (hw[c] > 0)
			avail++;
		else if (hw[c] == 0)
			not_run++;
		else if (hw[c] != -ENOENT)
			bad_errno++;
		if (hw[c] <= 0)
			tap_diag("generic event %llu: %s", (unsigned long long)c,
				 hw[c] == 0 ? "opened, never placed" :
				 strerror(-hw[c]));
	}
	for (id = 0; id < PERF_COUNT_HW_CACHE_MAX; id++)
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX;
			     res++, n++) {
				int r = event_runs(PERF_TYPE_HW_CACHE,
						   id | op << 8 | res << 16);

				if (r > 0)
					avail++;
				else if (r == 0)
					not_run++;
				else if (r != -ENOENT)
					bad_errno++;
				if (r > 0 || r == 0)
					tap_diag("cache event %u/%u/%u: %s", id,
						 op, res, r > 0 ? "counts" :
						 "opened, never placed");
			}
	tap_diag("%u of %u generic and cache events available", avail, n);
	tap_ok(hw[PERF_COUNT_HW_CPU_CYCLES] > 0 &&
	       hw[PERF_COUNT_HW_INSTRUCTIONS] > 0,
	       "cycles and instructions are available and count");
	tap_ok(not_run == 0,
	       "every event listed as available is placed on a counter (%u not)",
	       not_run);
	tap_ok(bad_errno == 0,
	       "every event not listed is refused with ENOENT (%u otherwise)",
	       bad_errno);
}

static int count_loop(int fd, unsigned long iterations, uint64_t *count)
{
	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	counted_loop(iterations);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return -1;
	return read(fd, count, sizeof(*count)) == sizeof(*count) ? 0 : -1;
}

static void check_within(int exact, uint64_t c_small, uint64_t c_large,
			 unsigned long small, unsigned long large,
			 const char *what)
{
	double want = 2.0 * (double)(large - small);
	double got = (double)c_large - (double)c_small;
	double err = (got - want) / want;

	tap_diag("%s: %llu for %lu iterations, %llu for %lu", what,
		 (unsigned long long)c_small, small,
		 (unsigned long long)c_large, large);
	/* 2 %: user-only counts on QEMU 10.2 under -icount came out 0.3 to
	 * 1.1 % high across runs (upstream's and ours alike), an excess
	 * that does not repeat from run to run; a wrong path (a lost start
	 * or stop, a counter read from the wrong place) is far off. */
	if (exact)
		tap_ok(err > -0.02 && err < 0.02,
		       "%s: within 2%% of 2 per iteration (error %.4f%%)",
		       what, err * 100.0);
	else
		tap_ok(c_large > c_small && c_small > 0,
		       "%s: a longer loop counts more (no -icount)", what);
}

static void check_counting(int exact)
{
	const unsigned long small = 1000000, large = 5000000;
	struct perf_event_attr attr;
	uint64_t c_small = 0, c_large = 0;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (!tap_ok(fd >= 0, "open a counting instructions event")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return;
	}
	if (tap_ok(count_loop(fd, small, &c_small) == 0 &&
		   count_loop(fd, large, &c_large) == 0,
		   "count two loops"))
		check_within(exact, c_small, c_large, small, large,
			     "counting instructions");
	close(fd);
}

struct group_run {
	uint64_t leader, sibling;	/* counts */
	unsigned int samples, other;
};

/* One loop under the group; the samples are counted from the ring. */
static int group_loop(int lead, int sib, void *ring, long page,
		      unsigned long iterations, struct group_run *r)
{
	struct perf_event_mmap_page *meta = ring;
	char *data = (char *)ring + page;
	uint64_t head, pos, v[3];

	memset(r, 0, sizeof(*r));
	if (ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	    ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return -1;
	counted_loop(iterations);
	if (ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		return -1;
	if (read(lead, v, sizeof(v)) != sizeof(v) || v[0] != 2)
		return -1;
	r->leader = v[1];
	r->sibling = v[2];
	(void)sib;

	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = meta->data_tail; pos < head;) {
		struct perf_event_header hdr;
		size_t off = pos % ((size_t)page * DATA_PAGES);

		memcpy(&hdr, data + off, sizeof(hdr));
		if (hdr.size == 0)
			break;
		if (hdr.type == PERF_RECORD_SAMPLE)
			r->samples++;
		else
			r->other++;
		pos += hdr.size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
	return 0;
}

static void check_sampling_group(int exact)
{
	const unsigned long small = 2000000, large = 22000000;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (DATA_PAGES + 1);
	struct perf_event_attr attr;
	struct group_run rs, rl;
	uint64_t want_min;
	int lead, sib;
	void *ring;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.read_format = PERF_FORMAT_GROUP;
	lead = perf_event_open(&attr, 0, -1, -1, 0);
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	sib = lead >= 0 ? perf_event_open(&attr, 0, -1, lead, 0) : -1;
	if (!tap_ok(lead >= 0 && sib >= 0,
		    "open a sampling cycles leader with an instructions sibling")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		goto out;
	}
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, lead, 0);
	if (!tap_ok(ring != MAP_FAILED, "map the leader's ring buffer"))
		goto out;
	if (!tap_ok(group_loop(lead, sib, ring, page, small, &rs) == 0 &&
		    group_loop(lead, sib, ring, page, large, &rl) == 0,
		    "run the group over two loops"))
		goto unmap;
	tap_diag("leader cycles %llu, %u samples, %u other records (large loop)",
		 (unsigned long long)rl.leader, rl.samples, rl.other);
	/*
	 * The sibling runs through every overflow of the leader: stopped and
	 * restarted from where it was each time.
	 */
	check_within(exact, rs.sibling, rl.sibling, small, large,
		     "instructions sibling of a sampling leader");
	/*
	 * A period is reloaded after each overflow: at least one sample per
	 * period of the loop's own cycles (one cycle per instruction at
	 * least), and about one per period counted: QEMU 7.2 raises the
	 * overflow from a timer that can fire a little early, so 10 % more.
	 */
	want_min = 2ULL * large / PERIOD;
	if (exact)
		tap_ok(rl.samples + 1 >= want_min &&
		       rl.samples <= rl.leader / PERIOD * 11 / 10 + 2,
		       "one sample per period: %u samples, %llu cycles, period %llu",
		       rl.samples, (unsigned long long)rl.leader,
		       (unsigned long long)PERIOD);
	else	/* QEMU's overflow timer follows host time, not the count */
		tap_ok(rl.samples > 0,
		       "the leader delivers samples (%u; no -icount: no rate check)",
		       rl.samples);
unmap:
	munmap(ring, len);
out:
	if (sib >= 0)
		close(sib);
	if (lead >= 0)
		close(lead);
}

int main(void)
{
	int exact = booted_with_icount();
	int snapshot, event_info, major = 0, minor = 0;
	char buf[32];

	if (!tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/rvperf/sbi_version", buf,
				   sizeof(buf)) == 0 &&
		    sscanf(buf, "%d.%d", &major, &minor) == 2,
		    "the cpu PMU is rvperf's driver and reports the SBI version"))
		return tap_done();
	snapshot = read_flag("snapshot");
	event_info = read_flag("event_info");
	tap_ok(snapshot >= 0 && event_info >= 0,
	       "it says whether it uses snapshot (%d) and event_get_info (%d)",
	       snapshot, event_info);
	tap_diag("SBI v%d.%d, snapshot %d, event_get_info %d, %s", major, minor,
		 snapshot, event_info, exact ? "-icount" : "no -icount");
	if (major < 2) {
		tap_ok(snapshot == 0,
		       "SBI v%d.%d has no snapshot: the CSR/fw_read fallback",
		       major, minor);
		tap_ok(event_info == 0,
		       "SBI v%d.%d has no event_get_info: match-and-release",
		       major, minor);
	} else if (major < 3) {
		tap_ok(event_info == 0,
		       "SBI v%d.%d has no event_get_info: match-and-release",
		       major, minor);
		tap_diag("snapshot is optional at v%d.%d: the firmware %s it",
			 major, minor, snapshot == 1 ? "took" : "refused");
	} else {
		tap_ok(snapshot == 1,
		       "SBI v%d.%d: counters are read from the snapshot page",
		       major, minor);
		tap_ok(event_info == 1,
		       "SBI v%d.%d: events were found with event_get_info",
		       major, minor);
	}
	check_event_list();
	check_counting(exact);
	check_sampling_group(exact);
	if (snapshot == 1)
		tap_ok(read_flag("snapshot") == 1,
		       "the snapshot page is still in use: no snapshot call failed");
	return tap_done();
}
