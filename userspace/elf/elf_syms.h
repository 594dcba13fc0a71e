/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elf_syms.h - function symbols, load segments and the build id of an ELF
 * file, for naming addresses; read with elfutils (libelf, libdwfl).
 *
 * ELF32 and ELF64 of any machine and byte order.  Symbols: .symtab, else
 * the .symtab of the file's separate debug file (.gnu_debuglink, or
 * /usr/lib/debug/.build-id/ by build id, or a debuginfod server when
 * DEBUGINFOD_URLS is set), else .dynsym; FUNC symbols (and zero-sized
 * untyped ones, which assembly often leaves) of sections that hold code,
 * without RISC-V mapping symbols ($x...) and local labels (.L...), and
 * RISC-V's .plt stubs as name@plt, sorted by address.
 */
#ifndef RVPERF_ELF_SYMS_H
#define RVPERF_ELF_SYMS_H

#include <stddef.h>
#include <stdint.h>

struct elf_sym {
	uint64_t addr, size;
	const char *name;		/* owned by elf_syms.dwfl */
};

struct elf_segment {			/* a PT_LOAD: file offset -> vaddr */
	uint64_t offset, vaddr, filesz, memsz;
	uint32_t flags;			/* p_flags: 1 X, 2 W, 4 R */
};

#define ELF_PF_X	1

struct elf_syms {
	uint16_t machine;		/* e_machine; 243 is RISC-V */
	int elf_class;			/* 32 or 64 */
	int pie;			/* ET_DYN */
	int interp;			/* has PT_INTERP: dynamically linked */
	uint64_t entry;			/* e_entry */
	struct elf_sym *syms;
	size_t nr_syms;
	struct elf_sym *plt;		/* the name@plt stubs (names owned) */
	size_t nr_plt;
	struct elf_segment *segments;
	size_t nr_segments;
	void *dwfl;			/* owns the names (Dwfl *) */
	unsigned char build_id[20];
	unsigned int build_id_size;
	/* Set by elf_syms_load when the file has no symbol table (neither
	 * its own nor a debug file's) or no debug information: what is
	 * missing and where the debug file was looked for, one line. */
	char warning[1400];
	int no_symtab;			/* what the warning says first */
	char error[200];
};

#define ELF_MACHINE_RISCV	243

/* Returns 0, or -1 with es->error set ("not an ELF file", ...). */
int elf_syms_load(struct elf_syms *es, const char *path);
void elf_syms_free(struct elf_syms *es);

/* The same without the symbols (no symbol table read or sorted, no debug
 * file looked for): for callers that need only the headers, the load
 * segments and the build id. */
int elf_syms_load_headers(struct elf_syms *es, const char *path);

/* The same file with perf 6.12's symbol table instead (what `perf
 * script` names addresses by): functions, objects and visible labels,
 * one per address as perf picks it, unsized ones running to the next. */
int elf_syms_load_perf(struct elf_syms *es, const char *path);

/* Whether path names one of perf's made-up mappings ([vdso],
 * [kernel.kallsyms]_text, //anon, ...; also under a --symfs directory),
 * which no file is expected behind: no warning that it is missing. */
int elf_pseudo_file(const char *path);

/* The symbol containing addr (a link-time address), or NULL. */
const struct elf_sym *elf_syms_find(const struct elf_syms *es, uint64_t addr);

/* A file offset to the link-time address of the segment holding it;
 * returns 0 when no PT_LOAD covers it. */
int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset,
			uint64_t *vaddr);

/* Whether path is a whole ELF file (not cut short): 0 with its e_type,
 * or -1 with err set. */
int elf_check_file(const char *path, int *e_type, char *err, size_t errlen);

/* An elfutils session holding path alone, at its link-time addresses,
 * that finds separate debug files the way perf and gdb do; NULL with err
 * set.  Its type is Dwfl *; void * keeps libdwfl.h out of the callers. */
void *elf_dwfl_open(const char *path, char *err, size_t errlen);

#endif /* RVPERF_ELF_SYMS_H */
