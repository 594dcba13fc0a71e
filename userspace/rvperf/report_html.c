// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_html.c - `rvperf report --html FILE`: one self-contained page (inline CSS
 * and SVG, no script, nothing fetched) showing the hot paths as a graph over
 * the program's functions, with the report's tables below it.
 *
 * Layout: functions are placed in columns by call depth (the longest chain
 * of callers above them among the drawn edges, cycles cut), rows in order of
 * heat; calls are curves whose width grows with their count; a function
 * that holds a hot loop carries a badge with its iterations per entry.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_render.h"

#define NODE_W		190
#define NODE_H		46
#define COL_GAP		110
#define ROW_GAP		34
#define MARGIN		30
#define MAX_NODES	48

struct node {
	const char *name;
	uint64_t samples, in_calls;
	int depth, row;
	const struct loop *loop;	/* the hottest loop inside, if any */
};

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static int node_index(struct node *n, size_t *nr, const char *name)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(n[i].name, name))
			return (int)i;
	if (*nr == MAX_NODES)
		return -1;
	memset(&n[*nr], 0, sizeof(n[*nr]));
	n[*nr].name = name;
	return (int)(*nr)++;
}

/* The function part of "name+0xoff". */
static void function_name(const struct report_model *an, uint64_t addr, char *buf,
			  size_t size)
{
	char *plus;

	report_model_name_addr(an, addr, buf, size);
	plus = strrchr(buf, '+');
	if (plus)
		*plus = '\0';
}

/* Boxes in the graph that a call's count label must not cover: the
 * functions' boxes and the labels placed before it. */
struct spot {
	int x0, y0, x1, y1;
};

#define MAX_SPOTS	(MAX_NODES + 64)
#define COUNT_CHAR_W	7	/* a digit of .count, 11px, at most */

static int spot_free(const struct spot *s, size_t n, const struct spot *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b->x0 < s[i].x1 && s[i].x0 < b->x1 &&
		    b->y0 < s[i].y1 && s[i].y0 < b->y1)
			return 0;
	return 1;
}

/* The box of a count label of LEN digits anchored at its end (x, y). */
static struct spot label_box(int x, int y, size_t len)
{
	struct spot b = { x - COUNT_CHAR_W * (int)len - 2, y - 11, x + 2, y + 3 };

	return b;
}

/*
 * Where a call's count goes: by the callee where the curve arrives (where
 * fanned-out edges part), else further back along its own curve, else
 * moved up or down in the gap between the columns, so that no label covers
 * another or a function's box (several calls into one function would
 * otherwise write their counts on the same spot).  Taken spots are added
 * to S.
 */
static void place_label(struct spot *s, size_t *n, const int *curve,
			int self, int x, int y, uint64_t count, int *ox, int *oy)
{
	static const double ts[] = { 0.75, 0.62, 0.5, 0.38, 0.25 };
	char digits[24];
	size_t len = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, count);
	struct spot b;
	size_t i;
	int k;

	*ox = x;
	*oy = y;
	b = label_box(x, y, len);
	if (spot_free(s, *n, &b))
		goto take;
	for (i = 0; !self && i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i], u = 1 - t;
		/* the cubic Bezier of the call at t */
		double bx = u * u * u * curve[0] + 3 * u * u * t * curve[2] +
			    3 * u * t * t * curve[4] + t * t * t * curve[6];
		double by = u * u * u * curve[1] + 3 * u * u * t * curve[3] +
			    3 * u * t * t * curve[5] + t * t * t * curve[7];

		*ox = (int)bx + 4 + COUNT_CHAR_W * (int)len / 2;
		*oy = (int)by - 5;
		b = label_box(*ox, *oy, len);
		if (spot_free(s, *n, &b))
			goto take;
	}
	for (k = 1; k <= 12; k++) {
		*ox = x;
		*oy = y + (k & 1 ? -1 : 1) * 14 * ((k + 1) / 2);
		b = label_box(*ox, *oy, len);
		if (spot_free(s, *n, &b))
			goto take;
	}
	*ox = x;	/* nowhere free: where it was */
	*oy = y;
	b = label_box(x, y, len);
