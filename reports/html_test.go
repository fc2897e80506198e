package reports

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// Payloads that run script if a page puts them into markup unescaped.
const (
	payloadImg    = `<img src=x onerror="document.title='pwned';document.body.appendChild(document.createElement('pwned-marker'))">`
	payloadScript = `</script><script>document.title='pwned'</script>`
	payloadPlain  = `<script>document.title='pwned'</script>`
)

// hostileReport is the sample report with vendor-controlled text everywhere a
// vendor can put it: card, implementation, reasons, violations,
// observations, headers, bodies, SSE events, suite and level names.
func hostileReport() *Report {
	r := sampleReport(payloadImg+payloadScript, "1"+payloadPlain)
	card, _ := json.Marshal(map[string]any{
		"name":        payloadImg + payloadScript,
		"description": payloadScript + payloadImg,
		"version":     "1",
	})
	r.Card = card
	r.CardError = payloadImg
	r.Implementation.URL = `javascript:document.title='pwned'`
	r.Run.Target = payloadImg
	r.Run.Faults = []string{payloadScript}
	x := &r.Results[5]
	x.Title = payloadImg
	x.Reason = "the agent said " + payloadPlain + payloadImg
	x.Scenario = payloadScript
	x.TCKLevel = payloadImg
	x.Unchecked = []string{payloadImg + ": " + payloadScript}
	x.Violations = append(x.Violations, invariants.Violation{Invariant: payloadImg, Where: payloadScript, Expected: payloadPlain, Actual: payloadImg})
	x.Observations = map[string]string{payloadImg: payloadScript}
	x.Basis = &Basis{
		Quotes:    []Quote{{Text: "Once a task reaches a terminal state " + payloadImg, Version: "1.0.1", File: "docs/topics/life-of-a-task.md"}},
		Reading:   "No single MUST sentence states this invariant. " + payloadScript,
		Scenario:  &ScenarioQuote{Number: "3", Text: payloadPlain},
		Disagrees: []Disagreement{{Upstream: "TCK X " + payloadImg, Asserts: payloadScript, Why: payloadPlain}},
	}
	x.Transcript = append(x.Transcript, Exchange{
		Seq: 99, Method: payloadImg, URL: "http://127.0.0.1/" + payloadScript, Status: 500, Instance: payloadImg,
		ReqHeader: http.Header{payloadImg: {payloadScript}}, ReqBody: payloadScript,
		RespHeader: http.Header{"X-Evil": {payloadImg}}, RespBody: `{"error":"` + strings.ReplaceAll(payloadScript, `"`, `\"`) + `"}`,
		Events: []Event{{AtMs: 1, Data: payloadImg}}, Error: payloadPlain,
	})
	r.Results[6].Suite = payloadImg // becomes a data attribute and a select option
	return r
}

func render(t *testing.T, r *Report) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.html")
	if err := WriteHTML(p, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var scriptTag = regexp.MustCompile(`(?is)<script\b[^>]*>(.*?)</script>`)

func TestHTMLEscapesVendorText(t *testing.T) {
	page := render(t, hostileReport())
	for _, p := range []string{payloadImg, payloadScript, payloadPlain, "<img", "onerror=\"", `href="javascript:`} {
		if strings.Contains(page, p) {
			t.Errorf("page contains %q unescaped", p)
		}
	}
	if got := strings.Count(strings.ToLower(page), "<script"); got != 1 {
		t.Errorf("page has %d <script> tags, want only its own", got)
	}
	// The payload is shown, as text.
	if !strings.Contains(page, "&lt;img src=x onerror=&#34;document.title=&#39;pwned&#39;") {
		t.Error("escaped payload not shown as text")
	}
	// An anchor that cannot be closed early: the suite data attribute.
	if strings.Contains(page, `data-suite="<`) {
		t.Error("attribute value not escaped")
	}
}

func TestHTMLSelfContainedWithPinnedScript(t *testing.T) {
	page := render(t, sampleReport("Acme", "1"))
	m := scriptTag.FindAllStringSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("%d scripts", len(m))
	}
	sum := sha256.Sum256([]byte(m[0][1]))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("no content security policy")
	}
	policy := html.UnescapeString(csp[1])
	if !strings.Contains(policy, "script-src "+hash) || !strings.Contains(policy, "default-src 'none'") {
		t.Fatalf("policy %q does not pin the page's script %s", policy, hash)
	}
	for _, ext := range []string{"<link", `src="http`, `src="//`, "@import", "url(http"} {
		if strings.Contains(page, ext) {
			t.Errorf("page refers to an external asset: %q", ext)
		}
	}
}

