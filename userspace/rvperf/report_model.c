// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_model.c - the analysis behind `rvperf report` (report_model.h):
 *
 *   hottest branch edges   every (from, to) pair in every stack, counted
 *   hot loops              natural loops of the control-flow graph of each
 *                          function the hot edges are in (decoded from the
 *                          binary: basic blocks, dominators, back-edges),
 *                          with iterations per entry and exits by way
 *   indirect transfers     each indirect jump or call and its targets
 *   self overhead          samples per function and per source line
 *   annotation             the hottest functions, instruction by instruction
 *   call edges             caller -> callee for call records
 *   samples per function   from each sample's IP
 *
 * Trip counts: a branch stack is newest first, and between two consecutive
 * records the program ran straight from the older record's target to the
 * newer record's source.  Over each such pair the newer record may be a
 * back-edge of the loop (an iteration), or leave the loop (an exit: a
 * return from inside it, a branch or jump out of it; calls come back and
 * are not exits), or the straight run may fall out of the loop (an exit:
 * it passes the last instruction of a block in the loop whose next block
 * is outside).  Iterations per entry = (taken + exits) / exits, both
 * counted over the same pairs, so what a stack's ends cut off costs both
 * alike.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/dwarf/dw_chain.h"
#include "userspace/elf/elf_syms.h"
#include "report_model.h"
#include "qemu-model/core/insnhw.h"
#include "rvperf/ctr.h"
#include "userspace/tv/tv_disas.h"

#define PERF_BR_COND		1
#define PERF_BR_IND		3
#define PERF_BR_CALL		4
#define PERF_BR_IND_CALL	5
#define PERF_BR_RET		6

struct mapping {
	uint64_t start, len, pgoff;
	char *file;		/* symbols from here; NULL: none */
	char *dso;		/* the recorded name; NULL: file's */
	struct elf_syms *elf;	/* NULL until looked up; see elf_failed */
	int elf_failed;
	unsigned char *image;	/* the file's bytes, for its code */
	size_t image_size;
	int image_failed;
	struct dw_info *dw;	/* its source lines */
	int dw_failed;
	struct report_model *model;	/* takes the warnings about file */
};

/*
 * Distinct keys of kw 64-bit words, each with a count: an open-addressed
 * hash table (linear probing, at most half full).  What the samples say is
 * tallied as they come, so memory follows what is distinct (edges, pairs
 * of consecutive records, IPs), not how many samples and records a
 * recording holds, nor how many recordings are read.
 */
struct tally {
	uint64_t *slot;		/* cap entries of kw + 1 words; count 0: free */
	size_t kw, cap, n;
};

/* The tallies' keys. */
enum { EDGE_KW = 3, PAIR_KW = 4, IP_KW = 1, SORT_KW = 4 };

struct report_model_input {
	struct mapping *maps;
	size_t nr_maps;
	/* (from, to, type | new_type << 32) of every record */
	struct tally edges;
	/* every two consecutive records of a stack: (the older record's
	 * target, the newer's source, its target, its PERF_BR_* type), the
	 * straight run between them and where it went (measure_loop()) */
	struct tally pairs;
	struct tally ips;		/* each sample's IP */
	uint64_t samples, records;
	char **labels;			/* source-line rows' inline chains */
	size_t nr_labels;
	/* --sort: (pid << 32 | tid, comm, ip or from, 0 or to), counted
	 * and weighed by period */
	struct tally sort_count, sort_period;
	char **comms;			/* the tasks' names, each once */
	size_t nr_comms;
	/* -g: the distinct call chains (callers' addresses), found by a
	 * 64-bit hash of the addresses (chain_ids: hash -> id + 1) */
	struct chain {
		uint64_t *addr;
		size_t n;
		char *names;		/* filled by the analysis */
	} *chain;
	size_t nr_chains;
	struct tally chain_ids;
};

static uint64_t tally_hash(const uint64_t *key, size_t kw)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < kw; i++) {
		h ^= key[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h;
}

static uint64_t *tally_find(uint64_t *slot, size_t kw, size_t cap,
			    const uint64_t *key)
{
	size_t i = tally_hash(key, kw) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		uint64_t *e = slot + i * (kw + 1);

		if (!e[kw] || !memcmp(e, key, kw * sizeof(*key)))
			return e;
	}
}

/* Adds count to key's.  0, or -1 when out of memory. */
static int tally_add(struct tally *t, const uint64_t *key, uint64_t count)
{
	uint64_t *e;
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		uint64_t *slot = calloc(cap, (t->kw + 1) * sizeof(*slot));

		if (!slot)
			return -1;
		for (i = 0; i < t->cap; i++) {
			const uint64_t *old = t->slot + i * (t->kw + 1);

			if (old[t->kw])
				memcpy(tally_find(slot, t->kw, cap, old), old,
				       (t->kw + 1) * sizeof(*old));
		}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	e = tally_find(t->slot, t->kw, t->cap, key);
	if (!e[t->kw]) {
		memcpy(e, key, t->kw * sizeof(*key));
		t->n++;
	}
	e[t->kw] += count;
	return 0;
}

/* The i-th slot's key, or NULL when it is free. */
static const uint64_t *tally_at(const struct tally *t, size_t i,
				uint64_t *count)
{
	const uint64_t *e = t->slot + i * (t->kw + 1);

	*count = e[t->kw];
	return *count ? e : NULL;
}

/* A sample's IP and how many samples have it. */
struct ip_count {
	uint64_t ip, count;
};

/* ---- addresses to names */

/* Adds "file: what" to the model's warnings, once per file. */
static void warn_file(struct report_model *model, const char *file,
		      const char *what)
{
	size_t i, len = strlen(file);
	char **p, *w;

	for (i = 0; i < model->nr_warnings; i++)
		if (!strncmp(model->warnings[i], file, len) &&
		    model->warnings[i][len] == ':')
			return;
	p = realloc(model->warnings, (model->nr_warnings + 1) * sizeof(*p));
	if (!p)
		return;
	model->warnings = p;
	w = malloc(len + strlen(what) + 3);
	if (!w)
		return;
	sprintf(w, "%s: %s", file, what);
	model->warnings[model->nr_warnings++] = w;
}

static struct elf_syms *elf_for(struct mapping *m)
{
	if (m->elf || m->elf_failed || !m->file)
		return m->elf;
	m->elf = calloc(1, sizeof(*m->elf));
	if (!m->elf || elf_syms_load(m->elf, m->file)) {
		if (m->elf && m->model && !elf_pseudo_file(m->file)) {
			char what[sizeof(m->elf->error) + 40];

			snprintf(what, sizeof(what), "%s (its addresses stay "
				 "unnamed)", m->elf->error);
			warn_file(m->model, m->file, what);
		}
		free(m->elf);
		m->elf = NULL;
		m->elf_failed = 1;
	} else if (m->elf->warning[0] && m->model) {
		warn_file(m->model, m->file, m->elf->warning);
	}
	return m->elf;
}

static const unsigned char *image_for(struct mapping *m, size_t *size)
{
	FILE *f;
	long n;

	if (!m->image && !m->image_failed && m->file) {
		m->image_failed = 1;
		f = fopen(m->file, "rb");
		if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
		    fseek(f, 0, SEEK_SET) == 0 && (m->image = malloc(n))) {
			if (fread(m->image, 1, n, f) == (size_t)n) {
				m->image_size = n;
				m->image_failed = 0;
			} else {
				free(m->image);
				m->image = NULL;
			}
		}
		if (f)
			fclose(f);
	}
	*size = m->image_size;
	return m->image;
}

