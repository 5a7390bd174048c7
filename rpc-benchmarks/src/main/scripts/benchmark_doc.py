#!/usr/bin/env python3
"""Renders the results tables of docs/benchmarks.md from the committed results (JSON).

Each table sits in the doc between `<!-- generated:NAME -->` and `<!-- /generated -->`; this script
replaces what is between the markers with what the results produce, and leaves the rest alone.

Usage (from the repository root):
  python3 rpc-benchmarks/src/main/scripts/benchmark_doc.py            # rewrite the doc in place
  python3 rpc-benchmarks/src/main/scripts/benchmark_doc.py --check    # exit 1 when the doc differs
Options: --results DIR (default docs/benchmarks/results), --doc FILE (default docs/benchmarks.md).

The results are the files the runners write with -Dweft.results=DIR (BenchmarkResults in
rpc-benchmarks, BarsResults in rpc-spring-boot-example): {"metadata": {...}, "figures": {...}}.
JMH runs go through JmhRun, which keeps JMH's JSON as the figure "jmh". The bars are data below,
each with the issue that set it. Python 3 standard library only.
"""
import argparse
import json
import os
import re
import sys

import tables


# ------------------------------------------------------------------ bars

class Bar:
    """A bar: `value op limit`, set by `issue`."""

    def __init__(self, text, op, limit, issue):
        self.text, self.op, self.limit, self.issue = text, op, limit, issue

    def met(self, value):
        if value is None:
            return None
        return {"<=": value <= self.limit, ">=": value >= self.limit, "==": value == self.limit}[self.op]

    def label(self):
        return f"{self.text} (#{self.issue})"


BARS = {
    # NetworkBenchmark: weft against the raw Netty echo and Dubbo in the same run
    "net.sync64.echo": Bar("sync, 64 callers, weft / echo >= 0.85x", ">=", 0.85, 25),
    "net.sync64.dubbo": Bar("sync, 64 callers, weft / Dubbo >= 2x", ">=", 2.0, 25),
    "net.p50.echo": Bar("one caller p50, weft / echo <= 1.2x", "<=", 1.2, 25),
    "net.async": Bar("async, 64 in flight from one thread / sync 64 callers >= 0.9x", ">=", 0.9, 25),
    "net.start.dubbo": Bar("start to first answer, weft / Dubbo <= 0.4x", "<=", 0.4, 25),
    "net.start.echo": Bar("start to first answer, weft / echo <= 1.25x", "<=", 1.25, 25),
    "net.p50.dubbo": Bar("one caller p50, weft / Dubbo <= 0.75x", "<=", 0.75, 13),
    "net.p99.dubbo": Bar("one caller p99, weft / Dubbo <= 1x", "<=", 1.0, 13),
    # ColdStart
    "cold.start": Bar("`main` to first call, Weft / Dubbo <= 0.2x", "<=", 0.2, 2),
    # RegistryBenchmark
    "reg.ready": Bar("directory ready with 2,000 providers <= 2 s", "<=", 2000, 14),
    "reg.change.cpu": Bar("consumer CPU per change, p50 < 5 ms", "<=", 5.0, 14),
    "reg.change.wall": Bar("change in effect in the directory, p99 <= 500 ms", "<=", 500, 14),
    "reg.routing.cpu": Bar("consumer CPU per rule change (registry + directory + routing), p50 <= 5 ms", "<=", 5.0, 30),
    "reg.routing.wall": Bar("rule write to consumer state published, p99 <= 500 ms", "<=", 500, 30),
    # HostilePeersBenchmark
    "hostile.failed": Bar("the real consumer's failed calls: 0", "==", 0, 31),
    "hostile.p99": Bar("p99 within 2x of the quiet phase's", "<=", 2.0, 31),
    "hostile.stale": Bar("calls run after their caller gave up: 0", "==", 0, 31),
    "hostile.memory": Bar("heap and direct memory back to the quiet phase's (within 1 MB)", "<=", 1.0, 31),
    # ResilienceBenchmark
    "res.brownout": Bar("attempts per call <= 1.25 with the budget", "<=", 1.25, 26),
    "res.hedging": Bar("p99 <= 1.5x healthy with `hedge-delay=p95`", "<=", 1.5, 26),
    "res.ejection.time": Bar("slow provider ejected within 10 s", "<=", 10.0, 26),
    "res.ejection.p99": Bar("p99 after the ejection <= 1.3x healthy", "<=", 1.3, 26),
    "res.overload.goodput": Bar("`executes=auto`: goodput >= 0.9x capacity", ">=", 0.9, 26),
    "res.overload.p99": Bar("`executes=auto`: p99 of the answered calls <= 3x unloaded", "<=", 3.0, 26),
    "res.failing": Bar("<= 5 attempts reach the failing provider per ejection period", "<=", 5, 26),
    # Observability
    "obs.pipeline": Bar("in-JVM pipeline, metrics bound: at most 150 ns slower", "<=", 150.0, 27),
    "obs.network": Bar("64-caller network throughput, both bound / unbound >= 0.95x", ">=", 0.95, 27),
    # Spring Boot
    "spring.start": Bar("consumer start to first answer, weft / Dubbo <= 0.6x", "<=", 0.6, 28),
    "spring.heap": Bar("heap after start and GC, weft / Dubbo <= 0.7x", "<=", 0.7, 28),
    "spring.throughput": Bar("64 HTTP clients, weft / Dubbo >= 1.5x", ">=", 1.5, 28),
    # PipelineBenchmark (with futures on the path)
    "pipe.dubbo10": Bar("pipeline >= 10x Dubbo's at 10 providers", ">=", 10.0, 12),
    "pipe.dubbo100": Bar("pipeline >= 30x Dubbo's at 100 providers", ">=", 30.0, 12),
    "pipe.alloc": Bar("allocation per sync pipeline call <= 288 B", "<=", 288.0, 25),
}


