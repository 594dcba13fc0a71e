/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_records.h - the bytes of the perf.data records rvperf writes, each
 * encoded into room the caller has: COMM, FORK, MMAP2, and a sample with
 * IP, TID, TIME, PERIOD and a branch stack.  The writer (writer.c) and the
 * CTR plugin, which writes a recording's records itself, both encode with
 * these, so the layout lives here alone.  Every record but the sample ends
 * in the sample_id_all trailer of that attribute: TID (pid, tid), TIME.
 * Header only: the plugin writes one per sample.
 */
#ifndef RVPERF_PERF_RECORDS_H
#define RVPERF_PERF_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf_data.h"

/* A name, NUL-terminated and padded with NULs to 8 bytes. */
static inline size_t pd_name_room(size_t len)
{
	return (len + 8) & ~(size_t)7;
}

static inline unsigned char *pd_put_bytes(unsigned char *p, const void *data,
					  size_t size)
{
	memcpy(p, data, size);
	return p + size;
}

static inline unsigned char *pd_put_header(unsigned char *p, uint32_t type,
					   uint16_t misc, size_t size)
{
	struct perf_event_header h = { type, misc, (uint16_t)size };

	return pd_put_bytes(p, &h, sizeof(h));
}

static inline unsigned char *pd_put_name(unsigned char *p, const char *name,
					 size_t len)
{
	memset(p, 0, pd_name_room(len));
	memcpy(p, name, len);
	return p + pd_name_room(len);
}

/* The sample_id_all trailer, the last 16 bytes of the record at P. */
static inline void pd_put_sample_id(unsigned char *p, size_t size,
				    uint32_t pid, uint32_t tid, uint64_t time)
{
	uint32_t ids[2] = { pid, tid };

	p = pd_put_bytes(p + size - 16, ids, sizeof(ids));
	pd_put_bytes(p, &time, sizeof(time));
}

static inline size_t pd_comm_size(size_t len)
{
	return sizeof(struct perf_event_header) + 8 + pd_name_room(len) + 16;
}

static inline void pd_encode_comm(unsigned char *p, uint32_t pid, uint32_t tid,
				  const char *comm, size_t len, uint64_t time)
{
	size_t size = pd_comm_size(len);
	uint32_t ids[2] = { pid, tid };
	unsigned char *q = pd_put_header(p, PERF_RECORD_COMM, 0, size);

	q = pd_put_bytes(q, ids, sizeof(ids));
	pd_put_name(q, comm, len);
	pd_put_sample_id(p, size, pid, tid, time);
}

#define PD_FORK_SIZE	(sizeof(struct perf_event_header) + 16 + 8 + 16)

/* A new thread (pid == ppid) or process, as the kernel reports it: the
 * trailer is the new task's. */
static inline void pd_encode_fork(unsigned char *p, uint32_t pid, uint32_t ppid,
				  uint32_t tid, uint32_t ptid, uint64_t time)
{
	uint32_t ids[4] = { pid, ppid, tid, ptid };
	unsigned char *q = pd_put_header(p, PERF_RECORD_FORK, 0, PD_FORK_SIZE);

	q = pd_put_bytes(q, ids, sizeof(ids));
	pd_put_bytes(q, &time, sizeof(time));
	pd_put_sample_id(p, PD_FORK_SIZE, pid, tid, time);
}

static inline size_t pd_mmap2_size(size_t len)
{
	return sizeof(struct perf_event_header) + 8 + 24 + 24 + 8 +
	       pd_name_room(len) + 16;
}

/* IDENT: maj, min (u32 each), ino, ino_generation (u64 each); or, with
 * PERF_RECORD_MISC_MMAP_BUILD_ID in MISC, the build id's size (a byte), 3
 * bytes of 0 and the id.  The build id lies at byte PD_MMAP2_IDENT_AT. */
#define PD_MMAP2_IDENT_AT	(sizeof(struct perf_event_header) + 8 + 24)

/* IDENT naming the file by its build id (SIZE bytes, at most 20). */
static inline void pd_build_id_ident(unsigned char ident[24],
				     const unsigned char *id, unsigned int size)
{
	memset(ident, 0, 24);
	ident[0] = (unsigned char)size;
	memcpy(ident + 4, id, size);
}

static inline void pd_encode_mmap2(unsigned char *p, uint16_t misc,
				   uint32_t pid, uint32_t tid, uint64_t start,
				   uint64_t len, uint64_t pgoff,
				   const unsigned char ident[24], uint32_t prot,
				   uint32_t flags, const char *name,
				   size_t name_len, uint64_t time)
{
	size_t size = pd_mmap2_size(name_len);
	uint32_t ids[2] = { pid, tid }, prot_flags[2] = { prot, flags };
	uint64_t range[3] = { start, len, pgoff };
	unsigned char *q = pd_put_header(p, PERF_RECORD_MMAP2, misc, size);

	q = pd_put_bytes(q, ids, sizeof(ids));
	q = pd_put_bytes(q, range, sizeof(range));
	q = pd_put_bytes(q, ident, 24);
	q = pd_put_bytes(q, prot_flags, sizeof(prot_flags));
	pd_put_name(q, name, name_len);
	pd_put_sample_id(p, size, pid, tid, time);
}

/* Where a sample of this layout would hold its PERF_SAMPLE_CALLCHAIN:
 * after the header, IP, TID, TIME and PERIOD (perf_event.h's order). */
#define PD_SAMPLE_CALLCHAIN_AT	(sizeof(struct perf_event_header) + 4 * 8)

/* A sample; with BRANCHES (PERF_SAMPLE_BRANCH_STACK) its NR branch
 * entries, after hw_idx when the attribute's branch_sample_type has
 * PERF_SAMPLE_BRANCH_HW_INDEX. */
static inline size_t pd_sample_size(int branches, uint64_t nr, int hw_idx)
{
	return sizeof(struct perf_event_header) + 4 * 8 +
	       (branches ? 8 + (hw_idx ? 8 : 0) + nr * sizeof(struct pd_branch) :
			   0);
}

/* The sample up to its branch entries, whose room it returns. */
static inline struct pd_branch *
pd_encode_sample(unsigned char *p, uint64_t ip, uint32_t pid, uint32_t tid,
		 uint64_t time, uint64_t period, int branches, uint64_t nr,
		 int hw_idx, uint64_t hw_idx_value)
{
	uint32_t ids[2] = { pid, tid };
	uint64_t fixed[4] = { time, period, nr, hw_idx_value };
	unsigned char *q = pd_put_header(p, PERF_RECORD_SAMPLE,
					 PERF_RECORD_MISC_USER,
					 pd_sample_size(branches, nr, hw_idx));

	q = pd_put_bytes(q, &ip, sizeof(ip));
	q = pd_put_bytes(q, ids, sizeof(ids));
	q = pd_put_bytes(q, fixed, branches ? (hw_idx ? 32 : 24) : 16);
	return (struct pd_branch *)(void *)q;
}

#endif /* RVPERF_PERF_RECORDS_H */