static struct dw_info *dw_for(struct mapping *m)
{
	if (m->dw || m->dw_failed || !m->file)
		return m->dw;
	m->dw = calloc(1, sizeof(*m->dw));
	if (!m->dw || dw_load(m->dw, m->file) || !m->dw->nr_lines) {
		if (m->dw)
			dw_free(m->dw);
		free(m->dw);
		m->dw = NULL;
		m->dw_failed = 1;
	}
	return m->dw;
}

static struct mapping *mapping_of(struct report_model_input *rp,
				  uint64_t addr)
{
	size_t i = rp->nr_maps;

	while (i--)	/* the latest mapping wins */
		if (addr >= rp->maps[i].start &&
		    addr - rp->maps[i].start < rp->maps[i].len)
			return &rp->maps[i];
	return NULL;
}

/* The function holding a runtime address, and the link-time address. */
static const struct elf_sym *symbol_of(struct report_model_input *rp,
				       uint64_t addr, uint64_t *link_addr)
{
	struct mapping *m = mapping_of(rp, addr);
	struct elf_syms *es = m ? elf_for(m) : NULL;
	uint64_t vaddr;

	if (!es)
		return NULL;
	if (!elf_offset_to_vaddr(es, addr - m->start + m->pgoff, &vaddr))
		return NULL;
	if (link_addr)
		*link_addr = vaddr;
	return elf_syms_find(es, vaddr);
}

void report_model_name_addr(const struct report_model *m, uint64_t addr,
			    char *buf, size_t size)
{
	uint64_t vaddr = 0;
	const struct elf_sym *s = symbol_of(m->in, addr, &vaddr);

	if (s)
		snprintf(buf, size, "%s+0x%" PRIx64, s->name, vaddr - s->addr);
	else
		snprintf(buf, size, "0x%" PRIx64, addr);
}

static const char *function_of(struct report_model_input *rp,
			       uint64_t addr)
{
	const struct elf_sym *s = symbol_of(rp, addr, NULL);

	return s ? s->name : NULL;
}

/* The instruction at a runtime address: its length (0: not in a file we
 * have) and its bits. */
static unsigned int insn_at(struct report_model_input *rp, uint64_t addr,
			    uint32_t *word)
{
	struct mapping *m = mapping_of(rp, addr);
	struct elf_syms *es = m ? elf_for(m) : NULL;
	const unsigned char *img;
	uint64_t off;
	size_t size, i;

	if (!es || !(img = image_for(m, &size)))
		return 0;
	off = addr - m->start + m->pgoff;
	for (i = 0; i < es->nr_segments; i++) {
		const struct elf_segment *sg = &es->segments[i];

		if (off < sg->offset || off + 2 > sg->offset + sg->filesz ||
		    off + 2 > size)
			continue;
		*word = img[off] | (uint32_t)img[off + 1] << 8;
		if ((*word & 3) != 3)
			return 2;
		if (off + 4 > sg->offset + sg->filesz || off + 4 > size)
			return 0;
		*word |= (uint32_t)img[off + 2] << 16 |
			 (uint32_t)img[off + 3] << 24;
		return 4;
	}
	return 0;
}

/* The source position of a runtime address (where the code was
 * written: the innermost frame of its inline chain); 0 when unknown. */
static int line_of(struct report_model_input *rp, uint64_t addr,
		   const char **file, unsigned int *line)
{
	struct mapping *m = mapping_of(rp, addr);
	struct elf_syms *es = m ? elf_for(m) : NULL;
	struct dw_info *dw = es ? dw_for(m) : NULL;
	struct dw_frame fr[16];
	uint64_t vaddr;

	if (!dw || !elf_offset_to_vaddr(es, addr - m->start + m->pgoff, &vaddr) ||
	    dw_lookup(dw, vaddr, fr, 16) <= 0 || !fr[0].file)
		return 0;
	*file = fr[0].file;
	*line = fr[0].line;
	return 1;
}

/* A source-line row's position and function for a runtime address, as
 * `addr2line -i` attributes it: code inlined from another function is that
 * function's ("match_len, inlined in find_long"; deeper nests name each
 * level), code of the function itself keeps its symbol's name.  The
 * outermost level is the symbol's name when there is one (a clone such as
 * foo.part.0 is not foo), so a row agrees with the function table.
 * *file is NULL without line information; the function NULL when
 * unknown; *owned is set to a string the caller keeps. */
static const char *line_function(struct report_model_input *rp,
				 uint64_t addr, const char **file,
				 unsigned int *line, char **owned)
{
	struct mapping *m = mapping_of(rp, addr);
	struct elf_syms *es = m ? elf_for(m) : NULL;
	struct dw_info *dw = es ? dw_for(m) : NULL;
	const char *outer = function_of(rp, addr);
	struct dw_frame fr[16];
	uint64_t vaddr;
	size_t len = 0, at = 0;
	char *s;
	int n = 0, k;

	*owned = NULL;
	*file = NULL;
	if (dw && elf_offset_to_vaddr(es, addr - m->start + m->pgoff, &vaddr))
		n = dw_lookup(dw, vaddr, fr, 16);
	if (n > 0 && fr[0].file) {	/* as line_of() */
		*file = fr[0].file;
		*line = fr[0].line;
	}
	if (n <= 1)
		return outer;
	if (!outer)
		outer = fr[n - 1].name;
	for (k = 0; k < n - 1; k++)
		len += strlen(fr[k].name) + sizeof(", inlined in ");
	len += strlen(outer) + 1;
	s = malloc(len);
	if (!s)
		return outer;
	for (k = 0; k < n; k++)
		at += (size_t)snprintf(s + at, len - at, "%s%s",
				       k ? ", inlined in " : "",
				       k == n - 1 ? outer : fr[k].name);
	*owned = s;
	return s;
}

void report_model_line_addr(const struct report_model *m, uint64_t addr,
			    char *buf, size_t size)
{
	const char *file, *base;
	unsigned int line;

	if (!line_of(m->in, addr, &file, &line)) {
		snprintf(buf, size, "%s", "");
		return;
	}
	base = strrchr(file, '/');
	snprintf(buf, size, "%s:%u", base ? base + 1 : file, line);
}

/* The function holding a runtime address: name, runtime start, size. */
static const char *function_span(struct report_model_input *rp, uint64_t addr,
				 uint64_t *start, uint64_t *size)
{
	uint64_t vaddr;
	const struct elf_sym *s = symbol_of(rp, addr, &vaddr);

	if (!s)
		return NULL;
	*start = addr - (vaddr - s->addr);
	*size = s->size;
	return s->name;
}

/* ---- what producers feed */

int report_model_add_sample(struct report_model *model, uint64_t ip,
			    const struct pd_branch *branches, size_t nr)
{
	struct report_model_input *rp = model->in;
	size_t i;

	if (tally_add(&rp->ips, &ip, 1))
		return -1;
	rp->samples++;
	for (i = 0; i < nr; i++) {
		const struct pd_branch *b = &branches[i];
		uint64_t key[PAIR_KW] = {
			b->from, b->to, PD_BR_TYPE(b->flags) |
			(uint64_t)PD_BR_NEW_TYPE(b->flags) << 32,
		};

		if (tally_add(&rp->edges, key, 1))
			return -1;
		if (i + 1 < nr) {
			/* newest first: the straight run from the older
			 * record's target to this one's source */
			key[0] = branches[i + 1].to;
			key[1] = b->from;
			key[2] = b->to;
			key[3] = PD_BR_TYPE(b->flags);
			if (tally_add(&rp->pairs, key, 1))
				return -1;
		}
	}
	rp->records += nr;
	return 0;
}

