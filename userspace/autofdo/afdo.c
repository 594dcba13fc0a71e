// SPDX-License-Identifier: BSD-2-Clause
/*
 * afdo.c - branch stacks to a GCC AutoFDO profile (see afdo.h).
 *
 * Passes: read every sample's branch stack into counts of branches
 * (from, to) and of straight-line ranges [to of the older record, from of
 * the newer]; spread range counts over the instructions of each range
 * (RISC-V instruction lengths from the binary's bytes); give each
 * instruction's count to its source position under its inline chain;
 * then write the tree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "userspace/dwarf/dw_chain.h"
#include "userspace/elf/elf_syms.h"
#include "userspace/perfdata/perf_data.h"
#include "userspace/util/vec.h"

/* GCC's gcov-io.h and auto-profile.cc. */
#define GCOV_DATA_MAGIC			0x67636461u	/* "gcda" */
#define AFDO_VERSION			2u
#define GCOV_TAG_AFDO_FILE_NAMES	0xaa000000u
#define GCOV_TAG_AFDO_FUNCTION		0xac000000u
#define GCOV_TAG_AFDO_MODULE_GROUPING	0xae000000u
#define HIST_TYPE_INDIR_CALL		3u

/* A straight-line range longer than this is a broken stack, not code. */
#define MAX_RANGE_BYTES			65536

/* ---- a hash map of (a, b) -> count */

struct pair_ent {
	uint64_t a, b, n;	/* n == 0: empty slot */
};

struct pair_map {
	struct pair_ent *e;
	size_t cap, nr;
};

static size_t pair_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) *
		     0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ (h >> 29));
}

static int pair_add(struct pair_map *m, uint64_t a, uint64_t b, uint64_t n)
{
	size_t i;

	if (!n)
		return 0;
	if ((m->nr + 1) * 2 > m->cap) {
		struct pair_map big = { NULL, m->cap ? m->cap * 2 : 1024, 0 };

		big.e = calloc(big.cap, sizeof(*big.e));
		if (!big.e)
			return -1;
		for (i = 0; i < m->cap; i++)
			if (m->e[i].n)
				pair_add(&big, m->e[i].a, m->e[i].b, m->e[i].n);
		free(m->e);
		*m = big;
	}
	for (i = pair_hash(a, b) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct pair_ent *p = &m->e[i];

		if (!p->n) {
			p->a = a;
			p->b = b;
			p->n = n;
			m->nr++;
			return 0;
		}
		if (p->a == a && p->b == b) {
			p->n += n;
			return 0;
		}
	}
}

/* ---- the profile tree */

struct target {
	uint32_t name;
	uint64_t count;
};

struct position {
	uint32_t offset;
	uint64_t count;
	struct target *targets;
	size_t nr_targets;
};

struct instance {
	uint32_t name;		/* index into the string table */
	uint64_t head;		/* entry count (top level only) */
	struct position *pos;
	size_t nr_pos, cap_pos;
	struct callsite *calls;
	size_t nr_calls, cap_calls;
};

struct callsite {
	uint32_t offset;
	struct instance *callee;
};

struct profile {
	char **names;
	size_t nr_names, cap_names;
	struct instance **top;
	size_t nr_top, cap_top;
};

/* GCC strips everything from the first '.' (clone suffixes) when it
 * looks names up, so the profile keeps the original names. */
static long name_index(struct profile *p, const char *name)
{
	size_t i, len = strcspn(name, ".");

	for (i = 0; i < p->nr_names; i++)
		if (strlen(p->names[i]) == len &&
		    !strncmp(p->names[i], name, len))
			return (long)i;
	if (vec_grow((void **)&p->names, &p->cap_names, p->nr_names + 1,
		 sizeof(*p->names)))
		return -1;
	p->names[p->nr_names] = strndup(name, len);
	if (!p->names[p->nr_names])
		return -1;
	return (long)p->nr_names++;
}

static struct instance *new_instance(uint32_t name)
{
	struct instance *in = calloc(1, sizeof(*in));

	if (in)
		in->name = name;
	return in;
}

