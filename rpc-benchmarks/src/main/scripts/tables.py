#!/usr/bin/env python3
"""Turns a JMH JSON result of rpc-benchmarks into the markdown tables of docs/benchmarks.md.

Usage: python3 rpc-benchmarks/src/main/scripts/tables.py result.json [coldstart.json]
Ratios are Dubbo / Weft (how many times faster Weft is); bars come from issues 2-7. A table without
any result in the JSON is left out. benchmark_doc.py renders the same tables (render) into the doc
from a JmhRun result.
"""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return rows_of(json.load(f))


def key_of(entry):
    """The key of a JMH result entry: the benchmark's name without the package, then its sorted parameters."""
    name = entry["benchmark"].replace("dev.weft.rpc.benchmarks.", "")
    return (name,) + tuple(sorted(entry.get("params", {}).items()))


def rows_of(entries):
    """{key: (score, error)} of JMH's JSON result entries."""
    rows = {}
    for entry in entries:
        key = key_of(entry)
        metric = entry["primaryMetric"]
        # a run with one measurement iteration has no error: JMH writes "NaN"
        rows[key] = (float(metric["score"]), float(metric.get("scoreError", "nan")))
    return rows


def get(rows, name, **params):
    return rows.get((name,) + tuple(sorted((k, str(v)) for k, v in params.items())))


def ns(value):
    if value is None:
        return "n/a"
    score, error = value
    if score >= 100:
        text = f"{score:,.0f}"
    else:
        text = f"{score:,.1f}"
    if error == error:  # not NaN
        text += f" ± {error:,.0f}" if error >= 100 else f" ± {error:,.1f}"
    return text


def ratio(dubbo, weft):
    if dubbo is None or weft is None or weft[0] <= 0:
        return None
    return dubbo[0] / weft[0]


def fmt_ratio(r):
    return "n/a" if r is None else (f"{r:,.2f}x" if r < 100 else f"{r:,.0f}x")


def verdict(ok):
    return "n/a" if ok is None else ("**pass**" if ok else "**FAIL**")


def render(rows, heading="####", select=True):
    """The markdown lines of every table with a result in rows ({key: (score, error)}, keyed as load keys them);
    select=False leaves out the balancers' `select` table (a run of pickers has `select` figures beside them)."""
    out = []
    extension = [get(rows, name) for name in ("ExtensionBenchmark.weftGetExtension", "ExtensionBenchmark.dubboGetExtension",
                                              "AdaptiveBenchmark.weft", "AdaptiveBenchmark.dubbo")]
    if any(extension):
        extension_table(rows, out, heading)
    balancers = [get(rows, "LoadBalanceBenchmark.weft", balancer=b, invokers=n, weights=w)
                 for w in ["equal", "mixed", "warming", "settled"]
                 for b in ["random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"] for n in (10, 100)]
    if select and any(balancers):
        balancer_table(rows, out, heading)
    rest_tables(rows, out, heading)
    return [line for text in out for line in text.split("\n")]


def extension_table(rows, out, heading):
    out.append(f"\n{heading} Extension loader (`getExtension` by name, one adaptive dispatch)\n")
    out.append("| operation | Weft ns/op | Dubbo ns/op | Dubbo/Weft | bar | result |")
    out.append("|---|---|---|---|---|---|")
    for label, w, d in [("`getExtension(\"hi\")`, loader held", "ExtensionBenchmark.weftGetExtension",
                         "ExtensionBenchmark.dubboGetExtension"),
                        ("loader lookup + `getExtension(\"hi\")`", "ExtensionBenchmark.weftLoaderThenGetExtension",
                         "ExtensionBenchmark.dubboLoaderThenGetExtension"),
                        ("adaptive dispatch (`greeting=hi`)", "AdaptiveBenchmark.weft", "AdaptiveBenchmark.dubbo")]:
        weft, dubbo = get(rows, w), get(rows, d)
        out.append(f"| {label} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(ratio(dubbo, weft))} | none set | — |")


