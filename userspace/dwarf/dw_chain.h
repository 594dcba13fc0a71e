/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dw_chain.h - source positions of code addresses, with their inline chains,
 * from the debug information of an ELF file, read with elfutils (libdw,
 * libdwfl): what AutoFDO needs and nothing more.
 *
 * elfutils brings what perf relies on too: DWARF 2-5, compressed debug
 * sections (-gz, SHF_COMPRESSED and .zdebug), split DWARF, and debug
 * information kept apart from the binary (.gnu_debuglink, and
 * /usr/lib/debug/.build-id/ by the binary's build id).  Relocatable
 * objects are refused: their addresses are not the running program's.
 */
#ifndef RVPERF_DW_CHAIN_H
#define RVPERF_DW_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/* One level of an inline chain. */
struct dw_frame {
	const char *name;	/* linkage name when there is one, else name */
	uint32_t decl_line;	/* where the function is declared */
	uint32_t line;		/* the position inside this function */
	uint32_t discriminator;
	const char *file;	/* the source file of line (leaf frame only) */
};

struct dw_func {
	const char *name;	/* as in dw_frame */
	uint32_t decl_line;
};

struct dw_range;		/* a function's address range: dw_chain.c's */

struct dw_info {
	void *dwfl;		/* the session (Dwfl *), NULL when not loaded */
	void *module;		/* the file's Dwfl_Module * */
	uint64_t bias;		/* Dwfl address - link-time address */
	size_t nr_lines;	/* line-table rows of every unit; 0: no -g */
	struct dw_range *ranges;	/* every function's, sorted */
	size_t nr_ranges;
	char error[256];	/* why dw_load failed */
	char warning[256];	/* the first unit skipped, if any */
};

/* Loads path.  0 on success (a file without DWARF loads with no lines);
 * -1 with di->error set. */
int dw_load(struct dw_info *di, const char *path);
void dw_free(struct dw_info *di);

/*
 * The inline chain of addr (a link-time address): frames[0] is the
 * innermost (where the code was written), frames[n-1] the function the
 * code was compiled into.  Returns n (0: no line information for addr),
 * at most max.
 */
int dw_lookup(const struct dw_info *di, uint64_t addr, struct dw_frame *frames,
	      int max);

/* The function (outermost scope) holding addr and the start of its
 * address range that holds addr: 0, or -1 when no function holds it. */
int dw_function_at(const struct dw_info *di, uint64_t addr,
		   struct dw_func *func, uint64_t *lo);

#endif /* RVPERF_DW_CHAIN_H */