# ------------------------------------------------------------------ formatting

def num(value, digits=None):
    """A figure with thousands separators: integers as such, others with 2 significant decimals."""
    if value is None:
        return "n/a"
    if digits is None:
        if isinstance(value, int) or abs(value) >= 1000:
            digits = 0
        elif abs(value) >= 100:
            digits = 1
        else:
            digits = 2
    return f"{value:,.{digits}f}"


def times(value):
    if value is None:
        return "n/a"
    return f"{value:,.0f}x" if value >= 100 else f"{value:.2f}x"


def met(ok):
    return "n/a" if ok is None else ("yes" if ok else "**no**")


def met_count(oks):
    known = [ok for ok in oks if ok is not None]
    if not known:
        return "n/a"
    if all(known):
        return "yes"
    if not any(known):
        return "**no**"
    return f"{sum(known)} of {len(known)}"


def div(a, b):
    return None if a is None or b in (None, 0) else a / b


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return out


def metadata_line(results):
    """One line saying when, where, at which commit and under which load the figures were measured."""
    m = results["metadata"]
    start, end = m.get("started", "?"), m.get("ended", "?")
    when = start.replace("T", " ").rstrip("Z")[:16]
    if end[:10] == start[:10]:
        when += "–" + end[11:16]
    else:
        when += " – " + end.replace("T", " ").rstrip("Z")[:16]
    runner = m.get("runner", m["benchmark"])
    command = " ".join(["JMH" if runner == "JmhRun" else runner] + m.get("arguments", []))
    parts = [f"{when} UTC", f"commit `{m.get('commit', 'unknown')}`",
             f"load average {m.get('loadAverageStart', '?')} at the start, {m.get('loadAverageEnd', '?')} at the end",
             f"{m.get('cores', '?')} cores", m.get("jvm", "JVM unknown"), f"`{command}`"]
    line = "*Measured " + "; ".join(parts) + "."
    if m.get("source", "measured") != "measured":
        line += f" Figures {m['source']}."
    if m.get("notes"):
        line += " " + m["notes"]
    return line + "*"


# ------------------------------------------------------------------ sections

TARGETS = {"echo": "raw Netty echo", "weft": "weft", "weft-async": "weft-async", "dubbo": "Dubbo 3.3.6 `dubbo`"}


