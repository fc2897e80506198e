package reports

import "fmt"

// Attestation statuses of a scorecard column (ScorecardVendor.Attestation).
const (
	// AttestRanHere: the scorecard's own workflow ran the harness and
	// produced the report.
	AttestRanHere = "ran-here"
	// AttestAttested: a vendor submitted the report with a Sigstore bundle
	// that verified against the scorecard's trusted root: the signer's
	// identity is in Identity.
	AttestAttested = "attested"
	// AttestUnattested: a vendor submitted the report without a bundle.
	// Its digest shows only that the file is self-consistent: anyone who
	// edits a verdict can recompute it.
	AttestUnattested = "unattested"
	// AttestSelfReported: the scorecard admits only reports signed by a
	// given identity (Admission), and this one is not: no bundle, a bundle
	// that does not verify or signs another report, or another signer. It
	// is shown because the publisher chose to show such reports, labelled
	// as the vendor's own claim; Reason says why it is not attested.
	AttestSelfReported = "self-reported"
)

// Attestation says where a scorecard column's report comes from.
type Attestation struct {
	// Status is AttestRanHere, AttestAttested or AttestUnattested.
	Status string `json:"status"`
	// Identity is who signed the report's statement, when a bundle
	// verified (always for attested; for ran-here when the scorecard's own
	// run was signed too).
	Identity *SignerIdentity `json:"identity,omitempty"`
	// PolicyChecked says the identity was matched against a policy the
	// publisher gave (--certificate-identity… and --certificate-oidc-issuer…);
	// false means any identity the trusted root's CA certified was accepted,
	// and Identity says which one it was.
	PolicyChecked bool `json:"policyChecked,omitempty"`
	// Reason says why a self-reported column is not attested.
	Reason string `json:"reason,omitempty"`
}

// Admission is the rule a scorecard admitted reports by (scorecard
// --require-signer): a report is attested only when its bundle verifies and
// its signing certificate names Signer (or matches SignerRegexp) and Issuer,
// as sigstore-go matches a certificate identity. Reports the scorecard ran
// itself are always admitted. Every other report is left out (Others
// "refused") or shown labelled self-reported (Others "self-reported").
type Admission struct {
	Signer       string `json:"signer,omitempty"`
	SignerRegexp string `json:"signerRegexp,omitempty"`
	Issuer       string `json:"issuer"`
	Others       string `json:"others"`
	// Refused counts the reports left out.
	Refused int `json:"refused"`
}

// What an Admission does with a report it does not attest.
const (
	AdmitRefuse       = "refused"
	AdmitSelfReported = AttestSelfReported
)

// SetAdmission records the rule the reports were admitted by, and says it
// in the page's notes: a reader must know that columns were left out, or
// that some are only their vendor's word.
func (sc *Scorecard) SetAdmission(a Admission) {
	if sc == nil {
		return
	}
	sc.Admission = &a
	signer := clip(a.Signer, 300)
	if a.SignerRegexp != "" {
		signer = "an identity matching " + clip(a.SignerRegexp, 300)
	}
	note := "A column is attested only when its report's Sigstore bundle verifies and was signed by " + signer +
		" (issuer " + clip(a.Issuer, 200) + "), besides the reports the scorecard ran itself. "
	if a.Others == AdmitSelfReported {
		note += "Every other report is shown labelled self-reported: its figures are its vendor's word."
	} else {
		note += fmt.Sprintf("Every other report was left out (%d).", a.Refused)
	}
	sc.Notes = append(sc.Notes, note)
}

// SignerIdentity is who signed a report's statement, read from the
// signing certificate (Fulcio's extensions, OID 1.3.6.1.4.1.57264.1.*).
// For GitHub Actions, Repository is the repository whose workflow ran,
// Workflow the workflow file that signed it at a ref (the reusable
// workflow's, when one was called), Commit the commit it ran at.
type SignerIdentity struct {
	Issuer     string `json:"issuer,omitempty"`
	Subject    string `json:"subject,omitempty"` // the certificate's subject alternative name
	Repository string `json:"repository,omitempty"`
	Workflow   string `json:"workflow,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Ref        string `json:"ref,omitempty"`
	Run        string `json:"run,omitempty"`
}

// String is one line: repository, workflow and commit when the certificate
// names them, else the subject and issuer.
func (id *SignerIdentity) String() string {
	if id == nil {
		return "unknown"
	}
	if id.Repository == "" && id.Workflow == "" {
		return clip(id.Subject, 200) + " (issuer " + clip(id.Issuer, 120) + ")"
	}
	s := "repository " + clip(dashIfEmpty(id.Repository), 200) + ", workflow " + clip(dashIfEmpty(id.Workflow), 300)
	s += ", commit " + clip(dashIfEmpty(id.Commit), 80)
	return s
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SetAttestation records where the column built from r comes from. It
// reports false when r is not one of the scorecard's reports (compared by
// identity: the *Report given to BuildScorecard).
func (sc *Scorecard) SetAttestation(r *Report, a Attestation) bool {
	if sc == nil {
		return false
	}
	for i, own := range sc.reports {
		if own == r && i < len(sc.Vendors) {
			sc.Vendors[i].Attestation = a
			return true
		}
	}
	return false
}
