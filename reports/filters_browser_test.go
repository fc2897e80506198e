package reports

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The filters of report.html and scorecard.html, driven in Chromium the way a
// reader uses them: a mouse click on each checkbox and button, keyboard
// selection in each select. After every action the rows actually rendered
// (with a layout box, not merely without a hidden attribute) must be the ones
// the report model says the filter keeps.

// browser starts one headless Chromium for all the subtests of a test; each
// page gets its own tab. Start-up and every action share browserTimeout.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := findChromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
	)
	// chromedp wants no deadline on the context that starts the browser, so
	// a watchdog stops the browser instead when the test overruns.
	ctx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	watchdog := time.AfterFunc(browserTimeout, cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	t.Cleanup(func() { watchdog.Stop(); cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// page opens file in a new tab and waits until the filter script ran.
func page(t *testing.T, browserCtx context.Context, file string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	u := url.URL{Scheme: "file", Path: file}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(u.String()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-filters="ready"] #filters`)),
	); err != nil {
		t.Fatalf("loading %s: %v", u.String(), err)
	}
	return ctx
}

// shown lists the ids of the rows the browser lays out, in page order.
func shown(t *testing.T, ctx context.Context, rowSelector string) []string {
	t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).filter(r => r.getClientRects().length > 0).map(r => r.id)`, rowSelector)
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func countText(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#filters .count`)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// choose selects an option of a select by keyboard, as a reader without a
// mouse does: focus it, then type the option's text (Chromium's type-ahead
// picks it and fires change). An empty value picks "all".
func choose(t *testing.T, ctx context.Context, name, value string) {
	t.Helper()
	sel := chromedp.CSS(fmt.Sprintf(`#filters select[name=%q]`, name))
	keys := value
	if keys == "" {
		keys = kb.Home
	}
	if err := chromedp.Do(ctx, chromedp.Focus(sel), chromedp.KeyEvent(keys)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Value(sel))
	if err != nil {
		t.Fatal(err)
	}
	if got != value {
		t.Fatalf("select %s: typed %q, the browser selected %q", name, value, got)
	}
}

func click(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(selector))); err != nil {
		t.Fatalf("click %s: %v", selector, err)
	}
}

func expectShown(t *testing.T, ctx context.Context, rowSelector, step string, want []string, total int) {
	t.Helper()
	got := shown(t, ctx, rowSelector)
	if !slices.Equal(got, want) {
		t.Errorf("after %s: rows shown %v, want %v", step, got, want)
	}
	if c, w := countText(t, ctx), fmt.Sprintf("%d of %d specs shown", len(want), total); c != w {
		t.Errorf("after %s: the count says %q, want %q", step, c, w)
	}
}

// ids lists, in report order, the IDs of the results keep accepts.
func ids[T any](items []T, id func(T) string, keep func(T) bool) []string {
	var out []string
	for _, x := range items {
		if keep(x) {
			out = append(out, id(x))
		}
	}
	return out
}

// TestBrowserFilters drives both pages in one browser, each in its own tab.
func TestBrowserFilters(t *testing.T) {
	bctx := browser(t)
	t.Run("report", func(t *testing.T) { reportFilters(t, bctx) })
	t.Run("scorecard", func(t *testing.T) { scorecardFilters(t, bctx) })
}