def network(results):
    runs = results["figures"]["runs"]
    out = [metadata_line(results), ""]
    rows = []
    for run in runs:
        for i, (target, f) in enumerate(run["targets"].items()):
            label = f"{run['run']} ({run['loadAverageBefore'].split()[0]} → {run['loadAverageAfter'].split()[0]})" \
                if i == 0 else str(run["run"])
            rows.append([label, TARGETS.get(target, target), num(f["1.tput"]), num(f["1.p50"]), num(f["1.p99"]),
                         num(f["64.tput"]), num(f["64.p50"]), num(f["64.p99"]), num(f["first"]), num(f["afterInit"]),
                         num(f["firstCpu"])])
    out += table(["run (load before → after)", "target", "1 caller calls/s", "p50 µs", "p99 µs", "64 callers calls/s",
                  "p50 µs", "p99 µs", "process start to first answer ms", "after JVM init ms", "CPU ms"], rows)

    def ratio(run, a, b, key):
        t = run["targets"]
        return div(t[a][key], t[b][key]) if a in t and b in t else None

    checks = [("net.sync64.echo", "weft", "echo", "64.tput"), ("net.sync64.dubbo", "weft", "dubbo", "64.tput"),
              ("net.p50.echo", "weft", "echo", "1.p50"), ("net.p50.dubbo", "weft", "dubbo", "1.p50"),
              ("net.p99.dubbo", "weft", "dubbo", "1.p99"), ("net.async", "weft-async", "weft", "64.tput"),
              ("net.start.dubbo", "weft", "dubbo", "first"), ("net.start.echo", "weft", "echo", "first")]
    rows = []
    for key, a, b, figure in checks:
        values = [ratio(run, a, b, figure) for run in runs]
        bar = BARS[key]
        rows.append([bar.label()] + [times(v) for v in values] + [met_count([bar.met(v) for v in values])])
    for text, a, b, figure in [("(CPU to first answer, weft / Dubbo)", "weft", "dubbo", "firstCpu"),
                               ("(the echo's start / Dubbo's)", "echo", "dubbo", "first")]:
        rows.append([text] + [times(ratio(run, a, b, figure)) for run in runs] + [""])
    out += [""] + table(["bar (issue)"] + [f"run {run['run']}" for run in runs] + ["met"], rows)
    return out


def cold_start(results):
    frameworks = {f["framework"]: f for f in results["figures"]["frameworks"]}
    weft, dubbo = frameworks["weft"], frameworks["dubbo"]
    out = [metadata_line(results), ""]
    out += table(["", "runs", "`main` to first call ms (median)", "whole process ms (median)"],
                 [[name, f["runs"], num(f["firstCallMsMedian"], 1), num(f["processMsMedian"], 1)]
                  for name, f in frameworks.items()])
    r = div(weft["firstCallMsMedian"], dubbo["firstCallMsMedian"])
    bar = BARS["cold.start"]
    out += [""] + table(["bar (issue)", "measured", "met"], [[bar.label(), times(r), met(bar.met(r))]])
    return out


def hostile(results):
    phases = results["figures"]["phases"]
    seconds = results["figures"]["secondsPerPhase"]
    out = [metadata_line(results), ""]
    out += table([f"phase ({seconds} s)", "calls", "failed", "p50 ms", "p99 ms", "max ms",
                  "run after their caller gave up (of stamped runs)", "attack", "heap after MB", "direct after MB"],
                 [[p["phase"], num(p["calls"]), num(p["failed"]), num(p["p50Ms"]), num(p["p99Ms"]), num(p["maxMs"], 1),
                   f"{num(p['staleRuns'])} (of {num(p['stampedRuns'])})", p["attack"], num(p["heapAfterMb"], 0),
                   num(p["directAfterMb"], 1)] for p in phases])
    quiet = phases[0]
    attacked = phases[1:]
    rows = []
    bar = BARS["hostile.failed"]
    rows.append([bar.label(), ", ".join(num(p["failed"]) for p in phases), met_count([bar.met(p["failed"]) for p in phases])])
    bar = BARS["hostile.p99"]
    values = [div(p["p99Ms"], quiet["p99Ms"]) for p in attacked]
    rows.append([bar.label(), ", ".join(f"{p['phase']} {times(v)}" for p, v in zip(attacked, values)),
                 met_count([bar.met(v) for v in values])])
    bar = BARS["hostile.stale"]
    rows.append([bar.label(), ", ".join(num(p["staleRuns"]) for p in phases), met_count([bar.met(p["staleRuns"]) for p in phases])])
    bar = BARS["hostile.memory"]
    growth = [max(p["heapAfterMb"] - quiet["heapAfterMb"], p["directAfterMb"] - quiet["directAfterMb"]) for p in attacked]
    rows.append([bar.label(), "at most " + num(max(growth), 1) + " MB above the quiet phase's",
                 met_count([bar.met(g) for g in growth])])
    out += [""] + table(["bar (issue)", "measured", "met"], rows)
    return out


def measures(results):
    return {m["measure"]: m for m in results["figures"]["measures"]}


def ms_cells(m):
    return [num(m.get("p50Ms")), num(m.get("p99Ms")), num(m.get("maxMs"))] if m else ["n/a"] * 3


