package reports

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// Display caps for report.html. The page has to stay small enough to open
// and mail around; everything cut is still in report.json, and the page says
// so where it cuts.
const (
	htmlMaxExchanges   = 16      // per spec
	htmlMaxBody        = 3 << 10 // per request or response body
	htmlMaxEvents      = 40      // SSE events per exchange
	htmlMaxEventData   = 512     // bytes per SSE event
	htmlMaxHeaderLines = 40      // per header block
	htmlMaxHeaderValue = 512     // bytes per header value
	htmlMaxViolations  = 50      // per spec
	htmlMaxObservation = 50      // per spec
	htmlMaxReason      = 8 << 10 // per spec
	htmlMaxField       = 2 << 10 // any other single vendor-controlled string
	htmlMaxCard        = 64 << 10
	// htmlTranscriptBudget bounds the transcript text of the whole page; once
	// spent, later specs show a note instead of their transcript.
	htmlTranscriptBudget = 2 << 20
)

//go:embed assets
var assets embed.FS

var (
	pageStyle      = mustAsset("assets/style.css")
	reportScript   = mustAsset("assets/report.js")
	scorecardJS    = mustAsset("assets/scorecard.js")
	reportTemplate = template.Must(template.New("report").Parse(mustAsset("assets/report.html.tmpl")))
)

func mustAsset(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: absent only if the build is broken
	}
	return string(b)
}

// contentPolicy allows exactly the page's own inline style and script, by
// hash, and nothing else: no network, no other script. Escaping is the first
// defence against vendor-controlled text; this is the second.
func contentPolicy(style, script string) string {
	h := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return "default-src 'none'; style-src " + h(style) + "; script-src " + h(script) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
}

// WriteHTML writes report.html: one self-contained page (inline CSS and
// script, no external assets, works from file://) that shows the score with its
// denominator, summaries, a filterable table of specs with an anchor per spec
// ID, and for each spec that did not pass its reason, violations, observations
// and a capped wire transcript. Every string from the report is escaped by
// html/template; the page's content policy runs only its own script.
func WriteHTML(path string, r *Report) error { return WriteHTMLWith(path, r, HTMLOptions{}) }

// WriteHTMLWith is WriteHTML with the views of o added.
func WriteHTMLWith(path string, r *Report, o HTMLOptions) error {
	b, err := renderHTML(r, o)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

func renderHTML(r *Report, o HTMLOptions) ([]byte, error) {
	v := buildReportView(r)
	v.Diff = buildDiffView(o.Diff)
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("report.html: %w", err)
	}
	return b.Bytes(), nil
}

type kv struct{ K, V string }

type reportView struct {
	R              *Report
	S              Summary
	CSP            string
	Style          template.CSS
	Script         template.JS
	Title          string
	Meta           []kv
	Headline       string
	HeadlineRule   string
	Bar            []barSegment
	BySuite        countsTable
	ByLevel        countsTable
	VerdictFilters []verdictFilter
	Suites         []string
	LevelNames     []string
	Rows           []specRow
	Card           string
	CardSize       string
	// Failures lists every fail and warn first, each linked to its spec.
	Failures []failureLink
	// Diff is what changed since a previous report (HTMLOptions.Diff).
	Diff *diffView
}

type failureLink struct {
	ID, Title    string
	Class, Label string
}

type barSegment struct {
	X, W        string
	Fill, Label string
}

type verdictFilter struct {
	Verdict      Verdict
	Class, Label string
	N            int
}

type countsHead struct {
	Verdict      Verdict
	Class, Label string
}

type countsRow struct {
	Name  string
	Cells []int
	Score string
}

type countsTable struct {
	Head []countsHead
	Rows []countsRow
}

type specRow struct {
	ID, Level, Title, Suite string
	Verdict                 Verdict
	Class, Label, Time      string
	Sections, Scenario      string
	TCK, TCKLevel           string
	HasDetail               bool
	Reason                  string
	Unchecked               []string
	Findings                []string
	Violations              []violationView
	ViolationsCut           int
	Observations            []kv
	ObservationsCut         int
	TranscriptNote          string
	Exchanges               []exchangeView
	ExchangesCut            int
	ExchangeSummary         string
	// Judges says what of the client a client spec's verdict rests on
	// (Result.Judges), under its title.
	Judges string
	// Basis is what the level rests on, shown under the reason of every
	// verdict but pass: the A2A text word for word, the reading, the
	// scenario, and where the spec differs from an upstream suite.
	Basis *basisView
	// Attempts says how the re-runs of run --retry-unexpected came out.
	Attempts string
	// Reproduce re-runs this spec alone with the run's own flags and seed.
	Reproduce string
	// Replay is the command that re-drives a fail's replay bundle, and
	// ReplayNone why a fail has none (Result.Replay).
	Replay, ReplayNone string
}

