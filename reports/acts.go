package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The ACTS report: the JSON report format of the A2A Conformance Test
// Specification draft (a2aproject/A2A, docs/acts-specification.md §13 at
// commit b2a780a0 on the conformance-spec branch, PR #1882), one file per
// transport, named acts-report-{sdk}-{transport}-{timestamp}.json (§13.5).
// schemas/acts-report.schema.json transcribes the draft's CDDL (§13.1–13.3)
// into JSON Schema; TestACTSReportMatchesTheDraftSchema validates what this
// file writes against it. docs/report-format.md "ACTS report" says how our
// verdicts map onto ACTS results.

// ACTSVersion is the acts_version the reports declare: the value the draft's
// own example report (§13.4) and test files carry. The draft's header calls
// the document "Version 0.1.0 (Draft)".
const ACTSVersion = "1.0"

// A spec is reported under the draft's test IDs where it checks the same
// requirement (ACTSTests, acts_map.go; docs/acts-mapping.md), and under its
// own ID otherwise, which no ACTS test uses (ours have no three-part
// CATEGORY-AREA-NNN form).

type actsReport struct {
	ACTSVersion string            `json:"acts_version"`
	SpecVersion string            `json:"spec_version"`
	GeneratedAt string            `json:"generated_at"`
	SDK         actsSDK           `json:"sdk"`
	Transport   string            `json:"transport"`
	Environment map[string]string `json:"environment,omitempty"`
	Summary     actsSummary       `json:"summary"`
	Suites      []actsSuite       `json:"suites"`
}

type actsSDK struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
}

type actsLevel struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

type actsSummary struct {
	actsLevel
	DurationMs int64                `json:"duration_ms"`
	ByLevel    map[string]actsLevel `json:"by_level"`
}

type actsSuite struct {
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Tests []actsTest `json:"tests"`
}

type actsTest struct {
	ID         string       `json:"id"`
	Name       string       `json:"name"`
	Level      string       `json:"level"`
	Result     string       `json:"result"`
	DurationMs int64        `json:"duration_ms"`
	SkipReason string       `json:"skip_reason,omitempty"`
	Failure    *actsFailure `json:"failure,omitempty"`
}

type actsFailure struct {
	Message string `json:"message"`
}

// actsResult maps a verdict onto ACTS's four results. A warn is a SHOULD
// not met: ACTS's "fail" at level "should". Not-applicable is "skip" (its
// precondition, a capability the card does not declare, is not met).
// Could-not-run and indeterminate are "error" — the runner could not decide
// — never "skip": ACTS excludes skipped tests from conformance, and neither
// of ours is a pass.
func actsResult(v Verdict) string {
	switch v {
	case Pass:
		return "pass"
	case Fail, Warn:
		return "fail"
	case NotApplicable:
		return "skip"
	}
	return "error"
}

// actsLevelOf maps our level: an INVARIANT is a MUST (docs/levels.md).
func actsLevelOf(level string) string {
	switch strings.ToUpper(level) {
	case "SHOULD":
		return "should"
	case "MAY":
		return "may"
	}
	return "must"
}

// ACTS transports and the card's protocolBinding of each.
var actsTransports = []struct{ name, binding string }{{"jsonrpc", "JSONRPC"}, {"grpc", "GRPC"}, {"rest", "HTTP+JSON"}}

// WriteACTS writes one ACTS report per transport the card declares into dir
// and returns their paths. A result is in the report of every transport its
// transcript spoke; one that spoke none (the card fetch, a could-not-run
// before any call) is in every one, as an ACTS test without a transport
// filter is. A spec that checks several bindings gives one verdict, which
// each of their reports carries. A report without a card (the target was
// unreachable) names no transport and gets none.
func WriteACTS(dir string, r *Report, now time.Time) ([]string, error) {
	docs := ACTSReports(r, now)
	var files []string
	for _, d := range docs {
		b, err := json.MarshalIndent(d.doc, "", "  ")
		if err != nil {
			return files, err
		}
		p := filepath.Join(dir, d.name)
		if err := writeFileAtomic(p, append(b, '\n')); err != nil {
			return files, err
		}
		files = append(files, p)
	}
	return files, nil
}

type actsFile struct {
	name string
	doc  actsReport
}

var slugRE = regexp.MustCompile(`[^a-z0-9.]+`)

func slug(s string) string {
	s = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if s == "" {
		s = "agent"
	}
	return cutText(s, 60)
}

