package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/loopback"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// variant is a correct reference agent that reads the spec another allowed
// way (fakes.Options' variants, exposed as `fake` flags), run on every suite
// through the process driver: separate `a2a-conform fake` processes sharing
// one SQLite file, rolled to the next generation by --agent-cmd-next. No
// spec may fail it.
type variant struct {
	Name string
	// Agent are the `fake` flags that make the variant; {hookport} is the
	// harness receiver's port, fixed per run.
	Agent string
	// Harness are further `run` flags the variant needs (its credentials,
	// a fixed receiver, its prompt map); {hookport} as above, {promptmap}
	// the prompt-map config the matrix writes.
	Harness []string
	// Why says what is different and which text allows it.
	Why string
	// Allowed names the specs that may end indeterminate or warn on this
	// variant, each with why: a warning the variant earns (a SHOULD it
	// really skips), or an indeterminate that does not blame it. Any other
	// indeterminate or warning is a problem, as is every fail: a reason
	// written by a spec's author cannot be trusted to tell blame apart, so
	// a human decides here, spec by spec, and the table prints it.
	// Could-not-run and not-applicable judge nothing and are only listed.
	Allowed map[string]string
}

// variantInstances is how many processes each variant runs as: enough for
// the rollout suite's cross-instance specs and rolls.
const variantInstances = 2

// variantTokens are the bearer tokens of the auth-every-request variant:
// the run's identity and the second one the scoping specs need.
var variantTokens = [2]string{"variant-token-a", "variant-token-b"}

// variantPromptMap is the harness config that drives a variant without the
// directive: the reference agent's own prompt phrases (fakes.DefaultPrompts,
// examples/reference-prompt-map.yaml), and fewer race trials, since each
// trial of a slow agent takes its steps' time.
const variantPromptMap = `no-directive: true
race-trials: 20
prompt-map:
  complete: "say hello"
  slow: "work slowly then complete"
  input-required: "ask me for input"
  auth-required: "require authorization"
  fail: "fail this task"
  reject: "reject this task"
  message: "reply with a message"
  artifacts: "stream three chunks"
`

