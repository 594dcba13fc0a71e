/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf_data.h - read and write perf.data files (the format of Linux's
 * tools/perf/Documentation/perf.data-file-format.txt, "PERFILE2", file mode).
 *
 * The writer produces what `perf record -b` produces for one event: the
 * header, one attribute with its sample ids, COMM and MMAP2 records carrying
 * sample_id_all trailers, samples with IP, TID, TIME, PERIOD and a branch
 * stack, and the feature sections perf reads back (build ids, os release,
 * arch, CPU count, the branch-stack flag).  Host `perf script` and
 * `perf report` read its files.
 *
 * The reader takes any file-mode perf.data of the host's byte order: every
 * attribute, every sample_type field perf defines up to Linux 6.12, samples
 * matched to their attribute by id.  Bad input never crashes it: errors name
 * the byte offset, and a truncated data section yields every complete record
 * before the cut (pd_next() then returns PD_TRUNCATED).
 */
#ifndef RVPERF_PERF_DATA_H
#define RVPERF_PERF_DATA_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Feature bits of the header's 256-bit bitmap (perf's util/header.h). */
enum pd_feature {
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_BRANCH_STACK = 15,
};

/* perf-internal user record types that may appear in the data section. */
enum {
	PD_RECORD_FINISHED_ROUND = 68,
	PD_RECORD_HEADER_BUILD_ID = 67,
};

/* Results; errors are negative. */
enum pd_status {
	PD_OK = 0,
	PD_END = 1,		/* pd_next(): no more records */
	PD_ERR_IO = -1,		/* open/read/write failed (errno is set) */
	PD_ERR_FORMAT = -2,	/* not a perf.data file, or inconsistent */
	PD_TRUNCATED = -3,	/* the data section ends inside a record */
	PD_ERR_UNSUPPORTED = -4,/* valid, but a form we do not read */
	PD_ERR_NOMEM = -5,
};

struct pd_branch {
	uint64_t from;
	uint64_t to;
	uint64_t flags;		/* the raw perf_branch_entry flag word */
};

/* Field accessors for pd_branch.flags (perf_branch_entry's bit-fields). */
#define PD_BR_MISPRED(f)	((unsigned int)((f) & 1))
#define PD_BR_PREDICTED(f)	((unsigned int)(((f) >> 1) & 1))
#define PD_BR_IN_TX(f)		((unsigned int)(((f) >> 2) & 1))
#define PD_BR_ABORT(f)		((unsigned int)(((f) >> 3) & 1))
#define PD_BR_CYCLES(f)		((unsigned int)(((f) >> 4) & 0xffff))
#define PD_BR_TYPE(f)		((unsigned int)(((f) >> 20) & 0xf))
#define PD_BR_SPEC(f)		((unsigned int)(((f) >> 24) & 0x3))
#define PD_BR_NEW_TYPE(f)	((unsigned int)(((f) >> 26) & 0xf))
#define PD_BR_PRIV(f)		((unsigned int)(((f) >> 30) & 0x7))
/* The flag word from its fields; inline: a conversion makes millions. */
static inline uint64_t pd_branch_flags(unsigned int mispred,
				       unsigned int predicted,
				       unsigned int cycles, unsigned int type,
				       unsigned int new_type, unsigned int priv)
{
	return (uint64_t)(mispred & 1) | (uint64_t)(predicted & 1) << 1 |
	       (uint64_t)(cycles & 0xffff) << 4 | (uint64_t)(type & 0xf) << 20 |
	       (uint64_t)(new_type & 0xf) << 26 | (uint64_t)(priv & 7) << 30;
}
/* perf's name for a branch type ("" for PERF_BR_UNKNOWN), as perf script
 * prints it; PERF_BR_EXTEND_ABI is named by new_type. */
const char *pd_branch_type_name(unsigned int type, unsigned int new_type);