int report_model_add_mapping(struct report_model *model, uint64_t start,
			     uint64_t len, uint64_t pgoff,
			     const char *symbol_file)
{
	struct report_model_input *rp = model->in;
	struct mapping *m;
	size_t cap = rp->nr_maps;

	m = realloc(rp->maps, (cap + 1) * sizeof(*m));
	if (!m)
		return -1;
	rp->maps = m;
	m += rp->nr_maps++;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	m->model = model;
	if (!symbol_file)
		return 0;
	m->file = strdup(symbol_file);
	return m->file ? 0 : -1;
}

int report_model_name_mapping(struct report_model *model, const char *dso)
{
	struct report_model_input *rp = model->in;
	struct mapping *m;

	if (!rp->nr_maps)
		return 0;
	m = &rp->maps[rp->nr_maps - 1];
	free(m->dso);
	m->dso = strdup(dso);
	return m->dso ? 0 : -1;
}

/* ---- perf report --sort */

static const struct {
	const char *name;
	enum report_key key;
	const char *heading;
} sort_keys[] = {
	{ "comm", REPORT_KEY_COMM, "Command" },
	{ "pid", REPORT_KEY_PID, "Pid:Command" },
	{ "tid", REPORT_KEY_TID, "Tid" },
	{ "tgid", REPORT_KEY_TGID, "Tgid:Command" },
	{ "dso", REPORT_KEY_DSO, "Shared Object" },
	{ "sym", REPORT_KEY_SYM, "Symbol" },
	{ "symbol", REPORT_KEY_SYM, "Symbol" },
	{ "srcline", REPORT_KEY_SRCLINE, "Source:Line" },
	{ "dso_from", REPORT_KEY_DSO_FROM, "Source Shared Object" },
	{ "dso_to", REPORT_KEY_DSO_TO, "Target Shared Object" },
	{ "symbol_from", REPORT_KEY_SYM_FROM, "Source Symbol" },
	{ "symbol_to", REPORT_KEY_SYM_TO, "Target Symbol" },
	{ "srcline_from", REPORT_KEY_SRCLINE_FROM, "From Source:Line" },
	{ "srcline_to", REPORT_KEY_SRCLINE_TO, "To Source:Line" },
};

const char *report_key_heading(enum report_key key)
{
	size_t i;

	for (i = 0; i < sizeof(sort_keys) / sizeof(sort_keys[0]); i++)
		if (sort_keys[i].key == key)
			return sort_keys[i].heading;
	return "?";
}

int report_model_sort_by(struct report_model *m, const char *keys, int branch,
			 char *err, size_t errlen)
{
	struct report_sort *so = &m->sort;
	const char *p = keys;

	so->nr_keys = 0;
	so->branch = branch;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(sort_keys) / sizeof(sort_keys[0]); i++)
			if (strlen(sort_keys[i].name) == len &&
			    !strncmp(p, sort_keys[i].name, len))
				break;
		if (i == sizeof(sort_keys) / sizeof(sort_keys[0])) {
			snprintf(err, errlen, "--sort: unknown key '%.*s' (comm, "
				 "pid, tid, tgid, dso, sym, srcline; with branch "
				 "stacks dso_from, dso_to, symbol_from, symbol_to, "
				 "srcline_from, srcline_to)", (int)len, p);
			return -1;
		}
		if (sort_keys[i].key >= REPORT_KEY_DSO_FROM && !branch) {
			snprintf(err, errlen, "--sort: %s is a key of branch "
				 "records, and this report is of samples (a "
				 "recording without branch stacks, or "
				 "--no-branch-stack)", sort_keys[i].name);
			return -1;
		}
		if (so->nr_keys == REPORT_MAX_KEYS) {
			snprintf(err, errlen, "--sort: at most %d keys",
				 REPORT_MAX_KEYS);
			return -1;
		}
		so->keys[so->nr_keys++] = sort_keys[i].key;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(err, errlen, "--sort: a key after every comma");
			return -1;
		}
	}
	if (!so->nr_keys) {
		snprintf(err, errlen, "--sort wants keys");
		return -1;
	}
	m->in->sort_count.kw = SORT_KW;
	m->in->sort_period.kw = SORT_KW;
	return 0;
}

/* The index of COMM among the tasks' names: -1 when out of memory. */
static int64_t comm_index(struct report_model_input *rp, const char *comm)
{
	char **v;
	size_t i = rp->nr_comms;

	/* few names, and a task's samples come together: from the end */
	while (i--)
		if (!strcmp(rp->comms[i], comm))
			return (int64_t)i;
	v = realloc(rp->comms, (rp->nr_comms + 1) * sizeof(*v));
	if (!v)
		return -1;
	rp->comms = v;
	v[rp->nr_comms] = strdup(comm);
	if (!v[rp->nr_comms])
		return -1;
	return (int64_t)rp->nr_comms++;
}

/* The id + 1 of a call chain, added when new; 0 when out of memory. */
static uint64_t chain_id(struct report_model_input *rp, const uint64_t *addr,
			 size_t n)
{
	uint64_t h = tally_hash(addr, n) ^ n, *e;
	struct chain *c;

	rp->chain_ids.kw = 1;
	if (rp->chain_ids.cap &&
	    (e = tally_find(rp->chain_ids.slot, 1, rp->chain_ids.cap, &h))[1])
		return e[1];
	c = realloc(rp->chain, (rp->nr_chains + 1) * sizeof(*c));
	if (!c)
		return 0;
	rp->chain = c;
	c += rp->nr_chains;
	c->n = n;
	c->names = NULL;
	c->addr = malloc((n ? n : 1) * sizeof(*addr));
	if (!c->addr)
		return 0;
	memcpy(c->addr, addr, n * sizeof(*addr));
	rp->nr_chains++;
	return tally_add(&rp->chain_ids, &h, rp->nr_chains) ? 0 : rp->nr_chains;
}

