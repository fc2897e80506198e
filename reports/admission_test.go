package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A self-reported column says so wherever the column is shown: the
// implementations table (with why), the matrix's column header, the badge,
// scorecard.json; and the page says by what rule reports were admitted.
func TestScorecardLabelsSelfReportedColumns(t *testing.T) {
	acme, beta := verified(t, sampleReport("Acme", "1")), verified(t, sampleReport("Beta", "2"))
	client := sampleReport("Client X", "3")
	client.Implementation.Role, client.Run.Mode = "client", "client"
	client.Results = []Result{{ID: "CLI-001", Title: "a client spec", Suite: "client", Level: LevelMust, Verdict: Pass}}
	client = verified(t, client)
	sc, err := BuildScorecard([]*Report{acme, beta, client})
	if err != nil {
		t.Fatal(err)
	}
	signer := "https://github.com/a2a-conform/a2a-conform/.github/workflows/a2a-conform.yml@refs/tags/v1.2.0"
	sc.SetAttestation(acme, Attestation{Status: AttestAttested, PolicyChecked: true,
		Identity: &SignerIdentity{Subject: signer, Issuer: "https://token.actions.githubusercontent.com", Repository: "https://github.com/acme/agent", Workflow: signer, Commit: "abc"}})
	why := "signed by https://github.com/beta/agent/.github/workflows/own.yml@refs/heads/main " + payloadImg + ", not the required signer"
	sc.SetAttestation(beta, Attestation{Status: AttestSelfReported, Reason: why})
	sc.SetAttestation(client, Attestation{Status: AttestSelfReported, Reason: "no bundle beside it"})
	sc.SetAdmission(Admission{Signer: signer, Issuer: "https://token.actions.githubusercontent.com", Others: AdmitSelfReported})

	dir := t.TempDir()
	if err := WriteScorecard(dir, sc, nil); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "scorecard.html"))
	html := string(page)
	for _, re := range []string{
		// the implementations table, with the reason, escaped
		`(?s)<strong>Beta</strong></a>[^\n]*?<span class="badge v-warn self-reported"[^>]*>self-reported</span><span class="sub attest-reason">signed by https://github.com/beta/agent/[^<]*&lt;img src=x`,
		`(?s)<strong>Acme</strong></a>[^\n]*?>attested</span>`,
		// each matrix's column header
		`<a class="vname" href="vendors/beta/report.html">Beta</a>(?:[^<]|<[^/]|</[^t])*?>self-reported</span>`,
		`<a class="vname" href="vendors/client-x/report.html">Client X</a>(?:[^<]|<[^/]|</[^t])*?>self-reported</span>`,
		// the rule, among the notes
		`<div class="banner info">A column is attested only when its report&#39;s Sigstore bundle verifies and was signed by https://github.com/a2a-conform/a2a-conform/.github/workflows/a2a-conform.yml@refs/tags/v1.2.0 \(issuer https://token.actions.githubusercontent.com\)[^<]*labelled self-reported`,
	} {
		if !regexp.MustCompile(re).MatchString(html) {
			t.Errorf("scorecard.html does not match %s", re)
		}
	}
	if m := regexp.MustCompile(`<a class="vname" href="vendors/acme/report.html">Acme</a>(?:[^<]|<[^/]|</[^t])*?self-reported`).FindString(html); m != "" || strings.Contains(html, "<img src=x") {
		t.Logf("%.300s", m)
		t.Error("the attested column is labelled self-reported, or a reason is unescaped")
	}
	for slug, want := range map[string]bool{"acme": false, "beta": true, "client-x": true} {
		b, _ := os.ReadFile(filepath.Join(dir, "badges", slug+".svg"))
		if got := strings.Contains(string(b), "A2A v1.0 self-reported"); got != want {
			t.Errorf("badge %s: self-reported %v, want %v\n%s", slug, got, want, b)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "scorecard.json"))
	var back Scorecard
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	got := map[string]Attestation{}
	for _, v := range back.Vendors {
		got[v.Implementation.Name] = v.Attestation
	}
	if got["Beta"].Status != AttestSelfReported || got["Beta"].Reason != why || got["Acme"].Status != AttestAttested ||
		back.Admission == nil || back.Admission.Signer != signer || back.Admission.Others != AdmitSelfReported {
		t.Errorf("scorecard.json: %+v, admission %+v", got, back.Admission)
	}
}
