#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Replay a ctr-sim scenario as bare-metal guest code, mode switches included.

  scn2events.py gen SCN OUT.S OUT.c OUT.tmpl SIM [upstream]
      prints "LINES STOP-LINE OUTPUTS REASON": how many scenario lines the
      guest replays, where it stops (0 when it runs whole), how many of
      them print something (reads, dumps, trapping writes), and why it
      stops ("-" when it does not)
  scn2events.py fill OUT.tmpl NM.txt [IDLE.txt]
                                         (the scenario for ctr-sim, stdout;
                                          IDLE.txt: the guest's "idle N"
                                          lines, one per timer wait)
  scn2events.py where FILLED.scn SIM K   (the scenario line behind ctr-sim's
                                          K-th output line)

The guest (start.S, guest.c, events.c and OUT.S) runs the scenario's
lines in order, each as what it means on a real hart:
  - csrr/csrw NAME: the CSR instruction, in the current mode; one that
    traps (illegal instruction, virtual instruction) goes to the M-mode
    handler rvp_mtrap, which stores mcause as the access's status and
    returns to the next instruction (mret to the mode it came from);
  - xfer TYPE: an instruction of that type whose target is the next one
    (exception, interrupt, trapret: a real trap or xRET that stays in the
    mode, see below);
  - sctrclr: SCTRCLR; cycles N: N nops, or (more than MAX_CYCLES, M-mode)
    a WFI until the ACLINT timer reaches N cycles ahead, whose idle
    cycles the guest measures with mcycle and prints ("idle N"; events.sh
    runs QEMU with -icount sleep=off, so the clock jumps to the timer);
    dump: the 256 logical entries
    read through siselect 0x200.. and sireg/sireg2/sireg3 in M-mode;
  - priv X: a real mode switch: mret (from M), sret (from HS to U/VS/VU or
    VS to VU), a trap upwards (ecall to M through rvp_mtrap; a load from
    a page PMP closes below M, load access fault 5, delegated to HS; a
    misaligned LR, exception 4, delegated to VS; QEMU reports a
    misaligned AMO as a misaligned load, 4, too), or ecall to M and mret
    to X when neither goes there;
  - trap exc C T: ebreak for C = 3 (breakpoint: freeze), else the trap
    above that reaches T; trap int C T: 13 (LCOFI) by setting LCOFIP
    (sip from HS, mip from M, or mip before the mret that enters the
    mode; to VS through AIA's hvien, as QEMU 10.2's hideleg cannot
    delegate LCOFI; events.sh turns on smaia/ssaia), else a software
    interrupt: MSIP through the ACLINT MSWI for M, SSIP (sip from HS, the
    ACLINT SSWI from below) for HS, vsip.SSIP from VS for VS;
  - xret T: mret/sret with MPP/MPV or SPP/SPV set to T;
  - insn ADDR HEX: that encoding at a label (branches get register values
    that make them go as the line says; a forward direct target is the
    encoded offset ahead, padding between; a backward one, M-mode only,
    is at the start of a section of its own and an mret takes the replay
    to the instruction; an indirect one's register holds a label: the
    next instruction, the one after an earlier call, or a new section).
