#!/usr/bin/env python3
"""The bench report: criterion's medians as a table of ratios and a plot. Python stdlib only.

    cargo bench                        # writes target/criterion/**/new/estimates.json
    python3 scripts/bench_report.py    # prints the tables, rewrites them in docs/BENCHMARKS.md,
                                       # writes docs/bench.svg

Every group of benches/topk.rs is one (shape, n, k) with every method run on the same row. The
table gives, per group, the floor's median time (one max-reduction over the row: reading it
once) and each method's median as a ratio to the floor and to `select_nth`
(`select_nth_unstable_by` then a sort of the k). The plot shows time per call across n for each
method, one panel per shape, for one k.

Then the targets (n = 151,936), each with its ratio in the same run, and the bound: per n, the
worst ratio of `top_k_into` and `extend_from_slice` to `select_nth` over every shape and k.

The Markdown file gets only its two generated sections rewritten, each between a pair of
markers (`<!-- bench_report:table begin -->` ... `<!-- bench_report:table end -->`, the same
with `targets`); the prose around them (the machine, the commit, the history) is by hand. A
file without the markers is left alone (an error); a file that does not exist is created with
just the two sections.

Options:
  --criterion DIR  criterion's output (default target/criterion)
  --n N            table rows for this n only; 0 for all (default 151936)
  --k K            the plot's k (default 50)
  --svg PATH       the plot (default docs/bench.svg)
  --out PATH       the Markdown file whose generated sections are rewritten. Default
                   docs/BENCHMARKS.md, but only when --svg is not given either: a run that
                   sends the plot elsewhere (CI's small run, `--svg target/bench-ci.svg`)
                   writes no Markdown unless --out names a file.
  --no-write       print the tables, write no file at all.
The Markdown is not written when the table would have no row (no group for that n).
"""

import argparse
import json
import math
import os
import sys

METHODS = [
    "floor",
    "top_k_into",
    "TopK::extend_from_slice",
    "TopK::push",
    "select_nth",
    "BinaryHeap",
    "sort",
]
SHORT = {
    "floor": "floor",
    "top_k_into": "top_k_into",
    "TopK::extend_from_slice": "extend",
    "TopK::push": "push",
    "select_nth": "select_nth",
    "BinaryHeap": "BinaryHeap",
    "sort": "sort",
}
SHAPES = [
    "normal",
    "masked",
    "ascending",
    "descending",
    "equal",
    "rising_masked",
    "sawtooth",
    "organ_pipe",
    "rise_fall",
    "anti_sample",
    "anti_sample_high",
]
# The plot's shapes: the first five (the rows built against the pre-filter are in the tables).
PLOT_SHAPES = SHAPES[:5]
# The targets: (shape, k, method, baseline, goal), at n = TARGET_N.
TARGET_N = 151936
TARGETS = [
    ("normal", 50, "top_k_into", "floor", 2.0),
    ("masked", 50, "top_k_into", "floor", 2.0),
    ("normal", 50, "TopK::extend_from_slice", "floor", 2.2),
    ("ascending", 50, "top_k_into", "select_nth", 0.05),
    ("normal", 200, "top_k_into", "select_nth", 0.15),
    ("normal", 1000, "top_k_into", "select_nth", 0.25),
    ("normal", 50, "TopK::push", "floor", 12.0),
]
# The bound: on every group (every shape, n and k), these methods at most this times
# `select_nth`.
BOUNDED = ["top_k_into", "TopK::extend_from_slice"]
BOUND = 1.0
COLORS = {
    "floor": "#555555",
    "top_k_into": "#d62728",
    "TopK::extend_from_slice": "#ff7f0e",
    "TopK::push": "#9467bd",
    "select_nth": "#1f77b4",
    "BinaryHeap": "#2ca02c",
    "sort": "#8c564b",
}


def load(root):
    """{(shape, n, k): {method: median ns}} from every new/estimates.json under root."""
    groups = {}
    for dirpath, _, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "estimates.json" not in files:
            continue
        try:
            with open(os.path.join(dirpath, "benchmark.json")) as f:
                meta = json.load(f)
            with open(os.path.join(dirpath, "estimates.json")) as f:
                est = json.load(f)
        except (OSError, ValueError):
            continue
        parts = meta["group_id"].split("/")
        if len(parts) != 3 or not parts[1].startswith("n=") or not parts[2].startswith("k="):
            continue
        key = (parts[0], int(parts[1][2:]), int(parts[2][2:]))
        groups.setdefault(key, {})[meta["function_id"]] = est["median"]["point_estimate"]
    return groups


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e3:.1f} µs"


