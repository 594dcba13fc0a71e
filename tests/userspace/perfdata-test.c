// SPDX-License-Identifier: BSD-2-Clause
/*
 * perfdata-test - the perf.data writer and reader against each other, and
 * the reader against every way a file can be damaged: cut at every byte,
 * random bytes changed, bad magic, records shorter than their fields.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "userspace/perfdata/perf_data.h"
#include "tap.h"

#define NR_SAMPLES	40
#define MAX_BRANCHES	32

static char path[64];

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

struct expected {
	struct pd_sample s;
	struct pd_branch br[MAX_BRANCHES];
};

static struct expected want[NR_SAMPLES];
/* Times out of the file's order, as perf record leaves them when a task
 * moves between CPUs (a permutation: 7 and NR_SAMPLES are coprime). */
static int shuffle_times;

static int write_file(const char *file)
{
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 10007,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER |
				      PERF_SAMPLE_BRANCH_HW_INDEX,
		.exclude_kernel = 1,
		.arch = "riscv64",
		.osrelease = "6.12.0-rvperf",
		.nr_cpus = 2,
	};
	unsigned char build_id[20];
	struct pd_writer w;
	int i, err = 0;
	uint64_t j;

	for (i = 0; i < 20; i++)
		build_id[i] = (unsigned char)(0xa0 + i);
	if (pd_writer_open(&w, file, &cfg))
		return -1;
	err |= pd_write_comm(&w, 100, 100, "branchy", 1);
	err |= pd_write_mmap2(&w, 100, 100, 0x10000, 0x70000, 0,
			      "/usr/bin/branchy", build_id, 20, 2);
	for (i = 0; i < NR_SAMPLES; i++) {
		struct expected *e = &want[i];

		e->s.ip = 0x10000 + (rng() & 0xffff);
		e->s.pid = 100;
		e->s.tid = 100 + (uint32_t)(i & 1);
		e->s.time = 1000 + (uint64_t)(shuffle_times ?
					      (i * 7) % NR_SAMPLES : i) * 10;
		e->s.period = 10007;
		e->s.nr_branches = (uint64_t)(i % (MAX_BRANCHES + 1));
		e->s.hw_idx = (uint64_t)i;
		e->s.has_hw_idx = 1;
		for (j = 0; j < e->s.nr_branches; j++) {
			e->br[j].from = 0x10000 + (rng() & 0xffff);
			e->br[j].to = 0x10000 + (rng() & 0xffff);
			e->br[j].flags = pd_branch_flags(rng() & 1, rng() & 1,
							 rng() & 0xffff,
							 rng() & 15, rng() & 15,
							 rng() & 7);
		}
		e->s.branches = e->br;
		err |= pd_write_sample(&w, &e->s);
	}
	err |= pd_writer_close(&w);
	return err ? -1 : 0;
}

static int same_sample(const struct pd_sample *got, const struct expected *e)
{
	uint64_t j;

	if (got->ip != e->s.ip || got->pid != e->s.pid ||
	    got->tid != e->s.tid || got->time != e->s.time ||
	    got->period != e->s.period ||
	    got->nr_branches != e->s.nr_branches ||
	    !got->has_hw_idx || got->hw_idx != e->s.hw_idx)
		return 0;
	for (j = 0; j < e->s.nr_branches; j++)
		if (got->branches[j].from != e->br[j].from ||
		    got->branches[j].to != e->br[j].to ||
		    got->branches[j].flags != e->br[j].flags)
			return 0;
	return 1;
}

/* Reads a file to the end; counts samples, checks them against want[]. */
static int read_all(const char *file, int *samples, int *matching,
		    int *status, char *error, size_t error_size)
{
	struct pd_reader r;
	struct pd_record rec;
	int err, guard = 0;

	*samples = *matching = 0;
	err = pd_open(&r, file);
	if (err) {
		snprintf(error, error_size, "%s", r.error);
		pd_close(&r);
		*status = err;
		return err;
	}
	while ((err = pd_next(&r, &rec)) != PD_END && guard++ < 100000) {
		if (err == PD_TRUNCATED || err == PD_ERR_IO)
			break;
		if (err)
			continue;
		if (rec.header.type == PERF_RECORD_SAMPLE) {
			if (*samples < NR_SAMPLES &&
			    same_sample(&rec.sample, &want[*samples]))
				(*matching)++;
			(*samples)++;
		}
	}
	snprintf(error, error_size, "%s", r.error);
	*status = err;
	pd_close(&r);
	return 0;
}