def balancer_table(rows, out, heading):
    out.append(f"\n{heading} Load balancers (`select`, in-JVM invokers, no call in flight)\n")
    out.append("| balancer | weights | invokers | Weft ns/op | Dubbo ns/op | Dubbo/Weft | bar | result | Weft 100/10 | O(1)/O(log n) bar |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for weights in ["equal", "mixed", "warming", "settled"]:
        for balancer in ["random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"]:
            w10 = get(rows, "LoadBalanceBenchmark.weft", balancer=balancer, invokers=10, weights=weights)
            w100 = get(rows, "LoadBalanceBenchmark.weft", balancer=balancer, invokers=100, weights=weights)
            if w10 is None and w100 is None:
                continue
            growth = ratio(w100, w10)
            flat = balancer in ("random", "roundrobin", "p2c", "consistenthash")
            for n, weft in [(10, w10), (100, w100)]:
                dubbo = get(rows, "LoadBalanceBenchmark.dubbo", balancer=balancer, invokers=n, weights=weights)
                r = ratio(dubbo, weft)
                need = 10 if n == 10 else 30
                bar = f">= {need}x (#3)" if dubbo is not None else "no Dubbo peer"
                ok = None if r is None else r >= need
                growth_cell = fmt_ratio(growth) if n == 100 else ""
                flat_cell = ""
                if n == 100:
                    flat_cell = ("<= 2x (#3): " + verdict(growth is not None and growth <= 2.0)) if flat else "—"
                out.append(f"| {balancer} | {weights} | {n} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(r)} | {bar} | "
                           f"{verdict(ok)} | {growth_cell} | {flat_cell} |")


def rest_tables(rows, out, heading):
    pickers = [(weights, balancer) for weights in ["equal", "mixed", "warming", "settled"]
               for balancer in ["random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"]]
    if any(get(rows, "LoadBalanceBenchmark.weftPicker", balancer=b, invokers=n, weights=w)
           for w, b in pickers for n in (10, 100)):
        out.append(f"\n{heading} Pickers (`Picker.pick`, the cluster's per-call path; in-JVM invokers, no call in flight)\n")
        out.append("A picker is built once per directory state and method (`LoadBalance.picker`); the bar compares it with "
                   "Dubbo's `select`. A cell where Dubbo itself is within the bar of the harness floor "
                   "(`PickFloorBenchmark`) cannot meet it and is exempt.\n")
        out.append("| balancer | weights | invokers | Weft picker ns/op | Weft `select` ns/op | Dubbo ns/op | Dubbo/picker "
                   "| bar | result | picker 100/10 |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for weights, balancer in pickers:
            p10 = get(rows, "LoadBalanceBenchmark.weftPicker", balancer=balancer, invokers=10, weights=weights)
            p100 = get(rows, "LoadBalanceBenchmark.weftPicker", balancer=balancer, invokers=100, weights=weights)
            if p10 is None and p100 is None:
                continue
            for n, picker in [(10, p10), (100, p100)]:
                select = get(rows, "LoadBalanceBenchmark.weft", balancer=balancer, invokers=n, weights=weights)
                dubbo = get(rows, "LoadBalanceBenchmark.dubbo", balancer=balancer, invokers=n, weights=weights)
                floor = get(rows, "PickFloorBenchmark.bareRandomPick", invokers=n)
                r = ratio(dubbo, picker)
                need = 10 if n == 10 else 30
                if dubbo is None:
                    bar, cell = "no Dubbo peer", "n/a"
                elif floor is not None and ratio(dubbo, floor) is not None and ratio(dubbo, floor) < need:
                    bar, cell = f">= {need}x (#12)", f"exempt (Dubbo at {fmt_ratio(ratio(dubbo, floor))} the floor)"
                else:
                    bar, cell = f">= {need}x (#12)", verdict(None if r is None else r >= need)
                growth = fmt_ratio(ratio(p100, p10)) if n == 100 else ""
                out.append(f"| {balancer} | {weights} | {n} | {ns(picker)} | {ns(select)} | {ns(dubbo)} | {fmt_ratio(r)} | "
                           f"{bar} | {cell} | {growth} |")

    floors = [(n, get(rows, "PickFloorBenchmark.bareRandomPick", invokers=n),
               get(rows, "LoadBalanceBenchmark.dubbo", balancer="random", invokers=n, weights="equal"),
               get(rows, "LoadBalanceBenchmark.weft", balancer="random", invokers=n, weights="equal")) for n in (10, 100)]
    if any(f for _, f, _, _ in floors):
        out.append("\nThe floor of this harness: a balancer that only returns "
                   "`invokers.get(ThreadLocalRandom.current().nextInt(size))`, called the same way. With equal weights "
                   "and no `weight`/`timestamp` on the provider URLs, Dubbo's `random` also skips weighing, so its "
                   "figure there is this floor plus its URL lookups:\n")
        out.append("| invokers | floor ns/op | Weft `random` (equal) ns/op | Dubbo `random` (equal) ns/op | Dubbo / floor |")
        out.append("|---|---|---|---|---|")
        for n, f, dubbo, weft in floors:
            out.append(f"| {n} | {ns(f)} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(ratio(dubbo, f))} |")

    cluster = [get(rows, f"ClusterBenchmark.{fw}", invokers=n, weights=w) for fw in ("weft", "dubbo")
               for w in ["equal", "mixed", "warming"] for n in (10, 100)]
    if any(cluster):
        cluster_table(rows, out, heading)
    breakdown_tables(rows, out)
    shared_table(rows, out, heading)
    if any(get(rows, f"ProxyBenchmark.{fw}{f}") for fw in ("weft", "dubbo") for f in ("Javassist", "Jdk")):
        proxy_table(rows, out, heading)
    if any(get(rows, f"PipelineBenchmark.{fw}", invokers=n) for fw in ("weft", "dubbo") for n in (10, 100)):
        pipeline_table(rows, out, heading)
    if any(get(rows, f"MockOverheadBenchmark.{fw}Wrapped") for fw in ("weft", "dubbo")):
        mock_table(rows, out, heading)


def cluster_table(rows, out, heading):
    out.append(f"\n{heading} Cluster invoke (`failover` + `random`, invokers answer at once)\n")
    out.append("| weights | invokers | Weft ns/op | Dubbo cluster invoker ns/op | Dubbo/Weft | bar | result | Dubbo through its proxy ns/op | Dubbo-proxy/Weft |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for weights in ["equal", "mixed", "warming"]:
        for n, need in [(10, 10), (100, 30)]:
            weft = get(rows, "ClusterBenchmark.weft", invokers=n, weights=weights)
            dubbo = get(rows, "ClusterBenchmark.dubbo", invokers=n, weights=weights)
            proxy = get(rows, "ClusterBenchmark.dubboViaProxy", invokers=n, weights=weights)
            if weft is None and dubbo is None:
                continue
            r = ratio(dubbo, weft)
            out.append(f"| {weights} | {n} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(r)} | >= {need}x (#4) | "
                       f"{verdict(None if r is None else r >= need)} | {ns(proxy)} | {fmt_ratio(ratio(proxy, weft))} |")


def breakdown_tables(rows, out):
    floor = [(n, get(rows, "WeftBreakdownBenchmark.invocationAndCall", invokers=n),
              get(rows, "WeftBreakdownBenchmark.invocationBalancerAndCall", invokers=n)) for n in (10, 100)]
    brk = [(n, get(rows, "WeftBreakdownBenchmark.directoryList", invokers=n),
            get(rows, "WeftBreakdownBenchmark.statsUntracked", invokers=n),
            get(rows, "WeftBreakdownBenchmark.statsCounted", invokers=n),
            get(rows, "WeftBreakdownBenchmark.statsTimed", invokers=n)) for n in (10, 100)]
    if any(any(b[1:]) for b in brk):
        out.append("\nWhere Weft's cluster time goes (Weft only):\n")
        out.append("| invokers | `StaticDirectory.list` (exact) ns/op | "
                   "`InvokerStats` start/end call, untracked ns/op | in flight counted ns/op | latency tracked ns/op |")
        out.append("|---|---|---|---|---|")
        for n, lst, untracked, counted, timed in brk:
            out.append(f"| {n} | {ns(lst)} | {ns(untracked)} | {ns(counted)} | {ns(timed)} |")
        out.append("\nThe floor under the cluster figure (no cluster): the benchmark's fresh invocation and one provider call, "
                   "and the same with `random` choosing the provider:\n")
        out.append("| invokers | invocation + call ns/op | invocation + `random` + call ns/op |")
        out.append("|---|---|---|")
        for n, call, balanced in floor:
            out.append(f"| {n} | {ns(call)} | {ns(balanced)} |")


def shared_table(rows, out, heading):
    shared = [(b, n, get(rows, "SharedBalancerBenchmark.weft", balancer=b, services=n),
               get(rows, "SharedBalancerBenchmark.dubbo", balancer=b, services=n))
              for b in ["random", "roundrobin", "leastactive", "consistenthash"] for n in (1, 8)]
    if any(w or d for _, _, w, d in shared):
        out.append(f"\n{heading} One balancer shared by several services (10 providers each, equal weights, lists in turn)\n")
        out.append("| balancer | services | Weft ns/op | Dubbo ns/op | Dubbo/Weft |")
        out.append("|---|---|---|---|---|")
        for b, n, weft, dubbo in shared:
            out.append(f"| {b} | {n} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(ratio(dubbo, weft))} |")


def proxy_table(rows, out, heading):
    out.append(f"\n{heading} Proxy round trip (`getProxy(getInvoker(impl))`)\n")
    direct = get(rows, "ProxyBenchmark.direct")
    out.append("| factory | Weft ns/op | Dubbo ns/op | Dubbo/Weft | Weft/direct | bar | result |")
    out.append("|---|---|---|---|---|---|---|")
    for factory in ["Javassist", "Jdk"]:
        weft = get(rows, "ProxyBenchmark.weft" + factory)
        dubbo = get(rows, "ProxyBenchmark.dubbo" + factory)
        r = ratio(dubbo, weft)
        over = ratio(weft, direct)
        if factory == "Javassist":
            bar = "within 10x of direct, faster than Dubbo (#5)"
            ok = None if r is None or over is None else (over <= 10 and r > 1)
        else:
            bar = "(none; reported)"
            ok = None
        out.append(f"| {factory.lower()} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(r)} | {fmt_ratio(over)} | {bar} | "
                   f"{verdict(ok) if ok is not None else '—'} |")
    out.append(f"| direct call of `GreeterImpl` | {ns(direct)} | | | | | |")


def pipeline_table(rows, out, heading):
    out.append(f"\n{heading} Whole pipeline (proxy -> mock wrapper, no mock -> failover -> random -> provider invoker)\n")
    pdirect = get(rows, "PipelineBenchmark.direct")
    out.append("| invokers | Weft ns/op | Dubbo ns/op | Dubbo/Weft | Weft/direct | Dubbo/direct | bar | result |")
    out.append("|---|---|---|---|---|---|---|---|")
    for n in (10, 100):
        weft = get(rows, "PipelineBenchmark.weft", invokers=n)
        dubbo = get(rows, "PipelineBenchmark.dubbo", invokers=n)
        over = ratio(weft, pdirect)
        bar = "Weft within 30x of direct (#7)" if n == 10 else "(none; reported)"
        ok = (None if over is None else over <= 30) if n == 10 else None
        out.append(f"| {n} | {ns(weft)} | {ns(dubbo)} | {fmt_ratio(ratio(dubbo, weft))} | {fmt_ratio(over)} | "
                   f"{fmt_ratio(ratio(dubbo, pdirect))} | {bar} | {verdict(ok) if ok is not None else '—'} |")
    out.append(f"| direct call | {ns(pdirect)} | | | | | | |")


def mock_table(rows, out, heading):
    out.append(f"\n{heading} Mock wrapper pass-through (no mock configured; failover + random, 10 invokers)\n")
    out.append("| framework | wrapped ns/op | bare ns/op | overhead ns | bar | result |")
    out.append("|---|---|---|---|---|---|")
    for fw, label in [("weft", "Weft"), ("dubbo", "Dubbo")]:
        wrapped = get(rows, f"MockOverheadBenchmark.{fw}Wrapped")
        bare = get(rows, f"MockOverheadBenchmark.{fw}Bare")
        if wrapped is None or bare is None:
            continue
        diff = wrapped[0] - bare[0]
        noise = wrapped[1] + bare[1]
        if fw == "weft":
            ok = diff <= max(noise, 0.05 * bare[0])
            cell = verdict(ok)
            bar = "no measurable overhead (difference within the error bars or 5%) (#6)"
        else:
            cell, bar = "—", "(reported)"
        out.append(f"| {label} | {ns(wrapped)} | {ns(bare)} | {diff:,.1f} (± {noise:,.0f}) | {bar} | {cell} |")


def main():
    out = render(load(sys.argv[1]), heading="###")
    if len(sys.argv) > 2:
        cold = load(sys.argv[2])
        weft, dubbo = get(cold, "ColdStartBenchmark.weft"), get(cold, "ColdStartBenchmark.dubbo")
        out.append("\n### Cold start, JMH `SingleShotTime` (fresh `java -cp benchmarks.jar`, start to exit after the first call)\n")
        out.append("| Weft ms | Dubbo ms | Weft/Dubbo |")
        out.append("|---|---|---|")
        r = ratio(weft, dubbo)
        out.append(f"| {ns(weft)} | {ns(dubbo)} | {'n/a' if r is None else f'{r:.2f}'} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
