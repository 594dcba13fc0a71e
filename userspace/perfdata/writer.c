// SPDX-License-Identifier: BSD-2-Clause
/*
 * writer.c - write perf.data files that host perf reads.
 *
 * File layout (every section is found through the header, so the order is
 * ours to choose; sizes of everything before the data are known at open, so
 * records stream straight to disk):
 *
 *	[file header][sample ids][attribute][data records ...]
 *	[feature section table][feature payloads]
 *
 * The header is written last, when the data size is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf_data.h"
#include "perf_records.h"

#define FILE_HEADER_SIZE	104
#define EVENT_ID		1	/* the one event's sample id */
#define NAME_ALIGN		64	/* perf pads header strings to this */

struct file_section {
	uint64_t offset, size;
};

const char *pd_branch_type_name(unsigned int type, unsigned int new_type)
{
	static const char *const names[16] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
		"SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
		"SERROR", "NO_TX", NULL,	/* EXTEND_ABI: see new_type */
	};
	static const char *const new_names[16] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2",
		"ARCH_3", "ARCH_4", "ARCH_5",
	};
	const char *name = names[type & 15];

	if (!name)
		name = new_names[new_type & 15];
	return name ? name : "";
}

/*
 * Records go to the file in big writes from the writer's own buffer (a
 * recording is hundreds of thousands of small fields): put() is a copy,
 * stdio stays unbuffered, and flush() runs before every seek.
 */
#define BUF_SIZE	(1u << 20)

static int flush(struct pd_writer *w)
{
	size_t n = w->buf_len;

	w->buf_len = 0;
	if (n && fwrite(w->buf, 1, n, w->f) != n)
		return PD_ERR_IO;
	return PD_OK;
}

static inline int put(struct pd_writer *w, const void *p, size_t n)
{
	if (__builtin_expect(w->buf_len + n > BUF_SIZE, 0)) {
		if (flush(w))
			return PD_ERR_IO;
		if (n > BUF_SIZE)
			return fwrite(p, 1, n, w->f) == n ? PD_OK : PD_ERR_IO;
	}
	memcpy(w->buf + w->buf_len, p, n);
	w->buf_len += n;
	return PD_OK;
}

static int put_u64(struct pd_writer *w, uint64_t v)
{
	return put(w, &v, sizeof(v));
}

static int put_zeros(struct pd_writer *w, size_t n)
{
	static const unsigned char zeros[NAME_ALIGN];

	while (n) {
		size_t chunk = n < sizeof(zeros) ? n : sizeof(zeros);

		if (put(w, zeros, chunk))
			return PD_ERR_IO;
		n -= chunk;
	}
	return PD_OK;
}

/* PATH for writing, emptied only if it holds something: truncating a file,
 * even an empty one (a mkstemp() name), makes ext4 write it back when it
 * is closed (auto_da_alloc). */
static FILE *open_empty(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (st.st_size && ftruncate(fd, 0)) ||
	    !(f = fdopen(fd, "wb"))) {
		close(fd);
		return NULL;
	}
	return f;
}