int report_model_add_task_sample(struct report_model *m,
				 const struct report_task *task, uint64_t ip,
				 uint64_t period, const struct pd_branch *branches,
				 size_t nr, const uint64_t *callers,
				 size_t nr_callers)
{
	struct report_model_input *rp = m->in;
	struct report_sort *so = &m->sort;
	char unknown[16];
	uint64_t key[SORT_KW];
	int64_t comm;
	size_t i;

	if (!task->comm)	/* as perf names a task it saw no COMM of */
		snprintf(unknown, sizeof(unknown), ":%" PRIu32, task->tid);
	comm = comm_index(rp, task->comm ? task->comm : unknown);
	if (comm < 0)
		return -1;
	key[0] = (uint64_t)task->pid << 32 | task->tid;
	key[1] = (uint64_t)comm;
	if (!so->branch) {
		key[2] = ip;
		key[3] = so->chains ? chain_id(rp, callers, nr_callers) : 0;
		if (so->chains && !key[3])
			return -1;
		so->samples++;
		so->period += period;
		return tally_add(&rp->sort_count, key, 1) ||
		       (period && tally_add(&rp->sort_period, key, period)) ?
		       -1 : 0;
	}
	/* perf report's branch mode: each record weighs 1 */
	for (i = 0; i < nr; i++) {
		key[2] = branches[i].from;
		key[3] = branches[i].to;
		if (tally_add(&rp->sort_count, key, 1))
			return -1;
	}
	so->samples += nr;
	so->period += nr;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One key's value of a tally entry, as perf prints it, in buf. */
static void sort_value(struct report_model *an, enum report_key key,
		       const uint64_t *k, char *buf, size_t size)
{
	struct report_model_input *rp = an->in;
	uint32_t pid = (uint32_t)(k[0] >> 32), tid = (uint32_t)k[0];
	const char *comm = rp->comms[k[1]], *name, *file;
	/* dso, sym and srcline: the sample's IP, or in branch mode the
	 * record's target, as perf's branch mode shows them */
	uint64_t addr = an->sort.branch ? k[3] : k[2];
	const struct mapping *m;
	unsigned int line;

	switch (key) {
	case REPORT_KEY_COMM:
		snprintf(buf, size, "%s", comm);
		return;
	case REPORT_KEY_PID:	/* perf's pid: the task, by its tid */
		snprintf(buf, size, "%7" PRIu32 ":%s", tid, comm);
		return;
	case REPORT_KEY_TID:
		snprintf(buf, size, "%" PRIu32, tid);
		return;
	case REPORT_KEY_TGID:
		snprintf(buf, size, "%7" PRIu32 ":%s", pid, comm);
		return;
	case REPORT_KEY_DSO_FROM:
	case REPORT_KEY_SYM_FROM:
	case REPORT_KEY_SRCLINE_FROM:
		addr = k[2];
		break;
	case REPORT_KEY_DSO_TO:
	case REPORT_KEY_SYM_TO:
	case REPORT_KEY_SRCLINE_TO:
		addr = k[3];
		break;
	default:
		break;
	}
	switch (key) {
	case REPORT_KEY_DSO:
	case REPORT_KEY_DSO_FROM:
	case REPORT_KEY_DSO_TO:
		m = mapping_of(rp, addr);
		name = m ? (m->dso ? m->dso : m->file) : NULL;
		snprintf(buf, size, "%s", name ? base_name(name) : "[unknown]");
		return;
	case REPORT_KEY_SYM:
	case REPORT_KEY_SYM_FROM:
	case REPORT_KEY_SYM_TO:
		name = function_of(rp, addr);
		if (name)
			snprintf(buf, size, "[.] %s", name);
		else
			snprintf(buf, size, "[.] 0x%016" PRIx64, addr);
		return;
	default:
		if (line_of(rp, addr, &file, &line))
			snprintf(buf, size, "%s:%u", base_name(file), line);
		else
			snprintf(buf, size, "??:0");
		return;
	}
}

static int cmp_row_key(const void *a, const void *b)
{
	return strcmp(((const struct report_row *)a)->value[0],
		      ((const struct report_row *)b)->value[0]);
}

static int cmp_row(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;
	size_t i;
	int c;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	for (i = 0; i < REPORT_MAX_KEYS && x->value[i]; i++)
		if ((c = strcmp(x->value[i], y->value[i])))
			return c;
	return 0;
}

/* A chain's function names, callee first ("f <- g"; "" when the sample
 * has no callers); the chain owns them. */
static const char *chain_names(struct report_model *an, uint64_t id)
{
	struct chain *c = &an->in->chain[id - 1];
	size_t i, len = 1;
	char name[32];
	const char *f;

	if (c->names)
		return c->names;
	for (i = 0; i < c->n; i++) {
		f = function_of(an->in, c->addr[i]);
		len += (f ? strlen(f) : 18) + 4;
	}
	c->names = malloc(len);
	if (!c->names)
		return NULL;
	c->names[0] = '\0';
	for (i = 0; i < c->n; i++) {
		f = function_of(an->in, c->addr[i]);
		if (!f) {
			snprintf(name, sizeof(name), "0x%" PRIx64, c->addr[i]);
			f = name;
		}
		if (i)
			strcat(c->names, " <- ");
		strcat(c->names, f);
	}
	return c->names;
}

/* Adds FROM's chains (one, before the merge) to R's, the same names
 * counted once; FROM's list goes. */
static int add_row_chain(struct report_row *r, struct report_row *from)
{
	struct report_chain *c;
	size_t k;

	for (k = 0; k < r->nr_chains; k++)
		if (!strcmp(r->chains[k].names, from->chains->names))
			break;
	if (k < r->nr_chains) {
		r->chains[k].samples += from->chains->samples;
	} else {
		c = realloc(r->chains, (r->nr_chains + 1) * sizeof(*c));
		if (!c)
			return -1;
		r->chains = c;
		r->chains[r->nr_chains++] = *from->chains;
	}
	free(from->chains);
	from->chains = NULL;
	return 0;
}

static int cmp_chain(const void *a, const void *b)
{
	const struct report_chain *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->names, y->names);
}

int report_model_analyse_sort(struct report_model *an)
{
	struct report_model_input *rp = an->in;
	struct report_sort *so = &an->sort;
	const struct tally *t = &rp->sort_count;
	char buf[REPORT_MAX_KEYS * 512], *p;
	size_t i, j, n = 0;
	uint64_t count, period;

	so->rows = calloc(t->n + 1, sizeof(*so->rows));
	if (!so->rows)
		return -1;
	/* each distinct entry's values, joined by \x1f: equal strings are
	 * one row */
	for (i = 0; i < t->cap; i++) {
		const uint64_t *k = tally_at(t, i, &count);
		size_t len = 0;

		if (!k)
			continue;
		for (j = 0; j < so->nr_keys; j++) {
			if (j)
				buf[len++] = '\x1f';
			sort_value(an, so->keys[j], k, buf + len,
				   sizeof(buf) - len);
			len += strlen(buf + len);
		}
		if (so->branch) {
			period = count;
		} else {
			const uint64_t *e = rp->sort_period.cap ?
				tally_find(rp->sort_period.slot, SORT_KW,
					   rp->sort_period.cap, k) : NULL;

			period = e ? e[SORT_KW] : 0;
		}
		so->rows[n].value[0] = strdup(buf);
		if (!so->rows[n].value[0])
			return -1;
		if (so->chains) {	/* the entry's one chain, for now */
			so->rows[n].chains = malloc(sizeof(*so->rows[n].chains));
			if (!so->rows[n].chains ||
			    !(so->rows[n].chains->names = chain_names(an, k[3])))
				return -1;
			so->rows[n].chains->samples = count;
			so->rows[n].nr_chains = 1;
		}
		so->rows[n].samples = count;
		so->rows[n++].period = period;
	}
	qsort(so->rows, n, sizeof(*so->rows), cmp_row_key);
	for (i = 0, j = 0; i < n; i++) {
		struct report_row *r = &so->rows[j - (j > 0)];

		if (j && !strcmp(r->value[0], so->rows[i].value[0])) {
			r->samples += so->rows[i].samples;
			r->period += so->rows[i].period;
			free(so->rows[i].value[0]);
			if (so->chains && add_row_chain(r, &so->rows[i]))
				return -1;
			continue;
		}
		so->rows[j++] = so->rows[i];
	}
	so->nr_rows = j;
	for (i = 0; i < so->nr_rows; i++)
		qsort(so->rows[i].chains, so->rows[i].nr_chains,
		      sizeof(*so->rows[i].chains), cmp_chain);
	for (i = 0; i < so->nr_rows; i++) {
		p = so->rows[i].value[0];
		for (j = 1; j < so->nr_keys; j++) {
			p = strchr(p, '\x1f');
			*p++ = '\0';
			so->rows[i].value[j] = p;
		}
	}
	qsort(so->rows, so->nr_rows, sizeof(*so->rows), cmp_row);
	return 0;
}

/* ---- the three tables */

static int cmp_edge_addr(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->type != y->type)
		return (int)x->type - (int)y->type;
	return (int)x->new_type - (int)y->new_type;
}

static int cmp_edge_count(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_edge_addr(a, b);
}