static struct instance *top_instance(struct profile *p, const char *name)
{
	long idx = name_index(p, name);
	size_t i;

	if (idx < 0)
		return NULL;
	for (i = 0; i < p->nr_top; i++)
		if (p->top[i]->name == (uint32_t)idx)
			return p->top[i];
	if (vec_grow((void **)&p->top, &p->cap_top, p->nr_top + 1, sizeof(*p->top)))
		return NULL;
	p->top[p->nr_top] = new_instance((uint32_t)idx);
	return p->top[p->nr_top] ? p->top[p->nr_top++] : NULL;
}

static struct instance *callee_instance(struct profile *p, struct instance *in,
					uint32_t offset, const char *name)
{
	long idx = name_index(p, name);
	size_t i;

	if (idx < 0)
		return NULL;
	for (i = 0; i < in->nr_calls; i++)
		if (in->calls[i].offset == offset &&
		    in->calls[i].callee->name == (uint32_t)idx)
			return in->calls[i].callee;
	if (vec_grow((void **)&in->calls, &in->cap_calls, in->nr_calls + 1,
		 sizeof(*in->calls)))
		return NULL;
	in->calls[in->nr_calls].offset = offset;
	in->calls[in->nr_calls].callee = new_instance((uint32_t)idx);
	return in->calls[in->nr_calls].callee ?
		in->calls[in->nr_calls++].callee : NULL;
}

static struct position *position(struct instance *in, uint32_t offset)
{
	size_t i;

	for (i = 0; i < in->nr_pos; i++)
		if (in->pos[i].offset == offset)
			return &in->pos[i];
	if (vec_grow((void **)&in->pos, &in->cap_pos, in->nr_pos + 1,
		 sizeof(*in->pos)))
		return NULL;
	memset(&in->pos[in->nr_pos], 0, sizeof(*in->pos));
	in->pos[in->nr_pos].offset = offset;
	return &in->pos[in->nr_pos++];
}

static void free_instance(struct instance *in)
{
	size_t i;

	if (!in)
		return;
	for (i = 0; i < in->nr_pos; i++)
		free(in->pos[i].targets);
	for (i = 0; i < in->nr_calls; i++)
		free_instance(in->calls[i].callee);
	free(in->pos);
	free(in->calls);
	free(in);
}

/* The combined location GCC computes: line offset from the function's
 * declaration line in the upper 16 bits, discriminator in the lower. */
static int location(const struct dw_frame *f, uint32_t *loc)
{
	if (f->line < f->decl_line || f->line - f->decl_line >= 0x10000 ||
	    !f->decl_line)
		return -1;
	*loc = ((f->line - f->decl_line) << 16) | (f->discriminator & 0xffff);
	return 0;
}

/* The instance and leaf location the inline chain of an address lands
 * in; NULL when the chain cannot be keyed. */
static struct instance *chain_instance(struct profile *p,
				       const struct dw_frame *fr, int n,
				       uint32_t *leaf_loc)
{
	struct instance *in;
	int k;

	if (n < 1 || !strcmp(fr[n - 1].name, "??"))
		return NULL;
	in = top_instance(p, fr[n - 1].name);
	for (k = n - 1; in && k > 0; k--) {
		uint32_t loc;

		if (location(&fr[k], &loc))
			return NULL;
		in = callee_instance(p, in, loc, fr[k - 1].name);
	}
	if (!in || location(&fr[0], leaf_loc))
		return NULL;
	return in;
}

/* ---- the binary */

struct binary {
	struct elf_syms syms;
	struct dw_info dw;
	unsigned char *image;
	size_t size;
};

/* The instruction at vaddr: its length (2 or 4), 0 if not in the file. */
static unsigned int insn_at(const struct binary *b, uint64_t vaddr,
			    uint32_t *insn)
{
	size_t i;

	for (i = 0; i < b->syms.nr_segments; i++) {
		const struct elf_segment *s = &b->syms.segments[i];
		uint64_t off;

		if (vaddr < s->vaddr || vaddr - s->vaddr + 2 > s->filesz)
			continue;
		off = s->offset + (vaddr - s->vaddr);
		if (off + 2 > b->size)
			return 0;
		*insn = b->image[off] | (uint32_t)b->image[off + 1] << 8;
		if ((*insn & 3) != 3)
			return 2;
		if (vaddr - s->vaddr + 4 > s->filesz || off + 4 > b->size)
			return 0;
		*insn |= (uint32_t)b->image[off + 2] << 16 |
			 (uint32_t)b->image[off + 3] << 24;
		return 4;
	}
	return 0;
}

