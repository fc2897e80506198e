package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/attest"
	"github.com/a2a-conform/a2a-conform/internal/attest/localsigstore"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The identity a release of the reusable workflow signs with: the
// certificate names the reusable workflow at its tag, and the vendor's
// repository as the source.
const releaseSigner = "https://github.com/a2a-conform/a2a-conform/.github/workflows/a2a-conform.yml@refs/tags/v1.2.0"

func reusableWorkflowIdentity(vendorRepo string) localsigstore.Identity {
	return localsigstore.Identity{
		Issuer:     attest.GitHubActionsIssuer,
		SAN:        releaseSigner,
		Repository: "https://github.com/" + vendorRepo,
		Workflow:   releaseSigner,
		Commit:     "0123456789abcdef0123456789abcdef01234567",
		Ref:        "refs/heads/main",
		Run:        "https://github.com/" + vendorRepo + "/actions/runs/7/attempts/1",
	}
}

// admissionFixture is a submissions directory: acme signed by the release
// workflow, beta unsigned, gamma signed by its own workflow, delta signed
// by the release workflow and then re-digested with a fail turned into a
// pass, and the scorecard's own run.
type admissionFixture struct {
	dir, root, ours                 string
	acme, beta, gamma, delta, kappa string
}

func newAdmissionFixture(t *testing.T) admissionFixture {
	t.Helper()
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	f := admissionFixture{dir: dir, root: filepath.Join(dir, "trusted_root.json"), ours: filepath.Join(dir, "ours.json")}
	for _, s := range []struct {
		p    *string
		name string
	}{{&f.acme, "Acme"}, {&f.beta, "Beta"}, {&f.gamma, "Gamma"}, {&f.delta, "Delta"}} {
		*s.p = filepath.Join(subs, strings.ToLower(s.name)+".json")
		writeAttestReport(t, *s.p, s.name, reports.Pass, reports.Fail)
	}
	writeAttestReport(t, f.ours, "Reference", reports.Pass)

	ss, err := localsigstore.New(localsigstore.TimestampOnly)
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.WriteTrustedRoot(f.root); err != nil {
		t.Fatal(err)
	}
	sign := func(report string, id localsigstore.Identity) {
		t.Helper()
		_, statement, se := run("attest", report)
		if statement == "" {
			t.Fatal(se)
		}
		b, err := ss.Sign([]byte(statement), id)
		if err != nil {
			t.Fatal(err)
		}
		if err := localsigstore.WriteBundle(bundleBeside(report), b); err != nil {
			t.Fatal(err)
		}
	}
	sign(f.acme, reusableWorkflowIdentity("acme/agent"))
	sign(f.gamma, localsigstore.GitHubIdentity("gamma/agent", ".github/workflows/own-conformance.yml", "abc123"))
	sign(f.delta, reusableWorkflowIdentity("delta/agent"))
	forgeReport(t, f.delta)
	return f
}

func (f admissionFixture) all() []string { return []string{f.acme, f.beta, f.gamma, f.delta} }

func readScorecard(t *testing.T, dir string) (reports.Scorecard, map[string]reports.Attestation) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "scorecard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc reports.Scorecard
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Fatal(err)
	}
	got := map[string]reports.Attestation{}
	for _, v := range sc.Vendors {
		got[v.Implementation.Name] = v.Attestation
	}
	return sc, got
}

