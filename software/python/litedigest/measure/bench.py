# SPDX-License-Identifier: BSD-2-Clause
"""The benches behind `litedigest bench` and the notebooks: measurements as records (dicts),
one per run; litedigest.cli.bench prints them.

  --backend rtl: the engine alone in Verilator. Per message size, p messages of that size
                 (p = the engine's pipeline stages, 1 for unpipelined engines) go through the
                 round-robin message scheduler; a record has the cycles from the first block
                 accepted to the last digest, the measured latency (accept to result of the
                 first block) and interval (median cycles between results), and the occupancy
                 (blocks x interval / cycles). --engine all measures every implemented spec;
                 --markdown prints a table. MAC engines (hmac-sha256:opt:pN): the key
                 initialization, then blocks-in-flight MACs per size under two keys, and
                 1,000 one-block MACs with random stalls (see bench_rtl_mac).
  --backend soc: the firmware demo on the simulated SoC: software, CSR and DMA paths for
                 64 B, 1 KiB and 16 KiB (the sizes the firmware measures); for a Skein-512
                 engine the Skein firmware: 16 KiB Skein-512-512 on the three paths.
                 Skein engines in the rtl bench: blocks-in-flight messages of Skein-512-512
                 (their message UBIs), interval = latency / blocks in flight.
  --backend soc --sched: the C library's message scheduler in the SoC firmware
                 (software/firmware/apps/sched) on a SoC with the --engine list (default
                 the scheduler SoC, sha256:opt:p4 + sha1:opt:p8 + skein512:r8:fp2:sp3): per
                 peripheral, p messages of 16 KiB (p = its slots; Skein: Skein-512-512, message
                 and output UBI) on the DMA and CSR paths, timed with the SoC's cycle counter;
                 utilization = blocks x interval / cycles of the engine's run (from
                 the release of the first wave of jobs to the last job seen done), and
                 end-to-end over the whole scheduler call (padding, job set-up, digest reads),
                 with the counter's own cost subtracted (raw_cycles: as read); the DMA path
                 is timed cold (the first call) and warm (the call made twice, the second timed).
  --backend soc --batch: many small messages (software/firmware/apps/batch) on the main SoC
                 (sha256:opt, sha1:opt, sha512:k5) and the scheduler SoC (sha256:opt:p4,
                 sha1:opt:p8), or on a SoC with the --engine list: per SHA peripheral, 1,000
                 messages of 64 B and of 1 KiB through the batch walker (one ld_hw_md_batch
                 call: descriptors in RAM, digests written back, one interrupt), one by one
                 (ld_hw_md, DMA) and with the C library's software hash on the same CPU;
                 cycles per message, messages per second at BATCH_CLOCK_MHZ (the ECP5 SoC's
                 clock), every digest checked on the device and against hashlib.
  --backend soc --irq: waiting by interrupt (software/firmware/apps/irq) on the sha256
                 peripheral: one-shot DMA calls of 64 B, 1 KiB, 16 KiB and a batch of 32 x 64 B,
                 the driver polling (poll), then waiting through the device's wait hook for the
                 peripheral's interrupt while doing other work (work) or in wfi (wfi), and as work
                 with the interrupt taken by the firmware's own trap vector (lean); per case
                 the call's cycles, the latency from the peripheral's finish stamp to the call's
                 return and what waiting by interrupt adds to it, the interrupts taken.
  --backend soc --hmac: HMAC-SHA-256 (software/firmware/apps/hmac) on the sim target's MAC_SOC
                 (hmac-sha256:opt:p4 and sha256:opt), or the --engine list: 1,000 MACs of 64 B
                 through the HMAC peripheral's batch walker, one by one on its DMA and CSR
                 paths, on the sha256 peripheral from the key's stored states (ld_hw_hmac), and
                 in software (ld_hmac); cycles per MAC, MACs per second at BATCH_CLOCK_MHZ, the
                 key set-up's cycles; every MAC checked on the device and the pool's against
                 Python's hmac.
  --backend soc --packets: packet authentication, the papers' application
                 (software/firmware/apps/packets) on the sim target's MAC_SOC and SCHED_SOC
                 (sha256:opt:p4), or the --engine list: HMAC-SHA-256-128 (RFC 4868) over
                 2,400 packets of the simple IMIX (64, 576 and 1,500 B, 7:4:1) and streams of
                 each size under four keys, by the HMAC peripheral's batch walker
                 (each receive burst of 32 or 240 packets gathered by key), on the sha256
                 peripheral from stored key states and in software (the first 240); packets/s
                 and Gbit/s at BATCH_CLOCK_MHZ, the share of the engine's limit (the inner
                 hash's blocks x the interval), every MAC checked against Python's hmac.
  --backend rtl --batch: the peripheral's batch walker alone in Migen simulation (its DMA bus
                 on a RAM model), messages of 64 B and 1 KiB on the SHA engines of the main and
                 scheduler SoCs: the cycles a message takes against the engine's limit (its
                 padded blocks x interval) and where they go (descriptor read, job issue,
                 engine, block fetch, digest write), every digest checked against hashlib.
  --backend soc --sweep: hardware against software across message sizes (the sweep firmware,
                 litedigest.measure.sweep) on the main SoC: SHA-256 of 64 B .. 64 KiB in
                 software, over the CSR path and over the DMA path; one row per path and size.
  --record FILE: the rows, also written as a measurement record (litedigest.records:
                 the command, the build it measured, the tool versions) to FILE, e.g.
                 records/soc_batch.json, from which the documentation's tables are generated.
  --backend soc --profile: where the cycles of one ld_hw_md call on the sha256 peripheral go
                 (software/firmware/apps/profile, the library built with LD_CONFIG_PROFILE):
                 per case (DMA 64 B and 16 KiB, CSR 64 B) the cycles, register reads and writes
                 of each phase (setup, padding, programming, waiting, status/ack, digest).
"""