func TestHTMLContent(t *testing.T) {
	r := sampleReport("Acme Travel Agent", "2.3.1")
	page := render(t, r)
	for _, res := range r.Results {
		if !strings.Contains(page, `<tr class="row" id="`+res.ID+`">`) {
			t.Errorf("no row anchored at #%s", res.ID)
		}
	}
	for _, want := range []string{
		"5 of 10 passed; 2 failed; 1 warned (a SHOULD not met); 1 could not run; 1 indeterminate",
		"Only pass counts as passed: fail, warn, could-not-run and indeterminate are in the denominator as not passed.",
		"1 not applicable (capability not advertised) is left out of the denominator.",
		"2 MUST/INVARIANT specs failed",
		"2026-03-14 09:26:53 UTC", "1 min 04 s", "process", ">42<", "a2a-conform 0.1.0",
		"terminal-immutable", "instances.seen",
		"Wire transcript: 2 exchanges",
		"TASK_STATE_COMPLETED", "+1.803 s", "instance b",
		"Authorization: [redacted]",
		"&#34;supportedInterfaces&#34;", // the card, pretty-printed as text
		r.Digest,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Without script every row shows; the filter controls appear only once
	// the script runs.
	if !regexp.MustCompile(`<form id="filters" class="filters" hidden>`).MatchString(page) {
		t.Error("filter form not hidden for no-JS readers")
	}
	if regexp.MustCompile(`<tbody[^>]*\bhidden\b`).MatchString(page) {
		t.Error("a spec row is hidden without script")
	}
	// The TCK's level shows beside the spec's own, for a spec that has one.
	block := func(id string) string {
		i := strings.Index(page, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no row %s", id)
		}
		end := strings.Index(page[i:], "<tbody data-verdict")
		if end < 0 {
			end = strings.Index(page[i:], "</table>\n</section>")
		}
		return page[i : i+end]
	}
	// Failures first, each with the command that re-runs it alone.
	if !strings.Contains(page, "Read these first:") {
		t.Error("no list of failures at the top")
	}
	for _, res := range r.Results {
		if res.Verdict == Fail {
			want := "a2a-conform run --focus " + res.ID + " --seed " + fmt.Sprint(r.Run.Seed)
			if !strings.Contains(block(res.ID), want) {
				t.Errorf("%s lacks its reproduce command %q", res.ID, want)
			}
			if !strings.Contains(page[:strings.Index(page, "<h2>Specs</h2>")], `href="#`+res.ID+`"`) {
				t.Errorf("%s is not linked from the headline", res.ID)
			}
		}
	}
	life := block("LIFE-001")
	if !strings.Contains(life, ">TCK MUST</div>") {
		t.Error("LIFE-001 row lacks its TCK level")
	}
	if strings.Contains(block("DISC-001"), "tck-level") {
		t.Error("a TCK level shown for a spec that names no TCK requirement")
	}
	// Passing specs carry no transcript.
	pass := block("DISC-001")
	if strings.Contains(pass, "Wire transcript") {
		t.Error("transcript shown for a passing spec")
	}
}

func TestHTMLUnreachableBanner(t *testing.T) {
	r := sampleReport("Dead", "1")
	r.Run.Unreachable = true
	page := render(t, r)
	if !strings.Contains(page, "The target could not be reached.") || !strings.Contains(page, "0 of 10 passed") {
		t.Fatal("unreachable run not shown as scoring 0")
	}
}

func TestHTMLCapsTranscripts(t *testing.T) {
	r := sampleReport("Acme", "1")
	big := strings.Repeat("x", 100<<10)
	var xs []Exchange
	for i := 0; i < 100; i++ {
		xs = append(xs, Exchange{Seq: i, Method: "POST", URL: "http://127.0.0.1/a2a", Status: 200, ReqBody: big, RespBody: big})
	}
	r.Results[5].Transcript = xs
	page := render(t, r)
	if !regexp.MustCompile(`100 exchanges, 1[67] shown \(the first, and every one a violation cites\)`).MatchString(page) || !regexp.MustCompile(`8[34] more exchanges in report.json`).MatchString(page) {
		t.Error("exchange cap not stated")
	}
	// An exchange a violation cites is always shown, linked from the
	// violation, however far past the cap it is (one numbering: #seq).
	r.Results[5].Verdict, r.Results[5].Reason = Fail, "a terminal task changed"
	r.Results[5].Violations = append(r.Results[5].Violations, invariants.Violation{Invariant: "terminal-immutable",
		Where: "task t-1, GetTask #90 (JSONRPC) at 2s", Expected: "COMPLETED for ever (first seen terminal via GetTask #3 (JSONRPC))", Actual: "WORKING"})
	page = render(t, r)
	for _, want := range []string{`<details class="x cited" id="x90">`, `<details class="x cited" id="x3">`, `<a href="#x90">#90</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(page, fmt.Sprintf("cut here: %d more bytes", len(big)-htmlMaxBody)) {
		t.Error("body cut not stated")
	}
	if len(page) > 200<<10 {
		t.Errorf("page is %d KiB with 16 capped exchanges", len(page)>>10)
	}

	// Many failing specs with full transcripts stay under the page budget.
	r = sampleReport("Acme", "1")
	for i := 0; i < 300; i++ {
		r.Results = append(r.Results, Result{ID: fmt.Sprintf("LIFE-%03d", 100+i), Title: "t", Suite: "lifecycle", Level: LevelMust,
			Verdict: Fail, Reason: "r", Transcript: xs[:htmlMaxExchanges]})
	}
	page = render(t, r)
	if len(page) > htmlTranscriptBudget+2<<20 {
		t.Errorf("page is %d MiB, over the transcript budget", len(page)>>20)
	}
	if !strings.Contains(page, "transcript budget is spent") {
		t.Error("budget exhaustion not stated")
	}
	if !strings.Contains(page, `id="LIFE-399"`) {
		t.Error("rows dropped along with transcripts")
	}
}

// A fail shows the command that replays its bundle, or why it has none.
func TestHTMLShowsEachFailsReplay(t *testing.T) {
	r := &Report{Results: []Result{
		{ID: "ROLL-001", Title: "t", Verdict: Fail, Replay: &ReplayNote{Bundle: "replay/ROLL-001.json"}},
		{ID: "ROLL-009", Title: "t", Verdict: Fail, Replay: &ReplayNote{None: "a replay judges none of its invariants (push-delivered-mid-rollout)"}},
	}}
	page := render(t, r)
	for _, want := range []string{"a2a-conform replay replay/ROLL-001.json --target", "No replay bundle: a replay judges none of its invariants (push-delivered-mid-rollout)."} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// A verdict other than pass shows its basis right under its reason, in
// order: the reason, then the quotes with where they stand, the reading,
// the scenario and the disagreements; a pass shows none.
func TestHTMLShowsTheBasisUnderTheReason(t *testing.T) {
	r := sampleReport("Acme", "1")
	basis := &Basis{
		Quotes: []Quote{
			{Text: "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart.", Version: "1.0.1", File: "docs/topics/life-of-a-task.md"},
			{Text: "The server will attempt to cancel the task, but success is not guaranteed", Version: "1.0.1", File: "docs/specification.md", Section: "3.1.5"},
		},
		Reading:   "No single MUST sentence states this invariant.",
		Scenario:  &ScenarioQuote{Number: "3", Text: "once a cancel is acknowledged, any later terminal transition for the same task ID is a protocol invariant violation"},
		Disagrees: []Disagreement{{Upstream: "TCK CORE-CANCEL-001 (a2a-tck #140)", Asserts: "that a cancel succeeds", Why: "a refusal of an ended task is allowed"}},
	}
	for i := range r.Results {
		r.Results[i].Basis = basis
	}
	page := render(t, r)
	row := page[strings.Index(page, `id="LIFE-012"`):]
	row = row[:strings.Index(row, "</tbody>")]
	order := []string{`class="reason"`, `class="basis"`, "A2A v1.0.1 docs/topics/life-of-a-task.md", "it cannot restart.",
		"A2A v1.0.1 §3.1.5", "No single MUST sentence states this invariant.", "Scenario 3:", "a2a-tck #140", "<h4>Violations</h4>"}
	at := 0
	for _, want := range order {
		i := strings.Index(row[at:], want)
		if i < 0 {
			t.Fatalf("the failing row lacks %q after what came before it:\n%s", want, row)
		}
		at += i
	}
	pass := page[strings.Index(page, `id="DISC-001"`):]
	pass = pass[:strings.Index(pass, "</tbody>")]
	if strings.Contains(pass, `class="basis"`) {
		t.Error("a passing row shows its basis; only verdicts a vendor may argue with do")
	}
}

// A client spec's row says under its title what of the client the verdict
// judges, and who supplied the piece in this run.
func TestHTMLSaysWhatAClientVerdictJudges(t *testing.T) {
	r := sampleReport("Acme", "1")
	r.Results[0].Judges = &Judged{What: JudgesSupplied, Pieces: []string{PieceReceiver, PieceState},
		By: map[string]string{PieceReceiver: SuppliedByKit, PieceState: SuppliedByDriver}}
	r.Results[1].Judges = &Judged{What: JudgesSDK}
	page := render(t, r)
	for _, want := range []string{
		"judges what SDKs may leave to the application, supplied here as the driver says: the push receiver (here: the harness&#39;s driver kit), the client&#39;s task state rule (here: the driver&#39;s own code)",
		"judges the client SDK&#39;s own behaviour",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}