// Variants lists the correct-variant rows of the matrix, in table order.
func Variants() []variant {
	return withAllowed([]variant{
		{Name: "slow-steps", Agent: "--delay 1s --prompt-map --no-directive", Harness: []string{"--config", "{promptmap}"},
			Why: "every step and reply takes 1 s, driven by prompt phrases instead of the directive, as an LLM-backed agent is"},
		{Name: "answers-late", Agent: "--answer-latency 1200ms",
			Why: "a non-blocking SendMessage is answered 1.2 s after it created the task, as by a loaded deployment: a 150 ms-step task has ended before the harness can cancel it, subscribe to it or give it a push config, and the harness must script a longer one rather than judge"},
		{Name: "push-queued", Agent: "--push-delay 3s",
			Why: "each push is delivered 3 s after its event by a queue-backed dispatcher (acknowledged first, delivered later)"},
		{Name: "push-queued-late", Agent: "--push-delay 12s",
			Why:     "each push is delivered 12 s after its event, later than the default 10 s patience: late is not lost",
			Allowed: latePushes("PUSH-003", "PUSH-004", "PUSH-005", "PUSH-006", "PUSH-007", "PUSH-008", "PUSH-009", "ROLL-003", "ROLL-004", "ROLL-009")},
		{Name: "push-backoff", Agent: "--push-retry-base 5s --push-retry-max 60s",
			Why: "a refused push is retried after 5 s, 10 s, 20 s …: exponential backoff (§13.2 SHOULD), slower than the default 250 ms"},
		{Name: "push-twice", Agent: "--push-twice",
			Why: "every push is delivered twice: delivery is at least once, receivers dedupe (§4.3.3)"},
		{Name: "push-terminal-only", Agent: "--push-terminal-only",
			Why: "only the terminal state is pushed: what triggers a push is up to the agent, no push is guaranteed per event (§4.3.3)"},
		{Name: "push-config-503", Agent: "--refuse-push-configs 1",
			Why: "each process answers its first push-config registration 503 with Retry-After, as scenario 2 advises an instance that cannot yet confirm one"},
		{Name: "webhook-allow-list", Agent: "--webhook-allow http://127.0.0.1:{hookport}/hook/",
			Harness: []string{"--webhook-listen", "127.0.0.1:{hookport}"},
			Why:     "refuses every loopback or private webhook URL but the harness receiver's with InvalidParams (§13.2 SSRF advice)"},
		{Name: "webhook-refuses-loopback", Agent: "--webhook-allow https://hooks.invalid/",
			Why: "refuses every loopback or private webhook URL, the harness receiver's included, with InvalidParams (§13.2 SSRF advice, as a2a-go v2.4.0 and later do by default): the push specs cannot be checked, and must say so rather than fail"},
		{Name: "push-dial-guard", Agent: "--push-dial-guard",
			Why: "acknowledges every webhook URL and refuses to connect to loopback or private addresses when it delivers, as a2a-go v2.4.0 does by default (§13.2 SSRF advice): the push specs cannot be checked and must say so, naming the URL to allow, and PUSH-010 reports the accepted-and-dropped webhooks as a finding"},
		{Name: "cancel-async", Agent: "--async-cancel 1s",
			Why: "CancelTask answers at once with the task still WORKING and the cancel is applied 1 s later, unless the task ended first (A2A v1.0.1 §3.1.5: the answer is the task's updated state and success is not guaranteed): only a terminal CANCELED answer acknowledges a cancel"},
		{Name: "purge-canceled", Agent: "--purge-canceled",
			Why: "a second cancel of a canceled task gets TaskNotFoundError, the task having been purged (§3.3.1: a duplicate cancel MAY)"},
		{Name: "one-stream-per-task", Agent: "--one-stream-per-task",
			Why: "refuses a second stream of a task while one is open (§3.5.2: an agent MAY serve several concurrent streams)"},
		{Name: "forward-to-owner", Agent: "--forward-to-owner",
			Why: "an instance that does not run a task passes every HTTP request about it (GetTask, CancelTask, SubscribeToTask, a message naming it, the push-config calls) to the instance that runs it, at the address that instance registered in the shared store, and relays the answer, streams included, as a2a-python PRs #1244/#1245 do; a task nobody runs, and every gRPC call, is served from the shared store"},
		{Name: "rate-limited-100rps", Agent: "--rate-limit 100",
			Why: "each process answers every binding request above 100 a second with 429 and Retry-After (gRPC RESOURCE_EXHAUSTED), as a rate-limited deployment does: a refusal says \"not now\", and the harness retries it as asked (§3.3.2: servers MAY include retry guidance)"},
		{Name: "sheds-1-in-40-503", Agent: "--shed-one-in 40",
			Why: "each process answers one binding request in 40 with 503 and Retry-After (gRPC UNAVAILABLE), as an instance shedding load does: a shed request is not a lost task, and the harness retries it as asked"},
		{Name: "warm-up", Agent: "--warm-up 3s",
			Why: "every process answers 503 with Retry-After for 3 s after it starts, rolled ones included"},
		{Name: "auth-every-request", Agent: "--auth-token " + variantTokens[0] + "," + variantTokens[1],
			Harness: []string{"--header", "Authorization: Bearer " + variantTokens[0], "--second-header", "Authorization: Bearer " + variantTokens[1]},
			Why:     "every binding request needs a bearer token (the card declares the scheme); a second token is another identity"},
		{Name: "plain-input-required", Agent: "--plain-input-required",
			Why: "a message with no directive and no prompt phrase ends INPUT_REQUIRED, a clarifying question (§4.1.3: interrupted states end a turn legitimately)"},
		{Name: "empty-skills", Agent: "--empty-skills",
			Why: `the card publishes "skills": [], as the spec's own §8.4.1 example card does`},
	})
}

// loopbackWarning is why the variants without an allow-list may warn on
// PUSH-010: they deliver to loopback URLs, which §13.2 advises refusing.
const loopbackWarning = "it delivers to loopback webhooks, which §13.2 advises refusing (a SHOULD it really skips, so that a harness on 127.0.0.1 receives)"

// withAllowed adds the allowances every variant of its kind shares.
func withAllowed(vs []variant) []variant {
	for i := range vs {
		if strings.Contains(vs[i].Agent, "--webhook-allow") {
			continue
		}
		if vs[i].Allowed == nil {
			vs[i].Allowed = map[string]string{}
		}
		vs[i].Allowed["PUSH-010"] = loopbackWarning
	}
	return vs
}

// latePushes allows the specs that wait for a push to end indeterminate
// when it comes after their patience: a delivery later than the patience is
// late, not lost (STYLE.md), and only loss the harness can prove is a
// violation.
func latePushes(ids ...string) map[string]string {
	m := map[string]string{}
	for _, id := range ids {
		m[id] = "its pushes arrive after the patience, late and not lost"
	}
	return m
}

