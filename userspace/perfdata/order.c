// SPDX-License-Identifier: BSD-2-Clause
/*
 * order.c - a perf.data file's records in time order, as perf shows them.
 *
 * perf record empties one ring buffer per CPU in turn, so a task that moved
 * between CPUs leaves records in the file that are older than records
 * before them (seen on a loaded 2-core host: 135 of 619 samples of one
 * short shell loop).  perf script and perf report sort by time within the
 * rounds PERF_RECORD_FINISHED_ROUND marks; a stable sort of the whole data
 * section by time gives the same order, since no record is older than the
 * round before its own.
 *
 * A first pass notes each record's offset and time; when the times never
 * go back (a file rvperf record wrote, or a task that stayed on one CPU)
 * the second pass reads the file in order as pd_next does, else it seeks
 * to each record in turn.  Records without a time (no sample_id_all, user
 * records such as FINISHED_ROUND) keep their place after the record before
 * them.  Memory: 16 bytes a record.
 */
#include <stdlib.h>
#include <string.h>

#include "perf_data.h"

#define SAMPLE_IDENTIFIER	(1ULL << 16)

struct pd_order_entry {
	uint64_t time, offset;
};

static int bits(uint64_t type, uint64_t mask)
{
	return !!(type & mask);
}

/* The record's time, or 0 with *has = 0 when it carries none. */
static uint64_t record_time(const struct pd_reader *r,
			    const struct pd_record *rec, int *has)
{
	const struct perf_event_attr *a = &r->attrs[0];
	uint64_t t = a->sample_type, size, after, time = 0;

	*has = 0;
	if (!(t & PERF_SAMPLE_TIME))
		return 0;
	if (rec->header.type == PERF_RECORD_SAMPLE) {
		*has = 1;
		return rec->sample.time;
	}
	if (rec->header.type >= 64 || !a->sample_id_all)
		return 0;
	/* The sample_id trailer: time, then id, stream_id, cpu, identifier. */
	after = 8 * (1 + bits(t, PERF_SAMPLE_ID) + bits(t, PERF_SAMPLE_STREAM_ID) +
		     bits(t, PERF_SAMPLE_CPU) + bits(t, SAMPLE_IDENTIFIER));
	size = rec->header.size - sizeof(rec->header);
	if (size < after)
		return 0;
	memcpy(&time, rec->body + size - after, 8);
	*has = 1;
	return time;
}

static int by_time(const void *pa, const void *pb)
{
	const struct pd_order_entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	/* Equal times keep the file's order (qsort is not stable). */
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

int pd_order_open(struct pd_reader *r, struct pd_order *o)
{
	struct pd_record rec;
	uint64_t last = 0, start = r->pos;
	size_t cap = 0;
	int err, has;

	memset(o, 0, sizeof(*o));
	o->sorted = 1;
	o->end_pos = UINT64_MAX;
	while ((err = pd_next(r, &rec)) != PD_END) {
		struct pd_order_entry *e;
		uint64_t t;

		if (err == PD_TRUNCATED || err == PD_ERR_IO) {
			/* Read again at the end, where it fails the same way. */
			o->end_pos = r->pos;
			break;
		}
		if (o->n == cap) {
			cap = cap ? 2 * cap : 4096;
			e = realloc(o->entries, cap * sizeof(*e));
			if (!e)
				return PD_ERR_NOMEM;
			o->entries = e;
		}
		t = err ? last : record_time(r, &rec, &has);
		if (!err && !has)
			t = last;
		if (t < last)
			o->sorted = 0;
		else
			last = t;
		o->entries[o->n].time = t;
		o->entries[o->n].offset = rec.offset;
		o->n++;
	}
	if (!o->sorted)
		qsort(o->entries, o->n, sizeof(*o->entries), by_time);
	r->pos = start;
	return PD_OK;
}

int pd_order_next(struct pd_reader *r, struct pd_order *o,
		  struct pd_record *rec)
{
	if (o->next < o->n) {
		r->pos = o->entries[o->next++].offset;
		return pd_next(r, rec);
	}
	if (o->end_pos == UINT64_MAX)
		return PD_END;
	r->pos = o->end_pos;
	o->end_pos = UINT64_MAX;
	return pd_next(r, rec);
}

void pd_order_close(struct pd_order *o)
{
	free(o->entries);
	memset(o, 0, sizeof(*o));
}
