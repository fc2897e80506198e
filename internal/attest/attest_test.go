package attest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/a2a-conform/a2a-conform/internal/attest"
	"github.com/a2a-conform/a2a-conform/internal/attest/localsigstore"
	"github.com/a2a-conform/a2a-conform/reports"
)

// writeReport writes a small report with one result per given verdict and
// reads it back verified, as a submission would be.
func writeReport(t *testing.T, dir, name string, verdicts ...reports.Verdict) (*reports.Report, string) {
	t.Helper()
	r := &reports.Report{
		Implementation:  reports.Implementation{Name: name, Version: "1.0.0"},
		Harness:         reports.Harness{Name: "a2a-conform", Version: "test"},
		ProtocolVersion: "1.0",
		Run:             reports.Run{Start: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Topology: "none", Seed: 7, SpecRevision: "v1.0.1"},
	}
	for i, v := range verdicts {
		res := reports.Result{ID: "LIFE-" + strings.Repeat("0", 2) + string(rune('1'+i)), Title: "spec", Suite: "lifecycle", Level: reports.LevelMust, Verdict: v}
		if v == reports.Warn {
			res.Level = reports.LevelShould
		}
		if v != reports.Pass {
			res.Reason = "because"
		}
		r.Results = append(r.Results, res)
	}
	p := filepath.Join(dir, name+".json")
	if err := reports.WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	got, problems, err := reports.VerifyFile(p)
	if err != nil || len(problems) > 0 {
		t.Fatalf("report does not verify: %v %v", err, problems)
	}
	return got, p
}

// forge flips every fail to pass and rewrites the report with the project's
// own writer, which recomputes the summary and the digest: a re-digested
// forgery that reports.Verify accepts.
func forge(t *testing.T, path string) *reports.Report {
	t.Helper()
	r, err := reports.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Results {
		if r.Results[i].Verdict == reports.Fail {
			r.Results[i].Verdict, r.Results[i].Reason = reports.Pass, ""
		}
	}
	if err := reports.WriteJSON(path, r); err != nil {
		t.Fatal(err)
	}
	got, problems, err := reports.VerifyFile(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("the forgery should pass reports.Verify (that is the point): %v %v", err, problems)
	}
	return got
}