import hashlib
import random
import statistics
import sys

from litedigest import _clib as native
from litedigest import spec as specmod
from litedigest.measure import socdemo


def bench_rtl(engine, sizes):
    from litedigest.ip.rtlsim import RTLSim
    from litedigest.measure.scheduler import round_robin
    from litedigest.spec import variant_of

    spec = specmod.parse(engine)
    sim = RTLSim(spec.engine_name)
    if spec.family == "skein512":
        yield from bench_rtl_skein(spec, sim, sizes)
        return
    if spec.mac:
        yield from bench_rtl_mac(spec, sim, sizes)
        return
    p = sim.engine.stages
    rng = random.Random(2026)
    bs = spec.block_size

    def blocks_of(msg, slot):
        whole = len(msg) - len(msg) % bs
        padded = msg[:whole] + native.md_pad(msg[whole:], len(msg), bs)
        return sim.blocks(padded, slot=slot, variant=variant_of(spec))

    for n in sizes:
        msgs = [rng.randbytes(n) for _ in range(p)]
        order, per_slot = round_robin(msgs, p, blocks_of)
        results, accepted = sim.run(order)
        digests = [None] * p
        for r in results:
            if r.last:
                digests[per_slot[r.slot].pop(0)] = sim.to_bytes(r.cv)[: spec.digest_size]
        cycles = results[-1].cycle - accepted[0]
        gaps = [b.cycle - a.cycle for a, b in zip(results, results[1:])]
        interval = statistics.median(gaps) if gaps else None
        if interval is not None and interval == int(interval):
            interval = int(interval)
        yield _stream_row(
            spec,
            n,
            p,
            order,
            results,
            accepted,
            interval=interval,
            occupancy=round(len(order) * sim.engine.interval / cycles, 4),
            digest_ok=digests == [hashlib.new(spec.algorithm, m).digest() for m in msgs],
        )
    sim.close()


