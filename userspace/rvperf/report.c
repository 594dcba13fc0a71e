// SPDX-License-Identifier: BSD-2-Clause
/*
 * report.c - `rvperf report`: reads a perf.data into the report model
 * (report_model.h) and shows it with one of the renderers
 * (report_render.h).  This file is the perf.data producer: it decides
 * where each mapping's symbols come from, as perf does (the mapped path
 * under --symfs; --elf only where the recording's build id is the
 * ELF's), and refuses wrong input with one line before any analysis.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "userspace/elf/elf_syms.h"
#include "userspace/perfdata/perf_data.h"
#include "report.h"
#include "report_model.h"
#include "report_render.h"

/* perf's HEADER_ARCH (uname -m) to the ELF machine it runs; 0: unknown. */
static unsigned int arch_machine(const char *arch)
{
	static const struct {
		const char *prefix;
		unsigned int machine;
	} table[] = {
		{ "riscv", 243 }, { "x86_64", 62 }, { "i386", 3 }, { "i686", 3 },
		{ "aarch64", 183 }, { "arm64", 183 }, { "arm", 40 },
		{ "ppc64", 21 }, { "s390", 22 }, { "mips", 8 },
		{ "loongarch", 258 },
	};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strncmp(arch, table[i].prefix, strlen(table[i].prefix)))
			return table[i].machine;
	return 0;
}

/* Where the symbols of the mapped files come from. */
struct symbol_source {
	const struct report_options *opt;
	struct elf_syms elf;		/* --elf, when given */
	struct pd_build_id_check ids;	/* the mappings' build ids, --elf's */
};

/* The file a mapping's symbols are read from, in buf. */
static const char *symbol_file(struct symbol_source *src,
			       const struct pd_reader *r,
			       const struct pd_record *rec, char *buf,
			       size_t size)
{
	const struct report_options *opt = src->opt;
	const char *base = strrchr(rec->name, '/');
	size_t len;

	base = base ? base + 1 : rec->name;
	if (opt->elf && (!opt->elf_match || !strcmp(base, opt->elf_match))) {
		if (pd_build_id_check(&src->ids, r, rec) != PD_BUILD_ID_OTHER ||
		    opt->force)
			return opt->elf;
	}
	if (!opt->symfs)
		return rec->name;
	/* DIR and DIR/ alike, before an absolute or a relative path. */
	len = strlen(opt->symfs);
	while (len > 1 && opt->symfs[len - 1] == '/')
		len--;
	snprintf(buf, size, "%.*s%s%s", (int)len, opt->symfs,
		 rec->name[0] == '/' ? "" : "/", rec->name);
	return buf;
}

/*
 * Several recordings make one report.  The first place a file (its symbol
 * file, offset and length) is mapped at is where the report shows it; a
 * recording that mapped it elsewhere (another run's layout) has the
 * addresses in it moved there, so the same code is counted as one.  A file
 * mapped where another file already is (two programs, both at a PIE's
 * usual base) is moved above everything placed so far, so neither takes
 * the other's names; its unnamed addresses show where it was moved.
 */
struct placement {
	struct placed {
		char *file;
		uint64_t start, len, pgoff;
	} *v;
	size_t n;
	struct move {			/* this recording's */
		uint64_t start, len, to;
	} *moves;
	size_t nr_moves;
	struct pd_branch *br;		/* a sample's records, moved */
	size_t cap_br;
	uint64_t *chain;		/* a sample's call chain (-g) */
	size_t cap_chain;
};

static int add_move(struct placement *pl, uint64_t start, uint64_t len,
		    uint64_t to)
{
	void *p = realloc(pl->moves, (pl->nr_moves + 1) * sizeof(*pl->moves));

	if (!p)
		return -1;
	pl->moves = p;
	pl->moves[pl->nr_moves].start = start;
	pl->moves[pl->nr_moves].len = len;
	pl->moves[pl->nr_moves++].to = to;
	return 0;
}

/* Whether the model should take the mapping, at *at (-1: out of
 * memory). */
