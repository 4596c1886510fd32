# SPDX-License-Identifier: BSD-2-Clause
"""The hash peripheral's register map, generated from the CSRs the peripheral declares.

soc/peripheral/ (HashPeripheral) is the one description of the register layout: its LiteX
CSRStorage/CSRStatus registers, their CSRField lists and the EventManager. As OpenTitan's
regtool does from its register descriptions, this module writes everything else from it:

- software/firmware/lib/include/litedigest/ld_hw_regs.h: the C library's field macros
  (LD_CTRL_*, LD_STATUS_*, LD_INFO_*, LD_EV_*), register sizes (LD_REG_*) and the info.arch
  codes (LD_ARCH_*, from litedigest.spec.ARCH_CODES);
- software/python/litedigest/hw_regs.py: the same layout as pure data for the Python drivers
  (standard library only: the board side imports it without Migen or LiteX);
- the tables of soc/REGISTERS.md between `<!-- BEGIN GENERATED: name -->` and
  `<!-- END GENERATED: name -->`; the prose around them is kept as written.

It instantiates the peripheral for a few small engines (REPRESENTATIVES: every family, one of
them with two slots, a Skein one for the Skein-only registers), reads each instance's CSRs
(`get_csrs()`: name, size, fields with offset, size and pulse, description) and checks that
every instance has the same fields at the same positions (the one driver for all instances
relies on it). A register present in the Skein instances only is Skein-only; a register whose
width follows the engine is "state" (the chaining value) or "slots" (one bit per slot).
The meanings of registers and fields in REGISTERS.md are REGISTER_DOCS/FIELD_DOCS/EVENT_DOCS
below, else the CSR's own description when every instance has the same one; a register or field
with neither is an error, as is a meaning of something the peripheral does not declare.

    python -m litedigest.tools.regmap --write   # regenerate the three files in place
    python -m litedigest.tools.regmap --check   # exit 1 with a diff when a committed file differs
"""

import os
import sys
from dataclasses import dataclass

from litedigest import generated
from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc import peripheral as periphmod
from litedigest.soc.peripheral.batch import KEY_SHIFT
from litedigest.soc.peripheral.layouts import VARIANT_BITS
from litex.soc.interconnect.csr import CSRStatus, CSRStorage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "software/firmware/lib/include/litedigest/ld_hw_regs.h"
CATALOG_HEADER = "software/firmware/lib/include/litedigest/ld_catalog.h"
MD_TABLE_HEADER = "software/firmware/lib/src/ld_md_table.h"
PYMOD = "software/python/litedigest/hw_regs.py"
DOC = "soc/REGISTERS.md"
COMMAND = "python -m litedigest.tools.regmap --write"
# the generated sources carry the project's license like every other source (LICENSE)
SPDX = "SPDX-License-Identifier: BSD-2-Clause"
C_LICENSE = f"/* {SPDX} */"

# small engines of every family; sha256:base:p2 has two slots (slot-wide registers), skein512:r1
# the Skein-only registers and fields, hmac-sha256:opt (two slots) the MAC-only ones
REPRESENTATIVES = (
    "sha1:base",
    "sha256:base",
    "sha512:base",
    "sha256:base:p2",
    "skein512:r1",
    "hmac-sha256:opt",
)
SKEIN_FAMILY = "skein512"
RAM_BASE, RAM_SIZE = 0x40000000, 0x10000  # any main RAM: the layout does not depend on it
WORD_BITS = 32  # the CSR bus (csr_data_width)