Traps to HS and VS go straight to their continuation (stvec/vstvec point
there, written earlier from a mode that can); traps to M go through
rvp_mtrap (a few instructions, then mret back to M at the continuation).
An "impl xlen=32" scenario is replayed on an RV32 hart (the guest built
for RV32, ctr-sim's template says xlen=32); VS and VU are not entered
there (MPV is in mstatush, which rvp_mtrap does not restore).
Where a scenario cannot be replayed (SYSTEM, memory or Zcmp/Zcmt insn
lines, retire, cycles-lost, cycles beyond the nops budget, counter CSRs
QEMU keeps, VS/VU on RV32, a trap no guest instruction makes from that
mode), the replay stops there and the line is reported.  Scenario lines
and guest instructions go one to one: a transfer a scenario repeats at one address
is a new instruction (a new address) each time.

OUT.tmpl is the same sequence as a ctr-sim scenario with @label addresses:
every trap and xRET the guest really takes (those of the plumbing and of
the illegal accesses too), and "cycles K" before each line, K = the
instructions retired since the previous line, which under -icount shift=0
is QEMU's cycle count.  Its implementation is the patched QEMU's (ratified
or draft with MISP; upstream: cc=off, no MISP); the scenario's "impl" line
is dropped, so the comparison is QEMU against ctr-sim on the same sequence,
not against the scenario's "#>" lines.  Which accesses trap is asked of
ctr-sim on a first pass (the template does not depend on addresses there).
"""
import re
import subprocess
import sys

CTR = {
    'ratified': {'mctrctl': 0x34E, 'sctrctl': 0x14E, 'vsctrctl': 0x24E,
                 'sctrdepth': 0x15F, 'sctrstatus': 0x14F},
    'draft': {'mctrcontrol': 0x381, 'mctrcontrolh': 0x382,
              'sctrcontrol': 0x181, 'sctrcontrolh': 0x182,
              'vsctrcontrol': 0x281, 'vsctrcontrolh': 0x282,
              'mctrstatus': 0x383, 'sctrstatus': 0x183},
}
# The other layout's names are known to ctr-sim in both layouts.
OTHER = {'mctrctl': 0x34E, 'sctrctl': 0x14E, 'vsctrctl': 0x24E,
         'sctrdepth': 0x15F, 'mctrcontrol': 0x381, 'mctrcontrolh': 0x382,
         'sctrcontrol': 0x181, 'sctrcontrolh': 0x182,
         'vsctrcontrol': 0x281, 'vsctrcontrolh': 0x282,
         'mctrstatus': 0x383}
IND = {'miselect': 0x350, 'mireg': 0x351, 'mireg2': 0x352, 'mireg3': 0x353,
       'mireg4': 0x355, 'mireg5': 0x356, 'mireg6': 0x357,
       'siselect': 0x150, 'sireg': 0x151, 'sireg2': 0x152, 'sireg3': 0x153,
       'sireg4': 0x155, 'sireg5': 0x156, 'sireg6': 0x157,
       'vsiselect': 0x250, 'vsireg': 0x251, 'vsireg2': 0x252,
       'vsireg3': 0x253, 'vsireg4': 0x255, 'vsireg5': 0x256,
       'vsireg6': 0x257,
       'mstateen0': 0x30C, 'mstateen0h': 0x31C, 'hstateen0': 0x60C,
       'hstateen0h': 0x61C}
# Of mstateen0/hstateen0 the model implements SE0, CSRIND and the CTR
# bits; QEMU has more (its other extensions'): reads compare these bits.
STATEEN_MASK = (1 << 63) | (1 << 60) | (1 << 54) | (1 << 55)
# QEMU's own CSRs the scenarios use: counter enables and inhibit,
# scountovf, and mcycle/minstret (and their user and RV32 views), which the
# replay zeroes as it starts and ctr-sim's sequence advances by what the
# guest ran ("cycles K" and "retire K" before each line: under -icount
# shift=0 both count instructions, mcycle also the timer waits' idle time).
QEMU_CSRS = {'mcounteren': 0x306, 'scounteren': 0x106, 'hcounteren': 0x606,
             'mcountinhibit': 0x320, 'scountovf': 0xDA0,
             'mcycle': 0xB00, 'minstret': 0xB02, 'cycle': 0xC00,
             'instret': 0xC02, 'mcycleh': 0xB80, 'minstreth': 0xB82,
             'cycleh': 0xC80, 'instreth': 0xC82, 'mip': 0x344}
# Of mip ctr-sim models LCOFIP only: reads compare that bit and writes
# write only that bit (QEMU's other bits would raise interrupts the
# scenario does not take).
MIP_MASK = 1 << 13         # LCOFIP
# ... of which QEMU 10.2's RV32 halves do not carry from the lower half
# into the upper one (mcycle 0xfffffff0 + 0x2a leaves mcycleh as it was)
# and start the lower half's count elsewhere than its write: on RV32 they
# are not replayed.
RV32_BROKEN = ('mcycle', 'minstret', 'cycle', 'instret', 'mcycleh',
               'minstreth', 'cycleh', 'instreth')
# mcounteren/scounteren/hcounteren bit 1 (TM) enables QEMU's time CSR,
# which ctr-sim lacks (the bit is read-only 0 there): reads compare the rest.
COUNTEREN_MASK = ~2 & (2**64 - 1)
# QEMU's hpm counters (pmu-mask's default, 3..18), which the glue's counter
# model implements too; ctr-sim's sequence says so ("impl hpm=16").
HPM_COUNTERS = 16
# Counter CSRs the model has (mhpmevent/mhpmcounter 3..31 in the glue).
NUMBERED = [('mhpmcounter', 0xB03, 0xB83), ('mhpmevent', 0x323, 0x723),
            ('hpmcounter', 0xC03, 0xC83)]
# xfer TYPE: (set-up instructions, the transfer); {t} is the target label.
XFER = {
    'taken': ([], 'beq x0, x0, {t}'),
    'nottaken': ([], 'bne x0, x0, {t}'),
    'dircall': ([], 'jal ra, {t}'),
    'dirjump': ([], 'jal x0, {t}'),
    'otherdir': ([], 'jal t1, {t}'),
    'indcall': (['lla t1, {t}'], 'jalr ra, 0(t1)'),
    'indjump': (['lla t1, {t}'], 'jalr x0, 0(t1)'),
    'return': (['lla ra, {t}'], 'jalr x0, 0(ra)'),
    'coswap': (['lla t0, {t}'], 'jalr ra, 0(t0)'),
    'otherind': (['lla t1, {t}'], 'jalr t2, 0(t1)'),
}
MAX_CYCLES = 600000         # per line, as nops (4 bytes each)
MAX_NOPS = 2000000          # per scenario
# ACLINT on QEMU's virt machine: hart 0's mtimecmp, mtime (10 MHz: 100
# cycles a tick under -icount shift=0)
MTIMECMP0, MTIME, NS_PER_TICK = 0x2004000, 0x200BFF8, 100
RANK = {'U': 0, 'VU': 0, 'VS': 1, 'S': 2, 'M': 3}
VIRT = ('VS', 'VU')
# ecall's cause by the mode it comes from.
ECALL = {'U': 8, 'VU': 8, 'S': 9, 'VS': 10, 'M': 11}
MSTATUS_MPP = 0x1800
MSTATUS_MPV = 1 << 39
MSTATUS_MPIE = 0x80
SSTATUS_SPP = 0x100
HSTATUS_SPV = 0x80
LCOFIP = 1 << 13


class Unsupported(Exception):
    pass


# Registers the generated code keeps (sp, s1-s11, t3, t5).
RESERVED = {2, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 30}


def sext(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def decode(raw, xlen=64):
    """(kind, length, offset, rd, rs1, rs2, funct3) of the instructions
    insn lines may replay on an XLEN hart: branch, jal, jalr (incl. c.j,
    c.jal on RV32, c.jr, c.jalr, c.beqz, c.bnez) and 'other' for
    register-only ALU instructions; None for the rest (memory, system,
    Zcmp/Zcmt)."""
    if raw & 3 == 3:
        op = raw & 0x7F
        rd, f3 = (raw >> 7) & 31, (raw >> 12) & 7
        rs1, rs2 = (raw >> 15) & 31, (raw >> 20) & 31
        if op == 0x63:
            off = sext(((raw >> 31) & 1) << 12 | ((raw >> 7) & 1) << 11 |
                       ((raw >> 25) & 0x3F) << 5 | ((raw >> 8) & 0xF) << 1,
                       13)
            return ('branch', 4, off, 0, rs1, rs2, f3)
        if op == 0x6F:
            off = sext(((raw >> 31) & 1) << 20 | ((raw >> 12) & 0xFF) << 12 |
                       ((raw >> 20) & 1) << 11 | ((raw >> 21) & 0x3FF) << 1,
                       21)
            return ('jal', 4, off, rd, 0, 0, 0)
        if op == 0x67 and f3 == 0:
            return ('jalr', 4, sext(raw >> 20, 12), rd, rs1, 0, 0)
        if op == 0x33 or (op == 0x3B and xlen == 64):
            return ('other', 4, 0, rd, rs1, rs2, 0)
        if op == 0x13 or (op == 0x1B and xlen == 64):
            return ('other', 4, 0, rd, rs1, 0, 0)
        if op in (0x37, 0x17):
            return ('other', 4, 0, rd, 0, 0, 0)
        return None
    f3, q = raw >> 13, raw & 3
    if q == 1 and (f3 == 5 or (f3 == 1 and xlen == 32)):  # c.j, c.jal
        b = raw
        off = sext(((b >> 12) & 1) << 11 | ((b >> 8) & 1) << 10 |
                   ((b >> 9) & 3) << 8 | ((b >> 6) & 1) << 7 |
                   ((b >> 7) & 1) << 6 | ((b >> 2) & 1) << 5 |
                   ((b >> 11) & 1) << 4 | ((b >> 3) & 7) << 1, 12)
        return ('jal', 2, off, 1 if f3 == 1 else 0, 0, 0, 0)
    if q == 1 and f3 in (6, 7):                 # c.beqz, c.bnez
        b = raw
        off = sext(((b >> 12) & 1) << 8 | ((b >> 5) & 3) << 6 |
                   ((b >> 2) & 1) << 5 | ((b >> 10) & 3) << 3 |
                   ((b >> 3) & 3) << 1, 9)
        return ('branch', 2, off, 0, 8 + ((b >> 7) & 7), 0,
                0 if f3 == 6 else 1)
    if q == 2 and f3 == 4 and (raw >> 2) & 31 == 0 and (raw >> 7) & 31:
        rs1 = (raw >> 7) & 31
        link = (raw >> 12) & 1
        return ('jalr', 2, 0, 1 if link else 0, rs1, 0, 0)
    return None


def branch_values(f3, rs1, rs2, taken, xlen=64):
    """[(reg, value)] making branch F3 on rs1, rs2 go as TAKEN."""
    m = 2**xlen
    tests = {0: lambda a, b: a == b, 1: lambda a, b: a != b,
             4: lambda a, b: a < b, 5: lambda a, b: a >= b,
             6: lambda a, b: a % m < b % m,
             7: lambda a, b: a % m >= b % m}
    if f3 not in tests:
        return None
    for a in (0, 1, -1):
        for b in (0, 1, -1):
            if (rs1 == 0 and a) or (rs2 == 0 and b) or \
                    (rs1 == rs2 and a != b):
                continue
            if tests[f3](a, b) == taken:
                return [(rs1, a)] + ([(rs2, b)] if rs2 != rs1 else [])
    return None


def trap_allowed(src, dst):
    if dst in ('U', 'VU'):
        return False
    if dst in VIRT and src not in VIRT:
        return False
    return RANK[dst] >= RANK[src]


def xret_allowed(src, dst):
    if src == 'M':
        return True
    if src == 'S':
        return dst != 'M'
    if src == 'VS':
        return dst in ('VS', 'VU')
    return False


class Gen:
    """One pass over the scenario.  outcomes: per access (in order), the
    trap cause ctr-sim reports (0: none), None on the first pass.
    plan: per opportunity, the CSR writes to do there (tvecs, delegation),
    None on the passes that collect them."""

    def __init__(self, lines, outcomes, plan, upstream, xlen=64):
        self.lines = lines
        self.xlen = xlen
        self.wb = xlen // 8     # bytes a register stores
        self.sx = 'sd' if xlen == 64 else 'sw'
        self.lx = 'ld' if xlen == 64 else 'lw'
        self.outcomes = outcomes
        self.plan = plan
        self.upstream = upstream
        self.asm, self.tmpl, self.vals, self.names = [], [], [], []
        self.pending = 0
        self.mode = 'M'
        self.nlab = 0
        self.naccess = 0
        self.accesses = []      # per access: its template line index
        self.opps = []          # per opportunity: the mode
        self.needs = []         # (opportunity, what, value)
        self.layout = 'ratified'
        self.done = 0           # scenario lines replayed
        self.nops = 0
        self.nprint = 0         # reads, dumps, trapping writes
        self.section = '.text'  # where code goes now
        self.align = 0          # its byte offset mod 4 there
        self.resume = {}        # scenario address: (section, label)
        self.nfar = 0
        self.stop = None        # (line number, reason)
        self.nwait = 0          # timer waits (idle cycles measured)
        self.lineno = 0         # of the scenario line being replayed

    # ---------------------------------------------------------- helpers
    def label(self):
        self.nlab += 1
        return 'L%d' % self.nlab

    def emit(self, insn, n=1):
        self.asm.append('\t' + insn)
        self.pending += n

    def place(self, lab):
        self.asm.append('%s:' % lab)

    def point(self, line):
        """A template line, after the instructions retired since the last
        one (each a cycle too)."""
        if self.pending:
            self.tmpl.append('cycles %d' % self.pending)
            self.tmpl.append('retire %d' % self.pending)
        self.pending = 0
        self.tmpl.append(line)

    def const(self, reg, val):
        """reg = val, from the constant pool (2 instructions)."""
        self.vals.append(val & (2**self.xlen - 1))
        self.emit('%s %s, 0(s1)' % (self.lx, reg))
        self.emit('addi s1, s1, %d' % self.wb)

    def opportunity(self):
        """A point where the CSR writes the plan puts here are done."""
        k = len(self.opps)
        self.opps.append(self.mode)
        if self.plan is not None:
            for what, val in self.plan.get(k, []):
                self.do_write(what, val)
        return k

    def need(self, what, val):
        """The trap about to be taken needs CSR state WHAT = VAL."""
        self.needs.append((len(self.opps) - 1, what, val))

    def do_write(self, what, val):
        m = self.mode
        if what in ('stvec', 'vstvec', 'mtvec'):
            csr = {'stvec': 'stvec', 'mtvec': 'mtvec',
                   'vstvec': 'stvec' if m == 'VS' else '0x205'}[what]
            self.emit('lla t0, %s' % val, 2)
            self.emit('csrw %s, t0' % csr)
        else:
            reg, bit = what
            self.const('t0', 1 << bit)
            self.emit('%s %s, t0' % ('csrs' if val else 'csrc', reg))

    # ----------------------------------------------------- transitions
    def through_mtrap(self, kind, cause, src, back, cont):
        """The template lines of a trap to M that rvp_mtrap takes (six
        instructions up to and with its mret) and of that mret to BACK at
        CONT."""
        self.point('trap %s %d M @%s @rvp_mtrap' % (kind, cause, src))
        self.pending += 6
        self.point('xret %s @rvp_mret @%s' % (back, cont))

    def xret(self, to, pre=(), needs=None):
        """mret/sret from the current mode to TO (xret_allowed); pre:
        instructions before it.  Returns the label it returns to."""
        if to in VIRT and self.xlen == 32:
            raise Unsupported('%s on RV32 (the replay\'s trap handler keeps '
                              'MPV in mstatus, RV32 has it in mstatush)'
                              % to)
        self.opportunity()
        if needs:
            needs()
        src, cont = self.label(), self.label()
        for x in pre:
            self.emit(x, 2 if x.startswith('lla') else 1)
        if self.mode == 'M':
            mpp = {'M': 3, 'S': 1, 'VS': 1, 'U': 0, 'VU': 0}[to]
            self.const('t0', MSTATUS_MPP | MSTATUS_MPV | MSTATUS_MPIE)
            self.emit('csrc mstatus, t0')
            self.const('t0', (mpp << 11) | (MSTATUS_MPV if to in VIRT else 0))
            self.emit('csrs mstatus, t0')
            self.emit('lla t0, %s' % cont, 2)
            self.emit('csrw mepc, t0')
            self.place(src)
            self.emit('mret')
        else:
            # SPP and SPIE (no interrupt enabled by the sret)
            self.emit('li t0, %d' % (SSTATUS_SPP | 0x20))
            self.emit('csrc sstatus, t0')
            if to in ('S', 'VS'):
                self.emit('li t0, %d' % SSTATUS_SPP)
                self.emit('csrs sstatus, t0')
            if self.mode == 'S':
                self.emit('li t0, %d' % HSTATUS_SPV)
                self.emit('csr%s hstatus, t0' % ('s' if to in VIRT
                                                  else 'c'))
            self.emit('lla t0, %s' % cont, 2)
            self.emit('csrw sepc, t0')
            self.place(src)
            self.emit('sret')
        self.point('xret %s @%s @%s' % (to, src, cont))
        self.place(cont)
        self.mode = to
        return cont

    def to_m_via_handler(self, insn, kind, cause, counted, setup=None,
                         after=None):
        """A trap to M through rvp_mtrap, which returns to M at the
        continuation (setup: instructions before; the trap's source is
        the label before INSN, or after it for an interrupt)."""
        cont = self.label()
        self.emit('lla s3, %s' % cont, 2)
        self.emit('mv s4, s9')
        self.emit('mv s5, s10')
        for s in setup or []:
            self.emit(s)
        src = self.label()
        self.place(src)
        self.emit(insn, 1 if counted else 0)
        if kind == 'int':
            # taken before the next instruction, which is the source
            src = self.label()
            self.place(src)
        self.through_mtrap(kind, cause, src, 'M', cont)
        self.mode = 'M'
        self.place(cont)
        self.emit('%s zero, 0(s2)' % self.sx)
        self.emit('li s4, 0')
        self.emit('li s5, 0')
        for s in after or []:
            self.emit(s)

    def trap_direct(self, to, insn, kind, cause, counted, setup=(),
                    after=()):
        """A trap to HS or VS whose vector is the continuation."""
        cont = self.label()
        self.need('stvec' if to == 'S' else 'vstvec', cont)
        for s in setup:
            self.emit(s)
        src = self.label()
        self.place(src)
        self.emit(insn, 1 if counted else 0)
        if kind == 'int':
            src = self.label()
            self.place(src)
        self.point('trap %s %d %s @%s @%s' % (kind, cause, to, src, cont))
        self.mode = to
        self.place(cont)
        for s in after:
            self.emit(s)

    def exception(self, to, cause=None):
        """An exception from the current mode to TO (trap_allowed)."""
        m = self.mode
        self.opportunity()
        if cause == 3:
            self.need(('medeleg', 3), to != 'M')
            self.need(('hedeleg', 3), to == 'VS')
            if to == 'M':
                self.to_m_via_handler('ebreak', 'exc', 3, True)
            else:
                self.trap_direct(to, 'ebreak', 'exc', 3, True)
        elif to == 'M':
            self.to_m_via_handler('ecall', 'exc', ECALL[m], True)
        elif to == 'S':
            self.trap_direct('S', '%s zero, -1(s11)' % self.lx, 'exc', 5,
                             False)
        else:
            self.trap_direct('VS', 'lr.w zero, (s11)', 'exc', 4, False)

    def interrupt(self, to, cause):
        """An interrupt from the current mode to TO (an LCOFI right after
        priv from M is enter_lcofi's)."""
        m = self.mode
        lcofi = cause == 13
        self.opportunity()
        if to == 'M':
            if lcofi:
                self.need(('mideleg', 13), False)
                if m == 'M':
                    self.to_m_via_handler('csrsi mstatus, 8', 'int', 13,
                                          True,
                                          setup=['csrs mie, s7',
                                                 'csrs mip, s7'],
                                          after=['csrc mip, s7',
                                                 'csrc mie, s7'])
                    return
                raise Unsupported('LCOFI to M from %s' % m)
            setup = ['li t1, 1'] if m != 'M' else ['li t1, 1',
                                                   'sw t1, 0(s6)']
            insn = 'sw t1, 0(s6)' if m != 'M' else 'csrsi mstatus, 8'
            self.to_m_via_handler(insn, 'int', 3, True, setup=setup,
                                  after=['sw zero, 0(s6)'])
        elif to == 'S':
            if lcofi:
                self.need(('mideleg', 13), True)
                if m != 'S':
                    raise Unsupported('LCOFI to HS from %s' % m)
                self.trap_direct('S', 'csrs sip, s7', 'int', 13, True,
                                 setup=['csrs sie, s7', 'csrsi sstatus, 2'],
                                 after=['csrc sip, s7', 'csrc sie, s7'])
            elif m == 'S':
                self.trap_direct('S', 'csrsi sip, 2', 'int', 1, True,
                                 setup=['csrsi sstatus, 2'],
                                 after=['csrci sip, 2'])
            else:
                self.trap_direct('S', 'sw t1, 0(s8)', 'int', 1, True,
                                 setup=['li t1, 1'],
                                 after=['csrci sip, 2'])
        else:
            if m != 'VS':
                raise Unsupported('interrupt to VS from %s' % m)
            if lcofi:
                # QEMU 10.2's hideleg cannot delegate LCOFI
                # (vs_delegable_ints leaves LCOFIP out); AIA's hvien
                # gives VS an LCOFI of its own.
                self.need(('hvien', 13), True)
                self.trap_direct('VS', 'csrs sip, s7', 'int', 13, True,
                                 setup=['csrsi sstatus, 2', 'csrs sie, s7'],
                                 after=['csrc sip, s7', 'csrc sie, s7'])
            else:
                self.trap_direct('VS', 'csrsi sip, 2', 'int', 1, True,
                                 setup=['csrsi sstatus, 2'],
                                 after=['csrci sip, 2'])

    def enter_lcofi(self, to, tgt):
        """priv TO from M followed by an LCOFI trap to TGT: M sets LCOFIP
        before its mret, so the interrupt is taken at TO's first
        instruction."""
        cont2 = self.label()
        pre = ['csrs mie, s7', 'csrs mip, s7']
        if tgt == 'M':
            pre = ['lla s3, %s' % cont2, 'mv s4, s9', 'mv s5, s10'] + pre

        def needs():
            self.need(('mideleg', 13), tgt != 'M')
            if tgt != 'M':
                self.need('stvec' if tgt == 'S' else 'vstvec', cont2)
        cont = self.xret(to, pre, needs)
        if tgt == 'M':
            self.through_mtrap('int', 13, cont, 'M', cont2)
            self.mode = 'M'
            self.place(cont2)
            for x in ['%s zero, 0(s2)' % self.sx, 'li s4, 0', 'li s5, 0',
                      'csrc mip, s7', 'csrc mie, s7']:
                self.emit(x)
        else:
            self.point('trap int 13 %s @%s @%s' % (tgt, cont, cont2))
            self.mode = tgt
            self.place(cont2)
            self.emit('csrc sip, s7')
            self.emit('csrc sie, s7')

    def switch(self, to):
        """priv TO: a real mode switch."""
        m = self.mode
        if m == to:
            return
        if xret_allowed(m, to):
            self.xret(to)
        elif trap_allowed(m, to):
            self.exception(to)
        else:
            self.exception('M')
            self.xret(to)

    # --------------------------------------------------------- accesses
    def outcome(self):
        """The next access's trap cause (0: none); access() notes where
        its template line is."""
        k = self.naccess
        self.naccess += 1
        return self.outcomes[k] if self.outcomes is not None else 0

    def access(self, line, kind, name, num, val=None):
        """csrr/csrw/sctrclr: status in 0(s2) (rvp_mtrap stores mcause
        there), a read's value in the next word."""
        trap = self.outcome()
        nxt = self.label()
        if kind == 'w':
            self.const('t0', val)
        self.emit('lla s3, %s' % nxt, 2)
        acc = self.label()
        self.place(acc)
        if kind == 'r':
            insn = 'csrr t0, 0x%x' % num
        elif kind == 'w':
            insn = 'csrw 0x%x, t0' % num
        else:
            insn = '.insn 0x10400073'       # SCTRCLR
        self.emit(insn, 0 if trap else 1)
        self.point('%s  # line %d' % (line, self.lineno))
        self.accesses.append(len(self.tmpl) - 1)
        if trap or kind == 'r':
            self.nprint += 1
        if trap:
            self.through_mtrap('exc', trap, acc, self.mode, nxt)
        self.place(nxt)
        if kind == 'r':
            self.emit('%s t0, %d(s2)' % (self.sx, self.wb))
            self.emit('addi s2, s2, %d' % (2 * self.wb))
            mask = 2**self.xlen - 1
            if 'stateen' in name:
                mask = STATEEN_MASK
                if self.xlen == 32:
                    mask = (mask >> 32 if name.endswith('h') else
                            mask) & 0xFFFFFFFF
            elif name.endswith('counteren'):
                mask = COUNTEREN_MASK & (2**self.xlen - 1)
            elif name == 'mip':
                mask = MIP_MASK
            self.names.append(('r', name, mask))
        else:
            self.emit('addi s2, s2, %d' % self.wb)
            self.names.append(('w', name, 0))

    def wait(self, n):
        """cycles N, more than nops can take: the hart waits for the timer
        in WFI until N cycles from now (mtimecmp, MTIE, MIE clear: no
        trap), the cycles it spent between two mcycle reads stored as
        "idle" output; the template's "cycles @idleK" gets that number."""
        if self.mode != 'M' or self.xlen != 64:
            raise Unsupported('cycles %d: too many for nops, and the timer '
                              'wait is for M-mode RV64' % n)
        k = self.nwait
        self.nwait += 1
        self.const('t1', MTIME)
        self.emit('ld t2, 0(t1)')
        self.const('t0', (n + NS_PER_TICK - 1) // NS_PER_TICK)
        self.emit('add t2, t2, t0')
        self.const('t1', MTIMECMP0)
        self.emit('sd t2, 0(t1)')
        self.emit('li t0, 0x80')            # MTIE
        self.emit('csrs mie, t0')
        self.emit('csrr t2, mcycle')
        self.emit('wfi')
        self.emit('csrr t3, mcycle')
        # the two instructions after the first read are counted already
        self.tmpl.append('cycles @idle%d' % k)
        self.emit('csrc mie, t0')
        self.emit('li t0, -1')
        self.emit('sd t0, 0(t1)')           # MTIP off
        self.emit('sub t3, t3, t2')
        self.emit('addi t3, t3, -2')
        self.emit('sd t3, 0(s2)')
        self.emit('addi s2, s2, 8')
        self.names.append(('i', None, 0))

    def dump(self):
        back = self.mode
        self.switch('M')
        # Unrolled: a loop's branches would be recorded too.
        self.asm += ['\tcsrr t3, 0x150', '\t.set rvp_i, 0x200',
                     '\t.rept 256', '\tli t2, rvp_i', '\tcsrw 0x150, t2',
                     '\tcsrr t0, 0x151', '\t%s t0, 0(s2)' % self.sx,
                     '\tcsrr t0, 0x152', '\t%s t0, %d(s2)' % (self.sx,
                                                              self.wb),
                     '\tcsrr t0, 0x153', '\t%s t0, %d(s2)' % (self.sx,
                                                              2 * self.wb),
                     '\taddi s2, s2, %d' % (3 * self.wb),
                     '\t.set rvp_i, rvp_i + 1',
                     '\t.endr', '\tcsrw 0x150, t3']
        self.pending += 1 + 256 * 9 + 1
        self.point('dump  # line %d' % self.lineno)
        self.nprint += 1
        self.names.append(('d', None, 0))
        self.switch(back)

    # ------------------------------------------------------------ lines
    def csr_num(self, name):
        if re.fullmatch(r'0x[0-9a-fA-F]+', name) and int(name, 16) < 0x1000:
            if int(name, 16) in (0xC01, 0xC81):
                raise Unsupported('%s: QEMU\'s time CSR, which ctr-sim '
                                  'lacks' % name)
            return int(name, 16)
        if name in CTR[self.layout]:
            return CTR[self.layout][name]
        if name in OTHER:
            return OTHER[name]
        if name in IND:
            return IND[name]
        if name in QEMU_CSRS:
            return QEMU_CSRS[name]
        for prefix, base, hbase in NUMBERED:
            m = re.fullmatch(prefix + r'(\d+)(h?)', name)
            if m and 3 <= int(m.group(1)) <= 31:
                if self.upstream:
                    raise Unsupported('%s: upstream QEMU has no counter '
                                      'model' % name)
                return (hbase if m.group(2) else base) + int(m.group(1)) - 3
        raise Unsupported('CSR %s is QEMU\'s, not the model\'s' % name)

    def line(self, tok, raw, nxt):
        m = self.mode
        if tok[0] == 'layout':
            if self.done:
                raise Unsupported('layout after other lines')
            self.layout = tok[1]
            if self.upstream and self.layout != 'ratified':
                raise Unsupported('upstream QEMU has no %s layout'
                                  % self.layout)
            return
        if tok[0] == 'impl':
            # QEMU's implementation on both sides; XLEN is the guest's
            # (scenario_xlen())
            return
        if tok[0] == 'priv':
            to = tok[1].upper()
            if (m == 'M' and to != 'M' and nxt and nxt[0] == 'trap' and
                    nxt[1] == 'int' and int(nxt[2], 0) == 13 and
                    nxt[3].upper() in ('M', 'S') and
                    nxt[3].upper() != to and
                    trap_allowed(to, nxt[3].upper())):
                self.enter_lcofi(to, nxt[3].upper())
                return True
            self.switch(to)
            return
        if tok[0] in ('csrr', 'csrw'):
            if self.xlen == 32 and tok[1] in RV32_BROKEN:
                raise Unsupported('%s: QEMU 10.2\'s RV32 counter halves do '
                                  'not carry' % tok[1])
            num = self.csr_num(tok[1])
            if tok[0] == 'csrr':
                self.access(raw, 'r', tok[1], num)
            else:
                val = int(tok[2], 0)
                if tok[1] == 'mip':
                    val &= MIP_MASK
                self.access(raw, 'w', tok[1], num, val)
            return
        if tok[0] == 'sctrclr':
            self.access(raw, 'c', 'sctrclr', None)
            return
        if tok[0] in ('cycles', 'retire'):
            # N nops: N instructions retired, N cycles
            n = int(tok[1], 0)
            if n > MAX_CYCLES or self.nops + n > MAX_NOPS:
                if tok[0] == 'retire':
                    raise Unsupported('retire %d: too many nops' % n)
                self.wait(n)
                return
            self.nops += n
            if n:
                self.asm += ['\t.rept %d' % n, '\tnop', '\t.endr']
            self.pending += n
            return
        if tok[0] == 'dump':
            self.dump()
            return
        if tok[0] == 'xfer' and tok[1] in XFER:
            setup, insn = XFER[tok[1]]
            t, s = self.label(), self.label()
            for x in setup:
                self.emit(x.format(t=t), 2)
            self.place(s)
            self.emit(insn.format(t=t))
            self.point('xfer %s @%s @%s' % (tok[1], s, t))
            self.place(t)
            return
        if tok[0] == 'xfer' and tok[1] in ('exception', 'interrupt',
                                           'trapret'):
            if m in ('U', 'VU'):
                raise Unsupported('xfer %s in %s: no trap stays in %s'
                                  % (tok[1], m, m))
            if tok[1] == 'exception':
                self.exception(m)
            elif tok[1] == 'interrupt':
                self.interrupt(m, 0)
            else:
                self.xret(m)
            return
        if tok[0] == 'trap':
            to = tok[3].upper()
            if not trap_allowed(m, to):
                raise Unsupported('trap from %s to %s' % (m, to))
            if tok[1] == 'exc':
                self.exception(to, int(tok[2], 0))
            else:
                self.interrupt(to, int(tok[2], 0))
            return
        if tok[0] == 'xret':
            to = tok[1].upper()
            if not xret_allowed(m, to):
                raise Unsupported('xret from %s to %s' % (m, to))
            self.xret(to)
            return
        if tok[0] == 'insn':
            self.insn(tok)
            return
        raise Unsupported('"%s" lines are not replayed' % tok[0])

    # ------------------------------------------------------------- insn
    def to_section(self, sec, lab=None):
        if sec != self.section:
            self.asm.append('\t.section %s, "ax", @progbits' % sec)
            self.section = sec
        if lab:
            self.place(lab)

    def far(self):
        """A new section for code that only a jump reaches."""
        self.nfar += 1
        self.to_section('.text.rvpfar%d' % self.nfar)
        self.asm.append('\t.balign 4')
        self.align = 0

    def hop(self, dest, count=True):
        """mret from M to M at DEST (6 instructions); returns its label."""
        src = self.label()
        code = ['lla t0, %s' % dest, 'csrw mepc, t0', 'csrc mstatus, s9',
                'csrs mstatus, s10']
        for x in code:
            self.asm.append('\t' + x)
        self.place(src)
        self.asm.append('\tmret')
        if count:
            self.pending += 6
        return src

    def insn_back(self, raw, off, length, setup, extra, rd):
        """A direct transfer to OFF <= 0 bytes from it (M-mode only): an
        mret takes the replay to the instruction, placed -OFF bytes after
        its target at the start of a new section; the target mrets on
        (three instructions, t4 holding where) to another new section."""
        if off == 0:
            raise Unsupported('insn 0x%x: a taken jump to itself' % raw)
        if self.mode != 'M':
            raise Unsupported('insn 0x%x: a backward target outside M'
                              % raw)
        if -off < 12 or rd == 29:
            raise Unsupported('insn 0x%x: target %d bytes behind, less '
                              'than an mret needs' % (raw, -off))
        for x in setup:
            self.emit(x)
        i_lab, t_lab, c_lab = self.label(), self.label(), self.label()
        self.emit('lla t4, %s' % c_lab, 2)
        src = self.hop(i_lab)
        self.point('xret M @%s @%s' % (src, i_lab))
        self.far()
        self.place(t_lab)
        src2 = self.label()
        self.asm += ['\tcsrw mepc, t4', '\tcsrs mstatus, s10', '%s:' % src2,
                     '\tmret']
        self.asm.append('\t.skip %d' % (-off - 12))
        self.place(i_lab)
        self.asm.append('\t.%s 0x%x' % ('2byte' if length == 2 else '4byte',
                                          raw))
        self.pending += 1
        self.point('insn @%s 0x%x%s' % (i_lab, raw, extra))
        self.pending += 3
        self.point('xret M @%s @%s' % (src2, c_lab))
        self.far()
        self.place(c_lab)
        self.emit('csrci mstatus, 8')     # the mret set MIE (MPIE was 1)

    def insn(self, tok):
        """insn ADDR HEX [taken|nottaken] [target=ADDR]: the encoding
        itself, at a label; its target is where the replay goes on: the
        next instruction, the encoded offset ahead (padding between), the
        instruction after an earlier call (a return), or a new section."""
        addr, raw = int(tok[1], 0), int(tok[2], 0)
        taken = 'taken' in tok[3:]
        tgt = [int(t[7:], 0) for t in tok[3:] if t.startswith('target=')]
        d = decode(raw, self.xlen)
        if d is None:
            raise Unsupported('insn 0x%x: not replayed (memory, system or '
                              'table jump)' % raw)
        kind, length, off, rd, rs1, rs2, cond = d
        for r in (rd, rs1, rs2):
            if r in RESERVED:
                raise Unsupported('insn 0x%x uses x%d, which the replay '
                                  'keeps' % (raw, r))
        setup = []
        if kind == 'branch':
            vals = branch_values(cond, rs1, rs2, taken, self.xlen)
            if vals is None:
                raise Unsupported('insn 0x%x: no register values make it '
                                  '%s' % (raw, 'taken' if taken else
                                          'not taken'))
            setup = ['li x%d, %d' % (r, v) for r, v in vals if r]
        if kind == 'branch' and not taken or kind == 'other':
            cont = length            # falls through
        elif kind in ('branch', 'jal'):
            if off < length:
                self.insn_back(raw, off, length, setup,
                               ' taken' if kind == 'branch' else '', rd)
                return
            cont = off
        else:
            cont = None              # indirect: the register says
        if cont is None:
            if not tgt:
                raise Unsupported('insn 0x%x: indirect without target='
                                  % raw)
            t = tgt[0]
        else:
            t = addr + cont
        # where the replay goes on
        back = self.resume.pop(t, None) if cont is None else None
        if cont is None and t == addr + length:
            cont = length
        pad = cont is not None and (self.align + cont) % 4
        i_lab, t_lab = self.label(), self.label()
        if cont is None:
            dest = back[1] if back else t_lab
            # the register jalr/c.jr/c.jalr reads (rd is written after)
            imm = off or 0
            setup.append('lla x%d, %s' % (rs1, dest))
            if imm:
                setup.append('addi x%d, x%d, %d' % (rs1, rs1, -imm))
        for x in setup:
            self.emit(x, 2 if x.startswith('lla') else 1)
        call = rd in (1, 5) and kind in ('jal', 'jalr')
        if cont is None and call and back is None:
            # a call somewhere else: the instruction after it may be
            # returned to; keep it 4-byte aligned
            if (self.align + length) % 4:
                pad = True
        if pad:
            self.asm.append('\t.2byte 0x0001')     # c.nop
            self.pending += 1
            self.align = (self.align + 2) % 4
        self.place(i_lab)
        self.asm.append('\t.%s 0x%x' % ('2byte' if length == 2 else '4byte',
                                          raw))
        self.pending += 1
        self.align = (self.align + length) % 4
        extra = ''
        if kind == 'branch':
            extra = ' taken' if taken else ' nottaken'
        if cont is None:
            extra += ' target=@%s' % (back[1] if back else t_lab)
        self.point('insn @%s 0x%x%s' % (i_lab, raw, extra))
        if cont is not None:
            if cont > length:
                self.asm.append('\t.skip %d' % (cont - length))
                self.align = (self.align + cont - length) % 4
            self.place(t_lab)
            return
        if call:
            r_lab = self.label()
            self.place(r_lab)
            self.resume[addr + length] = (self.section, r_lab)
        if back:
            self.to_section(back[0])
            self.align = 0
            return
        self.far()
        self.place(t_lab)

    def run(self):
        impl = 'impl cc=off' if self.upstream else 'impl misp=on'
        impl += ' hpm=%d' % HPM_COUNTERS
        if self.xlen == 32:
            impl += ' xlen=32'
        # rvp_ops zeroes minstret, then mcycle (write()): minstret has
        # counted the instructions after its write by then
        self.tmpl += ['layout ratified', impl,
                      'retire %d' % (1 if self.xlen == 64 else 2)]
        todo = [(i, raw.split('#', 1)[0].strip())
                for i, raw in enumerate(self.lines)]
        todo = [(i, l) for i, l in todo if l]
        skip = False
        for j, (i, line) in enumerate(todo):
            if skip:
                skip = False
                self.done += 1
                continue
            tok = line.split()
            self.lineno = i + 1
            nxt = todo[j + 1][1].split() if j + 1 < len(todo) else None
            if tok[0] == 'layout':
                self.tmpl[0] = 'layout %s' % tok[1]
            save = (len(self.asm), len(self.tmpl), self.pending,
                    len(self.names), self.mode, self.naccess,
                    len(self.accesses), len(self.vals), len(self.opps),
                    len(self.needs), self.nlab, self.nprint)
            try:
                skip = bool(self.line(tok, line, nxt))
            except Unsupported as e:
                (na, nt, self.pending, nn, self.mode, self.naccess, nacc,
                 nv, no, nd, self.nlab, self.nprint) = save
                del self.asm[na:], self.tmpl[nt:], self.names[nn:]
                del self.accesses[nacc:], self.vals[nv:], self.opps[no:]
                del self.needs[nd:]
                self.stop = (i + 1, str(e))
                break
            self.done += 1
        self.switch('M')
        self.opportunity()


def make_plan(g):
    """Each need goes to the last opportunity at or before it whose mode
    can write that register."""
    writers = {'stvec': ('M', 'S'), 'vstvec': ('M', 'S', 'VS'),
               ('medeleg', 3): ('M',), ('mideleg', 13): ('M',),
               ('hedeleg', 3): ('M', 'S'), ('hvien', 13): ('M', 'S')}
    plan, at = {}, {}
    for k, what, val in g.needs:
        j = k
        while j >= 0 and g.opps[j] not in writers[what]:
            j -= 1
        if j < 0:
            raise Unsupported('no mode could set %s' % (what,))
        prev = at.get(what)
        if prev is not None and prev[0] == j and prev[1] != val:
            raise Unsupported('%s needs two values between two visits '
                              'of a mode that sets it' % (what,))
        at[what] = (j, val)
        if (what, val) not in plan.setdefault(j, []):
            plan[j].append((what, val))
    return plan


def fill(tmpl, addr):
    return [re.sub(r'@(\w+)', lambda m: '0x%x' % addr(m.group(1)), l)
            for l in tmpl]


def outcomes_from_sim(g, sim):
    """Run ctr-sim on the first pass's template (made-up addresses) and
    say, per access, whether it trapped (2 illegal, 22 virtual)."""
    labels = {}
    text = fill(g.tmpl, lambda n: labels.setdefault(n, 0x80000000 +
                                                    4 * len(labels)))
    p = subprocess.run([sim, '--lines'], input='\n'.join(text) + '\n',
                       capture_output=True, text=True)
    if p.returncode:
        raise Unsupported('ctr-sim refused the sequence: %s'
                          % p.stderr.strip())
    said = {}           # template line (1-based): what it printed first
    for l in p.stdout.splitlines():
        num, _, what = l.partition('\t')
        said.setdefault(int(num), what)
    trap = {'illegal': 2, 'virtual': 22}
    return [trap.get(said.get(i + 1), 0) for i in g.accesses]


def scenario_xlen(lines):
    """The hart's XLEN: 32 with an impl line saying xlen=32, else 64."""
    for l in lines:
        tok = l.split('#', 1)[0].split()
        if tok[:1] == ['impl'] and 'xlen=32' in tok[1:]:
            return 32
    return 64


def generate(scn, sim, upstream):
    lines = open(scn).read().splitlines()
    xlen = scenario_xlen(lines)
    g = Gen(lines, None, None, upstream, xlen)
    g.run()
    outcomes = outcomes_from_sim(g, sim)
    g = Gen(lines, outcomes, None, upstream, xlen)
    g.run()
    plan = make_plan(g)
    g2 = Gen(lines, outcomes, plan, upstream, xlen)
    g2.run()
    assert g2.nlab == g.nlab
    return g2


def write(g, scn, out_s, out_c, out_t):
    with open(out_c, 'w') as f:
        f.write('/* generated by tests/qemu/scn2events.py from %s */\n'
                '#include "events.h"\n'
                'const struct rvp_out_name rvp_names[] = {\n' % scn)
        for kind, name, mask in g.names:
            f.write('\t{ \'%s\', %s, 0x%xULL },\n'
                    % (kind, '"%s"' % name if name else 'NULL', mask))
        f.write('};\nconst int rvp_nnames = %d;\n' % len(g.names))
    nout = sum({'r': 2, 'w': 1, 'i': 1, 'd': 768}[k] for k, _, _ in g.names)
    with open(out_s, 'w') as f:
        f.write('/* generated by tests/qemu/scn2events.py from %s */\n'
                % scn)
        f.write('\t.option norvc\n\t.option norelax\n'
                '\t.section .rodata\n\t.balign 8\nrvp_vals:\n')
        for v in g.vals:
            f.write('\t.%s 0x%x\n' % ('dword' if g.xlen == 64 else 'word',
                                       v))
        f.write('\t.text\n\t.balign 4\n\t.globl rvp_ops\nrvp_ops:\n'
                '\tlla t0, rvp_save\n\t%s ra, 0(t0)\n'
                '\tcall rvp_setup\n\tlla s1, rvp_vals\n'
                '\tlla s2, rvp_out\n' % g.sx)
        # the counters start where ctr-sim's do: at 0 (run())
        if g.xlen == 32:
            f.write('\tcsrw minstreth, zero\n\tcsrw minstret, zero\n'
                    '\tcsrw mcycleh, zero\n\tcsrw mcycle, zero\n')
        else:
            f.write('\tcsrw minstret, zero\n\tcsrw mcycle, zero\n')
        for a in g.asm:
            f.write(a + '\n')
        f.write('\ttail rvp_teardown\n')
        f.write('\t.bss\n\t.balign 8\n\t.globl rvp_out\nrvp_out:\n'
                '\t.space %d\n' % (g.wb * (max(nout, 1) + 1)))
    with open(out_t, 'w') as f:
        f.write('\n'.join(g.tmpl) + '\n')


def main():
    if sys.argv[1] == 'gen':
        scn, out_s, out_c, out_t, sim = sys.argv[2:7]
        upstream = len(sys.argv) > 7 and sys.argv[7] == 'upstream'
        try:
            g = generate(scn, sim, upstream)
        except Unsupported as e:
            print('0 1 0 %s' % e)
            return
        write(g, scn, out_s, out_c, out_t)
        if g.stop:
            print('%d %d %d %s' % (g.done, g.stop[0], g.nprint, g.stop[1]))
        else:
            print('%d 0 %d -' % (g.done, g.nprint))
    elif sys.argv[1] == 'where':
        # where FILLED.scn SIM K: the scenario line that printed ctr-sim's
        # K-th output line (1-based)
        scn, sim, k = sys.argv[2], sys.argv[3], int(sys.argv[4])
        t = open(scn).read().splitlines()
        out = subprocess.run([sim, '--lines', scn], capture_output=True,
                             text=True).stdout.splitlines()
        n = int(out[k - 1].split('\t')[0]) if 0 < k <= len(out) else 0
        m = re.search(r'# line (\d+)', t[n - 1]) if n else None
        print(m.group(1) if m else '?')
    else:
        tmpl, nm = sys.argv[2:4]
        addr = {}
        for l in open(nm):
            f = l.split()
            if len(f) == 3:
                addr[f[2]] = int(f[0], 16)
        if len(sys.argv) > 4:
            for k, l in enumerate(open(sys.argv[4])):
                addr['idle%d' % k] = int(l.split()[1], 0)
        for l in fill(open(tmpl).read().splitlines(), lambda n: addr[n]):
            print(l)


if __name__ == '__main__':
    main()