// pickVariants returns the named variants, none when names is empty and
// all is false, every one when all is true.
func pickVariants(names []string, all bool) ([]variant, error) {
	if all {
		return Variants(), nil
	}
	var out []variant
	for _, n := range names {
		found := false
		for _, v := range Variants() {
			if v.Name == n {
				out, found = append(out, v), true
			}
		}
		if !found {
			var known []string
			for _, v := range Variants() {
				known = append(known, v.Name)
			}
			var cknown []string
			for _, v := range clientdriver.Variants() {
				cknown = append(cknown, v.Name)
			}
			return nil, fmt.Errorf("no variant %q (agent variants: %s; client variants: %s)", n, strings.Join(known, ", "), strings.Join(cknown, ", "))
		}
	}
	return out, nil
}

// variantRow is one variant's run and what it showed.
type variantRow struct {
	Variant variant
	Run     *harnessRun
	// Counts per verdict; NonPass is every result but a pass, by spec ID.
	Counts  map[reports.Verdict]int
	NonPass []reports.Result
	Err     string
}

// variantArgs is the `run` command line of a variant: the process driver
// starting exe as the agent, every suite.
func variantArgs(v variant, exe, hookPort, promptMap string) []string {
	fill := strings.NewReplacer("{hookport}", hookPort, "{promptmap}", promptMap)
	cmd := reports.ShellQuote(exe) + " fake --listen 127.0.0.1:{port} --store sqlite:{store} --name variant-{instance} --generation {generation}"
	if v.Agent != "" {
		cmd += " " + fill.Replace(v.Agent)
	}
	args := []string{"--agent-cmd", cmd, "--agent-cmd-next", cmd, "--instances", strconv.Itoa(variantInstances),
		"--suite", strings.Join(suites.SuiteNames, ",")}
	for _, h := range v.Harness {
		args = append(args, fill.Replace(h))
	}
	return args
}

// newVariantRun prepares a variant's child run in dir/variant-NAME.
func newVariantRun(v variant, dir string, seed int64) (*harnessRun, error) {
	exe, err := executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the a2a-conform binary to run as the agent: %w", err)
	}
	out := filepath.Join(dir, "variant-"+v.Name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	pm := filepath.Join(out, "prompt-map.yaml")
	if err := os.WriteFile(pm, []byte(variantPromptMap), 0o644); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	return &harnessRun{Args: variantArgs(v, exe, port, pm), Seed: seed, Out: out}, nil
}

// freePort is a loopback port free a moment ago, for a receiver the agent
// must be told about before the harness starts (the allow-list).
func freePort() (string, error) {
	ports, err := loopback.FreePorts(1)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(ports[0]), nil
}

func (row *variantRow) judge() { row.Counts, row.NonPass, row.Err = tally(row.Run) }

// tally counts a variant run's verdicts and lists every result but a pass,
// by spec ID; or says why the run gave no report.
func tally(run *harnessRun) (counts map[reports.Verdict]int, nonPass []reports.Result, errText string) {
	counts = map[reports.Verdict]int{}
	if run == nil {
		return counts, nil, ""
	}
	if run.Err != nil {
		return counts, nil, run.Err.Error()
	}
	for _, res := range run.Report.Results {
		counts[res.Verdict]++
		if res.Verdict != reports.Pass {
			nonPass = append(nonPass, res)
		}
	}
	sort.Slice(nonPass, func(i, j int) bool { return nonPass[i].ID < nonPass[j].ID })
	return counts, nonPass, ""
}

// problems lists what a correct variant must not get: no report, any fail,
// an indeterminate the variant does not name as allowed.
func (row *variantRow) problems() []string {
	rerun := ""
	if row.Run != nil {
		// Alone, a variant's run takes the base seed.
		rerun = fmt.Sprintf(" (a2a-conform matrix --variant %s --seed %d)", row.Variant.Name, row.Run.Seed)
	}
	if row.Err != "" {
		return []string{"variant " + row.Variant.Name + ": " + row.Err + rerun}
	}
	var out []string
	for _, res := range row.NonPass {
		if row.notAllowed(res) {
			out = append(out, fmt.Sprintf("variant %s: %s %s: %s%s", row.Variant.Name, res.ID, res.Verdict, shortReason(res.Reason, 300), rerun))
		}
	}
	return out
}