/* Distinct (from, to, type) with counts, most frequent first. */
static struct edge *count_edges(struct report_model_input *rp, size_t *nr)
{
	struct edge *e = calloc(rp->edges.n + 1, sizeof(*e));
	size_t i, n = 0;
	uint64_t count;

	if (!e)
		return NULL;
	for (i = 0; i < rp->edges.cap; i++) {
		const uint64_t *k = tally_at(&rp->edges, i, &count);

		if (!k)
			continue;
		e[n].from = k[0];
		e[n].to = k[1];
		e[n].type = (unsigned int)k[2];
		e[n].new_type = (unsigned int)(k[2] >> 32);
		e[n++].count = count;
	}
	qsort(e, n, sizeof(*e), cmp_edge_count);
	*nr = n;
	return e;
}

const char *edge_type_name(const struct edge *e)
{
	const char *name = pd_branch_type_name(e->type, e->new_type);

	return *name ? name : "-";
}

/* ---- natural loops */

/* A basic block of a function: instructions [first, end) of its list. */
struct block {
	uint64_t start, last;		/* first and last instruction */
	uint64_t end;			/* the address after it */
	int succ[2];			/* -1: none; more for indirect jumps */
	int *more;			/* an indirect jump's other successors */
	size_t nr_more;
	int fall;			/* succ that is the next block, or -1 */
	int ret;			/* ends in a return */
	int rpo, idom;
};

struct cfg {
	struct block *b;
	size_t n;
	const char *func;
	uint64_t start, size;
};

static void cfg_free(struct cfg *g)
{
	size_t i;

	for (i = 0; g->b && i < g->n; i++)
		free(g->b[i].more);
	free(g->b);
	memset(g, 0, sizeof(*g));
}

static int block_at(const struct cfg *g, uint64_t addr)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (addr < g->b[mid].start)
			hi = mid;
		else if (addr >= g->b[mid].end)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define MAX_FUNC_INSNS	20000

/* The control-flow graph of the function at [start, start + size): its
 * code decoded, blocks split at every transfer and every target (an
 * indirect jump's targets as the records show them).  -1 when the code
 * is not there. */
static int build_cfg(struct report_model *an, struct cfg *g)
{
	struct report_model_input *rp = an->in;
	uint64_t *addr = NULL, *leader = NULL;
	struct insnhw_class *cls = NULL;
	size_t n = 0, nl = 0, i, j;
	uint64_t pc = g->start;
	int rc = -1;

	addr = malloc(MAX_FUNC_INSNS * sizeof(*addr));
	cls = malloc(MAX_FUNC_INSNS * sizeof(*cls));
	leader = malloc((2 * MAX_FUNC_INSNS + an->nr_edges + 1) * sizeof(*leader));
	if (!addr || !cls || !leader)
		goto out;
	while (pc < g->start + g->size && n < MAX_FUNC_INSNS) {
		uint32_t w;
		unsigned int len = insn_at(rp, pc, &w);

		if (!len)
			goto out;
		insnhw_classify(w, 64, 0, true, &cls[n]);
		addr[n++] = pc;
		pc += len;
	}
	if (!n)
		goto out;
	leader[nl++] = g->start;
	for (i = 0; i < n; i++) {
		const struct insnhw_class *c = &cls[i];
		uint64_t next = i + 1 < n ? addr[i + 1] : pc;

		if (c->type == RVP_CTRDATA_TYPE_NONE ||
		    c->type == RVP_CTRDATA_TYPE_INDIRECT_CALL ||
		    c->type == RVP_CTRDATA_TYPE_DIRECT_CALL ||
		    c->type == RVP_CTRDATA_TYPE_EXCEPTION)
			continue;
		leader[nl++] = next;
		if (c->direct && !c->table_jump)
			leader[nl++] = addr[i] + (uint64_t)c->offset;
	}
	for (i = 0; i < an->nr_edges; i++)	/* indirect jumps' targets */
		if (an->edges[i].type == PERF_BR_IND &&
		    an->edges[i].from >= g->start && an->edges[i].from < pc &&
		    an->edges[i].to >= g->start && an->edges[i].to < pc)
			leader[nl++] = an->edges[i].to;
	qsort(leader, nl, sizeof(*leader), cmp_u64);
	g->b = calloc(nl + 1, sizeof(*g->b));
	if (!g->b)
		goto out;
	/* Blocks: from each leader that starts an instruction to the next. */
	for (i = 0, j = 0; i < n; i++) {
		while (j < nl && leader[j] < addr[i])
			j++;
		if (i == 0 || (j < nl && leader[j] == addr[i])) {
			if (g->n)
				g->b[g->n - 1].end = addr[i];
			g->b[g->n].start = addr[i];
			g->n++;
		}
		g->b[g->n - 1].last = addr[i];
	}
	g->b[g->n - 1].end = pc;
	for (i = 0, j = 0; i < g->n; i++) {
		struct block *b = &g->b[i];
		const struct insnhw_class *c;
		int fall = i + 1 < g->n ? (int)i + 1 : -1;

		while (addr[j] != b->last)
			j++;
		c = &cls[j];
		b->succ[0] = b->succ[1] = b->fall = -1;
		switch (c->type) {
		case RVP_CTRDATA_TYPE_NONE:
		case RVP_CTRDATA_TYPE_INDIRECT_CALL:
		case RVP_CTRDATA_TYPE_DIRECT_CALL:
		case RVP_CTRDATA_TYPE_EXCEPTION:
			b->succ[0] = b->fall = fall;
			break;
		case RVP_CTRDATA_TYPE_INDIRECT_JUMP:
		case RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP: {
			size_t k;

			for (k = 0; k < an->nr_edges; k++) {
				int t;
				int *more;

				if (an->edges[k].type != PERF_BR_IND ||
				    an->edges[k].from != b->last ||
				    (t = block_at(g, an->edges[k].to)) < 0)
					continue;
				if (b->succ[0] < 0) {
					b->succ[0] = t;
					continue;
				}
				more = realloc(b->more, (b->nr_more + 1) * sizeof(*more));
				if (!more)
					goto out;
				b->more = more;
				b->more[b->nr_more++] = t;
			}
			break;
		}
		default:
			if (c->conditional) {
				b->succ[0] = block_at(g, b->last + (uint64_t)c->offset);
				b->succ[1] = b->fall = fall;
			} else if (c->direct && !c->table_jump &&
				   c->type != RVP_CTRDATA_TYPE_FUNCTION_RETURN) {
				b->succ[0] = block_at(g, b->last + (uint64_t)c->offset);
			}
			b->ret = c->type == RVP_CTRDATA_TYPE_FUNCTION_RETURN;
			break;	/* returns, trap returns: no successor */
		}
	}
	rc = 0;
out:
	free(addr);
	free(cls);
	free(leader);
	return rc;
}

static size_t nr_succ(const struct block *b)
{
	return 2 + b->nr_more;
}

static int succ_of(const struct block *b, size_t k)
{
	return k < 2 ? b->succ[k] : b->more[k - 2];
}

/* Reverse post-order from the entry, then immediate dominators (Cooper,
 * Harvey and Kennedy's iteration).  Unreachable blocks get idom -1. */
