// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_text.c - `rvperf report`'s text: the model's tables (report_model.h)
 * as aligned columns, one heading per table.
 */
#include <inttypes.h>
#include <stdio.h>

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
	fprintf(f, "\n## Hottest branch edges\n\n%10s %7s  %-34s    %-34s %s\n",
	       "count", "share", "from", "to", "type");
	for (i = 0; i < an->nr_edges && i < top; i++) {
		const struct edge *e = &an->edges[i];

		report_model_name_addr(an, e->from, a, sizeof(a));
		report_model_name_addr(an, e->to, b, sizeof(b));
		fprintf(f, "%10" PRIu64 " %6.2f%%  %-34s -> %-34s %s\n", e->count,
		       100.0 * (double)e->count / (double)an->records, a, b,
		       edge_type_name(e));
	}

	fprintf(f, "\n## Hot loops\n\n%10s %8s %12s  %s\n", "taken", "exits",
	       "trips/entry", "loop (latch -> head)");
	for (i = 0; i < an->nr_loops && i < top; i++) {
		const struct loop *l = &an->loops[i];

		report_model_name_addr(an, l->latch, a, sizeof(a));
		report_model_name_addr(an, l->head, b, sizeof(b));
		if (l->exits)
			fprintf(f, "%10" PRIu64 " %8" PRIu64 " %12.1f  %s -> %s\n",
			       l->count, l->exits, loop_trips(l), a, b);
		else
			fprintf(f, "%10" PRIu64 " %8s %12s  %s -> %s\n", l->count,
			       "0", "(no exit)", a, b);
	}
	if (!an->nr_loops)
		fputs("  (no backward branch inside a function)\n", f);

	fprintf(f, "\n## Call edges\n\n%10s %7s  %s\n", "count", "share",
	       "caller -> callee");
	for (i = 0; i < an->nr_calls && i < top; i++)
		fprintf(f, "%10" PRIu64 " %6.2f%%  %s -> %s\n", an->calls[i].count,
		       100.0 * (double)an->calls[i].count /
		       (double)an->call_records,
		       an->calls[i].caller, an->calls[i].callee);
	if (!an->nr_calls)
		fputs("  (no call records)\n", f);
	return ferror(f) ? -1 : 0;
}