def registry_change(results):
    f = results["figures"]
    ms = measures(results)
    out = [metadata_line(results), ""]
    labels = [("cpuRegistryRead", "registry read (`weft-zk-registry`)"),
              ("cpuDelivery", "delivery and the directory's intake (`weft-zk-notify`)"),
              ("cpuRefresh", "directory refresh (the directory's executor)"),
              ("cpuRegistryAndDirectory", "**registry + directory**"),
              ("cpuZookeeperIo", "ZooKeeper client I/O (reported apart)"),
              ("wall", "write to published state (wall)")]
    out += table([f"per change, {f['providers']:,} providers, {f['changes']} changes", "p50 ms", "p99 ms", "max ms"],
                 [[label] + ms_cells(ms.get(key)) for key, label in labels])
    rows = [[BARS["reg.ready"].label(), f"{num(f['readyMs'], 0)} ms", met(BARS["reg.ready"].met(f["readyMs"]))],
            [BARS["reg.change.cpu"].label(), f"{num(ms['cpuRegistryAndDirectory']['p50Ms'])} ms",
             met(BARS["reg.change.cpu"].met(ms["cpuRegistryAndDirectory"]["p50Ms"]))],
            [BARS["reg.change.wall"].label(), f"{num(ms['wall']['p99Ms'])} ms", met(BARS["reg.change.wall"].met(ms["wall"]["p99Ms"]))]]
    out += [""] + table(["bar (issue)", "measured", "met"], rows)
    return out


def registry_routing(results):
    f = results["figures"]
    ms = measures(results)
    out = [metadata_line(results), ""]
    labels = [("cpuRouting", "routing of the new state (each method's routed list), CPU"),
              ("cpuConsumer", "**registry + directory + routing, CPU**"),
              ("wall", "rule write to consumer state published (wall)")]
    out += table([f"per rule change, {f['providers']:,} providers, {f['rules']} rules, {f['changes']} changes",
                  "p50 ms", "p99 ms", "max ms"], [[label] + ms_cells(ms.get(key)) for key, label in labels])
    rows = [[BARS["reg.routing.cpu"].label(), f"{num(ms['cpuConsumer']['p50Ms'])} ms",
             met(BARS["reg.routing.cpu"].met(ms["cpuConsumer"]["p50Ms"]))],
            [BARS["reg.routing.wall"].label(), f"{num(ms['wall']['p99Ms'])} ms",
             met(BARS["reg.routing.wall"].met(ms["wall"]["p99Ms"]))]]
    out += [""] + table(["bar (issue)", "measured", "met"], rows)
    return out


def registry_cycles(results):
    f = results["figures"]
    join = measures(results).get("join")
    out = [metadata_line(results), ""]
    out += table(["measure", "before the cycles", f"after {f['cycles']:,} cycles"], [
        ["invokers created / destroyed", "1 / 0 (the base provider)",
         f"{f['invokersCreated']:,} / {f['invokersDestroyed']:,} (the base provider live); "
         f"{f['invokersCreatedAfterDestroy']:,} / {f['invokersDestroyedAfterDestroy']:,} after `destroy()`"],
        ["server watches (`wchs`)", f["watchesBefore"], f["watchesAfter"]],
        ["open file descriptors", num(f["fdsBefore"]), num(f["fdsAfter"])],
        ["JVM threads", num(f["threadsBefore"]), num(f["threadsAfter"])],
        ["heap used after GC", f"{num(f['heapBeforeMb'], 1)} MB", f"{num(f['heapAfterMb'], 1)} MB"],
    ])
    changed = ", ".join(f"`{k}` {v}" for k, v in f.get("threadKindsChanged", {}).items()) or "none"
    out += ["", f"{f['cycles']:,} cycles in {num(f['seconds'], 0)} s ({num(f['seconds'] * 1000 / max(1, f['cycles']), 1)} ms a "
                f"cycle); register to listed in the directory (wall): p50 {num(join and join['p50Ms'])} ms, "
                f"p99 {num(join and join['p99Ms'])} ms. Thread kinds whose count changed: {changed}."]
    return out