static void copy_prefix(const unsigned char *data, size_t n, const char *file)
{
	FILE *f = fopen(file, "wb");

	fwrite(data, 1, n, f);
	fclose(f);
}

static unsigned char *slurp(const char *file, size_t *n)
{
	FILE *f = fopen(file, "rb");
	unsigned char *buf;
	long size;

	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)size);
	*n = fread(buf, 1, (size_t)size, f);
	fclose(f);
	return buf;
}

/*
 * pd_order_next: every sample once, by time; a cut file's error comes
 * last, after every complete record.
 */
static void check_order(const char *cut)
{
	struct pd_reader r;
	struct pd_record rec;
	struct pd_order o;
	uint64_t last = 0;
	int samples = 0, backwards = 0, status, i;
	size_t size, n;
	unsigned char *data;

	shuffle_times = 1;
	if (!tap_ok(write_file(path) == 0, "write a perf.data with its samples out of time order"))
		return;
	tap_ok(pd_open(&r, path) == PD_OK && pd_order_open(&r, &o) == PD_OK,
	       "pd_order_open reads it");
	tap_ok(!o.sorted, "pd_order_open sees that it is out of order");
	while ((status = pd_order_next(&r, &o, &rec)) == PD_OK) {
		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		for (i = 0; i < NR_SAMPLES; i++)
			if (want[i].s.time == rec.sample.time &&
			    same_sample(&rec.sample, &want[i]))
				break;
		samples += i < NR_SAMPLES;
		backwards += rec.sample.time < last;
		last = rec.sample.time;
	}
	tap_ok(status == PD_END && samples == NR_SAMPLES && backwards == 0,
	       "pd_order_next gives every sample, field by field, by time (%d of %d, %d going back)",
	       samples, NR_SAMPLES, backwards);
	size = r.data_offset + r.data_size;
	pd_order_close(&o);
	pd_close(&r);

	/* Cut inside the last sample: the others in time order, then the
	 * error, as pd_next gives it. */
	data = slurp(path, &n);
	copy_prefix(data, size - 5, cut);
	free(data);
	samples = backwards = 0;
	last = 0;
	pd_open(&r, cut);
	pd_order_open(&r, &o);
	while ((status = pd_order_next(&r, &o, &rec)) == PD_OK) {
		samples += rec.header.type == PERF_RECORD_SAMPLE;
		if (rec.header.type == PERF_RECORD_SAMPLE) {
			backwards += rec.sample.time < last;
			last = rec.sample.time;
		}
	}
	tap_ok(samples == NR_SAMPLES - 1 && backwards == 0 &&
	       status == PD_TRUNCATED && strstr(r.error, "offset ") != NULL,
	       "cut: %d complete samples by time, then the error with its offset (%s)",
	       samples, r.error);
	tap_ok(pd_order_next(&r, &o, &rec) == PD_END, "cut: then the end");
	pd_order_close(&o);
	pd_close(&r);
	unlink(cut);
	unlink(path);
}

/*
 * A recording as rvperf record -g -F writes it: the attribute says freq and
 * CALLCHAIN, each sample's chain sits between PERIOD and the branch stack,
 * and the call stack is no -b branch stack (no feature flag).  1: as
 * written.
 */