def _stream_row(spec, n, p, order, results, accepted, interval, occupancy, digest_ok):
    """The bench row of `p` messages of `n` bytes fed to the engine as the blocks `order`,
    from the cycles the simulation `accepted` them and gave its `results` in."""
    cycles = results[-1].cycle - accepted[0]
    return {
        "engine": str(spec),
        "backend": "rtl",
        "path": "stream",
        "messages": p,
        "bytes": n * p,
        "blocks": len(order),
        "cycles": cycles,
        "bytes_per_cycle": round(n * p / cycles, 4),
        "latency": results[0].cycle - accepted[0],
        "interval": interval,
        "occupancy": occupancy,
        "digest_ok": digest_ok,
    }


def _in_flight(accepted, results):
    """The most messages accepted and not yet out after any clock edge (a result is taken in
    the cycle its valid rises: the bench's output is never stalled)."""
    return max(
        sum(a <= c for a in accepted) - sum(r.cycle <= c for r in results)
        for c in range(accepted[0], results[-1].cycle)
    )


def bench_rtl_mac(spec, sim, sizes):
    """HMAC-SHA-256 on its engine: the key initialization (both stored states), then per size
    blocks-in-flight messages of that size under two keys, interleaved round-robin over the
    slots, each MAC checked against Python's hmac; latency is the first message's, interval
    the median gap between accepted messages (one block each at 64 B: the paper's "a new
    message every 8 cycles"), in_flight the most messages between accepted and MAC out. A
    last record: 1,000 one-block messages with 10% random stalls on both streams, the rate
    relative to one message per engine interval (`sustained`)."""
    import hmac as hmac_mod

    from litedigest.ip.rtlsim import Block
    from litedigest.measure.scheduler import round_robin

    keys = [bytes(range(32)), b"Jefe"]
    k0 = lambda k: (hashlib.sha256(k).digest() if len(k) > 64 else k).ljust(64, b"\0")
    inits, init_acc = sim.run(
        [
            Block(sim.words(k0(k)), slot=i, key=i, key_init=True, last=True)
            for i, k in enumerate(keys)
        ]
    )
    key_init = inits[0].cycle - init_acc[0]

    def blocks_of(job, slot):
        msg, key = job
        whole = len(msg) - len(msg) % 64
        padded = msg[:whole] + native.md_pad(msg[whole:], 64 + len(msg), 64)  # after K0 ^ ipad
        out = sim.blocks(padded, slot=slot)
        for b in out:
            b.key = key
        return out

    def measure(jobs, label, stalls=(0, 0)):
        sim.set_stalls(*stalls)
        order, per_slot = round_robin(jobs, sim.engine.slots, blocks_of)
        results, accepted = sim.run(order)
        sim.set_stalls(0, 0)
        macs = {}
        for r in results:
            if r.last:
                macs[per_slot[r.slot].pop(0)] = sim.to_bytes(r.cv)
        ok = [macs.get(i) for i in range(len(jobs))] == [
            hmac_mod.new(keys[k], m, "sha256").digest() for m, k in jobs
        ]
        cycles = results[-1].cycle - accepted[0]
        firsts = [a for a, b in zip(accepted, order) if b.first]
        gaps = [b - a for a, b in zip(firsts, firsts[1:])]
        n = sum(len(m) for m, _ in jobs)
        return {
            "engine": str(spec),
            "backend": "rtl",
            "path": label,
            "messages": len(jobs),
            "bytes": n,
            "blocks": len(order),
            "cycles": cycles,
            "bytes_per_cycle": round(n / cycles, 4),
            "latency": results[0].cycle - accepted[0],
            "interval": int(statistics.median(gaps)) if gaps else None,
            "occupancy": round(len(order) * sim.engine.interval / cycles, 4),
            "in_flight": _in_flight(accepted, results),
            "key_init": key_init,
            "digest_ok": ok,
        }

    rng = random.Random(2026)
    p = sim.engine.blocks_in_flight
    for n in sizes:
        yield measure([(rng.randbytes(n), i % 2) for i in range(p)], "stream")
    rec = measure([(rng.randbytes(32), i % 2) for i in range(1000)], "stream, 10% stalls", (10, 10))
    rec["sustained"] = round(1000 * sim.engine.interval / rec["cycles"], 4)
    yield rec
    sim.close()


