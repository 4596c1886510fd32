# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest bench`: the benches of litedigest.measure.bench (what each backend and option
measures is described there) as JSON records, a table or text."""

import json
import sys

from litedigest import extras, progress
from litedigest import records as recordsmod
from litedigest import spec as specmod
from litedigest.cli.common import add_quiet, progress_of
from litedigest.measure import socdemo, tables
from litedigest.measure.bench import (
    batch_clock_mhz,
    bench_rtl,
    bench_rtl_batch,
    bench_soc,
    bench_soc_batch,
    bench_soc_hmac,
    bench_soc_irq,
    bench_soc_packets,
    bench_soc_sched,
    bench_soc_sched_layouts,
    bench_soc_sweep,
)

DEFAULT_SIZES = (64, 1024, 16384)


def add_parser(subparsers):
    p = subparsers.add_parser(
        "bench",
        help="measure engines (rtl) or the SoC (soc), JSON records",
        description=__doc__,
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter,
    )
    p.add_argument("--backend", choices=("rtl", "soc"), default="rtl")
    p.add_argument(
        "--engine",
        default=socdemo.DEFAULT_ENGINE,
        help="engine spec, a comma-separated list, or 'all' (rtl) (default %(default)s)",
    )
    p.add_argument(
        "--sizes",
        default=None,
        help="comma-separated message sizes in bytes (rtl only; default 64,1024,16384)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per line")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print a Markdown table (rtl, soc --sched, soc --batch)",
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="soc: where the cycles of one ld_hw_md call go (the profile firmware)",
    )
    p.add_argument(
        "--sched",
        action="store_true",
        help="soc: run the message scheduler firmware and report engine utilization",
    )
    p.add_argument(
        "--layouts",
        action="store_true",
        help="soc --sched: the scheduler firmware linked in five layouts (its timed code "
        "against the rest in the caches); the DMA rows of each",
    )
    p.add_argument(
        "--batch",
        action="store_true",
        help="soc: many small messages through the batch walker, one by one, in software; "
        "rtl: the walker alone in Migen simulation, where a message's cycles go",
    )
    p.add_argument(
        "--irq",
        action="store_true",
        help="soc: the driver waiting by interrupt against polling (cycles, latency)",
    )
    p.add_argument(
        "--hmac",
        action="store_true",
        help="soc: HMAC-SHA-256 MACs per second: the HMAC peripheral, a SHA-256 "
        "peripheral from stored key states, software",
    )
    p.add_argument(
        "--packets",
        action="store_true",
        help="soc: packet authentication (HMAC-SHA-256-128 over an IMIX stream under four "
        "keys): the HMAC peripheral's walker, a SHA-256 peripheral, software",
    )
    p.add_argument(
        "--sweep",
        action="store_true",
        help="soc: SHA-256 of 64 B .. 64 KiB in software, CSR and DMA (the speedup sweep)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="also write the rows as a measurement record (command, build, tool versions) to "
        "FILE, e.g. records/soc_batch.json; nothing is written when a digest or check fails",
    )
    add_quiet(p)
    p.set_defaults(func=run)


def print_profile(engine, as_json, log, record=None):
    """`bench --backend soc --profile`: a table per case of where the cycles of one call go."""
    with socdemo.recorded_runs() as runs:
        cases, access = socdemo.run_profile(engine, log=log)
    log.close()
    ok = all(c["ok"] for c in cases)
    rows = [
        dict(c, engine=engine, read_cycles=access.get("read"), write_cycles=access.get("write"))
        for c in cases
    ]
    if record and ok:
        _write_record(record, rows, runs)
    if as_json:
        for c in cases:
            print(
                json.dumps(
                    dict(
                        c,
                        engine=engine,
                        read_cycles=access.get("read"),
                        write_cycles=access.get("write"),
                    )
                )
            )
    else:
        print(
            f"One register access through the HAL: read {access.get('read', 0):.1f} cycles, "
            f"write {access.get('write', 0):.1f} cycles ({engine}, simulated SoC)\n"
        )
        for c in cases:
            path, n = c["case"].split("-")
            print(
                f"ld_hw_md, {path.upper()} path, {n} bytes: {c['total']} cycles "
                f"(digest {'ok' if c['ok'] else 'WRONG'})"
            )
            print(tables.profile_markdown(c))
            print()
    return 0 if ok else 1


def _write_record(file, rows, runs):
    """Write `rows` as the measurement record `file` (a note on stderr)."""
    rec = recordsmod.make(recordsmod.name_of(file), recordsmod.command_line(), rows, runs=runs)
    recordsmod.write(file, rec)
    print(f"litedigest bench: wrote the record {file}", file=sys.stderr)


def _text(rec):
    extra = ""
    if "utilization" in rec:
        extra = (
            f" messages={rec['messages']} interval={rec['interval']} "
            f"utilization={rec['utilization']}"
        )
    if "wait" in rec:
        extra = (
            f" wait={rec['wait']} latency={rec['latency']} added_latency={rec['added_latency']} "
            f"interrupts={rec['interrupts']} waits={rec['waits']} other_work={rec['other_work']}"
        )
    elif "latency" in rec:
        extra = f" latency={rec['latency']} interval={rec['interval']} occupancy={rec['occupancy']}"
    if "messages_per_second" in rec:
        extra = (
            f" messages={rec['messages']} cycles/message={rec['cycles_per_message']} "
            f"messages/s@{rec['clock_mhz']:g}MHz={rec['messages_per_second']} "
            f"speedup={rec['speedup_vs_sw']}"
        )
    return (
        f"{rec['engine']:<16} {rec['backend']:<4} {rec['path']:<6} {rec['bytes']:>7} B "
        f"{rec['cycles']:>9} cycles {rec['bytes_per_cycle']:>8.4f} B/cycle "
        f"{'ok' if rec['digest_ok'] else 'DIGEST MISMATCH'}{extra}"
    )


def run(args):
    extras.require("soc", f"litedigest bench --backend {args.backend}")
    log = progress_of(args)
    try:
        if args.record:
            recordsmod.name_of(args.record)  # a bad name fails before hours of measuring
        with socdemo.recorded_runs() as runs:
            return _run(args, runs, log)
    except ValueError as e:
        print(f"litedigest bench: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # the simulation's errors (SimError, SimTimeout), failed checks
        print(f"litedigest bench: {e}", file=sys.stderr)
        return 1


def _soc_alone(args, option, why=None):
    """A firmware bench of its own: refuse the options of the others."""
    if args.backend != "soc" or args.sched or args.sizes or args.batch or args.irq:
        raise ValueError(f"{option} applies to --backend soc alone" + (f" ({why})" if why else ""))


def _engine_list(args):
    """--engine as a SoC's engine list (None: the bench's own SoC), each spec checked."""
    if args.engine == socdemo.DEFAULT_ENGINE:
        return None
    engines = args.engine.split(",")
    for sp in engines:
        specmod.parse(sp)
    return engines


def _run(args, runs, log):
    if args.layouts and not (args.backend == "soc" and args.sched):
        raise ValueError("--layouts applies to --backend soc --sched alone")
    if args.profile:
        _soc_alone(args, "--profile")
        return print_profile(args.engine, args.json, log, args.record)
    if args.sweep:
        _soc_alone(args, "--sweep")
        records = bench_soc_sweep(_engine_list(args), log)
        header, row = tables.MD_SWEEP_HEADER, tables.markdown_sweep
    elif args.hmac:
        _soc_alone(args, "--hmac", "the firmware measures 64 B MACs")
        records = bench_soc_hmac(_engine_list(args), log)
        header, row = tables.MD_HMAC_HEADER.format(mhz=batch_clock_mhz()), tables.markdown_hmac
    elif args.packets:
        _soc_alone(args, "--packets", "the firmware makes its IMIX stream")
        engines = _engine_list(args)
        records = bench_soc_packets(engines and [engines], log)
        header = tables.MD_PACKETS_HEADER.format(mhz=batch_clock_mhz())
        row = tables.markdown_packets
    elif args.irq:
        if args.backend != "soc" or args.sched or args.sizes or args.batch:
            raise ValueError(
                "--irq applies to --backend soc alone (the firmware measures 64 B, "
                "1 KiB, 16 KiB and a batch)"
            )
        records = bench_soc_irq(args.engine, log)
        header, row = tables.MD_IRQ_HEADER, tables.markdown_irq
    elif args.batch and args.backend == "rtl":
        engines = None if args.engine == socdemo.DEFAULT_ENGINE else args.engine.split(",")
        sizes = parse_sizes(args.sizes) if args.sizes else (64, 1024)
        records = bench_rtl_batch(engines, sizes, log)
        header, row = tables.MD_WALKER_HEADER, tables.markdown_walker
    elif args.batch:
        if args.backend != "soc" or args.sched or args.sizes:
            raise ValueError(
                "--batch applies to --backend soc alone (the firmware measures 64 B and 1 KiB)"
            )
        sim = socdemo._standard()
        if args.engine == socdemo.DEFAULT_ENGINE:
            lists = [list(sim.MAIN_SOC), list(sim.SCHED_SOC)]  # the firmware skips Skein
        else:
            lists = [args.engine.split(",")]
            if all(specmod.parse(sp).family == "skein512" for sp in lists[0]):
                raise ValueError("the batch walker takes SHA engines, not Skein")
        records = bench_soc_batch(lists, log)
        header, row = tables.MD_BATCH_HEADER.format(mhz=batch_clock_mhz()), tables.markdown_batch
    elif args.backend == "soc" and args.sched:
        engines = (
            socdemo._standard().SCHED_SOC
            if args.engine == socdemo.DEFAULT_ENGINE
            else args.engine.split(",")
        )
        for sp in engines:
            specmod.parse(sp)
        if args.layouts:
            records = bench_soc_sched_layouts(list(engines), log=log)
            header, row = tables.MD_LAYOUT_HEADER, tables.markdown_layout
        else:
            records = bench_soc_sched(list(engines), log)
            header, row = tables.MD_SCHED_HEADER, tables.markdown_sched
    elif args.backend == "soc":
        specmod.parse(args.engine)
        if args.sizes or args.markdown:
            raise ValueError(
                "--sizes and --markdown apply to --backend rtl only "
                "(the firmware measures 64, 1024, 16384)"
            )
        records = bench_soc(args.engine, log)
    else:
        if args.sched:
            raise ValueError("--sched applies to --backend soc (the rtl bench always schedules)")
        specs = (
            specmod.all_specs() + specmod.mac_specs()
            if args.engine == "all"
            else args.engine.split(",")
        )
        for sp in specs:
            specmod.parse(sp)
        sizes = parse_sizes(args.sizes) if args.sizes else DEFAULT_SIZES
        records = _rtl_records(specs, sizes, log)
        header, row = tables.MD_RTL_HEADER, tables.markdown_rtl
    ok = True
    rows = []
    if args.markdown:
        with log.pause():
            print(header)
    for rec in records:
        ok &= rec["digest_ok"]
        rows.append(rec)
        with log.pause():  # (on a terminal the live line steps aside)
            if args.json:
                print(json.dumps(rec), flush=True)
            elif args.markdown:
                print(row(rec), flush=True)
            else:
                print(_text(rec), flush=True)
    if args.record and ok:
        _write_record(args.record, rows, runs)
    return 0 if ok else 1


def _rtl_records(specs, sizes, log):
    """The rtl bench's records of every spec; with several, `log` hears of each engine."""
    if len(specs) == 1:
        yield from bench_rtl(specs[0], sizes)
        return
    work = progress.task(log, len(specs), "bench rtl")
    progress.keeping(log, "the engines' Verilator models built so far are kept in the build cache")
    for sp in specs:
        work.begin(f"bench rtl: {sp}")
        n = 0
        for rec in bench_rtl(sp, sizes):
            n += 1
            progress.status(log, f"{rec['bytes'] // max(rec.get('messages', 1), 1)} B done")
            yield rec
        work.advance(f"{sp} ({n} records)")
    work.close()


# the rtl bench hashes p messages of each size in simulation: beyond this it would run for hours
MAX_RTL_SIZE = 1 << 24


def parse_sizes(text):
    """--sizes: comma-separated byte counts 0 .. MAX_RTL_SIZE; ValueError with a message."""
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        raise ValueError(f"--sizes takes comma-separated integers, not {text!r}") from None
    bad = [s for s in sizes if not 0 <= s <= MAX_RTL_SIZE]
    if bad:
        raise ValueError(f"sizes must be between 0 and {MAX_RTL_SIZE:,} bytes, not {bad[0]:,}")
    return sizes
