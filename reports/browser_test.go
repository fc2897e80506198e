package reports

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// browserTimeout only guards against a hung browser; nothing here measures
// speed.
const browserTimeout = 60 * time.Second

// findChromium returns a headless-capable browser on PATH. In CI its absence
// is a failure, because escaping is only proven end to end in a real browser;
// elsewhere the test is skipped, loudly.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not installed: .ci/run must install Debian's chromium (apt-get install -y chromium)")
	}
	t.Skip("SKIPPING the real-browser test: no chromium, chromium-browser or google-chrome on PATH " +
		"(apt-get install -y chromium); report.html escaping is then checked only by string tests")
	return ""
}

// dumpDOMs loads local files headless, all at once, and returns each DOM
// after its scripts ran. Each launch costs seconds of start-up, so they run
// in parallel.
func dumpDOMs(t *testing.T, browser string, files ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	doms := make([]string, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, file := range files {
		profile := t.TempDir()
		wg.Go(func() {
			u := url.URL{Scheme: "file", Path: file}
			cmd := exec.CommandContext(ctx, browser,
				"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+profile, "--dump-dom", u.String())
			cmd.WaitDelay = 5 * time.Second // the browser's helpers may hold stdout open
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("%s --dump-dom %s: %v\n%s", browser, u.String(), err, stderr.String())
			case len(out) == 0:
				errs[i] = fmt.Errorf("%s printed no DOM for %s\n%s", browser, u.String(), stderr.String())
			}
			doms[i] = string(out)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return doms
}

var titleTag = regexp.MustCompile(`(?is)<title>(.*?)</title>`)

// vendorScriptRan reports what a payload leaves behind when it executes.
func vendorScriptRan(dom string) []string {
	var signs []string
	// The payloads set the title to exactly "pwned"; an escaped payload in
	// the title's text merely mentions it.
	if m := titleTag.FindStringSubmatch(dom); m == nil || strings.TrimSpace(m[1]) == "pwned" {
		signs = append(signs, "title is pwned (or is missing)")
	}
	if strings.Contains(dom, "<pwned-marker") {
		signs = append(signs, "onerror handler injected an element")
	}
	if regexp.MustCompile(`<img[^>]*onerror`).MatchString(dom) {
		signs = append(signs, "a vendor <img onerror> became an element")
	}
	return signs
}

func TestBrowserRendersWithoutRunningVendorScript(t *testing.T) {
	browser := findChromium(t)
	dir := t.TempDir()

	// Control: a page that puts the payloads into markup unescaped must be
	// caught by the same checks, or the checks prove nothing.
	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte("<!DOCTYPE html><html><head><title>control</title></head><body>"+
		payloadImg+"<p>"+payloadPlain+"</p></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := hostileReport()
	report := filepath.Join(dir, "report.html")
	// With the changes since a previous report in which the hostile fail
	// passed: its reason, title and ID reach that section too.
	previous := sampleReport("Acme", "0.9"+payloadPlain)
	previous.Results[5].Verdict, previous.Results[5].Reason = Pass, ""
	previous.Summary = SummarizeReport(previous)
	diff := DiffReports(previous, r, "previous/"+payloadImg+".json", "", nil, []Problem{{Message: payloadScript}})
	if err := WriteHTMLWith(report, r, HTMLOptions{Diff: diff}); err != nil {
		t.Fatal(err)
	}

	// The scorecard, with the hostile report as one column.
	// verify accepts only MUST, SHOULD or MAY as a tckLevel, so the
	// scorecard's copy of the hostile report carries none (the scorecard
	// does not show it; report.html above renders the hostile one).
	column := hostileReport()
	column.Results[5].TCKLevel = ""
	hostileColumn := verified(t, column)
	sc, err := BuildScorecard([]*Report{hostileColumn, verified(t, sampleReport("Acme", "1"))})
	if err != nil {
		t.Fatal(err)
	}
	// Labelled self-reported, with a reason that quotes the vendor.
	sc.SetAttestation(hostileColumn, Attestation{Status: AttestSelfReported, Reason: "signed by " + payloadImg + ", not the required signer"})
	sc.SetAdmission(Admission{Signer: payloadScript, Issuer: payloadPlain, Others: AdmitSelfReported})
	scdir := filepath.Join(dir, "scorecard")
	if err := WriteScorecard(scdir, sc, func(id string) string { return payloadImg + id }); err != nil {
		t.Fatal(err)
	}

	doms := dumpDOMs(t, browser, control, report, filepath.Join(scdir, "scorecard.html"))

	if signs := vendorScriptRan(doms[0]); len(signs) < 2 {
		t.Fatalf("the unescaped control page was not caught (signs: %v): the checks below would pass blindly", signs)
	}

	dom := doms[1]
	if signs := vendorScriptRan(dom); len(signs) > 0 {
		t.Fatalf("report.html ran vendor script: %v", signs)
	}
	for _, res := range r.Results {
		if !regexp.MustCompile(`<tr class="row" id="` + res.ID + `">`).MatchString(dom) {
			t.Errorf("report.html: no rendered row for %s", res.ID)
		}
	}
	if !regexp.MustCompile(`<body[^>]*data-filters="ready"`).MatchString(dom) {
		t.Error("report.html: the filter script did not run (body lacks data-filters=\"ready\"); is the CSP hash right?")
	}
	if !strings.Contains(dom, "11 of 11 specs shown") {
		t.Error("report.html: the filter script did not count the rows")
	}
	if !strings.Contains(dom, "&lt;img src=x onerror=") {
		t.Error("report.html: the vendor text is not shown as text")
	}
	if !regexp.MustCompile(`(?s)<tr class="row" id="` + r.Results[5].ID + `">.*?<div class="reason">.*?<div class="basis">.*?Once a task reaches a terminal state &lt;img`).MatchString(dom) {
		t.Error("report.html: the fail's basis is not rendered, as text, under its reason")
	}
	if !regexp.MustCompile(`(?s)<section id="changes">\s*<h2>Changes since the previous report</h2>.*?<h3>Regressions \(1\)</h3>.*?<a href="#` +
		r.Results[5].ID + `">` + r.Results[5].ID + `</a>.*?passed, now fails.*?the agent said &lt;script&gt;`).MatchString(dom) {
		t.Error("report.html: the changes since the previous report are not rendered, as text, with the hostile fail as a regression")
	}

	dom = doms[2]
	if signs := vendorScriptRan(dom); len(signs) > 0 {
		t.Fatalf("scorecard.html ran vendor script: %v", signs)
	}
	for _, sp := range sc.Specs {
		if !regexp.MustCompile(`<tr id="` + sp.ID + `" data-suite=`).MatchString(dom) {
			t.Errorf("scorecard.html: no rendered row for %s", sp.ID)
		}
	}
	if !regexp.MustCompile(`<body[^>]*data-filters="ready"`).MatchString(dom) {
		t.Error("scorecard.html: the filter script did not run")
	}
	if !regexp.MustCompile(`>self-reported</span><span class="sub attest-reason">signed by &lt;img src=x`).MatchString(dom) {
		t.Error("scorecard.html: the self-reported label and its reason are not rendered as text")
	}
}
