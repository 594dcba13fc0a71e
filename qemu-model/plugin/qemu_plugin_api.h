/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qemu_plugin_api.h - the part of QEMU's TCG plugin API this plugin uses,
 * declared from the documented API (docs/devel/tcg-plugins.rst and the
 * kernel-doc of include/qemu/qemu-plugin.h), because Debian ships no
 * qemu-plugin.h.
 *
 * The API is plain C symbols that the QEMU binary exports and the dynamic
 * linker resolves when QEMU dlopen()s the plugin, so what must match is
 * each function's name and argument list and each enum's values.  What we
 * rely on, per plugin API level (QEMU_PLUGIN_VERSION of the QEMU release):
 *
 *   level 1 (QEMU 7.x, 8.x)   everything below except the "level 2+" block;
 *   level 2 (QEMU 9.0)        qemu_plugin_n_vcpus/n_max_vcpus and the
 *                             non-per-vCPU inline ops removed (unused here);
 *                             the register API added;
 *   level 3 (QEMU 9.1)        qemu_plugin_insn_data() copies into a buffer
 *                             instead of returning a pointer; inline
 *                             stores and conditional callbacks (the per-
 *                             vCPU scoreboards came with level 2), which
 *                             plugin.c's gate uses;
 *   level 4 (QEMU 9.2)        memory values in memory callbacks
 *                             (tv_plugin.c), reading memory (tv_verify.c);
 *   level 5 (after 10.0)      writing registers and memory (tv_verify.c).
 *
 * QEMU refuses a plugin whose qemu_plugin_version is below its minimum
 * level (0 up to 8.2, 2 from 9.0) or above its current level, so the plugin
 * decides its level when it is loaded (plugin.c, choose_api_level()) and
 * calls qemu_plugin_insn_data() with the form the running QEMU has.  The
 * level 2+ functions are weak: on a QEMU without them they are NULL.
 */
#ifndef RVPERF_QEMU_PLUGIN_API_H
#define RVPERF_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id,
					     unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id,
					      unsigned int vcpu_index,
					      int64_t num, uint64_t a1,
					      uint64_t a2, uint64_t a3,
					      uint64_t a4, uint64_t a5,
					      uint64_t a6, uint64_t a7,
					      uint64_t a8);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t id,
						  unsigned int vcpu_index,
						  int64_t num, int64_t ret);

/* The plugin's entry point and its API level; QEMU looks both up. */
QEMU_PLUGIN_EXPORT extern int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv);

/* Every level. */
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id,
					  qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id,
					      qemu_plugin_vcpu_syscall_ret_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);
uint64_t qemu_plugin_entry_code(void);
uint64_t qemu_plugin_start_code(void);
uint64_t qemu_plugin_end_code(void);

/*
 * qemu_plugin_insn_data(): levels 1-2 return a pointer to the bytes
 * (const void *f(insn)); level 3 and later copy them (size_t f(insn, dest,
 * len)).  Declared without a prototype here so plugin.c can call it through
 * the right function type.
 */
typedef const void *(*qemu_plugin_insn_data_v1_t)(const struct qemu_plugin_insn *);
typedef size_t (*qemu_plugin_insn_data_v3_t)(const struct qemu_plugin_insn *,
					     void *dest, size_t len);
extern char qemu_plugin_insn_data[];	/* the symbol, untyped */

/*
 * Level 2+ (weak: NULL where QEMU lacks them).  GArray and GByteArray are
 * GLib's; only their public leading members are used.
 */
struct rvp_garray {
	char *data;
	unsigned int len;
};
struct rvp_gbytearray {
	uint8_t *data;
	unsigned int len;
};
struct qemu_plugin_register;
typedef struct {
	struct qemu_plugin_register *handle;
	const char *name;
	const char *feature;
} qemu_plugin_reg_descriptor;

struct rvp_garray *qemu_plugin_get_registers(void) __attribute__((weak));
int qemu_plugin_read_register(struct qemu_plugin_register *handle,
			      struct rvp_gbytearray *buf) __attribute__((weak));