func reportFilters(t *testing.T, bctx context.Context) {
	dir := t.TempDir()
	r := sampleReport("Acme", "1")
	file := filepath.Join(dir, "report.html")
	if err := WriteHTML(file, r); err != nil {
		t.Fatal(err)
	}
	ctx := page(t, bctx, file)
	const rows = `tbody[data-verdict] tr.row`
	total := len(r.Results)
	resID := func(x Result) string { return x.ID }
	// The page lists failures first (by verdict, then in report order).
	ordered := slices.Clone(r.Results)
	slices.SortStableFunc(ordered, func(a, b Result) int { return verdictRank(a.Verdict) - verdictRank(b.Verdict) })
	keep := func(verdicts []Verdict, suite, level string) []string {
		return ids(ordered, resID, func(x Result) bool {
			return !slices.Contains(verdicts, x.Verdict) && (suite == "" || x.Suite == suite) && (level == "" || x.Level == level)
		})
	}
	// The sample must exercise every filter, or the steps below prove less
	// than they say.
	if len(keep([]Verdict{Pass}, "", "")) == total || len(keep(nil, "lifecycle", "")) == 0 || len(keep(nil, "", LevelMust)) == total {
		t.Fatal("the sample report does not have the mix of verdicts, suites and levels these steps need")
	}

	expectShown(t, ctx, rows, "loading", keep(nil, "", ""), total)

	var off []Verdict
	for _, v := range []Verdict{Pass, Fail, Warn} {
		click(t, ctx, fmt.Sprintf(`#filters input[name=verdict][value=%q]`, v))
		off = append(off, v)
		expectShown(t, ctx, rows, "unchecking "+strings.Join(verdictStrings(off), ", "), keep(off, "", ""), total)
	}
	click(t, ctx, `#filters input[name=verdict][value="pass"]`)
	off = off[1:]
	expectShown(t, ctx, rows, "checking pass again", keep(off, "", ""), total)

	choose(t, ctx, "suite", "lifecycle")
	expectShown(t, ctx, rows, "suite lifecycle with fail and warn unchecked", keep(off, "lifecycle", ""), total)
	choose(t, ctx, "level", LevelInvariant)
	expectShown(t, ctx, rows, "suite lifecycle, level INVARIANT", keep(off, "lifecycle", LevelInvariant), total)

	click(t, ctx, `#filters button.all`)
	expectShown(t, ctx, rows, `"Show all"`, keep(nil, "", ""), total)

	choose(t, ctx, "level", LevelMust)
	expectShown(t, ctx, rows, "level MUST", keep(nil, "", LevelMust), total)
	choose(t, ctx, "level", "")
	choose(t, ctx, "suite", "discovery")
	expectShown(t, ctx, rows, "level all, suite discovery", keep(nil, "discovery", ""), total)
}

func verdictStrings(vs []Verdict) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func scorecardFilters(t *testing.T, bctx context.Context) {
	dir := t.TempDir()
	// Two implementations that disagree: Beta passes what Acme fails, and
	// fails one spec Acme passes, so "did not pass" is the union of both.
	beta := sampleReport("Beta", "2")
	for i := range beta.Results {
		beta.Results[i].Verdict, beta.Results[i].Violations, beta.Results[i].Unchecked = Pass, nil, nil
	}
	beta.Results[0].Verdict, beta.Results[0].Reason = Fail, "the card was not served"
	sc, err := BuildScorecard([]*Report{verified(t, sampleReport("Acme", "1")), verified(t, beta)})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteScorecard(dir, sc, nil); err != nil {
		t.Fatal(err)
	}
	ctx := page(t, bctx, filepath.Join(dir, "scorecard.html"))
	const rows = `tr[data-suite]`
	total := len(sc.Specs)
	specID := func(s ScorecardSpec) string { return s.ID }
	keep := func(differ bool, suite, level string) []string {
		return ids(sc.Specs, specID, func(s ScorecardSpec) bool {
			allPass := !slices.ContainsFunc(s.Verdicts, func(v string) bool { return v != string(Pass) })
			return !(differ && allPass) && (suite == "" || s.Suite == suite) && (level == "" || s.Level == level)
		})
	}
	if n := len(keep(true, "", "")); n == 0 || n == total {
		t.Fatalf("the scorecard has %d of %d specs some implementation did not pass; the filter needs some of each", n, total)
	}

	expectShown(t, ctx, rows, "loading", keep(false, "", ""), total)
	const differ = `#filters input[name=differ]`
	click(t, ctx, differ)
	expectShown(t, ctx, rows, `checking "only specs some implementation did not pass"`, keep(true, "", ""), total)
	choose(t, ctx, "suite", "discovery")
	expectShown(t, ctx, rows, "that and suite discovery", keep(true, "discovery", ""), total)
	click(t, ctx, differ)
	expectShown(t, ctx, rows, `unchecking it, suite discovery`, keep(false, "discovery", ""), total)
	choose(t, ctx, "suite", "")
	choose(t, ctx, "level", LevelInvariant)
	expectShown(t, ctx, rows, "suite all, level INVARIANT", keep(false, "", LevelInvariant), total)
	click(t, ctx, differ)
	expectShown(t, ctx, rows, "level INVARIANT and only not passed", keep(true, "", LevelInvariant), total)
}
