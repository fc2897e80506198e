package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/a2a-conform/a2a-conform/internal/attest"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// admission is scorecard's --require-signer: which signer makes a
// submission attested, and what becomes of every other one.
type admission struct {
	signer, signerRegexp, issuer string
	selfReported                 bool
	roots                        []*root.TrustedRoot // read by check
}

func addAdmissionFlags(fs *flag.FlagSet) *admission {
	a := &admission{}
	fs.StringVar(&a.signer, "require-signer", "", "admit as attested only reports whose bundle verifies and whose signing certificate's identity (subject alternative name) is `SAN`, e.g. the reusable workflow at a release tag: https://github.com/a2a-conform/a2a-conform/.github/workflows/a2a-conform.yml@refs/tags/v1.0.0. Every other report is left out, with the reason printed, unless --admit-self-reported; --ran-here reports are always admitted")
	fs.StringVar(&a.signerRegexp, "require-signer-regexp", "", "as --require-signer, with the identity matching `REGEXP` (RE2, unanchored: use ^…$), e.g. to accept every release tag of the reusable workflow")
	fs.StringVar(&a.issuer, "require-issuer", "", "the OIDC issuer `URL` the signing certificate must name with --require-signer (default "+attest.GitHubActionsIssuer+", GitHub Actions)")
	fs.BoolVar(&a.selfReported, "admit-self-reported", false, "with --require-signer: show the reports it does not attest, each labelled self-reported (the page, scorecard.json and the badge say so), instead of leaving them out")
	return a
}

func (a *admission) on() bool { return a.signer != "" || a.signerRegexp != "" }

// check reports a usage error: half a rule, two rules, or a rule with
// nothing to check bundles against.
func (a *admission) check(att *attestFlags) error {
	if !a.on() {
		if a.issuer != "" || a.selfReported {
			return errors.New("--require-issuer and --admit-self-reported go with --require-signer or --require-signer-regexp")
		}
		return nil
	}
	if a.signer != "" && a.signerRegexp != "" {
		return errors.New("give --require-signer or --require-signer-regexp, not both")
	}
	if att.policy != (attest.Policy{}) {
		return errors.New("--require-signer replaces --certificate-identity… and --certificate-oidc-issuer… on scorecard: give one or the other")
	}
	if *att.trustedRoot == "" {
		return errors.New("--require-signer needs --trusted-root: the bundles must chain to the roots it names")
	}
	if a.issuer == "" {
		a.issuer = attest.GitHubActionsIssuer
	}
	if err := a.policy().Check(); err != nil {
		return err
	}
	roots, err := attest.TrustedRoots(*att.trustedRoot)
	if err != nil {
		return fmt.Errorf("--trusted-root: %w", err)
	}
	a.roots = roots
	return nil
}

func (a *admission) policy() attest.Policy {
	return attest.Policy{Identity: a.signer, IdentityRegexp: a.signerRegexp, Issuer: a.issuer}
}

func (a *admission) record(refused int) reports.Admission {
	others := reports.AdmitRefuse
	if a.selfReported {
		others = reports.AdmitSelfReported
	}
	return reports.Admission{Signer: a.signer, SignerRegexp: a.signerRegexp, Issuer: a.issuer, Others: others, Refused: refused}
}

// admitted is one report that --require-signer let in, with its column's
// attestation.
type admitted struct {
	r   *reports.Report
	att reports.Attestation
}

// admit sorts the reports (rs aligned with paths, every one verified) by
// the rule: attested when its bundle NAME.sigstore.json verifies against the
// trusted root and names the required signer; ran-here for the scorecard's
// own reports; every other one refused, with why on stderr, or admitted
// self-reported. It returns the reports to build the scorecard from and how
// many it refused.
func (a *admission) admit(rs []*reports.Report, paths, ranHere []string, stdout, stderr io.Writer) ([]admitted, int) {
	here := map[string]bool{}
	for _, p := range ranHere {
		here[filepath.Clean(p)] = true
	}
	var in []admitted
	refused := 0
	for i, p := range paths {
		r := rs[i]
		res, why, bundled := a.attest(p, r)
		var at reports.Attestation
		switch {
		case here[filepath.Clean(p)]:
			at.Status = reports.AttestRanHere
			if res != nil {
				id := res.Identity
				at.Identity, at.PolicyChecked = &id, true
			} else if bundled {
				fmt.Fprintf(stderr, "scorecard: %s: ran here, admitted as such; its bundle is not the required signer's: %s\n", p, why)
			}
		case res != nil:
			id := res.Identity
			at = reports.Attestation{Status: reports.AttestAttested, Identity: &id, PolicyChecked: true}
		case a.selfReported:
			at = reports.Attestation{Status: reports.AttestSelfReported, Reason: why}
		default:
			refused++
			fmt.Fprintf(stderr, "scorecard: left out %s (%s): %s\n", p, reportName(r), why)
			continue
		}
		in = append(in, admitted{r: r, att: at})
		fmt.Fprintf(stdout, "%s: %s", p, at.Status)
		if at.Identity != nil {
			fmt.Fprintf(stdout, ", signed by %s", at.Identity)
		}
		if at.Reason != "" {
			fmt.Fprintf(stdout, ": %s", at.Reason)
		}
		fmt.Fprintln(stdout)
	}
	return in, refused
}

// attest verifies the bundle beside the report against the required
// signer: the result when it is theirs, or else why not in one line (a
// bundle that verifies for another signer says who that was), and whether
// there was a bundle at all.
func (a *admission) attest(path string, r *reports.Report) (*attest.Result, string, bool) {
	b := bundleBeside(path)
	if _, err := os.Stat(b); err != nil {
		return nil, "no bundle " + filepath.Base(b) + " beside it: unsigned", false
	}
	bs, err := attest.Bundles(b)
	if err != nil {
		return nil, terminalLine("its bundle cannot be read: "+err.Error(), 400), true
	}
	res, err := attest.Verify(r, bs, a.roots, a.policy())
	if err == nil {
		return res, "", true
	}
	if other, err2 := attest.Verify(r, bs, a.roots, attest.Policy{}); err2 == nil {
		return nil, terminalLine("signed by "+other.Identity.Subject+" (issuer "+other.Identity.Issuer+"), not the required signer", 400), true
	}
	return nil, terminalLine("its bundle does not verify: "+err.Error(), 400), true
}

// reportName is "name version" of a report, bounded and on one line.
func reportName(r *reports.Report) string {
	return terminalLine(strings.TrimSpace(r.Implementation.Name+" "+r.Implementation.Version), 120)
}

// terminalLine makes text from a file or a certificate safe for one
// terminal line: control characters (escape sequences among them) become
// spaces, runs of space one, and it is cut at n bytes.
func terminalLine(s string, n int) string {
	s = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s)
	return suites.Cut(oneLine(s), n)
}
