// SPDX-License-Identifier: BSD-2-Clause
/*
 * reader.c - read file-mode perf.data files, defensively.
 *
 * Every offset and size in the file is checked against the file size with
 * overflow-safe arithmetic before it is used; every record field is checked
 * against the record's own size.  Errors say what was wrong and at which
 * byte offset (r->error).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perf_data.h"

#define FILE_HEADER_SIZE	104
#define MAX_RECORD		65535	/* header.size is 16 bits */
#define MAX_ATTRS		4096

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	char magic[8];
	uint64_t size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t flags[4];
};

/* Sample-type bits this reader decodes (all that Linux 6.12 defines). */
#define SAMPLE_IDENTIFIER	(1ULL << 16)
#define SAMPLE_TRANSACTION	(1ULL << 17)
#define SAMPLE_REGS_INTR	(1ULL << 18)
#define SAMPLE_PHYS_ADDR	(1ULL << 19)
#define SAMPLE_AUX		(1ULL << 20)
#define SAMPLE_CGROUP		(1ULL << 21)
#define SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define SAMPLE_WEIGHT_STRUCT	(1ULL << 24)
#define SAMPLE_KNOWN		((1ULL << 25) - 1)
#define BRANCH_HW_INDEX		(1ULL << 17)	/* PERF_SAMPLE_BRANCH_HW_INDEX */

static int fail(struct pd_reader *r, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return status;
}

/* True when [offset, offset + size) lies inside the file. */
static int in_file(const struct pd_reader *r, uint64_t offset, uint64_t size)
{
	return offset <= r->file_size && size <= r->file_size - offset;
}

static int read_at(struct pd_reader *r, uint64_t offset, void *buf,
		   size_t size)
{
	if (!in_file(r, offset, size))
		return PD_TRUNCATED;
	if (offset != r->fpos && fseeko(r->f, (off_t)offset, SEEK_SET)) {
		r->fpos = UINT64_MAX;
		return PD_ERR_IO;
	}
	r->fpos = offset;
	if (fread(buf, 1, size, r->f) != size) {
		r->fpos = UINT64_MAX;
		return PD_ERR_IO;
	}
	r->fpos += size;
	return PD_OK;
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

static int read_attrs(struct pd_reader *r, const struct file_header *h)
{
	uint64_t attr_len = h->attr_size - sizeof(struct file_section);
	unsigned int i;

	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct file_section) ||
	    h->attrs.size % h->attr_size)
		return fail(r, PD_ERR_FORMAT,
			    "offset 16: attribute size %llu does not divide the attribute section (%llu bytes)",
			    (unsigned long long)h->attr_size,
			    (unsigned long long)h->attrs.size);
	if (!in_file(r, h->attrs.offset, h->attrs.size))
		return fail(r, PD_ERR_FORMAT,
			    "offset 24: attribute section [%llu, +%llu) lies outside the file",
			    (unsigned long long)h->attrs.offset,
			    (unsigned long long)h->attrs.size);
	if (h->attrs.size / h->attr_size > MAX_ATTRS ||
	    h->attrs.size / h->attr_size == 0)
		return fail(r, PD_ERR_FORMAT,
			    "offset 24: %llu attributes",
			    (unsigned long long)(h->attrs.size / h->attr_size));
	r->nr_attrs = (unsigned int)(h->attrs.size / h->attr_size);
	r->attrs = calloc(r->nr_attrs, sizeof(*r->attrs));
	r->ids = calloc(r->nr_attrs, sizeof(*r->ids));
	r->nr_ids = calloc(r->nr_attrs, sizeof(*r->nr_ids));
	if (!r->attrs || !r->ids || !r->nr_ids)
		return fail(r, PD_ERR_NOMEM, "out of memory");

	for (i = 0; i < r->nr_attrs; i++) {
		uint64_t at = h->attrs.offset + i * h->attr_size;
		size_t take = attr_len < sizeof(r->attrs[i]) ?
			      (size_t)attr_len : sizeof(r->attrs[i]);
		struct file_section ids;

		if (read_at(r, at, &r->attrs[i], take) ||
		    read_at(r, at + attr_len, &ids, sizeof(ids)))
			return fail(r, PD_ERR_IO, "offset %llu: cannot read attribute %u",
				    (unsigned long long)at, i);
		if (r->attrs[i].sample_type & ~SAMPLE_KNOWN)
			return fail(r, PD_ERR_UNSUPPORTED,
				    "offset %llu: attribute %u has sample_type bits 0x%llx this reader does not know",
				    (unsigned long long)at, i,
				    (unsigned long long)(r->attrs[i].sample_type & ~SAMPLE_KNOWN));
		if (!in_file(r, ids.offset, ids.size) || ids.size % 8)
			return fail(r, PD_ERR_FORMAT,
				    "offset %llu: attribute %u's id section lies outside the file",
				    (unsigned long long)(at + attr_len), i);
		r->nr_ids[i] = ids.size / 8;
		if (r->nr_ids[i]) {
			r->ids[i] = malloc(ids.size);
			if (!r->ids[i])
				return fail(r, PD_ERR_NOMEM, "out of memory");
			if (read_at(r, ids.offset, r->ids[i], ids.size))
				return fail(r, PD_ERR_IO, "offset %llu: cannot read ids",
					    (unsigned long long)ids.offset);
		}
	}
	return PD_OK;
}

