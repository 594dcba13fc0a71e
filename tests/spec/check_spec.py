#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Every constant of include/rvperf/*.h against the specification it comes
from.  Prints TAP; exits 1 on any failure.

  (a) Values recomputed from the spec files in $SPECS_DIR (default: ../shared/
      specs next to the repository top): the tables, register diagrams and
      bit-field definitions of the SBI PMU chapter, both CTR layouts, N-Trace
      and the tandem trace protocol.  Values the shared specs do not hold (CSR
      numbers, Sscofpmf and Smstateen bits, the standard SBI error codes) are
      checked against transcriptions below that name their table.  Where two
      sources give a value, they must agree.  Without the spec files the
      spec-derived results are reported as skipped.
  (b) Every value macro of the headers must be printed by dump-consts and be
      derived by some rule: nothing enters the headers untested.
  (c) tests/spec/expected.tsv (NAME, VALUE, SECTION) is compared with the
      dump, so the constants stay checked where the spec files are absent.

  check_spec.py --write-expected   rewrites expected.tsv from the specs.

The constants come from $O/tests/spec/dump-consts (O defaults to build).
"""

import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPECS = os.environ.get('SPECS_DIR') or os.path.join(TOP, '..', 'shared', 'specs')
O = os.environ.get('O') or 'build'
DUMP = os.path.join(O if os.path.isabs(O) else os.path.join(TOP, O),
                    'tests', 'spec', 'dump-consts')
HEADERS = os.path.join(TOP, 'include', 'rvperf')
EXPECTED = os.path.join(TOP, 'tests', 'spec', 'expected.tsv')

# The dump runs on an LP64 host: an SBI "XLEN-wide" value (unsigned long) is
# 64 bits there.
XLEN = 64

# Spec files, by role (README.md of the spec directory).
SPEC_FILES = {
    'pmu': 'sbi-ext-pmu-latest.adoc',
    'ctr_v1': 'ctr-smctr-ssctr-v1.0-body.adoc',
    'ctr_draft': '002_*.txt',
    'ntrace': '001_*.txt',
    'tandem': '000_*.txt',
}

PMU = 'SBI PMU'
V1 = 'CTR v1.0'
DRAFT = 'CTR v0.1.4 draft'
NTRACE = 'N-Trace 1.0'
TANDEM = 'Trace Protocol (tandem)'
PRIV = 'privileged spec'
SBI_ERRORS_SECTION = 'SBI spec, binary encoding chapter, standard error codes'


def bits(hi, lo):
    return ((1 << (hi - lo + 1)) - 1) << lo


def macro_words(name):
    """'Other indirect jump (with linkage)' -> 'OTHER_INDIRECT_JUMP'."""
    name = re.sub(r'\s*\(.*?\)', '', name)
    name = re.sub(r'(?i)co-routine', 'coroutine', name)
    name = re.sub(r'(?i)un-inferable', 'uninferable', name)
    name = re.sub(r'(?i)inferrable', 'inferable', name)
    return re.sub(r'[^A-Z0-9]+', '_', name.upper()).strip('_')


class Rules:
    """{macro: [(value, where), ...]}: what each source says a macro is."""

    def __init__(self):
        self.src = {}

    def add(self, name, value, where):
        self.src.setdefault(name, [])
        if (value, where) not in self.src[name]:
            self.src[name].append((value, where))

    def field(self, name, hi, lo, where):
        """A register field: the mask, and the shift when it is wider."""
        self.add(name, bits(hi, lo), where)
        if hi != lo:
            self.add(name + '_SHIFT', lo, where)


# ------------------------------------------------------------ transcriptions

def priv_rules(r):
    """Values from the RISC-V privileged specification, which is not among
    the shared spec files: transcribed here from its tables, cited per row
    group.  Counter banks are written as the tables write them, first/last
    with N running 3..31."""
    unpriv = PRIV + ', table "Currently allocated RISC-V unprivileged CSR addresses"'
    sup = PRIV + ', table "Currently allocated RISC-V supervisor-level CSR addresses"'
    hyp = PRIV + ', table "Currently allocated RISC-V hypervisor and VS CSR addresses"'
    mach = PRIV + ', table "Currently allocated RISC-V machine-level CSR addresses"'
    rows = [
        (unpriv, 'CYCLE', 0xC00), (unpriv, 'TIME', 0xC01), (unpriv, 'INSTRET', 0xC02),
        (unpriv, 'CYCLEH', 0xC80), (unpriv, 'TIMEH', 0xC81), (unpriv, 'INSTRETH', 0xC82),
        (sup, 'SIE', 0x104), (sup, 'SCOUNTEREN', 0x106), (sup, 'SSTATEEN0', 0x10C),
        (sup, 'SIP', 0x144), (sup, 'SCOUNTOVF', 0xDA0), (sup, 'SRMCFG', 0x181),
        (sup, 'SISELECT', 0x150), (sup, 'SIREG', 0x151), (sup, 'SIREG2', 0x152),
        (sup, 'SIREG3', 0x153), (sup, 'SIREG4', 0x155), (sup, 'SIREG5', 0x156),
        (sup, 'SIREG6', 0x157),
        (hyp, 'HCOUNTEREN', 0x606), (hyp, 'HSTATEEN0', 0x60C), (hyp, 'HSTATEEN0H', 0x61C),
        (hyp, 'VSISELECT', 0x250), (hyp, 'VSIREG', 0x251), (hyp, 'VSIREG2', 0x252),
        (hyp, 'VSIREG3', 0x253), (hyp, 'VSIREG4', 0x255), (hyp, 'VSIREG5', 0x256),
        (hyp, 'VSIREG6', 0x257),
        (mach, 'MIDELEG', 0x303), (mach, 'MIE', 0x304), (mach, 'MCOUNTEREN', 0x306),
        (mach, 'MSTATEEN0', 0x30C), (mach, 'MSTATEEN0H', 0x31C), (mach, 'MIP', 0x344),
        (mach, 'MISELECT', 0x350), (mach, 'MIREG', 0x351), (mach, 'MIREG2', 0x352),
        (mach, 'MIREG3', 0x353), (mach, 'MIREG4', 0x355), (mach, 'MIREG5', 0x356),
        (mach, 'MIREG6', 0x357),
        (mach, 'MCYCLE', 0xB00), (mach, 'MINSTRET', 0xB02),
        (mach, 'MCYCLEH', 0xB80), (mach, 'MINSTRETH', 0xB82),
        (mach, 'MCOUNTINHIBIT', 0x320), (mach, 'MCYCLECFG', 0x321),
        (mach, 'MINSTRETCFG', 0x322), (mach, 'MCYCLECFGH', 0x721),
        (mach, 'MINSTRETCFGH', 0x722),
    ]
    for where, name, value in rows:
        r.add('RVP_CSR_' + name, value, where)
    banks = [  # (where, name pattern, CSR of N = 3, CSR of N = 31)
        (unpriv, 'HPMCOUNTER%d', 0xC03, 0xC1F),
        (unpriv, 'HPMCOUNTER%dH', 0xC83, 0xC9F),
        (mach, 'MHPMCOUNTER%d', 0xB03, 0xB1F),
        (mach, 'MHPMCOUNTER%dH', 0xB83, 0xB9F),
        (mach, 'MHPMEVENT%d', 0x323, 0x33F),
        (mach, 'MHPMEVENT%dH', 0x723, 0x73F),
    ]
    for where, pattern, first, last in banks:
        assert last - first == 31 - 3
        for n in range(3, 32):
            r.add('RVP_CSR_' + pattern % n, first + n - 3, where)

    sscofpmf = PRIV + ', Sscofpmf "Count Overflow Control" (mhpmevent[63:56])'
    for bit, name in zip(range(63, 57, -1), ['OF', 'MINH', 'SINH', 'UINH', 'VSINH', 'VUINH']):
        r.add('RVP_MHPMEVENT_' + name, 1 << bit, sscofpmf)
        r.add('RVP_MHPMEVENTH_' + name, 1 << (bit - 32), sscofpmf + ', RV32 mhpmeventh')
    r.add('RVP_MHPMEVENT_EVENT', bits(55, 0), sscofpmf + ': bits below 56')
    lcofi = PRIV + ', Sscofpmf: LCOFI is interrupt 13'
    r.add('RVP_IRQ_LCOFI', 13, lcofi)
    r.add('RVP_MIP_LCOFIP', 1 << 13, lcofi)
    r.add('RVP_MIE_LCOFIE', 1 << 13, lcofi)
    r.add('RVP_STATEEN0_CSRIND', 1 << 60, PRIV + ', Smstateen mstateen0 diagram (CSRIND)')
    r.add('RVP_STATEEN0_SE0', 1 << 63, PRIV + ', Smstateen mstateen0 diagram (SE0)')
    r.add('RVP_STATEEN0_SRMCFG', 1 << 55, PRIV + ', Smstateen mstateen0 diagram (SRMCFG)')
    srmcfg = PRIV + ', Ssqosid srmcfg diagram'
    r.add('RVP_SRMCFG_RCID', bits(11, 0), srmcfg + ' (RCID)')
    r.add('RVP_SRMCFG_MCID', bits(27, 16), srmcfg + ' (MCID)')
    r.add('RVP_EXC_BREAKPOINT', 3,
          PRIV + ', table "Machine cause register (mcause) values after trap" (Breakpoint)')
    r.add('RVP_EXC_ECALL_U', 8,
          PRIV + ', table "Machine cause register (mcause) values after trap" (Environment call from U-mode)')
    r.add('RVP_EXC_ECALL_S', 9,
          PRIV + ', table "Machine cause register (mcause) values after trap" (Environment call from S-mode)')
    levels = PRIV + ', table "RISC-V privilege levels"'
    r.add('RVP_PRV_U', 0, levels)
    r.add('RVP_PRV_S', 1, levels)
    r.add('RVP_PRV_M', 3, levels)


# The SBI specification's standard error codes: not in the PMU chapter.
SBI_ERRORS = [
    ('SBI_SUCCESS', 0), ('SBI_ERR_FAILED', -1), ('SBI_ERR_NOT_SUPPORTED', -2),
    ('SBI_ERR_INVALID_PARAM', -3), ('SBI_ERR_DENIED', -4),
    ('SBI_ERR_INVALID_ADDRESS', -5), ('SBI_ERR_ALREADY_AVAILABLE', -6),
    ('SBI_ERR_ALREADY_STARTED', -7), ('SBI_ERR_ALREADY_STOPPED', -8),
    ('SBI_ERR_NO_SHMEM', -9), ('SBI_ERR_INVALID_STATE', -10),
    ('SBI_ERR_BAD_RANGE', -11), ('SBI_ERR_TIMEOUT', -12), ('SBI_ERR_IO', -13),
    ('SBI_ERR_DENIED_LOCKED', -14),
]


def transcribed_rules():
    r = Rules()
    priv_rules(r)
    for name, value in SBI_ERRORS:
        r.add('RVP_' + name, value, SBI_ERRORS_SECTION)
    return r


# ------------------------------------------------------------------ SBI PMU

def adoc_tables(text):
    """(table id, table title, [row cells]) for every asciidoc table;
    continuation lines (no leading '|') belong to the cell above."""
    out, tid, title, rows, inside = [], None, None, [], False
    for line in text.splitlines():
        m = re.match(r'^\[#([\w-]+)\]', line)
        if m and not inside:
            tid = m.group(1)
        m = re.match(r'^\.([A-Z]\S.*)$', line)
        if m and not inside:
            title = m.group(1).strip()
        if line.strip() == '|===':
            if inside:
                out.append((tid, title, rows))
                tid, title, rows = None, None, []
            inside = not inside
            continue
        if inside and line.startswith('|'):
            rows.append([c.strip() for c in line.split('|')[1:]])
        elif inside and rows and line.strip():
            rows[-1][-1] += ' ' + line.strip()
    return out


def derive_pmu(text, r):
    reserved = {
        'table_pmu_counter_cfg_match_flags': 'RVP_SBI_PMU_CFG_FLAG_RESERVED',
        'table_pmu_counter_start_flags': 'RVP_SBI_PMU_START_FLAG_RESERVED',
        'table_pmu_counter_stop_flags': 'RVP_SBI_PMU_STOP_FLAG_RESERVED',
    }
    event_types = {
        'Hardware general events': 'RVP_SBI_PMU_EVENT_TYPE_HW',
        'Hardware Cache events': 'RVP_SBI_PMU_EVENT_TYPE_CACHE',
        'Hardware raw events (deprecated)': 'RVP_SBI_PMU_EVENT_TYPE_RAW',
        'Hardware raw events v2': 'RVP_SBI_PMU_EVENT_TYPE_RAW_V2',
        'Firmware events': 'RVP_SBI_PMU_EVENT_TYPE_FW',
    }
    for tid, title, rows in adoc_tables(text):
        where = '%s, table "%s"' % (PMU, title or tid)
        for cells in rows[1:]:  # the first row names the columns
            if len(cells) < 2:
                continue
            name, val = cells[0], cells[1]
            if tid == 'table_pmu_function_list' and name.startswith('sbi_pmu_'):
                r.add('RVP_SBI_PMU_FID_' + name[len('sbi_pmu_'):].upper(), int(cells[2]), where)
                r.add('RVP_SBI_EXT_PMU', int(cells[3], 16), where)
            elif tid == 'table_pmu_event_type':
                for desc, macro in event_types.items():
                    if re.match(re.escape(desc) + r'(\s+Bits|$)', cells[2]):
                        r.add(macro, int(val), where)
                m = re.search(r'Bits allowed for mhpmeventX \[0:(\d+)\]', cells[2])
                if m and val == '2':
                    r.add('RVP_SBI_PMU_RAW_EVENT_MASK', bits(int(m.group(1)), 0), where + ', type 2')
                elif m and val == '3':
                    r.add('RVP_SBI_PMU_RAW_V2_EVENT_MASK', bits(int(m.group(1)), 0), where + ', type 3')
                    r.add('RVP_MHPMEVENT_EVENT', bits(int(m.group(1)), 0), where + ', type 3')
            elif tid in reserved and name == '*RESERVED*':
                m = re.match(r'^(\d+):\(XLEN-1\)$', val)
                if m:
                    r.add(reserved[tid] + '_SHIFT', int(m.group(1)), where)
                    r.add(reserved[tid] + '_MASK', bits(XLEN - 1, int(m.group(1))), where)
            elif re.match(r'^SBI_PMU_\w+$', name) and re.match(r'^\d+$', val):
                r.add('RVP_' + name, int(val), where)
            elif re.match(r'^SBI_PMU_\w+$', name) and re.match(r'^(\d+):(\d+)$', val):
                hi, lo = map(int, val.split(':'))
                if hi == lo:
                    r.add('RVP_' + name, 1 << lo, where)
            elif name == 'Implementation specific events':
                lo, hi = map(int, val.split('-'))
                r.add('RVP_SBI_PMU_FW_IMPL_FIRST', lo, where)
                r.add('RVP_SBI_PMU_FW_IMPL_LAST', hi, where)
            elif tid == 'table_snapshot_shmem_layout':
                off, size = int(val, 16), int(cells[2])
                if name == 'counter_overflow_bitmap':
                    r.add('RVP_SBI_PMU_SNAPSHOT_OVERFLOW_BITMAP_OFFSET', off, where)
                elif name == 'counter_values':
                    r.add('RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET', off, where)
                    r.add('RVP_SBI_PMU_SNAPSHOT_NR_COUNTER_VALUES', size // 8, where)
                elif name == 'Reserved':
                    r.add('RVP_SBI_PMU_SNAPSHOT_RESERVED_OFFSET', off, where)
                    r.add('RVP_SBI_PMU_SNAPSHOT_SIZE', off + size, where)
            elif tid == 'table_event_info_format' and re.match(r'^\d', name):
                words = [int(w) for w in name.split('-')]
                field = {'event_idx': 'EVENT_IDX', 'output': 'OUTPUT',
                         'event_data': 'EVENT_DATA'}[val]
                r.add('RVP_SBI_PMU_EVENT_INFO_%s_OFFSET' % field, 4 * words[0], where)
                if field == 'EVENT_DATA':
                    r.add('RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE', 4 * (words[-1] + 1), where)
                if field == 'OUTPUT' and re.search(r'BIT\[0\] - Boolean', cells[3]):
                    r.add('RVP_SBI_PMU_EVENT_INFO_OUTPUT_SUPPORTED', 1, where)

    m = re.search(r'\(EID #(0x[0-9A-Fa-f]+) "PMU"\)', text)
    if m:
        r.add('RVP_SBI_EXT_PMU', int(m.group(1), 16), PMU + ', chapter title')
    # Bit-field definitions written as code: "x[hi:lo] = name".
    idx = PMU + ', event_idx encoding'
    for hi, lo, what in re.findall(r'event_idx\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        hi, lo = int(hi), int(lo)
        if what == 'type':
            r.add('RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT', lo, idx)
            r.add('RVP_SBI_PMU_EVENT_IDX_TYPE_MASK', bits(hi, lo), idx)
        elif what == 'code':
            r.add('RVP_SBI_PMU_EVENT_IDX_CODE_MASK', bits(hi, lo), idx)
    m = re.search(r'event_idx is a (\d+) bits wide', text)
    if m:
        r.add('RVP_SBI_PMU_EVENT_IDX_MASK', bits(int(m.group(1)) - 1, 0), idx)
    cache = PMU + ', cache event code encoding'
    for hi, lo, what in re.findall(r'event_idx\.code\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        key = {'cache_id': 'ID', 'op_id': 'OP', 'result_id': 'RESULT'}[what]
        r.add('RVP_SBI_PMU_CACHE_%s_SHIFT' % key, int(lo), cache)
        r.add('RVP_SBI_PMU_CACHE_%s_MASK' % key, bits(int(hi), int(lo)), cache)
    info = PMU + ', FID 1 counter_info encoding'
    for hi, lo, what in re.findall(r'counter_info\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        if what == 'CSR':
            r.add('RVP_SBI_PMU_COUNTER_INFO_CSR_MASK', bits(int(hi), int(lo)), info)
        elif what == 'Width':
            r.add('RVP_SBI_PMU_COUNTER_INFO_WIDTH_SHIFT', int(lo), info)
            r.add('RVP_SBI_PMU_COUNTER_INFO_WIDTH_MASK', bits(int(hi), int(lo)), info)
    if re.search(r'counter_info\[XLEN-1\]\s*=\s*Type \(0 = hardware and 1 = firmware\)', text):
        r.add('RVP_SBI_PMU_COUNTER_INFO_TYPE_FW', 1 << (XLEN - 1), info)
    m = re.search(r'`shmem_phys_lo` MUST be (\d+) bytes', text)
    if m:
        r.add('RVP_SBI_PMU_SNAPSHOT_ALIGN', int(m.group(1)), PMU + ', FID 7')
    m = re.search(r'`shmem_phys_lo` MUST\s+be (\d+)-byte aligned', text)
    if m:
        r.add('RVP_SBI_PMU_EVENT_INFO_ALIGN', int(m.group(1)), PMU + ', FID 8')
    if re.search(r'are all-ones bitwise\s+then the PMU snapshot shared memory is cleared', text):
        r.add('RVP_SBI_SHMEM_DISABLE', bits(XLEN - 1, 0), PMU + ', FID 7: all-ones disables')


# ------------------------------------------------------------------ CTR v1.0

def derive_ctr_v1(text, r):
    # A register's wavedrom diagram follows its "=== ... (`name`)" heading;
    # fields are listed from bit 0 up.
    for m in re.finditer(r'^=== .*?\(`(\w+)`\)\s*$(.*?)(?=^=== |^== )', text, re.M | re.S):
        reg, body = m.group(1), m.group(2)
        d = re.search(r'\{reg: \[(.*?)\]', body, re.S)
        if not d:
            continue
        where = '%s, %s register format' % (V1, reg)
        prefix = 'RVP_%s_' % reg.upper() if reg.startswith('ctr') else \
                 'RVP_CTR_V1_%s_' % reg.upper()
        pos = 0
        for n, name in re.findall(r"\{bits:\s*(\d+), name: '([^']*)'", d.group(1)):
            n = int(n)
            if re.match(r'^[A-Za-z]+$', name):
                r.field(prefix + name.upper(), pos + n - 1, pos, where)
            pos += n
    for tid, title, rows in adoc_tables(text):
        for cells in rows[1:]:
            if len(cells) >= 2 and re.match(r'^0x[0-9A-F]+$', cells[0]):
                r.add('RVP_CTR_V1_CSR_' + cells[1].strip('`').upper(),
                      int(cells[0], 16), '%s, table "%s"' % (V1, title))
            if tid == 'transfer-type-defs' and re.match(r'^\d+$', cells[0]):
                where = '%s, table "%s" (encodings)' % (V1, title)
                if cells[1] == '_Not used by CTR_':
                    r.add('RVP_CTRDATA_TYPE_NONE', int(cells[0]), where)
                elif not cells[1].startswith('_'):
                    r.add('RVP_CTRDATA_TYPE_' + macro_words(cells[1]), int(cells[0]), where)
    m = re.search(r'Bits (\d+) and (\d+) in `sctrctl` are read-only 0\.\s+As a result, '
                  r'the (\w+) and (\w+) fields in `mctrctl`', text)
    if m:
        for bit, name in ((m.group(1), m.group(3)), (m.group(2), m.group(4))):
            r.add('RVP_CTR_V1_MCTRCTL_' + name, 1 << int(bit), V1 + ', sctrctl: M and MTE read-only 0')
    for m in re.finditer(r'\((CC[EM]), in\s+CC\[(\d+):(\d+)\]\)', text):
        cc = r.src.get('RVP_CTRDATA_CC_SHIFT')
        if cc:
            shift = cc[0][0]
            r.field('RVP_CTRDATA_' + m.group(1), int(m.group(2)) + shift,
                    int(m.group(3)) + shift, V1 + ', ctrdata CC[15:0] field definition')
    depth = V1 + ', sctrdepth DEPTH encodings'
    for enc, n in re.findall(r"^.(\d{3}) - (\d+)\s*$", text, re.M):
        r.add('RVP_CTR_V1_DEPTH_ENC_' + n, int(enc, 2), depth)
    if re.search(r'depth = 2\^\(DEPTH\+4\)\^', text):
        for n in (16, 32, 64, 128, 256):
            r.add('RVP_CTR_V1_DEPTH_ENC_%d' % n, n.bit_length() - 1 - 4,
                  V1 + ', sctrstatus: depth = 2^(DEPTH+4)')
    m = re.search(r"name: 'func12', attr: \['12', 'SCTRCLR \((0x[0-9A-Fa-f]+)\)'\]", text)
    if m and re.search(r"name: 'opcode',\s+attr: \['7', 'SYSTEM'\]", text):
        # rd, funct3, rs1 are 0; SYSTEM is the unprivileged ISA's 0x73.
        r.add('RVP_CTR_V1_SCTRCLR_INSN', (int(m.group(1), 16) << 20) | 0x73,
              V1 + ', "Supervisor CTR Clear Instruction" encoding')
    m = re.search(r'The CTR bit is bit (\d+) in `mstateen0` and `hstateen0`', text)
    if m:
        r.add('RVP_CTR_V1_STATEEN0_CTR', 1 << int(m.group(1)), V1 + ', "State Enable Access Control"')
    m = re.search(r'bit (\d+) in `mstateen0` and `hstateen0` can also restrict access to `sireg\*`', text)
    if m:
        r.add('RVP_STATEEN0_CSRIND', 1 << int(m.group(1)), V1 + ', "State Enable Access Control" note')
    entries = V1 + ', "Entry Registers"'
    m = re.search(r'index range (0x[0-9A-F]+) through (0x[0-9A-F]+) is reserved for CTR', text)
    if m:
        r.add('RVP_CTR_ISELECT_FIRST', int(m.group(1), 16), entries)
        r.add('RVP_CTR_ISELECT_LAST', int(m.group(2), 16), entries)
    vs = re.search(r'the `vsireg\*` registers provide access to the same CTR entry register '
                   r'state as the analogous `sireg\*` registers', text)
    csrs = transcribed_rules().src
    for reg, ent in re.findall(r"`(sireg\d?)` provides access to <<\w+, `(ctr\w+)`>>", text):
        csr = csrs.get('RVP_CSR_' + reg.upper())
        if csr:
            r.add('RVP_CTR_SIREG_' + ent.upper(), csr[0][0], entries + ': ' + reg)
        csr = csrs.get('RVP_CSR_V' + reg.upper())
        if csr and vs:
            r.add('RVP_CTR_VSIREG_' + ent.upper(), csr[0][0], entries + ': v' + reg)
    m = re.search(r'transfer type filter bits \(`__x__ctrctl`\[(\d+):(\d+)\]\)', text)
    if m:
        r.field('RVP_CTR_FILTER', int(m.group(1)), int(m.group(2)), V1 + ', "Transfer Type Filtering"')


# --------------------------------------------------------- CTR v0.1.4 draft

def draft_section(text, heading, end):
    """The body of a numbered section (the last occurrence of its heading:
    the first is the table of contents)."""
    i = text.rindex(heading + '\n')
    return text[i:text.index(end, i + len(heading))]


POSITION = re.compile(r'^(?:M?XLEN-1:(?:\d+|XLEN)|\d+(?::\d+)?)$')


def span(token):
    """Bit range of a diagram position label; MXLEN-1:XLEN sits above
    XLEN-1 (taken as 63 here), only its contiguity matters."""
    if token == 'MXLEN-1:XLEN':
        return (127, 64)
    hi, _, lo = token.partition(':')
    hi = 63 if 'XLEN' in hi else int(hi)
    return (hi, int(lo) if lo else hi)


def draft_diagram(sec, vocabulary):
    """{field: (hi, lo)} from a register diagram of the text copy of the
    draft.  The copy came from a PDF and some of its rows are garbled
    (labels split, merged, repeated, or with look-alike letters), so each row
    of position labels is read from both ends only as far as the labels stay
    contiguous and the names are field names the spec defines elsewhere."""
    lines = sec.splitlines()
    out = {}
    for i, line in enumerate(lines[:-1]):
        labels = line.split()
        if not labels or not all(POSITION.match(t) for t in labels):
            continue
        pos, names = [span(t) for t in labels], lines[i + 1].split()

        def clean(n):
            return n in ('0', 'WPRI') or n in vocabulary

        def contiguous(a, b):
            return b[0] == a[1] - 1

        n = min(len(pos), len(names))
        k = 0
        while k < n and (k == 0 or contiguous(pos[k - 1], pos[k])) and clean(names[k]):
            out.setdefault(names[k], pos[k])
            k += 1
        k = 1
        while k <= n and (k == 1 or contiguous(pos[-k], pos[-k + 1])) and clean(names[-k]):
            out.setdefault(names[-k], pos[-k])
            k += 1
    return {f: p for f, p in out.items() if f not in ('0', 'WPRI')}


def draft_vocabulary(text, sections):
    """Field names the draft defines: the first words of its field tables,
    and NAME= uses in its text."""
    v = set(re.findall(r'\b([A-Z][A-Z0-9]*)=', text))
    v |= set(re.findall(r'\b([A-Z]{2,}) is (?:optional|required)', text))
    v |= set(re.findall(r'\bvalid \(([A-Z]+)\) bit', text))
    for sec in sections:
        table = sec[sec.index('Field'):] if 'Field' in sec else ''
        for m in re.finditer(r'^([A-Z][A-Z0-9]*(?:, [A-Z][A-Z0-9]*)*)(?:\[\d+:\d+\])?[\t ]',
                             table, re.M):
            v |= set(m.group(1).split(', '))
    v.discard('WPRI')
    return v


def derive_ctr_draft(text, r):
    regs = {
        'MCTRCONTROL': draft_section(text, '2.1. Machine Control Transfer Record Control (mctrcontrol)',
                                     '2.2. '),
        'SCTRCONTROL': draft_section(text, '2.2. Supervisor Control Transfer Record Control (sctrcontrol)',
                                     '2.3. '),
        'VSCTRCONTROL': draft_section(text, '2.3. Virtual Supervisor Control Transfer Record Control '
                                      '(vsctrcontrol)', '2.4. '),
        'MCTRSTATUS': draft_section(text, '2.4. Machine Control Transfer Record Status (mctrstatus)',
                                    '2.5. '),
        'CTRSOURCE': draft_section(text, '3.1. Control Transfer Record Source (ctrsource)', '3.2. '),
        'CTRTARGET': draft_section(text, '3.2. Control Transfer Record Target (ctrtarget)', '3.3. '),
        'CTRDATA': draft_section(text, '3.3. Control Transfer Record Metadata (ctrdata)', 'Chapter 4.'),
    }
    number = {'MCTRCONTROL': '2.1', 'VSCTRCONTROL': '2.3', 'MCTRSTATUS': '2.4',
              'CTRSOURCE': '3.1', 'CTRTARGET': '3.2', 'CTRDATA': '3.3'}
    vocabulary = draft_vocabulary(text, regs.values())
    diagrams = {reg: draft_diagram(regs[reg], vocabulary) for reg in number}
    vs_only = ('VS', 'VU', 'VSTE')
    for reg, fields in diagrams.items():
        where = '%s %s %s diagram' % (DRAFT, number[reg], reg.lower())
        prefix = 'RVP_%s_' % reg if reg.startswith('CTR') else 'RVP_CTR_DRAFT_%s_' % reg
        for name, (hi, lo) in fields.items():
            r.field(prefix + name, hi, lo, where)
            # 2.3: the fields vsctrcontrol shares with mctrcontrol are the same.
            if reg == 'VSCTRCONTROL' and name not in vs_only:
                r.field('RVP_CTR_DRAFT_MCTRCONTROL_' + name, hi, lo,
                        where + ' (fields shared with mctrcontrol)')

    # 2.2: which bits sctrcontrol hides.
    m = re.search(r'Bits (\d+) and (\d+) in sctrcontrol are read-only 0\. As a result, S-mode and '
                  r'VS-mode do not have access to the (\w+) and (\w+) fields in mctrcontrol', text)
    if m:
        for bit, name in ((m.group(1), m.group(3)), (m.group(2), m.group(4))):
            r.add('RVP_CTR_DRAFT_MCTRCONTROL_' + name, 1 << int(bit),
                  DRAFT + ' 2.2: read-only 0 in sctrcontrol')
    # 2.3: VSTE, VS, VU sit where STE, S, U do.
    m = re.search(r'Bit positions for ([\w, ]+) in vsctrcontrol match those for ([\w, ]+) in '
                  r'sctrcontrol, respectively', text)
    if m:
        vs_names = re.findall(r'\w+', m.group(1).replace(' and ', ' '))
        s_names = re.findall(r'\w+', m.group(2).replace(' and ', ' '))
        where = DRAFT + ' 2.3: %s sits where %s does'
        for a, b in zip(vs_names, s_names):
            if a in diagrams['VSCTRCONTROL']:
                r.field('RVP_CTR_DRAFT_MCTRCONTROL_' + b, *diagrams['VSCTRCONTROL'][a], where % (a, b))
            if b in diagrams['MCTRCONTROL']:
                r.field('RVP_CTR_DRAFT_VSCTRCONTROL_' + a, *diagrams['MCTRCONTROL'][b], where % (a, b))
    # 5.2 + 3.3: the filter bits occupy ctrcontrol[47:32] in the order of the
    # TYPE encodings they filter (Exception = 1 -> bit 33, ...).
    types = {}
    for enc, name in re.findall(r'^\t([01]{4}) - ([A-Za-z][\w -]*?)\t?$', regs['CTRDATA'], re.M):
        if name != 'Reserved':
            types[name.lower()] = int(enc, 2)
            macro = macro_words(name)
            macro = {'RETURN': 'FUNCTION_RETURN'}.get(macro, macro)  # v1.0's name
            r.add('RVP_CTRDATA_TYPE_' + macro, int(enc, 2), DRAFT + ' 3.3 ctrdata TYPE encodings')
    m = re.search(r'Bits (\d+):(\d+) in ctrcontrol provide a means for software to alter this behavior', text)
    if m and types:
        hi, lo = int(m.group(1)), int(m.group(2))
        r.field('RVP_CTR_FILTER', hi, lo, DRAFT + ' 5.2 Transfer Type Filtering')
        table = regs['MCTRCONTROL'][regs['MCTRCONTROL'].index('Field'):]
        for name, desc in re.findall(r'^([A-Z]+(?:INH|EN))\t((?:Inhibit|Enable) recording of [^\n]*'
                                     r'(?:\n\t[^\n]*)?)', table, re.M):
            hits = [t for t in types if t in desc.lower()]
            if hits:
                t = max(hits, key=len)
                for reg in ('MCTRCONTROL', 'VSCTRCONTROL'):
                    r.add('RVP_CTR_DRAFT_%s_%s' % (reg, name), 1 << (lo + types[t]),
                          '%s 5.2: filter bit of TYPE %d (%s)' % (DRAFT, types[t], t))
    # Custom-extension bits.
    for reg, sec in (('MCTRCONTROL', regs['MCTRCONTROL']), ('MCTRSTATUS', regs['MCTRSTATUS']),
                     ('CTRDATA', regs['CTRDATA'])):
        m = re.search(r'Bits (\d+):(\d+) are reserved for custom extensions\.', sec)
        if m:
            r.field('RVP_CTR_DRAFT_%s_CUSTOM' % reg, int(m.group(1)), int(m.group(2)),
                    '%s %s: custom bits' % (DRAFT, number[reg]))
    # Depth encodings (2.1, DEPTH[3:0]).
    for enc, n in re.findall(r'^\s*\S?([01]{4}) - (\d+)\s*$', regs['MCTRCONTROL'], re.M):
        r.add('RVP_CTR_DRAFT_DEPTH_ENC_' + n, int(enc, 2), DRAFT + ' 2.1 DEPTH encodings')
    # CSR numbers (2.6).
    listing = draft_section(text, '2.6. CSR Listing', 'Chapter 3.')
    for num, name in re.findall(r'^(0x[0-9A-F]{3})\t(\w+)\*?\t', listing, re.M):
        r.add('RVP_CTR_DRAFT_CSR_' + name.upper(), int(num, 16), DRAFT + ' 2.6 CSR Listing')
    # Entry registers (3): the *iselect window and the *ireg mapping.
    m = re.search(r'index range (0x[0-9A-F]+)\.\.(0x[0-9A-F]+) is reserved for CTR entries', text)
    if m:
        r.add('RVP_CTR_ISELECT_FIRST', int(m.group(1), 16), DRAFT + ' 3 Entry Registers')
        r.add('RVP_CTR_ISELECT_LAST', int(m.group(2), 16), DRAFT + ' 3 Entry Registers')
    csrs = transcribed_rules().src
    s_same = re.search(r'S-mode is able to access CTR entries using the siselect/sireg\* interface, '
                       r'with the same behavior', text)
    vs_same = re.search(r'VS-mode is able to access CTR entries using siselect \(really vsiselect\) '
                        r'and sireg\* \(really vsireg\*\)', text)
    for reg, ent in re.findall(r'\b(mireg\d?) provides access to (ctr\w+)', text):
        where = DRAFT + ' 3 Entry Registers: ' + reg
        r.add('RVP_CTR_DRAFT_MIREG_' + ent.upper(), csrs['RVP_CSR_' + reg.upper()][0][0], where)
        for ok, bank in ((s_same, 'S'), (vs_same, 'VS')):
            if ok:
                sreg = bank + reg[1:].upper()
                r.add('RVP_CTR_%sIREG_%s' % (bank, ent.upper()), csrs['RVP_CSR_' + sreg][0][0],
                      '%s 3 Entry Registers: %s, as %s' % (DRAFT, sreg.lower(), reg))
    for m in re.finditer(r'\((CC[EM]), in CC\[(\d+):(\d+)\]\)', regs['CTRDATA']):
        cc = diagrams['CTRDATA'].get('CC')
        if cc:
            r.field('RVP_CTRDATA_' + m.group(1), int(m.group(2)) + cc[1], int(m.group(3)) + cc[1],
                    DRAFT + ' 3.3 ctrdata CC[15:0] field definition')
    # State enable (4).
    m = re.search(r'The CTR bit is bit (\d+) in mstateen0 and hstateen0\.', text)
    if m:
        r.add('RVP_CTR_DRAFT_STATEEN0_CTR', 1 << int(m.group(1)), DRAFT + ' 4 State Enable Access Control')
    m = re.search(r'Bit (\d+) in mstateen0, defined by Smcsrind, can also restrict', text)
    if m:
        r.add('RVP_STATEEN0_CSRIND', 1 << int(m.group(1)), DRAFT + ' 4 State Enable Access Control')


# ----------------------------------------------------------------- trace

def derive_ntrace(text, r):
    """itype values: "N = Name" in Table 2, "N<tab>Name" rows of Table 4."""
    t2 = text[text.index('Table 2. Generating itype'):text.index('Table 3.')]
    for value, name in re.findall(r'\b(\d+) = ([A-Za-z][A-Za-z -]*[a-z])', t2):
        r.add('RVP_ITYPE_' + macro_words(name), int(value), NTRACE + ' Table 2')
    t4 = text[text.index('Table 4. Handling'):]
    t4 = t4[:t4.index('As almost every ingress port cycle')]
    for value, name in re.findall(r'^(\d+)\t([A-Za-z][A-Za-z -]*[a-z])\t', t4, re.M):
        r.add('RVP_ITYPE_' + macro_words(name), int(value), NTRACE + ' Table 4')


def derive_tandem(text, r):
    """The tandem trace protocol's examples show M-mode as privilege mode 3
    and CSRs by their 12-bit numbers (little-endian)."""
    m = re.search(r'^01\tprivilege mode\n([0-9a-f]{2})\tmachine mode$', text, re.M)
    if m:
        r.add('RVP_PRV_M', int(m.group(1), 16), TANDEM + ' Appendix C, additional state')
    known = transcribed_rules().src
    for lo, hi, name in re.findall(r'^04\tfull register\n([0-9a-f]{2}) ([0-9a-f]{2})\t([a-z]\w*)$',
                                   text, re.M):
        if 'RVP_CSR_' + name.upper() in known:  # a cross-check, not a source of new names
            r.add('RVP_CSR_' + name.upper(), int(hi + lo, 16), TANDEM + ' Appendix C, full register')


# ------------------------------------------------------------------ driver

def spec_paths():
    """{role: path} and the roles whose file is missing."""
    paths, missing = {}, []
    for role, pattern in SPEC_FILES.items():
        found = sorted(glob.glob(os.path.join(SPECS, pattern)))
        if found:
            paths[role] = found[0]
        else:
            missing.append(pattern)
    return paths, missing


def spec_rules(paths):
    r = Rules()
    derive = [('pmu', derive_pmu), ('ctr_v1', derive_ctr_v1), ('ctr_draft', derive_ctr_draft),
              ('ntrace', derive_ntrace), ('tandem', derive_tandem)]
    for role, fn in derive:
        with open(paths[role], encoding='utf-8') as f:
            fn(f.read(), r)
    return r


def header_macros():
    """Every value macro of the headers: '#define RVP_X value', not the
    function-like ones."""
    names = set()
    for h in sorted(glob.glob(os.path.join(HEADERS, '*.h'))):
        with open(h, encoding='utf-8') as f:
            names |= set(re.findall(r'^\s*#\s*define\s+(RVP_\w+)(?:[ \t]|$)', f.read(), re.M))
    return names


def fmt(v):
    return str(v) if v < 0 else '0x%X' % v


def read_expected():
    rows = {}
    with open(EXPECTED, encoding='utf-8') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            name, value, where = line.rstrip('\n').split('\t')
            rows[name] = (int(value, 0), where)
    return rows


def merged(*rule_sets):
    out = Rules()
    for rs in rule_sets:
        for name, srcs in rs.src.items():
            for v, w in srcs:
                out.add(name, v, w)
    return out


def write_expected(rules):
    with open(EXPECTED, 'w', encoding='utf-8') as f:
        f.write('# SPDX-License-Identifier: BSD-2-Clause\n'
                '# Every constant of include/rvperf/*.h as the specs give it, and where.\n'
                '# Written by tests/spec/check_spec.py --write-expected; checked by it.\n'
                '# NAME\tVALUE\tSECTION\n')
        for name in sorted(rules.src):
            srcs = rules.src[name]
            f.write('%s\t%s\t%s\n' % (name, fmt(srcs[0][0]), '; '.join(w for _, w in srcs)))


def main(argv):
    n = failed = 0

    def result(ok, text, directive=''):
        nonlocal n, failed
        n += 1
        failed += not ok
        print('%s %d - %s%s' % ('ok' if ok else 'not ok', n, text,
                                ' # ' + directive if directive else ''))

    def diag(text):
        for line in text.splitlines():
            print('# ' + line)

    paths, missing = spec_paths()
    specs_here = os.path.isdir(SPECS)
    transcribed = transcribed_rules()
    spec = spec_rules(paths) if specs_here and not missing else Rules()
    rules = merged(spec, transcribed)

    if argv[1:] == ['--write-expected']:
        if not specs_here or missing:
            print('check_spec.py: the spec files are needed at %s' % SPECS, file=sys.stderr)
            return 1
        write_expected(rules)
        return 0
    if argv[1:]:
        print('usage: check_spec.py [--write-expected]', file=sys.stderr)
        return 2

    try:
        out = subprocess.run([DUMP], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print('not ok 1 - %s runs (build it: make %s)' % (DUMP, os.path.relpath(DUMP, TOP)))
        diag(str(e))
        print('1..1')
        return 1
    have = {}
    for line in out.splitlines():
        name, value = line.split()
        have[name] = int(value, 0)
    expected = read_expected() if os.path.exists(EXPECTED) else {}

    # (a) each constant against the spec, or the transcribed tables.
    if specs_here:
        result(not missing, 'the spec files are in %s' % SPECS)
        if missing:
            diag('missing: ' + ' '.join(missing))
    skip = 'SKIP spec files not found at %s' % SPECS
    for name in sorted(have):
        value = have[name]
        srcs = rules.src.get(name, [])
        if not srcs and not specs_here:
            section = expected.get(name, (None, 'the spec'))[1]
            result(True, '%s from %s' % (name, section), skip)
            continue
        if not srcs:
            result(False, '%s = %s is derived from a spec (no rule in check_spec.py finds it)'
                   % (name, fmt(value)))
            continue
        values = sorted({v for v, _ in srcs})
        where = '; '.join(w for _, w in srcs)
        if len(values) > 1:
            result(False, '%s: the sources disagree (%s)' % (name, where))
            for v, w in srcs:
                diag('%s says %s' % (w, fmt(v)))
            continue
        ok = value == values[0]
        result(ok, '%s = %s (%s)' % (name, fmt(values[0]), where))
        if not ok:
            diag('the header has %s' % fmt(value))

    # (b) nothing escapes: the dump holds every value macro, and every value
    # a rule derives from a spec is defined.
    defined = header_macros()
    lost = sorted(defined - set(have))
    result(not lost, 'dump-consts prints every value macro of include/rvperf/*.h (%d)' % len(defined))
    if lost:
        diag('not printed: ' + ' '.join(lost))
    if specs_here and not missing:
        absent = sorted(set(rules.src) - set(have))
        result(not absent, 'every value the rules derive from the specs is defined (%d)'
               % len(rules.src))
        if absent:
            diag('not in the headers: ' + ' '.join(absent))
        with open(paths['pmu'], encoding='utf-8') as f:
            used = sorted(set(re.findall(r'\b(SBI_(?:SUCCESS|ERR_\w+))\b', f.read())))
        unknown = [u for u in used if 'RVP_' + u not in have]
        result(not unknown, 'every error code the PMU chapter uses is defined (%d)' % len(used))
        if unknown:
            diag('not defined: ' + ' '.join(unknown))

    # (c) the recorded expectations.
    result(bool(expected), '%s exists' % os.path.relpath(EXPECTED, TOP))
    for name in sorted(have):
        if name not in expected:
            result(False, '%s is recorded in expected.tsv' % name)
            continue
        value, where = expected[name]
        ok = have[name] == value
        result(ok, '%s = %s as expected.tsv records (%s)' % (name, fmt(value), where))
        if not ok:
            diag('the header has %s' % fmt(have[name]))
    stale = sorted(set(expected) - set(have))
    result(not stale, 'expected.tsv names only constants the headers define')
    if stale:
        diag('not defined: ' + ' '.join(stale))
    if specs_here and not missing:
        drift = sorted(k for k in set(expected) | set(rules.src)
                       if k not in expected or k not in rules.src or
                       expected[k][0] != rules.src[k][0][0] or
                       expected[k][1] != '; '.join(w for _, w in rules.src[k]))
        result(not drift, 'expected.tsv is what the specs give (else: check_spec.py --write-expected)')
        if drift:
            diag('differs: ' + ' '.join(drift[:20]) + (' ...' if len(drift) > 20 else ''))

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