static int dominators(struct cfg *g)
{
	int *order = malloc(g->n * sizeof(int)), *stack = malloc(g->n * sizeof(int));
	size_t *next = calloc(g->n, sizeof(size_t)), sp = 0, no = 0, i;
	char *seen = calloc(g->n, 1);
	int changed = 1, rc = -1;

	if (!order || !stack || !next || !seen)
		goto out;
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {	/* iterative DFS: post-order into order[] */
		int v = stack[sp - 1];
		struct block *b = &g->b[v];

		if (next[v] < nr_succ(b)) {
			int w = succ_of(b, next[v]++);

			if (w >= 0 && !seen[w]) {
				seen[w] = 1;
				stack[sp++] = w;
			}
			continue;
		}
		order[no++] = v;
		sp--;
	}
	for (i = 0; i < g->n; i++) {
		g->b[i].idom = -1;
		g->b[i].rpo = -1;
	}
	for (i = 0; i < no; i++)
		g->b[order[i]].rpo = (int)(no - 1 - i);
	g->b[0].idom = 0;
	while (changed) {
		changed = 0;
		for (i = no; i-- > 0;) {	/* reverse post-order */
			int v = order[i], new_idom = -1;
			size_t p, k;

			if (v == 0)
				continue;
			/* predecessors: blocks with v among their successors */
			for (p = 0; p < g->n; p++) {
				if (g->b[p].idom < 0)
					continue;
				for (k = 0; k < nr_succ(&g->b[p]); k++) {
					int x, y;

					if (succ_of(&g->b[p], k) != v)
						continue;
					if (new_idom < 0) {
						new_idom = (int)p;
						continue;
					}
					x = (int)p;
					y = new_idom;
					while (x != y) {
						while (g->b[x].rpo > g->b[y].rpo)
							x = g->b[x].idom;
						while (g->b[y].rpo > g->b[x].rpo)
							y = g->b[y].idom;
					}
					new_idom = x;
				}
			}
			if (new_idom >= 0 && g->b[v].idom != new_idom) {
				g->b[v].idom = new_idom;
				changed = 1;
			}
		}
	}
	rc = 0;
out:
	free(order);
	free(stack);
	free(next);
	free(seen);
	return rc;
}

static int dominates(const struct cfg *g, int h, int v)
{
	while (v != h && v != 0 && g->b[v].idom >= 0)
		v = g->b[v].idom;
	return v == h;
}

/* A loop found in a graph, before it is measured. */
struct found_loop {
	struct loop l;
	char *body;			/* per block of its function's graph */
	uint64_t *latches;		/* back-edge sources (last insns) */
	size_t nr_latches;
	struct cfg *g;
};

/* The loops of g: one per header, its body every block that reaches one
 * of its back-edges' sources without passing the header. */
static int find_loops(struct report_model *an, struct cfg *g,
		      struct found_loop **loops, size_t *nr)
{
	size_t h, v, k, j;
	int *work = malloc(g->n * sizeof(int));

	if (!work)
		return -1;
	for (h = 0; h < g->n; h++) {
		struct found_loop *fl = NULL;
		size_t top = 0;

		for (v = 0; v < g->n; v++) {
			if (g->b[v].idom < 0)
				continue;
			for (k = 0; k < nr_succ(&g->b[v]); k++) {
				if (succ_of(&g->b[v], k) != (int)h ||
				    !dominates(g, (int)h, (int)v))
					continue;
				if (!fl) {
					struct found_loop *p = realloc(*loops,
						(*nr + 1) * sizeof(*p));

					if (!p)
						goto nomem;
					*loops = p;
					fl = &p[(*nr)++];
					memset(fl, 0, sizeof(*fl));
					fl->g = g;
					fl->body = calloc(g->n, 1);
					if (!fl->body)
						goto nomem;
					fl->body[h] = 1;
					fl->l.head = g->b[h].start;
					fl->l.func = g->func;
				}
				fl->latches = realloc(fl->latches,
					(fl->nr_latches + 1) * sizeof(uint64_t));
				if (!fl->latches)
					goto nomem;
				fl->latches[fl->nr_latches++] = g->b[v].last;
				if (!fl->body[v]) {
					fl->body[v] = 1;
					work[top++] = (int)v;
				}
			}
		}
		while (top) {	/* backwards from the latches to the header */
			int w = work[--top];

			for (v = 0; v < g->n; v++)
				for (k = 0; k < nr_succ(&g->b[v]); k++)
					if (succ_of(&g->b[v], k) == w &&
					    !fl->body[v] && g->b[v].idom >= 0) {
						fl->body[v] = 1;
						work[top++] = (int)v;
					}
		}
		if (!fl)
			continue;
		for (j = 0; j < g->n; j++)
			fl->l.nr_blocks += fl->body[j];
		/* How hot it is: the records of transfers inside it (a
		 * rotated loop's back-edge may be a branch not taken, which
		 * leaves no record). */
		for (j = 0; j < an->nr_edges; j++) {
			int bf = block_at(g, an->edges[j].from);
			int bt = block_at(g, an->edges[j].to);

			if (bf >= 0 && bt >= 0 && fl->body[bf] && fl->body[bt])
				fl->l.count += an->edges[j].count;
			for (k = 0; k < fl->nr_latches; k++)
				if (an->edges[j].from == fl->latches[k] &&
				    an->edges[j].to == fl->l.head &&
				    !fl->l.latch)
					fl->l.latch = fl->latches[k];
		}
		if (!fl->l.latch)
			fl->l.latch = fl->latches[0];
	}
	free(work);
	return 0;
nomem:
	free(work);
	return -1;
}

static int in_body(const struct found_loop *fl, uint64_t addr)
{
	int b = block_at(fl->g, addr);

	return b >= 0 && fl->body[b];
}

/* Whether block t goes on to a return without a choice (an exit taken
 * to return, which the compiler placed outside the loop's body). */
static int leads_to_return(const struct cfg *g, int t)
{
	int steps;

	for (steps = 0; t >= 0 && steps < 8; steps++) {
		const struct block *b = &g->b[t];

		if (b->ret)
			return 1;
		if (b->succ[1] >= 0 || b->nr_more)
			return 0;
		t = b->succ[0];
	}
	return 0;
}

/* n exits from a block of the loop to block t of the function (-1: out
 * of it), by way of a return or else as given. */
static void count_exit(struct loop *l, const struct cfg *g, int t,
		       uint64_t *way, uint64_t n)
{
	if (t >= 0 && leads_to_return(g, t))
		l->exits_ret += n;
	else
		*way += n;
}

static void measure_loop(struct report_model_input *rp, struct found_loop *fl)
{
	struct loop *l = &fl->l;
	const struct cfg *g = fl->g;
	/* Points a straight run passes: the last instruction of a block of
	 * the body whose next block is outside (an exit), or is the header
	 * (a back-edge not taken: an iteration). */
	struct pass { uint64_t at; int to; int iteration; } *pass;
	size_t np = 0, s, i;
	uint64_t n;
	int head = block_at(g, l->head);

	pass = malloc((g->n + 1) * sizeof(*pass));
	if (!pass)
		return;
	for (i = 0; i < g->n; i++)
		if (fl->body[i] && g->b[i].fall >= 0 &&
		    (!fl->body[g->b[i].fall] || g->b[i].fall == head)) {
			pass[np].at = g->b[i].last;
			pass[np].to = g->b[i].fall;
			pass[np++].iteration = g->b[i].fall == head;
		}
	for (s = 0; s < rp->pairs.cap; s++) {
		const uint64_t *k = tally_at(&rp->pairs, s, &n);
		uint64_t start, from, to;
		unsigned int type;

		if (!k)
			continue;
		start = k[0];
		from = k[1];
		to = k[2];
		type = (unsigned int)k[3];
		for (i = 0; i < np; i++) {
			if (start > pass[i].at || pass[i].at >= from)
				continue;
			if (pass[i].iteration)
				l->taken += n;
			else
				count_exit(l, g, pass[i].to, &l->exits_fall, n);
		}
		if (!in_body(fl, from) || type == PERF_BR_CALL ||
		    type == PERF_BR_IND_CALL)
			continue;	/* calls come back */
		if (to == l->head) {
			for (i = 0; i < fl->nr_latches; i++)
				if (from == fl->latches[i])
					break;
			if (i < fl->nr_latches) {
				l->taken += n;
				continue;
			}
		}
		if (type == PERF_BR_RET)
			l->exits_ret += n;
		else if (!in_body(fl, to))
			count_exit(l, g, block_at(g, to), &l->exits_jump, n);
	}
	l->exits = l->exits_ret + l->exits_jump + l->exits_fall;
	free(pass);
}