def resilience(results):
    f = results["figures"]
    out = [metadata_line(results)]
    if "brownout" in f:
        bar = BARS["res.brownout"]
        rows = []
        for r in f["brownout"]:
            budgeted = r["configuration"] != "retry-budget=1"
            label = "`retry-budget=1` (off)" if not budgeted else f"`{r['configuration']}` (default budget)" \
                if r["configuration"] == "retry-budget=0.2" else f"`{r['configuration']}`"
            rows.append([label, num(r["calls"]), num(r["answered"]), f"{num(r['failed'])} ({num(r['failedByBudget'])})",
                         num(r["attemptsPerCall"], 3), bar.label() if budgeted else "(about 1.75 without a budget)",
                         met(bar.met(r["attemptsPerCall"])) if budgeted else "—"])
        out += ["", "**Brownout** (3 providers, each answering 50 % of calls \"busy\"; `failover` `retries=2`):", ""]
        out += table(["configuration", "calls", "answered", "failed (by the budget)", "attempts per call", "bar (issue)", "met"],
                     rows)
    if "slow" in f:
        rows = []
        for r in f["slow"]:
            c = r["configuration"]
            notes = []
            if r.get("hedgesSent"):
                notes.append(f"{num(100.0 * r['hedgesSent'] / r['calls'], 1)} % hedged, {num(r['hedgesWon'])} won, "
                             f"{num(r['budgetRefusals'])} refused by the budget")
            bar_cell, met_cell = "", "—"
            if c.startswith("hedging p95"):
                bar_cell, met_cell = BARS["res.hedging"].label(), met(BARS["res.hedging"].met(r["p99VsHealthy"]))
            if r.get("ejectedAfterS") is not None:
                notes.append(f"ejected after {num(r['ejectedAfterS'], 1)} s; p99 after it {num(r['p99AfterEjectionMs'])} ms "
                             f"({times(div(r['p99AfterEjectionMs'], r['p99Ms'] / r['p99VsHealthy']))})")
                bar_cell = BARS["res.ejection.time"].label() + "; " + BARS["res.ejection.p99"].label()
                after = div(r["p99AfterEjectionMs"], r["p99Ms"] / r["p99VsHealthy"])
                met_cell = met(BARS["res.ejection.time"].met(r["ejectedAfterS"]) and BARS["res.ejection.p99"].met(after))
            rows.append([SLOW.get(c, c), num(r["calls"]), num(r["p50Ms"]), num(r["p99Ms"]), times(r["p99VsHealthy"]),
                         "; ".join(notes), bar_cell, met_cell])
        out += ["", "**Slow provider** (4 providers answering in 2 ms, one in 40 ms; `random` unless said):", ""]
        out += table(["configuration", "calls", "p50 ms", "p99 ms", "p99 vs healthy", "notes", "bar (issue)", "met"], rows)
    if "overload" in f:
        unloaded = f.get("overloadUnloaded", {})
        limits = f.get("overloadLimits", {})
        rows = []
        if unloaded.get("p99Ms") is not None:
            rows.append(["unloaded (1 caller; capacity with 8 callers)", "—", f"capacity {num(unloaded.get('capacityPerS'), 0)}",
                         f"{num(unloaded.get('p99Ms'))} ms", "—", "", "—"])
        for r in f["overload"]:
            auto = r["configuration"] == "executes=auto"
            bar_cell = (BARS["res.overload.goodput"].label() + "; " + BARS["res.overload.p99"].label()) if auto else ""
            ok = BARS["res.overload.goodput"].met(r["goodputVsCapacity"]) and BARS["res.overload.p99"].met(r["p99VsUnloaded"]) \
                if auto else None
            rows.append([f"`{r['configuration']}`" if auto else r["configuration"], num(r.get("offeredPerS"), 0),
                         f"{num(r.get('goodputPerS'), 0)} ({times(r['goodputVsCapacity'])})",
                         f"{num(r.get('p99Ms'))} ms ({times(r['p99VsUnloaded'])})",
                         f"{num(r.get('failed'))} (busy {num(r.get('busy'))}, timeouts {num(r.get('timeouts'))})",
                         bar_cell, met(ok) if auto else "—"])
        order = ", waiting calls served in arrival order" if unloaded.get("coresInArrivalOrder") else ""
        out += ["", f"**Overload** (one provider running 4 calls at once, 5 ms each{order}; offered twice its measured capacity, "
                    "open loop; `failfast`):", ""]
        out += table(["configuration", "offered /s", "goodput /s (x capacity)", "p99 of answered (x unloaded)", "failed",
                      "bar (issue)", "met"], rows)
        if limits:
            out += ["", f"Busy answers counted by the provider's limit: {num(limits.get('busyAnswersCounted'))}; "
                        f"the adaptive limit at the end: {limits.get('adaptiveLimits', 'n/a')}."]
    if "failing" in f:
        bar = BARS["res.failing"]
        rows = []
        for r in f["failing"]:
            ejecting = r.get("whileEjected") is not None
            rows.append([f"`{r['configuration']}`", num(r["calls"]), num(r["failed"]),
                         f"{num(r['attemptsReachingIt'])} ({num(r['attemptsPerS'], 1)}/s)", num(r["ejections"]),
                         ", ".join(str(n) for n in r.get("attemptsPerEjectionPeriod", [])) or "—",
                         num(r.get("beforeFirstEjection")) if ejecting else "—",
                         num(r.get("whileEjected")) if ejecting else "—",
                         bar.label() if ejecting else "", met(bar.met(r["whileEjected"])) if ejecting else "—"])
        out += ["", "**Failing provider** (4 providers, one never answering within the consumer's `timeout=100`; "
                    "`outlier-ejection=2s`):", ""]
        out += table(["configuration", "calls", "failed", "attempts reaching it", "ejections",
                      "attempts per ejection period (polled)", "before the first ejection", "reaching it while ejected",
                      "bar (issue)", "met"], rows)
    return out