type basisView struct {
	Quotes    []quoteView
	Reading   string
	Scenario  string
	Disagrees []string
}

type quoteView struct{ Cite, Text string }

func buildBasisView(b *Basis) *basisView {
	if b == nil {
		return nil
	}
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	v := &basisView{Reading: f(b.Reading)}
	for _, q := range b.Quotes {
		v.Quotes = append(v.Quotes, quoteView{Cite: f(q.Cite()), Text: f(q.Text)})
	}
	if b.Scenario != nil {
		v.Scenario = f("Scenario " + b.Scenario.Number + ": \u201c" + b.Scenario.Text + "\u201d")
	}
	for _, d := range b.Disagrees {
		v.Disagrees = append(v.Disagrees, f(d.Upstream+" asserts "+d.Asserts+"; here, "+d.Why+"."))
	}
	return v
}

type exchangeView struct {
	Seq   int
	Cited bool
	// Again is a standalone command that sends the request again
	// (curl, grpcurl), secrets as variables.
	Again                 string
	At, Dur, Dir          string
	Method, URL           string
	Status, StatusClass   string
	Instance, Error       string
	ReqHeaders, ReqBody   string
	RespHeaders, RespBody string
	Events                []eventView
	EventCount, EventsCut int
	Truncated             bool
	size                  int
}

type eventView struct{ At, Data string }

// barFill matches the verdict colours of style.css.
var barFill = map[Verdict]string{
	Pass: "#2da44e", Warn: "#d4a72c", Fail: "#cf222e", CouldNotRun: "#a475f9", Indeterminate: "#54aeff",
}

func buildReportView(r *Report) *reportView {
	s := SummarizeReport(r)
	v := &reportView{
		R:      r,
		S:      s,
		CSP:    contentPolicy(pageStyle, reportScript),
		Style:  template.CSS(pageStyle),
		Script: template.JS(reportScript),
	}
	name := cutUTF8(r.Implementation.Name, 200)
	v.Title = fmt.Sprintf("A2A conformance: %s — %d/%d", strings.TrimSpace(name+" "+cutUTF8(r.Implementation.Version, 60)), s.Score.Passed, s.Score.Denominator)
	v.Meta = reportMeta(r)
	v.Headline, v.HeadlineRule = headline(s, r.Run.Unreachable)
	if why := PartialReasons(r, nil); len(why) > 0 {
		v.Headline = "Partial run: " + v.Headline
		v.HeadlineRule += " This report is partial (" + strings.Join(why, "; ") + "): its score covers only what ran, and a scorecard counts every spec it did not run as not passed."
	}
	v.Bar = scoreBar(s, r.Run.Unreachable)
	v.BySuite = countsFor(s.BySuite, sortedKeys(s.BySuite))
	v.ByLevel = countsFor(s.ByLevel, levelOrder(s.ByLevel))
	for _, vd := range Verdicts {
		if n := s.ByVerdict[vd]; n > 0 {
			v.VerdictFilters = append(v.VerdictFilters, verdictFilter{vd, verdictClass(vd), verdictLabel(vd), n})
		}
	}
	v.Suites = sortedKeys(s.BySuite)
	v.LevelNames = levelOrder(s.ByLevel)

	budget := htmlTranscriptBudget
	// Failures first: the first screens of a failing run show what failed.
	results := slices.Clone(r.Results)
	slices.SortStableFunc(results, func(a, b Result) int { return verdictRank(a.Verdict) - verdictRank(b.Verdict) })
	for _, res := range results {
		row := buildSpecRow(res, &budget)
		if res.Verdict != Pass && res.Verdict != NotApplicable {
			row.Reproduce = reproduceCommand(r, res.ID)
		}
		if n := res.Replay; n != nil {
			if n.Bundle != "" {
				row.Replay = "a2a-conform replay " + ShellQuote(n.Bundle) + " --target [ROLE=]URL… [--hook-POINT COMMAND]…"
			} else {
				row.ReplayNone = "No replay bundle: " + n.None + "."
			}
		}
		if res.Verdict == Fail || res.Verdict == Warn {
			v.Failures = append(v.Failures, failureLink{ID: row.ID, Title: row.Title, Class: row.Class, Label: row.Label})
		}
		v.Rows = append(v.Rows, row)
	}
	if len(r.Card) > 0 {
		card := prettyJSON(string(r.Card), 4*htmlMaxCard)
		v.CardSize = byteSize(len(r.Card))
		v.Card = capText(card, htmlMaxCard)
	}
	return v
}