take:
	if (*n < MAX_SPOTS)
		s[(*n)++] = b;
}

/* The id of the annotation of the function NAME, or NULL. */
static const char *annotation_id(const struct report_model *an,
				 const char *name, char *buf, size_t size)
{
	size_t i;

	if (an->annotation.func && !strcmp(an->annotation.func, name))
		return "annotated";
	for (i = 0; i < an->nr_more; i++)
		if (!strcmp(an->more[i].func, name)) {
			snprintf(buf, size, "annotated-%zu", i + 1);
			return buf;
		}
	return NULL;
}

/* Whether a function's share reads above 0.0 %. */
static int warm(const struct report_model *an, uint64_t samples)
{
	return samples * 2000 > an->samples;
}

/*
 * No 0 % boxes: a function with no share of the samples to speak of
 * (0.05 % or less: it would read 0.0 %) is drawn only when a drawn call
 * leads from it to one that has (main, and callers of that kind, keep the
 * hot functions connected; such a box says "< 0.1 %"); cold callees,
 * stdio under a hot caller, and cold functions with a loop are left out
 * (the tables still list them).  The nodes and edges left, in order;
 * returns how many nodes.
 */
static size_t prune_cold(const struct report_model *an, struct node *nodes,
			 size_t nr, int *from_of, int *to_of, size_t *call_of,
			 size_t *nr_edges)
{
	int keep[MAX_NODES], map[MAX_NODES], changed = 1;
	size_t i, k = 0, e = 0;

	for (i = 0; i < nr; i++)
		keep[i] = warm(an, nodes[i].samples);
	while (changed) {
		changed = 0;
		for (i = 0; i < *nr_edges; i++)
			if (keep[to_of[i]] && !keep[from_of[i]])
				keep[from_of[i]] = changed = 1;
	}
	for (i = 0; i < nr; i++) {
		map[i] = keep[i] ? (int)k : -1;
		if (keep[i])
			nodes[k++] = nodes[i];
	}
	for (i = 0; i < *nr_edges; i++) {
		if (map[from_of[i]] < 0 || map[to_of[i]] < 0)
			continue;
		from_of[e] = map[from_of[i]];
		to_of[e] = map[to_of[i]];
		call_of[e++] = call_of[i];
	}
	*nr_edges = e;
	return k;
}