# ------------------------------------------------------------------ meanings (REGISTERS.md)
# "{...}" fields are filled in from the catalogue (litedigest.spec) and the peripheral module.
REGISTER_DOCS = {
    "cycles_latch": "any write copies the free-running cycle counter into `cycles_value`",
    "cycles_value": "the cycle count at the last latch",
    "ctrl": "fields below; pulse fields act on the write, level fields are kept",
    "din": "one 32-bit big-endian chunk of the block per write (bytes b0..b3 -> `b0<<24 | ... "
    "| b3`); block_bytes/4 writes fill the CSR block buffer; one more before `start` sets "
    "`err_state` and is dropped. Reads back as 0 (a MAC peripheral's keys go through it)",
    "cv": "a chaining value to resume from (`load_cv`)",
    "dma_base": "byte address of the job's first segment in main RAM, aligned to `_DMA_ALIGN`",
    "dma_length": "bytes of the first segment, a non-zero multiple of the block size",
    "tail_base": "byte address of the second segment, "
    "used when `ctrl.tail` (aligned like `dma_base`)",
    "tail_length": "bytes of the second segment, used when `ctrl.tail`: a multiple of the block "
    "size, may be 0",
    "status": "fields below",
    "slots_busy": "bit s: slot s has a job running",
    "slots_done": "bit s: slot s's job finished since its last `slots_ack` (with or without error)",
    "slots_ack": "a write clears the `slots_done` bits set in the value",
    "digest_sel": "the slot whose chaining value `digest` shows",
    "digest": "chaining value of slot `digest_sel` after its latest block (the digest after a "
    "`last` block; truncation is software's)",
    "blocks": "blocks completed since reset (free-running, wraps)",
    "finish_cycles": "the cycle counter's value when the latest job finished (a scheduler's exact "
    "end of run)",
    "info": "{info_bits}; fields below",
    # Skein peripherals
    "tweak": "the job's start tweak, T1 at the lowest address then T0 (LiteX order): T1 bits "
    "{t1_final} final, {t1_first} first, 61:56 type, {t1_bitpad} bitpad, 54:48 tree "
    "level, 31:0 position bits 95:64; T0 position bits 63:0. The position is the number "
    "of bytes **before** the job",
    "final_bytes": "bytes the UBI's final block adds to the position (0..{block_bytes}; more is "
    "`err_len`), used when the tweak's final bit is set",
    # the batch walker
    "batch_base": "byte address of the descriptor table (16-byte descriptors: message address, "
    "length in bytes, output address, flags = variant), 16-byte aligned, in main RAM; "
    "Skein: each message is hashed with its output block, the output written is "
    "the 64-byte digest (of the variant's size)",
    "batch_count": "descriptors in the table (0: the batch ends at once)",
    "batch_status": "fields below",
    "batch_progress": "chaining values the current or latest batch has written",
    "batch_start_cycles": "the cycle counter's value when the latest batch started (`batch_start` "
    "accepted); `finish_cycles` is stamped at its end: the batch's exact run, "
    "read after it without timing the CPU",
}
FIELD_DOCS = {
    "ctrl": {
        "start": "hash the block written to `din` on slot `slot` (CSR path)",
        "dma_start": "hash `dma_length` bytes at `dma_base` (then the tail segment when `tail`) on "
        "slot `slot`",
        "first": "the job's first block starts from the IV of `variant`",
        "last": "the job's last block ends the message (informational; the padding is software's, "
        "or the peripheral's with `pad`)",
        "hold": "the DMA reader fetches nothing while set: jobs started meanwhile wait, and the "
        "next `ctrl` write without `hold` releases them together (a scheduler starts its "
        "first wave of slots this way, so they run in step)",
        "load_cv": "the job's first block starts from `cv` instead (ignored when `first`); `cv` is "
        "read when that block enters the engine, so a second `load_cv` job is refused "
        "(`err_state`) until then",
        "ack": "clear `done` and the error bits (an error or a job's end in the "
        "same cycle stays set); resets the `din` word count (not `slots_done`)",
        "tail": "`dma_start`: continue with the tail segment",
        "variant": "IV choice, per family (litedigest.spec.VARIANTS): {variants}. Skein-512's "
        "`zero` is the zero chain a key or configuration UBI starts from, `skein512-N` "
        "the configured chaining value of N output bits",
        "out": "`dma_start` only (`start` with it: `err_state`): after the job's blocks, the "
        "output UBI's first block (Skein's counter 0: 64 zero bytes, tweak type OUT with "
        "first and final, position 8), made by the peripheral from the slot's chaining "
        "value, so one job hashes a message and yields up to 512 output bits",
        "slot": "the slot of a `start`/`dma_start` (0..S-1)",
    },
    "status": {
        "busy": "some slot has a job running",
        "done": "a job finished or was rejected since the last `ack`",
        "err_len": "`start` with fewer than block_bytes/4 words in `din`, or a DMA length zero / "
        "not a multiple of the block size",
        "err_addr": "a DMA segment outside main RAM or not "
        "aligned to `_DMA_ALIGN` (nothing was read)",
        "err_state": "a start on a busy slot, a slot number >= S, a `start` while the previous CSR "
        "block still waits for the engine, a second pending `load_cv`, `out` with "
        "`start`, or one `din` word too many",
        "err_bus": "the DMA saw a bus error; the job of the slot being read was abandoned (it "
        "finishes at once)",
        "words": "`din` words written since the last block/ack",
    },
    "info": {
        "latency": "cycles from a block's accept to its result",
        "stages": "pipeline stages (Skein: functional pipeline stages)",
        "arch": "the round architecture (litedigest.spec.ARCH_CODES): {arch_codes}; r1/r4/r8 are "
        "Skein-512's 1, 4 or 8 rounds per cycle",
        "align_log2": "log2 of the DMA alignment in bytes (`_DMA_ALIGN`)",
        "slots": "S, the messages the engine holds (jobs that may run at once)",
    },
    # the batch walker
    "batch_status": {
        "busy": "a batch runs (it owns the slots: ctrl job starts are refused with `err_state`)",
        "done": "the batch ended (with or without error) since the last `ack`",
        "err_desc": "a descriptor was refused (its message fails the job checks of `status`, its "
        "output address is outside main RAM or not aligned, reserved flag bits set): "
        "no more messages are started; those started before it are written",
        "err_bus": "a bus error on a descriptor read, an output write or a message read",
        "err_state": "`batch_start` while a slot is busy or done but not acknowledged, or while a "
        "batch runs",
    },
}
EVENT_DOCS = {
    "done": "a job finished or was rejected (not a batch's own jobs)",
    "batch": "a batch ended",
}
# the registers whose fields the header and the Python module describe
FIELD_REGISTERS = ("ctrl", "status", "info", "batch_status")
# how the info row of the register table names the fields (as the C/Python readers call them)
INFO_LABELS = {"stages": "pipeline stages", "align_log2": "log2 of the DMA alignment"}


