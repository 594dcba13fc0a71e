// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_text.c - `rvperf report`'s text: the model's tables (report_model.h)
 * as aligned columns, one heading per table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_render.h"

int report_render_text(const struct report_model *an, FILE *f, size_t top)
{
	char a[160], b[160];
	size_t i;

	fprintf(f, "# rvperf report: %s: %" PRIu64 " samples, %" PRIu64
	       " branch records\n", an->input, an->samples, an->records);
	if (!an->records) {
		fputs("\n(no branch stacks in this file: record with -b / -j)\n",
		      f);
		return ferror(f) ? -1 : 0;
	}
	fprintf(f, "\n## Hottest branch edges (source lines below each)\n\n"
		"%10s %7s  %-34s    %-34s %s\n", "count", "share", "from", "to",
		"type");
	for (i = 0; i < an->nr_edges && i < top; i++) {
		const struct edge *e = &an->edges[i];

		report_model_name_addr(an, e->from, a, sizeof(a));
		report_model_name_addr(an, e->to, b, sizeof(b));
		fprintf(f, "%10" PRIu64 " %6.2f%%  %-34s -> %-34s %s\n", e->count,
		       100.0 * (double)e->count / (double)an->records, a, b,
		       edge_type_name(e));
		/* where in the source, on a line of its own below */
		report_model_line_addr(an, e->from, a, sizeof(a));
		report_model_line_addr(an, e->to, b, sizeof(b));
		if (*a || *b)
			fprintf(f, "%19s  %-34s -> %s\n", "", *a ? a : "?",
				*b ? b : "?");
	}

	fprintf(f, "\n## Hot loops (natural loops of the control-flow graph)\n\n"
		"%10s %8s %12s %7s %7s %7s %6s  %s\n", "iterations", "exits",
		"trips/entry", "return", "jump", "fall", "blocks",
		"loop (latch -> head), head's line");
	for (i = 0; i < an->nr_loops && i < top; i++) {
		const struct loop *l = &an->loops[i];
		char trips[32];

		report_model_name_addr(an, l->latch, a, sizeof(a));
		report_model_name_addr(an, l->head, b, sizeof(b));
		if (l->exits)
			snprintf(trips, sizeof(trips), "%.1f", loop_trips(l));
		else
			snprintf(trips, sizeof(trips), "(no exit)");
		fprintf(f, "%10" PRIu64 " %8" PRIu64 " %12s %7" PRIu64 " %7" PRIu64
			" %7" PRIu64 " %6u  %s -> %s", l->taken, l->exits, trips,
			l->exits_ret, l->exits_jump, l->exits_fall, l->nr_blocks,
			a, b);
		if (l->file)
			fprintf(f, "  %s:%u", l->file, l->line);
		fputc('\n', f);
	}
	if (!an->nr_loops)
		fputs("  (no loop in the functions of the hot branches)\n", f);

	fprintf(f, "\n## Indirect jumps and calls, with their targets\n\n"
		"%10s %7s %8s  %s\n", "count", "share", "targets",
		"from: target (share of its records) ...");
	for (i = 0; i < an->nr_indirects && i < top; i++) {
		const struct indirect *d = &an->indirects[i];
		size_t k;

		report_model_name_addr(an, d->from, a, sizeof(a));
		fprintf(f, "%10" PRIu64 " %6.2f%% %8zu  %s %s:", d->count,
			100.0 * (double)d->count / (double)an->records,
			d->nr_targets, a, d->type == 5 ? "IND_CALL" : "IND");
		for (k = 0; k < d->nr_targets && k < INDIRECT_TOP; k++) {
			report_model_name_addr(an, d->to[k], b, sizeof(b));
			fprintf(f, " %s (%.1f%%)", b, 100.0 * (double)d->to_count[k] /
				(double)d->count);
		}
		if (d->nr_targets > INDIRECT_TOP)
			fprintf(f, " ... %zu more", d->nr_targets - INDIRECT_TOP);
		fputc('\n', f);
	}
	if (!an->nr_indirects)
		fputs("  (no indirect jump or call records)\n", f);

	fprintf(f, "\n## Self overhead by function\n\n%10s %7s  %s\n", "samples",
		"share", "function");
	for (i = 0; i < an->nr_funcs && i < top; i++)
		fprintf(f, "%10" PRIu64 " %6.2f%%  %s\n", an->funcs[i].samples,
			100.0 * (double)an->funcs[i].samples / (double)an->samples,
			an->funcs[i].name);

	fprintf(f, "\n## Self overhead by source line\n\n%10s %7s  %s\n",
		"samples", "share", "line (function)");
	for (i = 0; i < an->nr_lines && i < top; i++) {
		const struct line_samples *ln = &an->lines[i];

		if (ln->file)
			fprintf(f, "%10" PRIu64 " %6.2f%%  %s:%u (%s)\n", ln->samples,
				100.0 * (double)ln->samples / (double)an->samples,
				ln->file, ln->line, ln->func ? ln->func : "?");
		else
			fprintf(f, "%10" PRIu64 " %6.2f%%  ? (%s)\n", ln->samples,
				100.0 * (double)ln->samples / (double)an->samples,
				ln->func ? ln->func : "?");
	}

	fprintf(f, "\n## Call edges\n\n%10s %7s  %s\n", "count", "share",
	       "caller -> callee");
	for (i = 0; i < an->nr_calls && i < top; i++)
		fprintf(f, "%10" PRIu64 " %6.2f%%  %s -> %s\n", an->calls[i].count,
		       100.0 * (double)an->calls[i].count /
		       (double)an->call_records,
		       an->calls[i].caller, an->calls[i].callee);
	if (!an->nr_calls)
		fputs("  (no call records)\n", f);

	if (an->annotation.nr_insns) {
		const struct annotation *ann = &an->annotation;
		const char *file = NULL;
		unsigned int line = 0;

		fprintf(f, "\n## Annotated: %s (%" PRIu64 " samples)\n\n"
			"%8s  %-18s %-34s  %s\n", ann->func, ann->samples,
			"samples", "address", "instruction", "records leaving it");
		for (i = 0; i < ann->nr_insns; i++) {
			const struct annotated_insn *in = &ann->insns[i];
			size_t hidden = annotation_hidden_run(ann, i), k;

			if (hidden) {
				fprintf(f, "%8s  ... %zu instructions without samples "
					"or records\n", "", hidden);
				i += hidden - 1;
				file = NULL;
				continue;
			}

			if (in->file && (in->file != file || in->line != line)) {
				fprintf(f, "  %s:%u\n", in->file, in->line);
				file = in->file;
				line = in->line;
			}
			report_model_name_addr(an, in->addr, a, sizeof(a));
			if (in->samples)
				fprintf(f, "%8" PRIu64, in->samples);
			else
				fprintf(f, "%8s", "");
			fprintf(f, "  %-18s %-34s", a, in->text);
			for (k = 0; k < in->nr_exits && k < 4; k++) {
				const struct edge *e = &ann->exits[in->first_exit + k];

				report_model_name_addr(an, e->to, b, sizeof(b));
				fprintf(f, "  -> %s %" PRIu64 " %s", b, e->count,
					edge_type_name(e));
			}
			if (in->nr_exits > 4)
				fprintf(f, "  ... %zu more", in->nr_exits - 4);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* A line of dots as wide as a column, as perf underlines its headings. */
static void dots(FILE *f, size_t width)
{
	while (width--)
		fputc('.', f);
}

int report_render_sort(const struct report_model *an, FILE *f,
		       int show_samples, const char *event)
{
	const struct report_sort *so = &an->sort;
	size_t width[REPORT_MAX_KEYS], i, j;

	for (j = 0; j < so->nr_keys; j++) {
		width[j] = strlen(report_key_heading(so->keys[j]));
		for (i = 0; i < so->nr_rows; i++)
			if (strlen(so->rows[i].value[j]) > width[j])
				width[j] = strlen(so->rows[i].value[j]);
	}
	fprintf(f, "# rvperf report: %s\n#\n# Samples: %" PRIu64
		" of event '%s'\n# Event count (approx.): %" PRIu64 "\n#\n",
		an->input, so->samples, event, so->period);
	/* headings, then their dots: each column its widest value wide */
	fprintf(f, "# Overhead%s", show_samples ? "       Samples" : "");
	for (j = 0; j < so->nr_keys; j++)
		fprintf(f, "  %-*s", j + 1 < so->nr_keys ? (int)width[j] : 0,
			report_key_heading(so->keys[j]));
	fputs("\n# ........", f);
	if (show_samples)
		fputs("  ............", f);
	for (j = 0; j < so->nr_keys; j++) {
		fputs("  ", f);
		dots(f, width[j]);
	}
	fputs("\n#\n", f);
	for (i = 0; i < so->nr_rows; i++) {
		const struct report_row *r = &so->rows[i];

		fprintf(f, "  %7.2f%%", so->period ? 100.0 * (double)r->period /
			(double)so->period : 0.0);
		if (show_samples)
			fprintf(f, "  %12" PRIu64, r->samples);
		for (j = 0; j < so->nr_keys; j++)
			fprintf(f, "  %-*s", j + 1 < so->nr_keys ?
				(int)width[j] : 0, r->value[j]);
		fputc('\n', f);
		/* -g: the row's call chains, callee first, each with its
		 * share of the row's samples */
		for (j = 0; j < r->nr_chains; j++)
			fprintf(f, "%12s%6.2f%%  %s\n", "", 100.0 *
				(double)r->chains[j].samples / (double)r->samples,
				r->chains[j].names);
		if (r->nr_chains)
			fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
