package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// clientVariantRow is one correct variant of the reference client driver
// (internal/clientdriver/variant_*.go) run on the whole client suite: no
// client spec may fail it, nor warn or call it indeterminate unless the
// variant's registry entry allows that spec, with a reason. The agent
// variants' rule (variantRow), applied to clients.
type clientVariantRow struct {
	Variant clientdriver.Variant
	Run     *harnessRun
	Counts  map[reports.Verdict]int
	NonPass []reports.Result
	Err     string
	// Short says the run reported on fewer (or more) specs than the client
	// suite has: a problem, shown beside its counts.
	Short string
}

// newClientVariantRows plans one run of the whole client suite per variant.
func newClientVariantRows(dir string, seed int64, vs []clientdriver.Variant) []*clientVariantRow {
	driver := clientDriver() + " --variant "
	var rows []*clientVariantRow
	for i, v := range vs {
		rows = append(rows, &clientVariantRow{Variant: v, Run: &harnessRun{Cmd: "client",
			Args: []string{"--client-cmd", driver + v.Name}, Seed: seed + int64(i), Out: filepath.Join(dir, "client-variant-"+v.Name)}})
	}
	return rows
}

// splitVariantNames sorts the names given to `matrix --variant` into agent
// variants and correct variants of the reference client driver.
func splitVariantNames(names []string) (agent []string, client []clientdriver.Variant) {
	for _, n := range names {
		if v, ok := clientdriver.LookupVariant(n); ok {
			client = append(client, v)
			continue
		}
		agent = append(agent, n)
	}
	return agent, client
}

func (row *clientVariantRow) judge() {
	row.Counts, row.NonPass, row.Err = tally(row.Run)
	if row.Run == nil || row.Run.Err != nil {
		return
	}
	if n := len(suites.InSuites(suites.Client)); len(row.Run.Report.Results) != n {
		row.Short = fmt.Sprintf("%d results, not one per client spec (%d)", len(row.Run.Report.Results), n)
	}
}

// notAllowed reports whether a correct client variant may not get this
// result: a fail, a warning or indeterminate its entry does not allow, or
// anything but a pass on a spec whose reading the variant takes (its
// Specs: a could-not-run there means the reading went unchecked).
func (row *clientVariantRow) notAllowed(res reports.Result) bool {
	if res.Verdict != reports.Pass && slices.Contains(row.Variant.Specs, res.ID) {
		return true
	}
	return disallowed(row.Variant.Allowed, res)
}

func (row *clientVariantRow) verdictText(res reports.Result) string {
	return markVerdict(row.notAllowed(res), res)
}

// clientVariantProblems lists what the correct client variants must not get.
func clientVariantProblems(rows []*clientVariantRow) []string {
	var out []string
	for _, row := range rows {
		rerun := ""
		if row.Run != nil {
			rerun = fmt.Sprintf(" (a2a-conform matrix --variant %s --seed %d)", row.Variant.Name, row.Run.Seed)
		}
		if row.Err != "" {
			out = append(out, "client variant "+row.Variant.Name+": "+row.Err+rerun)
			continue
		}
		if row.Short != "" {
			out = append(out, "client variant "+row.Variant.Name+": "+row.Short+rerun)
		}
		for _, res := range row.NonPass {
			if row.notAllowed(res) {
				out = append(out, fmt.Sprintf("client variant %s: %s %s: %s%s", row.Variant.Name, res.ID, res.Verdict, shortReason(res.Reason, 300), rerun))
			}
		}
	}
	return out
}

// The client variants section's heading and its run list's; maskVariantRuns
// blanks what a run saw under them.
const (
	clientVariantsHeading    = "## Correct client variants (reference client driver)"
	clientVariantsRunHeading = "### Client variants: not passed in the last run"
)

// clientVariantsMarkdown renders the client variants table. The first two
// cells of a row (name, the specs whose reading it takes) and what each
// variant does come from the registry; the counts and non-passes from the
// run.
func clientVariantsMarkdown(rows []*clientVariantRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(clientVariantsHeading + "\n\n")
	b.WriteString("Each variant is the reference client driver made different in a way the spec text allows, as\n")
	b.WriteString("docs/levels.md reads it (`internal/clientdriver/variant_*.go`; `a2a-conform client-driver --list-variants`),\n")
	fmt.Fprintf(&b, "run on the whole client suite (%d specs): `a2a-conform client --client-cmd 'a2a-conform client-driver --variant NAME'`.\n", len(suites.InSuites(suites.Client)))
	b.WriteString("No client spec may fail a variant, nor warn or call it indeterminate unless the variant allows that\n")
	b.WriteString("spec (bold when one did). The specs named are those whose other reading the variant takes; each must\n")
	b.WriteString("pass it. `a2a-conform matrix --variant NAME` reruns one.\n\n")
	b.WriteString("| client variant | specs whose reading it takes | pass | warn | n/a | could-not-run | indeterminate | fail | not passed |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, row := range rows {
		specs := strings.Join(row.Variant.Specs, ", ")
		if specs == "" {
			specs = "(every spec: a timing difference)"
		}
		fmt.Fprintf(&b, "| %s | %s |", row.Variant.Name, specs)
		b.WriteString(clientVariantRunCells(row))
		b.WriteString("\n")
	}
	b.WriteString("\n### What each client variant does differently\n\n")
	for _, row := range rows {
		fmt.Fprintf(&b, "- **%s**: %s\n", row.Variant.Name, mdCell(row.Variant.Description))
		for _, id := range sortedKeys(row.Variant.Allowed) {
			fmt.Fprintf(&b, "  %s may warn or be indeterminate: %s.\n", id, mdCell(row.Variant.Allowed[id]))
		}
	}
	b.WriteString("\n" + clientVariantsRunHeading + "\n\n")
	var lines []string
	ran := false
	for _, row := range rows {
		if row.Run == nil || row.Err != "" {
			continue
		}
		ran = true
		for _, res := range row.NonPass {
			lines = append(lines, fmt.Sprintf("- %s %s on %s: %s\n", res.ID, row.verdictText(res), row.Variant.Name, mdCell(shortReason(stableReason(res.Reason), 160))))
		}
	}
	switch {
	case len(lines) > 0:
		b.WriteString(strings.Join(lines, ""))
	case ran:
		b.WriteString("Nothing: every client spec passed every variant.\n")
	default:
		b.WriteString("Nothing: no run.\n")
	}
	b.WriteString("\n")
	return b.String()
}

func clientVariantRunCells(row *clientVariantRow) string {
	if row.Run == nil {
		return strings.Repeat(" not run |", len(variantVerdicts)+1)
	}
	if row.Err != "" {
		return strings.Repeat(" - |", len(variantVerdicts)) + " **no report: " + mdCell(row.Err) + "** |"
	}
	var b strings.Builder
	for _, v := range variantVerdicts {
		fmt.Fprintf(&b, " %d |", row.Counts[v])
	}
	var np []string
	for _, res := range row.NonPass {
		np = append(np, res.ID+" "+row.verdictText(res))
	}
	if row.Short != "" {
		np = append(np, "**"+row.Short+"**")
	}
	if len(np) == 0 {
		b.WriteString(" none |")
	} else {
		b.WriteString(" " + strings.Join(np, ", ") + " |")
	}
	return b.String()
}

// summary is one line for the console: counts, then every non-pass.
func (row *clientVariantRow) summary() string {
	return runSummary(row.Err, row.Run, row.Counts, row.NonPass)
}
