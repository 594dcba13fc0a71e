// SPDX-License-Identifier: BSD-2-Clause
/*
 * elf_syms.c - function symbols, load segments and the build id of an ELF
 * file, read with elfutils: libelf for the headers and notes, libdwfl for
 * the symbol table, so that a stripped binary gets the symbols of its
 * separate debug file as perf would find them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "elf_syms.h"

static __attribute__((format(printf, 2, 3)))
int fail(struct elf_syms *es, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(es->error, sizeof(es->error), fmt, ap);
	va_end(ap);
	return -1;
}

/* NULL: the default, ":.debug:/usr/lib/debug" (next to the file, in its
 * .debug/, under the global directory, and there by build id). */
static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

void *elf_dwfl_open(const char *path, char *err, size_t errlen)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);

	if (!dwfl) {
		snprintf(err, errlen, "%s", dwfl_errmsg(-1));
		return NULL;
	}
	/* Offline, an executable or shared object sits at its link-time
	 * addresses; what callers ask about is link-time addresses. */
	if (!dwfl_report_offline(dwfl, path, path, -1) ||
	    dwfl_report_end(dwfl, NULL, NULL)) {
		snprintf(err, errlen, "%s", dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Prefer the sized symbol at an address, then the name, so the
	 * order is the same on every run. */
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int first_module(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr start, void *arg)
{
	(void)userdata, (void)name, (void)start;
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/* Whether section shndx of elf holds instructions: symbols of code only
 * (not __ehdr_start and the like). */
static int is_code(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr shdr;

	return scn && gelf_getshdr(scn, &shdr) &&
	       (shdr.sh_flags & SHF_EXECINSTR);
}

/*
 * perf's name@plt stubs: the .plt entries of a dynamically linked program
 * are in no symbol table, so each is named after its .rela.plt relocation
 * (the GOT slot it jumps through, and that slot's symbol), in their order.
 * RISC-V's psABI layout (ELF32 and ELF64 alike): a 32-byte header, the
 * lazy resolver's trampoline, named ".plt" as perf names it, then one
 * 16-byte entry per relocation.  perf 6.12 takes the header for one entry
 * (16 bytes: sh_entsize) on RISC-V and names each stub after the next
 * relocation's symbol; objdump and this code agree on the psABI's.  Other
 * machines get no PLT names.
 */
#define RISCV_PLT_HEADER	32
#define RISCV_PLT_ENTRY		16

static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t strndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) &&
		    (n = elf_strptr(elf, strndx, shdr->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	return NULL;
}

static int add_plt_sym(struct elf_syms *es, uint64_t addr, uint64_t size,
		       const char *name, const char *suffix)
{
	size_t len = strlen(name) + strlen(suffix) + 1;
	char *copy = malloc(len);
	void *p = realloc(es->plt, (es->nr_plt + 1) * sizeof(*es->plt));

	if (!copy || !p) {
		free(copy);
		if (p)
			es->plt = p;
		return fail(es, "out of memory");
	}
	es->plt = p;
	snprintf(copy, len, "%s%s", name, suffix);
	es->plt[es->nr_plt].addr = addr;
	es->plt[es->nr_plt].size = size;
	es->plt[es->nr_plt++].name = copy;
	return 0;
}

static int load_plt(struct elf_syms *es, Elf *elf)
{
	GElf_Shdr plt, rel, dynsym;
	Elf_Scn *scn_rel, *scn_dynsym;
	Elf_Data *rels, *syms;
	size_t i, n;
	int rela;

	if (es->machine != ELF_MACHINE_RISCV ||
	    !section_named(elf, ".plt", &plt) || plt.sh_type == SHT_NOBITS ||
	    plt.sh_size < RISCV_PLT_HEADER)
		return 0;
	scn_rel = section_named(elf, ".rela.plt", &rel);
	rela = 1;
	if (!scn_rel) {
		scn_rel = section_named(elf, ".rel.plt", &rel);
		rela = 0;
	}
	if (!scn_rel || !rel.sh_entsize ||
	    (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL) ||
	    !(scn_dynsym = elf_getscn(elf, rel.sh_link)) ||
	    !gelf_getshdr(scn_dynsym, &dynsym) ||
	    !(rels = elf_getdata(scn_rel, NULL)) ||
	    !(syms = elf_getdata(scn_dynsym, NULL)))
		return 0;
	if (add_plt_sym(es, plt.sh_addr, RISCV_PLT_HEADER, ".plt", ""))
		return -1;
	n = rel.sh_size / rel.sh_entsize;
	for (i = 0; i < n; i++) {
		uint64_t at = plt.sh_addr + RISCV_PLT_HEADER +
			      i * RISCV_PLT_ENTRY;
		const char *name = NULL;
		size_t symidx;
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;

		if (at + RISCV_PLT_ENTRY > plt.sh_addr + plt.sh_size)
			break;
		if (rela ? !gelf_getrela(rels, (int)i, &ra) :
			   !gelf_getrel(rels, (int)i, &r))
			continue;
		symidx = rela ? GELF_R_SYM(ra.r_info) : GELF_R_SYM(r.r_info);
		if (symidx && gelf_getsym(syms, (int)symidx, &sym))
			name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		/* An IRELATIVE slot has no symbol: the stub stays unnamed. */
		if (name && *name && add_plt_sym(es, at, RISCV_PLT_ENTRY, name,
						 "@plt"))
			return -1;
	}
	return 0;
}

/* Room for the PLT stubs after nr symbols, and the stubs there. */
static struct elf_sym *with_plt(struct elf_syms *es, struct elf_sym *syms,
				size_t *nr)
{
	struct elf_sym *p = realloc(syms, (*nr + es->nr_plt + 1) *
					  sizeof(*syms));

	if (!p)
		return NULL;
	memcpy(p + *nr, es->plt, es->nr_plt * sizeof(*p));
	*nr += es->nr_plt;
	return p;
}

/* Whether elf has a section of type type, or one named name (NULL: any). */
static int has_section(Elf *elf, GElf_Word type, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t strndx;
	const char *n;

	if (name && elf_getshdrstrndx(elf, &strndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		if (!name && sh.sh_type == type)
			return 1;
		if (name && (n = elf_strptr(elf, strndx, sh.sh_name)) &&
		    !strcmp(n, name))
			return 1;
	}
	return 0;
}

/*
 * es->warning, when the file's addresses cannot all be named: no symbol
 * table of its own or in a debug file (only its exported functions, from
 * .dynsym, are named), or no DWARF (no source lines).  It says where the
 * debug file was looked for, as libdwfl's standard search goes: by build
 * id under /usr/lib/debug/.build-id/, then its .gnu_debuglink name (else
 * its own name with .debug) beside it, in .debug/ beside it and under
 * /usr/lib/debug/; last, when DEBUGINFOD_URLS is set, at the debuginfod
 * servers it names (elfutils' client, which libdwfl asks itself).
 */
static void note_missing(struct elf_syms *es, const char *path,
			 Dwfl_Module *mod, int nsyms)
{
	const char *debugfile = NULL, *link = NULL, *urls, *asked, *base;
	char dir[1024], idpath[128] = "", name[256];
	GElf_Addr bias;
	GElf_Word crc;
	Elf *main_elf = dwfl_module_getelf(mod, &bias);
	int symtab, dwarf;
	unsigned int i;

	if (!main_elf)
		return;
	symtab = has_section(main_elf, SHT_SYMTAB, NULL);
	dwarf = has_section(main_elf, 0, ".debug_info");
	/* Both libdwfl's symbol table and its DWARF come from the debug file
	 * when the file has none: this looks for it. */
	if (!dwarf)
		dwarf = dwfl_module_getdwarf(mod, &bias) != NULL;
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (debugfile)
		symtab = 1;
	/* A debug file from debuginfod has no name in libdwfl: the symbol
	 * table's owner says where it was read. */
	if (!symtab && nsyms > 1) {
		GElf_Sym sym;
		GElf_Addr addr;
		Elf *owner = NULL;

		dwfl_module_getsym_info(mod, 1, &sym, &addr, NULL, &owner,
					NULL);
		symtab = owner && owner != main_elf &&
			 has_section(owner, SHT_SYMTAB, NULL);
	}
	if (symtab && dwarf)
		return;
	es->no_symtab = !symtab;
	link = dwelf_elf_gnu_debuglink(main_elf, &crc);
	base = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", base ? (int)(base - path) : 1,
		 base ? path : ".");
	base = base ? base + 1 : path;
	snprintf(name, sizeof(name), "%s%s", link ? link : base,
		 link ? "" : ".debug");
	if (es->build_id_size) {
		int at = snprintf(idpath, sizeof(idpath),
				  "/usr/lib/debug/.build-id/%02x/",
				  es->build_id[0]);

		for (i = 1; i < es->build_id_size; i++)
			at += snprintf(idpath + at, sizeof(idpath) - (size_t)at,
				       "%02x", es->build_id[i]);
		snprintf(idpath + at, sizeof(idpath) - (size_t)at, ".debug, ");
	}
	urls = getenv("DEBUGINFOD_URLS");
	asked = ", debuginfod at ";
	if (!urls || !*urls) {
		asked = "; no DEBUGINFOD_URLS";
		urls = "";
	} else if (!dwfl_get_debuginfod_client(es->dwfl)) {
		/* libdwfl asks debuginfod only when it could load the client
		 * library (libdebuginfod.so.1, Debian's libdebuginfod1). */
		asked = "; not from debuginfod: libdebuginfod.so.1 not loaded "
			"(is libdebuginfod1 installed?)";
		urls = "";
	}
	/* libdwfl looks under /usr/lib/debug by name for absolute paths
	 * only. */
	snprintf(es->warning, sizeof(es->warning),
		 "%s (debug file looked for: %s%.200s/%.80s, "
		 "%.200s/.debug/%.80s%s%.200s%s%.80s%s%.100s)",
		 !symtab ? "no symbol table and no debug information, only "
			   "its exported functions are named" :
			   "no debug information, no source lines",
		 idpath, dir, name, dir, name,
		 dir[0] == '/' ? ", /usr/lib/debug" : "",
		 dir[0] == '/' ? dir : "", dir[0] == '/' ? "/" : "",
		 dir[0] == '/' ? name : "",
		 asked, urls);
}

static int load_symbols(struct elf_syms *es, const char *path)
{
	Dwfl_Module *mod = NULL;
	int i, n;

	es->dwfl = elf_dwfl_open(path, es->error, sizeof(es->error));
	if (!es->dwfl)
		return -1;
	dwfl_getmodules(es->dwfl, first_module, &mod, 0);
	n = mod ? dwfl_module_getsymtab(mod) : -1;
	if (mod)
		note_missing(es, path, mod, n);
	es->syms = calloc(n > 0 ? (size_t)n : 1, sizeof(*es->syms));
	if (!es->syms)
		return fail(es, "out of memory");
	for (i = 1; i < n; i++) {	/* 0 is the null symbol */
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *owner;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr,
							   &shndx, &owner, NULL);
		unsigned int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || name[0] == '$' ||
		    strncmp(name, ".L", 2) == 0 ||
		    (type != STT_FUNC && type != STT_NOTYPE) ||
		    (type == STT_NOTYPE && sym.st_size) ||
		    shndx == SHN_UNDEF || shndx >= SHN_LORESERVE ||
		    !is_code(owner, shndx))
			continue;
		/* st_value, not addr: link-time addresses, the same in the
		 * binary and in its debug file. */
		es->syms[es->nr_syms].addr = sym.st_value;
		es->syms[es->nr_syms].size = sym.st_size;
		es->syms[es->nr_syms].name = name;
		es->nr_syms++;
	}
	if (es->nr_plt) {
		struct elf_sym *p = with_plt(es, es->syms, &es->nr_syms);

		if (!p)
			return fail(es, "out of memory");
		es->syms = p;
	}
	qsort(es->syms, es->nr_syms, sizeof(*es->syms), cmp_sym);
	return 0;
}

/* libelf maps a cut file without complaint and reads past its end as
 * zeros: every header table and section must lie inside the file. */
static int check_whole(Elf *elf, const GElf_Ehdr *ehdr, uint64_t size,
		       char *err, size_t errlen)
{
	Elf_Scn *scn = NULL;
	size_t shnum = 0;

	if (ehdr->e_phoff > size ||
	    (uint64_t)ehdr->e_phnum * ehdr->e_phentsize > size - ehdr->e_phoff ||
	    ehdr->e_shoff > size ||
	    (elf_getshdrnum(elf, &shnum) == 0 &&
	     (uint64_t)shnum * ehdr->e_shentsize > size - ehdr->e_shoff)) {
		snprintf(err, errlen, "offset %llu: header tables past the end "
			 "of the file (%llu bytes)",
			 (unsigned long long)ehdr->e_shoff,
			 (unsigned long long)size);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
			snprintf(err, errlen, "offset %llu: section %zu runs "
				 "past the end of the file (%llu bytes)",
				 (unsigned long long)sh.sh_offset,
				 elf_ndxscn(scn), (unsigned long long)size);
			return -1;
		}
	}
	return 0;
}