static int place(struct placement *pl, uint64_t start, uint64_t len,
		 uint64_t pgoff, const char *file, uint64_t *at)
{
	uint64_t top = 0;
	size_t i;
	void *p;

	*at = start;
	for (i = 0; i < pl->n; i++) {
		const struct placed *d = &pl->v[i];

		if (d->pgoff != pgoff || d->len != len || strcmp(d->file, file))
			continue;
		if (d->start == start)
			return 1;
		return add_move(pl, start, len, d->start) ? -1 : 0;
	}
	for (i = 0; i < pl->n; i++) {
		const struct placed *d = &pl->v[i];

		if (d->start + d->len > top)
			top = d->start + d->len;
		if (start < d->start + d->len && d->start < start + len)
			*at = 1;	/* taken */
	}
	if (*at != start) {
		*at = (top + 0xffffff) & ~(uint64_t)0xffffff;
		if (add_move(pl, start, len, *at))
			return -1;
	}
	p = realloc(pl->v, (pl->n + 1) * sizeof(*pl->v));
	if (!p)
		return -1;
	pl->v = p;
	pl->v[pl->n].file = strdup(file);
	if (!pl->v[pl->n].file)
		return -1;
	pl->v[pl->n].start = *at;
	pl->v[pl->n].len = len;
	pl->v[pl->n++].pgoff = pgoff;
	return 1;
}

static uint64_t moved(const struct placement *pl, uint64_t addr)
{
	size_t i;

	for (i = 0; i < pl->nr_moves; i++)
		if (addr - pl->moves[i].start < pl->moves[i].len)
			return addr - pl->moves[i].start + pl->moves[i].to;
	return addr;
}

/*
 * A sample's call chain in pl->chain, innermost first: its IP, then the
 * callers.  From a call stack (branch_sample_type CALL_STACK, perf
 * record --call-graph lbr's), each call's source, newest first, as perf
 * builds it from LBR; else the user part of PERF_SAMPLE_CALLCHAIN (its
 * context markers left out).  The number of addresses, 0 when out of
 * memory.
 */
