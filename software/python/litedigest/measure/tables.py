# SPDX-License-Identifier: BSD-2-Clause
"""The Markdown tables of the benches' rows (litedigest.measure.bench): `litedigest bench
--markdown` prints them and litedigest.measure.figures renders the documentation's tables from
the committed records with the same functions. Each kind of row has a header and a row
function; the headers of the per-second tables take the clock (`mhz`)."""

MD_HMAC_HEADER = (
    "| peripheral (engine) | path | messages | cycles per MAC | MACs/s at {mhz:g} MHz "
    "| speedup over software | key set-up (cycles) |\n|---|---|---|---|---|---|---|"
)


def markdown_hmac(rec):
    key = f"{rec['key_cycles']:,}" if rec.get("key_cycles") is not None else "-"
    return (
        f"| {rec['instance']} (`{rec['engine']}`) | {rec['path']} | {rec['messages']} "
        f"| {rec['cycles_per_message']:,} "
        f"| {rec['messages_per_second']:,} | {rec['speedup_vs_sw']} "
        f"| {key} |"
    )


MD_PACKETS_HEADER = (
    "| packets | peripheral (engine) | path | packets | cycles per packet "
    "| of them in the batch calls | packets/s at {mhz:g} MHz | Gbit/s "
    "| share of the engine's limit | speedup over software |"
    "\n|---|---|---|---|---|---|---|---|---|---|"
)


def markdown_packets(rec):
    share = "-" if rec["engine_share"] is None else rec["engine_share"]
    driver = rec["driver_cycles_per_packet"]
    return (
        f"| {rec['packet_bytes']} | {rec['instance']} (`{rec['engine']}`) | {rec['path']} "
        f"| {rec['packets']:,} | {rec['cycles_per_packet']:,} "
        f"| {'-' if driver is None else f'{driver:,}'} | {rec['packets_per_second']:,} "
        f"| {rec['gbit_per_second']} | {share} | {rec['speedup_vs_sw']} |"
    )


MD_LAYOUT_HEADER = (
    "| engine | caches | layout gap (bytes) | whole call (cycles) | whole call: utilization |"
    "\n|---|---|---|---|---|"
)


def markdown_layout(rec):
    return (
        f"| `{rec['engine']}` | {rec['caches']} | {rec['layout_gap']:,} | {rec['cycles']:,} "
        f"| {rec['end_to_end_utilization']} |"
    )


MD_SPREAD_HEADER = (
    "| engine | caches | layouts | whole call: default layout | least | median | most |"
    "\n|---|---|---|---|---|---|---|"
)


def markdown_spread(s):
    return (
        f"| `{s['engine']}` | {s['caches']} | {s['layouts']} | {s['default']} | {s['least']} "
        f"| {s['median']} | {s['most']} |"
    )


MD_IRQ_HEADER = (
    "| case | wait | cycles (call) | latency: finish to return | added by the interrupt "
    "| finish to handler | in the handler | interrupts | waits | other work (iterations) |"
    "\n|---|---|---|---|---|---|---|---|---|---|"
)


def markdown_irq(rec):
    dash = lambda v: "-" if v is None else f"{v:,}"
    return (
        f"| {rec['case']} | {rec['wait']} | {rec['cycles']:,} | {rec['latency']:,} "
        f"| {dash(rec['added_latency'] if rec['wait'] != 'poll' else None)} "
        f"| {dash(rec['isr_entry'])} "
        f"| {dash(rec['handler'])} "
        f"| {rec['interrupts']} | {rec['waits']} | {rec['other_work']:,} |"
    )


MD_BATCH_HEADER = (
    "| engine | message | path | messages | cycles per message | messages/s at {mhz:g} MHz "
    "| speedup over software |\n|---|---|---|---|---|---|---|"
)


def markdown_batch(rec):
    return (
        f"| `{rec['engine']}` | {rec['bytes']} B | {rec['path']} | {rec['messages']} "
        f"| {rec['cycles_per_message']:,} "
        f"| {rec['messages_per_second']:,} | {rec['speedup_vs_sw']} |"
    )


MD_SCHED_HEADER = (
    "| engine | path | messages x bytes | blocks | interval | engine run (cycles) "
    "| utilization | whole call (cycles) | end-to-end utilization | bytes/cycle (whole call) |"
    "\n|---|---|---|---|---|---|---|---|---|---|"
)


def markdown_sched(rec):
    path = f"{rec['path']}, {rec['caches']}" if "caches" in rec else rec["path"]
    return (
        f"| `{rec['engine']}` | {path} | {rec['messages']} x {rec['bytes'] // rec['messages']} "
        f"| {rec['blocks']} | {rec['interval']} | {rec['run_cycles']} | {rec['utilization']} "
        f"| {rec['cycles']} | {rec['end_to_end_utilization']} | {rec['bytes_per_cycle']} |"
    )


MD_SWEEP_HEADER = (
    "| engine | path | bytes | cycles | bytes/cycle | speedup over software |"
    "\n|---|---|---|---|---|---|"
)


def markdown_sweep(rec):
    return (
        f"| `{rec['engine']}` | {rec['path']} | {rec['bytes']:,} | {rec['cycles']:,} "
        f"| {rec['bytes_per_cycle']} | {rec['speedup_vs_sw']} |"
    )


MD_RTL_HEADER = (
    "| engine | latency (cycles) | interval (cycles) | blocks in flight | messages x bytes "
    "| cycles | bytes/cycle | occupancy |\n|---|---|---|---|---|---|---|---|"
)


def markdown_rtl(rec):
    path = f" ({rec['path']})" if rec["path"] != "stream" else ""
    return (
        f"| `{rec['engine']}`{path} | {rec['latency']} | {rec['interval']} "
        f"| {rec.get('in_flight', rec['messages'])} "
        f"| {rec['messages']} x {rec['bytes'] // rec['messages']} | {rec['cycles']} "
        f"| {rec['bytes_per_cycle']} | {rec['occupancy']} |"
    )


def profile_markdown(case):
    """The table of one `bench --profile` case: where the cycles of the call go, per phase."""
    rows = [
        "| phase | cycles | share | register reads | register writes |",
        "|---|---|---|---|---|",
    ]
    rows += [
        f"| {name} | {ph['cycles']} | {ph['cycles'] / case['total']:.0%} "
        f"| {ph['reads']} | {ph['writes']} |"
        for name, ph in case["phases"].items()
    ]
    return "\n".join(rows)


MD_WALKER_HEADER = (
    "| engine | message | messages | cycles per message | engine's limit | share of the limit "
    "| descriptor | issue | engine | fetch | digest | other |"
    "\n|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def markdown_walker(rec):
    """A row of the batch walker's profile (`bench --backend rtl --batch`): cycles a message."""
    ph = rec["phases"]
    return (
        f"| `{rec['engine']}` | {rec['bytes']} B | {rec['messages']} "
        f"| {rec['cycles_per_message']} | {rec['engine_limit']} | {rec['engine_share']} "
        + " ".join(
            f"| {ph[k]}" for k in ("descriptor", "issue", "engine", "fetch", "digest", "other")
        )
        + " |"
    )