static int read_string(struct pd_reader *r, uint64_t at, uint64_t size,
		       char *out, size_t out_size)
{
	uint32_t len;

	if (size < 4 || read_at(r, at, &len, sizeof(len)) || len > size - 4)
		return PD_ERR_FORMAT;
	if (len >= out_size)
		len = (uint32_t)out_size - 1;
	if (read_at(r, at + 4, out, len))
		return PD_ERR_FORMAT;
	out[len] = '\0';
	return PD_OK;
}

static int read_build_ids(struct pd_reader *r, uint64_t at, uint64_t size)
{
	uint64_t end = at + size;

	while (at + 8 <= end) {
		struct perf_event_header h;
		unsigned char id[24];
		struct pd_build_id *b;
		uint64_t name;

		if (read_at(r, at, &h, sizeof(h)) || h.size < 8 + 4 + 24 ||
		    h.size > end - at)
			return fail(r, PD_ERR_FORMAT,
				    "offset %llu: bad build-id record",
				    (unsigned long long)at);
		b = realloc(r->build_ids, (r->nr_build_ids + 1) * sizeof(*b));
		if (!b)
			return fail(r, PD_ERR_NOMEM, "out of memory");
		r->build_ids = b;
		b += r->nr_build_ids++;
		memset(b, 0, sizeof(*b));
		name = h.size - (8 + 4 + 24);
		if (name >= sizeof(b->filename))
			name = sizeof(b->filename) - 1;
		if (read_at(r, at + 8, &b->pid, 4) ||
		    read_at(r, at + 12, id, sizeof(id)) ||
		    read_at(r, at + 36, b->filename, (size_t)name))
			return fail(r, PD_ERR_FORMAT, "offset %llu: bad build-id record",
				    (unsigned long long)at);
		b->filename[name] = '\0';
		/* BUILD_ID_SIZE in misc: the size is in byte 20. */
		b->size = (h.misc & (1 << 15)) && id[20] <= 20 ? id[20] : 20;
		memcpy(b->id, id, b->size);
		at += h.size;
	}
	return PD_OK;
}

/* The feature sections: a table of file_sections, one per set bit, right
 * after the data section. */
