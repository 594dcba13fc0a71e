/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dwarf.h - source positions of code addresses, with their inline chains,
 * from the DWARF 2-5 debug information of an ELF file.
 *
 * What AutoFDO needs and nothing more: the line table (.debug_line) and,
 * from .debug_info, every subprogram and inlined subroutine with its
 * address ranges, name, declaration line and call site.  Reads
 * little-endian ELF32/ELF64 executables (no relocations are applied, so
 * relocatable objects are refused), 32- and 64-bit DWARF, DW_FORM_strx,
 * addrx and rnglistx (DWARF 5) as GCC 12 emits them.  Every offset read
 * from the file is bounds-checked; a malformed unit is reported with its
 * section offset and skipped, the rest still loads.
 */
#ifndef RVPERF_DWARF_H
#define RVPERF_DWARF_H

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

struct dw_row {			/* a line-table row: [addr, next row) */
	uint64_t addr;
	uint32_t file, line, discriminator;
	uint32_t unit;		/* index into dw_info.units */
	int end;		/* end_sequence: no code from here */
};

struct dw_scope {		/* a subprogram or inlined subroutine range */
	uint64_t lo, hi;
	uint32_t func;		/* index into dw_info.funcs */
	uint32_t depth;		/* nesting; 0 for a subprogram */
	uint32_t call_line, call_discriminator;	/* inlined only */
	uint64_t max_hi;	/* the largest hi of scopes[0..this] */
};

struct dw_func {
	uint64_t die;		/* .debug_info offset of the defining DIE */
	const char *name;
	uint32_t decl_line;
};

struct dw_unit_files {
	const char **names;	/* file table, index as the line program's */
	uint32_t count;
};

struct dw_info {
	unsigned char *image;	/* the whole file */
	size_t size;
	struct dw_row *rows;
	size_t nr_rows;
	struct dw_scope *scopes;	/* sorted by lo, then depth */
	size_t nr_scopes;
	struct dw_func *funcs;
	size_t nr_funcs;
	struct dw_unit_files *units;
	size_t nr_units;
	char error[256];	/* why dw_load failed */
	char warning[256];	/* the first unit skipped, if any */
};

/* Loads path.  0 on success (a file without DWARF loads with no rows);
 * -1 with di->error set. */
int dw_load(struct dw_info *di, const char *path);
void dw_free(struct dw_info *di);

/*
 * The inline chain of addr: frames[0] is the innermost (where the code
 * was written), frames[n-1] the function the code was compiled into.
 * Returns n (0: no line information for addr), at most max.
 */
int dw_lookup(const struct dw_info *di, uint64_t addr, struct dw_frame *frames,
	      int max);

/* The defining function of the outermost scope holding addr, or NULL. */
const struct dw_func *dw_function_at(const struct dw_info *di, uint64_t addr,
				     uint64_t *lo);

#endif /* RVPERF_DWARF_H */
