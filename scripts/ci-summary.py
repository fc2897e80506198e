#!/usr/bin/env python3
"""Markdown summary of an a2a-conform report.json, for $GITHUB_STEP_SUMMARY;
with --annotations, one ::error:: workflow command per failed spec instead
(at most 10), so that failures show in the checks UI.

We write this ourselves instead of using a third-party JUnit reporter action:
such an action must be pinned by commit SHA, and its SHA could not be
verified where this was written. junit.xml is still uploaded as an artifact.

Everything in the report that the agent controls (titles are ours, but
reasons quote the agent) is escaped and bounded before it is printed.

Usage: ci-summary.py REPORT.json >> "$GITHUB_STEP_SUMMARY"
       ci-summary.py --annotations REPORT.json
"""
import html
import json
import sys

MAX_ROWS = 200        # the step summary is capped at 1 MiB per step
MAX_REASON = 300
MAX_ANNOTATIONS = 10  # GitHub shows 10 error annotations per step
ORDER = ["fail", "indeterminate", "could-not-run", "warn", "not-applicable", "pass"]


def cell(s, n=MAX_REASON):
    s = " ".join(str(s or "").split())
    if len(s) > n:
        s = s[:n] + "…"
    return html.escape(s).replace("|", "&#124;").replace("`", "&#96;")


def command_value(s):
    """Escapes a workflow command's message (GitHub's escaping rules)."""
    return str(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def command_property(s):
    return command_value(s).replace(":", "%3A").replace(",", "%2C")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def non_pass(r):
    results = [x for x in r.get("results", []) if x.get("verdict") != "pass"]
    results.sort(key=lambda x: (ORDER.index(x.get("verdict")) if x.get("verdict") in ORDER else 0, x.get("id", "")))
    return results


def summary(r):
    s = r.get("summary", {})
    score = s.get("score", {})
    impl = r.get("implementation", {})
    by = s.get("byVerdict", {})
    out = []
    name = cell(impl.get("name"), 80) + (" " + cell(impl.get("version"), 40) if impl.get("version") else "")
    out.append(f"## a2a-conform: {name}")
    out.append("")
    out.append(
        f"**{score.get('passed', 0)} of {score.get('denominator', 0)} passed "
        f"({score.get('percent', 0)}%)** · MUST/invariant failures: {score.get('mustFailed', 0)} · "
        f"harness {cell(r.get('harness', {}).get('version'), 40)} · seed {r.get('run', {}).get('seed', '?')}"
    )
    if r.get("run", {}).get("unreachable"):
        out.append("")
        out.append("**The target could not be reached**: every spec is could-not-run (exit 3).")
    out.append("")
    out.append("| verdict | specs |")
    out.append("| --- | --- |")
    for v in ORDER:
        if by.get(v):
            out.append(f"| {v} | {by[v]} |")
    if s.get("partial"):
        out.append(f"| (partial: some part unchecked) | {s['partial']} |")
    results = non_pass(r)
    if results:
        out.append("")
        out.append("| spec | verdict | level | title | reason |")
        out.append("| --- | --- | --- | --- | --- |")
        for x in results[:MAX_ROWS]:
            reason = x.get("reason", "")
            if x.get("unchecked"):
                reason = "unchecked: " + "; ".join(x["unchecked"]) + ". " + reason
            out.append(
                f"| {cell(x.get('id'), 20)} | {cell(x.get('verdict'), 20)} | {cell(x.get('level'), 12)} "
                f"| {cell(x.get('title'), 160)} | {cell(reason)} |"
            )
        if len(results) > MAX_ROWS:
            out.append(f"\n{len(results) - MAX_ROWS} more in report.html.")
    out.append("")
    out.append("Every spec, its transcript and the expected-vs-actual of each failure: "
               "report.html in the run's artifacts.")
    return "\n".join(out)


def annotations(r):
    out = []
    failed = [x for x in non_pass(r) if x.get("verdict") == "fail"]
    for x in failed[:MAX_ANNOTATIONS]:
        title = command_property(f"{x.get('id')} {x.get('level')}: {x.get('title', '')}"[:200])
        msg = command_value((x.get("reason") or "failed")[:1000])
        out.append(f"::error title={title}::{msg}")
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--annotations":
        text = annotations(load(args[1]))
    elif len(args) == 1:
        text = summary(load(args[0]))
    else:
        sys.exit("usage: ci-summary.py [--annotations] REPORT.json")
    if text:
        print(text)