static int read_features(struct pd_reader *r)
{
	uint64_t at = r->data_offset + r->data_size;
	unsigned int bit;

	for (bit = 1; bit < 256; bit++) {
		struct file_section s;

		if (!(r->features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (read_at(r, at, &s, sizeof(s)))
			return fail(r, PD_ERR_FORMAT,
				    "offset %llu: feature table cut short",
				    (unsigned long long)at);
		at += sizeof(s);
		if (!in_file(r, s.offset, s.size))
			return fail(r, PD_ERR_FORMAT,
				    "offset %llu: feature %u lies outside the file",
				    (unsigned long long)(at - sizeof(s)), bit);
		if (bit == PD_FEAT_ARCH &&
		    read_string(r, s.offset, s.size, r->arch, sizeof(r->arch)))
			return fail(r, PD_ERR_FORMAT, "offset %llu: bad arch string",
				    (unsigned long long)s.offset);
		if (bit == PD_FEAT_BUILD_ID) {
			int err = read_build_ids(r, s.offset, s.size);

			if (err)
				return err;
		}
	}
	return PD_OK;
}

int pd_open(struct pd_reader *r, const char *path)
{
	struct file_header h;
	struct stat st;
	int err;

	memset(r, 0, sizeof(*r));
	r->fpos = UINT64_MAX;
	r->f = fopen(path, "rb");
	if (!r->f)
		return fail(r, PD_ERR_IO, "%s", strerror(errno));
	if (fstat(fileno(r->f), &st))
		return fail(r, PD_ERR_IO, "%s", strerror(errno));
	r->file_size = (uint64_t)st.st_size;
	if (r->file_size < 16 || read_at(r, 0, &h, 8))
		return fail(r, PD_ERR_FORMAT,
			    "offset 0: %llu bytes is too short for a perf.data header",
			    (unsigned long long)r->file_size);
	if (memcmp(h.magic, "PERFILE2", 8)) {
		if (memcmp(h.magic, "2ELIFREP", 8) == 0)
			return fail(r, PD_ERR_UNSUPPORTED,
				    "offset 0: byte-swapped (other-endian) perf.data is not supported");
		if (memcmp(h.magic, "PERFFILE", 8) == 0)
			return fail(r, PD_ERR_UNSUPPORTED,
				    "offset 0: version 1 perf.data (PERFFILE) is not supported");
		return fail(r, PD_ERR_FORMAT, "offset 0: not a perf.data file (bad magic)");
	}
	if (read_at(r, 0, &h, 16) == PD_OK && h.size == 16)
		return fail(r, PD_ERR_UNSUPPORTED,
			    "offset 8: pipe-mode perf.data is not supported (record with -o FILE)");
	if (read_at(r, 0, &h, sizeof(h)) || h.size < FILE_HEADER_SIZE)
		return fail(r, PD_ERR_FORMAT, "offset 8: header cut short or too small");
	err = read_attrs(r, &h);
	if (err)
		return err;
	if (h.data.offset > r->file_size)
		return fail(r, PD_ERR_FORMAT,
			    "offset 56: data section starts at %llu, past the end of the file (%llu bytes)",
			    (unsigned long long)h.data.offset,
			    (unsigned long long)r->file_size);
	r->data_offset = h.data.offset;
	r->data_declared = h.data.size;
	/* A file cut inside the data section: read what is there. */
	r->data_size = in_file(r, h.data.offset, h.data.size) ?
		       h.data.size : r->file_size - h.data.offset;
	/* Features are metadata: damage there costs them, never the samples. */
	memcpy(r->features, h.flags, sizeof(r->features));
	if (r->data_size != h.data.size) {
		/* pd_next() reports the cut where the data ends. */
		memset(r->features, 0, sizeof(r->features));
	} else if (read_features(r)) {
		/* Truncation of the message is fine: it is a diagnostic. */
		snprintf(r->warning, sizeof(r->warning), "features ignored: %.200s",
			 r->error);
		r->error[0] = '\0';
		memset(r->features, 0, sizeof(r->features));
		r->arch[0] = '\0';
		free(r->build_ids);
		r->build_ids = NULL;
		r->nr_build_ids = 0;
	}
	r->pos = r->data_offset;
	r->buf = malloc(MAX_RECORD + 1);
	if (!r->buf)
		return fail(r, PD_ERR_NOMEM, "out of memory");
	return PD_OK;
}

int pd_has_feature(const struct pd_reader *r, enum pd_feature feat)
{
	return !!(r->features[feat / 64] & (1ULL << (feat % 64)));
}

const unsigned char *pd_mapping_build_id(const struct pd_reader *r,
					 const struct pd_record *rec,
					 unsigned int *size)
{
	unsigned int i;

	*size = rec->build_id_size;
	if (rec->build_id_size)
		return rec->build_id;
	for (i = 0; i < r->nr_build_ids; i++)
		if (r->build_ids[i].size &&
		    !strcmp(r->build_ids[i].filename, rec->name)) {
			*size = r->build_ids[i].size;
			return r->build_ids[i].id;
		}
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void hex_id(const unsigned char *id, unsigned int size, char *out)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
	if (!size)
		strcpy(out, "none");
}

void pd_build_id_check_init(struct pd_build_id_check *c,
			    const unsigned char *id, unsigned int size,
			    const char *name)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->size = size;
	c->name = name;
}

enum pd_build_id_match pd_build_id_check(struct pd_build_id_check *c,
					 const struct pd_reader *r,
					 const struct pd_record *rec)
{
	const unsigned char *id;
	unsigned int size;
	int same_name;

	if ((rec->header.type != PERF_RECORD_MMAP &&
	     rec->header.type != PERF_RECORD_MMAP2) || !rec->name)
		return PD_BUILD_ID_NONE;
	id = pd_mapping_build_id(r, rec, &size);
	if (!id)
		return PD_BUILD_ID_NONE;
	if (size == c->size && !memcmp(id, c->id, size)) {
		c->matched++;
		return PD_BUILD_ID_MATCH;
	}
	c->other++;
	/* Another build of the program says more than the C library. */
	same_name = c->name &&
		    !strcmp(base_name(rec->name), base_name(c->name));
	if (!c->mismatch[0] || (same_name && !c->same_name)) {
		char want[41], have[41];

		hex_id(id, size, want);
		hex_id(c->id, c->size, have);
		snprintf(c->mismatch, sizeof(c->mismatch),
			 "build id %s, the recording's %s has %s", have,
			 base_name(rec->name), want);
		c->same_name = same_name;
	}
	return PD_BUILD_ID_OTHER;
}

const char *pd_build_id_refused(const struct pd_build_id_check *c)
{
	return !c->matched && c->other ? c->mismatch : NULL;
}

/* A cursor over one record's body. */
struct cursor {
	const unsigned char *p, *end;
	int short_read;
};

static uint64_t take_u64(struct cursor *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->short_read = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static const void *take(struct cursor *c, uint64_t n)
{
	const void *at = c->p;

	if ((uint64_t)(c->end - c->p) < n) {
		c->short_read = 1;
		c->p = c->end;
		return NULL;
	}
	c->p += n;
	return at;
}

static const struct perf_event_attr *attr_of(const struct pd_reader *r,
					     uint64_t id)
{
	unsigned int i;
	uint64_t j;

	if (r->nr_attrs == 1)
		return &r->attrs[0];
	for (i = 0; i < r->nr_attrs; i++)
		for (j = 0; j < r->nr_ids[i]; j++)
			if (r->ids[i][j] == id)
				return &r->attrs[i];
	return NULL;
}

/* Finds the sample's id to pick its attribute (all attributes of one file
 * put the id at the same place, or perf itself could not read it). */
static uint64_t sample_id(const struct pd_reader *r, const unsigned char *body,
			  uint64_t size)
{
	uint64_t type = r->attrs[0].sample_type, off = 0, id = 0;

	if (type & SAMPLE_IDENTIFIER) {
		off = 0;
	} else if (type & PERF_SAMPLE_ID) {
		off = 8 * (!!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) +
			   !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ADDR));
	} else {
		return 0;
	}
	if (off + 8 <= size)
		memcpy(&id, body + off, 8);
	return id;
}