/* A decoded PERF_RECORD_SAMPLE; fields absent from sample_type are 0. */
struct pd_sample {
	const struct perf_event_attr *attr;	/* the event it belongs to */
	uint64_t ip, addr, id, stream_id, period, time;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;
	const uint64_t *callchain;		/* points into the record */
	uint64_t nr_branches;
	uint64_t hw_idx;			/* with BRANCH_HW_INDEX */
	int has_hw_idx;
	const struct pd_branch *branches;	/* points into the record */
};

/* One record of the data section, as read. */
struct pd_record {
	uint64_t offset;		/* byte offset in the file */
	struct perf_event_header header;
	const unsigned char *body;	/* header.size - 8 bytes after it */
	struct pd_sample sample;	/* for PERF_RECORD_SAMPLE */
	/* PERF_RECORD_COMM, MMAP, MMAP2, FORK, EXIT */
	uint32_t pid, tid;
	uint32_t ppid, ptid;		/* FORK, EXIT */
	uint64_t map_start, map_len, map_pgoff;
	const char *name;		/* comm, or the mapped file */
	unsigned char build_id[20];
	unsigned int build_id_size;	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
};

struct pd_build_id {
	uint32_t pid;
	unsigned char id[20];
	unsigned int size;
	char filename[256];
};

struct pd_reader {
	FILE *f;
	uint64_t file_size;
	uint64_t fpos;			/* where f stands; reads in order
					 * need no seek (a seek drops stdio's
					 * buffer) */
	uint64_t data_offset, data_size, pos;
	uint64_t data_declared;		/* the header's data size */
	unsigned int nr_attrs;
	struct perf_event_attr *attrs;
	uint64_t **ids;			/* ids[i][0..nr_ids[i]) */
	uint64_t *nr_ids;
	uint64_t features[4];
	char arch[64];
	struct pd_build_id *build_ids;
	unsigned int nr_build_ids;
	unsigned char *buf;		/* the current record */
	size_t buf_size;
	char error[256];		/* why the last call failed, with offset */
	char warning[256];		/* pd_open() succeeded, but this was lost */
};

int pd_open(struct pd_reader *r, const char *path);
int pd_next(struct pd_reader *r, struct pd_record *rec);
void pd_close(struct pd_reader *r);

/*
 * The records in time order, as perf script and perf report show them
 * (order.c): pd_order_open() reads the data section once, noting each
 * record's offset and time; pd_order_next() then gives them as pd_next()
 * does (same statuses, a malformed record at its place in time, a cut
 * file's error last), in a stable order by time.
 */
struct pd_order_entry;
struct pd_order {
	struct pd_order_entry *entries;
	size_t n, next;
	int sorted;		/* the file was in time order already */
	uint64_t end_pos;	/* where the first pass stopped on an error */
};

int pd_order_open(struct pd_reader *r, struct pd_order *o);
int pd_order_next(struct pd_reader *r, struct pd_order *o,
		  struct pd_record *rec);
void pd_order_close(struct pd_order *o);
int pd_has_feature(const struct pd_reader *r, enum pd_feature feat);
/* The build id the recording gives for a mapping: its MMAP2's own, else the
 * build-id table's entry for its file name (what perf record writes); NULL
 * when neither has one. */
const unsigned char *pd_mapping_build_id(const struct pd_reader *r,
					 const struct pd_record *rec,
					 unsigned int *size);

/*
 * One binary (its build id, from its ELF note) against a recording's
 * mappings, as perf matches them: by build id, whatever the file names.
 * pd_build_id_check() is given each MMAP/MMAP2 record and says whether it
 * maps the binary; after the last, pd_build_id_refused() says when the
 * binary is not the recorded one (no mapping has its build id and some have
 * another), in words naming both ids.  `rvperf report --elf` and `rvperf
 * autofdo --elf` share it.
 */