/*
 * Per-vCPU scoreboards, inline operations on them and conditional
 * callbacks: level 2+ (inline stores and conditional callbacks level 3+).
 * qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu is also how the
 * plugin tells level 1 from level 2+ at load.
 */
struct qemu_plugin_scoreboard;
typedef struct {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
} qemu_plugin_u64;
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
	QEMU_PLUGIN_INLINE_STORE_U64,	/* level 3+ */
};
enum qemu_plugin_cond {	/* unsigned comparisons of the entry with imm */
	QEMU_PLUGIN_COND_NEVER,
	QEMU_PLUGIN_COND_ALWAYS,
	QEMU_PLUGIN_COND_EQ,
	QEMU_PLUGIN_COND_NE,
	QEMU_PLUGIN_COND_LT,
	QEMU_PLUGIN_COND_LE,
	QEMU_PLUGIN_COND_GT,
	QEMU_PLUGIN_COND_GE,
};
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size)
	__attribute__((weak));
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score,
				  unsigned int vcpu_index)
	__attribute__((weak));
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
							enum qemu_plugin_op op,
							qemu_plugin_u64 entry,
							uint64_t imm)
	__attribute__((weak));
void qemu_plugin_register_vcpu_tb_exec_cond_cb(struct qemu_plugin_tb *tb,
					       qemu_plugin_vcpu_udata_cb_t cb,
					       enum qemu_plugin_cb_flags flags,
					       enum qemu_plugin_cond cond,
					       qemu_plugin_u64 entry,
					       uint64_t imm, void *userdata)
	__attribute__((weak));
/* GLib, which every QEMU links. */
struct rvp_gbytearray *g_byte_array_new(void) __attribute__((weak));
struct rvp_gbytearray *g_byte_array_set_size(struct rvp_gbytearray *a,
					     unsigned int len)
	__attribute__((weak));
void g_array_free(struct rvp_garray *a, int free_segment)
	__attribute__((weak));


/*
 * Per-instruction and memory callbacks (every level; tv_plugin.c).  The
 * memory value (qemu_plugin_mem_get_value, level 4+, QEMU 9.2) is weak.
 */
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
enum qemu_plugin_mem_value_type {
	QEMU_PLUGIN_MEM_VALUE_U8,
	QEMU_PLUGIN_MEM_VALUE_U16,
	QEMU_PLUGIN_MEM_VALUE_U32,
	QEMU_PLUGIN_MEM_VALUE_U64,
	QEMU_PLUGIN_MEM_VALUE_U128,
};
typedef struct {
	enum qemu_plugin_mem_value_type type;
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
		struct {
			uint64_t low;
			uint64_t high;
		} u128;
	} data;
} qemu_plugin_mem_value;
qemu_plugin_mem_value qemu_plugin_mem_get_value(qemu_plugin_meminfo_t info)
	__attribute__((weak));


/*
 * Level 4+ (QEMU 9.2): reading guest memory by virtual address; level 5+
 * (after QEMU 10.0): writing registers and memory, what tv_verify.c needs to
 * put the trace's state into QEMU.  All weak.  A register write works
 * only in a callback registered with QEMU_PLUGIN_CB_RW_REGS; BUF must
 * hold at least the register's size.
 */
bool qemu_plugin_read_memory_vaddr(uint64_t addr, struct rvp_gbytearray *data,
				   size_t len) __attribute__((weak));
int qemu_plugin_write_register(struct qemu_plugin_register *handle,
			       struct rvp_gbytearray *buf) __attribute__((weak));
bool qemu_plugin_write_memory_vaddr(uint64_t addr, struct rvp_gbytearray *data)
	__attribute__((weak));

/* Level 1 only (removed in 9.0, hence weak): an inline add per instruction. */
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm)
	__attribute__((weak));

#endif /* RVPERF_QEMU_PLUGIN_API_H */