// unstable matches what differs between two runs that saw the same thing: a
// task or config id, a hook token, a loopback port, a measured time.
var unstable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`), "ID"},
	{regexp.MustCompile(`\b[0-9a-f]{16,}\b`), "ID"},
	{regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):[0-9]+`), "$1:PORT"},
	{regexp.MustCompile(`\b([0-9]+h)?([0-9]+m)?[0-9]+(\.[0-9]+)? ?(ns|µs|ms|s)\b`), "N s"},
}

// stableReason is a reason with what varies between runs replaced, so that
// the table reads the same after every run that saw the same verdicts.
func stableReason(s string) string {
	for _, u := range unstable {
		s = u.re.ReplaceAllString(s, u.with)
	}
	return s
}

// shortReason cuts a reason to its first n runes, on one line.
func shortReason(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// variantVerdicts are the count columns of the variants table, in order.
var variantVerdicts = []reports.Verdict{reports.Pass, reports.Warn, reports.NotApplicable, reports.CouldNotRun, reports.Indeterminate, reports.Fail}

// variantsMarkdown renders the correct-variant table. The first four cells
// of a row (variant, fake flags, harness flags, suites) and the list of what
// each variant does come from the registry; the counts, the specs not
// passed and the "Not passed" list come from the run (maskVariantRuns).
func variantsMarkdown(rows []*variantRow) string {
	var b strings.Builder
	b.WriteString(variantsHeading + "\n\n")
	b.WriteString("Each variant is the reference agent made different in a way the spec allows (`fakes/variants.go`,\n")
	fmt.Fprintf(&b, "`fakes/variant_*.go`), run on every suite through the process driver as %d `a2a-conform fake`\n", variantInstances)
	b.WriteString("processes sharing one SQLite store, rolled by `--agent-cmd-next`. No spec may fail a variant, nor\n")
	b.WriteString("warn or call it indeterminate unless the variant names that spec as allowed (bold when one did);\n")
	b.WriteString("every other verdict than pass is listed below the table with the start of its reason (ids, ports\n")
	b.WriteString("and measured times blanked). `a2a-conform matrix --variant NAME` reruns one.\n\n")
	b.WriteString("| variant | fake flags | harness flags | suites run | pass | warn | n/a | could-not-run | indeterminate | fail | not passed |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, row := range rows {
		v := row.Variant
		harness := "-"
		if len(v.Harness) > 0 {
			var q []string
			for _, h := range v.Harness {
				q = append(q, reports.ShellQuote(h))
			}
			harness = "`" + strings.Join(q, " ") + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |", v.Name, v.Agent, mdCell(harness), strings.Join(suites.SuiteNames, ", "))
		b.WriteString(variantRunCells(row))
		b.WriteString("\n")
	}
	b.WriteString("\n" + variantsWhyHeading + "\n\n")
	var loopback []string
	for _, row := range rows {
		fmt.Fprintf(&b, "- **%s**: %s.\n", row.Variant.Name, mdCell(row.Variant.Why))
		byWhy := map[string][]string{}
		for _, id := range sortedKeys(row.Variant.Allowed) {
			if why := row.Variant.Allowed[id]; why == loopbackWarning {
				loopback = append(loopback, row.Variant.Name)
			} else {
				byWhy[why] = append(byWhy[why], id)
			}
		}
		for _, why := range sortedKeys(byWhy) {
			fmt.Fprintf(&b, "  %s may warn or be indeterminate: %s.\n", strings.Join(byWhy[why], ", "), mdCell(why))
		}
	}
	if len(loopback) > 0 {
		fmt.Fprintf(&b, "\nPUSH-010 may warn on %s: %s.\n", strings.Join(loopback, ", "), mdCell(loopbackWarning))
	}
	b.WriteString("\n" + variantsRunHeading + "\n\n")
	b.WriteString(variantReasons(rows))
	return b.String()
}

// variantReasons lists every non-pass of the variants' runs once per spec,
// verdict and (blanked) reason, naming the variants that got it.
func variantReasons(rows []*variantRow) string {
	type key struct{ id, verdict, reason string }
	on := map[key][]string{}
	var keys []key
	ran := 0
	for _, row := range rows {
		if row.Run == nil || row.Err != "" {
			continue
		}
		ran++
		for _, res := range row.NonPass {
			k := key{res.ID, row.verdictText(res), mdCell(shortReason(stableReason(res.Reason), 160))}
			if on[k] == nil {
				keys = append(keys, k)
			}
			on[k] = append(on[k], row.Variant.Name)
		}
	}
	if len(keys) == 0 {
		return "Nothing: no run, or every spec passed.\n"
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].id != keys[j].id {
			return keys[i].id < keys[j].id
		}
		return strings.Join(on[keys[i]], ",") < strings.Join(on[keys[j]], ",")
	})
	var b strings.Builder
	for _, k := range keys {
		who := strings.Join(on[k], ", ")
		if len(on[k]) == ran && ran > 1 {
			who = "every variant"
		}
		fmt.Fprintf(&b, "- %s %s on %s: %s\n", k.id, k.verdict, who, k.reason)
	}
	return b.String()
}

