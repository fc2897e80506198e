package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/attest"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

const attestHelp = `Usage: a2a-conform attest REPORT.json [--out FILE] [--predicate-out FILE] [--url URL]

Writes the in-toto Statement of a verified report: subject report.json with the
report's digest (sha256), predicate type https://in-toto.io/attestation/test-result/v0.1
(result PASSED/WARNED/FAILED; passedTests, warnedTests, failedTests: spec IDs;
configuration: report.json and the run's settings; url). Sign it with Sigstore, e.g.
GitHub's actions/attest with subject-name report.json, subject-digest the report's
digest and predicate-path the --predicate-out file; check the bundle with
a2a-conform verify REPORT.json --bundle BUNDLE --trusted-root ROOT.

Flags:
`

func attestCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("attest", stderr, attestHelp)
	out := fs.String("out", "", "write the Statement to `FILE` (default standard output)")
	predOut := fs.String("predicate-out", "", "also write the predicate alone to `FILE` (actions/attest's predicate-path)")
	url := fs.String("url", "", "the predicate's url: where the run can be seen (a CI run's `URL`)")
	pos, done, code := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fs.Usage()
		return runner.ExitUsage
	}
	r := verifiedReport("attest", pos[0], "; nothing to attest", stderr)
	if r == nil {
		return 1
	}
	st, err := attest.Statement(r, *url)
	if err != nil {
		fmt.Fprintf(stderr, "attest: %v\n", err)
		return 1
	}
	b, err := attest.MarshalStatement(st)
	if err != nil {
		fmt.Fprintf(stderr, "attest: %v\n", err)
		return 1
	}
	b = append(b, '\n')
	if *predOut != "" {
		pred, err := attest.Predicate(r, *url)
		if err == nil {
			var pb []byte
			if pb, err = attest.MarshalPredicate(pred); err == nil {
				err = os.WriteFile(*predOut, append(pb, '\n'), 0o644)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "attest: --predicate-out: %v\n", err)
			return 1
		}
	}
	if *out == "" {
		_, err = stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "attest: %v\n", err)
		return 1
	}
	return 0
}

// attestFlags are verify's and scorecard's flags for checking bundles.
type attestFlags struct {
	bundle, trustedRoot *string
	policy              attest.Policy
}

func addAttestFlags(fs *flag.FlagSet, withBundle bool) *attestFlags {
	a := &attestFlags{}
	if withBundle {
		a.bundle = fs.String("bundle", "", "Sigstore `BUNDLE` signing the report's in-toto Statement (e.g. report.sigstore.json, from actions/attest); one JSON document or one per line")
	}
	a.trustedRoot = fs.String("trusted-root", "", "Sigstore trusted root `FILE` to verify bundles against, offline (`gh attestation trusted-root > trusted_root.jsonl`: one root per line is accepted)")
	fs.StringVar(&a.policy.Identity, "certificate-identity", "", "require the signing certificate's subject alternative name to be `SAN` (for GitHub: https://github.com/OWNER/REPO/.github/workflows/FILE.yml@REF)")
	fs.StringVar(&a.policy.IdentityRegexp, "certificate-identity-regexp", "", "require the subject alternative name to match `REGEXP` (unanchored: use ^…$)")
	fs.StringVar(&a.policy.Issuer, "certificate-oidc-issuer", "", "require the certificate's OIDC issuer to be `URL` (GitHub Actions: "+attest.GitHubActionsIssuer+")")
	fs.StringVar(&a.policy.IssuerRegexp, "certificate-oidc-issuer-regexp", "", "require the OIDC issuer to match `REGEXP`")
	return a
}

// check reports a usage error in the flags.
func (a *attestFlags) check(withBundle bool) error {
	if err := a.policy.Check(); err != nil {
		return err
	}
	hasBundle := a.bundle != nil && *a.bundle != ""
	if withBundle && hasBundle && *a.trustedRoot == "" {
		return errors.New("--bundle needs --trusted-root: a bundle proves nothing without the roots it must chain to")
	}
	if withBundle && !hasBundle && (*a.trustedRoot != "" || a.policy != (attest.Policy{})) {
		return errors.New("--trusted-root and --certificate-… check a bundle: give --bundle too")
	}
	return nil
}

// verifyAttestation prints what the bundle (if any) says about r, after
// verify has found r valid: "attested by …" and 0, "unattested" and 0 when
// no bundle was given, or "ATTESTATION INVALID" and 1.
func (a *attestFlags) verifyAttestation(path string, r *reports.Report, stdout io.Writer) int {
	if a.bundle == nil || *a.bundle == "" {
		fmt.Fprintf(stdout, "  unattested: no --bundle given; the digest shows only that the file is self-consistent (anyone who edits a verdict can recompute it), not who produced it\n")
		return 0
	}
	res, err := a.verifyBundle(*a.bundle, r)
	if err != nil {
		fmt.Fprintf(stdout, "%s: ATTESTATION INVALID (%s)\n  - %s\n", path, *a.bundle, err)
		return 1
	}
	fmt.Fprintf(stdout, "  attested: the bundle signs this report (signed result %s)\n", res.PredicateResult)
	printIdentity(stdout, res)
	return 0
}

func (a *attestFlags) verifyBundle(bundlePath string, r *reports.Report) (*attest.Result, error) {
	roots, err := attest.TrustedRoots(*a.trustedRoot)
	if err != nil {
		return nil, err
	}
	bs, err := attest.Bundles(bundlePath)
	if err != nil {
		return nil, err
	}
	return attest.Verify(r, bs, roots, a.policy)
}

