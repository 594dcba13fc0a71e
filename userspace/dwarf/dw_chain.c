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
#include "elf_syms.h"

/* GCC's call-site discriminator (DWARF 5 has none of its own). */
#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

#define MAX_SCOPES	64

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

		if (dwarf_getsrclines(cu, &lines, &n) == 0)
			di->nr_lines += n;
		else if (!di->warning[0])
			snprintf(di->warning, sizeof(di->warning),
				 "unit at .debug_info offset 0x%llx skipped: %s",
				 (unsigned long long)dwarf_dieoffset(cu),
				 dwarf_errmsg(-1));
	}
	return 0;
}

void dw_free(struct dw_info *di)
{
	if (di->dwfl)
		dwfl_end(di->dwfl);
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
	Dwarf_Die scopes[MAX_SCOPES], *cu;
	Dwfl_Line *row;
	Dwarf_Line *line;
	unsigned int disc = 0;
	int lineno, n, k;

	if (!mod || max < 1)
		return 0;
	row = dwfl_module_getsrc(mod, a);
	line = row ? dwfl_dwarf_line(row, &dw_bias) : NULL;
	if (!line || dwarf_lineno(line, &lineno) || lineno < 0)
		return 0;
	dwarf_linediscriminator(line, &disc);
	cu = dwfl_module_addrdie(mod, a, &dw_bias);
	n = cu ? function_scopes(cu, a - dw_bias, scopes, 0, MAX_SCOPES) : 0;
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
	Dwarf_Addr a = addr + di->bias, dw_bias, base, start, end;
	Dwarf_Die scopes[MAX_SCOPES], *cu;
	ptrdiff_t off = 0;
	int n;

	if (!di->module)
		return -1;
	cu = dwfl_module_addrdie(di->module, a, &dw_bias);
	n = cu ? function_scopes(cu, a - dw_bias, scopes, 0, 1) : 0;
	if (!n)
		return -1;
	func->name = scope_name(&scopes[0]);
	func->decl_line = decl_line(&scopes[0]);
	/* The range holding addr: a function split in parts (hot, cold)
	 * starts again in each. */
	while ((off = dwarf_ranges(&scopes[0], off, &base, &start,
				   &end)) > 0)
		if (a - dw_bias >= start && a - dw_bias < end) {
			*lo = start + dw_bias - di->bias;
			return 0;
		}
	return -1;
}