static int decode_sample(struct pd_reader *r, struct pd_record *rec)
{
	struct pd_sample *s = &rec->sample;
	const struct perf_event_attr *a;
	uint64_t size = rec->header.size - sizeof(rec->header), t;
	struct cursor c = { rec->body, rec->body + size, 0 };

	a = attr_of(r, sample_id(r, rec->body, size));
	if (!a)
		return fail(r, PD_ERR_FORMAT,
			    "offset %llu: sample with an id no attribute has",
			    (unsigned long long)rec->offset);
	s->attr = a;
	t = a->sample_type;
	if (t & SAMPLE_IDENTIFIER)
		s->id = take_u64(&c);
	if (t & PERF_SAMPLE_IP)
		s->ip = take_u64(&c);
	if (t & PERF_SAMPLE_TID) {
		uint64_t v = take_u64(&c);

		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = take_u64(&c);
	if (t & PERF_SAMPLE_ADDR)
		s->addr = take_u64(&c);
	if (t & PERF_SAMPLE_ID)
		s->id = take_u64(&c);
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take_u64(&c);
	if (t & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take_u64(&c);
	if (t & PERF_SAMPLE_PERIOD)
		s->period = take_u64(&c);
	if (t & PERF_SAMPLE_READ) {
		uint64_t fmt = a->read_format, per = 1 + !!(fmt & PERF_FORMAT_ID) +
			       !!(fmt & PERF_FORMAT_LOST), n = 1;
		uint64_t fixed = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

		if (fmt & PERF_FORMAT_GROUP)
			n = take_u64(&c);
		if (n > size / 8 || !take(&c, 8 * (fixed + n * per)))
			c.short_read = 1;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = take_u64(&c);
		s->callchain = s->nr_callchain <= size / 8 ?
			       take(&c, 8 * s->nr_callchain) : NULL;
		if (!s->callchain)
			c.short_read = 1;
	}
	if (t & PERF_SAMPLE_RAW) {
		const uint32_t *raw = take(&c, 4);

		/* The u32 size and the data together are u64-aligned. */
		if (raw && !take(&c, *raw))
			c.short_read = 1;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		s->nr_branches = take_u64(&c);
		if (a->branch_sample_type & BRANCH_HW_INDEX) {
			s->hw_idx = take_u64(&c);
			s->has_hw_idx = 1;
		}
		s->branches = s->nr_branches <= size / 24 ?
			      take(&c, 24 * s->nr_branches) : NULL;
		if (!s->branches)
			c.short_read = 1;
	}
	if ((t & PERF_SAMPLE_REGS_USER) && take_u64(&c))
		take(&c, 8 * (uint64_t)popcount64(a->sample_regs_user));
	if (t & PERF_SAMPLE_STACK_USER) {
		uint64_t n = take_u64(&c);

		/* The copied stack, then its dynamic size. */
		if (n && take(&c, n))
			take_u64(&c);
		else if (n)
			c.short_read = 1;
	}
	if (t & (PERF_SAMPLE_WEIGHT | SAMPLE_WEIGHT_STRUCT))
		take_u64(&c);
	if (t & PERF_SAMPLE_DATA_SRC)
		take_u64(&c);
	if (t & SAMPLE_TRANSACTION)
		take_u64(&c);
	if ((t & SAMPLE_REGS_INTR) && take_u64(&c))
		take(&c, 8 * (uint64_t)popcount64(a->sample_regs_intr));
	if (t & SAMPLE_PHYS_ADDR)
		take_u64(&c);
	if (t & SAMPLE_CGROUP)
		take_u64(&c);
	if (t & SAMPLE_DATA_PAGE_SIZE)
		take_u64(&c);
	if (t & SAMPLE_CODE_PAGE_SIZE)
		take_u64(&c);
	if (t & SAMPLE_AUX) {
		uint64_t n = take_u64(&c);

		if (!take(&c, n))
			c.short_read = 1;
	}
	if (c.short_read)
		return fail(r, PD_ERR_FORMAT,
			    "offset %llu: sample record of %u bytes is shorter than its fields",
			    (unsigned long long)rec->offset, rec->header.size);
	return PD_OK;
}

/* COMM, MMAP, MMAP2: pid/tid, the mapping, a NUL-terminated name. */
static int decode_task_record(struct pd_reader *r, struct pd_record *rec)
{
	uint64_t size = rec->header.size - sizeof(rec->header), fixed;
	const unsigned char *b = rec->body;
	uint32_t ids[2];

	fixed = rec->header.type == PERF_RECORD_COMM ? 8 :
		rec->header.type == PERF_RECORD_MMAP ? 8 + 24 : 8 + 24 + 24 + 8;
	if (size <= fixed || !memchr(b + fixed, '\0', size - fixed))
		return fail(r, PD_ERR_FORMAT,
			    "offset %llu: record type %u has no terminated name",
			    (unsigned long long)rec->offset, rec->header.type);
	memcpy(ids, b, 8);
	rec->pid = ids[0];
	rec->tid = ids[1];
	rec->name = (const char *)b + fixed;
	if (rec->header.type != PERF_RECORD_COMM) {
		memcpy(&rec->map_start, b + 8, 8);
		memcpy(&rec->map_len, b + 16, 8);
		memcpy(&rec->map_pgoff, b + 24, 8);
	}
	if (rec->header.type == PERF_RECORD_MMAP2 &&
	    (rec->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && b[32] <= 20) {
		rec->build_id_size = b[32];
		memcpy(rec->build_id, b + 36, rec->build_id_size);
	}
	return PD_OK;
}

int pd_next(struct pd_reader *r, struct pd_record *rec)
{
	uint64_t end = r->data_offset + r->data_size;
	int err;

	memset(rec, 0, sizeof(*rec));
	if (r->pos >= end && r->data_size < r->data_declared)
		return fail(r, PD_TRUNCATED,
			    "offset %llu: the file ends %llu bytes into a data section of %llu",
			    (unsigned long long)r->pos,
			    (unsigned long long)r->data_size,
			    (unsigned long long)r->data_declared);
	if (r->pos >= end)
		return PD_END;
	rec->offset = r->pos;
	if (end - r->pos < sizeof(rec->header))
		return fail(r, PD_TRUNCATED,
			    "offset %llu: data ends inside a record header",
			    (unsigned long long)r->pos);
	err = read_at(r, r->pos, &rec->header, sizeof(rec->header));
	if (err)
		return fail(r, err, "offset %llu: cannot read a record header",
			    (unsigned long long)r->pos);
	if (rec->header.size < sizeof(rec->header))
		return fail(r, PD_ERR_FORMAT,
			    "offset %llu: record size %u is smaller than its header",
			    (unsigned long long)r->pos, rec->header.size);
	if (rec->header.size > end - r->pos)
		return fail(r, PD_TRUNCATED,
			    "offset %llu: data ends inside a record of %u bytes",
			    (unsigned long long)r->pos, rec->header.size);
	if (read_at(r, r->pos + sizeof(rec->header), r->buf,
		    rec->header.size - sizeof(rec->header)))
		return fail(r, PD_ERR_IO, "offset %llu: read failed",
			    (unsigned long long)r->pos);
	rec->body = r->buf;
	/* The next record is where this one says it ends, even if this one's
	 * body turns out to be malformed: one bad record loses nothing else. */
	r->pos += rec->header.size;
	switch (rec->header.type) {
	case PERF_RECORD_SAMPLE:
		return decode_sample(r, rec);
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_task_record(r, rec);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (rec->header.size < sizeof(rec->header) + 24)
			return fail(r, PD_ERR_FORMAT,
				    "offset %llu: record type %u is too short",
				    (unsigned long long)rec->offset,
				    rec->header.type);
		memcpy(&rec->pid, rec->body, 4);
		memcpy(&rec->ppid, rec->body + 4, 4);
		memcpy(&rec->tid, rec->body + 8, 4);
		memcpy(&rec->ptid, rec->body + 12, 4);
		return PD_OK;
	default:
		return PD_OK;
	}
}

void pd_close(struct pd_reader *r)
{
	unsigned int i;

	if (r->f)
		fclose(r->f);
	for (i = 0; r->ids && i < r->nr_attrs; i++)
		free(r->ids[i]);
	free(r->ids);
	free(r->nr_ids);
	free(r->attrs);
	free(r->build_ids);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