static int callchain_round_trip(const char *file)
{
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_freq = 4000,
		.callchain = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				      PERF_SAMPLE_BRANCH_USER,
	};
	uint64_t chain[2] = { PERF_CONTEXT_USER, 0x10450 };
	struct pd_branch br[2] = { { 0x10400, 0x10440, 0 },
				   { 0x10100, 0x10300, 0 } };
	struct pd_sample s = {
		.ip = 0x10450, .pid = 7, .tid = 7, .time = 1, .period = 250000,
		.nr_callchain = 2, .callchain = chain, .nr_branches = 2,
		.branches = br,
	};
	struct pd_writer w;
	struct pd_reader r;
	struct pd_record rec;
	int ok = 0;

	if (pd_writer_open(&w, file, &cfg) || pd_write_sample(&w, &s) ||
	    pd_writer_close(&w))
		return 0;
	if (pd_open(&r, file) == PD_OK && pd_next(&r, &rec) == PD_OK)
		ok = r.attrs[0].freq && r.attrs[0].sample_freq == 4000 &&
		     (r.attrs[0].sample_type & PERF_SAMPLE_CALLCHAIN) &&
		     !pd_has_feature(&r, PD_FEAT_BRANCH_STACK) &&
		     rec.header.type == PERF_RECORD_SAMPLE &&
		     rec.sample.ip == 0x10450 && rec.sample.period == 250000 &&
		     rec.sample.nr_callchain == 2 &&
		     rec.sample.callchain[0] == PERF_CONTEXT_USER &&
		     rec.sample.callchain[1] == 0x10450 &&
		     rec.sample.nr_branches == 2 &&
		     rec.sample.branches[1].from == 0x10100 &&
		     rec.sample.branches[1].to == 0x10300 &&
		     pd_next(&r, &rec) == PD_END;
	pd_close(&r);
	unlink(file);
	return ok;
}

