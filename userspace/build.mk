# SPDX-License-Identifier: BSD-2-Clause
# userspace/: the rvperf command, the perf.data library, the sample workload.
PERFDATA_SRCS := userspace/perfdata/reader.c userspace/perfdata/writer.c \
	userspace/perfdata/order.c
ELF_SRCS := userspace/elf/elf_syms.c
DWARF_SRCS := userspace/dwarf/dw_chain.c
AFDO_SRCS := userspace/autofdo/afdo.c $(DWARF_SRCS)
# ELF and DWARF come from elfutils (Debian's libelf-dev, libdw-dev).
ELFUTILS_LIBS := -ldw -lelf
RVPERF := $(O)/userspace/rvperf
# rvperf tv (userspace/tv/build.mk, read after this file, adds -lelf).
RVPERF_TV_SRCS := userspace/rvperf/tv_cmd.c userspace/tv/tv_codec.c \
	userspace/tv/tv_names.c userspace/tv/tv_shadow.c userspace/tv/tv_disas.c \
	userspace/tv/tv_dump.c \
	userspace/tv/tv_gdb.c userspace/tv/tv_verify_plugin.c qemu-model/core/insnhw.c
# rvperf nexus and the N-Trace library (userspace/nexus/build.mk: -lelf).
RVPERF_NEXUS_SRCS := userspace/rvperf/nexus_cmd.c userspace/nexus/codec.c \
	userspace/nexus/config.c userspace/nexus/encoder.c \
	userspace/nexus/decoder.c userspace/nexus/image.c userspace/nexus/itrace.c
$(eval $(call host-program,$(RVPERF),userspace/rvperf/main.c \
	userspace/rvperf/report.c userspace/rvperf/report_model.c \
	userspace/rvperf/report_text.c userspace/rvperf/report_html.c \
	userspace/rvperf/script.c \
	userspace/rvperf/record.c qemu-model/plugin/filter.c $(PERFDATA_SRCS) \
	$(ELF_SRCS) $(AFDO_SRCS) $(RVPERF_TV_SRCS) $(RVPERF_NEXUS_SRCS)))
HOST_PROGS += $(RVPERF)
$(RVPERF) $(O)/tests/userspace/gen-trace $(O)/tests/userspace/dwarf-lookup \
	$(O)/tests/userspace/elf-syms-dump: \
	HOST_LDFLAGS += $(ELFUTILS_LIBS)

# The sample workload, for the guest (make run, perf-tool test).
$(eval $(call guest-program,$(O)/guest/bin/branchy,userspace/sample/branchy.c))
GUEST_PROGS += $(O)/guest/bin/branchy

# Tests (sources in tests/userspace/; registered here, where the library's
# variables are defined).
$(eval $(call host-program,$(O)/tests/userspace/perfdata-test,\
	tests/userspace/perfdata-test.c $(PERFDATA_SRCS)))
HOST_TESTS += $(O)/tests/userspace/perfdata-test
$(eval $(call host-program,$(O)/tests/userspace/gen-perfdata,\
	tests/userspace/gen-perfdata.c $(PERFDATA_SRCS)))
HOST_PROGS += $(O)/tests/userspace/gen-perfdata
HOST_TESTS += tests/userspace/perf-compat.sh
$(eval $(call host-program,$(O)/tests/userspace/gen-trace,\
	tests/userspace/gen-trace.c $(PERFDATA_SRCS) $(ELF_SRCS)))
HOST_PROGS += $(O)/tests/userspace/gen-trace
HOST_TESTS += tests/userspace/report-test.sh
HOST_TESTS += tests/userspace/html-test.py
HOST_TESTS += tests/userspace/report-same-test.sh
HOST_TESTS += tests/userspace/bad-input-test.sh
HOST_TESTS += tests/userspace/procs-test.sh
HOST_TESTS += tests/userspace/realprogs-test.sh
HOST_TESTS += tests/userspace/perf-flags-test.sh

# Benchmarks.
$(eval $(call host-program,$(O)/tests/bench/bench-perfdata,\
	tests/bench/bench-perfdata.c $(PERFDATA_SRCS)))
BENCHES += $(O)/tests/bench/bench-perfdata
# rvperf report on a recording of more than 1 GB against perf 6.12's
# report -b (time, memory), and rvperf record's cost on the real programs
# against plain qemu-riscv64 (issue 19's goals).
BENCHES += tests/bench/bench-report.sh
BENCHES += tests/bench/bench-record.sh

# The DWARF reader and AutoFDO (sources of the tests in tests/userspace/).
$(eval $(call host-program,$(O)/tests/userspace/dwarf-lookup,\
	tests/userspace/dwarf-lookup.c $(DWARF_SRCS) $(ELF_SRCS)))
HOST_PROGS += $(O)/tests/userspace/dwarf-lookup
$(eval $(call host-program,$(O)/tests/userspace/elf-syms-dump,\
	tests/userspace/elf-syms-dump.c $(ELF_SRCS)))
HOST_PROGS += $(O)/tests/userspace/elf-syms-dump
HOST_TESTS += tests/userspace/dwarf-test.sh
HOST_TESTS += tests/userspace/syms-test.sh
$(eval $(call host-program,$(O)/tests/userspace/gen-stacks,\
	tests/userspace/afdo/gen-stacks.c $(PERFDATA_SRCS)))
HOST_PROGS += $(O)/tests/userspace/gen-stacks
HOST_TESTS += tests/userspace/autofdo-test.sh