/* Whether the instruction is a call (writes a link register: jal/jalr
 * with rd x1 or x5, c.jalr), and whether it is indirect. */
static int is_call(uint32_t insn, unsigned int len, int *indirect)
{
	if (len == 4) {
		unsigned int op = insn & 0x7f, rd = (insn >> 7) & 31;

		if ((op == 0x6f || op == 0x67) && (rd == 1 || rd == 5)) {
			*indirect = op == 0x67;
			return 1;
		}
		return 0;
	}
	/* c.jalr: funct4 1001, rs1 != 0, rs2 == 0, op 10 */
	if ((insn & 0xf07f) == 0x9002 && ((insn >> 7) & 31)) {
		*indirect = 1;
		return 1;
	}
	return 0;
}

static int load_binary(struct binary *b, const char *path, char *err,
		       size_t errlen)
{
	FILE *f;
	long sz;

	memset(b, 0, sizeof(*b));
	if (elf_syms_load(&b->syms, path)) {
		snprintf(err, errlen, "%s: %s", path, b->syms.error);
		return -1;
	}
	if (b->syms.machine != ELF_MACHINE_RISCV) {
		snprintf(err, errlen, "%s: not a RISC-V ELF file (machine %u)",
			 path, b->syms.machine);
		return -1;
	}
	if (dw_load(&b->dw, path)) {
		snprintf(err, errlen, "%s: %s", path, b->dw.error);
		return -1;
	}
	if (!b->dw.nr_lines) {
		snprintf(err, errlen,
			 "%s: no line information (build it with -g)", path);
		return -1;
	}
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	b->size = (size_t)sz;
	b->image = malloc(b->size ? b->size : 1);
	if (!b->image || fread(b->image, 1, b->size, f) != b->size) {
		snprintf(err, errlen, "%s: read failed", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static void free_binary(struct binary *b)
{
	elf_syms_free(&b->syms);
	dw_free(&b->dw);
	free(b->image);
}

/* ---- reading the samples */

struct mapping {
	uint64_t start, len, pgoff;
	int valid;
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* A sampled address to the binary's link-time address. */
static int to_vaddr(const struct binary *b, const struct mapping *m,
		    uint64_t addr, uint64_t *vaddr)
{
	if (!m->valid) {
		*vaddr = addr;	/* no mapping seen: a fixed-address binary */
		return 0;
	}
	if (addr < m->start || addr - m->start >= m->len)
		return -1;
	return elf_offset_to_vaddr(&b->syms, addr - m->start + m->pgoff,
				   vaddr) ? 0 : -1;
}

/* perf's -j words for the filter bits of a branch_sample_type. */
static void filter_words(uint64_t bst, char *out, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *word;
	} words[] = {
		{ PERF_SAMPLE_BRANCH_ANY, "any" },
		{ PERF_SAMPLE_BRANCH_ANY_CALL, "any_call" },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, "any_ret" },
		{ PERF_SAMPLE_BRANCH_IND_CALL, "ind_call" },
		{ PERF_SAMPLE_BRANCH_COND, "cond" },
		{ PERF_SAMPLE_BRANCH_CALL_STACK, "call_stack" },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, "ind_jmp" },
		{ PERF_SAMPLE_BRANCH_CALL, "call" },
	};
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((bst & words[i].bit) && n < size)
			n += (size_t)snprintf(out + n, size - n, "%s%s",
					      n ? "," : "", words[i].word);
	if (!out[0])
		snprintf(out, size, "none");
}

/* AutoFDO counts the code between two consecutive records as having run
 * straight through: true only when every taken branch was recorded.  A
 * filtered recording (cond, any_call, call_stack, ...) leaves out jumps
 * in those gaps: refused with the reason. */
static int check_filter(const struct pd_reader *r, const char *input,
			char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < r->nr_attrs; i++) {
		uint64_t bst = r->attrs[i].branch_sample_type;
		char words[128];

		if (!(r->attrs[i].sample_type & PERF_SAMPLE_BRANCH_STACK) ||
		    ((bst & PERF_SAMPLE_BRANCH_ANY) &&
		     !(bst & PERF_SAMPLE_BRANCH_CALL_STACK)))
			continue;
		filter_words(bst, words, sizeof(words));
		snprintf(err, errlen, "%s: recorded with branch filter %s, not "
			 "any: the gaps between its records are not straight-"
			 "line code (record with -b or -j any)", input, words);
		return -1;
	}
	return 0;
}