int pd_writer_open(struct pd_writer *w, const char *path,
		   const struct pd_writer_config *cfg)
{
	struct file_section ids;
	uint64_t id = EVENT_ID;

	memset(w, 0, sizeof(*w));
	w->attr.size = sizeof(w->attr);
	w->attr.type = cfg->type;
	w->attr.config = cfg->config;
	w->attr.sample_period = cfg->sample_period;
	if (cfg->sample_freq) {
		w->attr.freq = 1;
		w->attr.sample_freq = cfg->sample_freq;
	}
	w->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (cfg->callchain)
		w->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (cfg->branch_sample_type) {
		w->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		w->attr.branch_sample_type = cfg->branch_sample_type;
	}
	w->attr.exclude_kernel = cfg->exclude_kernel ? 1 : 0;
	w->attr.exclude_hv = cfg->exclude_hv ? 1 : 0;
	w->attr.sample_id_all = 1;
	w->attr.comm = 1;
	w->attr.mmap = 1;
	w->attr.mmap2 = 1;
	w->attr.task = 1;
	w->arch = cfg->arch;
	w->osrelease = cfg->osrelease;
	w->nr_cpus = cfg->nr_cpus ? cfg->nr_cpus : 1;

	w->buf = malloc(BUF_SIZE);
	if (!w->buf)
		return PD_ERR_NOMEM;
	w->f = open_empty(path);
	if (!w->f) {
		free(w->buf);
		w->buf = NULL;
		return PD_ERR_IO;
	}
	setvbuf(w->f, NULL, _IONBF, 0);
	/* Placeholder header, then the ids and the attribute. */
	if (put_zeros(w, FILE_HEADER_SIZE) || put_u64(w, id))
		goto io;
	ids.offset = FILE_HEADER_SIZE;
	ids.size = sizeof(id);
	if (put(w, &w->attr, sizeof(w->attr)) || put(w, &ids, sizeof(ids)))
		goto io;
	w->data_offset = FILE_HEADER_SIZE + sizeof(id) + sizeof(w->attr) +
			 sizeof(ids);
	/* Out now: the buffer then holds records only
	 * (pd_writer_external_data()). */
	if (flush(w))
		goto io;
	return PD_OK;
io:
	fclose(w->f);
	w->f = NULL;
	free(w->buf);
	w->buf = NULL;
	return PD_ERR_IO;
}

/* Room for a record of SIZE bytes in the buffer, in the data section. */
static unsigned char *reserve(struct pd_writer *w, uint64_t size, int *err)
{
	unsigned char *p;

	if (size > UINT16_MAX) {
		errno = EOVERFLOW;
		*err = PD_ERR_FORMAT;
		return NULL;
	}
	if (w->buf_len + size > BUF_SIZE && flush(w)) {
		*err = PD_ERR_IO;
		return NULL;
	}
	p = w->buf + w->buf_len;
	w->buf_len += size;
	w->data_size += size;
	return p;
}

int pd_write_comm(struct pd_writer *w, uint32_t pid, uint32_t tid,
		  const char *comm, uint64_t time)
{
	size_t len = strlen(comm);
	int err = PD_OK;
	unsigned char *p = reserve(w, pd_comm_size(len), &err);

	if (p)
		pd_encode_comm(p, pid, tid, comm, len, time);
	return err;
}

int pd_write_fork(struct pd_writer *w, uint32_t pid, uint32_t ppid,
		  uint32_t tid, uint32_t ptid, uint64_t time)
{
	int err = PD_OK;
	unsigned char *p = reserve(w, PD_FORK_SIZE, &err);

	if (p)
		pd_encode_fork(p, pid, ppid, tid, ptid, time);
	return err;
}

int pd_writer_add_build_id(struct pd_writer *w, uint32_t pid,
			   const char *filename,
			   const unsigned char *build_id, unsigned int size)
{
	struct pd_build_id *b;

	b = realloc(w->build_ids, (w->nr_build_ids + 1) * sizeof(*b));
	if (!b)
		return PD_ERR_NOMEM;
	w->build_ids = b;
	b += w->nr_build_ids++;
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->size = size;
	memcpy(b->id, build_id, size);
	strncpy(b->filename, filename, sizeof(b->filename) - 1);
	return PD_OK;
}

int pd_write_mmap2(struct pd_writer *w, uint32_t pid, uint32_t tid,
		   uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *filename, const unsigned char *build_id,
		   unsigned int build_id_size, uint64_t time)
{
	size_t name_len = strlen(filename);
	unsigned char ident[24] = { 0 };	/* maj/min/ino or build id */
	uint16_t misc = PERF_RECORD_MISC_USER;
	unsigned char *p;
	int err = PD_OK;

	if (build_id_size > 20)
		return PD_ERR_FORMAT;
	if (build_id_size) {
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		pd_build_id_ident(ident, build_id, build_id_size);
		err = pd_writer_add_build_id(w, pid, filename, build_id,
					     build_id_size);
		if (err)
			return err;
	}
	p = reserve(w, pd_mmap2_size(name_len), &err);
	if (p)
		pd_encode_mmap2(p, misc, pid, tid, start, len, pgoff, ident,
				5 /* PROT_READ|PROT_EXEC */, 2 /* MAP_PRIVATE */,
				filename, name_len, time);
	return err;
}