// The variants section's headings; maskVariantRuns finds its parts by them.
const (
	variantsHeading    = "## Correct variants"
	variantsWhyHeading = "### What each variant does differently"
	variantsRunHeading = "### Not passed in the last run"
)

// notAllowed reports whether a correct variant may not get this result: a
// fail, or a warning or indeterminate the variant does not name.
func (row *variantRow) notAllowed(res reports.Result) bool {
	return disallowed(row.Variant.Allowed, res)
}

// verdictText is a result's verdict, in bold when the variant may not get it.
func (row *variantRow) verdictText(res reports.Result) string {
	return markVerdict(row.notAllowed(res), res)
}

// disallowed says whether a correct variant (agent or client) whose
// allowances are allowed may not get res: a fail always, a warning or an
// indeterminate unless allowed names its spec.
func disallowed(allowed map[string]string, res reports.Result) bool {
	_, ok := allowed[res.ID]
	switch res.Verdict {
	case reports.Fail:
		return true
	case reports.Warn, reports.Indeterminate:
		return !ok
	}
	return false
}

// markVerdict is a verdict for the tables, in bold when it is not allowed.
func markVerdict(notAllowed bool, res reports.Result) string {
	if notAllowed {
		return "**" + string(res.Verdict) + "**"
	}
	return string(res.Verdict)
}

// variantRunCells are a row's cells that need a run, each with its leading
// space and trailing bar.
func variantRunCells(row *variantRow) string {
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
	if len(np) == 0 {
		b.WriteString(" none |")
	} else {
		b.WriteString(" " + strings.Join(np, ", ") + " |")
	}
	return b.String()
}

// maskVariantRuns blanks what the last run saw in the variants sections,
// the agent's and the client's (the tables' run cells, the "Not passed"
// lists), so that the staleness test compares only what the registries
// decide: names, flags, suites, the specs named, and what each variant does.
func maskVariantRuns(doc string) string {
	lines := strings.Split(doc, "\n")
	var out []string
	keep, run := 0, false // keep: the registry's cells of a row in this section
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "## "):
			keep, run = 0, false
			switch l {
			case variantsHeading:
				keep = 4
			case clientVariantsHeading:
				keep = 2
			}
		case keep > 0 && strings.HasPrefix(l, "### "):
			run = l == variantsRunHeading || l == clientVariantsRunHeading
			out = append(out, l)
			continue
		}
		switch {
		case run:
			continue
		case keep > 0 && strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| variant |") && !strings.HasPrefix(l, "| client variant |") && !strings.HasPrefix(l, "| --- |"):
			cells := splitRow(l)
			if len(cells) > keep {
				cells = cells[:keep]
			}
			l = "| " + strings.Join(cells, " | ") + " | (run) |"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// splitRow splits a Markdown table row on the bars that are not escaped.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' && i+1 < len(l) {
			cur.WriteByte(l[i])
			cur.WriteByte(l[i+1])
			i++
			continue
		}
		if l[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(l[i])
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// summary is one line for the console: counts, then every non-pass.
func (row *variantRow) summary() string {
	return runSummary(row.Err, row.Run, row.Counts, row.NonPass)
}

// runSummary is a variant run's console line, agent or client: counts,
// then every non-pass (or why there is no report).
func runSummary(err string, run *harnessRun, counts map[reports.Verdict]int, nonPass []reports.Result) string {
	if err != "" {
		return "no report: " + err
	}
	var parts []string
	for _, v := range variantVerdicts {
		if n := counts[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	s := strings.Join(parts, ", ") + fmt.Sprintf(" in %.0fs", run.Took.Seconds())
	for _, res := range nonPass {
		s += fmt.Sprintf("\n    %s %s: %s", res.ID, res.Verdict, shortReason(res.Reason, 200))
	}
	return s
}
