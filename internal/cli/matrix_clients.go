package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// clientRow is one run of the reference client driver in the matrix: the
// clean driver (Fault.Name "") against every client spec, or one client
// fault against the specs it names.
type clientRow struct {
	Fault clientdriver.Fault
	Run   *harnessRun
	Cells []cell
	Err   string
}

// newClientRows plans the clean driver's run and one run per client fault
// that names specs: every registered client fault, or only those given
// (`matrix --fault NAME`, names already checked by splitFaultNames).
func newClientRows(dir string, seed int64, only []clientdriver.Fault) []*clientRow {
	driver := clientDriver()
	rows := []*clientRow{{Run: &harnessRun{Cmd: "client", Args: []string{"--client-cmd", driver}, Seed: seed, Out: filepath.Join(dir, "client-clean")}}}
	faults := only
	if faults == nil {
		faults = clientdriver.Faults()
	}
	for _, f := range faults {
		row := &clientRow{Fault: f}
		if len(f.Specs) > 0 {
			row.Run = &harnessRun{Cmd: "client", Args: []string{"--client-cmd", driver + " --fault " + f.Name,
				"--focus", strings.Join(f.Specs, ",")}, Seed: seed + int64(len(rows)), Out: filepath.Join(dir, "client-"+f.Name)}
		}
		rows = append(rows, row)
	}
	return rows
}

func expectedClientVerdict(id string) reports.Verdict {
	info, _ := suites.Lookup(id)
	if info.Level.Strict() {
		return reports.Fail
	}
	return reports.Warn
}

// expectedClientRows are the rows as they read when every expectation holds.
func expectedClientRows() []*clientRow {
	rows := []*clientRow{{}}
	for _, f := range clientdriver.Faults() {
		row := &clientRow{Fault: f}
		for _, id := range f.Specs {
			w := expectedClientVerdict(id)
			row.Cells = append(row.Cells, cell{Spec: id, Want: w, Got: w})
		}
		rows = append(rows, row)
	}
	return rows
}

func (row *clientRow) judge() {
	if row.Run == nil {
		return
	}
	if row.Run.Err != nil {
		row.Err = row.Run.Err.Error()
		return
	}
	got := row.Run.Verdicts()
	if row.Fault.Name == "" {
		for _, info := range suites.InSuites(suites.Client) {
			if got[info.ID] != reports.Pass {
				row.Cells = append(row.Cells, cell{Spec: info.ID, Want: reports.Pass, Got: got[info.ID]})
			}
		}
		return
	}
	for _, id := range row.Fault.Specs {
		row.Cells = append(row.Cells, cell{Spec: id, Want: expectedClientVerdict(id), Got: got[id]})
	}
}

func clientProblems(rows []*clientRow) []string {
	var out []string
	for _, row := range rows {
		name := row.Fault.Name
		if name == "" {
			name = "clean reference client driver"
		}
		if row.Err != "" {
			out = append(out, fmt.Sprintf("client %s: %s", name, row.Err))
		}
		for _, c := range row.Cells {
			if c.Got != c.Want {
				out = append(out, fmt.Sprintf("client %s: %s was %s, want %s", name, c.Spec, orNone(c.Got), c.Want))
			}
		}
	}
	return out
}

// clientsMarkdown renders the client table: the clean reference client
// driver passes every client spec, and each client fault is caught.
func clientsMarkdown(rows []*clientRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Client faults (reference client driver)\n\n")
	b.WriteString("`a2a-conform client --client-cmd 'a2a-conform client-driver [--fault NAME]'`: the clean driver must\n")
	b.WriteString("pass every client spec; each client fault (`internal/clientdriver/fault_*.go`) must make every spec\n")
	b.WriteString("it names fail (MUST) or warn (SHOULD). `a2a-conform matrix --fault NAME` checks one (with the clean driver).\n\n")
	var none []string
	for _, row := range rows {
		if row.Fault.Name == "" {
			n := len(suites.InSuites(suites.Client))
			switch {
			case row.Err != "":
				fmt.Fprintf(&b, "Clean driver, every client spec (%d): **no report: %s**\n\n", n, mdCell(row.Err))
			case len(row.Cells) > 0:
				var bad []string
				for _, c := range row.Cells {
					bad = append(bad, c.Spec+" "+orNone(c.Got))
				}
				fmt.Fprintf(&b, "Clean driver, every client spec (%d): **%s**\n\n", n, strings.Join(bad, ", "))
			default:
				fmt.Fprintf(&b, "Clean driver, every client spec (%d): all pass.\n\n", n)
			}
			b.WriteString("| client fault | spec: verdict |\n| --- | --- |\n")
			continue
		}
		if len(row.Fault.Specs) == 0 {
			none = append(none, row.Fault.Name)
			continue
		}
		var cells []string
		for _, c := range row.Cells {
			if c.Got == c.Want {
				cells = append(cells, fmt.Sprintf("%s: %s", c.Spec, c.Want))
			} else {
				cells = append(cells, fmt.Sprintf("%s: **%s** (want %s)", c.Spec, orNone(c.Got), c.Want))
			}
		}
		line := strings.Join(cells, ", ")
		if row.Err != "" {
			line = "**no report: " + mdCell(row.Err) + "**"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", row.Fault.Name, line)
	}
	if len(none) > 0 {
		fmt.Fprintf(&b, "\nClient faults no spec names yet (the scenario specs, CLI-020 and up, will): %s.\n", strings.Join(none, ", "))
	}
	b.WriteString("\n")
	return b.String()
}

// splitFaultNames sorts the names given to `matrix --fault` into agent faults
// (package fakes) and client faults of the reference client driver
// (internal/clientdriver); a name that is neither is an error listing both
// kinds.
func splitFaultNames(names []string) (agent []string, client []clientdriver.Fault, err error) {
	var unknown []string
	for _, n := range names {
		_, aerr := fakes.LookupFault(n)
		cf, isClient := clientdriver.LookupFault(n)
		switch {
		case aerr == nil:
			agent = append(agent, n)
		case isClient:
			client = append(client, cf)
		default:
			unknown = append(unknown, fmt.Sprintf("%q", n))
		}
	}
	if len(unknown) > 0 {
		var cnames []string
		for _, f := range clientdriver.Faults() {
			cnames = append(cnames, f.Name)
		}
		return nil, nil, fmt.Errorf("unknown fault %s: not an agent fault (%s) nor a client fault of the reference client driver (%s)",
			strings.Join(unknown, ", "), strings.Join(fakes.FaultNames(), ", "), strings.Join(cnames, ", "))
	}
	return agent, client, nil
}