int pd_write_sample(struct pd_writer *w, const struct pd_sample *s)
{
	int branches = !!(w->attr.sample_type & PERF_SAMPLE_BRANCH_STACK);
	int hw_idx = branches && (w->attr.branch_sample_type &
				  PERF_SAMPLE_BRANCH_HW_INDEX);
	uint64_t nr = branches ? s->nr_branches : 0;
	/* The callchain goes between PERIOD and the branch stack. */
	size_t cc = w->attr.sample_type & PERF_SAMPLE_CALLCHAIN ?
		    8 * (1 + s->nr_callchain) : 0;
	size_t size = pd_sample_size(branches, nr, hw_idx);
	int err = PD_OK;
	unsigned char *p, *at;
	struct pd_branch *b;
	uint16_t size16;

	if (size + cc > UINT16_MAX)
		return PD_ERR_FORMAT;
	p = reserve(w, size + cc, &err);
	if (!p)
		return err;
	b = pd_encode_sample(p, s->ip, s->pid, s->tid, s->time, s->period,
			     branches, nr, hw_idx,
			     s->has_hw_idx ? s->hw_idx : ~0ULL);
	if (cc) {
		at = p + PD_SAMPLE_CALLCHAIN_AT;
		memmove(at + cc, at, (size_t)((unsigned char *)b - at));
		memcpy(at, &s->nr_callchain, 8);
		if (s->nr_callchain)
			memcpy(at + 8, s->callchain, cc - 8);
		b = (struct pd_branch *)(void *)((unsigned char *)b + cc);
		size16 = (uint16_t)(size + cc);
		memcpy(p + offsetof(struct perf_event_header, size), &size16,
		       sizeof(size16));
	}
	if (nr)
		memcpy(b, s->branches, nr * sizeof(*b));
	return PD_OK;
}

int pd_writer_external_data(struct pd_writer *w, uint64_t at, uint64_t size)
{
	uint64_t prefix = w->buf_len;

	/* Every record put since the open is still in the buffer. */
	if (!w->f || prefix != w->data_size || at < w->data_offset + prefix)
		return PD_ERR_FORMAT;
	if (fseek(w->f, (long)(at - prefix), SEEK_SET) || flush(w))
		return PD_ERR_IO;
	w->data_offset = at - prefix;
	w->data_size = prefix + size;
	return PD_OK;
}

/* A perf_header_string: u32 length (padded), the text, NUL padding. */
static int put_string(struct pd_writer *w, const char *s, uint64_t *size)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + NAME_ALIGN - 1) &
				  ~(uint64_t)(NAME_ALIGN - 1));

	*size = sizeof(len) + len;
	if (put(w, &len, sizeof(len)) || put(w, s, strlen(s)) ||
	    put_zeros(w, len - strlen(s)))
		return PD_ERR_IO;
	return PD_OK;
}

