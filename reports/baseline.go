package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// A baseline is a vendor's list of the non-passes its CI expects
// (`a2a-conform run --expect FILE`). With one, only what the list does not
// say fails the build: a new failure, a listed spec that now passes (so the
// list stays true), a listed spec whose verdict changed, an entry past its
// expiry date, an entry naming no spec of this harness, and a spec whose
// verdict flipped between attempts (flaky). docs/vendor-guide.md §4 is the
// user's documentation; this file is the whole rule.

// BaselineFile is the --expect file: YAML or JSON (JSON is YAML).
//
//	expected:
//	  - id: LIFE-010
//	    verdict: fail
//	    reason: "cancel races completion; ACME-123"
//	    expires: 2027-03-01
type BaselineFile struct {
	Expected []BaselineEntry `yaml:"expected" json:"expected"`
}

// BaselineEntry is one expected non-pass.
type BaselineEntry struct {
	ID string `yaml:"id" json:"id"`
	// Verdict is the expected verdict: fail, warn, indeterminate,
	// could-not-run or not-applicable, or "flaky" for a spec known to flip
	// (then any verdict of it is expected, a pass included).
	Verdict string `yaml:"verdict" json:"verdict"`
	// Reason is required: why this is expected, e.g. an issue link.
	Reason string `yaml:"reason" json:"reason"`
	// Expires is an optional date (YYYY-MM-DD); from the day after it the
	// entry fails the build until someone looks at it again.
	Expires string `yaml:"expires,omitempty" json:"expires,omitempty"`

	line int // in the file, for error messages
}

// Flaky is the baseline verdict of a spec known to flip between runs.
const Flaky = "flaky"

// ReasonPlaceholder begins the reason `a2a-conform baseline` writes; a run
// refuses a baseline that still has one, so that no entry goes unexplained.
const ReasonPlaceholder = "TODO"

// Baseline outcomes, per entry and per unlisted non-pass.
const (
	// OutcomeExpected: the listed verdict happened (or the entry says flaky).
	OutcomeExpected = "expected"
	// OutcomeNotRun: the run did not select the listed spec (--suite,
	// --focus); nothing to compare, and not a failure.
	OutcomeNotRun = "not-run"
	// The rest fail the build.
	OutcomeUnexpected = "unexpected" // a non-pass the baseline does not list
	OutcomeFixed      = "fixed"      // a listed spec passed: remove the entry
	OutcomeChanged    = "changed"    // a listed spec gave another non-pass
	OutcomeExpired    = "expired"    // the entry's date has passed
	OutcomeUnknown    = "unknown"    // no spec of this harness has that ID
	OutcomeFlaky      = "flaky"      // its verdict changed between attempts
)

// FailsGate reports whether an outcome fails the build.
func FailsGate(outcome string) bool {
	switch outcome {
	case OutcomeExpected, OutcomeNotRun, "":
		return false
	}
	return true
}

// Baseline is the baseline's outcome in report.json: the file, its digest
// and one row per entry and per unlisted non-pass.
type Baseline struct {
	File string `json:"file"`
	// Digest is "sha256:<hex>" of the file's bytes, so that a report says
	// exactly which list it was judged against.
	Digest  string            `json:"digest"`
	Entries []BaselineOutcome `json:"entries"`
	// Failed counts the rows whose outcome fails the build.
	Failed int `json:"failed"`
}

// BaselineOutcome is one row: a baseline entry, or a non-pass no entry lists
// (Expected empty).
type BaselineOutcome struct {
	ID       string  `json:"id"`
	Expected string  `json:"expected,omitempty"`
	Reason   string  `json:"reason,omitempty"`
	Expires  string  `json:"expires,omitempty"`
	Got      Verdict `json:"got,omitempty"`
	Outcome  string  `json:"outcome"`
	// Why says in one sentence what to do about a failing outcome.
	Why string `json:"why,omitempty"`
}

