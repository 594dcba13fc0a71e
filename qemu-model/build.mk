# SPDX-License-Identifier: BSD-2-Clause
# qemu-model/: the freestanding CTR and counter core, ctr-sim, their tests.
QM_CORE_SRCS := qemu-model/core/ctrhw.c qemu-model/core/hpmhw.c \
	qemu-model/core/predhw.c qemu-model/core/harthw.c \
	qemu-model/core/insnhw.c
QM_SIM_SRCS := qemu-model/sim/scenario.c
QM_CFLAGS := -Iqemu-model/sim

CTR_SIM := $(O)/qemu-model/ctr-sim
$(eval $(call host-program,$(CTR_SIM),qemu-model/sim/ctr-sim.c \
	$(QM_SIM_SRCS) $(QM_CORE_SRCS),$(QM_CFLAGS)))
HOST_PROGS += $(CTR_SIM)

# The core must build freestanding (no libc): it runs inside QEMU, a TCG
# plugin and firmware-like hosts.
$(O)/qemu-model/freestanding.stamp: $(QM_CORE_SRCS) \
		$(wildcard qemu-model/core/*.h include/rvperf/*.h)
	@mkdir -p $(dir $@)
	$(Q)for f in $(QM_CORE_SRCS); do \
		$(HOST_CC) -std=gnu11 -Wall -Wextra -Werror -ffreestanding \
			-nostdinc -isystem $$($(HOST_CC) -print-file-name=include) \
			-I. -Iinclude $(QM_CFLAGS) -c $$f -o /dev/null || exit 1; \
	done
	$(Q)touch $@
HOST_PROGS += $(O)/qemu-model/freestanding.stamp

# Scenario tests: tests/ctr/*.scn state their expected output inline.
HOST_TESTS += tests/ctr/scenarios.py

# The standalone QEMU fix (qemu-model/qemu/upstream/): its shape, QEMU's
# checkpatch and whether it applies to 10.2.2 (no QEMU build).
HOST_TESTS += qemu-model/qemu/upstream/check-upstream.sh