static int put_build_ids(struct pd_writer *w, uint64_t *size)
{
	unsigned int i;

	*size = 0;
	for (i = 0; i < w->nr_build_ids; i++) {
		const struct pd_build_id *b = &w->build_ids[i];
		uint64_t name = (strlen(b->filename) + 1 + NAME_ALIGN - 1) &
				~(uint64_t)(NAME_ALIGN - 1);
		struct perf_event_header h = {
			PD_RECORD_HEADER_BUILD_ID,
			PERF_RECORD_MISC_USER | (1 << 15) /* BUILD_ID_SIZE */,
			(uint16_t)(sizeof(h) + 4 + 24 + name),
		};
		unsigned char id[24] = { 0 };
		int32_t pid = -1;	/* perf's value for "any process" */

		memcpy(id, b->id, b->size);
		id[20] = (unsigned char)b->size;
		if (put(w, &h, sizeof(h)) || put(w, &pid, sizeof(pid)) ||
		    put(w, id, sizeof(id)) ||
		    put(w, b->filename, strlen(b->filename)) ||
		    put_zeros(w, name - strlen(b->filename)))
			return PD_ERR_IO;
		*size += h.size;
	}
	return PD_OK;
}

int pd_writer_close(struct pd_writer *w)
{
	enum pd_feature feats[5];
	struct file_section table[5], attrs, data, types = { 0, 0 };
	uint64_t flags[4] = { 0 }, pos, attr_size;
	unsigned int n = 0, i;
	int err = PD_OK;

	if (!w->f)
		return PD_ERR_IO;
	if (w->nr_build_ids)
		feats[n++] = PD_FEAT_BUILD_ID;
	if (w->osrelease)
		feats[n++] = PD_FEAT_OSRELEASE;
	if (w->arch)
		feats[n++] = PD_FEAT_ARCH;
	feats[n++] = PD_FEAT_NRCPUS;
	/* As perf record: --call-graph lbr's call stack is no branch
	 * stack that -b or -j asked for, and reports show call chains. */
	if ((w->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    !(w->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		feats[n++] = PD_FEAT_BRANCH_STACK;

	/* Payloads go after the table; write them first, then the table. */
	pos = w->data_offset + w->data_size + n * sizeof(struct file_section);
	if (flush(w) || fseek(w->f, (long)pos, SEEK_SET))
		err = PD_ERR_IO;
	for (i = 0; i < n && !err; i++) {
		uint64_t size = 0;
		uint32_t cpus[2] = { w->nr_cpus, w->nr_cpus };

		switch (feats[i]) {
		case PD_FEAT_BUILD_ID:
			err = put_build_ids(w, &size);
			break;
		case PD_FEAT_OSRELEASE:
			err = put_string(w, w->osrelease, &size);
			break;
		case PD_FEAT_ARCH:
			err = put_string(w, w->arch, &size);
			break;
		case PD_FEAT_NRCPUS:
			size = sizeof(cpus);
			err = put(w, cpus, sizeof(cpus));
			break;
		default:	/* BRANCH_STACK: a flag with no payload */
			break;
		}
		table[i].offset = pos;
		table[i].size = size;
		pos += size;
		flags[feats[i] / 64] |= 1ULL << (feats[i] % 64);
	}
	if (!err && (flush(w) ||
		     fseek(w->f, (long)(w->data_offset + w->data_size),
			   SEEK_SET) ||
		     put(w, table, n * sizeof(table[0]))))
		err = PD_ERR_IO;

	attr_size = sizeof(w->attr) + sizeof(struct file_section);
	attrs.offset = FILE_HEADER_SIZE + sizeof(uint64_t);
	attrs.size = attr_size;
	data.offset = w->data_offset;
	data.size = w->data_size;
	if (!err && (flush(w) || fseek(w->f, 0, SEEK_SET) ||
		     put(w, "PERFILE2", 8) ||
		     put_u64(w, FILE_HEADER_SIZE) || put_u64(w, attr_size) ||
		     put(w, &attrs, sizeof(attrs)) ||
		     put(w, &data, sizeof(data)) ||
		     put(w, &types, sizeof(types)) ||
		     put(w, flags, sizeof(flags)) || flush(w)))
		err = PD_ERR_IO;
	if (fclose(w->f) && !err)
		err = PD_ERR_IO;
	w->f = NULL;
	free(w->buf);
	w->buf = NULL;
	w->buf_len = 0;
	free(w->build_ids);
	w->build_ids = NULL;
	return err;
}