static size_t sample_chain(struct placement *pl, const struct pd_sample *s,
			   const struct pd_branch *br, size_t nr)
{
	int stack = s->attr &&
		    (s->attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
	size_t need = 1 + (stack ? nr : s->nr_callchain), n = 0, i;

	if (need > pl->cap_chain) {
		free(pl->chain);
		pl->chain = malloc(need * sizeof(*pl->chain));
		pl->cap_chain = pl->chain ? need : 0;
		if (!pl->chain)
			return 0;
	}
	pl->chain[n++] = moved(pl, s->ip);
	if (stack) {
		for (i = 0; i < nr; i++)
			pl->chain[n++] = br[i].from;	/* moved already */
		return n;
	}
	for (i = 0; i < s->nr_callchain; i++) {
		uint64_t a = s->callchain[i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX)	/* a context marker */
			continue;
		if (moved(pl, a) != pl->chain[0] || n > 1)
			pl->chain[n++] = moved(pl, a);
	}
	return n;
}

static void placement_free(struct placement *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		free(pl->v[i].file);
	free(pl->v);
	free(pl->moves);
	free(pl->br);
	free(pl->chain);
}

/*
 * The tasks of a recording and their names, as perf follows them: a COMM
 * names its thread, a FORK's child starts with its parent's name.
 */
struct tasks {
	struct task {
		uint32_t pid, tid;
		char comm[32];
	} *v;
	size_t n, last;
};

static struct task *task_of(struct tasks *t, uint32_t tid)
{
	size_t i;

	if (t->last < t->n && t->v[t->last].tid == tid)
		return &t->v[t->last];
	for (i = 0; i < t->n; i++)
		if (t->v[i].tid == tid)
			return &t->v[t->last = i];
	return NULL;
}

static struct task *add_task(struct tasks *t, uint32_t pid, uint32_t tid)
{
	struct task *k = task_of(t, tid);

	if (k) {
		k->pid = pid;
		return k;
	}
	k = realloc(t->v, (t->n + 1) * sizeof(*k));
	if (!k)
		return NULL;
	t->v = k;
	k += t->n;
	k->pid = pid;
	k->tid = tid;
	k->comm[0] = '\0';
	t->last = t->n++;
	return k;
}

/* Opens INPUT: 0, or -1 after one line when it cannot be reported on
 * (no perf.data, an --elf of another machine). */
static int open_input(struct pd_reader *r, const struct symbol_source *src,
		      const char *input)
{
	const struct report_options *opt = src->opt;

	if (pd_open(r, input)) {
		fprintf(stderr, "rvperf report: %s: %s\n", input, r->error);
		pd_close(r);
		return -1;
	}
	if (opt->elf) {
		/* A recording without HEADER_ARCH is taken as RISC-V's. */
		unsigned int want = r->arch[0] ? arch_machine(r->arch) : 243;

		if (want && src->elf.machine != want) {
			fprintf(stderr, "rvperf report: %s: not a program for "
				"%s, where %s was recorded (ELF machine %u)\n",
				opt->elf, r->arch[0] ? r->arch : "riscv", input,
				src->elf.machine);
			pd_close(r);
			return -1;
		}
	}
	return 0;
}

/* Feeds one recording's mappings and samples to the model.  0;
 * REPORT_BAD_DATA after saying why when the file is cut or damaged (the
 * model holds what came before); -1 after saying why when nothing should
 * be reported.  *nomem is set when the model ran out of memory. */
static int read_perf_data(struct report_model *m, struct symbol_source *src,
			  struct placement *pl, const char *input, int *nomem)
{
	char path[4096];
	struct pd_reader r;
	struct pd_record rec;
	struct tasks tasks = { 0 };
	struct pd_order order;
	struct task *task;
	int err, status = 0;

	if (open_input(&r, src, input))
		return -1;
	/* --sort names each sample's task as it was named then: in time
	 * order, as perf reads them (a thread's COMM or FORK may come after
	 * some of its samples in the file). */
	if (m->sort.nr_keys && pd_order_open(&r, &order)) {
		*nomem = 1;
		pd_close(&r);
		return 0;
	}
	pl->nr_moves = 0;
	if (r.warning[0])
		fprintf(stderr, "rvperf report: %s: warning: %s\n", input,
			r.warning);
	while ((err = m->sort.nr_keys ? pd_order_next(&r, &order, &rec) :
		      pd_next(&r, &rec)) != PD_END) {
		if (err) {
			fprintf(stderr, "rvperf report: %s: %s%s\n", input,
				r.error, err == PD_TRUNCATED ?
				" (reporting what came before)" : "");
			status = REPORT_BAD_DATA;
			if (err == PD_TRUNCATED || err == PD_ERR_IO)
				break;
			continue;
		}
		if (rec.header.type == PERF_RECORD_MMAP ||
		    rec.header.type == PERF_RECORD_MMAP2) {
			const char *file = symbol_file(src, &r, &rec, path,
						       sizeof(path));
			uint64_t at;
			int take = place(pl, rec.map_start, rec.map_len,
					 rec.map_pgoff, file, &at);

			if (take < 0 ||
			    (take && (report_model_add_mapping(m, at,
							       rec.map_len,
							       rec.map_pgoff,
							       file) ||
				      report_model_name_mapping(m, rec.name))))
				*nomem = 1;
		}
		if (m->sort.nr_keys && rec.header.type == PERF_RECORD_COMM) {
			task = add_task(&tasks, rec.pid, rec.tid);
			if (!task)
				*nomem = 1;
			else
				snprintf(task->comm, sizeof(task->comm), "%s",
					 rec.name);
		}
		if (m->sort.nr_keys && rec.header.type == PERF_RECORD_FORK) {
			struct task *parent = task_of(&tasks, rec.ptid);
			char comm[32];

			snprintf(comm, sizeof(comm), "%s",
				 parent ? parent->comm : "");
			task = add_task(&tasks, rec.pid, rec.tid);
			if (!task)
				*nomem = 1;
			else
				memcpy(task->comm, comm, sizeof(comm));
		}
		if (rec.header.type == PERF_RECORD_SAMPLE) {
			const struct pd_branch *br = rec.sample.branches;
			size_t i, nr = rec.sample.nr_branches;

			if (pl->nr_moves) {
				if (nr > pl->cap_br) {
					free(pl->br);
					pl->br = malloc(nr * sizeof(*pl->br));
					pl->cap_br = pl->br ? nr : 0;
				}
				if (nr && !pl->br) {
					*nomem = 1;
					break;
				}
				for (i = 0; i < nr; i++) {
					pl->br[i] = br[i];
					pl->br[i].from = moved(pl, br[i].from);
					pl->br[i].to = moved(pl, br[i].to);
				}
				br = pl->br;
			}
			if (m->sort.nr_keys) {
				struct report_task t = {
					rec.sample.pid, rec.sample.tid, NULL,
				};

				size_t nc = 0;

				task = task_of(&tasks, rec.sample.tid);
				if (task && task->comm[0])
					t.comm = task->comm;
				if (m->sort.chains &&
				    !(nc = sample_chain(pl, &rec.sample, br, nr)))
					*nomem = 1;
				else if (report_model_add_task_sample(m, &t,
						moved(pl, rec.sample.ip),
						rec.sample.period, br, nr,
						pl->chain, nc))
					*nomem = 1;
			} else if (report_model_add_sample(m,
						moved(pl, rec.sample.ip), br, nr)) {
				*nomem = 1;
			}
		}
		if (*nomem)
			break;
	}
	if (m->sort.nr_keys)
		pd_order_close(&order);
	pd_close(&r);
	free(tasks.v);
	return status;
}

/* The model's warnings from the from-th on, one line each (a file of
 * unnamed addresses: not found, no symbols, no debug information); returns
 * how many there are. */
static size_t show_warnings(const struct report_model *m, size_t from)
{
	for (; from < m->nr_warnings; from++)
		fprintf(stderr, "rvperf report: warning: %s\n",
			m->warnings[from]);
	return m->nr_warnings;
}

/* perf's name for the recorded event, with its :u modifier. */
static void event_name(const struct perf_event_attr *a, char *buf, size_t size)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};

	if (a->type == PERF_TYPE_HARDWARE &&
	    a->config < sizeof(hw) / sizeof(hw[0]))
		snprintf(buf, size, "%s", hw[a->config]);
	else if (a->type == PERF_TYPE_RAW)
		snprintf(buf, size, "r%llx", (unsigned long long)a->config);
	else
		snprintf(buf, size, "%u:%llu", a->type,
			 (unsigned long long)a->config);
	if (a->exclude_kernel && a->exclude_hv && !a->exclude_user)
		snprintf(buf + strlen(buf), size - strlen(buf), ":u");
}