static void write_graph(const struct report_model *an, FILE *f, size_t top)
{
	struct spot spots[MAX_SPOTS];
	size_t nr_spots = 0;
	struct node nodes[MAX_NODES];
	int from_of[64], to_of[64];
	size_t call_of[64];
	size_t nr = 0, nr_edges = 0, i, pass;
	int rows[MAX_NODES] = { 0 }, max_depth = 0, max_rows = 0, width, height;
	uint64_t max_count = 1;
	char name[160];
	char loop_names[16][160];

	for (i = 0; i < an->nr_calls && nr_edges < 64 && i < 2 * top; i++) {
		int a, b;

		a = node_index(nodes, &nr, an->calls[i].caller);
		b = node_index(nodes, &nr, an->calls[i].callee);
		if (a < 0 || b < 0)
			break;
		call_of[nr_edges] = i;
		from_of[nr_edges] = a;
		to_of[nr_edges] = b;
		nodes[b].in_calls += an->calls[i].count;
		if (an->calls[i].count > max_count)
			max_count = an->calls[i].count;
		nr_edges++;
	}
	for (i = 0; i < an->nr_loops && i < 16; i++) {
		int k;

		function_name(an, an->loops[i].latch, loop_names[i],
			      sizeof(loop_names[i]));
		k = node_index(nodes, &nr, loop_names[i]);
		if (k >= 0 && !nodes[k].loop)
			nodes[k].loop = &an->loops[i];
	}
	for (i = 0; i < an->nr_funcs; i++) {
		size_t k;

		for (k = 0; k < nr; k++)
			if (!strcmp(nodes[k].name, an->funcs[i].name))
				nodes[k].samples = an->funcs[i].samples;
	}
	nr = prune_cold(an, nodes, nr, from_of, to_of, call_of, &nr_edges);
	/* Longest-path depth; nr passes at most, so cycles stop. */
	for (pass = 0; pass < nr; pass++) {
		int changed = 0;

		for (i = 0; i < nr_edges; i++) {
			int a = from_of[i], b = to_of[i];

			if (a != b && nodes[b].depth < nodes[a].depth + 1 &&
			    nodes[a].depth + 1 < (int)nr) {
				nodes[b].depth = nodes[a].depth + 1;
				changed = 1;
			}
		}
		if (!changed)
			break;
	}
	for (i = 0; i < nr; i++) {
		nodes[i].row = rows[nodes[i].depth]++;
		if (nodes[i].depth > max_depth)
			max_depth = nodes[i].depth;
		if (rows[nodes[i].depth] > max_rows)
			max_rows = rows[nodes[i].depth];
	}

	/* As wide as the page at most: a deep graph is drawn smaller
	 * rather than overflowing sideways. */
	width = 2 * MARGIN + (max_depth + 1) * (NODE_W + COL_GAP) - COL_GAP;
	height = 2 * MARGIN + max_rows * (NODE_H + ROW_GAP);
	fprintf(f, "<svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"call graph of the hot paths\">\n",
		width, height, width, height);
	/* userSpaceOnUse: arrowheads keep their size on thick edges. */
	fputs("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" "
	      "refY=\"5\" markerWidth=\"10\" markerHeight=\"10\" "
	      "markerUnits=\"userSpaceOnUse\" "
	      "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
	      "fill=\"#7a4\"/></marker></defs>\n", f);
	for (i = 0; i < nr; i++) {
		spots[nr_spots].x0 = MARGIN + nodes[i].depth * (NODE_W + COL_GAP);
		spots[nr_spots].y0 = MARGIN + nodes[i].row * (NODE_H + ROW_GAP);
		spots[nr_spots].x1 = spots[nr_spots].x0 + NODE_W;
		spots[nr_spots].y1 = spots[nr_spots].y0 + NODE_H;
		nr_spots++;
	}
	for (i = 0; i < nr_edges; i++) {
		const struct node *a = &nodes[from_of[i]], *b = &nodes[to_of[i]];
		int curve[8], lx, ly;
		const struct call_edge *c = &an->calls[call_of[i]];
		double w = 1.5 + 8.0 * (double)c->count / (double)max_count;
		int x1 = MARGIN + a->depth * (NODE_W + COL_GAP) + NODE_W;
		int y1 = MARGIN + a->row * (NODE_H + ROW_GAP) + NODE_H / 2;
		int x2 = MARGIN + b->depth * (NODE_W + COL_GAP);
		int y2 = MARGIN + b->row * (NODE_H + ROW_GAP) + NODE_H / 2;

		fprintf(f, "<g class=\"call\"><title>%" PRIu64 " calls: ",
			c->count);
		put_escaped(f, a->name);
		fputs(" -&gt; ", f);
		put_escaped(f, b->name);
		fputs("</title>", f);
		if (a == b)	/* recursion: a loop under the box */
			fprintf(f, "<path d=\"M%d,%d C%d,%d %d,%d %d,%d\" "
				"stroke-width=\"%.1f\" marker-end=\"url(#arrow)\"/>",
				x1 - 30, y1 + NODE_H / 2, x1 - 30, y1 + NODE_H / 2 + 22,
				x1 - 90, y1 + NODE_H / 2 + 22, x1 - 90,
				y1 + NODE_H / 2 + 2, w);
		else
			fprintf(f, "<path d=\"M%d,%d C%d,%d %d,%d %d,%d\" "
				"stroke-width=\"%.1f\" marker-end=\"url(#arrow)\"/>",
				x1, y1, x1 + COL_GAP / 2, y1, x2 - COL_GAP / 2, y2,
				x2 - 2, y2, w);
		curve[0] = x1;
		curve[1] = y1;
		curve[2] = x1 + COL_GAP / 2;
		curve[3] = y1;
		curve[4] = x2 - COL_GAP / 2;
		curve[5] = y2;
		curve[6] = x2 - 2;
		curve[7] = y2;
		place_label(spots, &nr_spots, curve, a == b,
			    a == b ? x1 - 94 : x2 - 14,
			    a == b ? y1 + NODE_H / 2 + 18 : y2 - 7,
			    c->count, &lx, &ly);
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"count\" "
			"text-anchor=\"end\">%" PRIu64 "</text></g>\n",
			lx, ly, c->count);
	}
	for (i = 0; i < nr; i++) {
		const struct node *n = &nodes[i];
		int x = MARGIN + n->depth * (NODE_W + COL_GAP);
		int y = MARGIN + n->row * (NODE_H + ROW_GAP);
		double share = an->samples ? 100.0 * (double)n->samples /
					     (double)an->samples : 0.0;
		char pct[32];

		/* An annotated function's box leads to its annotation. */
		char idbuf[32];
		const char *link = annotation_id(an, n->name, idbuf,
						 sizeof(idbuf));

		if (link)
			fprintf(f, "<a href=\"#%s\">", link);
		fprintf(f, "<g class=\"fn%s\"><title>", n->loop ? " hot" : "");
		put_escaped(f, n->name);
		if (warm(an, n->samples))
			snprintf(pct, sizeof(pct), "%.1f%%", share);
		else
			snprintf(pct, sizeof(pct), "&lt; 0.1%%");
		fprintf(f, ": %" PRIu64 " samples (%s)</title>"
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"name\">", n->samples, pct,
			x, y, NODE_W, NODE_H, x + 10, y + 19);
		/* What fits the box in the 13px monospace (the title has it
		 * whole). */
		if (strlen(n->name) > 21)
			snprintf(name, sizeof(name), "%.20s\xe2\x80\xa6", n->name);
		else
			snprintf(name, sizeof(name), "%s", n->name);
		put_escaped(f, name);
		fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"meta\">"
			"%s of samples", x + 10, y + 36, pct);
		if (n->loop) {
			double trips = loop_trips(n->loop);

			if (trips > 0)
				fprintf(f, " \xc2\xb7 loop \xc3\x97%.1f", trips);
			else
				fputs(" \xc2\xb7 loop", f);
		}
		fputs(link ? "</text></g></a>\n" : "</text></g>\n", f);
	}
	fputs("</svg>\n", f);
}