// Attempt is one re-run of a spec (run --retry-unexpected): alone, with the
// run's seed and config.
type Attempt struct {
	Verdict    Verdict `json:"verdict,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	DurationMs int64   `json:"durationMs"`
	// Error says why the attempt gave no verdict (the child run crashed or
	// wrote no report); such an attempt decides nothing.
	Error string `json:"error,omitempty"`
}

// Flipped reports whether any attempt gave a verdict other than the
// result's own: the spec is flaky, whatever the last attempt said.
func (r Result) Flipped() bool {
	for _, a := range r.Attempts {
		if a.Error == "" && a.Verdict != "" && a.Verdict != r.Verdict {
			return true
		}
	}
	return false
}

// baselineVerdicts are the verdicts an entry may expect.
var baselineVerdicts = []string{string(Fail), string(Warn), string(Indeterminate), string(CouldNotRun), string(NotApplicable), Flaky}

// maxBaselineFile bounds the file read.
const maxBaselineFile = 4 << 20

// LoadBaseline reads and checks a baseline file. Every problem is reported
// at once, each with its line: an unknown key, a missing or placeholder
// reason, an unknown verdict, a bad date, a duplicate ID. An ID that names
// no spec is not an error here but the outcome "unknown" (a harness upgrade
// may rename a spec; the run still reports everything else).
func LoadBaseline(path string) (*BaselineFile, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxBaselineFile+1))
	if err != nil {
		return nil, nil, err
	}
	if len(raw) > maxBaselineFile {
		return nil, nil, fmt.Errorf("%s: larger than %d bytes", path, maxBaselineFile)
	}
	b, err := ParseBaseline(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, raw, nil
}

// ParseBaseline decodes and checks a baseline's bytes (LoadBaseline).
func ParseBaseline(raw []byte) (*BaselineFile, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty file; want a map with an 'expected' list")
		}
		return nil, err
	}
	var b BaselineFile
	dec = yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&b); err != nil {
		return nil, err
	}
	// Lines of the entries, for the messages.
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "expected" && m.Content[i+1].Kind == yaml.SequenceNode {
				for j, n := range m.Content[i+1].Content {
					if j < len(b.Expected) {
						b.Expected[j].line = n.Line
					}
				}
			}
		}
	}
	var errs []string
	seen := map[string]int{}
	for i := range b.Expected {
		e := &b.Expected[i]
		at := fmt.Sprintf("entry %d (line %d)", i+1, e.line)
		if e.ID != "" {
			at = fmt.Sprintf("entry %s (line %d)", e.ID, e.line)
		}
		e.ID = strings.ToUpper(strings.TrimSpace(e.ID)) // spec IDs are upper case; a typed life-010 is LIFE-010
		if e.ID == "" {
			errs = append(errs, at+": no id")
		} else if prev, dup := seen[e.ID]; dup {
			errs = append(errs, fmt.Sprintf("%s: listed twice (also line %d)", at, prev))
		}
		seen[e.ID] = e.line
		if !containsString(baselineVerdicts, e.Verdict) {
			errs = append(errs, fmt.Sprintf("%s: verdict %q: want one of %s (a pass is never expected: remove the entry)", at, e.Verdict, strings.Join(baselineVerdicts, ", ")))
		}
		r := strings.TrimSpace(e.Reason)
		switch {
		case r == "":
			errs = append(errs, at+": no reason; every entry says why its verdict is expected (an issue link, the missing feature)")
		case strings.HasPrefix(strings.ToUpper(r), ReasonPlaceholder):
			errs = append(errs, fmt.Sprintf("%s: the reason is still the placeholder %q; write why this verdict is expected", at, cutText(r, 60)))
		}
		if e.Expires != "" {
			if _, err := time.Parse(time.DateOnly, e.Expires); err != nil {
				errs = append(errs, fmt.Sprintf("%s: expires %q: want a date YYYY-MM-DD", at, e.Expires))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return &b, nil
}

// Digest is "sha256:<hex>" of raw.
func fileDigest(raw []byte) string {
	s := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(s[:])
}

// EvaluateBaseline judges results against b. known says whether a spec ID
// exists in this harness; today is the date expiries are compared with (an
// entry expiring today still holds today). Rows come entries first, in the
// file's order, then the unlisted non-passes by ID.
func EvaluateBaseline(file string, raw []byte, b *BaselineFile, results []Result, known func(string) bool, today time.Time) *Baseline {
	out := &Baseline{File: file, Digest: fileDigest(raw), Entries: []BaselineOutcome{}}
	byID := map[string]Result{}
	for _, r := range results {
		byID[r.ID] = r
	}
	day := today.UTC().Format(time.DateOnly)
	listed := map[string]bool{}
	for _, e := range b.Expected {
		listed[e.ID] = true
		row := BaselineOutcome{ID: e.ID, Expected: e.Verdict, Reason: e.Reason, Expires: e.Expires}
		r, ran := byID[e.ID]
		if ran {
			row.Got = r.Verdict
		}
		switch {
		case !known(e.ID):
			row.Outcome, row.Why = OutcomeUnknown, "no spec of this harness has this ID (renamed or removed?): correct or remove the entry"
		case e.Expires != "" && e.Expires < day:
			row.Outcome, row.Why = OutcomeExpired, "the entry expired on "+e.Expires+": look at the spec again, then renew or remove the entry"
		case !ran:
			row.Outcome = OutcomeNotRun
		case e.Verdict == Flaky:
			row.Outcome = OutcomeExpected
		case r.Flipped():
			row.Outcome, row.Why = OutcomeFlaky, "its verdict changed between attempts ("+attemptVerdicts(r)+"): fix the flake, or list it as verdict: flaky"
		case r.Verdict == Pass:
			row.Outcome, row.Why = OutcomeFixed, "listed as "+e.Verdict+" but passed: remove it from the baseline"
		case string(r.Verdict) == e.Verdict:
			row.Outcome = OutcomeExpected
		default:
			row.Outcome, row.Why = OutcomeChanged, fmt.Sprintf("listed as %s but %s: not the expected verdict, and not a pass", e.Verdict, r.Verdict)
		}
		out.Entries = append(out.Entries, row)
	}
	var extra []BaselineOutcome
	for _, r := range results {
		if listed[r.ID] || r.Verdict == NotApplicable {
			continue
		}
		row := BaselineOutcome{ID: r.ID, Got: r.Verdict}
		switch {
		case r.Flipped():
			row.Outcome, row.Why = OutcomeFlaky, "its verdict changed between attempts ("+attemptVerdicts(r)+"): never counted as a pass"
		case r.Verdict == Pass:
			continue
		default:
			row.Outcome, row.Why = OutcomeUnexpected, string(r.Verdict)+" is not in the baseline"
		}
		extra = append(extra, row)
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].ID < extra[j].ID })
	out.Entries = append(out.Entries, extra...)
	for _, row := range out.Entries {
		if FailsGate(row.Outcome) {
			out.Failed++
		}
	}
	return out
}

// attemptVerdicts is "fail, then pass, pass": the result's verdict and each
// attempt's.
func attemptVerdicts(r Result) string {
	var v []string
	for _, a := range r.Attempts {
		if a.Error != "" {
			v = append(v, "error")
		} else {
			v = append(v, string(a.Verdict))
		}
	}
	return string(r.Verdict) + ", then " + strings.Join(v, ", ")
}

// Retryable reports whether --retry-unexpected re-runs a result: a fail,
// warn or indeterminate the baseline (nil: none) does not expect.
// Could-not-run says what the run lacked (a driver, a hook, a credential),
// which a re-run does not change.
func Retryable(r Result, b *BaselineFile) bool {
	switch r.Verdict {
	case Fail, Warn, Indeterminate:
	default:
		return false
	}
	if b != nil {
		for _, e := range b.Expected {
			if e.ID == r.ID && (e.Verdict == string(r.Verdict) || e.Verdict == Flaky) {
				return false
			}
		}
	}
	return true
}

// NewBaselineFile is a starting baseline from a report: one entry per
// non-pass other than not-applicable, with the placeholder reason a run
// refuses, and expires (if not empty) as each entry's date.
func NewBaselineFile(r *Report, expires string) ([]byte, int) {
	var b strings.Builder
	fmt.Fprintf(&b, "# a2a-conform baseline, written from the report of %s", cutText(oneLine(r.Implementation.Name), 80))
	if r.Implementation.Version != "" {
		fmt.Fprintf(&b, " %s", cutText(oneLine(r.Implementation.Version), 40))
	}
	fmt.Fprintf(&b, " (harness %s, seed %d, %s).\n", cutText(oneLine(r.Harness.Version), 40), r.Run.Seed, r.Run.Start.UTC().Format(time.DateOnly))
	b.WriteString("# Use it with: a2a-conform run --expect THIS_FILE …\n")
	b.WriteString("# Replace every TODO reason with why the verdict is expected (an issue link);\n")
	b.WriteString("# the run refuses the file (exit 2) while one is left. docs/vendor-guide.md §4.\n")
	b.WriteString("expected:\n")
	n := 0
	for _, res := range r.Results {
		if res.Verdict == Pass || res.Verdict == NotApplicable {
			continue
		}
		n++
		fmt.Fprintf(&b, "  - id: %s\n    verdict: %s\n", res.ID, res.Verdict)
		title := cutText(oneLine(res.Title), 100)
		fmt.Fprintf(&b, "    reason: %s\n", yamlQuote(ReasonPlaceholder+": why is this expected? ("+title+")"))
		if expires != "" {
			fmt.Fprintf(&b, "    expires: %s\n", expires)
		}
	}
	if n == 0 {
		b.Reset()
		b.WriteString("# a2a-conform baseline: the report had no non-pass, so nothing is expected.\nexpected: []\n")
	}
	return []byte(b.String()), n
}

func yamlQuote(s string) string {
	out, _ := yaml.Marshal(s)
	q := strings.TrimSpace(string(out))
	if !strings.HasPrefix(q, "\"") && !strings.HasPrefix(q, "'") {
		q = "'" + strings.ReplaceAll(q, "'", "''") + "'"
	}
	return q
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutText shortens s to at most n runes, marking the cut.
func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