# ------------------------------------------------------------------ the map, from the CSRs
@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    size: int
    pulse: bool
    skein: bool  # Skein peripherals only
    sha: bool  # SHA peripherals only (not Skein)
    description: str  # the CSR field's own, when every instance has the same one
    mac: bool = False  # MAC peripherals only (HMAC)

    @property
    def bits(self):
        hi = self.offset + self.size - 1
        return f"{hi}:{self.offset}" if self.size > 1 else str(self.offset)


@dataclass(frozen=True)
class Register:
    name: str
    access: str  # "W" (CSRStorage) or "R" (CSRStatus)
    width: object  # bits (int), "state" (the chaining value) or "slots" (a bit per slot)
    fields: tuple
    skein: bool  # Skein peripherals only
    sha: bool  # SHA peripherals only (not Skein)
    event: bool  # the EventManager's
    description: str  # the CSR's own, when every instance has the same one
    mac: bool = False  # MAC peripherals only (HMAC)

    def bits(self, state_bits=None, slots=None):
        """The width in bits (`state_bits`/`slots`: an instance's, for the registers whose
        width follows the engine)."""
        if self.width in ("state", "slots"):
            n = state_bits if self.width == "state" else slots
            if n is None:
                raise ValueError(f"the width of {self.name} is the engine's {self.width}: pass it")
            return n
        return self.width

    def words(self, state_bits=None, slots=None):
        """The number of 32-bit words (see bits)."""
        return -(-self.bits(state_bits, slots) // WORD_BITS)


@dataclass(frozen=True)
class RegMap:
    registers: tuple  # in address order (LiteX allocates them in declaration order)
    events: tuple  # (name, bit)

    def __getitem__(self, name):
        return next(r for r in self.registers if r.name == name)

    def select(self, skein=False, event=False, sha=False, mac=False):
        return [
            r
            for r in self.registers
            if r.skein == skein and r.event == event and r.sha == sha and r.mac == mac
        ]


def _instances():
    for s in REPRESENTATIVES:
        engine = make_engine(s)
        periph = periphmod.HashPeripheral(
            engine, ram_base=RAM_BASE, ram_size=RAM_SIZE, dma_width=32
        )
        ev_ids = {id(c) for c in periph.ev.get_csrs()}
        csrs = periph.get_csrs()  # (prefixes the EventManager's names: call once)
        yield specmod.parse(s), engine, csrs, ev_ids


def _one(values, what):
    vals = set(values)
    if len(vals) != 1:
        raise ValueError(f"{what} differs between the instances: {sorted(map(repr, vals))}")
    return vals.pop()


def _width(name, sizes):
    """`sizes`: [(engine, bits)] -> int, "state" or "slots"."""
    if len({b for _, b in sizes}) == 1:
        return sizes[0][1]
    if all(b == e.digest_bits for e, b in sizes):
        return "state"
    if all(b == e.slots for e, b in sizes):
        return "slots"
    if all(b <= WORD_BITS for _, b in sizes):
        # one word everywhere; some instances have more fields in it (a MAC peripheral's ctrl)
        return max(b for _, b in sizes)
    raise ValueError(
        f"register {name}: width {[b for _, b in sizes]} follows neither the "
        f"chaining value nor the slot count"
    )


def _scope(what, present, everywhere, skein_specs, mac_specs):
    """(Skein-only, SHA-only, MAC-only) of `what`: all False when in every instance; else an
    error."""
    if present == everywhere:
        return False, False, False
    if present == skein_specs:
        return True, False, False
    if mac_specs and present == mac_specs:
        return False, False, True
    if present == everywhere - skein_specs:
        return False, True, False
    raise ValueError(
        f"{what} is in {sorted(present)} only (neither every instance, nor the "
        f"Skein ones, nor the MAC ones, nor the others)"
    )


def _merged_order(orders):
    """One address order that each instance's register order follows (an error if none)."""
    merged = []
    for o in sorted(orders, key=len, reverse=True):
        for i, name in enumerate(o):
            if name not in merged:
                merged.insert(merged.index(o[i - 1]) + 1 if i else 0, name)
    for o in orders:
        if o != [n for n in merged if n in o]:
            raise ValueError(
                f"the instances declare their registers in different orders: {o} / {merged}"
            )
    return merged


def collect():
    """The RegMap of the peripheral, from the CSRs of the REPRESENTATIVES' instances."""
    seen = {}  # name -> [(spec, engine, csr, is_event)]
    orders = []
    for spec, engine, csrs, ev_ids in _instances():
        for c in csrs:
            if not isinstance(c, (CSRStorage, CSRStatus)):
                raise TypeError(f"CSR {c.name}: a {type(c).__name__}, not a CSRStorage/CSRStatus")
            seen.setdefault(c.name, []).append((str(spec), engine, c, id(c) in ev_ids))
        orders.append([c.name for c in csrs])
    order = _merged_order(orders)
    everywhere = set(REPRESENTATIVES)
    skein_specs = {s for s in REPRESENTATIVES if specmod.parse(s).family == SKEIN_FAMILY}
    mac_specs = {s for s in REPRESENTATIVES if specmod.parse(s).mac}
    registers = []
    for name in order:
        inst = seen[name]
        access = _one(
            ("W" if isinstance(c, CSRStorage) else "R" for _, _, c, _ in inst), f"{name} access"
        )
        fields = {}
        for s, _, c, _ in inst:
            for f in c.fields.fields if hasattr(c, "fields") else []:
                fields.setdefault(f.name, []).append(
                    (s, (f.offset, f.size, bool(f.pulse)), f.description or "")
                )
        flist = []
        here = {s for s, *_ in inst}
        for fname, occ in fields.items():
            off, size, pulse = _one(
                (v for _, v, _ in occ), f"field {name}.{fname} (offset, size, pulse)"
            )
            # a field's scope is relative to its register's instances
            skein, sha, mac = _scope(
                f"field {name}.{fname}",
                {s for s, *_ in occ},
                here,
                skein_specs & here,
                mac_specs & here,
            )
            descs = {d for *_, d in occ}
            flist.append(
                Field(
                    fname, off, size, pulse, skein, sha, descs.pop() if len(descs) == 1 else "", mac
                )
            )
        flist.sort(key=lambda f: f.offset)
        for a, b in zip(flist, flist[1:]):
            if a.offset + a.size > b.offset:
                raise ValueError(f"fields {name}.{a.name} and {name}.{b.name} overlap")
        descs = {c.description or "" for _, _, c, _ in inst}
        skein, sha, mac = _scope(f"register {name}", here, everywhere, skein_specs, mac_specs)
        registers.append(
            Register(
                # an event register is as wide as its events (the SHA peripherals' `batch` is the
                # top bit, absent in Skein ones)
                name=name,
                access=access,
                width=(
                    max(c.size for _, _, c, _ in inst)
                    if inst[0][3]
                    else _width(name, [(e, c.size) for _, e, c, _ in inst])
                ),
                fields=tuple(flist),
                skein=skein,
                sha=sha,
                mac=mac,
                event=_one((ev for *_, ev in inst), f"{name} being an event register"),
                description=descs.pop() if len(descs) == 1 else "",
            )
        )
    ev_status = next(r for r in registers if r.event and r.access == "R")
    events = tuple((f.name, f.offset) for f in ev_status.fields)
    return RegMap(tuple(registers), events)


# ------------------------------------------------------------------ documentation text
def _doc_values(rm):
    info = rm["info"]
    return {
        "variants": "; ".join(
            f"{fam}: " + ", ".join(f"{i} {v}" for i, v in enumerate(vs))
            for fam, vs in specmod.VARIANTS.items()
        ),
        "arch_codes": ", ".join(
            f"{v} {k}" for k, v in sorted(specmod.ARCH_CODES.items(), key=lambda kv: kv[1])
        ),
        "info_bits": "bits "
        + ", ".join(f"{f.bits} {INFO_LABELS.get(f.name, f.name)}" for f in info.fields),
        "t1_final": periphmod.TWEAK_FINAL - 64,
        "t1_first": periphmod.TWEAK_FIRST - 64,
        "t1_bitpad": periphmod.TWEAK_BITPAD - 64,
        "block_bytes": specmod.ALGORITHMS[SKEIN_FAMILY][1],
    }


def meanings(rm):
    """The meaning of every register, field and event, as REGISTERS.md gives it: DOCS, else the
    CSR's own description when every instance has the same one. ({register: text}, {register:
    {field: text}}, {event: text}); a ValueError lists what has none and the DOCS of things the
    peripheral does not declare."""
    vals = _doc_values(rm)
    problems = []

    def resolve(what, have, docs):
        """have: {name: the CSR's description}"""
        problems.extend(
            f"{what}{n}: documented in tools/regmap.py, not declared by the peripheral"
            for n in docs
            if n not in have
        )
        out = {}
        for n, desc in have.items():
            if n in docs:
                out[n] = docs[n].format(**vals)
            elif desc:
                out[n] = desc
            else:
                problems.append(
                    f"{what}{n}: no meaning (add it to tools/regmap.py or give the CSR "
                    f"a description that is the same in every instance)"
                )
        return out

    regs = resolve(
        "register ", {r.name: r.description for r in rm.registers if not r.event}, REGISTER_DOCS
    )
    fields = {
        r.name: resolve(
            f"field {r.name}.",
            {f.name: f.description for f in r.fields},
            FIELD_DOCS.get(r.name, {}),
        )
        for r in rm.registers
        if not r.event
    }
    problems.extend(
        f"fields of {n}: documented in tools/regmap.py, not declared by the peripheral"
        for n in FIELD_DOCS
        if n not in fields
    )
    events = resolve("event ", {n: "" for n, _ in rm.events}, EVENT_DOCS)
    if problems:
        raise ValueError("register documentation out of step:\n  " + "\n  ".join(problems))
    return regs, fields, events


def _cell(text):
    return text.replace("|", "\\|")


def _width_cell(reg):
    if reg.width == "state":
        return "state"
    if reg.width == "slots":
        return "S"
    w = reg.words()
    return f"{reg.width} ({w} words)" if w > 1 else str(reg.width)


def _register_rows(regs, docs):
    rows = ["| register | access | bits | meaning |", "|---|---|---|---|"]
    rows += [
        f"| `{r.name}` | {r.access} | {_width_cell(r)} | {_cell(docs[r.name])} |" for r in regs
    ]
    return rows


def md_blocks(rm):
    """{block name: markdown} for the GENERATED blocks of REGISTERS.md: "registers" (those of
    every instance), one per register with fields ("ctrl", ...), "skein" (Skein-only ones)."""
    reg_docs, field_docs, event_docs = meanings(rm)
    states = {}
    for fam, nbytes in specmod.STATE_BYTES.items():
        states.setdefault(nbytes, []).append(fam)
    state_text = ", ".join(
        f"{8 * n} bits ({n // 4} words) for {' and '.join(fams)}"
        for n, fams in sorted(states.items())
    )
    rows = _register_rows(rm.select(), reg_docs)
    rows.append(
        "| " + "/".join(f"`{r.name}`" for r in rm.select(event=True)) + " | LiteX EventManager | "
        f"{len(rm.events)} | "
        + "; ".join(f"bit {b}: event `{n}`, {event_docs[n]}" for n, b in rm.events)
        + " |"
    )
    out = {
        "registers": "\n".join(
            rows
            + [
                "",
                "access: W, written by the CPU (a LiteX CSRStorage, which reads back what was "
                "written); R, read only (CSRStatus). bits: the register's width; a register "
                "of more than 32 bits takes several 32-bit words. state: the engine's "
                f"chaining value, {state_text}. S: one bit per slot, (S + 31) / 32 words.",
            ]
        )
    }
    for r in rm.select() + rm.select(sha=True):
        if not r.fields:
            continue
        kinds = r.access == "W"  # pulse or level
        rows = [
            f"`{r.name}` fields:",
            "",
            "| bit | name |" + (" kind |" if kinds else "") + " meaning |",
            "|---|---|" + ("---|" if kinds else "") + "---|",
        ]
        for f in r.fields:
            text = _only_note(f, r, ": ") + field_docs[r.name][f.name]
            kind = f" {'pulse' if f.pulse else 'level'} |" if kinds else ""
            rows.append(f"| {f.bits} | `{f.name}` |{kind} {_cell(text)} |")
        out[r.name] = "\n".join(rows)
    out["skein"] = "\n".join(_register_rows(rm.select(skein=True), reg_docs))
    out["mac"] = "\n".join(_register_rows(rm.select(mac=True), reg_docs))
    if rm.select(sha=True):  # (none since Skein peripherals have the batch walker too)
        out["sha"] = "\n".join(_register_rows(rm.select(sha=True), reg_docs))
    return out


def _only_note(item, reg=None, sep=""):
    """ "Skein peripherals only" (or SHA, MAC) for a register, or for a field of `reg` (a field of
    a register with the same scope gets none)."""
    for attr, who in (("skein", "Skein"), ("sha", "SHA"), ("mac", "MAC")):
        if getattr(item, attr) and not (reg is not None and getattr(reg, attr)):
            return f"{who} peripherals only{sep}"
    return ""


# ------------------------------------------------------------------ C header
def _arch_macro(arch):
    fams = [f for f, archs in specmod.ARCHITECTURES.items() if arch in archs]
    if fams and all(f == SKEIN_FAMILY for f in fams):
        return "SKEIN_" + arch.upper()
    return arch.upper()


def _define(name, value, comment=None, col=34):
    line = f"#define {name}".ljust(col) + f" {value}"
    return line + (f"  /* {comment} */" if comment else "")


def header(rm):
    out = [
        C_LICENSE,
        f"/* Generated by `{COMMAND}` from the CSRs that soc/peripheral/",
        " * (HashPeripheral) declares: do not edit; "
        "`python -m litedigest.tools.regmap --check` tells",
        " * whether it is up to date.",
        " *",
        " * The hash peripheral's ctrl/status/info field positions, register sizes and info.arch",
        " * codes (soc/REGISTERS.md). Every instance "
        "(sha1, sha256, sha512, sha256_opt_p4, ...) has",
        " * its fields at the same positions, so one driver serves them all; the SoC's csr.h has",
        " * them too (CSR_<INSTANCE>_CTRL_<FIELD>_OFFSET) with the register addresses.",
        " */",
        "#ifndef LITEDIGEST_LD_HW_REGS_H",
        "#define LITEDIGEST_LD_HW_REGS_H",
        "",
        '#include "ld_types.h"',
    ]
    for reg in FIELD_REGISTERS:
        r = rm[reg]
        P = f"LD_{reg.upper()}_"
        arg = reg[0]
        out += [
            "",
            f"/* {reg} ({'written' if r.access == 'W' else 'read'}, {r.width} bits)"
            + (
                ": pulse fields act on the write, level fields are kept */"
                if r.access == "W"
                else " */"
            ),
        ]
        for f in r.fields:
            N = P + f.name.upper()
            note = ", ".join(
                x
                for x in (("pulse" if f.pulse else "") if r.access == "W" else "", _only_note(f, r))
                if x
            )
            if f.size == 1:
                out.append(_define(N, f"(1u << {f.offset})", note or None))
            elif r.access == "W":
                out += [
                    _define(N + "_BIT", str(f.offset), note or None),
                    _define(N + "_MASK", f"(0x{(1 << f.size) - 1:x}u << {N}_BIT)"),
                    _define(
                        f"{N}_VAL({f.name[0]})",
                        f"(((uint32_t)({f.name[0]}) << {N}_BIT) & {N}_MASK)",
                    ),
                ]
            else:
                shifted = f"(({arg}) >> {f.offset})" if f.offset else f"({arg})"
                out.append(
                    _define(f"{N}({arg})", f"({shifted} & 0x{(1 << f.size) - 1:x}u)", note or None)
                )
        errs = [P + f.name.upper() for f in r.fields if f.name.startswith("err_")]
        if errs:
            out.append(_define(P + "ERRORS", "(" + " | ".join(errs) + ")"))
    out += ["", "/* the EventManager's ev_status/ev_pending/ev_enable bits */"]
    out += [_define(f"LD_EV_{n.upper()}", f"(1u << {b})") for n, b in rm.events]
    out += [
        "",
        "/* a batch descriptor's word 3 (soc/peripheral/batch.py): the variant and, on a MAC",
        " * peripheral, the message's own key slot */",
        _define("LD_DESC_VARIANT_MASK", f"0x{(1 << VARIANT_BITS) - 1:x}u"),
        _define("LD_DESC_KEY_BIT", str(KEY_SHIFT), "MAC peripherals only"),
        _define("LD_DESC_KEY_MASK", "(0x7u << LD_DESC_KEY_BIT)"),
        _define("LD_DESC_OWN_KEY", f"(1u << {KEY_SHIFT + 3})", "MAC peripherals only"),
        _define(
            "LD_DESC_KEY_VAL(k)",
            "(LD_DESC_OWN_KEY | (((uint32_t)(k) << LD_DESC_KEY_BIT) & LD_DESC_KEY_MASK))",
        ),
    ]
    out += ["", "/* info.arch: the engine's round architecture (litedigest.spec.ARCH_CODES) */"]
    for arch, code in sorted(specmod.ARCH_CODES.items(), key=lambda kv: kv[1]):
        fams = ", ".join(f for f, a in specmod.ARCHITECTURES.items() if arch in a)
        out.append(_define(f"LD_ARCH_{_arch_macro(arch)}", str(code), fams))
    out += [
        "",
        "/* register sizes in 32-bit words (a multi-word register: the most significant word",
        " * at the register's address, the next ones at +4, +8, ...; state: the chaining value's",
        " * bits, slots: the engine's slot count) */",
    ]
    for r in rm.registers:
        N = f"LD_REG_{r.name.upper()}_NWORDS"
        if isinstance(r.width, int):
            out.append(_define(N, str(r.words()), _only_note(r) or None))
        else:
            p = {"state": "state_bits", "slots": "slots"}[r.width]
            out.append(_define(f"{N}({p})", f"((({p}) + 31u) / 32u)"))
    out += ["", "#endif", ""]
    return "\n".join(out)


# ------------------------------------------------------------------ Python module
def _lit(x):
    """Python literal with double quotes (the values here are identifiers and numbers)."""
    return repr(x).replace("'", '"')


def _pydict(entries, indent="    "):
    return "{\n" + "".join(f"{indent}{_lit(k)}: {v},\n" for k, v in entries) + "}"


def pymodule(rm):
    def regs(sel):
        return _pydict((r.name, _lit((r.access, r.width))) for r in sel)

    fields = (
        "{\n"
        + "".join(
            f"    {_lit(reg)}: "
            + _pydict(((f.name, _lit((f.offset, f.size))) for f in rm[reg].fields), "        ")[:-1]
            + "    },\n"
            for reg in FIELD_REGISTERS
        )
        + "}"
    )
    pulse = tuple(f.name for f in rm["ctrl"].fields if f.pulse)
    skein_fields = {
        reg: tuple(f.name for f in rm[reg].fields if f.skein) for reg in FIELD_REGISTERS
    }
    skein_fields = {k: v for k, v in skein_fields.items() if v}
    mac_fields = {reg: tuple(f.name for f in rm[reg].fields if f.mac) for reg in FIELD_REGISTERS}
    mac_fields = {k: v for k, v in mac_fields.items() if v}
    sha_fields = {
        reg: tuple(f.name for f in rm[reg].fields if f.sha and not rm[reg].sha)
        for reg in FIELD_REGISTERS
    }
    sha_fields = {k: v for k, v in sha_fields.items() if v}
    errors = tuple(f.name for f in rm["status"].fields if f.name.startswith("err_"))
    return f'''# {SPDX}
"""The hash peripheral's register layout (soc/REGISTERS.md) as pure data for the drivers.

Generated by `{COMMAND}` from the CSRs that soc/peripheral/
(HashPeripheral) declares: do not edit (`python -m litedigest.tools.regmap --check` tells whether
it is up to date). Standard library only, so the board side (PYNQ, without Migen or LiteX)
imports it. Register addresses depend on the SoC and come from its csr.json
(csr_registers["<instance>_<register>"]); everything here is the same in every instance.
"""

WORD_BITS = {WORD_BITS}  # the CSR bus: a register of more bits takes several words, \
the most significant first

# register -> (access, width), in address order. access: "W" written by the CPU (CSRStorage,
# reads back), "R" read only (CSRStatus). width: bits, or "state" (the engine's chaining value:
# litedigest.spec.STATE_BYTES[family] * 8 bits) or "slots" (one bit per slot).
REGISTERS = {regs(rm.select())}

# the registers of Skein-512 peripherals only
SKEIN_REGISTERS = {regs(rm.select(skein=True))}

# the registers of SHA peripherals only (none: every peripheral has hardware padding and the
# batch walker since Skein-512 got them)
SHA_REGISTERS = {regs(rm.select(sha=True))}

# the registers of MAC peripherals only (HMAC: the key slots)
MAC_REGISTERS = {regs(rm.select(mac=True))}

# LiteX's EventManager: one bit per event (EVENTS) in each
EVENT_REGISTERS = {regs(rm.select(event=True))}
EVENTS = {_pydict((n, b) for n, b in rm.events)}

# register -> {{field: (offset, size)}}: the same in every instance
FIELDS = {fields}

# ctrl fields that act on the write (the others are levels, kept until the next write)
PULSE_FIELDS = {_lit(pulse)}

# fields of Skein-512 peripherals only
SKEIN_FIELDS = {_lit(skein_fields)}

# fields of SHA peripherals only (in registers every peripheral has)
SHA_FIELDS = {_lit(sha_fields)}

# fields of MAC peripherals only (in registers every peripheral has)
MAC_FIELDS = {_lit(mac_fields)}

# the status fields that report a rejected or failed job
ERROR_FIELDS = {_lit(errors)}

# a batch descriptor's word 3 on a MAC peripheral: the message's own key slot k is
# DESC_OWN_KEY | k << DESC_KEY_SHIFT (soc/peripheral/batch.py)
DESC_KEY_SHIFT = {KEY_SHIFT}
DESC_OWN_KEY = 0x{1 << (KEY_SHIFT + 3):x}
'''


# ------------------------------------------------------------------ the catalogue's C ids
# the first lines of every C header generated from the engine catalogue
_CATALOG_PREAMBLE = [
    C_LICENSE,
    f"/* Generated by `{COMMAND}` from the engine catalogue",
    " * (software/python/litedigest/spec.py, FAMILIES): do not edit; `python -m",
    " * litedigest.tools.regmap --check` tells whether it is up to date.",
    " *",
]


def catalog_header():
    """ld_catalog.h: the C library's family, variant and algorithm ids from the engine
    catalogue (litedigest.spec.FAMILIES), so that C, the peripheral (ctrl.variant) and Python
    number them alike. Families and algorithms are numbered in catalogue order; an algorithm's
    variant is its index in the family's variants. The Merkle-Damgard algorithms (the families
    that are not rings) get LD_ALG_* ids and one row each in LD_MD_ALGORITHMS(X)."""
    fams = specmod.FAMILIES
    out = [
        *_CATALOG_PREAMBLE,
        " * The ids the C library, the peripheral's "
        "ctrl.variant field and the Python package share:",
        " * engine families, each family's variants (its initial chaining values, in ctrl.variant",
        " * order) and the Merkle-Damgard algorithms with their facts.",
        " */",
        "#ifndef LITEDIGEST_LD_CATALOG_H",
        "#define LITEDIGEST_LD_CATALOG_H",
        "",
        "/* families: one compression function, one kind of engine each */",
    ]
    for i, name in enumerate(fams):
        out.append(_define(f"LD_FAMILY_{name.upper()}", i))
    cfg = [f"LD_CONFIG_{name.upper()}" for name in fams]
    out += [
        "",
        "/* the families compiled into the C library "
        "(ld_config.h): LD_CONFIG_<FAMILY>, default 1 */",
    ]
    for c in cfg:
        out += [f"#ifndef {c}", f"#define {c} 1", "#endif"]
    out += [
        f"#if !({' || '.join(cfg)})",
        '#error "LiteDigest: every algorithm family is configured out (ld_config.h)"',
        "#endif",
        f"#define LD_FAMILIES_ALL_ON ({' && '.join(cfg)})",
        "/* LD_FAMILY_ON(f): family f is compiled in (a constant when f is one) */",
        "#define LD_FAMILY_ON(f) ("
        + " : ".join(f"(f) == LD_FAMILY_{name.upper()} ? {c}" for name, c in zip(fams, cfg))
        + " : 0)",
    ]
    out += ["", "/* bytes of a block and of the chaining value, per family */"]
    for name, f in fams.items():
        out.append(_define(f"LD_FAMILY_{name.upper()}_BLOCK_BYTES", f.block_bytes, col=40))
        out.append(_define(f"LD_FAMILY_{name.upper()}_STATE_BYTES", f.state_bytes, col=40))
    out += ["", "/* variants (ctrl.variant) of the Merkle-Damgard families: the algorithm's IV */"]
    md = [(n, f) for n, f in fams.items() if not f.ring]
    for name, f in md:
        for v, alg in enumerate(f.variants):
            out.append(_define(f"LD_{alg.upper()}", v, f"{name} variant {v}"))
    out += ["", "/* Merkle-Damgard algorithm ids (hashlib names) */"]
    algs = [(alg, name, f) for name, f in md for alg in f.variants]
    for i, (alg, _, _) in enumerate(algs):
        out.append(_define(f"LD_ALG_{alg.upper()}", i))
    out.append(_define("LD_ALG_COUNT", len(algs)))
    out += [
        "",
        "/* X(id, family, variant, digest bytes, hashlib name) for every algorithm, in id order */",
        "#define LD_MD_ALGORITHMS(X) \\",
    ]
    rows = [
        f"    X(LD_ALG_{alg.upper()}, LD_FAMILY_{name.upper()}, LD_{alg.upper()}, "
        f'{f.algorithms[alg]}, "{alg}")'
        for alg, name, f in algs
    ]
    out += [r + " \\" for r in rows[:-1]] + [rows[-1]]
    macs = list(specmod.MAC_FAMILIES.items())
    out += [
        "",
        "/* MAC engine families (litedigest.spec.MACS): ld_hw_dev.family of a MAC peripheral */",
    ]
    for i, (name, _) in enumerate(macs):
        out.append(_define(f"LD_FAMILY_{name.upper()}", len(fams) + i))
    out += [
        "/* X(family, the algorithm its cores hash with, key slots) of every MAC family */",
        "#define LD_MAC_FAMILIES(X) \\",
    ]
    rows = [
        f"    X(LD_FAMILY_{name.upper()}, LD_ALG_{specmod.MACS[alg].hash_family.upper()}, "
        f"{specmod.MACS[alg].key_slots})"
        for name, alg in macs
    ]
    out += [r + " \\" for r in rows[:-1]] + [rows[-1]]
    for name, f in fams.items():
        # a ring family's configured output sizes (its variants `<family>-<bits>`)
        sizes = [
            (int(alg.rsplit("-", 1)[1]), v)
            for v, alg in enumerate(f.variants)
            if f.ring and alg.startswith(name + "-")
        ]
        if sizes:
            out += [
                "",
                f"/* X(output bits, variant) of {name}'s "
                "configured output sizes, in variant order */",
                f"#define LD_{name.upper()}_SIZES(X) \\",
            ]
            rows = [f"    X({bits}, {v})" for bits, v in sizes]
            out += [r + " \\" for r in rows[:-1]] + [rows[-1]]
    out += ["", "#endif", ""]
    return "\n".join(out)


def md_table_header():
    """The C library's internal ld_md_table.h: the Merkle-Damgard algorithm table's row type
    and rows (md_sw.c defines the table from them) and the block size of each family, from the
    engine catalogue, so that the software hashes and the driver read the same facts without
    either source depending on the other."""
    fams = specmod.FAMILIES
    algs = [(alg, name, f) for name, f in fams.items() if not f.ring for alg in f.variants]
    out = [
        *_CATALOG_PREAMBLE,
        " * The C library's table of the Merkle-Damgard algorithms (internal: the software layer's",
        " * md_sw.c defines it, the driver reads it through ld_md_lookup, ld_sw_internal.h).",
        " */",
        "#ifndef LITEDIGEST_LD_MD_TABLE_H",
        "#define LITEDIGEST_LD_MD_TABLE_H",
        "",
        '#include "litedigest/ld_types.h"',
        '#include "litedigest/ld_catalog.h"',
        "",
        "typedef struct {",
        "    uint8_t family, variant, digest_size;",
        "    const char *name;",
        "} ld_md_alg_row;",
        "",
        "/* indexed by LD_ALG_*, one row per algorithm in id order: md_sw.c defines it as",
        " * { LD_MD_ALG_ROWS } */",
        "extern const ld_md_alg_row ld_md_algs[LD_ALG_COUNT];",
        "#define LD_MD_ALG_ROWS \\",
    ]
    rows = [
        f'    {{ LD_FAMILY_{name.upper()}, LD_{alg.upper()}, {f.algorithms[alg]}, "{alg}" }}'
        for alg, name, f in algs
    ]
    out += [r + ", \\" for r in rows[:-1]] + [rows[-1]]
    md = [(name, f) for name, f in fams.items() if not f.ring]
    common = max({f.block_bytes for _, f in md}, key=[f.block_bytes for _, f in md].count)
    out += [
        "",
        "/* log2 of a Merkle-Damgard family's block bytes */",
        "#define LD_MD_BLOCK_SHIFT(family) ("
        + "".join(
            f"(family) == LD_FAMILY_{name.upper()} ? {f.block_bytes.bit_length() - 1} : "
            for name, f in md
            if f.block_bytes != common
        )
        + f"{common.bit_length() - 1})",
    ]
    out += ["", "#endif", ""]
    return "\n".join(out)


# ------------------------------------------------------------------ files
def outputs(root=ROOT, rm=None):
    """{path relative to the repository: generated text}; REGISTERS.md's prose is `root`'s."""
    rm = rm or collect()
    with open(os.path.join(root, DOC)) as f:
        md = generated.splice(f.read(), md_blocks(rm), DOC)
    return {
        HEADER: header(rm),
        CATALOG_HEADER: catalog_header(),
        MD_TABLE_HEADER: md_table_header(),
        PYMOD: pymodule(rm),
        DOC: md,
    }


def write(out_root=ROOT, root=ROOT):
    """Write the generated files under `out_root` (the repository by default); their paths."""
    return [path for path, _ in generated.write(outputs(root), out_root)]


def diffs(root=ROOT):
    """Unified diffs of `root`'s committed files against what the generator writes ([] if none)."""
    return generated.diffs(outputs(root), root)


def main(argv=None):
    ap, _ = generated.parser("litedigest.tools.regmap", __doc__)
    ap.add_argument("--root", default=ROOT, help="the repository (default: this one)")
    ap.add_argument("--out", help="--write: write under this directory instead of --root")
    a = ap.parse_args(argv)
    return generated.write_or_check(outputs(a.root), a.root, a.check, COMMAND, a.out)


if __name__ == "__main__":
    sys.exit(main())