// --require-signer admits acme (its bundle verifies and names the release
// workflow) and the scorecard's own run; it leaves out the unsigned, the
// other signer's and the tampered report, saying why for each.
func TestScorecardRequireSignerRefusesTheRest(t *testing.T) {
	t.Parallel()
	f := newAdmissionFixture(t)
	site := filepath.Join(f.dir, "site")
	args := append([]string{"scorecard", "--out", site, "--trusted-root", f.root, "--require-signer", releaseSigner, "--ran-here", f.ours}, f.all()...)
	code, so, se := run(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	for _, w := range []string{
		"left out " + f.beta + " (Beta 1.0.0): no bundle beta.sigstore.json beside it: unsigned",
		"left out " + f.gamma + " (Gamma 1.0.0): signed by https://github.com/gamma/agent/.github/workflows/own-conformance.yml@refs/heads/main (issuer " + attest.GitHubActionsIssuer + "), not the required signer",
		"left out " + f.delta + " (Delta 1.0.0): its bundle does not verify: the bundle signs another report",
	} {
		if !strings.Contains(se, w) {
			t.Errorf("stderr lacks %q:\n%s", w, se)
		}
	}
	if !strings.Contains(so, f.acme+": attested, signed by repository https://github.com/acme/agent, workflow "+releaseSigner) {
		t.Errorf("stdout does not name acme's signer:\n%s", so)
	}
	sc, got := readScorecard(t, site)
	if len(got) != 2 || got["Acme"].Status != reports.AttestAttested || !got["Acme"].PolicyChecked || got["Reference"].Status != reports.AttestRanHere {
		t.Errorf("columns %+v", got)
	}
	if a := sc.Admission; a == nil || a.Signer != releaseSigner || a.Issuer != attest.GitHubActionsIssuer || a.Others != reports.AdmitRefuse || a.Refused != 3 {
		t.Errorf("admission %+v", sc.Admission)
	}
	page, _ := os.ReadFile(filepath.Join(site, "scorecard.html"))
	if !strings.Contains(string(page), "Every other report was left out (3).") {
		t.Error("scorecard.html does not say that reports were left out")
	}
	for _, gone := range []string{"beta", "gamma", "delta"} {
		if _, err := os.Stat(filepath.Join(site, "badges", gone+".svg")); err == nil {
			t.Errorf("a left-out report has a badge: %s", gone)
		}
	}

	// The scorecard's own run is admitted whoever signed it, and the
	// publisher hears that its bundle is not the required signer's.
	code, so, se = run("scorecard", "--out", filepath.Join(f.dir, "s1"), "--trusted-root", f.root, "--require-signer", releaseSigner, "--ran-here", f.gamma)
	if _, got := readScorecard(t, filepath.Join(f.dir, "s1")); code != 0 || got["Gamma"].Status != reports.AttestRanHere || got["Gamma"].Identity != nil ||
		!strings.Contains(se, "ran here, admitted as such; its bundle is not the required signer's: signed by https://github.com/gamma/") {
		t.Errorf("ran here, signed by another: exit %d, %+v\n%s%s", code, got, so, se)
	}

	// The same submissions pinned to another signer: acme is left out too,
	// and with nothing else, no scorecard is built.
	other := strings.Replace(releaseSigner, "v1.2.0", "v1.3.0", 1)
	code, _, se = run(append([]string{"scorecard", "--out", filepath.Join(f.dir, "s2"), "--trusted-root", f.root, "--require-signer", other}, f.all()...)...)
	if code != 1 || !strings.Contains(se, "left out "+f.acme+" (Acme 1.0.0): signed by "+releaseSigner) || !strings.Contains(se, "no report was admitted") {
		t.Errorf("wrong identity: exit %d, want 1\n%s", code, se)
	}
	// A regexp over every release tag admits acme; the wrong issuer does not.
	code, so, se = run("scorecard", "--out", filepath.Join(f.dir, "s3"), "--trusted-root", f.root,
		"--require-signer-regexp", `^https://github\.com/a2a-conform/a2a-conform/\.github/workflows/a2a-conform\.yml@refs/tags/v`, f.acme)
	if code != 0 || !strings.Contains(so, "attested") {
		t.Errorf("--require-signer-regexp: exit %d\n%s%s", code, so, se)
	}
	code, _, se = run("scorecard", "--out", filepath.Join(f.dir, "s4"), "--trusted-root", f.root,
		"--require-signer", releaseSigner, "--require-issuer", "https://accounts.google.com", f.acme)
	if code != 1 || !strings.Contains(se, "not the required signer") {
		t.Errorf("another issuer: exit %d, want 1\n%s", code, se)
	}
}

// --admit-self-reported shows every report that verifies, each not signed
// by the required signer labelled self-reported with why, wherever its
// column shows.
func TestScorecardAdmitSelfReported(t *testing.T) {
	t.Parallel()
	f := newAdmissionFixture(t)
	site := filepath.Join(f.dir, "site")
	args := append([]string{"scorecard", "--out", site, "--trusted-root", f.root, "--require-signer", releaseSigner, "--admit-self-reported"}, f.all()...)
	code, so, se := run(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	if strings.Contains(se, "left out") {
		t.Errorf("a report was left out:\n%s", se)
	}
	sc, got := readScorecard(t, site)
	want := map[string]string{
		"Acme":  "",
		"Beta":  "no bundle beta.sigstore.json beside it",
		"Gamma": "signed by https://github.com/gamma/agent/",
		"Delta": "the bundle signs another report",
	}
	for name, why := range want {
		a := got[name]
		switch {
		case why == "" && a.Status != reports.AttestAttested:
			t.Errorf("%s: %+v, want attested", name, a)
		case why != "" && (a.Status != reports.AttestSelfReported || !strings.Contains(a.Reason, why) || a.Identity != nil):
			t.Errorf("%s: %+v, want self-reported because %q", name, a, why)
		}
	}
	if sc.Admission == nil || sc.Admission.Others != reports.AdmitSelfReported || sc.Admission.Refused != 0 {
		t.Errorf("admission %+v", sc.Admission)
	}
	page, _ := os.ReadFile(filepath.Join(site, "scorecard.html"))
	if n := strings.Count(string(page), ">self-reported</span>"); n != 6 { // 3 in the table, 3 in the matrix header
		t.Errorf("scorecard.html labels self-reported %d times, want 6", n)
	}
	for slug, label := range map[string]bool{"acme": false, "beta": true, "gamma": true, "delta": true} {
		b, _ := os.ReadFile(filepath.Join(site, "badges", slug+".svg"))
		if strings.Contains(string(b), "self-reported") != label {
			t.Errorf("badge %s: self-reported %v, want %v", slug, !label, label)
		}
	}
	if !strings.Contains(so, f.beta+": self-reported: no bundle") {
		t.Errorf("stdout:\n%s", so)
	}
}

func TestScorecardAdmissionUsage(t *testing.T) {
	t.Parallel()
	f := newAdmissionFixture(t)
	out := filepath.Join(f.dir, "never")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--require-signer", releaseSigner}, "needs --trusted-root"},
		{[]string{"--admit-self-reported", "--trusted-root", f.root}, "go with --require-signer"},
		{[]string{"--require-issuer", attest.GitHubActionsIssuer, "--trusted-root", f.root}, "go with --require-signer"},
		{[]string{"--require-signer", releaseSigner, "--require-signer-regexp", "x", "--trusted-root", f.root}, "not both"},
		{[]string{"--require-signer", releaseSigner, "--trusted-root", f.root, "--certificate-identity", releaseSigner, "--certificate-oidc-issuer", attest.GitHubActionsIssuer}, "one or the other"},
		{[]string{"--require-signer-regexp", "(", "--trusted-root", f.root}, "("},
		{[]string{"--require-signer", releaseSigner, "--trusted-root", f.acme}, "--trusted-root"},
	} {
		code, so, se := run(append(append([]string{"scorecard", "--out", out}, c.args...), f.acme)...)
		if code != 2 || !strings.Contains(se, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", c.args, code, c.want, so, se)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a usage error wrote a scorecard")
	}
	// Without the flag, today's rule stands: the tampered report's bundle
	// stops the whole build.
	code, _, se := run(append([]string{"scorecard", "--out", out, "--trusted-root", f.root}, f.all()...)...)
	if code != 1 || !strings.Contains(se, "does not verify") {
		t.Errorf("without --require-signer: exit %d, want 1\n%s", code, se)
	}
}