int elf_check_file(const char *path, int *e_type, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY), ret = -1;
	struct stat st;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
		snprintf(err, errlen, "offset 0: not an ELF file");
	else if (!check_whole(elf, &ehdr, (uint64_t)st.st_size, err, errlen))
		ret = 0;
	if (!ret && e_type)
		*e_type = ehdr.e_type;
	elf_end(elf);
	close(fd);
	return ret;
}

/* ---- perf's view of the same file */

struct perf_sym {
	struct elf_sym sym;
	unsigned int binding;
	size_t order;		/* in the symbol table: ties keep the first */
};

static int cmp_perf_sym(const void *a, const void *b)
{
	const struct perf_sym *x = a, *y = b;

	if (x->sym.addr != y->sym.addr)
		return x->sym.addr < y->sym.addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol (util/symbol.c): whether a stays over b. */
static int perf_prefers_first(const struct perf_sym *a,
			      const struct perf_sym *b)
{
	size_t na, nb;

	if (!b->sym.size && a->sym.size)
		return 1;
	if (!a->sym.size && b->sym.size)
		return 0;
	if ((b->binding == STB_WEAK) != (a->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	na = leading_underscores(a->sym.name);
	nb = leading_underscores(b->sym.name);
	if (na != nb)
		return na < nb;
	na = strlen(a->sym.name);
	nb = strlen(b->sym.name);
	return na >= nb;
}

/* Which symbols perf 6.12 keeps (util/symbol-elf.c, dso__load_sym):
 * functions (FUNC, GNU_IFUNC) and objects of allocated sections, and
 * labels (untyped, visible) of sections named *text* or *data*. */
static int perf_keeps(Elf *owner, const GElf_Sym *sym, GElf_Word shndx,
		      const char *name)
{
	unsigned int type = GELF_ST_TYPE(sym->st_info);
	unsigned int vis = GELF_ST_VISIBILITY(sym->st_other);
	int label = type == STT_NOTYPE && vis != STV_HIDDEN &&
		    vis != STV_INTERNAL;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t strndx;
	const char *secname;

	if (!*name || shndx == SHN_UNDEF || shndx == SHN_ABS ||
	    shndx >= SHN_LORESERVE ||
	    (!label && type != STT_FUNC && type != STT_GNU_IFUNC &&
	     type != STT_OBJECT))
		return 0;
	scn = elf_getscn(owner, shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return 0;
	if (!label)
		return 1;
	secname = elf_getshdrstrndx(owner, &strndx) ? NULL :
		  elf_strptr(owner, strndx, sh.sh_name);
	return secname && (strstr(secname, "text") || strstr(secname, "data"));
}

int elf_syms_load_perf(struct elf_syms *es, const char *path)
{
	struct perf_sym *ps;
	Dwfl_Module *mod = NULL;
	size_t i, j, n = 0;
	int nsyms, k;

	if (elf_syms_load(es, path))
		return -1;
	free(es->syms);
	es->syms = NULL;
	es->nr_syms = 0;
	dwfl_getmodules(es->dwfl, first_module, &mod, 0);
	nsyms = mod ? dwfl_module_getsymtab(mod) : -1;
	if (nsyms < 0)
		nsyms = 0;
	ps = calloc((size_t)nsyms + es->nr_plt + 1, sizeof(*ps));
	es->syms = calloc((size_t)nsyms + es->nr_plt + 1, sizeof(*es->syms));
	if (!ps || !es->syms) {
		free(ps);
		elf_syms_free(es);
		return fail(es, "out of memory");
	}
	for (k = 1; k < nsyms; k++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *owner;
		const char *name = dwfl_module_getsym_info(mod, k, &sym, &addr,
							   &shndx, &owner, NULL);

		/* RISC-V mapping symbols ($x, $xrv64i2p1_...): perf 6.12
		 * keeps them and may name code after them; later perf drops
		 * them, as we do. */
		if (!name || name[0] == '$' ||
		    !perf_keeps(owner, &sym, shndx, name))
			continue;
		ps[n].sym.addr = sym.st_value;
		ps[n].sym.size = sym.st_size;
		ps[n].sym.name = name;
		ps[n].binding = GELF_ST_BIND(sym.st_info);
		ps[n].order = n;
		n++;
	}
	for (i = 0; i < es->nr_plt; i++, n++) {	/* as perf adds them */
		ps[n].sym = es->plt[i];
		ps[n].binding = STB_GLOBAL;
		ps[n].order = n;
	}
	/* perf's symbols__fixup_duplicate: one symbol per address, the best
	 * of them in symbol-table order; then symbols__fixup_end: an unsized
	 * symbol runs to the next one (the last to the page after next). */
	qsort(ps, n, sizeof(*ps), cmp_perf_sym);
	for (i = 0; i < n; i = j) {
		struct perf_sym best = ps[i];

		for (j = i + 1; j < n && ps[j].sym.addr == best.sym.addr; j++)
			if (!perf_prefers_first(&best, &ps[j]))
				best = ps[j];
		es->syms[es->nr_syms++] = best.sym;
	}
	for (i = 0; i < es->nr_syms; i++)
		if (!es->syms[i].size)
			es->syms[i].size = i + 1 < es->nr_syms ?
				es->syms[i + 1].addr - es->syms[i].addr :
				((es->syms[i].addr + 4095) & ~4095ULL) + 4096 -
				es->syms[i].addr;
	free(ps);
	return 0;
}

static int load_headers(struct elf_syms *es, Elf *elf)
{
	GElf_Ehdr ehdr;
	size_t i, phnum;
	const void *id;
	ssize_t id_len;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
		return fail(es, "offset 0: not an ELF file");
	es->elf_class = gelf_getclass(elf) == ELFCLASS64 ? 64 : 32;
	es->pie = ehdr.e_type == ET_DYN;
	es->machine = ehdr.e_machine;
	es->entry = ehdr.e_entry;
	if (elf_getphdrnum(elf, &phnum))
		return fail(es, "program headers: %s", elf_errmsg(-1));
	es->segments = calloc(phnum + 1, sizeof(*es->segments));
	if (!es->segments)
		return fail(es, "out of memory");
	for (i = 0; i < phnum; i++) {
		struct elf_segment *seg = &es->segments[es->nr_segments];
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return fail(es, "program header %zu: %s", i,
				    elf_errmsg(-1));
		if (ph.p_type == PT_INTERP)
			es->interp = 1;
		if (ph.p_type != PT_LOAD)
			continue;
		seg->flags = ph.p_flags;
		seg->memsz = ph.p_memsz;
		seg->offset = ph.p_offset;
		seg->vaddr = ph.p_vaddr;
		seg->filesz = ph.p_filesz;
		es->nr_segments++;
	}
	id_len = dwelf_elf_gnu_build_id(elf, &id);
	if (id_len > 0 && (size_t)id_len <= sizeof(es->build_id)) {
		memcpy(es->build_id, id, (size_t)id_len);
		es->build_id_size = (unsigned int)id_len;
	}
	return 0;
}

/* The headers, load segments and build id; symbols too with SYMBOLS. */
static int load(struct elf_syms *es, const char *path, int symbols)
{
	Elf *elf;
	int fd, err;

	memset(es, 0, sizeof(*es));
	if (elf_check_file(path, NULL, es->error, sizeof(es->error)))
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(es, "%s", strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return fail(es, "offset 0: not an ELF file (%s)",
			    elf_errmsg(-1));
	}
	err = load_headers(es, elf);
	if (!err && symbols)
		err = load_plt(es, elf);
	elf_end(elf);
	close(fd);
	if (!err && symbols)
		err = load_symbols(es, path);
	if (err)
		elf_syms_free(es);
	return err ? -1 : 0;
}

int elf_syms_load(struct elf_syms *es, const char *path)
{
	return load(es, path, 1);
}

int elf_syms_load_headers(struct elf_syms *es, const char *path)
{
	return load(es, path, 0);
}

void elf_syms_free(struct elf_syms *es)
{
	char error[sizeof(es->error)];
	size_t i;

	memcpy(error, es->error, sizeof(error));
	for (i = 0; i < es->nr_plt; i++)
		free((char *)es->plt[i].name);
	free(es->plt);
	free(es->syms);
	free(es->segments);
	if (es->dwfl)
		dwfl_end(es->dwfl);
	memset(es, 0, sizeof(*es));
	memcpy(es->error, error, sizeof(error));
}

int elf_pseudo_file(const char *path)
{
	const char *base = strrchr(path, '/');

	return (base ? base[1] : path[0]) == '[' || strstr(path, "//anon") ||
	       strstr(path, "/memfd:") || !strncmp(path, "memfd:", 6);
}

const struct elf_sym *elf_syms_find(const struct elf_syms *es, uint64_t addr)
{
	size_t lo = 0, hi = es->nr_syms;
	const struct elf_sym *s;

	/* The last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &es->syms[lo - 1];
	/* A sized symbol covers only its size; an unsized one runs to the
	 * next symbol. */
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	return s;
}

int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset,
			uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < es->nr_segments; i++) {
		const struct elf_segment *seg = &es->segments[i];

		if (offset >= seg->offset && offset - seg->offset < seg->filesz) {
			*vaddr = seg->vaddr + (offset - seg->offset);
			return 1;
		}
	}
	return 0;
}