def bench_rtl_skein(spec, sim, sizes):
    """Skein-512-512 on a Skein engine: blocks_in_flight messages of each size, their message
    UBI blocks (with the peripheral's tweaks) interleaved round-robin, one per slot; the
    output UBI is finished in software to check the digests against pyskein/the C library.
    interval is the engine's attribute (latency / blocks in flight, a fraction for the
    rings), measured as occupancy = blocks x interval / cycles."""
    from fractions import Fraction

    from litedigest import _clib as native
    from litedigest.ip.rtlsim import Block

    p = sim.engine.blocks_in_flight
    rng = random.Random(2026)
    for n in sizes:
        msgs = [rng.randbytes(n) for _ in range(p)]
        per_msg = []
        for slot, m in enumerate(msgs):
            nb = max(1, -(-n // 64))
            data = m.ljust(64 * nb, b"\0")
            tw = native.skein512_block_tweaks(
                0, native.skein512_t1(native.lib.LD_SKEIN_T_MSG, True, True), nb, n - 64 * (nb - 1)
            )
            per_msg.append(
                [
                    Block(
                        sim.words(data[64 * k : 64 * (k + 1)]),
                        slot=slot,
                        first=k == 0,
                        variant=native.lib.ld_skein512_variant(512),
                        last=k == nb - 1,
                        tweak=t0 | (t1 << 64),
                    )
                    for k, (t0, t1) in enumerate(tw)
                ]
            )
        order = [
            blks[k] for k in range(max(map(len, per_msg))) for blks in per_msg if k < len(blks)
        ]
        results, accepted = sim.run(order)
        ok = True
        for r in results:
            if r.last:
                g = sim.to_bytes(r.cv)
                out = native.skein512_ubi(
                    g,
                    (0).to_bytes(64, "little"),
                    0,
                    native.skein512_t1(native.lib.LD_SKEIN_T_OUT, True, True),
                    8,
                )
                ok &= out == native.skein512(msgs[r.slot], 512)
        cycles = results[-1].cycle - accepted[0]
        interval = Fraction(sim.engine.interval)
        yield _stream_row(
            spec,
            n,
            p,
            order,
            results,
            accepted,
            interval=str(interval) if interval.denominator != 1 else int(interval),
            occupancy=round(float(len(order) * interval / cycles), 4),
            digest_ok=ok,
        )
    sim.close()


def _soc_row(engine, record, sw_cycles):
    """The bench row of one firmware `record`, its speed-up against the software's `sw_cycles`
    for the same bytes (None when the software did not hash them)."""
    return {
        "engine": engine,
        "backend": "soc",
        "path": record["path"],
        "bytes": record["bytes"],
        "cycles": record["cycles"],
        "bytes_per_cycle": round(record["bytes"] / record["cycles"], 4),
        "speedup_vs_sw": None if sw_cycles is None else round(sw_cycles / record["cycles"], 2),
        "digest_ok": record["ok"],
    }


def bench_soc_skein(engine, log=None):
    """The Skein firmware: 16 KiB Skein-512-512 in software, CSR and DMA on the SoC."""
    from litedigest.soc.targets.sim import soc_engines_for

    run = socdemo.run_skein(soc_engines_for(engine), log=log or _stderr)
    sw = run.record("sw")["cycles"]
    for r in run.records:
        yield _soc_row(run.engine, r, sw)
    if not run.all_ok:
        raise RuntimeError(
            "the Skein firmware's cases or checks failed: "
            + ", ".join(c["name"] for c in run.checks if not c["ok"])
        )


def bench_soc(engine, log=None):
    if specmod.parse(engine).family == "skein512":
        yield from bench_soc_skein(engine, log)
        return
    demo = socdemo.run_demo(engine, log=log or _stderr)
    sw = {r["bytes"]: r["cycles"] for r in demo.records if r["path"] == "sw"}
    for r in demo.records:
        yield {
            **_soc_row(demo.engine, r, sw.get(r["bytes"])),
            # cycles is the call alone; raw_cycles the interval as read, with the counter's
            # own cost (timer_cycles) in it
            "raw_cycles": r.get("raw", r["cycles"]),
            "timer_cycles": demo.timer_cycles,
        }
    if not demo.checks or not all(c["ok"] for c in demo.checks):
        raise RuntimeError(
            "the firmware's bad-input checks failed: "
            + ", ".join(c["name"] for c in demo.checks if not c["ok"])
        )


# the batch walker's profile (rtl --batch): the SHA engines of the sim target's main and
# scheduler SoCs and the MAC SoC's HMAC engine, and messages per engine per size (fewer long
# ones: their cycles are the engine's)
WALKER_ENGINES = (
    "sha256:opt",
    "sha1:opt",
    "sha512:k5",
    "sha256:opt:p4",
    "sha1:opt:p8",
    "hmac-sha256:opt:p4",
)
WALKER_MESSAGES = {64: 32, 1024: 8}


def bench_rtl_batch(engines=None, sizes=(64, 1024), log=None):
    """`bench --backend rtl --batch`: the peripheral's batch walker alone in Migen simulation
    (litedigest.soc.sim.peripheral_bench.walker_profile) on the simulated SoC's main RAM (its
    wide port's rows, an ack the cycle after the request): per engine and size, the cycles a
    message takes and where they go, every digest checked against hashlib (a MAC's against
    Python's hmac)."""
    from litedigest.soc.sim.peripheral_bench import walker_profile
    from litedigest.soc.targets.sim import DMA_ROW_BITS

    log = log or _stderr
    for sp in engines or WALKER_ENGINES:
        if specmod.parse(sp).hash_family not in ("sha1", "sha256", "sha512"):
            raise ValueError(f"the walker's profile takes SHA and HMAC engines, not {sp}")
        for n in sizes:
            log(f"bench rtl --batch: {sp}, {n} B messages (Migen simulation)")
            r = walker_profile(
                sp, n, count=WALKER_MESSAGES.get(n, 8), dma_width=DMA_ROW_BITS, ram_wait=0
            )
            yield {
                **r,
                "backend": "rtl",
                "path": "batch walker",
                "bytes_per_cycle": round(n / r["cycles_per_message"], 4),
                "engine_share": round(r["engine_limit"] / r["cycles_per_message"], 3),
                "digest_ok": True,  # walker_profile checks every digest (AssertionError)
            }


def bench_soc_sweep(engines=None, log=None):
    """The sweep firmware (litedigest.measure.sweep): SHA-256 of 64 B .. 64 KiB in software,
    over the CSR and the DMA path of the SoC with `engines` (default: the main SoC)."""
    from litedigest.measure.sweep import run_sweep

    run = run_sweep(engines, log=log or _stderr)
    sw = run.cycles("sw")
    for r in run.records:
        yield _soc_row(run.engine, r, sw.get(r["bytes"]))
    if not run.all_ok:
        raise RuntimeError("the sweep firmware's digests or cases are wrong or missing")


# apps/linker.ld LD_HOT_GAP of the layouts `bench --sched --layouts` measures: steps of 19
# cache lines (608 bytes) across VexRiscv's 4 KiB direct-mapped caches, 0 the default layout
SCHED_LAYOUT_GAPS = (0, 608, 1216, 1824, 2432)


def bench_soc_sched_layouts(engines, gaps=SCHED_LAYOUT_GAPS, log=None):
    """`bench --backend soc --sched --layouts`: the scheduler firmware linked in each layout of
    `gaps` (the bytes between its timed code and the rest: the other code and all the data move
    in the instruction and data caches); the DMA path's rows of each, with its `layout_gap`."""
    for gap in gaps:
        for row in bench_soc_sched(engines, log, hot_gap=gap):
            if row["path"] == "dma":
                yield {**row, "layout_gap": gap}


def layout_spread(rows):
    """Per engine and caches (warm, cold): the whole call's utilization in the default layout
    and its least, median and most over the layouts of `rows` (bench_soc_sched_layouts')."""
    out = {}
    for r in rows:
        out.setdefault((r["engine"], r["caches"]), []).append(r)
    spread = []
    for (engine, caches), rs in out.items():
        u = sorted(r["end_to_end_utilization"] for r in rs)
        default = next((r for r in rs if r["layout_gap"] == 0), None)
        spread.append(
            {
                "engine": engine,
                "caches": caches,
                "layouts": len(rs),
                "default": default and default["end_to_end_utilization"],
                "least": u[0],
                "median": u[len(u) // 2],
                "most": u[-1],
            }
        )
    return spread


def bench_soc_sched(engines, log=None, hot_gap=0):
    run = socdemo.run_sched(engines, log=log or _stderr, hot_gap=hot_gap)
    if not run.digests:
        raise RuntimeError("the scheduler firmware printed no digests")
    # the digests come back to the host to check: a record's digest_ok covers its own run
    bad = run.digest_mismatches(_reference)
    if bad:
        print(
            f"warning: {len(bad)} digests of the scheduler firmware are wrong (README, Known "
            f"bugs): "
            + ", ".join(f"{d['instance']} {d['run']} {d['alg']} {d['len']} B" for d in bad),
            file=sys.stderr,
        )
    for r in run.records:
        own_bad = [
            d for d in bad if d["instance"] == r["instance"] and d["run"] == f"full_{r['path']}"
        ]
        yield {
            "engine": r["engine"],
            "backend": "soc",
            "path": r["path"],
            "scheduler": "ld_sched",
            "messages": r["msgs"],
            "bytes": r["bytes"] * r["msgs"],
            "blocks": r["blocks"],
            "cycles": r["cycles"],
            "run_cycles": r["run_cycles"],
            "raw_cycles": r.get("raw", r["cycles"]),
            "timer_cycles": run.timer_cycles(r["instance"]),
            "caches": "warm" if r.get("warm") else "cold",
            "bytes_per_cycle": round(r["bytes"] * r["msgs"] / r["cycles"], 4),
            "interval": _interval(r),
            "utilization": round(r["utilization"], 4),
            "end_to_end_utilization": round(r["end_to_end_utilization"], 4),
            "digest_ok": r["ok"] and not own_bad,
        }
    if not run.checks or not all(c["ok"] for c in run.checks):
        raise RuntimeError(
            "the scheduler firmware's checks failed: "
            + ", ".join(c["name"] for c in run.checks if not c["ok"])
        )


def batch_clock_mhz():
    """The clock messages per second are stated at: the ECP5 SoC's sys clock (its target)."""
    from litedigest.soc.targets.ecp5 import DEFAULT_SYS_CLK_MHZ

    return DEFAULT_SYS_CLK_MHZ


def bench_soc_batch(engine_lists, log=None):
    """`bench --backend soc --batch`: the batch firmware on each SoC of engine_lists."""
    mhz = batch_clock_mhz()
    for engines in engine_lists:
        run = socdemo.run_batch(engines, log=log or _stderr)
        bad = run.digest_mismatches()
        failed = [c["name"] for c in run.checks if not c["ok"]]
        for r in run.records:
            ok = (
                not failed
                and not [d for d in bad if d["instance"] == r["instance"]]
                and any(
                    d["instance"] == r["instance"] and d["bytes"] == r["bytes"] for d in run.digests
                )
            )
            keys = (
                ("batch", "batch"),
                ("ring", "ring"),
                ("walker_alone", "walk"),
                ("one_by_one", "one"),
                ("sw", "sw"),
            )
            per = {k: r[f"{k}_cycles"] / r[f"{k}_msgs"] for _, k in keys}
            for path, key in keys:
                yield {
                    "engine": str(specmod.parse(r["engine"])),
                    "backend": "soc",
                    "path": path,
                    "messages": r[f"{key}_msgs"],
                    "bytes": r["bytes"],
                    "cycles": r[f"{key}_cycles"],
                    "cycles_per_message": round(per[key], 1),
                    "bytes_per_cycle": round(r["bytes"] / per[key], 4),
                    "messages_per_second": round(mhz * 1e6 / per[key]),
                    "clock_mhz": mhz,
                    "speedup_vs_sw": round(per["sw"] / per[key], 2),
                    "digest_ok": ok,
                }
        if failed or bad:
            raise RuntimeError(
                "the batch firmware's digests are wrong: "
                + ", ".join(failed + [f"{d['instance']} {d['bytes']} B #{d['index']}" for d in bad])
            )


def bench_soc_hmac(engines, log=None):
    """`bench --backend soc --hmac`: the HMAC firmware (apps/hmac) on a SoC with `engines`
    (default the sim target's MAC_SOC): 64-byte HMAC-SHA-256 MACs per path, per second at
    BATCH_CLOCK_MHZ, every MAC checked on the device and the pool's against Python's hmac."""
    mhz = batch_clock_mhz()
    run = socdemo.run_hmac(engines, log=log or _stderr)
    sw = run.record("sw")
    per_sw = sw["sw_cycles"] / sw["sw_msgs"]
    paths = {
        "hmac_sha256": (
            ("batch", "batch walker"),
            ("walk", "walker alone"),
            ("one", "one by one, DMA"),
            ("csr", "one by one, CSR"),
        ),
        "sha256": (("one", "stored key states, DMA"),),
        "sw": (("sw", "software (ld_hmac)"),),
    }
    for r in run.records:
        for key, path in paths.get(r["instance"], ()):
            per = r[f"{key}_cycles"] / r[f"{key}_msgs"]
            yield {
                "engine": r.get("engine", "cpu"),
                "instance": r["instance"],
                "backend": "soc",
                "path": path,
                "messages": r[f"{key}_msgs"],
                "bytes": r["bytes"],
                "cycles": r[f"{key}_cycles"],
                "cycles_per_message": round(per, 1),
                "bytes_per_cycle": round(r["bytes"] / per, 4),
                "messages_per_second": round(mhz * 1e6 / per),
                "clock_mhz": mhz,
                "speedup_vs_sw": round(per_sw / per, 2),
                "key_cycles": r.get("key_cycles"),
                "digest_ok": run.all_ok,
            }
    if not run.all_ok:
        raise RuntimeError(
            "the HMAC firmware's checks failed: "
            + ", ".join(
                [c["name"] for c in run.checks if not c["ok"]]
                + [f"MAC #{d['index']}" for d in run.digest_mismatches()]
            )
        )


def packet_engine_limit(engine, blocks, packets):
    """The fewest cycles `engine` needs for `packets` HMACs of `blocks` inner-hash blocks in
    all (the key's blocks stored): a MAC engine's inner core takes the message's blocks at its
    interval while the outer core works in parallel; a hash engine takes the inner blocks and
    each packet's outer block in turn."""
    s = specmod.parse(engine)
    if s.mac:
        core = specmod.parse(f"{s.hash_family}:{s.arch}:p{s.stages}")
        return float(blocks * core.interval)
    return float((blocks + packets) * s.interval)


PACKET_PATHS = {
    ("hmac_sha256", "batch"): "batch walker, bursts of {burst}",
    ("sha256", "one"): "stored key states, DMA",
    ("sw", "sw"): "software (ld_hmac)",
}


def bench_soc_packets(engine_lists=None, log=None):
    """`bench --backend soc --packets`: the packet-authentication firmware (apps/packets) on
    each SoC of `engine_lists` (default the sim target's MAC_SOC, for the HMAC peripheral and
    sha256:opt, and SCHED_SOC, for sha256:opt:p4); software's rows from the first SoC alone
    (each SoC's own are its speedups' base)."""
    sim = socdemo._standard()
    for k, engines in enumerate(engine_lists or [list(sim.MAC_SOC), list(sim.SCHED_SOC)]):
        for row in _packet_rows(engines, log):
            if k == 0 or row["instance"] != "sw":
                yield row


def _packet_rows(engines, log):
    mhz = batch_clock_mhz()
    run = socdemo.run_packets(engines, log=log or _stderr)
    bad = {(r["instance"], r["size"], r["burst"]) for r in run.mac_mismatches()}
    sw = {r["size"]: r["cycles"] / r["bytes"] for r in run.records if r["instance"] == "sw"}
    for r in run.records:
        hw = r["instance"] != "sw"
        limit = packet_engine_limit(r["engine"], r["blocks"], r["packets"]) if hw else None
        yield {
            "engine": r["engine"],
            "instance": r["instance"],
            "backend": "soc",
            "path": PACKET_PATHS[(r["instance"], r["path"])].format(burst=r["burst"]),
            "packet_bytes": r["size"] or "IMIX",
            "burst": r["burst"],
            "packets": r["packets"],
            "bytes": r["bytes"],
            "inner_blocks": r["blocks"],
            "cycles": r["cycles"],
            "cycles_per_packet": round(r["cycles"] / r["packets"], 1),
            "packets_per_second": round(mhz * 1e6 * r["packets"] / r["cycles"]),
            "gbit_per_second": round(8 * r["bytes"] * mhz * 1e6 / r["cycles"] / 1e9, 4),
            "clock_mhz": mhz,
            "engine_limit": limit,
            "engine_share": round(limit / r["cycles"], 3) if hw else None,
            # the walker runs alone (the batch calls), without the gathering and copying
            "driver_cycles_per_packet": (
                round(run.driver[(r["size"], r["burst"])] / r["packets"], 1)
                if r["path"] == "batch"
                else None
            ),
            "speedup_vs_sw": round(sw[r["size"]] / (r["cycles"] / r["bytes"]), 1),
            "digest_ok": r["ok"] and (r["instance"], r["size"], r["burst"]) not in bad,
        }
    if not run.all_ok:
        raise RuntimeError(
            "the packet firmware's MACs or checks failed: "
            + ", ".join(
                [c["name"] for c in run.checks if not c["ok"]]
                + [f"{i} {z or 'IMIX'} B burst {b}" for i, z, b in sorted(bad)]
            )
        )


def bench_soc_irq(engine, log=None):
    """`bench --backend soc --irq`: the interrupt firmware; a record per mode and case, with
    the latency waiting by interrupt adds over polling (`added_latency`)."""
    run = socdemo.run_irq(engine, log=log or _stderr)
    bad = {(r["mode"], r["case"]) for r in run.digest_mismatches()}
    for r in run.records:
        poll = run.record("poll", r["case"])
        path, nmsgs, size = socdemo.irq_case(r["case"])
        nbytes = nmsgs * size
        yield {
            "engine": run.engine,
            "backend": "soc",
            "path": path,
            "wait": r["mode"],
            "case": r["case"],
            "bytes": nbytes,
            "cycles": r["cycles"],
            "bytes_per_cycle": round(nbytes / r["cycles"], 4),
            "latency": r["latency"],
            "added_latency": r["latency"] - poll["latency"] if poll else None,
            "isr_entry": r["isr"] if r["mode"] != "poll" else None,
            # (the lean trap vector stamps only its entry)
            "handler": r["handler"] if r["mode"] not in ("poll", "lean") else None,
            "waits": r["waits"],
            "other_work": r["work"],
            "interrupts": r["irqs"],
            "digest_ok": r["ok"] and (r["mode"], r["case"]) not in bad,
        }
    failed = [c["name"] for c in run.checks if not c["ok"]]
    if failed or bad or not run.records:
        raise RuntimeError(
            "the interrupt firmware failed: "
            + (", ".join(failed + [f"{m} {c}" for m, c in sorted(bad)]) or "no records")
        )


def _stderr(message):
    """The benches' log when they are given none: the message on stderr."""
    print(message, file=sys.stderr, flush=True)


def _reference(alg, msg):
    if alg.startswith("skein512-"):
        return native.skein512(msg, digest_bits=int(alg.split("-")[1]))
    return hashlib.new(alg, msg).digest()


def _interval(r):
    """cycles per block when full: an int, or 'period/in_flight' when that is not whole"""
    period, in_flight = r.get("period", r["interval"]), r.get("in_flight", 1)
    return period // in_flight if period % in_flight == 0 else f"{period}/{in_flight}"
