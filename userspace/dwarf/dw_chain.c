// SPDX-License-Identifier: BSD-2-Clause
/*
 * dw_chain.c - inline chains of code addresses with elfutils: the line-table
 * row from libdwfl (which finds the debug information, wherever it is
 * kept, and decompresses it), the nest of subprogram and inlined-subroutine
 * scopes from libdw's dwarf_getscopes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "dw_chain.h"
#include "userspace/elf/elf_syms.h"

/* GCC's call-site discriminator (DWARF 5 has none of its own). */
#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

#define MAX_SCOPES	64

/* The address ranges of every function (outermost subprogram), sorted:
 * an address finds its function by binary search, and its inline chain
 * below that alone, not by walking its unit's DIEs from the top. */
struct dw_range {
	Dwarf_Addr lo, hi;	/* DWARF addresses: [lo, hi) */
	Dwarf_Addr bias;	/* the unit's: Dwfl address - DWARF address */
	Dwarf_Die func;
};

static int cmp_range(const void *a, const void *b)
{
	const struct dw_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Adds the ranges of the functions below parent (through namespaces and
 * types, where C++ keeps them); 0, or -1 when out of memory. */
static int index_functions(struct dw_info *di, Dwarf_Die *parent,
			   Dwarf_Addr bias, size_t *cap)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			while ((off = dwarf_ranges(&child, off, &base, &start,
						   &end)) > 0) {
				struct dw_range *r;

				if (start >= end)
					continue;
				if (di->nr_ranges == *cap) {
					*cap = *cap ? 2 * *cap : 256;
					r = realloc(di->ranges,
						    *cap * sizeof(*r));
					if (!r)
						return -1;
					di->ranges = r;
				}
				r = &di->ranges[di->nr_ranges++];
				r->lo = start;
				r->hi = end;
				r->bias = bias;
				r->func = child;
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			if (index_functions(di, &child, bias, cap))
				return -1;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The range holding the Dwfl address a, or NULL. */
static const struct dw_range *range_at(const struct dw_info *di, Dwarf_Addr a)
{
	size_t lo = 0, hi = di->nr_ranges;

	while (lo < hi) {	/* the last range starting at or below a */
		size_t mid = lo + (hi - lo) / 2;

		if (di->ranges[mid].lo + di->ranges[mid].bias <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && a < di->ranges[lo - 1].hi + di->ranges[lo - 1].bias)
		return &di->ranges[lo - 1];
	return NULL;
}

static int first_module(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr start, void *arg)
{
	(void)userdata, (void)name, (void)start;
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

int dw_load(struct dw_info *di, const char *path)
{
	Dwfl_Module *mod = NULL;
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	GElf_Addr elf_bias;
	size_t cap = 0;
	int e_type;

	memset(di, 0, sizeof(*di));
	if (elf_check_file(path, &e_type, di->error, sizeof(di->error)))
		return -1;
	/* A relocatable object's addresses are not a running program's. */
	if (e_type == ET_REL) {
		snprintf(di->error, sizeof(di->error), "a relocatable object "
			 "(ET_REL): give the linked program");
		return -1;
	}
	di->dwfl = elf_dwfl_open(path, di->error, sizeof(di->error));
	if (!di->dwfl)
		return -1;
	dwfl_getmodules(di->dwfl, first_module, &mod, 0);
	if (!mod || !dwfl_module_getelf(mod, &elf_bias)) {
		snprintf(di->error, sizeof(di->error), "%s", dwfl_errmsg(-1));
		dw_free(di);
		return -1;
	}
	di->module = mod;
	di->bias = elf_bias;
	/* No DWARF at all is no error: the file simply has no lines. */
	while ((cu = dwfl_module_nextcu(mod, cu, &bias))) {
		Dwarf_Lines *lines;
		size_t n;

		if (index_functions(di, cu, bias, &cap)) {
			snprintf(di->error, sizeof(di->error), "out of memory");
			dw_free(di);
			return -1;
		}
		if (dwarf_getsrclines(cu, &lines, &n) == 0)
			di->nr_lines += n;
		else if (!di->warning[0])
			snprintf(di->warning, sizeof(di->warning),
				 "unit at .debug_info offset 0x%llx skipped: %s",
				 (unsigned long long)dwarf_dieoffset(cu),
				 dwarf_errmsg(-1));
	}
	qsort(di->ranges, di->nr_ranges, sizeof(*di->ranges), cmp_range);
	return 0;
}

void dw_free(struct dw_info *di)
{
	if (di->dwfl)
		dwfl_end(di->dwfl);
	free(di->ranges);
	di->ranges = NULL;
	di->nr_ranges = 0;
	di->dwfl = NULL;
	di->module = NULL;
}

static const char *scope_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? name : "??";
}

static uint32_t udata(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!dwarf_attr(die, at, &attr) || dwarf_formudata(&attr, &v))
		return 0;
	return (uint32_t)v;
}

static uint32_t decl_line(Dwarf_Die *die)
{
	int line;

	return dwarf_decl_line(die, &line) == 0 && line > 0 ? (uint32_t)line
							    : 0;
}

/* Appends to chain the function scopes below parent that hold the DWARF
 * address a, outermost first: the subprogram, then each inlined
 * subroutine inside it.  Lexical blocks are looked into for what they
 * hold; namespaces and types (C++ member functions) without an address
 * check.  libdw's dwarf_getscopes would not do: past an inlined instance
 * it continues with the scopes around the abstract definition, not with
 * the caller.  Returns the new length. */
static int function_scopes(Dwarf_Die *parent, Dwarf_Addr a, Dwarf_Die *chain,
			   int n, int max)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return n;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			if (dwarf_haspc(&child, a) != 1)
				break;
			if (n == max)
				return n;
			chain[n] = child;
			return function_scopes(&chain[n], a, chain, n + 1, max);
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haspc(&child, a) == 1)
				return function_scopes(&child, a, chain, n,
						       max);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			if (n == 0) {
				int k = function_scopes(&child, a, chain, n,
							max);

				if (k > n)
					return k;
			}
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

int dw_lookup(const struct dw_info *di, uint64_t addr, struct dw_frame *frames,
	      int max)
{
	Dwfl_Module *mod = di->module;
	Dwarf_Addr a = addr + di->bias, dw_bias;
	Dwarf_Die scopes[MAX_SCOPES];
	const struct dw_range *r;
	Dwfl_Line *row;
	Dwarf_Line *line;
	unsigned int disc = 0;
	int lineno, n, k;

	if (!mod || max < 1)
		return 0;
	row = dwfl_module_getsrc(mod, a);
	line = row ? dwfl_dwarf_line(row, &dw_bias) : NULL;
	r = range_at(di, a);
	if (!line && r) {
		/* A unit without .debug_aranges (clang emits none; elfutils
		 * before 0.189 then finds no unit for the address): the unit
		 * of the function our index holds it in. */
		Dwarf_Die cu, func = r->func;

		if (dwarf_diecu(&func, &cu, NULL, NULL))
			line = dwarf_getsrc_die(&cu, a - r->bias);
	}
	if (!line || dwarf_lineno(line, &lineno) || lineno < 0)
		return 0;
	dwarf_linediscriminator(line, &disc);
	n = 0;
	if (r) {
		scopes[0] = r->func;
		n = function_scopes(&scopes[0], a - r->bias, scopes, 1,
				    MAX_SCOPES);
	}
	if (n == 0) {	/* a line, but no function we know of */
		frames[0].name = "??";
		frames[0].decl_line = 0;
	}
	/* frames[k] is scopes[n - 1 - k]: the innermost first. */
	for (k = 0; k < (n ? n : 1) && k < max; k++) {
		if (n) {
			frames[k].name = scope_name(&scopes[n - 1 - k]);
			frames[k].decl_line = decl_line(&scopes[n - 1 - k]);
		}
		frames[k].file = NULL;
		if (k == 0) {
			frames[k].line = (uint32_t)lineno;
			frames[k].discriminator = disc;
		} else {	/* where the inner frame was inlined */
			frames[k].line = udata(&scopes[n - k], DW_AT_call_line);
			frames[k].discriminator =
				udata(&scopes[n - k], DW_AT_GNU_discriminator);
		}
	}
	frames[0].file = dwarf_linesrc(line, NULL, NULL);
	return k;
}

int dw_function_at(const struct dw_info *di, uint64_t addr,
		   struct dw_func *func, uint64_t *lo)
{
	Dwarf_Die die;
	const struct dw_range *r = range_at(di, addr + di->bias);

	if (!r)
		return -1;
	die = r->func;
	func->name = scope_name(&die);
	func->decl_line = decl_line(&die);
	/* The start of the range holding addr: a function split in parts
	 * (hot, cold) starts again in each. */
	*lo = r->lo + r->bias - di->bias;
	return 0;
}
