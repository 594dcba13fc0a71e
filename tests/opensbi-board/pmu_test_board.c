// SPDX-License-Identifier: BSD-2-Clause
/*
 * pmu_test_board.c - a test board override of the generic platform whose
 * sbi_pmu_device counts the hardware counter callbacks OpenSBI makes
 *
 * A board's own PMU callbacks (T-Head C9xx, Andes) must keep being called
 * with rvperf's OpenSBI series applied.  This override installs a PMU
 * device, as such a board does, on a devicetree whose root is compatible
 * with "rvperf,pmu-test-board" only (no real board and not QEMU virt's own
 * devicetree), and lets the S-mode payload see every call of its hardware
 * counter callbacks through the device's own firmware counters: the
 * platform firmware event (SBI_PMU_FW_PLATFORM) with
 *
 *   event_data[7:0]   a hardware counter index (< SBI_PMU_HW_CTR_MAX)
 *   event_data[15:8]  which callback (PMU_TEST_CB_*)
 *   other bits        zero
 *
 * counts the calls of that callback for that counter on the hart.  The
 * callbacks touch no CSR: on QEMU virt, Sscofpmf does the real work.
 */

#include <platform_override.h>
#include <sbi/sbi_bitops.h>
#include <sbi/sbi_ecall_interface.h>
#include <sbi/sbi_error.h>
#include <sbi/sbi_heap.h>
#include <sbi/sbi_pmu.h>
#include <sbi/sbi_scratch.h>

/* Which call a platform event counts (event_data[15:8]) */
enum pmu_test_cb {
	PMU_TEST_CB_ENABLE_IRQ = 1,	/* hw_counter_enable_irq */
	PMU_TEST_CB_DISABLE_IRQ,	/* hw_counter_disable_irq */
	PMU_TEST_CB_FILTER,		/* hw_counter_filter_mode, any flags */
	PMU_TEST_CB_FILTER_UINH,	/* hw_counter_filter_mode with SET_UINH */
	PMU_TEST_CB_FILTER_SINH,	/* hw_counter_filter_mode with SET_SINH */
	PMU_TEST_CB_MAX
};

#define PMU_TEST_CTR_MASK	0xffULL
#define PMU_TEST_CB_SHIFT	8
#define PMU_TEST_CB_MASK	0xffULL

struct pmu_test_fw_ctr {
	u64 event_data;
	u64 value;	/* the value at the last start or write */
	u64 base;	/* the calls counted at the last start or write */
	bool started;
};

struct pmu_test_hart {
	u64 calls[PMU_TEST_CB_MAX][SBI_PMU_HW_CTR_MAX];
	struct pmu_test_fw_ctr fw[SBI_PMU_FW_CTR_MAX];
};

/* One per hart index, allocated on the cold boot */
static struct pmu_test_hart *pmu_test_harts;

static struct pmu_test_hart *pmu_test_hart(u32 hartindex)
{
	if (!pmu_test_harts || !sbi_hartindex_valid(hartindex))
		return NULL;

	return &pmu_test_harts[hartindex];
}

static void pmu_test_count(enum pmu_test_cb cb, u32 ctr_idx)
{
	struct pmu_test_hart *h = pmu_test_hart(current_hartindex());

	if (h && ctr_idx < SBI_PMU_HW_CTR_MAX)
		h->calls[cb][ctr_idx]++;
}

static void pmu_test_enable_irq(u32 ctr_idx)
{
	pmu_test_count(PMU_TEST_CB_ENABLE_IRQ, ctr_idx);
}

static void pmu_test_disable_irq(u32 ctr_idx)
{
	pmu_test_count(PMU_TEST_CB_DISABLE_IRQ, ctr_idx);
}

static void pmu_test_filter_mode(unsigned long flags, int ctr_idx)
{
	if (ctr_idx < 0)
		return;

	pmu_test_count(PMU_TEST_CB_FILTER, ctr_idx);
	if (flags & SBI_PMU_CFG_FLAG_SET_UINH)
		pmu_test_count(PMU_TEST_CB_FILTER_UINH, ctr_idx);
	if (flags & SBI_PMU_CFG_FLAG_SET_SINH)
		pmu_test_count(PMU_TEST_CB_FILTER_SINH, ctr_idx);
}

static int pmu_test_decode(u64 event_data, u32 *cb, u32 *ctr_idx)
{
	*ctr_idx = event_data & PMU_TEST_CTR_MASK;
	*cb = (event_data >> PMU_TEST_CB_SHIFT) & PMU_TEST_CB_MASK;

	if (event_data >> (PMU_TEST_CB_SHIFT + 8) || !*cb ||
	    *cb >= PMU_TEST_CB_MAX || *ctr_idx >= SBI_PMU_HW_CTR_MAX)
		return SBI_EINVAL;

	return 0;
}