int report_run(const struct report_options *opt)
{
	struct symbol_source src = { .opt = opt };
	struct placement pl = { 0 };
	struct report_model m;
	struct pd_reader r;
	struct stat st;
	char *name, err[300], event[64] = "?";
	size_t i, len = 1, shown = 0;
	int nomem = 0, status = 0, s, branch = 1, chains = 1, sort_err = 0;

	if (opt->symfs && stat(opt->symfs, &st)) {
		fprintf(stderr, "rvperf report: --symfs %s: %s\n", opt->symfs,
			strerror(errno));
		return REPORT_BAD_DATA;
	}
	if (opt->symfs && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rvperf report: --symfs %s: not a directory\n",
			opt->symfs);
		return REPORT_BAD_DATA;
	}
	if (opt->elf && elf_syms_load(&src.elf, opt->elf)) {
		fprintf(stderr, "rvperf report: %s: %s\n", opt->elf,
			src.elf.error);
		return REPORT_BAD_DATA;
	}
	pd_build_id_check_init(&src.ids, src.elf.build_id,
			       src.elf.build_id_size, opt->elf);
	/* Every recording is looked at before any is read.  --sort counts
	 * branch records when every one has branch stacks (perf's branch
	 * mode, for a file perf record -b or -j wrote), else samples. */
	for (i = 0; i < opt->nr_inputs; i++) {
		if (open_input(&r, &src, opt->inputs[i])) {
			elf_syms_free(&src.elf);
			return REPORT_BAD_DATA;
		}
		if (!pd_has_feature(&r, PD_FEAT_BRANCH_STACK))
			branch = 0;
		/* -g: every recording has call chains or a call stack */
		if (!r.nr_attrs ||
		    (!(r.attrs[0].sample_type & PERF_SAMPLE_CALLCHAIN) &&
		     !(r.attrs[0].branch_sample_type &
		       PERF_SAMPLE_BRANCH_CALL_STACK)))
			chains = 0;
		if (!i && r.nr_attrs)
			event_name(&r.attrs[0], event, sizeof(event));
		pd_close(&r);
		len += strlen(opt->inputs[i]) + 2;
	}
	/* The report's heading names them all. */
	name = malloc(len);
	if (!name || report_model_init(&m, name)) {
		fprintf(stderr, "rvperf report: out of memory\n");
		free(name);
		elf_syms_free(&src.elf);
		return REPORT_BAD_DATA;
	}
	name[0] = '\0';
	for (i = 0; i < opt->nr_inputs; i++) {
		if (i)
			strcat(name, ", ");
		strcat(name, opt->inputs[i]);
	}
	if (opt->call_graph && !chains) {
		snprintf(err, sizeof(err), "-g: %s has no call chains (record "
			 "with -g)", opt->inputs[0]);
		sort_err = 1;
	} else if (opt->call_graph && branch && !opt->no_branch_stack) {
		snprintf(err, sizeof(err), "-g: the rows of branch records have "
			 "no call chains (--no-branch-stack: rows of samples)");
		sort_err = 1;
	} else if (opt->sort) {
		sort_err = report_model_sort_by(&m, opt->sort,
						branch && !opt->no_branch_stack,
						err, sizeof(err));
		m.sort.chains = opt->call_graph;
	}
	if (sort_err) {
		fprintf(stderr, "rvperf report: %s\n", err);
		report_model_free(&m);
		free(name);
		elf_syms_free(&src.elf);
		return REPORT_USAGE;
	}
	for (i = 0; i < opt->nr_inputs && !nomem && status >= 0; i++) {
		s = read_perf_data(&m, &src, &pl, opt->inputs[i], &nomem);
		status = s ? s : status;
	}
	placement_free(&pl);
	/* An --elf that is none of the recorded binaries would name every
	 * address wrongly and with confidence. */
	if (status >= 0 && !nomem && !opt->force &&
	    pd_build_id_refused(&src.ids)) {
		fprintf(stderr, "rvperf report: %s: %s (--force uses it "
			"anyway)\n", opt->elf, pd_build_id_refused(&src.ids));
		status = -1;
	}
	elf_syms_free(&src.elf);
	if (status < 0) {
		report_model_free(&m);
		free(name);
		return REPORT_BAD_DATA;
	}
	if (opt->sort) {
		if (nomem || report_model_analyse_sort(&m)) {
			fprintf(stderr, "rvperf report: out of memory\n");
			status = REPORT_BAD_DATA;
		} else {
			report_render_sort(&m, stdout, opt->show_samples, event);
		}
	} else if (nomem || report_model_analyse(&m, opt->top)) {
		fprintf(stderr, "rvperf report: out of memory\n");
		status = REPORT_BAD_DATA;
	} else if ((shown = show_warnings(&m, 0)), opt->html) {
		FILE *f = fopen(opt->html, "w");

		if (!f || report_render_html(&m, f, opt->top) || fclose(f)) {
			fprintf(stderr, "rvperf report: %s: cannot write\n",
				opt->html);
			status = REPORT_BAD_DATA;
		}
	} else {
		report_render_text(&m, stdout, opt->top);
	}
	show_warnings(&m, shown);
	report_model_free(&m);
	free(name);
	return status;
}