func statementJSON(t *testing.T, r *reports.Report) []byte {
	t.Helper()
	st, err := attest.Statement(r, "https://ci.example.test/run/1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := attest.MarshalStatement(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStatementCarriesTheReportDigestAndVerdicts(t *testing.T) {
	dir := t.TempDir()
	r, _ := writeReport(t, dir, "acme", reports.Pass, reports.Fail, reports.Warn, reports.Indeterminate, reports.NotApplicable)
	var st struct {
		Type    string `json:"_type"`
		Subject []struct {
			Name   string            `json:"name"`
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
		PredicateType string `json:"predicateType"`
		Predicate     struct {
			Result        string   `json:"result"`
			URL           string   `json:"url"`
			PassedTests   []string `json:"passedTests"`
			WarnedTests   []string `json:"warnedTests"`
			FailedTests   []string `json:"failedTests"`
			Configuration []struct {
				Name        string            `json:"name"`
				Digest      map[string]string `json:"digest"`
				Annotations map[string]any    `json:"annotations"`
			} `json:"configuration"`
		} `json:"predicate"`
	}
	if err := json.Unmarshal(statementJSON(t, r), &st); err != nil {
		t.Fatal(err)
	}
	hexDigest := strings.TrimPrefix(r.Digest, "sha256:")
	if st.Type != "https://in-toto.io/Statement/v1" || st.PredicateType != attest.PredicateType {
		t.Errorf("type %q, predicateType %q", st.Type, st.PredicateType)
	}
	if len(st.Subject) != 1 || st.Subject[0].Name != "report.json" || st.Subject[0].Digest["sha256"] != hexDigest {
		t.Errorf("subject %+v, want report.json with sha256 %s", st.Subject, hexDigest)
	}
	p := st.Predicate
	if p.Result != attest.Failed || p.URL != "https://ci.example.test/run/1" {
		t.Errorf("result %q url %q, want FAILED and the url", p.Result, p.URL)
	}
	if !slices.Equal(p.PassedTests, []string{"LIFE-001"}) || !slices.Equal(p.FailedTests, []string{"LIFE-002"}) || !slices.Equal(p.WarnedTests, []string{"LIFE-003"}) {
		t.Errorf("passed %v failed %v warned %v", p.PassedTests, p.FailedTests, p.WarnedTests)
	}
	if len(p.Configuration) != 1 || p.Configuration[0].Digest["sha256"] != hexDigest ||
		p.Configuration[0].Annotations["indeterminate"] != float64(1) || p.Configuration[0].Annotations["harnessVersion"] != "test" || p.Configuration[0].Annotations["specRevision"] != "v1.0.1" {
		t.Errorf("configuration %+v", p.Configuration)
	}
}

func TestPredicateResultIsPassedOnlyForACompleteAllPassRun(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name     string
		verdicts []reports.Verdict
		edit     func(*reports.Report)
		want     string
	}{
		{"all-pass", []reports.Verdict{reports.Pass, reports.Pass, reports.NotApplicable}, nil, attest.Passed},
		{"warn", []reports.Verdict{reports.Pass, reports.Warn}, nil, attest.Warned},
		{"indeterminate", []reports.Verdict{reports.Pass, reports.Indeterminate}, nil, attest.Warned},
		{"could-not-run", []reports.Verdict{reports.Pass, reports.CouldNotRun}, nil, attest.Warned},
		{"focused", []reports.Verdict{reports.Pass}, func(r *reports.Report) { r.Run.Focus = []string{"LIFE-001"} }, attest.Warned},
		{"interrupted", []reports.Verdict{reports.Pass}, func(r *reports.Report) { r.Run.Interrupted = "SIGTERM" }, attest.Warned},
		{"nothing-ran", []reports.Verdict{reports.NotApplicable}, nil, attest.Warned},
		{"fail", []reports.Verdict{reports.Pass, reports.Fail, reports.Indeterminate}, nil, attest.Failed},
	}
	for _, c := range cases {
		r, _ := writeReport(t, dir, c.name, c.verdicts...)
		if c.edit != nil {
			c.edit(r)
		}
		p, err := attest.Predicate(r, "")
		if err != nil {
			t.Fatal(err)
		}
		if p.GetResult() != c.want {
			t.Errorf("%s: result %s, want %s", c.name, p.GetResult(), c.want)
		}
	}
}

type fixture struct {
	ss    *localsigstore.Sigstore
	roots []*root.TrustedRoot
	id    localsigstore.Identity
}

func newFixture(t *testing.T, mode localsigstore.Mode) fixture {
	t.Helper()
	ss, err := localsigstore.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	// Through a file, as verify reads it.
	rootPath := filepath.Join(t.TempDir(), "trusted_root.json")
	if err := ss.WriteTrustedRoot(rootPath); err != nil {
		t.Fatal(err)
	}
	roots, err := attest.TrustedRoots(rootPath)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{ss: ss, roots: roots, id: localsigstore.GitHubIdentity("acme/agent", ".github/workflows/conformance.yml", "0123456789abcdef0123456789abcdef01234567")}
}

func (f fixture) sign(t *testing.T, statement []byte) []*bundle.Bundle {
	t.Helper()
	b, err := f.ss.Sign(statement, f.id)
	if err != nil {
		t.Fatal(err)
	}
	// Through a file too.
	p := filepath.Join(t.TempDir(), "report.sigstore.json")
	if err := localsigstore.WriteBundle(p, b); err != nil {
		t.Fatal(err)
	}
	bs, err := attest.Bundles(p)
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

func TestVerifyBundle(t *testing.T) {
	for _, mode := range []struct {
		name string
		mode localsigstore.Mode
	}{{"public-good", localsigstore.PublicGood}, {"timestamp-only", localsigstore.TimestampOnly}} {
		t.Run(mode.name, func(t *testing.T) {
			f := newFixture(t, mode.mode)
			dir := t.TempDir()
			r, path := writeReport(t, dir, "acme", reports.Pass, reports.Fail, reports.Warn)
			bs := f.sign(t, statementJSON(t, r))

			res, err := attest.Verify(r, bs, f.roots, attest.Policy{})
			if err != nil {
				t.Fatalf("a valid bundle does not verify: %v", err)
			}
			want := reports.SignerIdentity{Issuer: f.id.Issuer, Subject: f.id.SAN, Repository: f.id.Repository,
				Workflow: f.id.Workflow, Commit: f.id.Commit, Ref: f.id.Ref, Run: f.id.Run}
			if res.Identity != want || res.PolicyChecked || res.PredicateResult != attest.Failed {
				t.Errorf("result %+v, want identity %+v, no policy, FAILED", res, want)
			}

			policy := attest.Policy{IdentityRegexp: `^https://github\.com/acme/agent/`, Issuer: attest.GitHubActionsIssuer}
			if res, err := attest.Verify(r, bs, f.roots, policy); err != nil || !res.PolicyChecked {
				t.Errorf("matching policy: %v, %+v", err, res)
			}
			for _, wrong := range []attest.Policy{
				{IdentityRegexp: `^https://github\.com/a2a-conform/a2a-conform/`, Issuer: attest.GitHubActionsIssuer},
				{IdentityRegexp: `^https://github\.com/acme/agent/`, Issuer: "https://accounts.google.com"},
			} {
				if _, err := attest.Verify(r, bs, f.roots, wrong); err == nil {
					t.Errorf("policy %+v: verified, want a failure", wrong)
				} else {
					t.Logf("wrong policy: %v", err)
				}
			}
			if _, err := attest.Verify(r, bs, f.roots, attest.Policy{IdentityRegexp: "x"}); err == nil {
				t.Error("a policy without an issuer was accepted")
			}

			// Another report's bundle does not sign this one.
			other, _ := writeReport(t, dir, "other", reports.Pass)
			if _, err := attest.Verify(other, bs, f.roots, attest.Policy{}); err == nil || !strings.Contains(err.Error(), "another report") {
				t.Errorf("another report's bundle: %v, want 'signs another report'", err)
			}

			// The re-digested forgery passes reports.Verify but not the bundle.
			forged := forge(t, path)
			if forged.Digest == r.Digest {
				t.Fatal("forgery kept the digest")
			}
			if _, err := attest.Verify(forged, bs, f.roots, attest.Policy{}); err == nil || !strings.Contains(err.Error(), "another report") {
				t.Errorf("forged report: %v, want 'signs another report'", err)
			}

			// A bundle of another Sigstore (a root we do not trust).
			stranger := newFixture(t, mode.mode)
			if _, err := attest.Verify(r, stranger.sign(t, statementJSON(t, r)), f.roots, attest.Policy{}); err == nil {
				t.Error("a bundle from an untrusted CA verified")
			} else {
				t.Logf("untrusted instance: %v", err)
			}
			rogue, err := f.ss.WithOtherFulcio()
			if err != nil {
				t.Fatal(err)
			}
			rf := fixture{ss: rogue, roots: f.roots, id: f.id}
			if _, err := attest.Verify(r, rf.sign(t, statementJSON(t, r)), f.roots, attest.Policy{}); err == nil {
				t.Error("a certificate from a CA the root does not list verified")
			} else {
				t.Logf("untrusted CA: %v", err)
			}
		})
	}
}

func TestVerifyRejectsASignedPredicateThatIsNotTheReports(t *testing.T) {
	f := newFixture(t, localsigstore.PublicGood)
	r, _ := writeReport(t, t.TempDir(), "acme", reports.Pass, reports.Fail)
	var st map[string]any
	if err := json.Unmarshal(statementJSON(t, r), &st); err != nil {
		t.Fatal(err)
	}
	pred := st["predicate"].(map[string]any)
	pred["result"] = attest.Passed
	pred["passedTests"] = []any{"LIFE-001", "LIFE-002"}
	delete(pred, "failedTests")
	lie, _ := json.Marshal(st)
	_, err := attest.Verify(r, f.sign(t, lie), f.roots, attest.Policy{})
	if err == nil || !strings.Contains(err.Error(), "not this report's") {
		t.Errorf("a signed statement whose result lies about the report: %v, want a failure", err)
	}
}

func TestTrustedRootsAndBundlesOnePerLine(t *testing.T) {
	f := newFixture(t, localsigstore.TimestampOnly)
	other, err := localsigstore.New(localsigstore.PublicGood)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var lines []byte
	for _, s := range []*localsigstore.Sigstore{other, f.ss} {
		p := filepath.Join(dir, "one.json")
		if err := s.WriteTrustedRoot(p); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		lines = append(append(lines, b...), '\n')
	}
	rootsPath := filepath.Join(dir, "trusted_root.jsonl")
	if err := os.WriteFile(rootsPath, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := attest.TrustedRoots(rootsPath)
	if err != nil || len(roots) != 2 {
		t.Fatalf("roots: %d, %v", len(roots), err)
	}
	r, _ := writeReport(t, dir, "acme", reports.Pass)
	if _, err := attest.Verify(r, f.sign(t, statementJSON(t, r)), roots, attest.Policy{}); err != nil {
		t.Errorf("bundle against the second of two roots: %v", err)
	}
	if err := os.WriteFile(rootsPath, []byte("{\"mediaType\": 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := attest.TrustedRoots(rootsPath); err == nil {
		t.Error("a file that is no trusted root was read as one")
	}
	if _, err := attest.Bundles(rootsPath); err == nil {
		t.Error("a file that is no bundle was read as one")
	}
}