/* The calls the firmware counter's event has counted so far */
static u64 pmu_test_calls(struct pmu_test_hart *h, u64 event_data)
{
	u32 cb, ctr_idx;

	if (pmu_test_decode(event_data, &cb, &ctr_idx))
		return 0;

	return h->calls[cb][ctr_idx];
}

static int pmu_test_validate(u32 hartid, u64 event_data)
{
	u32 cb, ctr_idx;
	int rc;

	rc = pmu_test_decode(event_data, &cb, &ctr_idx);
	if (rc)
		return rc;

	return SBI_PMU_EVENT_TYPE_FW;
}

static struct pmu_test_fw_ctr *pmu_test_fw_ctr(u32 hartid, u32 fw_idx,
					       struct pmu_test_hart **hp)
{
	struct pmu_test_hart *h = pmu_test_hart(sbi_hartid_to_hartindex(hartid));

	if (!h || fw_idx >= SBI_PMU_FW_CTR_MAX)
		return NULL;

	*hp = h;
	return &h->fw[fw_idx];
}

/*
 * Any firmware counter takes any valid encoding; the one OpenSBI asks
 * about first is the one it configures, which then starts from 0.
 */
static bool pmu_test_match(u32 hartid, u32 fw_idx, u64 event_data)
{
	struct pmu_test_hart *h;
	struct pmu_test_fw_ctr *c = pmu_test_fw_ctr(hartid, fw_idx, &h);

	if (!c)
		return false;

	c->event_data = event_data;
	c->value = 0;
	c->base = pmu_test_calls(h, event_data);
	c->started = false;

	return true;
}

static u64 pmu_test_read(u32 hartid, u32 fw_idx)
{
	struct pmu_test_hart *h;
	struct pmu_test_fw_ctr *c = pmu_test_fw_ctr(hartid, fw_idx, &h);

	if (!c)
		return 0;
	if (!c->started)
		return c->value;

	return c->value + pmu_test_calls(h, c->event_data) - c->base;
}

static void pmu_test_write(u32 hartid, u32 fw_idx, u64 value)
{
	struct pmu_test_hart *h;
	struct pmu_test_fw_ctr *c = pmu_test_fw_ctr(hartid, fw_idx, &h);

	if (!c)
		return;

	c->value = value;
	c->base = pmu_test_calls(h, c->event_data);
}

static int pmu_test_start(u32 hartid, u32 fw_idx, u64 event_data)
{
	struct pmu_test_hart *h;
	struct pmu_test_fw_ctr *c = pmu_test_fw_ctr(hartid, fw_idx, &h);

	if (!c || pmu_test_validate(hartid, event_data) < 0)
		return SBI_EINVAL;

	c->value = pmu_test_read(hartid, fw_idx);
	c->event_data = event_data;
	c->base = pmu_test_calls(h, event_data);
	c->started = true;

	return 0;
}

static int pmu_test_stop(u32 hartid, u32 fw_idx)
{
	struct pmu_test_hart *h;
	struct pmu_test_fw_ctr *c = pmu_test_fw_ctr(hartid, fw_idx, &h);

	if (!c)
		return SBI_EINVAL;

	c->value = pmu_test_read(hartid, fw_idx);
	c->started = false;

	return 0;
}

static const struct sbi_pmu_device pmu_test_device = {
	.name = "rvperf_pmu_test",
	.fw_event_validate_encoding = pmu_test_validate,
	.fw_counter_match_encoding = pmu_test_match,
	.fw_counter_read_value = pmu_test_read,
	.fw_counter_write_value = pmu_test_write,
	.fw_counter_start = pmu_test_start,
	.fw_counter_stop = pmu_test_stop,
	.hw_counter_enable_irq = pmu_test_enable_irq,
	.hw_counter_disable_irq = pmu_test_disable_irq,
	.hw_counter_filter_mode = pmu_test_filter_mode,
};

static int pmu_test_pmu_init(void)
{
	pmu_test_harts = sbi_calloc(sizeof(*pmu_test_harts), sbi_hart_count());
	if (!pmu_test_harts)
		return SBI_ENOMEM;

	sbi_pmu_set_device(&pmu_test_device);

	return generic_pmu_init();
}

static int pmu_test_platform_init(const void *fdt, int nodeoff,
				  const struct fdt_match *match)
{
	generic_platform_ops.pmu_init = pmu_test_pmu_init;

	return 0;
}

static const struct fdt_match pmu_test_match_table[] = {
	{ .compatible = "rvperf,pmu-test-board" },
	{ },
};

const struct fdt_driver rvperf_pmu_test_board = {
	.match_table = pmu_test_match_table,
	.init = pmu_test_platform_init,
};