// ACTSReports builds the ACTS reports of r (WriteACTS) with their names.
func ACTSReports(r *Report, now time.Time) []actsFile {
	ifaces := cardInterfaces(r.Card)
	declared := map[string]bool{}
	for _, i := range ifaces {
		declared[i.transport] = true
	}
	byTransport := map[string][]Result{}
	for _, res := range r.Results {
		spoke := transportsOf(res, ifaces)
		for _, t := range actsTransports {
			if !declared[t.name] {
				continue
			}
			if len(spoke) == 0 || spoke[t.name] {
				byTransport[t.name] = append(byTransport[t.name], res)
			}
		}
	}
	sdk := actsSDK{Name: r.Implementation.Name, Version: r.Implementation.Version, Language: "unknown"}
	if sdk.Name == "" {
		sdk.Name = "unknown"
	}
	if sdk.Version == "" {
		sdk.Version = "unknown"
	}
	stamp := now.UTC().Format("20060102T150405Z")
	env := map[string]string{
		"runner":      r.Harness.Name + " " + r.Harness.Version,
		"seed":        fmt.Sprint(r.Run.Seed),
		"topology":    r.Run.Topology,
		"source":      "report.json",
		"source_note": "derived from the a2a-conform report whose digest is source_digest; the SDK's language is not known to the harness",
	}
	if r.Digest != "" {
		env["source_digest"] = r.Digest
	}
	if r.Run.Interrupted != "" {
		env["interrupted"] = r.Run.Interrupted
	}
	var out []actsFile
	for _, t := range actsTransports {
		results := byTransport[t.name]
		if len(results) == 0 {
			continue
		}
		doc := actsReport{
			ACTSVersion: ACTSVersion, SpecVersion: r.ProtocolVersion, GeneratedAt: now.UTC().Format(time.RFC3339),
			SDK: sdk, Transport: t.name, Environment: env,
			Summary: actsSummary{DurationMs: r.Run.DurationMs, ByLevel: map[string]actsLevel{"must": {}, "should": {}, "may": {}}},
		}
		if doc.SpecVersion == "" {
			doc.SpecVersion = "1.0"
		}
		suiteIdx := map[string]int{}
		for _, res := range results {
			test := actsTest{ID: res.ID, Name: res.Title, Level: actsLevelOf(res.Level), Result: actsResult(res.Verdict), DurationMs: res.DurationMs}
			switch {
			case test.Result == "skip":
				test.SkipReason = nonEmpty(res.Reason, "not applicable")
			case test.Result != "pass":
				test.Failure = &actsFailure{Message: string(res.Verdict) + ": " + nonEmpty(res.Reason, "no reason recorded")}
			}
			// A mapped spec is each of its ACTS tests this transport runs,
			// with one verdict; its level is the draft's (they agree).
			tests := []actsTest{test}
			if mapped := actsTestsFor(res.ID, t.name); len(mapped) > 0 {
				tests = tests[:0]
				for _, m := range mapped {
					mt := test
					mt.ID, mt.Name = m.ID, m.Name+" (a2a-conform "+res.ID+")"
					tests = append(tests, mt)
				}
			}
			suite := nonEmpty(res.Suite, "other")
			i, ok := suiteIdx[suite]
			if !ok {
				i = len(doc.Suites)
				suiteIdx[suite] = i
				doc.Suites = append(doc.Suites, actsSuite{ID: slug(suite), Name: "a2a-conform " + suite})
			}
			for _, test := range tests {
				doc.Suites[i].Tests = append(doc.Suites[i].Tests, test)
				lv := doc.Summary.ByLevel[test.Level]
				count(&lv, test.Result)
				doc.Summary.ByLevel[test.Level] = lv
				count(&doc.Summary.actsLevel, test.Result)
			}
		}
		out = append(out, actsFile{name: fmt.Sprintf("acts-report-%s-%s-%s.json", slug(sdk.Name), t.name, stamp), doc: doc})
	}
	return out
}

func count(l *actsLevel, result string) {
	l.Total++
	switch result {
	case "pass":
		l.Passed++
	case "fail":
		l.Failed++
	case "skip":
		l.Skipped++
	default:
		l.Errors++
	}
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

type actsIface struct {
	transport string
	path      string
}

// cardInterfaces are the card's interfaces in the bindings ACTS names.
func cardInterfaces(card json.RawMessage) []actsIface {
	var c struct {
		SupportedInterfaces []struct {
			URL             string `json:"url"`
			ProtocolBinding string `json:"protocolBinding"`
		} `json:"supportedInterfaces"`
	}
	if len(card) == 0 || json.Unmarshal(card, &c) != nil {
		return nil
	}
	var out []actsIface
	for _, i := range c.SupportedInterfaces {
		for _, t := range actsTransports {
			if strings.EqualFold(i.ProtocolBinding, t.binding) {
				p := ""
				if u, err := url.Parse(i.URL); err == nil {
					p = strings.TrimRight(u.Path, "/")
				}
				out = append(out, actsIface{transport: t.name, path: p})
			}
		}
	}
	return out
}

// transportsOf are the transports a result's transcript spoke: gRPC calls,
// JSON-RPC requests (by their body), and other HTTP requests under a
// declared HTTP+JSON interface's path (the host may be the harness's
// balancer in front of the instance the card names). The card fetch and
// webhook deliveries speak none.
func transportsOf(res Result, ifaces []actsIface) map[string]bool {
	out := map[string]bool{}
	for _, ex := range res.Transcript {
		if ex.Direction == "in" {
			continue
		}
		u, err := url.Parse(ex.URL)
		if err != nil {
			continue
		}
		if u.Scheme == "grpc" {
			out["grpc"] = true
			continue
		}
		if strings.Contains(u.Path, "/.well-known/") {
			continue
		}
		if isJSONRPC(ex.ReqBody) {
			out["jsonrpc"] = true
			continue
		}
		best, bestLen := "", -1
		for _, i := range ifaces {
			if i.transport == "grpc" || !strings.HasPrefix(u.Path, i.path) || len(i.path) <= bestLen {
				continue
			}
			best, bestLen = i.transport, len(i.path)
		}
		if best != "" {
			out[best] = true
		}
	}
	return out
}

func isJSONRPC(body string) bool {
	b := bytes.TrimSpace([]byte(body))
	if len(b) == 0 {
		return false
	}
	var probe struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if b[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(b, &batch) != nil || len(batch) == 0 {
			return false
		}
		b = batch[0]
	}
	return json.Unmarshal(b, &probe) == nil && probe.JSONRPC != ""
}