static int cmp_found_loop(const void *a, const void *b)
{
	const struct found_loop *x = a, *y = b;

	if (x->l.count != y->l.count)
		return x->l.count > y->l.count ? -1 : 1;
	return x->l.head < y->l.head ? -1 : x->l.head > y->l.head;
}

#define MAX_LOOP_FUNCS	64

/* The loops of the functions the hottest jumps are in, the hottest
 * max_loops measured. */
static int natural_loops(struct report_model *an, size_t max_loops)
{
	struct report_model_input *rp = an->in;
	struct cfg *graphs = calloc(MAX_LOOP_FUNCS, sizeof(*graphs));
	struct found_loop *found = NULL;
	size_t ng = 0, nfound = 0, i, j;
	int rc = -1;

	if (!graphs)
		return -1;
	for (i = 0; i < an->nr_edges && ng < MAX_LOOP_FUNCS; i++) {
		const struct edge *e = &an->edges[i];
		uint64_t start, size;
		const char *f;

		if (e->type != PERF_BR_COND && e->type != 0 && e->type != 2 &&
		    e->type != PERF_BR_IND)
			continue;
		f = function_span(rp, e->from, &start, &size);
		if (!f || !size || e->to < start || e->to >= start + size)
			continue;
		for (j = 0; j < ng; j++)
			if (graphs[j].start == start)
				break;
		if (j < ng)
			continue;
		graphs[ng].func = f;
		graphs[ng].start = start;
		graphs[ng].size = size;
		if (build_cfg(an, &graphs[ng]) || dominators(&graphs[ng]) ||
		    find_loops(an, &graphs[ng], &found, &nfound)) {
			cfg_free(&graphs[ng]);
			continue;
		}
		ng++;
	}
	qsort(found, nfound, sizeof(*found), cmp_found_loop);
	for (i = 0; i < nfound && an->nr_loops < max_loops; i++) {
		if (!found[i].l.count)
			break;
		measure_loop(rp, &found[i]);
		if (!found[i].l.taken)	/* records in it, no iteration seen */
			continue;
		line_of(rp, found[i].l.head, &found[i].l.file, &found[i].l.line);
		an->loops[an->nr_loops++] = found[i].l;
	}
	rc = 0;
	for (i = 0; i < nfound; i++) {
		free(found[i].body);
		free(found[i].latches);
	}
	free(found);
	for (i = 0; i < ng; i++)
		cfg_free(&graphs[i]);
	free(graphs);
	return rc;
}

/* ---- indirect transfers, source lines, the annotation */

