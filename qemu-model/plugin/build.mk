# SPDX-License-Identifier: BSD-2-Clause
# qemu-model/plugin/: the TCG plugin that runs the core on stock QEMU.
# QEMU dlopen()s it and resolves the plugin API against its own exports.
PLUGIN_SO := $(O)/qemu-model/librvperf-ctr.so
PLUGIN_SRCS := qemu-model/plugin/plugin.c qemu-model/plugin/filter.c
$(eval $(call host-program,$(PLUGIN_SO),$(PLUGIN_SRCS) $(QM_CORE_SRCS),\
	$(QM_CFLAGS) -Iqemu-model/plugin -O2 -flto -shared -fPIC \
	-fvisibility=hidden -pthread))
HOST_PROGS += $(PLUGIN_SO)

# Host test of the perf filter words.
$(eval $(call host-program,$(O)/tests/plugin/filter-test,\
	tests/plugin/filter-test.c qemu-model/plugin/filter.c,\
	$(QM_CFLAGS) -Iqemu-model/plugin))
HOST_TESTS += $(O)/tests/plugin/filter-test
HOST_TESTS += tests/plugin/record-test.sh
HOST_TESTS += tests/plugin/run-demo-test.sh
BENCHES += tests/bench/bench-plugin.sh