static int read_samples(const struct afdo_options *o, const char *input,
			const struct binary *b, struct pair_map *branches,
			struct pair_map *ranges, struct afdo_stats *st, char *err,
			size_t errlen)
{
	struct pd_reader r;
	struct pd_record rec;
	struct mapping map = { 0, 0, 0, 0 };
	struct pd_build_id_check ids;
	const char *want = base_name(o->elf);
	const char *refused;
	int status;

	if (pd_open(&r, input)) {
		if (strstr(r.error, input))
			snprintf(err, errlen, "%s", r.error);
		else
			snprintf(err, errlen, "%s: %s", input, r.error);
		return -1;
	}
	if (check_filter(&r, input, err, errlen)) {
		pd_close(&r);
		return -1;
	}
	pd_build_id_check_init(&ids, b->syms.build_id, b->syms.build_id_size,
			       o->elf);
	while ((status = pd_next(&r, &rec)) == PD_OK) {
		const struct pd_sample *s = &rec.sample;
		enum pd_build_id_match id = pd_build_id_check(&ids, &r, &rec);
		uint64_t i;

		/* The binary is mapped where a mapping has its build id,
		 * whatever the file's name; by the name only where the
		 * recording gives no build id (or with --force). */
		if ((rec.header.type == PERF_RECORD_MMAP2 ||
		     rec.header.type == PERF_RECORD_MMAP) && rec.name &&
		    (id == PD_BUILD_ID_MATCH ||
		     (!strcmp(base_name(rec.name), want) &&
		      (id == PD_BUILD_ID_NONE || o->force))) &&
		    (!map.valid || rec.map_pgoff < map.pgoff)) {
			/* The lowest-offset mapping of the file; a real
			 * loader maps it contiguously. */
			map.start = rec.map_start - rec.map_pgoff;
			map.len = rec.map_len + rec.map_pgoff;
			map.pgoff = 0;
			map.valid = 1;
		}
		if (rec.header.type != PERF_RECORD_SAMPLE ||
		    !s->nr_branches)
			continue;
		st->samples++;
		st->branches += s->nr_branches;
		for (i = 0; i < s->nr_branches; i++) {
			uint64_t from, to;

			if (to_vaddr(b, &map, s->branches[i].from, &from) ||
			    to_vaddr(b, &map, s->branches[i].to, &to))
				continue;
			if (pair_add(branches, from, to, 1))
				goto nomem;
		}
		/* branches[0] is the newest record. */
		for (i = s->nr_branches - 1; i > 0; i--) {
			uint64_t begin, end;

			if (to_vaddr(b, &map, s->branches[i].to, &begin) ||
			    to_vaddr(b, &map, s->branches[i - 1].from, &end) ||
			    end < begin || end - begin > MAX_RANGE_BYTES) {
				st->bad_ranges++;
				continue;
			}
			st->ranges++;
			if (pair_add(ranges, begin, end, 1))
				goto nomem;
		}
	}
	/* Another program, or another build of this one: its addresses
	 * would land on the wrong lines, confidently. */
	refused = o->force ? NULL : pd_build_id_refused(&ids);
	if (refused) {
		snprintf(err, errlen, "%s: %s (--force uses it anyway)", o->elf,
			 refused);
		pd_close(&r);
		return -1;
	}
	if (status == PD_TRUNCATED)
		snprintf(st->warning, sizeof(st->warning),
			 "%s (profile made from the samples before it)",
			 r.error);
	else if (status != PD_END) {
		snprintf(err, errlen, "%s", r.error);
		pd_close(&r);
		return -1;
	}
	pd_close(&r);
	return 0;
nomem:
	pd_close(&r);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* ---- building the tree */

#define MAX_FRAMES 32

static int add_targets(struct position *pos, uint32_t name, uint64_t n)
{
	size_t i;
	struct target *t;

	for (i = 0; i < pos->nr_targets; i++)
		if (pos->targets[i].name == name) {
			pos->targets[i].count += n;
			return 0;
		}
	t = realloc(pos->targets, (pos->nr_targets + 1) * sizeof(*t));
	if (!t)
		return -1;
	pos->targets = t;
	t[pos->nr_targets].name = name;
	t[pos->nr_targets].count = n;
	pos->nr_targets++;
	return 0;
}

static int build(struct profile *p, const struct binary *b,
		 const struct pair_map *branches, const struct pair_map *ranges,
		 struct afdo_stats *st)
{
	struct pair_map insns = { 0 };	/* (addr, 0) -> count */
	struct dw_frame fr[MAX_FRAMES];
	size_t i;
	int ret = -1;

	for (i = 0; i < ranges->cap; i++) {
		const struct pair_ent *e = &ranges->e[i];
		uint64_t a = e->a;

		if (!e->n)
			continue;
		while (a <= e->b) {
			uint32_t insn;
			unsigned int len = insn_at(b, a, &insn);

			if (!len) {
				st->bad_ranges++;
				break;
			}
			if (pair_add(&insns, a, 0, e->n))
				goto out;
			a += len;
		}
	}
	for (i = 0; i < insns.cap; i++) {
		const struct pair_ent *e = &insns.e[i];
		struct instance *in;
		struct position *pos;
		uint32_t loc;
		int n;

		if (!e->n)
			continue;
		n = dw_lookup(&b->dw, e->a, fr, MAX_FRAMES);
		in = chain_instance(p, fr, n, &loc);
		if (!in) {
			st->unmapped += e->n;
			continue;
		}
		pos = position(in, loc);
		if (!pos)
			goto out;
		if (e->n > pos->count)	/* a line counts as its hottest insn */
			pos->count = e->n;
	}
	/* Calls: entry counts of the callees, indirect-call targets. */
	for (i = 0; i < branches->cap; i++) {
		const struct pair_ent *e = &branches->e[i];
		struct dw_func callee;
		uint64_t lo;
		uint32_t insn, loc;
		unsigned int len;
		int indirect, n;
		struct instance *in;
		struct position *pos;
		long idx;

		if (!e->n)
			continue;
		len = insn_at(b, e->a, &insn);
		if (!len || !is_call(insn, len, &indirect))
			continue;
		if (dw_function_at(&b->dw, e->b, &callee, &lo) || lo != e->b)
			continue;
		in = top_instance(p, callee.name);
		if (!in)
			goto out;
		in->head += e->n;
		if (!indirect)
			continue;
		n = dw_lookup(&b->dw, e->a, fr, MAX_FRAMES);
		in = chain_instance(p, fr, n, &loc);
		if (!in)
			continue;
		pos = position(in, loc);
		idx = name_index(p, callee.name);
		if (!pos || idx < 0 || add_targets(pos, (uint32_t)idx, e->n))
			goto out;
	}
	ret = 0;
out:
	free(insns.e);
	return ret;
}

/* ---- writing */

static int put32(FILE *f, uint32_t v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

static int put64(FILE *f, uint64_t v)	/* gcov counters: low word first */
{
	return put32(f, (uint32_t)v) | put32(f, (uint32_t)(v >> 32));
}

/* gcov strings (GCC 12): byte length including the NUL, then the bytes. */
static int put_str(FILE *f, const char *s)
{
	size_t len = strlen(s) + 1;

	return put32(f, (uint32_t)len) |
	       (fwrite(s, 1, len, f) == len ? 0 : -1);
}

static int pos_cmp(const void *a, const void *b)
{
	const struct position *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int call_cmp(const void *a, const void *b)
{
	const struct callsite *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->callee->name < y->callee->name ? -1 :
	       x->callee->name > y->callee->name;
}

static uint64_t total(const struct instance *in)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < in->nr_pos; i++)
		t += in->pos[i].count;
	for (i = 0; i < in->nr_calls; i++)
		t += total(in->calls[i].callee);
	return t;
}

static int write_instance(FILE *f, struct instance *in)
{
	size_t i, j;
	int r = 0;

	qsort(in->pos, in->nr_pos, sizeof(*in->pos), pos_cmp);
	qsort(in->calls, in->nr_calls, sizeof(*in->calls), call_cmp);
	r |= put32(f, in->name);
	r |= put32(f, (uint32_t)in->nr_pos);
	r |= put32(f, (uint32_t)in->nr_calls);
	for (i = 0; i < in->nr_pos; i++) {
		const struct position *p = &in->pos[i];

		r |= put32(f, p->offset);
		r |= put32(f, (uint32_t)p->nr_targets);
		r |= put64(f, p->count);
		for (j = 0; j < p->nr_targets; j++) {
			r |= put32(f, HIST_TYPE_INDIR_CALL);
			r |= put64(f, p->targets[j].name);
			r |= put64(f, p->targets[j].count);
		}
	}
	for (i = 0; i < in->nr_calls; i++) {
		r |= put32(f, in->calls[i].offset);
		r |= write_instance(f, in->calls[i].callee);
	}
	return r;
}

/*
 * LLVM keys a line by the base discriminator its DWARF discriminator
 * encodes (DILocation::getBaseDiscriminator, LLVM 14: a prefix encoding
 * whose low bit set means 0); GCC's are plain numbers.
 */
static unsigned int llvm_base_discriminator(unsigned int d)
{
	if (d & 1)
		return 0;
	d >>= 1;
	return (d & 0x40) ? (d & 0x3f) | ((d >> 1) & 0xfe0) : d & 0x3f;
}

static unsigned int shown_discriminator(unsigned int offset, int llvm)
{
	return llvm ? llvm_base_discriminator(offset & 0xffff) : offset & 0xffff;
}

static void dump_instance(FILE *out, const struct profile *p,
			  const struct instance *in, int indent, int llvm)
{
	size_t i, j;

	for (i = 0; i < in->nr_pos; i++) {
		const struct position *pos = &in->pos[i];

		fprintf(out, "%*s%u", indent, "", pos->offset >> 16);
		if (shown_discriminator(pos->offset, llvm))
			fprintf(out, ".%u", shown_discriminator(pos->offset, llvm));
		fprintf(out, ": %" PRIu64, pos->count);
		for (j = 0; j < pos->nr_targets; j++)
			fprintf(out, " %s:%" PRIu64,
				p->names[pos->targets[j].name],
				pos->targets[j].count);
		fprintf(out, "\n");
	}
	for (i = 0; i < in->nr_calls; i++) {
		const struct callsite *c = &in->calls[i];

		fprintf(out, "%*s%u", indent, "", c->offset >> 16);
		if (shown_discriminator(c->offset, llvm))
			fprintf(out, ".%u", shown_discriminator(c->offset, llvm));
		fprintf(out, ": %s:%" PRIu64 "\n", p->names[c->callee->name],
			total(c->callee));
		dump_instance(out, p, c->callee, indent + 1, llvm);
	}
}

static int top_cmp(const void *a, const void *b)
{
	const struct instance *const *x = a, *const *y = b;

	return (*x)->name < (*y)->name ? -1 : (*x)->name > (*y)->name;
}

static void sort_instance(struct instance *in)
{
	size_t i;

	qsort(in->pos, in->nr_pos, sizeof(*in->pos), pos_cmp);
	qsort(in->calls, in->nr_calls, sizeof(*in->calls), call_cmp);
	for (i = 0; i < in->nr_calls; i++)
		sort_instance(in->calls[i].callee);
}

static int write_profile(const struct afdo_options *o, struct profile *p,
			 char *err, size_t errlen)
{
	FILE *f;
	size_t i;
	int r = 0;

	qsort(p->top, p->nr_top, sizeof(*p->top), top_cmp);
	for (i = 0; i < p->nr_top; i++)
		sort_instance(p->top[i]);
	if (o->dump) {
		for (i = 0; i < p->nr_top; i++) {
			const struct instance *in = p->top[i];

			fprintf(o->dump, "%s:%" PRIu64 ":%" PRIu64 "\n",
				p->names[in->name], total(in), in->head);
			dump_instance(o->dump, p, in, 1, o->llvm);
		}
	}
	if (!o->output)
		return 0;
	f = fopen(o->output, "wb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", o->output, strerror(errno));
		return -1;
	}
	if (o->llvm) {
		/* LLVM's text format is the dump: "name:total:head", then
		 * " offset[.discriminator]: count [target:count...]", inlined
		 * callees as " offset: callee:total" with their lines one
		 * level deeper (SampleProfReader's text reader). */
		for (i = 0; i < p->nr_top; i++) {
			const struct instance *in = p->top[i];

			fprintf(f, "%s:%" PRIu64 ":%" PRIu64 "\n",
				p->names[in->name], total(in), in->head);
			dump_instance(f, p, in, 1, 1);
		}
		if (ferror(f) | fclose(f)) {
			snprintf(err, errlen, "%s: write failed", o->output);
			return -1;
		}
		return 0;
	}
	r |= put32(f, GCOV_DATA_MAGIC);
	r |= put32(f, AFDO_VERSION);
	r |= put32(f, 0);
	r |= put32(f, GCOV_TAG_AFDO_FILE_NAMES);
	r |= put32(f, 0);		/* section length: GCC skips it */
	r |= put32(f, (uint32_t)p->nr_names);
	for (i = 0; i < p->nr_names; i++)
		r |= put_str(f, p->names[i]);
	r |= put32(f, GCOV_TAG_AFDO_FUNCTION);
	r |= put32(f, 0);
	r |= put32(f, (uint32_t)p->nr_top);
	for (i = 0; i < p->nr_top; i++) {
		r |= put64(f, p->top[i]->head);
		r |= write_instance(f, p->top[i]);
	}
	r |= put32(f, GCOV_TAG_AFDO_MODULE_GROUPING);
	r |= put32(f, 0);
	r |= put32(f, 0);		/* no modules (LIPO is gone) */
	if (fclose(f) || r) {
		snprintf(err, errlen, "%s: write failed", o->output);
		return -1;
	}
	return 0;
}