func reportMeta(r *Report) []kv {
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	m := []kv{
		{"Implementation", strings.TrimSpace(f(r.Implementation.Name) + " " + f(r.Implementation.Version))},
	}
	add := func(k, val string) {
		if strings.TrimSpace(val) != "" {
			m = append(m, kv{k, val})
		}
	}
	if r.Run.Mode == "client" || r.Implementation.Role == "client" {
		add("Run", "client run: the harness served a scripted agent and judged this client's driver (docs/client-driver.md)")
	}
	add("Implementation URL", f(r.Implementation.URL))
	add("Target", f(r.Run.Target))
	add("Harness", strings.TrimSpace(f(r.Harness.Name)+" "+f(r.Harness.Version)))
	add("Protocol", f(r.ProtocolVersion))
	add("Topology", f(r.Run.Topology))
	add("Seed", strconv.FormatInt(r.Run.Seed, 10))
	if !r.Run.Start.IsZero() {
		add("Started", r.Run.Start.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	add("Duration", formatMs(float64(r.Run.DurationMs)))
	add("Suites", f(strings.Join(r.Run.Suites, ", ")))
	add("Label filter", f(r.Run.LabelFilter))
	add("Focus", f(strings.Join(r.Run.Focus, ", ")))
	add("Faults injected", f(strings.Join(r.Run.Faults, ", ")))
	add("Notes", f(strings.Join(r.Run.Notes, " · ")))
	return m
}

// headline states the score the way DESIGN.md demands: with its denominator
// and with what counted against it.
func headline(s Summary, unreachable bool) (string, string) {
	parts := []string{fmt.Sprintf("%d of %d passed", s.Score.Passed, s.Score.Denominator)}
	for _, p := range []struct {
		v    Verdict
		text string
	}{{Fail, "failed"}, {Warn, "warned (a SHOULD not met)"}, {CouldNotRun, "could not run"}, {Indeterminate, "indeterminate"}} {
		if n := s.ByVerdict[p.v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, p.text))
		}
	}
	if s.Partial > 0 {
		parts = append(parts, fmt.Sprintf("%d with parts of the requirement unchecked", s.Partial))
	}
	if s.Findings > 0 {
		parts = append(parts, fmt.Sprintf("%d with findings (allowed, but worth knowing)", s.Findings))
	}
	rule := "Only pass counts as passed: fail, warn, could-not-run and indeterminate are in the denominator as not passed. A spec that could not check every part of its title is never a pass."
	if n := s.ByVerdict[NotApplicable]; n > 0 {
		rule += fmt.Sprintf(" %d not applicable (capability not advertised) %s left out of the denominator.", n, plural(n, "is", "are"))
	}
	if unreachable {
		rule += " The target was unreachable, so nothing counts as passed."
	}
	return strings.Join(parts, "; "), rule
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func scoreBar(s Summary, unreachable bool) []barSegment {
	if s.Score.Denominator == 0 {
		return nil
	}
	var segs []barSegment
	x := 0.0
	for _, vd := range []Verdict{Pass, Warn, Fail, CouldNotRun, Indeterminate} {
		n := s.ByVerdict[vd]
		if vd == Pass && unreachable {
			n = 0
		}
		if n == 0 {
			continue
		}
		w := 1000 * float64(n) / float64(s.Score.Denominator)
		segs = append(segs, barSegment{
			X: strconv.FormatFloat(x, 'f', 1, 64), W: strconv.FormatFloat(w, 'f', 1, 64),
			Fill: barFill[vd], Label: fmt.Sprintf("%d %s", n, vd),
		})
		x += w
	}
	return segs
}

func countsFor(m map[string]map[Verdict]int, order []string) countsTable {
	var t countsTable
	for _, vd := range Verdicts {
		t.Head = append(t.Head, countsHead{vd, verdictClass(vd), shortLabel(vd)})
	}
	for _, k := range order {
		c := m[k]
		row := countsRow{Name: cutUTF8(k, 80)}
		if row.Name == "" {
			row.Name = "(none)"
		}
		passed, denom := 0, 0
		for _, vd := range Verdicts {
			row.Cells = append(row.Cells, c[vd])
		}
		for vd, n := range c {
			if vd != NotApplicable {
				denom += n
			}
			if vd == Pass {
				passed += n
			}
		}
		row.Score = fmt.Sprintf("%d/%d", passed, denom)
		t.Rows = append(t.Rows, row)
	}
	return t
}

func shortLabel(v Verdict) string {
	switch v {
	case NotApplicable:
		return "– n/a"
	case CouldNotRun:
		return "⊘ couldn't run"
	case Indeterminate:
		return "? indet."
	}
	return verdictLabel(v)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// levelOrder lists the known levels first in their fixed order, then any
// other level found, sorted.
func levelOrder(m map[string]map[Verdict]int) []string {
	var out []string
	for _, l := range Levels {
		if _, ok := m[l]; ok {
			out = append(out, l)
		}
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(Levels, k) {
			out = append(out, k)
		}
	}
	return out
}

func buildSpecRow(res Result, budget *int) specRow {
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	row := specRow{
		ID: f(res.ID), Level: f(res.Level), Title: f(res.Title), Suite: f(res.Suite),
		Verdict: Verdict(f(string(res.Verdict))), Class: verdictClass(res.Verdict), Label: verdictLabel(res.Verdict),
		Time:     formatMs(float64(res.DurationMs)),
		Sections: f(strings.Join(res.Sections, ", ")),
		TCK:      f(strings.Join(res.TCK, ", ")),
		TCKLevel: f(res.TCKLevel),
		Judges:   f(res.Judges.Text()),
	}
	obs := slices.Sorted(maps.Keys(res.Observations))
	for i, k := range obs {
		if i == htmlMaxObservation {
			row.ObservationsCut = len(obs) - i
			break
		}
		row.Observations = append(row.Observations, kv{f(k), f(res.Observations[k])})
	}
	for i, fd := range res.Findings {
		if i == htmlMaxViolations {
			break
		}
		row.Findings = append(row.Findings, f(fd))
	}
	if res.Verdict == Pass {
		row.Reason = capText(res.Reason, htmlMaxReason)
		row.HasDetail = len(row.Observations) > 0 || row.Reason != "" || len(row.Findings) > 0
		if row.HasDetail && len(res.Transcript) > 0 {
			row.TranscriptNote = fmt.Sprintf("Transcript of %d exchanges left out for passing specs; it is in report.json.", len(res.Transcript))
			if res.TranscriptOmitted > 0 {
				row.TranscriptNote = fmt.Sprintf("Transcript of %d exchanges left out for passing specs; report.json keeps the first %d of them.",
					len(res.Transcript)+res.TranscriptOmitted, len(res.Transcript))
			}
		}
		return row
	}
	row.HasDetail = true
	row.Reason = capText(res.Reason, htmlMaxReason)
	row.Basis = buildBasisView(res.Basis)
	if len(res.Attempts) > 0 {
		row.Attempts = attemptsText(res)
	}
	for i, u := range res.Unchecked {
		if i == htmlMaxViolations {
			break
		}
		row.Unchecked = append(row.Unchecked, f(u))
	}
	row.Scenario = f(res.Scenario)
	cited := map[int]bool{}
	for i, vi := range res.Violations {
		if i == htmlMaxViolations {
			row.ViolationsCut = len(res.Violations) - i
			break
		}
		vv := violationView{Violation: invariants.Violation{
			Invariant: f(vi.Invariant), Where: f(vi.Where), Expected: f(vi.Expected), Actual: f(vi.Actual),
		}}
		for _, n := range citedSeqs(vi.Where + " " + vi.Expected + " " + vi.Actual) {
			if !cited[n] {
				cited[n] = true
			}
			vv.Cites = append(vv.Cites, n)
		}
		row.Violations = append(row.Violations, vv)
	}
	if len(res.Transcript) == 0 {
		return row
	}
	if *budget <= 0 {
		row.TranscriptNote = fmt.Sprintf("Transcript of %d exchanges left out: this page's transcript budget is spent. It is in report.json.", len(res.Transcript))
		return row
	}
	// The exchanges a violation cites are always shown, however many
	// others are cut; the rest fill up to the cap in order.
	shown := 0
	for _, ex := range res.Transcript {
		isCited := cited[ex.Seq]
		if !isCited && (shown >= htmlMaxExchanges || *budget <= 0) {
			row.ExchangesCut++
			continue
		}
		xv := buildExchange(ex)
		xv.Cited = isCited
		*budget -= xv.size
		row.Exchanges = append(row.Exchanges, xv)
		if !isCited {
			shown++
		}
	}
	row.ExchangeSummary = fmt.Sprintf("%d %s", len(res.Transcript), plural(len(res.Transcript), "exchange", "exchanges"))
	if row.ExchangesCut > 0 {
		row.ExchangeSummary += fmt.Sprintf(", %d shown (the first, and every one a violation cites)", len(row.Exchanges))
	}
	return row
}

type violationView struct {
	invariants.Violation
	// Cites are the transcript exchanges (#seq) the violation names.
	Cites []int
}

var seqRef = regexp.MustCompile(`#(\d{1,9})\b`)

// citedSeqs lists the run-wide exchange numbers ("GetTask #27") a text
// cites, in order, once each.
func citedSeqs(text string) []int {
	var out []int
	for _, m := range seqRef.FindAllStringSubmatch(text, 64) {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// verdictRank orders the spec table: what needs reading first.
func verdictRank(v Verdict) int {
	switch v {
	case Fail:
		return 0
	case Warn:
		return 1
	case Indeterminate:
		return 2
	case CouldNotRun:
		return 3
	case Pass:
		return 5
	case NotApplicable:
		return 6
	}
	return 4
}

// reproduceCommand re-runs one spec alone with the run's own flags and seed
// (Run.Args; header values come from the environment, never the report).
func reproduceCommand(r *Report, id string) string {
	words := []string{"a2a-conform", "run"}
	for _, a := range r.Run.Args {
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--focus", "--suite", "--label-filter", "--seed", "--expect", "--retry-unexpected":
			continue
		}
		words = append(words, ShellQuote(a))
	}
	words = append(words, "--focus", ShellQuote(id), "--seed", strconv.FormatInt(r.Run.Seed, 10))
	cmd := strings.Join(words, " ")
	if r.Run.HasHeaders {
		cmd = "# with the run's headers in $A2A_CONFORM_HEADERS (and $A2A_CONFORM_SECOND_HEADERS)\n" + cmd
	}
	return cutUTF8(cmd, htmlMaxField)
}

// ShellQuote quotes s for a POSIX shell unless it is plainly safe (the
// reproduce commands here, and the CLI's child command lines).
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func buildExchange(ex Exchange) exchangeView {
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	xv := exchangeView{
		Seq: ex.Seq, At: formatStamp(ex.AtMs), Dur: formatMs(ex.DurMs),
		Method: f(ex.Method), URL: f(ex.URL), Instance: f(ex.Instance),
		Error:     capText(ex.Error, htmlMaxField),
		Truncated: ex.Truncated,
	}
	// A command is only worth showing whole: a request whose body the page
	// would cut is re-sent from report.json instead.
	if len(ex.ReqBody) <= htmlMaxBody && !ex.Truncated {
		xv.Again = ReproduceExchange(ex)
	}
	if ex.Direction == "in" {
		xv.Dir = "webhook in"
	}
	switch {
	case ex.Status == 0:
		xv.Status, xv.StatusClass = "no response", "err"
	case ex.Status >= 400:
		xv.Status, xv.StatusClass = strconv.Itoa(ex.Status), "err"
	default:
		xv.Status, xv.StatusClass = strconv.Itoa(ex.Status), "ok"
	}
	xv.ReqHeaders = headerText(ex.ReqHeader, htmlMaxHeaderLines, htmlMaxHeaderValue)
	xv.RespHeaders = headerText(ex.RespHeader, htmlMaxHeaderLines, htmlMaxHeaderValue)
	xv.ReqBody = capText(prettyJSON(ex.ReqBody, 4*htmlMaxBody), htmlMaxBody)
	xv.RespBody = capText(prettyJSON(ex.RespBody, 4*htmlMaxBody), htmlMaxBody)
	xv.EventCount = len(ex.Events)
	for i, e := range ex.Events {
		if i == htmlMaxEvents {
			xv.EventsCut = len(ex.Events) - i
			break
		}
		d := capText(e.Data, htmlMaxEventData)
		xv.Events = append(xv.Events, eventView{At: formatStamp(e.AtMs), Data: d})
		xv.size += len(d)
	}
	xv.size += len(xv.Again)
	xv.size += len(xv.ReqHeaders) + len(xv.RespHeaders) + len(xv.ReqBody) + len(xv.RespBody) + len(xv.URL) + len(xv.Error)
	return xv
}

func byteSize(n int) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}
