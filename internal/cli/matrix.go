package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// MatrixDoc is where `a2a-conform matrix` writes the fault × spec table by
// default, relative to the repository root.
const MatrixDoc = "docs/fault-matrix.md"

const matrixHelp = `Usage: a2a-conform matrix [flags]

Proves every spec both ways in one command. Runs the clean reference agent on every
suite (no spec may fail or be indeterminate), then every registered fault against the
suites its specs live in (each spec the fault names must fail, or warn at SHOULD/MAY
level), then every correct variant of the agent (slow steps, queued or duplicated
pushes, an allow-list, auth on every request, …) on every suite through the process
driver (no spec may fail it, nor call it indeterminate unless the variant allows it),
then the reference client driver on the client suite, clean (every client spec must
pass), with each of its client faults (each spec the fault names must fail or warn)
and as each of its correct client variants (no client spec may fail it, nor warn or
call it indeterminate unless the variant allows it), each run in a child process, and
writes the fault × spec table and the variants table. Exits 1 when an expectation did
not hold. Other specs a fault happened to break are printed, not asserted. --fault
takes agent faults and client faults alike: an agent fault runs with the clean
reference agent (on the suites the named faults run on only), a client fault with the
clean reference client driver.

Flags:
`

func matrixCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("matrix", stderr, matrixHelp)
	out := fs.String("out", MatrixDoc, "`FILE` for the fault × spec table (Markdown); written only when every fault ran")
	parallel := fs.Int("parallel", 2, "runs at a time (each is one child process)")
	seed := fs.Int64("seed", 0, "seed of the first run; run i gets seed+i (default: from the clock, printed)")
	work := fs.String("work", "", "`DIR` for the runs' reports (default: a temporary directory, kept only when something failed)")
	var faultF listFlag
	fs.Var(&faultF, "fault", "check only these `faults`, comma-separated: agent faults and client faults of the reference client driver (the table is then not written)")
	var variantF listFlag
	shardF := fs.String("shard", "", "run only shard `i/n` (1-based) of the child runs, split by child name (sorted, dealt round-robin: the k-th name from 0 goes to shard k mod n + 1); seeds stay those of the whole matrix. The table is then not written; the exit code is still 1 when an expectation in this shard did not hold")
	fs.Var(&variantF, "variant", "check only these correct `variants` (of the agent, or of the reference client driver), comma-separated, with no fault unless --fault is also given (the table is then not written)")
	if done, code := parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 || *parallel < 1 || *seed < 0 {
		fs.Usage()
		return runner.ExitUsage
	}
	whole := len(faultF) == 0 && len(variantF) == 0
	var inShard func(name string) bool
	// childNames are the names of every child run this matrix would make
	// (the base of its report directory: clean, a fault's name,
	// variant-NAME, client-clean, client-FAULT, client-variant-NAME), set
	// before the variants, whose runs are made only when in the shard.
	var childNames []string
	if *shardF != "" {
		i, n, err := suites.ParseShard(*shardF)
		if err != nil {
			fmt.Fprintf(stderr, "matrix: --shard %q: %v\n", *shardF, err)
			return runner.ExitUsage
		}
		inShard = func(name string) bool { return suites.NamesInShard(childNames, i, n)[name] }
	}
	writeTable := whole && inShard == nil
	if writeTable {
		// Found out now, not after minutes of runs.
		if st, err := os.Stat(filepath.Dir(*out)); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "matrix: no directory for --out %s (run from the repository root, or give --out)\n", *out)
			return runner.ExitUsage
		}
	}
	agentVariantNames, clientVariants := splitVariantNames(splitComma(variantF))
	if whole {
		clientVariants = clientdriver.Variants()
	}
	variants, err := pickVariants(agentVariantNames, whole)
	if err != nil {
		fmt.Fprintf(stderr, "matrix: %v\n", err)
		return runner.ExitUsage
	}
	agentNames, clientFaults, err := splitFaultNames(splitComma(faultF))
	if err != nil {
		fmt.Fprintf(stderr, "matrix: %v\n", err)
		return runner.ExitUsage
	}
	b := newBatch("matrix", agentNames, *work, stderr)
	if b == nil {
		return runner.ExitUsage
	}
	defer b.stop()
	faults, dir, temp, ctx := b.faults, b.dir, b.temp, b.ctx
	// Agent faults (and the clean agent) run for the whole matrix or when
	// some are named; the reference client driver (clean, then with each
	// client fault) for the whole matrix or when client faults are named.
	withFaults := len(agentNames) > 0 || whole
	if !withFaults {
		faults = nil
	}
	withClients := len(clientFaults) > 0 || whole

	base := baseSeed(*seed)
	nClient := len(clientFaults)
	if whole {
		nClient = len(clientdriver.Faults())
	}
	fmt.Fprintf(stdout, "a2a-conform matrix · %d faults · %d client faults · %d variants · %d client variants · %d at a time · seeds from %d (rerun with --seed %d) · reports in %s\n",
		len(faults), nClient, len(variants), len(clientVariants), *parallel, base, base, dir)
	var runs []*harnessRun
	var clean *harnessRun
	if withFaults {
		clean = &harnessRun{Seed: base, Out: filepath.Join(dir, "clean")}
		if !whole {
			// Named faults are judged against the clean agent on the
			// suites they run on, not on every suite.
			var specs []string
			for _, f := range faults {
				specs = append(specs, f.Specs...)
			}
			if ss := suitesOf(specs); len(ss) > 0 {
				clean.Args = []string{"--suite", strings.Join(ss, ",")}
			}
		}
		runs = append(runs, clean)
	}
	rows := make([]*faultRow, 0, len(faults))
	for _, f := range faults {
		row := &faultRow{Fault: f, Suites: suitesOf(f.Specs)}
		rows = append(rows, row)
		if len(f.Specs) == 0 {
			continue // nothing to assert: the table lists it as caught by no spec
		}
		row.Run = &harnessRun{Args: []string{"--fault", f.Name, "--suite", strings.Join(row.Suites, ",")},
			Seed: base + int64(len(runs)), Out: filepath.Join(dir, f.Name)}
		runs = append(runs, row.Run)
	}
	var crows []*clientRow
	if withClients {
		var only []clientdriver.Fault
		if !whole {
			only = clientFaults
		}
		crows = newClientRows(dir, base+int64(len(runs)), only)
		for _, c := range crows {
			if c.Run != nil {
				runs = append(runs, c.Run)
			}
		}
	}
	// Each correct client variant runs the whole client suite.
	cvrows := newClientVariantRows(dir, base+int64(len(runs)), clientVariants)
	for _, c := range cvrows {
		runs = append(runs, c.Run)
	}
	for _, r := range runs {
		childNames = append(childNames, filepath.Base(r.Out))
	}
	for _, v := range variants {
		childNames = append(childNames, "variant-"+v.Name)
	}
	// The variants run first: they are the longest runs (every suite, the
	// slow one at 1 s a step), so the faults fill the other slots meanwhile.
	vrows := make([]*variantRow, 0, len(variants))
	var vruns []*harnessRun
	for i, v := range variants {
		if inShard != nil && !inShard("variant-"+v.Name) {
			continue
		}
		row := &variantRow{Variant: v}
		vrows = append(vrows, row)
		r, err := newVariantRun(v, dir, base+int64(len(runs)+i))
		if err != nil {
			fmt.Fprintf(stderr, "matrix: variant %s: %v\n", v.Name, err)
			return runner.ExitUsage
		}
		row.Run = r
		vruns = append(vruns, r)
	}
	if inShard != nil {
		runs, rows, crows, cvrows, clean = keepShard(inShard, runs, rows, crows, cvrows, clean)
		fmt.Fprintf(stdout, "shard %s: %d of the matrix's child runs\n", *shardF, len(runs)+len(vruns))
	}
	runs = append(vruns, runs...)
	n := 0
	runAll(ctx, runs, *parallel, func(r *harnessRun) {
		n++
		status := "ok"
		if r.Err != nil {
			status = r.Err.Error()
		}
		fmt.Fprintf(stdout, "[%d/%d] %5.1fs  %s  (%s)\n", n, len(runs), r.Took.Seconds(), r.Rerun(), status)
	})
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "matrix: interrupted")
		return runner.ExitFailed
	}

	m := matrix{Rows: rows, Variants: vrows, Clients: crows, ClientVariants: cvrows}
	if clean != nil {
		m.Clean = judgeClean(clean)
	}
	for _, row := range rows {
		row.judge()
	}
	for _, row := range vrows {
		row.judge()
	}
	for _, row := range crows {
		row.judge()
	}
	for _, row := range cvrows {
		row.judge()
	}
	problems := append(m.problems(), clientProblems(crows)...)
	problems = append(problems, clientVariantProblems(cvrows)...)
	for _, row := range rows {
		if len(row.Others) > 0 {
			fmt.Fprintf(stdout, "note: %s also broke %s (not named by the fault)\n", row.Fault.Name, strings.Join(row.Others, ", "))
		}
	}
	for _, row := range vrows {
		fmt.Fprintf(stdout, "variant %s: %s\n", row.Variant.Name, row.summary())
	}
	for _, row := range cvrows {
		fmt.Fprintf(stdout, "client variant %s: %s\n", row.Variant.Name, row.summary())
	}
	if writeTable {
		if err := os.WriteFile(*out, []byte(m.Markdown()), 0o644); err != nil {
			fmt.Fprintf(stderr, "matrix: %v\n", err)
			return runner.ExitUsage
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "\n%d expectation(s) did not hold (reports kept in %s):\n", len(problems), dir)
		for _, p := range problems {
			fmt.Fprintf(stdout, "  - %s\n", p)
		}
		return runner.ExitFailed
	}
	if inShard != nil {
		fmt.Fprintf(stdout, "\nshard %s: every expectation of its %d child runs held\n", *shardF, len(runs))
		if temp {
			os.RemoveAll(dir)
		}
		return 0
	}
	caught := 0
	for _, row := range rows {
		if row.Run != nil {
			caught++
		}
	}
	if withFaults {
		fmt.Fprintf(stdout, "\nclean agent: no fail, no indeterminate; %d of %d faults caught by every spec they name; %d caught by no spec yet\n", caught, len(rows), len(rows)-caught)
	}
	if withClients {
		ccaught := 0
		for _, row := range crows {
			if row.Fault.Name != "" && row.Run != nil {
				ccaught++
			}
		}
		fmt.Fprintf(stdout, "clean reference client driver: every client spec passes; %d of %d client faults caught by every spec they name\n", ccaught, len(crows)-1)
	}
	if len(vrows) > 0 {
		fmt.Fprintf(stdout, "%d correct variant(s): no fail, no indeterminate they do not allow\n", len(vrows))
	}
	if len(cvrows) > 0 {
		fmt.Fprintf(stdout, "%d correct client variant(s): no fail, no warning or indeterminate they do not allow\n", len(cvrows))
	}
	if temp {
		os.RemoveAll(dir)
	}
	return 0
}