def fmt_ratio(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def table(groups, only_n):
    shown = [m for m in METHODS if m != "floor"]
    head = ["shape", "n", "k", "floor"] + [f"{SHORT[m]} ×floor / ×sel" for m in shown]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    order = {s: i for i, s in enumerate(SHAPES)}
    for key in sorted(groups, key=lambda g: (g[1], order.get(g[0], 99), g[0], g[2])):
        shape, n, k = key
        if (only_n and n != only_n) or shape not in SHAPES:
            continue
        times = groups[key]
        floor, sel = times.get("floor"), times.get("select_nth")
        row = [shape, f"{n:,}", str(k), fmt_time(floor) if floor else "-"]
        for m in shown:
            t = times.get(m)
            if t is None or not floor or not sel:
                row.append("-")
            else:
                row.append(f"{fmt_ratio(t / floor)} / {fmt_ratio(t / sel)}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def targets(groups):
    """The targets table: goal, the ratio measured, met or not."""
    lines = ["| target | goal | measured | |", "| --- | --- | --- | --- |"]
    for shape, k, method, base, goal in TARGETS:
        times = groups.get((shape, TARGET_N, k), {})
        t, b = times.get(method), times.get(base)
        label = f"{shape}, k = {k}: `{method}` / `{base}`"
        if t is None or not b:
            lines.append(f"| {label} | ≤ {goal:g} | - | not run |")
            continue
        ratio = t / b
        verdict = "met" if ratio <= goal else "not met"
        lines.append(f"| {label} | ≤ {goal:g} | {fmt_ratio(ratio)} | {verdict} |")
    return "\n".join(lines)


def bounds(groups):
    """Per n, the worst ratio to `select_nth` of each bounded method over every shape and k,
    and where it was, then whether the bound holds everywhere."""
    lines = [
        "| n | " + " | ".join(f"worst `{m}` / `select_nth` (shape, k)" for m in BOUNDED) + " |",
        "|---|" + "---|" * len(BOUNDED),
    ]
    worst_all = 0.0
    for n in sorted({g[1] for g in groups}):
        row = [f"{n:,}"]
        for m in BOUNDED:
            worst = None
            for (shape, gn, k), times in groups.items():
                t, sel = times.get(m), times.get("select_nth")
                if gn != n or t is None or not sel:
                    continue
                if worst is None or t / sel > worst[0]:
                    worst = (t / sel, shape, k)
            if worst is None:
                row.append("-")
                continue
            worst_all = max(worst_all, worst[0])
            row.append(f"{fmt_ratio(worst[0])} ({worst[1]}, {worst[2]})")
        lines.append("| " + " | ".join(row) + " |")
    verdict = "met" if worst_all <= BOUND else "not met"
    lines.append("")
    lines.append(f"Bound: every group at most {BOUND:g} × `select_nth`: {verdict} "
                 f"(worst {fmt_ratio(worst_all)}).")
    return "\n".join(lines)


def svg(groups, k):
    """Time per call against n, log-log, one panel per shape, one line per method."""
    shapes = [s for s in PLOT_SHAPES if any(g[0] == s and g[2] == k for g in groups)]
    if not shapes:
        return None
    pw, ph, ml, mr, mt, mb = 300, 240, 58, 12, 34, 40
    legend_h = 26
    width = ml + len(shapes) * (pw + mr) + 10
    height = legend_h + mt + ph + mb
    times = [t for g, ms in groups.items() if g[2] == k for t in ms.values() if t > 0]
    ns = sorted({g[1] for g in groups if g[2] == k})
    lo, hi = math.log10(min(times)), math.log10(max(times))
    lo, hi = math.floor(lo), math.ceil(hi)
    nlo, nhi = math.log10(ns[0]) - 0.05, math.log10(ns[-1]) + 0.05
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    x = ml
    for m in METHODS:
        out.append(f'<rect x="{x}" y="8" width="12" height="3" fill="{COLORS[m]}"/>')
        out.append(f'<text x="{x + 16}" y="13">{SHORT[m]}</text>')
        x += 16 + 7 * len(SHORT[m]) + 18
    out.append(f'<text x="{width - 10}" y="13" text-anchor="end">k = {k}, median time per call</text>')
    for p, shape in enumerate(shapes):
        x0 = ml + p * (pw + mr)
        y0 = legend_h + mt

        def px(n):
            return x0 + (math.log10(n) - nlo) / (nhi - nlo) * pw

        def py(t):
            return y0 + ph - (math.log10(t) - lo) / (hi - lo) * ph

        out.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>')
        out.append(f'<text x="{x0 + pw / 2}" y="{y0 - 8}" text-anchor="middle" font-weight="bold">{shape}</text>')
        for e in range(lo, hi + 1):
            y = py(10**e)
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + pw}" y2="{y:.1f}" stroke="#eee"/>')
            if p == 0:
                label = fmt_time(10**e).replace(".0 ", " ").replace(".00 ", " ")
                out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        for n in ns:
            out.append(f'<text x="{px(n):.1f}" y="{y0 + ph + 14}" text-anchor="middle">{n // 1024}Ki</text>')
        out.append(f'<text x="{x0 + pw / 2}" y="{y0 + ph + 30}" text-anchor="middle">n</text>')
        for m in METHODS:
            pts = [(n, groups.get((shape, n, k), {}).get(m)) for n in ns]
            pts = [(px(n), py(t)) for n, t in pts if t]
            if not pts:
                continue
            path = " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[m]}" stroke-width="2"/>')
            for a, b in pts:
                out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" fill="{COLORS[m]}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


MARKERS = ("table", "targets")
DEFAULT_SVG = "docs/bench.svg"
DEFAULT_OUT = "docs/BENCHMARKS.md"


def marker(name, end):
    return f"<!-- bench_report:{name} {'end' if end else 'begin'} -->"


def update_markdown(text, sections):
    """text with each {name: body} section replaced between its markers, or None if a pair
    of markers is missing or out of order."""
    for name, body in sections.items():
        begin, end = marker(name, False), marker(name, True)
        i, j = text.find(begin), text.find(end)
        if i < 0 or j < i or text.count(begin) != 1 or text.count(end) != 1:
            return None
        text = text[: i + len(begin)] + "\n" + body.rstrip("\n") + "\n" + text[j:]
    return text


def markdown_text(path, sections):
    """The new text of path: its generated sections rewritten, or, if it does not exist, only
    them. None if the file exists without its markers."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return update_markdown(f.read(), sections)
    return "\n\n".join(
        f"{marker(name, False)}\n{body.rstrip()}\n{marker(name, True)}"
        for name, body in sections.items()
    ) + "\n"


def write_file(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[1:]),
    )
    ap.add_argument("--criterion", default="target/criterion")
    ap.add_argument("--n", type=int, default=151936)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--svg", default=None, help=f"the plot (default {DEFAULT_SVG})")
    ap.add_argument(
        "--out",
        default=None,
        help=f"the Markdown to update (default {DEFAULT_OUT}, unless --svg is given)",
    )
    ap.add_argument("--no-write", action="store_true", help="print only, write no file")
    args = ap.parse_args()
    groups = load(args.criterion)
    if not groups:
        sys.exit(f"no criterion results under {args.criterion}: run `cargo bench` first")
    rows = table(groups, args.n)
    goals = targets(groups) + "\n\n" + bounds(groups)
    print(rows)
    print()
    print(goals)
    if args.no_write:
        return
    # Decide everything before writing anything: a refused Markdown file leaves the plot alone.
    out = args.out or (DEFAULT_OUT if args.svg is None else None)
    text = None
    if out is not None:
        if rows.count("\n") < 2:
            sys.exit(f"no group for n = {args.n}: nothing written ({out} left alone)")
        text = markdown_text(out, {"table": rows, "targets": goals})
        if text is None:
            sys.exit(
                f"{out} lacks the markers {marker('table', False)} ... "
                f"{marker('targets', True)}: nothing written"
            )
    svg_path = args.svg or DEFAULT_SVG
    picture = svg(groups, args.k)
    if picture:
        write_file(svg_path, picture)
        print(f"\nwrote {svg_path}", file=sys.stderr)
    else:
        print(f"\nno group at k = {args.k}: no plot written", file=sys.stderr)
    if text is None:
        print(f"--svg given without --out: {DEFAULT_OUT} left alone", file=sys.stderr)
        return
    write_file(out, text)
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
