/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report_model.h - what the branch stacks of a recording say, apart from
 * where they came from and how they are shown.
 *
 *   producers   report.c (perf.data); any other source of branch stacks
 *               (an N-Trace decoder, say) feeds the same three calls
 *   the model   the hottest branch edges, natural loops of the functions'
 *               control-flow graphs with iterations per entry and exits,
 *               call edges, indirect transfers with their targets, samples
 *               per function and per source line, the hottest function
 *               annotated; addresses named function+offset from the mapped
 *               ELF files, source lines from their DWARF
 *   renderers   report_text.c, report_html.c (report_render.h); a new one
 *               reads the model and touches neither
 *
 * Use: report_model_init, then report_model_add_mapping and
 * report_model_add_sample in the order the recording has them (a later
 * mapping of an address wins), report_model_analyse once, read the tables,
 * report_model_free.
 */
#ifndef RVPERF_REPORT_MODEL_H
#define RVPERF_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "userspace/perfdata/perf_data.h"

struct edge {
	uint64_t from, to;
	unsigned int type;	/* PERF_BR_* */
	unsigned int new_type;	/* PERF_BR_NEW_*, for PERF_BR_EXTEND_ABI */
	uint64_t count;
};

/* A natural loop of a function's control-flow graph (a header that
 * dominates the blocks its back-edges come from, and every block that
 * reaches them without passing the header). */
struct loop {
	uint64_t latch, head;	/* the hottest back-edge: from, to */
	uint64_t count;		/* the back-edges' records */
	uint64_t taken, exits;	/* over consecutive record pairs */
	/* exits by way: a return from inside the loop, a taken branch or
	 * jump out of it (a break, a goto, a tail call), falling out of it
	 * (a branch not taken, or the block after it) */
	uint64_t exits_ret, exits_jump, exits_fall;
	const char *func;
	unsigned int nr_blocks;	/* basic blocks in the loop's body */
	const char *file;	/* the header's source position, NULL: none */
	unsigned int line;
};

/* An indirect jump or call and where it went (an interpreter's dispatch). */
#define INDIRECT_TOP	6
struct indirect {
	uint64_t from;
	unsigned int type;		/* PERF_BR_IND or PERF_BR_IND_CALL */
	uint64_t count;			/* its records */
	size_t nr_targets;		/* distinct targets */
	uint64_t to[INDIRECT_TOP], to_count[INDIRECT_TOP];	/* hottest */
};

/* Samples whose IP is on one source line. */
struct line_samples {
	const char *file;		/* NULL: no line information */
	unsigned int line;
	const char *func;		/* the function the code is in; code
					 * inlined from another names that
					 * one first, as addr2line -i does:
					 * "inner, inlined in outer" */
	uint64_t samples;
};

/* The annotated view of a function: each instruction with its source
 * position, the samples at it and the records leaving it. */
struct annotated_insn {
	uint64_t addr;
	char text[64];			/* disassembly */
	const char *file;		/* NULL: no line information */
	unsigned int line;
	uint64_t samples;
	size_t first_exit, nr_exits;	/* in annotation.exits */
	int shown;			/* its source line (or, without line
					 * information, itself) has samples or
					 * records: renderers show it, and
					 * summarise the runs of others */
};

struct annotation {
	const char *func;
	uint64_t samples;
	struct annotated_insn *insns;
	size_t nr_insns;
	struct edge *exits;		/* records leaving, by instruction */
	size_t nr_exits;
};

struct call_edge {
	const char *caller, *callee;	/* "?" where no symbol is known */
	uint64_t count;
};

struct func_samples {
	const char *name;
	uint64_t samples;	/* samples whose IP is in the function */
	uint64_t start, size;	/* where it runs (0, 0: unknown) */
};

/*
 * perf report's --sort view: one row per distinct value of the chosen keys,
 * with its samples and its share of the event count.  In branch mode (a
 * recording with branch stacks, as perf report takes it unless
 * --no-branch-stack) a row counts branch records instead, each weighing 1,
 * and dso, sym and srcline are the record's target's, as in perf.
 */
enum report_key {
	REPORT_KEY_COMM, REPORT_KEY_PID, REPORT_KEY_TID, REPORT_KEY_TGID,
	REPORT_KEY_DSO, REPORT_KEY_SYM, REPORT_KEY_SRCLINE,
	/* branch mode only */
	REPORT_KEY_DSO_FROM, REPORT_KEY_DSO_TO, REPORT_KEY_SYM_FROM,
	REPORT_KEY_SYM_TO, REPORT_KEY_SRCLINE_FROM, REPORT_KEY_SRCLINE_TO,
};
#define REPORT_MAX_KEYS	8

/* A call chain of a row's samples: function names, callee first. */
struct report_chain {
	const char *names;		/* "f <- caller <- ..." */
	uint64_t samples;
};

struct report_row {
	/* as perf prints them; value[0] owns the row's strings */
	char *value[REPORT_MAX_KEYS];
	uint64_t samples, period;
	struct report_chain *chains;	/* with -g: most samples first */
	size_t nr_chains;
};

