# SPDX-License-Identifier: BSD-2-Clause
"""The design space's runs on Dask: `litedigest dse --jobs N` and `--scheduler tcp://HOST:8786`.

Each spec's synthesis (the bare engine's area and the register shell's netlist) and each (spec,
seed) place and route is a task of Dask's distributed scheduler (`distributed`, the `cluster`
extra). The seeds of a spec share its synthesis: they are submitted when it is done, with its
netlist scattered once to the workers. The tasks run soc/flows/dse.py's own functions
(`synthesize`, `route_seed`), so a seed's run is the one the sequential `dse.measure` makes.

This process (the client) keeps the cache: it holds every spec's lock, takes each result as it
arrives and writes it to the spec's build/dse/<spec>/result.json, so an interrupted run, or one
that lost a worker, resumes with the seeds left; the records are made by `dse._record` from the
cache as in a sequential run, whatever the order the seeds came in. A task that fails (a tool
crash, a worker lost) is retried once by the scheduler; a second failure is reported with the
end of its log and the other tasks go on (that seed is missing from the record; the run ends
with an error after writing what it has).

Workers: processes of one thread (nextpnr and Yosys are single-threaded here), on this machine
(`--jobs N`: a LocalCluster) or wherever `dask worker tcp://HOST:8786` runs on a machine with
the project installed from the same sources (a task checks the record's stamp on the worker:
another checkout's Verilog or tools give another stamp, and the task refuses).
"""

import lzma
import os
from contextlib import ExitStack

from litedigest import buildcache, progress
from litedigest.soc.flows import dse

# a failed task is tried once more (a tool crash, a worker lost) before it is reported
RETRIES = 1


class TaskFailed(RuntimeError):
    """Tasks that failed twice: the rest of the run went on; their seeds are not recorded."""


def _quiet(message):
    """A worker's log (the client reports what each task did)."""


def client_for(jobs=None, scheduler=None):
    """A distributed.Client: of the running cluster at `scheduler`, else of a LocalCluster of
    `jobs` worker processes (default: the machine's cores) of one thread each."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ImportError(
            f"running on Dask needs its distributed scheduler ({e}): pip install -e "
            "'.[cluster]' in the source checkout"
        ) from e

    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(
        n_workers=jobs or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # (a free port: several runs may share the machine)
    )
    return Client(cluster)


def _same_sources(name, stamp, tools):
    """The stamp this worker's checkout gives `name` must be the client's."""
    engine_text, shell_text = dse.sources(name)
    if dse._stamp(name, tools, (engine_text, shell_text)) != stamp:
        raise RuntimeError(
            f"dse {name}: this worker's sources or tools are not the client's (another stamp): "
            "start the workers from the same checkout and tools"
        )
    return engine_text, shell_text


def synth_task(name, stamp, have, xc7, shell):
    """On a worker: what the cache entry `have` lacks of `name`'s synthesis (dse.synthesize),
    in the worker's build/dse/<spec>/. Returns the entries made ({ecp5_area, xc7,
    shell_synth}) and, with `shell`, the shell's netlist (xz-compressed bytes)."""
    tools = dse.flow_ecp5.tool_versions()
    engine_text, shell_text = _same_sources(name, stamp, tools)
    workdir = dse.workdir_of(name)
    os.makedirs(workdir, exist_ok=True)
    rec = dict(have)
    dse.synthesize(rec, name, workdir, engine_text, shell_text, xc7, shell, lambda r: None, _quiet)
    out = {k: rec[k] for k in ("ecp5_area", "xc7", "shell_synth") if k in rec}
    if shell:
        out["netlist"] = lzma.compress(
            _read_bytes(os.path.join(workdir, "shell", "netlist.json")), preset=1
        )
    return out


def route_task(name, stamp, netlist, seed, placer, route_timeout, keep, shell_synth):
    """On a worker: one seed's place and route (dse.route_seed) of the shell whose netlist
    (xz-compressed) is `netlist`, written to the worker's build/dse/<spec>/shell/ first unless
    it is there. Returns ("run", the seed's run entry) or ("does_not_fit", why)."""
    sw = os.path.join(dse.workdir_of(name), "shell")
    os.makedirs(sw, exist_ok=True)
    net = os.path.join(sw, "netlist.json")
    data = lzma.decompress(netlist)
    if not os.path.exists(net) or _read_bytes(net) != data:  # (absent, or another synthesis's)
        tmp = f"{net}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, net)  # (atomic: another seed of the spec may be writing it too)
    return dse.route_seed(name, stamp, sw, seed, placer, route_timeout, keep, shell_synth, _quiet)


def _read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _failure(name, seed, err):
    """A failed task's report: what failed, the error and the end of nextpnr's log."""
    what = f"{name} seed {seed}" if seed is not None else f"{name} synthesis"
    text = f"dse {what}: failed twice: {type(err).__name__}: {err}"
    if seed is not None:
        log_path = os.path.join(dse.workdir_of(name), "shell", f"nextpnr_seed{seed}.log")
        if os.path.exists(log_path):
            with open(log_path, errors="replace") as f:
                tail = f.read().splitlines()[-15:]
            text += f"\n  the end of {log_path}:\n    " + "\n    ".join(tail)
    return text