int afdo_create(const struct afdo_options *o, struct afdo_stats *st,
		char *err, size_t errlen)
{
	struct binary b;
	struct pair_map branches = { 0 }, ranges = { 0 };
	struct profile p = { 0 };
	size_t i;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (load_binary(&b, o->elf, err, errlen))
		goto out;
	/* Index 0 stays unused: some GCC versions assert that a name index
	 * they look up is positive. */
	if (name_index(&p, "") != 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* Each recording adds to the same counts of branch and range pairs:
	 * many runs (or machines) make one profile, and memory holds the
	 * distinct pairs, whatever the number of files. */
	for (i = 0; i < (o->nr_inputs ? o->nr_inputs : 1); i++)
		if (read_samples(o, o->nr_inputs ? o->inputs[i] : o->perf_data,
				 &b, &branches, &ranges, st, err, errlen))
			goto out;
	if (!st->samples) {
		snprintf(err, errlen,
			 "%s: no samples with a branch stack (record with -b or -j)",
			 o->nr_inputs ? o->inputs[0] : o->perf_data);
		goto out;
	}
	if (build(&p, &b, &branches, &ranges, st)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	st->functions = (unsigned int)p.nr_top;
	ret = write_profile(o, &p, err, errlen);
out:
	free_binary(&b);
	free(branches.e);
	free(ranges.e);
	for (i = 0; i < p.nr_top; i++)
		free_instance(p.top[i]);
	for (i = 0; i < p.nr_names; i++)
		free(p.names[i]);
	free(p.top);
	free(p.names);
	return ret;
}