// pickFaults returns the named faults, or all when none are named.
func pickFaults(names []string) ([]fakes.FaultInfo, error) {
	if len(names) == 0 {
		return fakes.Faults(), nil
	}
	var out []fakes.FaultInfo
	for _, n := range names {
		f, err := fakes.LookupFault(n)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// suitesOf lists the suites the specs live in, in run order.
func suitesOf(ids []string) []string {
	in := map[string]bool{}
	for _, id := range ids {
		if i, ok := suites.Lookup(id); ok {
			in[i.Suite] = true
		}
	}
	var out []string
	for _, s := range suites.SuiteNames {
		if in[s] {
			out = append(out, s)
		}
	}
	return out
}

// expectedVerdict is what a spec must report against a fault that breaks it:
// fail where the A2A text says MUST (or the spec is a scenario invariant),
// warn where it says SHOULD or MAY, and warn for a soft fault (one that
// breaks only a SHOULD part of a MUST spec).
func expectedVerdict(f fakes.FaultInfo, id string) reports.Verdict {
	if i, ok := suites.Lookup(id); f.Soft || ok && !i.Level.Strict() {
		return reports.Warn
	}
	return reports.Fail
}

// matrix is everything docs/fault-matrix.md says. Its Markdown depends only
// on the registries when every expectation held, so that a test can rebuild
// it without running anything (ExpectedMatrix) and catch a stale file.
type matrix struct {
	Clean    cleanResult
	Rows     []*faultRow
	Variants []*variantRow
	// Clients are the reference client driver's runs (matrix_clients.go).
	Clients []*clientRow
	// ClientVariants are its correct variants' runs (matrix_clientvariants.go).
	ClientVariants []*clientVariantRow
}

// cleanResult is the clean reference agent's run, reduced to what must not
// happen there.
type cleanResult struct {
	Specs int
	// Bad lists "ID verdict" for every fail and indeterminate; Err says why
	// the run gave no report.
	Bad []string
	Err string
}

type faultRow struct {
	Fault  fakes.FaultInfo
	Suites []string
	Run    *harnessRun
	Cells  []cell
	// Others are specs the fault did not name that failed or warned: printed,
	// never asserted (a fault may well break more than it was written for).
	Others []string
	Err    string
}

// cell is one named spec: the verdict it must give and the one it gave.
type cell struct {
	Spec      string
	Want, Got reports.Verdict
}

func judgeClean(r *harnessRun) cleanResult {
	c := cleanResult{Specs: len(suites.InSuites(suites.SuiteNames...))}
	if r.Err != nil {
		c.Err = r.Err.Error()
		return c
	}
	for _, res := range r.Report.Results {
		if res.Verdict == reports.Fail || res.Verdict == reports.Indeterminate {
			c.Bad = append(c.Bad, res.ID+" "+string(res.Verdict))
		}
	}
	return c
}

func (row *faultRow) judge() {
	var got map[string]reports.Verdict
	if row.Run != nil {
		if row.Run.Err != nil {
			row.Err = row.Run.Err.Error()
		}
		got = row.Run.Verdicts()
	}
	named := map[string]bool{}
	for _, id := range row.Fault.Specs {
		named[id] = true
		row.Cells = append(row.Cells, cell{Spec: id, Want: expectedVerdict(row.Fault, id), Got: got[id]})
	}
	var others []string
	for id, v := range got {
		if !named[id] && (v == reports.Fail || v == reports.Warn) {
			others = append(others, id+" "+string(v))
		}
	}
	sort.Strings(others)
	row.Others = others
}

// problems lists every expectation that did not hold, one line each, with the
// command that repeats the run.
func (m matrix) problems() []string {
	var out []string
	if m.Clean.Err != "" {
		out = append(out, "clean reference agent: "+m.Clean.Err)
	}
	for _, b := range m.Clean.Bad {
		out = append(out, "clean reference agent: "+b)
	}
	for _, row := range m.Variants {
		out = append(out, row.problems()...)
	}
	for _, row := range m.Rows {
		rerun := ""
		if row.Run != nil {
			rerun = " (" + row.Run.Rerun() + ")"
		}
		if row.Err != "" {
			out = append(out, row.Fault.Name+": "+row.Err+rerun)
			continue
		}
		for _, c := range row.Cells {
			if c.Got != c.Want {
				out = append(out, fmt.Sprintf("%s: %s gave %s, want %s%s", row.Fault.Name, c.Spec, orNone(c.Got), c.Want, rerun))
			}
		}
	}
	return out
}

func orNone(v reports.Verdict) string {
	if v == "" {
		return "no result"
	}
	return string(v)
}

// ExpectedMatrix is the table as it reads when every expectation holds: what
// the committed docs/fault-matrix.md must equal.
func ExpectedMatrix() string {
	m := matrix{Clean: cleanResult{Specs: len(suites.InSuites(suites.SuiteNames...))}}
	for _, f := range fakes.Faults() {
		row := &faultRow{Fault: f, Suites: suitesOf(f.Specs)}
		for _, id := range f.Specs {
			w := expectedVerdict(f, id)
			row.Cells = append(row.Cells, cell{Spec: id, Want: w, Got: w})
		}
		m.Rows = append(m.Rows, row)
	}
	for _, v := range Variants() {
		m.Variants = append(m.Variants, &variantRow{Variant: v})
	}
	m.Clients = expectedClientRows()
	for _, v := range clientdriver.Variants() {
		m.ClientVariants = append(m.ClientVariants, &clientVariantRow{Variant: v})
	}
	return m.Markdown()
}

// Markdown renders the table. Nothing in it varies between runs that meet
// every expectation (no seeds, times or dates); a broken expectation shows in
// bold with what was seen.
func (m matrix) Markdown() string {
	var b strings.Builder
	b.WriteString("# Fault matrix\n\n")
	b.WriteString("Written by `a2a-conform matrix`; do not edit. `go test ./internal/cli -run TestFaultMatrixIsCurrent`\n")
	b.WriteString("fails when this file no longer matches the fault and spec registries.\n\n")
	b.WriteString("Each registered fault of the reference agent (`fakes/fault_*.go`) runs against the suites its\n")
	b.WriteString("specs live in. Each spec it names must fail (MUST, INVARIANT) or warn (SHOULD, MAY). Other specs a\n")
	b.WriteString("fault happens to break are printed by the command, not listed here.\n\n")

	b.WriteString("## Clean reference agent\n\n")
	switch {
	case m.Clean.Err != "":
		fmt.Fprintf(&b, "Every suite (%d specs): **no report: %s**\n\n", m.Clean.Specs, m.Clean.Err)
	case len(m.Clean.Bad) > 0:
		fmt.Fprintf(&b, "Every suite (%d specs): **%s**\n\n", m.Clean.Specs, strings.Join(m.Clean.Bad, ", "))
	default:
		fmt.Fprintf(&b, "Every suite (%d specs): no fail, no indeterminate.\n\n", m.Clean.Specs)
	}
	b.WriteString("The clean agent is itself a replicated deployment of one correct kind: its instances share one store,\n")
	b.WriteString("each task's executor runs on the instance that holds the task's lease, any instance reads and writes\n")
	b.WriteString("any task in the store, and the executor reconciles with what another instance wrote (a cancel, a\n")
	b.WriteString("message) through the store's event log, which every instance tails (other processes' writes within\n")
	b.WriteString("its poll interval, 20 ms), and by reading the task again before each step. The rollout runs prove it\n")
	b.WriteString("on three embedded instances and the variants on two processes; no variant repeats it. The variant\n")
	b.WriteString("forward-to-owner is the other kind: replicas that forward every request about a task to its owner.\n\n")

	b.WriteString("## Faults and the specs that catch them\n\n")
	b.WriteString("| fault | scenario | suites run | spec: verdict |\n| --- | --- | --- | --- |\n")
	var none []*faultRow
	for _, row := range m.Rows {
		if len(row.Fault.Specs) == 0 {
			none = append(none, row)
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", row.Fault.Name, scenarioNumber(row.Fault.Scenario), strings.Join(row.Suites, ", "), line)
	}

	b.WriteString("\n## Caught by no spec\n\n")
	if len(none) == 0 {
		b.WriteString("None.\n")
	} else {
		m.writeUncaught(&b, none)
	}
	b.WriteString("\n")
	b.WriteString(clientsMarkdown(m.Clients))
	b.WriteString(clientVariantsMarkdown(m.ClientVariants))
	b.WriteString(variantsMarkdown(m.Variants))
	return b.String()
}

// writeUncaught lists the faults no spec names.
func (m matrix) writeUncaught(b *strings.Builder, none []*faultRow) {
	b.WriteString("A run with one of these faults on passes: no spec names them yet. They wait for the webhook and\n")
	b.WriteString("rollout suites (push delivery, several instances, restarts, rotations).\n\n")
	b.WriteString("| fault | scenario | what it breaks |\n| --- | --- | --- |\n")
	for _, row := range none {
		fmt.Fprintf(b, "| %s | %s | %s |\n", row.Fault.Name, scenarioNumber(row.Fault.Scenario), mdCell(row.Fault.Description))
	}
}

// scenarioNumber shortens "1-card-rotation-mid-task.md" to "1".
func scenarioNumber(s string) string {
	if s == "" {
		return "-"
	}
	n, _, _ := strings.Cut(s, "-")
	return n
}

// mdCell keeps text inside one Markdown table cell, and shows "<card
// scheme>" as text rather than as an HTML tag a renderer would drop.
func mdCell(s string) string {
	s = strings.NewReplacer("|", `\|`, "&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// keepShard keeps the child runs (and the rows they judge) whose names are
// in the shard; a fault row without a run (no spec names the fault) asserts
// nothing and is left to the unsharded matrix's table.
func keepShard(in func(string) bool, runs []*harnessRun, rows []*faultRow, crows []*clientRow,
	cvrows []*clientVariantRow, clean *harnessRun) ([]*harnessRun, []*faultRow, []*clientRow, []*clientVariantRow, *harnessRun) {
	keep := func(r *harnessRun) bool { return r != nil && in(filepath.Base(r.Out)) }
	var outRuns []*harnessRun
	for _, r := range runs {
		if keep(r) {
			outRuns = append(outRuns, r)
		}
	}
	if !keep(clean) {
		clean = nil
	}
	var outRows []*faultRow
	for _, row := range rows {
		if keep(row.Run) {
			outRows = append(outRows, row)
		}
	}
	var outC []*clientRow
	for _, row := range crows {
		if keep(row.Run) {
			outC = append(outC, row)
		}
	}
	var outCV []*clientVariantRow
	for _, row := range cvrows {
		if keep(row.Run) {
			outCV = append(outCV, row)
		}
	}
	return outRuns, outRows, outC, outCV, clean
}