static int cmp_indirect(const void *a, const void *b)
{
	const struct indirect *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

static int indirects(struct report_model *an)
{
	size_t i, j;

	an->indirects = calloc(an->nr_edges + 1, sizeof(*an->indirects));
	if (!an->indirects)
		return -1;
	/* Edges are most frequent first: each jump's targets come hottest
	 * first too. */
	for (i = 0; i < an->nr_edges; i++) {
		const struct edge *e = &an->edges[i];
		struct indirect *d;

		if (e->type != PERF_BR_IND && e->type != PERF_BR_IND_CALL)
			continue;
		for (j = 0; j < an->nr_indirects; j++)
			if (an->indirects[j].from == e->from &&
			    an->indirects[j].type == e->type)
				break;
		d = &an->indirects[j];
		if (j == an->nr_indirects) {
			d->from = e->from;
			d->type = e->type;
			an->nr_indirects++;
		}
		if (d->nr_targets < INDIRECT_TOP) {
			d->to[d->nr_targets] = e->to;
			d->to_count[d->nr_targets] = e->count;
		}
		d->nr_targets++;
		d->count += e->count;
	}
	qsort(an->indirects, an->nr_indirects, sizeof(*an->indirects),
	      cmp_indirect);
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	const struct line_samples *x = a, *y = b;
	int c;

	if (!x->file || !y->file) {
		/* without line information: one row per function */
		if (x->file || y->file)
			return !x->file - !y->file;
		return strcmp(x->func ? x->func : "?", y->func ? y->func : "?");
	}
	c = strcmp(x->file, y->file);
	if (c || x->line != y->line)
		return c ? c : (int)x->line - (int)y->line;
	/* one line inlined into two functions: a row each */
	return strcmp(x->func ? x->func : "?", y->func ? y->func : "?");
}

static int cmp_line_samples(const void *a, const void *b)
{
	const struct line_samples *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return cmp_line(a, b);
}

/* Samples per source line: each distinct IP looked up once. */
static int lines(struct report_model *an, const struct ip_count *ips,
		 size_t nr_ips)
{
	struct report_model_input *rp = an->in;
	struct line_samples *t = calloc(nr_ips + 1, sizeof(*t));
	size_t n = 0, i, j;

	if (!t)
		return -1;
	for (i = 0; i < nr_ips; i++) {
		char *owned;

		t[n].func = line_function(rp, ips[i].ip, &t[n].file,
					  &t[n].line, &owned);
		if (owned) {
			char **p = realloc(rp->labels, (rp->nr_labels + 1) *
						       sizeof(*p));

			if (!p) {
				free(owned);
				free(t);
				return -1;
			}
			rp->labels = p;
			rp->labels[rp->nr_labels++] = owned;
		}
		t[n].samples = ips[i].count;
		n++;
	}
	qsort(t, n, sizeof(*t), cmp_line);
	for (i = 0, j = 0; i < n; i++) {
		if (j && !cmp_line(&t[j - 1], &t[i]))
			t[j - 1].samples += t[i].samples;
		else
			t[j++] = t[i];
	}
	qsort(t, j, sizeof(*t), cmp_line_samples);
	an->lines = t;
	an->nr_lines = j;
	return 0;
}

static int cmp_edge_from(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->count > y->count ? -1 : x->count < y->count;
}

/* The hottest named function, instruction by instruction, into
 * an->annotation, and the next hottest into an->more. */
static int annotate_one(struct report_model *an, const struct ip_count *ips,
			size_t nr_ips, const struct func_samples *f,
			struct annotation *a);

static int annotate(struct report_model *an, const struct ip_count *ips,
		    size_t nr_ips)
{
	size_t i, n = 0;

	for (i = 0; i < an->nr_funcs && n <= REPORT_MORE_ANNOTATIONS; i++) {
		const struct func_samples *f = &an->funcs[i];

		if (!f->size || !strcmp(f->name, "?"))
			continue;
		if (annotate_one(an, ips, nr_ips, f,
				 n ? &an->more[an->nr_more++] : &an->annotation))
			return -1;
		n++;
	}
	return 0;
}

static int annotate_one(struct report_model *an, const struct ip_count *ips,
			size_t nr_ips, const struct func_samples *f,
			struct annotation *a)
{
	struct report_model_input *rp = an->in;
	uint64_t pc;
	size_t i, k = 0, n = 0;

	a->func = f->name;
	a->samples = f->samples;
	a->exits = calloc(an->nr_edges + 1, sizeof(*a->exits));
	if (!a->exits)
		return -1;
	for (i = 0; i < an->nr_edges; i++)
		if (an->edges[i].from >= f->start &&
		    an->edges[i].from < f->start + f->size)
			a->exits[a->nr_exits++] = an->edges[i];
	qsort(a->exits, a->nr_exits, sizeof(*a->exits), cmp_edge_from);
	for (pc = f->start; pc < f->start + f->size && n < MAX_FUNC_INSNS;) {
		struct annotated_insn *in;
		uint32_t w;
		unsigned int len = insn_at(rp, pc, &w);
		size_t lo = 0, hi = nr_ips;

		if (!len)
			break;
		in = realloc(a->insns, (n + 1) * sizeof(*in));
		if (!in)
			return -1;
		a->insns = in;
		in += n++;
		memset(in, 0, sizeof(*in));
		in->addr = pc;
		tv_disas(w, pc, 64, in->text, sizeof(in->text));
		line_of(rp, pc, &in->file, &in->line);
		while (lo < hi) {	/* the first sample at pc or after */
			size_t mid = (lo + hi) / 2;

			if (ips[mid].ip < pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nr_ips && ips[lo].ip == pc)
			in->samples = ips[lo].count;
		while (k < a->nr_exits && a->exits[k].from < pc)
			k++;
		in->first_exit = k;
		while (k < a->nr_exits && a->exits[k].from == pc)
			k++;
		in->nr_exits = k - in->first_exit;
		pc += len;
	}
	a->nr_insns = n;
	/* A source line is shown whole when any of its instructions is hot:
	 * a function of thousands of instructions reads as its hot lines. */
	for (i = 0; i < n; i = k) {
		int hot = 0;
		size_t j;

		for (k = i; k < n && (k == i || (a->insns[i].file &&
		     a->insns[k].file == a->insns[i].file &&
		     a->insns[k].line == a->insns[i].line)); k++)
			hot |= a->insns[k].samples || a->insns[k].nr_exits;
		for (j = i; j < k; j++)
			a->insns[j].shown = hot;
	}
	return 0;
}

static int cmp_call(const void *a, const void *b)
{
	const struct call_edge *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (strcmp(x->caller, y->caller))
		return strcmp(x->caller, y->caller);
	return strcmp(x->callee, y->callee);
}

static int cmp_func(const void *a, const void *b)
{
	const struct func_samples *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Adds count to the named entry of a small table (linear: tables hold
 * one row per distinct function or function pair). */
static int add_call(struct report_model *an, const char *caller,
		    const char *callee, uint64_t count)
{
	size_t j;

	for (j = 0; j < an->nr_calls; j++)
		if (!strcmp(an->calls[j].caller, caller) &&
		    !strcmp(an->calls[j].callee, callee))
			break;
	if (j == an->nr_calls) {
		an->calls[j].caller = caller;
		an->calls[j].callee = callee;
		an->nr_calls++;
	}
	an->calls[j].count += count;
	an->call_records += count;
	return 0;
}

int report_model_analyse(struct report_model *an, size_t max_loops)
{
	struct report_model_input *rp = an->in;
	struct ip_count *sorted;
	size_t i, j, n = 0;
	uint64_t count;
	int rc;

	an->samples = rp->samples;
	an->records = rp->records;
	an->edges = count_edges(rp, &an->nr_edges);
	an->loops = calloc(max_loops + 1, sizeof(*an->loops));
	an->calls = calloc(an->nr_edges + 1, sizeof(*an->calls));
	an->funcs = calloc(rp->ips.n + 1, sizeof(*an->funcs));
	if (!an->edges || !an->loops || !an->calls || !an->funcs)
		return -1;
	if (natural_loops(an, max_loops) || indirects(an))
		return -1;
	for (i = 0; i < an->nr_edges; i++) {
		const struct edge *e = &an->edges[i];
		const char *caller, *callee;

		if (e->type != PERF_BR_CALL && e->type != PERF_BR_IND_CALL)
			continue;
		caller = function_of(rp, e->from);
		callee = function_of(rp, e->to);
		add_call(an, caller ? caller : "?", callee ? callee : "?",
			 e->count);
	}
	qsort(an->calls, an->nr_calls, sizeof(*an->calls), cmp_call);
	sorted = malloc((rp->ips.n + 1) * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < rp->ips.cap; i++) {
		const uint64_t *k = tally_at(&rp->ips, i, &count);

		if (k) {
			sorted[n].ip = k[0];
			sorted[n++].count = count;
		}
	}
	qsort(sorted, n, sizeof(*sorted), cmp_u64);	/* by ip */
	for (i = 0; i < n; i++) {
		uint64_t start = 0, size = 0;
		const char *f = function_span(rp, sorted[i].ip, &start, &size);

		f = f ? f : "?";
		for (j = 0; j < an->nr_funcs; j++)
			if (!strcmp(an->funcs[j].name, f))
				break;
		if (j == an->nr_funcs) {
			an->funcs[an->nr_funcs].name = f;
			an->funcs[an->nr_funcs].start = start;
			an->funcs[an->nr_funcs++].size = size;
		}
		an->funcs[j].samples += sorted[i].count;
	}
	qsort(an->funcs, an->nr_funcs, sizeof(*an->funcs), cmp_func);
	rc = lines(an, sorted, n) || annotate(an, sorted, n) ? -1 : 0;
	free(sorted);
	return rc;
}

int report_model_init(struct report_model *m, const char *input)
{
	memset(m, 0, sizeof(*m));
	m->input = input;
	m->in = calloc(1, sizeof(*m->in));
	if (!m->in)
		return -1;
	m->in->edges.kw = EDGE_KW;
	m->in->pairs.kw = PAIR_KW;
	m->in->ips.kw = IP_KW;
	return 0;
}

void report_model_free(struct report_model *m)
{
	struct report_model_input *rp = m->in;
	size_t i;

	free(m->edges);
	free(m->loops);
	free(m->calls);
	free(m->funcs);
	free(m->lines);
	free(m->indirects);
	free(m->annotation.insns);
	free(m->annotation.exits);
	for (i = 0; i < m->nr_more; i++) {
		free(m->more[i].insns);
		free(m->more[i].exits);
	}
	for (i = 0; i < m->sort.nr_rows; i++) {
		free(m->sort.rows[i].value[0]);
		free(m->sort.rows[i].chains);
	}
	free(m->sort.rows);
	if (rp) {
		for (i = 0; i < rp->nr_comms; i++)
			free(rp->comms[i]);
		free(rp->comms);
		for (i = 0; i < rp->nr_chains; i++) {
			free(rp->chain[i].addr);
			free(rp->chain[i].names);
		}
		free(rp->chain);
		free(rp->chain_ids.slot);
		free(rp->sort_count.slot);
		free(rp->sort_period.slot);
		for (i = 0; i < rp->nr_maps; i++) {
			free(rp->maps[i].dso);
			if (rp->maps[i].elf)
				elf_syms_free(rp->maps[i].elf);
			free(rp->maps[i].elf);
			if (rp->maps[i].dw)
				dw_free(rp->maps[i].dw);
			free(rp->maps[i].dw);
			free(rp->maps[i].image);
			free(rp->maps[i].file);
		}
		free(rp->maps);
		for (i = 0; i < rp->nr_labels; i++)
			free(rp->labels[i]);
		free(rp->labels);
		free(rp->edges.slot);
		free(rp->pairs.slot);
		free(rp->ips.slot);
		free(rp);
	}
	for (i = 0; i < m->nr_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	memset(m, 0, sizeof(*m));
}