SLOW = {"healthy 3 only": "the 3 healthy alone", "failover (4)": "`failover` over the 4",
        "hedging p95": "`cluster=hedging` (`p95`), default budget",
        "hedging p95 budget .3": "`cluster=hedging` (`p95`), `retry-budget=0.3`",
        "hedging p95 + p2c": "`cluster=hedging` (`p95`) + `loadbalance=p2c`",
        "hedging 5ms": "`cluster=hedging` (`hedge-delay=5ms`)", "outlier-latency=3": "`outlier-latency=3`"}


def jmh_rows(results):
    """The JMH entries of a JmhRun result, keyed as tables.load keys them."""
    entries = results["figures"]["jmh"]
    rows = tables.rows_of(entries)
    return {tables.key_of(entry): rows[tables.key_of(entry)]
            + (entry.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score"),) for entry in entries}


def observability_pipeline(results):
    rows = jmh_rows(results)
    off = rows.get(("ObservabilityBenchmark.pipeline", ("binding", "off")))
    bound = rows.get(("ObservabilityBenchmark.pipeline", ("binding", "metrics")))
    out = [metadata_line(results), ""]
    diff = None if off is None or bound is None else bound[0] - off[0]
    bar = BARS["obs.pipeline"]
    out += table(["benchmark", "unbound ns/op", "metrics bound ns/op", "difference", "bar (issue)", "met"],
                 [["`pipeline`", tables.ns(off and off[:2]), tables.ns(bound and bound[:2]),
                   "n/a" if diff is None else f"{diff:+,.0f} ns", bar.label(), met(bar.met(diff))]])
    return out


def observability_network(results):
    f = results["figures"]
    rounds = f["rounds"]
    ratios = [div(r["boundCallsPerS"], r["unboundCallsPerS"]) for r in rounds]
    median = div(f["medianBoundCallsPerS"], f["medianUnboundCallsPerS"])
    bar = BARS["obs.network"]
    out = [metadata_line(results), ""]
    # the bar binds both modules; metrics alone is measured to say which part costs
    both_bound = f["binding"] != "metrics"
    out += table(["binding", "round ratios (bound / unbound)", "median unbound calls/s", "median bound calls/s",
                  "median ratio", "bar (issue)", "met"],
                 [[f"{f['binding']} ({num(f.get('spansExported'))} spans exported)" if f.get("spansExported") else f["binding"],
                   ", ".join(f"{r:.3f}" for r in ratios), num(f["medianUnboundCallsPerS"], 0), num(f["medianBoundCallsPerS"], 0),
                   times(median), bar.label() if both_bound else "—", met(bar.met(median)) if both_bound else "—"]])
    if "medianLibrariesCpuMicrosPerCall" in f:
        # CPU per call: what the figure follows once the cores are saturated, and the floor under it
        unbound, bound, libraries = (f["medianUnboundCpuMicrosPerCall"], f["medianBoundCpuMicrosPerCall"],
                                     f["medianLibrariesCpuMicrosPerCall"])
        out += ["", *table(["median CPU per call, unbound", "bound", "added by binding", "the libraries alone",
                            "added by Weft around them", "floor: unbound / (unbound + libraries)"],
                           [[f"{unbound:.2f} µs", f"{bound:.2f} µs", f"{bound - unbound:+.2f} µs", f"{libraries:.2f} µs",
                             f"{bound - unbound - libraries:+.2f} µs", times(f["floorRatio"])]])]
    return out


def spring(results):
    rounds = results["figures"]["rounds"]
    out = [metadata_line(results), ""]
    out += table(["round", "stack", "consumer start to first answer ms", "heap after start + GC MiB", "req/s, 64 clients",
                  "non-200 answers", "no answer (I/O)", "load average"],
                 [[r["round"], r["stack"], num(r["startMs"]), num(r["heapMib"], 1), num(r["requestsPerS"], 0),
                   num(r["errorAnswers"]), num(r["ioFailures"]), r["loadAverage"]] for r in rounds])
    by = {}
    for r in rounds:
        by.setdefault(r["round"], {})[r["stack"]] = r
    numbers = sorted(by)
    rows = []
    # start and heap: the floor is the endpoint alone ("none"), and each stack adds to it;
    # throughput: the floor is the endpoint's one round trip on a plain socket ("socket")
    for key, figure, floor_stack in [("spring.start", "startMs", "none"), ("spring.heap", "heapMib", "none"),
                                     ("spring.throughput", "requestsPerS", "socket")]:
        values = [div(by[n]["weft"][figure], by[n]["dubbo"][figure]) for n in numbers]
        floor = [div(by[n][floor_stack][figure], by[n]["dubbo"][figure]) if floor_stack in by[n] else None for n in numbers]
        if floor_stack == "none":
            added = [div(by[n]["weft"][figure] - by[n]["none"][figure], by[n]["dubbo"][figure] - by[n]["none"][figure])
                     if "none" in by[n] else None for n in numbers]
        else:
            # the time each request takes of the shared cores: what a stack adds to the floor's
            added = [div(1 / by[n]["weft"][figure] - 1 / by[n][floor_stack][figure],
                         1 / by[n]["dubbo"][figure] - 1 / by[n][floor_stack][figure])
                     if floor_stack in by[n] else None for n in numbers]
        bar = BARS[key]
        rows.append([bar.label()] + [times(v) for v in values] + [met_count([bar.met(v) for v in values]),
                                                                   ", ".join(times(v) for v in floor),
                                                                   ", ".join(times(v) for v in added)])
    out += [""] + table(["bar (issue)"] + [f"round {n}" for n in numbers] +
                        ["met", "the floor (start, heap: `none` / Dubbo; throughput: `socket` / Dubbo)",
                         "what each stack adds to the floor (throughput: to the time per request), weft / Dubbo"], rows)
    return out


def pipeline(results):
    rows = jmh_rows(results)
    direct = rows.get(("PipelineBenchmark.direct",))
    out = [metadata_line(results), ""]
    body = []
    for n, key in [(10, "pipe.dubbo10"), (100, "pipe.dubbo100")]:
        weft = rows.get(("PipelineBenchmark.weft", ("invokers", str(n))))
        dubbo = rows.get(("PipelineBenchmark.dubbo", ("invokers", str(n))))
        r = div(dubbo and dubbo[0], weft and weft[0])
        bar = BARS[key]
        alloc = BARS["pipe.alloc"]
        body.append([n, tables.ns(weft and weft[:2]), tables.ns(dubbo and dubbo[:2]), times(r),
                     times(div(weft and weft[0], direct and direct[0])), num(weft and weft[2], 0), num(dubbo and dubbo[2], 0),
                     # JMH's bytes per operation carry a measurement fraction (288.001): objects are whole bytes
                     bar.label() + "; " + alloc.label(), met(bar.met(r) and alloc.met(weft and round(weft[2])))])
    body.append(["direct call", tables.ns(direct and direct[:2]), "", "", "", num(direct and direct[2], 0), "", "", ""])
    out += table(["invokers", "Weft ns/op", "Dubbo ns/op", "Dubbo/Weft", "Weft/direct", "Weft B/op", "Dubbo B/op",
                  "bar (issue)", "met"], body)
    return out


def jmh_core(results):
    """The in-JVM tables of tables.py (extension loader, balancers, cluster, proxy, mock...) with a result in the run."""
    rows = {key: value[:2] for key, value in jmh_rows(results).items()}
    return [metadata_line(results)] + tables.render(rows, heading="#####")


def jmh_pickers(results):
    """The pickers' run: the pickers (beside their `select`), the harness floor and cluster invoke."""
    rows = {key: value[:2] for key, value in jmh_rows(results).items()}
    return [metadata_line(results)] + tables.render(rows, heading="#####", select=False)


SECTIONS = {
    # name: (results file, renderer)
    "jmh-core": ("jmh-core.json", jmh_core),
    "jmh-pickers": ("jmh-pickers.json", jmh_pickers),
    "pipeline": ("pipeline.json", pipeline),
    "cold-start": ("cold-start.json", cold_start),
    "network": ("network.json", network),
    "hostile-peers": ("hostile-peers.json", hostile),
    "registry-change": ("registry-change.json", registry_change),
    "registry-routing": ("registry-routing.json", registry_routing),
    "registry-cycles": ("registry-cycles.json", registry_cycles),
    "spring-boot": ("spring-boot.json", spring),
    "resilience": ("resilience.json", resilience),
    "observability-pipeline": ("observability-pipeline.json", observability_pipeline),
    "observed-network-both": ("observed-network-both.json", observability_network),
    "observed-network-sampled": ("observed-network-sampled.json", observability_network),
    "observed-network-metrics": ("observed-network-metrics.json", observability_network),
    "observed-network-unsampled": ("observed-network-unsampled.json", observability_network),
}

AREAS = {"jmh-pickers": "in-JVM: pickers, cluster invoke", "pipeline": "in-JVM: whole pipeline",
         "jmh-core": "in-JVM: balancers, cluster, proxy, mock wrapper", "cold-start": "cold start", "network": "network",
         "hostile-peers": "hostile peers", "registry-change": "registry: change", "registry-routing": "registry: routing",
         "registry-cycles": "registry: cycles", "spring-boot": "Spring Boot", "resilience": "resilience",
         "observability-pipeline": "observability", "observed-network-both": "observability, every trace sampled",
         "observed-network-sampled": "observability, a tenth sampled", "observed-network-metrics": "observability",
         "observed-network-unsampled": "observability, no trace sampled"}


def verdicts(text):
    """(bar, met) of every bar cell in the tables of a rendered section; met: True, False or (met, of)."""
    found = []
    header = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set(line) <= set("|-"):
            continue
        for cell in cells:  # a bar with its verdict in one cell: "<= 2x (#3): **pass**"
            m = re.match(r"(.*\(#\d+\)): \*\*(pass|FAIL)\*\*$", cell)
            if m:
                found.append((m.group(1), m.group(2) == "pass"))
        verdict = next((i for i, h in enumerate(header) if h in ("met", "result")), None)
        bar = next((i for i, h in enumerate(header) if h == "bar" or h.startswith("bar (")), None)
        if verdict is None or bar is None or not re.search(r"\(#\d+\)", cells[bar]):
            continue
        cell = cells[verdict]
        counted = re.match(r"(\d+) of (\d+)$", cell)
        if cell in ("yes", "**pass**"):
            found.append((cells[bar], True))
        elif cell in ("**no**", "**FAIL**"):
            found.append((cells[bar], False))
        elif counted:
            found.append((cells[bar], (int(counted.group(1)), int(counted.group(2)))))
    return found


def summary(rendered):
    """The bars at a glance: each bar of each rendered section, its cells or runs taken together."""
    rows = []
    for name, text in rendered.items():
        tally = {}
        for bar, ok in verdicts(text):
            met_now, of = ok if isinstance(ok, tuple) else (int(ok), 1)
            total = tally.setdefault(bar, [0, 0, 0])
            total[0] += met_now
            total[1] += of
            total[2] += 1
        for bar, (met_now, of, cells) in tally.items():
            if met_now == of:
                cell = "yes" if of == 1 else f"yes ({of} of {of})"
            elif met_now == 0:
                cell = "**no**" if of == 1 else f"**no** (0 of {of})"
            else:
                cell = f"**{met_now} of {of}**"
            rows.append([AREAS.get(name, name), bar, cell])
    return "\n".join(table(["area", "bar (issue)", "met (cells or runs meeting it)"], rows)) + "\n"


MARKER = re.compile(r"(<!-- generated:([a-z0-9-]+) -->\n)(.*?)(<!-- /generated -->)", re.S)


def render(name, results_dir):
    if name not in SECTIONS:
        raise SystemExit(f"section: {name} (expected one of: bars, {', '.join(sorted(SECTIONS))})")
    file, renderer = SECTIONS[name]
    path = os.path.join(results_dir, file)
    if not os.path.isfile(path):
        raise SystemExit(f"section {name}: {path} missing (expected: the results of a run with -Dweft.results={results_dir})")
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    return "\n".join(renderer(results)) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default="docs/benchmarks/results")
    parser.add_argument("--doc", default="docs/benchmarks.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when the doc's generated sections differ")
    args = parser.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()
    found = [m.group(2) for m in MARKER.finditer(doc)]
    if not found:
        raise SystemExit(f"{args.doc}: no <!-- generated:NAME --> section (expected at least one)")
    rendered = {name: render(name, args.results) for name in found if name != "bars"}
    rendered["bars"] = summary({name: rendered[name] for name in found if name != "bars"})
    updated = MARKER.sub(lambda m: m.group(1) + rendered[m.group(2)] + m.group(4), doc)
    if args.check:
        if updated != doc:
            stale = [m.group(2) for m, n in zip(MARKER.finditer(doc), MARKER.finditer(updated)) if m.group(3) != n.group(3)]
            print(f"{args.doc}: generated sections differ from {args.results}: {', '.join(stale)} "
                  f"(run python3 {sys.argv[0]} and commit the doc)", file=sys.stderr)
            sys.exit(1)
        print(f"{args.doc}: {len(found)} generated sections match {args.results}")
        return
    if updated != doc:
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write(updated)
    print(f"{args.doc}: {len(found)} generated sections rendered from {args.results}")


if __name__ == "__main__":
    main()
