package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// JUnit caps: CI systems load junit.xml whole and show system-out inline, so
// each testcase carries a short transcript summary, never bodies.
const (
	junitMaxExchanges = 20      // transcript lines per testcase
	junitMaxOut       = 8 << 10 // bytes of system-out per testcase
	junitMaxMessage   = 1 << 10 // bytes of a failure message attribute
	junitMaxText      = 8 << 10 // bytes of a failure/error body
)

type junitSuites struct {
	XMLName    xml.Name         `xml:"testsuites"`
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Suites     []junitSuite     `xml:"testsuite"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitProblem    `xml:"failure,omitempty"`
	Error      *junitProblem    `xml:"error,omitempty"`
	Skipped    *junitSkipped    `xml:"skipped,omitempty"`
	SystemOut  string           `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes junit.xml from the report model, a fallback for when the
// runner does not take Ginkgo's own. One testsuite per suite, one testcase per
// spec (classname = suite, name = "ID: title"). Verdicts map onto what CI
// systems understand: fail → <failure>; could-not-run and indeterminate →
// <error type="could-not-run|indeterminate"> (not passed, but not a defect
// shown by the agent either); not-applicable → <skipped>; warn → a passing
// testcase whose verdict property and system-out say "warn", because a missed
// SHOULD does not fail the run (exit code 0) and a red CI test would say it
// did. encoding/xml escapes all text and replaces characters XML cannot hold.
func WriteJUnit(path string, r *Report) error {
	b, err := renderJUnit(r)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

func renderJUnit(r *Report) ([]byte, error) {
	s := SummarizeReport(r)
	doc := junitSuites{
		Name: "a2a-conform: " + cutUTF8(r.Implementation.Name, 200),
		Time: seconds(r.Run.DurationMs),
	}
	if !r.Run.Start.IsZero() {
		doc.Timestamp = r.Run.Start.UTC().Format("2006-01-02T15:04:05")
	}
	props := []junitProperty{
		{"implementation", strings.TrimSpace(r.Implementation.Name + " " + r.Implementation.Version)},
		{"harness", strings.TrimSpace(r.Harness.Name + " " + r.Harness.Version)},
		{"protocolVersion", r.ProtocolVersion},
		{"seed", strconv.FormatInt(r.Run.Seed, 10)},
		{"topology", r.Run.Topology},
		{"score", fmt.Sprintf("%d/%d", s.Score.Passed, s.Score.Denominator)},
		{"mustFailed", strconv.Itoa(s.Score.MustFailed)},
	}
	if r.Run.Unreachable {
		props = append(props, junitProperty{"unreachable", "true"})
	}
	for i := range props {
		props[i].Value = cutUTF8(props[i].Value, htmlMaxField)
	}
	doc.Properties = &junitProperties{props}

	index := map[string]int{}
	for _, res := range r.Results {
		i, ok := index[res.Suite]
		if !ok {
			i = len(doc.Suites)
			index[res.Suite] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: cutUTF8(res.Suite, 200)})
		}
		su := &doc.Suites[i]
		c := junitCaseFor(res, r.Run.Unreachable)
		su.Tests++
		doc.Tests++
		switch {
		case c.Failure != nil:
			su.Failures++
			doc.Failures++
		case c.Error != nil:
			su.Errors++
			doc.Errors++
		case c.Skipped != nil:
			su.Skipped++
			doc.Skipped++
		}
		su.Cases = append(su.Cases, c)
	}
	for i := range doc.Suites {
		var ms int64
		for _, res := range r.Results {
			if cutUTF8(res.Suite, 200) == doc.Suites[i].Name {
				ms += res.DurationMs
			}
		}
		doc.Suites[i].Time = seconds(ms)
	}

	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("junit.xml: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func junitCaseFor(res Result, unreachable bool) junitCase {
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	c := junitCase{
		Name:      f(res.ID) + ": " + f(res.Title),
		Classname: f(res.Suite),
		Time:      seconds(res.DurationMs),
		Properties: &junitProperties{[]junitProperty{
			{"id", f(res.ID)}, {"level", f(res.Level)}, {"verdict", f(string(res.Verdict))},
			{"sections", f(strings.Join(res.Sections, ", "))},
		}},
	}
	if res.TCKLevel != "" {
		c.Properties.Property = append(c.Properties.Property, junitProperty{"tckLevel", f(res.TCKLevel)})
	}
	basis := strings.Join(res.Basis.Lines(), "\n")
	if basis != "" {
		c.Properties.Property = append(c.Properties.Property, junitProperty{"basis", capText(basis, junitMaxText)})
	}
	if len(res.Attempts) > 0 {
		// run --retry-unexpected: the re-runs, and flaky when they disagree.
		c.Properties.Property = append(c.Properties.Property, junitProperty{"attempts", f(attemptsText(res))})
	}
	msg := cutUTF8(res.Reason, junitMaxMessage)
	body := capText(res.Reason, junitMaxText)
	if len(res.Violations) > 0 {
		body += "\n\n" + capText(invariants.Summarize(res.Violations, htmlMaxViolations), junitMaxText)
	}
	if basis != "" && res.Verdict == Fail {
		// A fail names the words it rests on, where a vendor reads it.
		body += "\n\nBasis (the A2A text, word for word):\n" + capText(basis, junitMaxText)
	}
	switch res.Verdict {
	case Pass:
		if unreachable {
			// A pass cannot stand in an unreachable run (SummarizeReport).
			c.Error = &junitProblem{Message: "pass recorded although the target was unreachable", Type: "unreachable"}
		}
	case Warn:
		// passing testcase: see WriteJUnit
	case Fail:
		c.Failure = &junitProblem{Message: msg, Type: string(Fail), Text: body}
	case NotApplicable:
		c.Skipped = &junitSkipped{Message: msg}
	case CouldNotRun, Indeterminate:
		c.Error = &junitProblem{Message: msg, Type: string(res.Verdict), Text: body}
	default:
		c.Error = &junitProblem{Message: "unknown verdict " + f(string(res.Verdict)), Type: "unknown", Text: body}
	}
	c.SystemOut = systemOut(res)
	return c
}

// systemOut is the testcase's verdict line and a one-line-per-exchange
// transcript summary, capped; bodies stay in report.json and report.html.
func systemOut(res Result) string {
	if res.Verdict == Pass && len(res.Transcript) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", res.Verdict, res.ID, res.Level)
	if res.Verdict == Warn && res.Reason != "" {
		b.WriteString(cutUTF8(res.Reason, junitMaxMessage))
		b.WriteByte('\n')
	}
	for i, ex := range res.Transcript {
		if i == junitMaxExchanges {
			fmt.Fprintf(&b, "… %d more exchanges in report.json\n", len(res.Transcript)-i)
			break
		}
		status := "no response"
		if ex.Status != 0 {
			status = strconv.Itoa(ex.Status)
		}
		fmt.Fprintf(&b, "#%d +%s %s %s → %s (%s", ex.Seq, formatStamp(ex.AtMs), cutUTF8(ex.Method, 20), cutUTF8(ex.URL, 300), status, formatMs(ex.DurMs))
		if ex.Instance != "" {
			fmt.Fprintf(&b, ", instance %s", cutUTF8(ex.Instance, 40))
		}
		if len(ex.Events) > 0 {
			fmt.Fprintf(&b, ", %d SSE events", len(ex.Events))
		}
		b.WriteString(")")
		if ex.Error != "" {
			b.WriteString(" error: " + cutUTF8(ex.Error, 200))
		}
		b.WriteByte('\n')
	}
	return capText(b.String(), junitMaxOut)
}

func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}
