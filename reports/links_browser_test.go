package reports

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/chromedp/chromedp"
)

// What a reader of a failing report does first, in Chromium: follow a
// failure from the headline to its spec, follow a violation's citation to
// the exchange it names (past the page's cut), and find the reproduce
// command with a copy button.
func TestBrowserFailureLinks(t *testing.T) {
	r := sampleReport("Acme", "1")
	var xs []Exchange
	for i := 1; i <= 40; i++ {
		xs = append(xs, Exchange{Seq: 1000 + i, Method: "POST", URL: "http://127.0.0.1/a2a", Status: 200, ReqBody: `{"n":` + strings.Repeat("1", 3) + `}`})
	}
	r.Results[5].Verdict, r.Results[5].Reason = Fail, "a terminal task changed"
	r.Results[5].Transcript = xs
	r.Results[5].Violations = []invariants.Violation{{Invariant: "terminal-immutable", Where: "task t-1, GetTask #1040 (JSONRPC) at 2s", Expected: "COMPLETED", Actual: "WORKING"}}
	r.Run.Args = []string{"--target=http://127.0.0.1:1"}
	id := r.Results[5].ID
	file := filepath.Join(t.TempDir(), "report.html")
	previous := sampleReport("Acme", "0.9")
	previous.Results[5].Verdict, previous.Results[5].Reason = Pass, ""
	if err := WriteHTMLWith(file, r, HTMLOptions{Diff: DiffReports(previous, r, "previous.json", "", nil, nil)}); err != nil {
		t.Fatal(err)
	}
	ctx := page(t, browser(t), file)
	// The headline's regression line leads to the changes, whose row leads
	// to the spec.
	click(t, ctx, `.headline a[href="#changes"]`)
	settle(ctx, `location.hash === "#changes"`)
	visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("changes"); return !!s && s.getClientRects().length > 0 && s.querySelectorAll("tr.change-regression").length === 1; })()`))
	if err != nil || !visible {
		t.Fatalf("the changes section is not shown with one regression row (%v)", err)
	}
	click(t, ctx, `#changes a[href="#`+id+`"]`)
	settle(ctx, `location.hash === "#`+id+`"`)
	if hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`)); err != nil || hash != "#"+id {
		t.Fatalf("the regression's link went to %q (%v)", hash, err)
	}
	click(t, ctx, `.failures a[href="#`+id+`"]`)
	// A link's navigation and the page's hashchange handler run after the
	// click returns: wait (bounded) for what they do, then look.
	settle(ctx, `location.hash === "#`+id+`"`)
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	if err != nil || hash != "#"+id {
		t.Fatalf("the headline link went to %q (%v)", hash, err)
	}
	click(t, ctx, `a[href="#x1040"]`)
	settle(ctx, `(() => { const d = document.getElementById("x1040"); return !!d && d.open && d.getClientRects().length > 0; })()`)
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const d = document.getElementById("x1040"); return !!d && d.open && d.getClientRects().length > 0; })()`))
	if err != nil || !open {
		t.Fatalf("the cited exchange #1040 (past the cut of 16) is not shown open: %v", err)
	}
	repro, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("tbody[data-verdict] .repro pre").textContent`))
	if err != nil || !strings.Contains(repro, "a2a-conform run --target=http://127.0.0.1:1 --focus ") {
		t.Fatalf("reproduce command %q (%v)", repro, err)
	}
}

// settle waits until expr is true in the page, for at most 10 s; it asserts
// nothing (the caller looks afterwards and says what it found), so a slow
// machine only waits longer.
func settle(ctx context.Context, expr string) {
	_, _ = chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second)))
}