func printIdentity(w io.Writer, res *attest.Result) {
	id := res.Identity
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "    %-11s %s\n", k+":", v)
		}
	}
	line("repository", id.Repository)
	line("workflow", id.Workflow)
	line("commit", id.Commit)
	line("ref", id.Ref)
	line("run", id.Run)
	line("identity", id.Subject)
	line("issuer", id.Issuer)
	if !res.PolicyChecked {
		fmt.Fprintf(w, "    (no identity policy given: any signer the trusted root certifies is accepted; pin one with --certificate-identity-regexp and --certificate-oidc-issuer)\n")
	}
}

// bundleBeside is where a report's bundle sits by convention:
// NAME.json → NAME.sigstore.json.
func bundleBeside(report string) string {
	return strings.TrimSuffix(report, filepath.Ext(report)) + ".sigstore.json"
}

// isBundleName says a path named as a report is a bundle by that convention.
func isBundleName(p string) bool { return strings.HasSuffix(p, ".sigstore.json") }

// parseInterspersed parses flags placed before, between or after the
// positional arguments, and returns the positional ones. "--" ends flags.
func parseInterspersed(fs *flag.FlagSet, args []string) (pos []string, done bool, code int) {
	for {
		if done, code := parse(fs, args); done {
			return nil, true, code
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, false, 0
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), false, 0
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

const verifyHelp = `Usage: a2a-conform verify REPORT.json [--bundle BUNDLE --trusted-root ROOT [--certificate-identity-regexp RE --certificate-oidc-issuer URL]]

Checks that a report is well-formed and unedited (its digest matches its content), and
says what it does not cover (partial). The digest alone proves only that the file is
self-consistent; with --bundle, verify also checks, offline, a Sigstore bundle signing
the report's in-toto Statement (a2a-conform attest): the signature chains to the trusted
root's Fulcio CA at a time its transparency log or timestamp authority vouches for, the
signed subject is this report's digest, the signed test result is this report's, and the
signer matches the identity policy. It prints who signed: repository, workflow, commit.
Exit 0 valid, 1 invalid (the report or its attestation), 2 usage.

Flags:
`

const scorecardHelp = `Usage: a2a-conform scorecard --out DIR [--ran-here REPORT.json]… [--trusted-root ROOT]
                             [--require-signer SAN [--admit-self-reported]] REPORT.json…

Merges verified reports into the vendor × spec matrix (scorecard.html, scorecard.json)
and badges. Each column says where its report comes from: ran here (--ran-here: the
scorecard's own run), attested (a bundle NAME.sigstore.json beside NAME.json verified
against --trusted-root; the signer is shown), or unattested. Without --require-signer,
a bundle that does not verify rejects the whole build, as an edited report does.

With --require-signer SAN (or --require-signer-regexp; --require-issuer, default
GitHub Actions), a report is admitted as attested only when its bundle verifies and its
certificate names that identity and issuer, as sigstore-go matches a certificate
identity: pin the reusable workflow at a release tag. Every other report (no bundle, a
bundle that does not verify or signs another report, another signer) is left out, with
the reason printed, or with --admit-self-reported shown labelled self-reported on the
page, in scorecard.json and on its badge. --ran-here reports are always admitted. An
invalid or edited report still stops the build. Exit 0 built, 1 nothing built, 2 usage.

Flags:
`

// reportPaths drops repeated paths and bundles named as reports (a glob of
// submissions/*.json also matches NAME.sigstore.json, which is read beside
// its report).
func reportPaths(in []string, stderr io.Writer) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range in {
		if isBundleName(p) {
			fmt.Fprintf(stderr, "scorecard: %s is a bundle, not a report: read beside its report\n", p)
			continue
		}
		if c := filepath.Clean(p); !seen[c] {
			seen[c] = true
			out = append(out, p)
		}
	}
	return out
}

// markAttestations sets each column's attestation: ran-here for the
// reports named by --ran-here, attested when a bundle beside the report
// verifies, unattested otherwise. rs is aligned with paths. A bundle that
// does not verify, or one with no --trusted-root to check it, is an error.
func markAttestations(sc *reports.Scorecard, rs []*reports.Report, paths, ranHere []string,
	att *attestFlags, stdout, stderr io.Writer) int {
	here := map[string]bool{}
	for _, p := range ranHere {
		here[filepath.Clean(p)] = true
	}
	failed := false
	for i, p := range paths {
		a := reports.Attestation{Status: reports.AttestUnattested}
		if here[filepath.Clean(p)] {
			a.Status = reports.AttestRanHere
		}
		b := bundleBeside(p)
		if _, err := os.Stat(b); err == nil {
			if *att.trustedRoot == "" {
				fmt.Fprintf(stderr, "scorecard: %s has a bundle, %s, and no --trusted-root was given to check it\n", p, b)
				failed = true
				continue
			}
			res, err := att.verifyBundle(b, rs[i])
			if err != nil {
				fmt.Fprintf(stderr, "scorecard: %s: its bundle %s does not verify: %v\n", p, b, err)
				failed = true
				continue
			}
			if a.Status != reports.AttestRanHere {
				a.Status = reports.AttestAttested
			}
			id := res.Identity
			a.Identity, a.PolicyChecked = &id, res.PolicyChecked
		}
		sc.SetAttestation(rs[i], a)
		fmt.Fprintf(stdout, "%s: %s", p, a.Status)
		if a.Identity != nil {
			fmt.Fprintf(stdout, ", signed by %s", a.Identity)
		}
		fmt.Fprintln(stdout)
	}
	if failed {
		return 1
	}
	return 0
}