static void table_row_addr(const struct report_model *an, FILE *f, uint64_t addr)
{
	char buf[160];

	report_model_name_addr(an, addr, buf, sizeof(buf));
	fputs("<td class=\"sym\">", f);
	put_escaped(f, buf);
	fputs("</td>", f);
}

/* A source position cell: "file:line", or "?". */
static void put_line(FILE *f, const char *file, unsigned int line)
{
	fputs("<td class=\"sym\">", f);
	if (file) {
		put_escaped(f, file);
		fprintf(f, ":%u", line);
	} else {
		fputs("?", f);
	}
	fputs("</td>", f);
}

/* A function instruction by instruction, its heading's id ID (the graph's
 * box of the function links there). */
static void write_annotation(const struct report_model *an, FILE *f,
			     const struct annotation *ann, const char *id)
{
	if (ann->nr_insns) {
		const char *file = NULL;
		unsigned int line = 0;
		char buf[160];
		size_t i;

		fprintf(f, "<h2 id=\"%s\">Annotated: <code>", id);
		put_escaped(f, ann->func);
		fprintf(f, "</code> (%" PRIu64 " samples)</h2>\n<table class=\"ann\">"
			"<tr><th>samples</th><th class=\"sym\">address</th>"
			"<th class=\"sym\">instruction</th>"
			"<th class=\"sym\">records leaving it</th></tr>\n",
			ann->samples);
		for (i = 0; i < ann->nr_insns; i++) {
			const struct annotated_insn *in = &ann->insns[i];
			size_t hidden = annotation_hidden_run(ann, i), k;

			if (hidden) {
				fprintf(f, "<tr class=\"src\"><td></td><td class=\"sym\" "
					"colspan=\"3\">&hellip; %zu instructions without "
					"samples or records</td></tr>\n", hidden);
				i += hidden - 1;
				file = NULL;
				continue;
			}

			if (in->file && (in->file != file || in->line != line)) {
				fputs("<tr class=\"src\"><td></td><td class=\"sym\" "
				      "colspan=\"3\">", f);
				put_escaped(f, in->file);
				fprintf(f, ":%u</td></tr>\n", in->line);
				file = in->file;
				line = in->line;
			}
			if (in->samples)
				fprintf(f, "<tr><td>%" PRIu64 "</td>", in->samples);
			else
				fputs("<tr><td></td>", f);
			table_row_addr(an, f, in->addr);
			fputs("<td class=\"sym\">", f);
			put_escaped(f, in->text);
			fputs("</td><td class=\"sym\">", f);
			for (k = 0; k < in->nr_exits && k < 4; k++) {
				const struct edge *e = &ann->exits[in->first_exit + k];

				report_model_name_addr(an, e->to, buf, sizeof(buf));
				fputs("&rarr; ", f);
				put_escaped(f, buf);
				fprintf(f, " %" PRIu64 " %s%s", e->count,
					edge_type_name(e), k + 1 < in->nr_exits ? "<br>" : "");
			}
			if (in->nr_exits > 4)
				fprintf(f, "&hellip; %zu more", in->nr_exits - 4);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
}

int report_render_html(const struct report_model *an, FILE *f, size_t top)
{
	char la[160], lb[160];
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>rvperf report: ", f);
	put_escaped(f, an->input);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fbfbf8}\n"
	      "h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}\n"
	      ".sub{color:#666;margin-bottom:16px}\n"
	      ".graph{background:#fff;border:1px solid #ddd;border-radius:8px;"
	      "max-width:100%;height:auto}\n"
	      ".graph rect{fill:#eef4ff;stroke:#5b7bd5;stroke-width:1.5}\n"
	      ".graph .hot rect{fill:#fff1e6;stroke:#d9731a;stroke-width:2}\n"
	      ".graph .call path{fill:none;stroke:#7a4;stroke-opacity:.75}\n"
	      ".graph .name{font:600 13px ui-monospace,monospace}\n"
	      ".graph .meta{font-size:11px;fill:#555}.graph .count{font-size:11px;fill:#476}\n"
	      "table{border-collapse:collapse;background:#fff}\n"
	      "td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:right}\n"
	      "td.sym,th.sym{text-align:left;font-family:ui-monospace,monospace;"
	      "overflow-wrap:anywhere}\n"
	      ".ann tr.src td{background:#f4f4ee;color:#555}\n"
	      "</style></head><body>\n<h1>Branch profile</h1>\n<div class=\"sub\">", f);
	put_escaped(f, an->input);
	fprintf(f, ": %" PRIu64 " samples, %" PRIu64 " branch records</div>\n",
		an->samples, an->records);
	if (!an->records) {
		fputs("<p>No branch stacks in this file: record with -b / -j.</p>"
		      "</body></html>\n", f);
		return ferror(f) ? -1 : 0;
	}
	fputs("<h2>Hot paths</h2>\n", f);
	write_graph(an, f, top);

	fputs("<h2>Hot loops</h2>\n<p class=\"sub\">Natural loops of the "
	      "functions' control-flow graphs; exits by a return, a jump out "
	      "(break), or falling out.</p>\n<table><tr><th>iterations</th>"
	      "<th>exits</th><th>iterations per entry</th><th>return</th>"
	      "<th>jump</th><th>fall</th><th>blocks</th>"
	      "<th class=\"sym\">latch</th><th class=\"sym\">head</th>"
	      "<th class=\"sym\">line</th></tr>\n", f);
	for (i = 0; i < an->nr_loops && i < top; i++) {
		const struct loop *l = &an->loops[i];

		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%" PRIu64 "</td>",
			l->taken, l->exits);
		if (l->exits)
			fprintf(f, "<td>%.1f</td>", loop_trips(l));
		else
			fputs("<td>no exit seen</td>", f);
		fprintf(f, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td><td>%u</td>", l->exits_ret, l->exits_jump,
			l->exits_fall, l->nr_blocks);
		table_row_addr(an, f, l->latch);
		table_row_addr(an, f, l->head);
		put_line(f, l->file, l->line);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<h2>Indirect jumps and calls</h2>\n<table><tr>"
	      "<th>count</th><th>share</th><th>targets</th>"
	      "<th class=\"sym\">from</th><th class=\"sym\">type</th>"
	      "<th class=\"sym\">hottest targets</th></tr>\n", f);
	for (i = 0; i < an->nr_indirects && i < top; i++) {
		const struct indirect *d = &an->indirects[i];
		char buf[160];
		size_t k;

		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.2f%%</td><td>%zu</td>",
			d->count, 100.0 * (double)d->count / (double)an->records,
			d->nr_targets);
		table_row_addr(an, f, d->from);
		fprintf(f, "<td class=\"sym\">%s</td><td class=\"sym\">",
			d->type == 5 ? "IND_CALL" : "IND");
		for (k = 0; k < d->nr_targets && k < INDIRECT_TOP; k++) {
			report_model_name_addr(an, d->to[k], buf, sizeof(buf));
			put_escaped(f, buf);
			fprintf(f, " (%.1f%%)%s", 100.0 * (double)d->to_count[k] /
				(double)d->count, k + 1 < d->nr_targets ? "<br>" : "");
		}
		if (d->nr_targets > INDIRECT_TOP)
			fprintf(f, "&hellip; %zu more", d->nr_targets - INDIRECT_TOP);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Self overhead by function</h2>\n<table><tr>"
	      "<th>samples</th><th>share</th><th class=\"sym\">function</th>"
	      "</tr>\n", f);
	for (i = 0; i < an->nr_funcs && i < top; i++) {
		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.2f%%</td><td class=\"sym\">",
			an->funcs[i].samples, 100.0 * (double)an->funcs[i].samples /
			(double)an->samples);
		put_escaped(f, an->funcs[i].name);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Self overhead by source line</h2>\n<table><tr>"
	      "<th>samples</th><th>share</th><th class=\"sym\">line</th>"
	      "<th class=\"sym\">function</th></tr>\n", f);
	for (i = 0; i < an->nr_lines && i < top; i++) {
		const struct line_samples *ln = &an->lines[i];

		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.2f%%</td>", ln->samples,
			100.0 * (double)ln->samples / (double)an->samples);
		put_line(f, ln->file, ln->line);
		fputs("<td class=\"sym\">", f);
		put_escaped(f, ln->func ? ln->func : "?");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Hottest branch edges</h2>\n<table><tr>"
	      "<th>count</th><th>share</th><th class=\"sym\">from</th>"
	      "<th class=\"sym\">to</th><th class=\"sym\">type</th>"
	      "<th class=\"sym\">source lines</th></tr>\n", f);
	for (i = 0; i < an->nr_edges && i < top; i++) {
		const struct edge *e = &an->edges[i];

		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.2f%%</td>", e->count,
			100.0 * (double)e->count / (double)an->records);
		table_row_addr(an, f, e->from);
		table_row_addr(an, f, e->to);
		fprintf(f, "<td class=\"sym\">%s</td>", edge_type_name(e));
		report_model_line_addr(an, e->from, la, sizeof(la));
		report_model_line_addr(an, e->to, lb, sizeof(lb));
		fputs("<td class=\"sym\">", f);
		put_escaped(f, *la ? la : "?");
		fputs(" &rarr; ", f);
		put_escaped(f, *lb ? lb : "?");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Call edges</h2>\n<table><tr><th>count</th>"
	      "<th class=\"sym\">caller</th><th class=\"sym\">callee</th></tr>\n",
	      f);
	for (i = 0; i < an->nr_calls && i < top; i++) {
		fprintf(f, "<tr><td>%" PRIu64 "</td><td class=\"sym\">",
			an->calls[i].count);
		put_escaped(f, an->calls[i].caller);
		fputs("</td><td class=\"sym\">", f);
		put_escaped(f, an->calls[i].callee);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	write_annotation(an, f, &an->annotation, "annotated");
	for (i = 0; i < an->nr_more; i++) {
		char id[32];

		snprintf(id, sizeof(id), "annotated-%zu", i + 1);
		write_annotation(an, f, &an->more[i], id);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