def measure_specs(
    specs=dse.DEFAULT_SPECS,
    seeds=dse.DEFAULT_SEEDS,
    pipeline_seeds=None,
    jobs=None,
    scheduler=None,
    client=None,
    log=print,
    keep_placement=False,
    **kw,
):
    """dse.measure's records with the runs as Dask tasks: on `client` (a distributed.Client),
    else on the cluster at `scheduler` or a local cluster of `jobs` workers (closed at the
    end). `kw`: dse.measure's xc7, force, cached_only, route_timeout, placer. TaskFailed (its
    `records` made) when some task failed twice."""
    names, per_spec, work = dse.plan(specs, seeds, pipeline_seeds, log)
    keep = dse.PLACEMENTS_DIR if keep_placement is True else (keep_placement or None)
    own = client is None
    try:
        client = client or client_for(jobs, scheduler)
        try:
            return dse._improvement(
                measure(client, names, per_spec, log=log, keep=keep, work=work, **kw)
            )
        except TaskFailed as err:
            err.records = dse._improvement(err.records)
            raise
    finally:
        work.close()
        progress.keeping(log, None)
        if own and client is not None:
            client.close()
            if not scheduler and client.cluster is not None:
                client.cluster.close()


def measure(
    client,
    names: list,
    per_spec: list,
    xc7: bool = True,
    log=print,
    force: bool = False,
    cached_only: bool = False,
    committed: bool | str = True,
    route_timeout: float | None = None,
    placer: str = dse.DEFAULT_PLACER,
    keep: str | None = None,
    work=None,
) -> list:
    """dse.measure's records for the (normalized) specs `names`, seeds `per_spec`, with the
    synthesis and place-and-route tasks on `client` (a distributed.Client). `work`: the
    progress task to advance per seed. Raises TaskFailed after the records are made when some
    task failed twice (its message lists them; `records` holds the rest)."""
    from distributed import as_completed

    dse.check_placer(placer)
    if getattr(client, "dashboard_link", None):
        log(f"dse: Dask dashboard {client.dashboard_link}")
    jobs, failed, what = {}, [], {}  # what: a task's (spec, seed; None: its synthesis)
    with ExitStack() as held:
        for n, sds in zip(names, per_spec):
            workdir = dse.workdir_of(n)
            held.enter_context(buildcache.locked(workdir))
            job = dse._begin(
                dse._norm(n)[0], n, sds, workdir, xc7, log, force, cached_only, committed, True
            )
            if job is None:
                continue
            job.seeds = sds
            job.todo = dse._seeds_to_run(job.rec, sds, cached_only, route_timeout, placer)
            if job.todo:
                dse.check_placer_build(placer, job.tools.get("nextpnr"))
            job.build = (
                {"nextpnr": job.tools["nextpnr"]}
                if dse._native_build(job.tools.get("nextpnr"))
                else {}
            )
            jobs[n] = job
        pending = as_completed()
        for n, job in jobs.items():
            rec = job.rec
            need_area = "ecp5_area" not in rec or (xc7 and rec.get("xc7") is None)
            if need_area or job.todo:
                log(f"dse {n}: synthesis on the cluster ...")
                have = {k: rec[k] for k in ("ecp5_area", "xc7", "shell_synth") if k in rec}
                fut = client.submit(
                    synth_task,
                    n,
                    rec["stamp"],
                    have,
                    xc7,
                    bool(job.todo),
                    pure=False,
                    retries=RETRIES,
                )
                what[fut.key] = (n, None)
                pending.add(fut)
            cached = len(job.seeds) - len(job.todo)
            if cached and work is not None:
                work.advance(f"{n}: {cached} seed(s) cached", worked=False, n=cached)
        for fut in pending:
            n, seed = what.pop(fut.key)
            # (the tasks submitted and not ended: running, or waiting for a worker)
            progress.status(log, f"{len(what)} task(s) on the cluster")
            job = jobs[n]
            try:
                result = fut.result()
            except Exception as err:  # (the task's own error, after its retry)
                failed.append(_failure(n, seed, err))
                log(failed[-1])
                left = job.todo if seed is None else [seed]
                if work is not None:
                    work.advance(f"{n}: failed", worked=False, n=len(left))
                continue
            if seed is None:
                job.rec.update({k: v for k, v in result.items() if k != "netlist"})
                fits = not job.todo or dse._fits(job.rec, n, log)  # (else: does_not_fit set)
                job.store(job.rec)
                if not fits:
                    if work is not None:
                        work.advance(f"{n}: does not fit", worked=False, n=len(job.todo))
                    job.todo = []
                if job.todo:
                    netlist = client.scatter(result["netlist"], broadcast=False)
                    for sd in job.todo:
                        log(f"dse {n}: nextpnr-ecp5 seed {sd} on the cluster ...")
                        f = client.submit(
                            route_task,
                            n,
                            job.rec["stamp"],
                            netlist,
                            sd,
                            placer,
                            route_timeout,
                            keep,
                            job.rec["shell_synth"],
                            pure=False,
                            retries=RETRIES,
                        )
                        what[f.key] = (n, sd)
                        pending.add(f)
                    progress.status(log, f"{len(what)} task(s) on the cluster")
                continue
            kind, run = result
            if kind == "does_not_fit":
                if "does_not_fit" not in job.rec:
                    log(f"dse {n}: nextpnr found no legal placement: does not fit")
                job.rec["does_not_fit"] = run
                note = f"{n} seed {seed}: does not fit"
            else:
                job.rec.setdefault("pnr", {})[str(seed)] = dict(run, **job.build)
                note = (
                    f"{n} seed {seed}: {run['fmax_mhz']:.1f} MHz"
                    if run.get("routed", True)
                    else f"{n} seed {seed}: not routed in {route_timeout} s"
                )
            job.store(job.rec)
            if work is not None:
                work.advance(note)
            else:
                progress.advance(log, note)
    records = []
    for job in jobs.values():
        runs = job.rec.get("pnr", {})
        done = job.seeds if "does_not_fit" in job.rec else [s for s in job.seeds if str(s) in runs]
        records.append(dse._record(job.rec, done))
    if failed:
        err = TaskFailed(f"{len(failed)} task(s) failed twice:\n" + "\n".join(failed))
        err.records = records
        raise err
    return records