struct pd_build_id_check {
	const unsigned char *id;	/* the binary's; size 0: it has none */
	unsigned int size;
	const char *name;		/* its file name: a mapping of that
					 * base name is the one named first */
	unsigned int matched;		/* mappings with its build id */
	unsigned int other;		/* mappings with another build id */
	int same_name;			/* the one said is of that name */
	char mismatch[200];		/* the first such (that name first) */
};

enum pd_build_id_match {
	PD_BUILD_ID_NONE = 0,		/* the recording gives none for it */
	PD_BUILD_ID_MATCH = 1,		/* the binary's */
	PD_BUILD_ID_OTHER = -1,		/* another file's, or another build */
};

void pd_build_id_check_init(struct pd_build_id_check *c,
			    const unsigned char *id, unsigned int size,
			    const char *name);
enum pd_build_id_match pd_build_id_check(struct pd_build_id_check *c,
					 const struct pd_reader *r,
					 const struct pd_record *rec);
/* NULL, or why the binary is not the recorded one ("build id X, the
 * recording's NAME has Y"). */
const char *pd_build_id_refused(const struct pd_build_id_check *c);

/* ---- writer */

struct pd_writer_config {
	uint32_t type;			/* perf_event_attr.type */
	uint64_t config;
	uint64_t sample_period;
	uint64_t branch_sample_type;	/* 0: no branch stack */
	uint64_t sample_freq;		/* non-zero: perf record -F's attr.freq,
					 * sample_period unused */
	int callchain;			/* PERF_SAMPLE_CALLCHAIN too (samples
					 * carry pd_sample.callchain) */
	int exclude_kernel, exclude_hv;
	const char *arch;		/* HEADER_ARCH, e.g. "riscv64" */
	const char *osrelease;		/* HEADER_OSRELEASE */
	unsigned int nr_cpus;
};

struct pd_writer {
	FILE *f;			/* unbuffered: buf is the buffer */
	unsigned char *buf;		/* records not yet written, buf_len */
	size_t buf_len;
	struct perf_event_attr attr;
	uint64_t data_offset, data_size;
	struct pd_build_id *build_ids;
	unsigned int nr_build_ids;
	const char *arch, *osrelease;
	unsigned int nr_cpus;
	uint64_t time;			/* last timestamp written */
};

int pd_writer_open(struct pd_writer *w, const char *path,
		   const struct pd_writer_config *cfg);
int pd_write_comm(struct pd_writer *w, uint32_t pid, uint32_t tid,
		  const char *comm, uint64_t time);
int pd_write_mmap2(struct pd_writer *w, uint32_t pid, uint32_t tid,
		   uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *filename, const unsigned char *build_id,
		   unsigned int build_id_size, uint64_t time);
/* PERF_RECORD_FORK: a new thread (pid == ppid) or process, as the kernel
 * reports it; the child inherits the parent's comm and mappings. */
int pd_write_fork(struct pd_writer *w, uint32_t pid, uint32_t ppid,
		  uint32_t tid, uint32_t ptid, uint64_t time);
int pd_write_sample(struct pd_writer *w, const struct pd_sample *s);
/* A file's build id for the HEADER_BUILD_ID feature (pd_write_mmap2() adds
 * those of the MMAP2 records it writes). */
int pd_writer_add_build_id(struct pd_writer *w, uint32_t pid,
			   const char *filename,
			   const unsigned char *build_id, unsigned int size);
/*
 * The data section's records from byte AT of the file on, SIZE bytes, are
 * written by someone else (the CTR plugin writes a recording's samples
 * itself): the records put since pd_writer_open() go right before them,
 * and the data section is those and the SIZE bytes.  AT must leave room
 * for the records put between the attribute and it.
 */
int pd_writer_external_data(struct pd_writer *w, uint64_t at, uint64_t size);
/* Writes the feature sections and the final header; frees the writer. */
int pd_writer_close(struct pd_writer *w);

#endif /* RVPERF_PERF_DATA_H */
