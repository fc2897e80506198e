package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/attest"
	"github.com/a2a-conform/a2a-conform/internal/attest/localsigstore"
	"github.com/a2a-conform/a2a-conform/reports"
)

func writeAttestReport(t *testing.T, path, name string, verdicts ...reports.Verdict) {
	t.Helper()
	r := &reports.Report{
		Implementation:  reports.Implementation{Name: name, Version: "1.0.0"},
		Harness:         reports.Harness{Name: "a2a-conform", Version: "test"},
		ProtocolVersion: "1.0",
		Run:             reports.Run{Start: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Topology: "none"},
	}
	for i, v := range verdicts {
		res := reports.Result{ID: []string{"DISC-001", "LIFE-001", "LIFE-002"}[i], Title: "spec", Suite: "lifecycle", Level: reports.LevelMust, Verdict: v}
		if v != reports.Pass {
			res.Reason = "because"
		}
		r.Results = append(r.Results, res)
	}
	if err := reports.WriteJSON(path, r); err != nil {
		t.Fatal(err)
	}
}

// forgeReport flips fails to pass and rewrites the file with the project's
// own writer (summary and digest recomputed): reports.Verify accepts it.
func forgeReport(t *testing.T, path string) {
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
}

func run(args ...string) (int, string, string) {
	var so, se bytes.Buffer
	code := Main(args, &so, &se)
	return code, so.String(), se.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// attest writes the Statement; a local Sigstore signs it; verify checks the
// bundle offline and names the signer; a re-digested forgery, another
// report, a wrong identity policy fail; no bundle says unattested.
func TestAttestAndVerifyCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	writeAttestReport(t, report, "Acme Agent", reports.Pass, reports.Fail)

	stmt, pred := filepath.Join(dir, "statement.json"), filepath.Join(dir, "predicate.json")
	if code, so, se := run("attest", report, "--out", stmt, "--predicate-out", pred, "--url", "https://ci.example.test/runs/9"); code != 0 {
		t.Fatalf("attest: exit %d\n%s%s", code, so, se)
	}
	r, _, _ := reports.VerifyFile(report)
	statement, _ := os.ReadFile(stmt)
	var st struct {
		Subject []struct {
			Name   string            `json:"name"`
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
		PredicateType string `json:"predicateType"`
	}
	if err := json.Unmarshal(statement, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Subject) != 1 || st.Subject[0].Name != "report.json" || "sha256:"+st.Subject[0].Digest["sha256"] != r.Digest || st.PredicateType != attest.PredicateType {
		t.Fatalf("statement %s", statement)
	}
	if p, _ := os.ReadFile(pred); !bytes.Contains(p, []byte(`"result": "FAILED"`)) || !bytes.Contains(p, []byte("ci.example.test/runs/9")) {
		t.Errorf("predicate file: %s", p)
	}
	if code, so, _ := run("attest", report); code != 0 || !strings.Contains(so, attest.PredicateType) {
		t.Errorf("attest to stdout: exit %d\n%s", code, so)
	}

	ss, err := localsigstore.New(localsigstore.PublicGood)
	if err != nil {
		t.Fatal(err)
	}
	id := localsigstore.GitHubIdentity("acme/agent", ".github/workflows/conformance.yml", "0123456789abcdef0123456789abcdef01234567")
	b, err := ss.Sign(statement, id)
	if err != nil {
		t.Fatal(err)
	}
	bundlePath, rootPath := filepath.Join(dir, "report.sigstore.json"), filepath.Join(dir, "trusted_root.json")
	if err := localsigstore.WriteBundle(bundlePath, b); err != nil {
		t.Fatal(err)
	}
	if err := ss.WriteTrustedRoot(rootPath); err != nil {
		t.Fatal(err)
	}

	code, so, se := run("verify", report, "--bundle", bundlePath, "--trusted-root", rootPath)
	if code != 0 {
		t.Fatalf("verify with a valid bundle: exit %d\n%s%s", code, so, se)
	}
	for _, want := range []string{"valid (Acme Agent", "attested: the bundle signs this report (signed result FAILED)",
		"repository: https://github.com/acme/agent", "workflow:   https://github.com/acme/agent/.github/workflows/conformance.yml@refs/heads/main",
		"commit:     0123456789abcdef", "no identity policy given"} {
		if !strings.Contains(so, want) {
			t.Errorf("verify output lacks %q:\n%s", want, so)
		}
	}
	code, so, _ = run("verify", "--bundle", bundlePath, "--trusted-root", rootPath, report,
		"--certificate-identity-regexp", `^https://github\.com/acme/agent/`, "--certificate-oidc-issuer", attest.GitHubActionsIssuer)
	if code != 0 || strings.Contains(so, "no identity policy") {
		t.Errorf("verify with a matching policy: exit %d\n%s", code, so)
	}
	code, so, _ = run("verify", report, "--bundle", bundlePath, "--trusted-root", rootPath,
		"--certificate-identity-regexp", `^https://github\.com/a2a-conform/a2a-conform/`, "--certificate-oidc-issuer", attest.GitHubActionsIssuer)
	if code != 1 || !strings.Contains(so, "ATTESTATION INVALID") {
		t.Errorf("verify with a wrong identity policy: exit %d, want 1\n%s", code, so)
	}
	if code, so, _ := run("verify", report); code != 0 || !strings.Contains(so, "unattested") {
		t.Errorf("verify without a bundle: exit %d\n%s", code, so)
	}
	if code, _, se := run("verify", report, "--bundle", bundlePath); code != 2 || !strings.Contains(se, "--trusted-root") {
		t.Errorf("--bundle without --trusted-root: exit %d, want 2\n%s", code, se)
	}
	if code, _, se := run("verify", report, "--certificate-identity-regexp", "x"); code != 2 {
		t.Errorf("a policy without a bundle: exit %d, want 2\n%s", code, se)
	}

	// The bundle of one report does not attest another.
	other := filepath.Join(dir, "other.json")
	writeAttestReport(t, other, "Other", reports.Pass)
	if code, so, _ := run("verify", other, "--bundle", bundlePath, "--trusted-root", rootPath); code != 1 || !strings.Contains(so, "signs another report") {
		t.Errorf("another report's bundle: exit %d, want 1\n%s", code, so)
	}

	// The re-digested forgery: valid as a file, invalid against its bundle,
	// unattested without one.
	forged := filepath.Join(t.TempDir(), "report.json")
	copyFile(t, report, forged)
	forgeReport(t, forged)
	code, so, _ = run("verify", forged, "--bundle", bundlePath, "--trusted-root", rootPath)
	if code != 1 || !strings.Contains(so, "valid (") || !strings.Contains(so, "ATTESTATION INVALID") || !strings.Contains(so, "signs another report") {
		t.Errorf("forged report with the bundle: exit %d, want 1 and the subject mismatch\n%s", code, so)
	}
	if code, so, _ := run("verify", forged); code != 0 || !strings.Contains(so, "unattested") {
		t.Errorf("forged report without a bundle: exit %d, want 0 and unattested\n%s", code, so)
	}
}

// The scorecard marks each column ran-here, attested (with the signer) or
// unattested, and refuses a submission whose bundle does not verify.
func TestScorecardMarksAttestation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	ours, acme, beta := filepath.Join(dir, "ours.json"), filepath.Join(subs, "acme.json"), filepath.Join(subs, "beta.json")
	writeAttestReport(t, ours, "Reference", reports.Pass)
	writeAttestReport(t, acme, "Acme", reports.Pass, reports.Fail)
	writeAttestReport(t, beta, "Beta", reports.Pass)

	ss, err := localsigstore.New(localsigstore.TimestampOnly)
	if err != nil {
		t.Fatal(err)
	}
	rootPath := filepath.Join(dir, "trusted_root.json")
	if err := ss.WriteTrustedRoot(rootPath); err != nil {
		t.Fatal(err)
	}
	_, statement, se := run("attest", acme)
	if statement == "" {
		t.Fatal(se)
	}
	b, err := ss.Sign([]byte(statement), localsigstore.GitHubIdentity("acme/agent", ".github/workflows/conformance.yml", "abc123"))
	if err != nil {
		t.Fatal(err)
	}
	if err := localsigstore.WriteBundle(filepath.Join(subs, "acme.sigstore.json"), b); err != nil {
		t.Fatal(err)
	}

	site := filepath.Join(dir, "site")
	// The glob of submissions/*.json also names the bundle: it is skipped.
	code, so, se := run("scorecard", "--out", site, "--trusted-root", rootPath, "--ran-here", ours,
		acme, filepath.Join(subs, "acme.sigstore.json"), beta)
	if code != 0 {
		t.Fatalf("scorecard: exit %d\n%s%s", code, so, se)
	}
	_, got := readScorecard(t, site)
	if len(got) != 3 || got["Reference"].Status != reports.AttestRanHere || got["Beta"].Status != reports.AttestUnattested ||
		got["Acme"].Status != reports.AttestAttested || got["Acme"].Identity == nil || got["Acme"].Identity.Repository != "https://github.com/acme/agent" {
		t.Errorf("attestations %+v\n%s", got, so)
	}
	page, _ := os.ReadFile(filepath.Join(site, "scorecard.html"))
	for _, want := range []string{">ran here<", ">attested<", ">unattested<", "signed by repository https://github.com/acme/agent"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("scorecard.html lacks %q", want)
		}
	}

	// A bundle and no root to check it: refused.
	if code, _, se := run("scorecard", "--out", filepath.Join(dir, "s2"), acme, beta); code != 1 || !strings.Contains(se, "no --trusted-root") {
		t.Errorf("bundle without --trusted-root: exit %d, want 1\n%s", code, se)
	}
	// The forged submission beside its old bundle: the whole build is refused.
	forgeReport(t, acme)
	if code, _, se := run("scorecard", "--out", filepath.Join(dir, "s3"), "--trusted-root", rootPath, acme, beta); code != 1 || !strings.Contains(se, "does not verify") {
		t.Errorf("forged submission with its bundle: exit %d, want 1\n%s", code, se)
	}
}