int main(void)
{
	char cut[80], error[256];
	int samples, matching, status, ok_all, prev, i;
	size_t size, n, data_end;
	unsigned char *data, *copy;
	struct pd_reader r;
	struct pd_record rec;
	int comm = 0, mmap2 = 0;

	snprintf(path, sizeof(path), "/tmp/rvperf-perfdata-%d.data", getpid());
	snprintf(cut, sizeof(cut), "%s.cut", path);
	if (!tap_ok(write_file(path) == 0, "write a perf.data with %d samples",
		    NR_SAMPLES))
		return tap_done();

	/* Round trip. */
	tap_ok(pd_open(&r, path) == PD_OK, "the reader opens it");
	tap_ok(r.nr_attrs == 1 && r.attrs[0].sample_period == 10007 &&
	       (r.attrs[0].sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       r.attrs[0].exclude_kernel,
	       "the attribute reads back");
	tap_eq_str(r.arch, "riscv64", "the arch feature reads back");
	tap_ok(pd_has_feature(&r, PD_FEAT_BRANCH_STACK),
	       "the branch-stack feature flag is set");
	tap_ok(r.nr_build_ids == 1 && r.build_ids[0].size == 20 &&
	       r.build_ids[0].id[0] == 0xa0 && r.build_ids[0].id[19] == 0xb3 &&
	       strcmp(r.build_ids[0].filename, "/usr/bin/branchy") == 0,
	       "the build-id feature reads back");
	while (pd_next(&r, &rec) == PD_OK) {
		if (rec.header.type == PERF_RECORD_COMM)
			comm += strcmp(rec.name, "branchy") == 0 && rec.pid == 100;
		if (rec.header.type == PERF_RECORD_MMAP2)
			mmap2 += strcmp(rec.name, "/usr/bin/branchy") == 0 &&
				 rec.map_start == 0x10000 && rec.map_len == 0x70000 &&
				 rec.build_id_size == 20 && rec.build_id[0] == 0xa0;
	}
	tap_ok(comm == 1, "the COMM record reads back");
	tap_ok(mmap2 == 1, "the MMAP2 record with its build id reads back");
	pd_close(&r);
	read_all(path, &samples, &matching, &status, error, sizeof(error));
	tap_ok(samples == NR_SAMPLES && matching == NR_SAMPLES &&
	       status == PD_END,
	       "every sample reads back field by field (%d of %d)", matching,
	       NR_SAMPLES);

	/* Cut at every byte: never a crash; the samples read are exactly the
	 * complete ones, each correct, and never more as the cut moves on. */
	data = slurp(path, &size);
	if (pd_open(&r, path) == PD_OK)
		data_end = r.data_offset + r.data_size;
	else
		data_end = size;
	pd_close(&r);
	ok_all = 1;
	prev = 0;
	for (n = 0; n <= size; n++) {
		copy_prefix(data, n, cut);
		read_all(cut, &samples, &matching, &status, error,
			 sizeof(error));
		if (matching != samples || samples < prev ||
		    (n >= data_end && samples != NR_SAMPLES) ||
		    (n < data_end && samples == NR_SAMPLES && n > 0 &&
		     status != PD_TRUNCATED && status != PD_END)) {
			tap_diag("cut at %zu: %d samples, %d matching, status %d (%s)",
				 n, samples, matching, status, error);
			ok_all = 0;
			break;
		}
		if (n > 0 && n < data_end && status == PD_END &&
		    samples < NR_SAMPLES) {
			tap_diag("cut at %zu: read as complete with %d samples",
				 n, samples);
			ok_all = 0;
			break;
		}
		prev = samples;
	}
	tap_ok(ok_all, "a file cut at any of its %zu bytes yields exactly its complete samples",
	       size);
	copy_prefix(data, data_end - 5, cut);
	read_all(cut, &samples, &matching, &status, error, sizeof(error));
	tap_ok(status == PD_TRUNCATED && strstr(error, "offset ") &&
	       samples == NR_SAMPLES - 1,
	       "a cut inside the last record reports its offset (%s)", error);

	/* Random damage: the reader must end, without crashing. */
	copy = malloc(size);
	for (i = 0; i < 3000; i++) {
		int k;

		memcpy(copy, data, size);
		for (k = 0; k < 1 + (int)(rng() % 8); k++)
			copy[rng() % size] = (unsigned char)rng();
		copy_prefix(copy, size, cut);
		read_all(cut, &samples, &matching, &status, error,
			 sizeof(error));
	}
	tap_ok(1, "3000 randomly damaged files were read without a crash");
	tap_ok(callchain_round_trip(cut), "a sample with a call chain, freq in the attribute "
	       "(record -g -F): both read back");

	/* Bad magic, other-endian, pipe mode. */
	memcpy(copy, data, size);
	memcpy(copy, "NOTPERF!", 8);
	copy_prefix(copy, size, cut);
	status = pd_open(&r, cut);
	tap_ok(status == PD_ERR_FORMAT && strstr(r.error, "offset 0"),
	       "a wrong magic is refused at offset 0 (%s)", r.error);
	pd_close(&r);
	memcpy(copy, "2ELIFREP", 8);
	copy_prefix(copy, size, cut);
	status = pd_open(&r, cut);
	tap_ok(status == PD_ERR_UNSUPPORTED && strstr(r.error, "byte-swapped"),
	       "an other-endian file is refused by name (%s)", r.error);
	pd_close(&r);
	memcpy(copy, data, size);
	memset(copy + 8, 0, 8);
	copy[8] = 16;
	copy_prefix(copy, 16, cut);
	status = pd_open(&r, cut);
	tap_ok(status == PD_ERR_UNSUPPORTED && strstr(r.error, "pipe-mode"),
	       "a pipe-mode file is refused by name (%s)", r.error);
	pd_close(&r);

	/* A sample whose branch count claims more than the record holds:
	 * that record is an error with its offset, the ones after it read. */
	memcpy(copy, data, size);
	{
		uint64_t pos;
		struct perf_event_header h;
		int patched = 0;

		pd_open(&r, path);
		pos = r.data_offset;
		pd_close(&r);
		while (pos + 8 <= data_end && !patched) {
			memcpy(&h, copy + pos, 8);
			if (h.type == PERF_RECORD_SAMPLE) {
				uint64_t huge = 1000;

				/* ip, tid, time, period, then nr */
				memcpy(copy + pos + 8 + 32, &huge, 8);
				patched = 1;
			}
			pos += h.size;
		}
		copy_prefix(copy, size, cut);
		pd_open(&r, cut);
		samples = 0;
		while ((status = pd_next(&r, &rec)) != PD_END) {
			if (status == PD_ERR_FORMAT) {
				snprintf(error, sizeof(error), "%s", r.error);
				continue;
			}
			if (status)
				break;
			samples += rec.header.type == PERF_RECORD_SAMPLE;
		}
		pd_close(&r);
		tap_ok(strstr(error, "shorter than its fields") != NULL &&
		       strstr(error, "offset ") != NULL,
		       "a sample shorter than its fields is an error with its offset (%s)",
		       error);
		tap_eq_i64(samples, NR_SAMPLES - 1,
			   "every other sample still reads");
	}
	free(copy);
	free(data);
	unlink(cut);
	unlink(path);
	check_order(cut);
	return tap_done();
}