struct report_sort {
	enum report_key keys[REPORT_MAX_KEYS];
	size_t nr_keys;			/* 0: no --sort view */
	int branch;			/* rows count branch records */
	int chains;			/* -g: each row's call chains */
	struct report_row *rows;	/* most period first */
	size_t nr_rows;
	uint64_t samples, period;	/* totals */
};

/* A sample's task, for the --sort view. */
struct report_task {
	uint32_t pid, tid;
	const char *comm;	/* NULL: unknown (perf: ":TID") */
};

struct report_model_input;	/* stacks and mappings; report_model.c's */

#define REPORT_MORE_ANNOTATIONS	11

struct report_model {
	const char *input;		/* names the recording in headings */
	uint64_t samples, records;
	struct edge *edges;		/* most frequent first */
	size_t nr_edges;
	struct loop *loops;		/* most frequent first */
	size_t nr_loops;
	struct call_edge *calls;	/* most frequent first */
	size_t nr_calls;
	uint64_t call_records;
	struct func_samples *funcs;	/* most samples first */
	size_t nr_funcs;
	struct line_samples *lines;	/* most samples first */
	size_t nr_lines;
	struct indirect *indirects;	/* most records first */
	size_t nr_indirects;
	struct annotation annotation;	/* the hottest function's */
	/* the next hottest named functions' (the HTML page's drill-down) */
	struct annotation more[REPORT_MORE_ANNOTATIONS];
	size_t nr_more;
	/* One line per symbol file whose addresses cannot all be named
	 * ("FILE: no symbol table ...", "FILE: not found"), in the order
	 * they were met; the producer shows them.  Files are read as their
	 * addresses are named, so analysing and rendering may add more. */
	char **warnings;
	size_t nr_warnings;
	struct report_sort sort;	/* --sort: report_model_sort_by() */
	struct report_model_input *in;
};

/* 0, or -1 when out of memory (as for every call below returning int). */
int report_model_init(struct report_model *m, const char *input);
/* A file mapped at [start, start + len) from file offset pgoff, whose
 * symbols are read from symbol_file when an address needs a name (NULL or
 * unreadable: addresses stay numbers).  Which file that is (the mapped
 * path, under a --symfs, an --elf whose build id matches) is the
 * producer's business. */
int report_model_add_mapping(struct report_model *m, uint64_t start,
			     uint64_t len, uint64_t pgoff,
			     const char *symbol_file);
/* The recorded name of the mapping added last (--sort's dso; without it,
 * the symbol file's). */
int report_model_name_mapping(struct report_model *m, const char *dso);
/*
 * The --sort view instead of the tables: KEYS, comma-separated, perf's
 * names (comm, pid, tid, tgid, dso, sym or symbol, srcline, and in branch
 * mode dso_from, dso_to, symbol_from, symbol_to, srcline_from,
 * srcline_to).  Before any sample.  0, or -1 with a one-line reason in
 * ERR.
 */
int report_model_sort_by(struct report_model *m, const char *keys, int branch,
			 char *err, size_t errlen);
/* perf's column heading for a key. */
const char *report_key_heading(enum report_key key);
/* One sample for the --sort view: its task, IP, period, branch stack,
 * and with sort.chains its callers' addresses (innermost first). */
int report_model_add_task_sample(struct report_model *m,
				 const struct report_task *task, uint64_t ip,
				 uint64_t period, const struct pd_branch *branches,
				 size_t nr, const uint64_t *callers,
				 size_t nr_callers);
/* Fills m->sort.rows. */
int report_model_analyse_sort(struct report_model *m);
/* One sample: its IP and its branch stack, newest record first. */
int report_model_add_sample(struct report_model *m, uint64_t ip,
			    const struct pd_branch *branches, size_t nr);
/* Fills the tables; at most max_loops loops are measured. */
int report_model_analyse(struct report_model *m, size_t max_loops);
void report_model_free(struct report_model *m);

/* "function+0xoffset", or "0xaddress" where no symbol is known. */
void report_model_name_addr(const struct report_model *m, uint64_t addr,
			    char *buf, size_t size);
/* "file:line" of addr (the file's base name), or "" when unknown. */
void report_model_line_addr(const struct report_model *m, uint64_t addr,
			    char *buf, size_t size);
/* perf's name for the edge's type, "-" when it has none. */
const char *edge_type_name(const struct edge *e);

/* Iterations per entry, or a negative number when no exit was seen. */
static inline double loop_trips(const struct loop *l)
{
	return l->exits ? (double)(l->taken + l->exits) / (double)l->exits
			: -1.0;
}

/*
 * How many instructions from @i on are not shown (0 when insns[i] is):
 * renderers summarise such a run in one line.
 */
static inline size_t annotation_hidden_run(const struct annotation *ann,
					   size_t i)
{
	size_t k = i;

	while (k < ann->nr_insns && !ann->insns[k].shown)
		k++;
	return k - i;
}

#endif /* RVPERF_REPORT_MODEL_H */
