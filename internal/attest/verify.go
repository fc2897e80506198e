package attest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	trpb "github.com/in-toto/attestation/go/predicates/test_result/v0"
	intoto "github.com/in-toto/attestation/go/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/a2a-conform/a2a-conform/reports"
)

// GitHubActionsIssuer is the OIDC issuer of GitHub Actions' tokens, which
// Fulcio records in the certificates of GitHub's artifact attestations.
const GitHubActionsIssuer = "https://token.actions.githubusercontent.com"

// maxFile bounds a bundle or trusted-root file: a hostile file must not make
// verify read without end.
const maxFile = 16 << 20

// Policy is who may have signed. Empty, any identity the trusted root's CA
// certified is accepted, and the result says which one signed (Result.Identity,
// PolicyChecked false). Otherwise both a subject criterion (Identity or
// IdentityRegexp: the certificate's subject alternative name, for GitHub the
// signing workflow's URL at its ref) and an issuer criterion (Issuer or
// IssuerRegexp) are needed, as cosign asks. Regexps are Go's RE2, unanchored:
// anchor them with ^…$.
type Policy struct {
	Identity, IdentityRegexp string
	Issuer, IssuerRegexp     string
}

func (p Policy) empty() bool {
	return p.Identity == "" && p.IdentityRegexp == "" && p.Issuer == "" && p.IssuerRegexp == ""
}

// Check reports a policy that names only one half (subject or issuer), or a
// regexp that does not compile.
func (p Policy) Check() error {
	if p.empty() {
		return nil
	}
	if p.Identity == "" && p.IdentityRegexp == "" {
		return errors.New("an identity policy needs --certificate-identity or --certificate-identity-regexp")
	}
	if p.Issuer == "" && p.IssuerRegexp == "" {
		return errors.New("an identity policy needs --certificate-oidc-issuer or --certificate-oidc-issuer-regexp (GitHub Actions: " + GitHubActionsIssuer + ")")
	}
	_, err := verify.NewShortCertificateIdentity(p.Issuer, p.IssuerRegexp, p.Identity, p.IdentityRegexp)
	return err
}

// Result is a bundle that verified.
type Result struct {
	Identity reports.SignerIdentity
	// PolicyChecked is true when the identity matched a non-empty Policy.
	PolicyChecked bool
	// Predicate is the signed test result.
	PredicateResult string
}

// TrustedRoots reads a Sigstore trusted root: one JSON document, or several
// one per line (JSON Lines, as `gh attestation trusted-root` writes, one for
// the public-good instance and one for GitHub's own). A bundle verifies when
// it verifies against any of them.
func TrustedRoots(path string) ([]*root.TrustedRoot, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	if tr, err := root.NewTrustedRootFromJSON(data); err == nil {
		return []*root.TrustedRoot{tr}, nil
	}
	var out []*root.TrustedRoot
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		tr, err := root.NewTrustedRootFromJSON(line)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d is not a Sigstore trusted root: %w", path, i+1, err)
		}
		out = append(out, tr)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no trusted root in it", path)
	}
	return out, nil
}

// Bundles reads Sigstore bundles: one JSON document, or several one per line
// (actions/attest appends each bundle as a line to its bundle-path file).
func Bundles(path string) ([]*bundle.Bundle, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	var one bundle.Bundle
	if err := one.UnmarshalJSON(data); err == nil {
		return []*bundle.Bundle{&one}, nil
	}
	var out []*bundle.Bundle
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var b bundle.Bundle
		if err := b.UnmarshalJSON(line); err != nil {
			return nil, fmt.Errorf("%s: line %d is not a Sigstore bundle: %w", path, i+1, err)
		}
		out = append(out, &b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no Sigstore bundle in it", path)
	}
	return out, nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, maxFile>>20)
	}
	return data, nil
}

// Verify checks, offline, that a bundle signs this report: the DSSE
// envelope's signature chains to a Fulcio CA of the trusted root at a time
// the root's transparency log or timestamp authority vouches for (a
// transparency-log entry is required when the root lists a log; embedded
// SCTs when it lists CT logs; at least one verified timestamp always); the
// signer matches the policy; the payload is an in-toto Statement with the
// test-result predicate whose subject digest is the report's digest; and
// the signed result and test lists are the ones the report gives.
//
// r must already have verified (reports.VerifyFile): then r.Digest is the
// digest of its content, so a report edited after signing (even with its
// digest recomputed) does not match the signed subject. With several
// bundles or roots, the first bundle that verifies against any root wins;
// the error says why each failed.
func Verify(r *reports.Report, bundles []*bundle.Bundle, roots []*root.TrustedRoot, p Policy) (*Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	hexDigest, err := digestHex(r)
	if err != nil {
		return nil, err
	}
	digest, _ := hex.DecodeString(hexDigest)
	want, err := Predicate(r, "")
	if err != nil {
		return nil, err
	}
	var errs []string
	for bi, b := range bundles {
		for ri, tr := range roots {
			res, err := verifyOne(b, tr, digest, p, want)
			if err == nil {
				return res, nil
			}
			where := ""
			if len(bundles) > 1 {
				where += fmt.Sprintf("bundle %d ", bi+1)
			}
			if len(roots) > 1 {
				where += fmt.Sprintf("root %d ", ri+1)
			}
			errs = append(errs, where+err.Error())
		}
	}
	if len(errs) == 0 {
		return nil, errors.New("no bundle or no trusted root to verify with")
	}
	return nil, errors.New(strings.Join(dedupe(errs), "; "))
}

func verifyOne(b *bundle.Bundle, tr *root.TrustedRoot, digest []byte, p Policy, want *trpb.TestResult) (*Result, error) {
	st, id, err := verifySigned(b, tr, "sha256", digest, p)
	if err != nil {
		return nil, err
	}
	signed, err := reportPredicate(st, want)
	if err != nil {
		return nil, err
	}
	return &Result{Identity: id, PolicyChecked: !p.empty(), PredicateResult: signed.GetResult()}, nil
}

// reportPredicate is the report half of a verification: the signed
// statement carries the test-result predicate, and it is the one want (the
// report's own) would give.
func reportPredicate(st *intoto.Statement, want *trpb.TestResult) (*trpb.TestResult, error) {
	if st.GetPredicateType() != PredicateType {
		return nil, fmt.Errorf("the statement's predicate type is %q, want %q", st.GetPredicateType(), PredicateType)
	}
	signed, err := parsePredicate(st.GetPredicate())
	if err != nil {
		return nil, err
	}
	if d := samePredicate(signed, want); d != "" {
		return nil, errors.New("the signed test result is not this report's: " + d)
	}
	return signed, nil
}

// verifySigned is the Sigstore half of a verification, which knows nothing
// of reports: the bundle's signature, its certificate chain to the trusted
// root's CA, its observed time (a transparency-log entry or an RFC 3161
// timestamp), the log entry and the certificate's SCT when the root lists
// such logs, the signer's identity against p, and that a subject of the
// signed statement has the artifact digest (alg, digest). It returns the
// statement and who signed it.
func verifySigned(b *bundle.Bundle, tr *root.TrustedRoot, alg string, digest []byte, p Policy) (*intoto.Statement, reports.SignerIdentity, error) {
	var none reports.SignerIdentity
	opts := []verify.VerifierOption{verify.WithObserverTimestamps(1)}
	if len(tr.RekorLogs()) > 0 {
		opts = append(opts, verify.WithTransparencyLog(1))
	}
	if len(tr.CTLogs()) > 0 {
		opts = append(opts, verify.WithSignedCertificateTimestamps(1))
	}
	v, err := verify.NewVerifier(tr, opts...)
	if err != nil {
		return nil, none, fmt.Errorf("trusted root: %w", err)
	}
	policy := []verify.PolicyOption{}
	if p.empty() {
		policy = append(policy, verify.WithoutIdentitiesUnsafe())
	} else {
		id, err := verify.NewShortCertificateIdentity(p.Issuer, p.IssuerRegexp, p.Identity, p.IdentityRegexp)
		if err != nil {
			return nil, none, err
		}
		policy = append(policy, verify.WithCertificateIdentity(id))
	}
	res, err := v.Verify(b, verify.NewPolicy(verify.WithArtifactDigest(alg, digest), policy...))
	if err != nil {
		if strings.Contains(err.Error(), "artifact") && strings.Contains(err.Error(), "digest") {
			return nil, none, fmt.Errorf("the bundle signs another report: no subject has this report's digest (%s)", err)
		}
		return nil, none, err
	}
	if res.Statement == nil {
		return nil, none, errors.New("the bundle signs no in-toto statement")
	}
	if res.Signature == nil || res.Signature.Certificate == nil {
		return nil, none, errors.New("the bundle is signed with a key, not a Fulcio certificate: no identity to report")
	}
	c := res.Signature.Certificate
	return res.Statement, reports.SignerIdentity{
		Issuer:     c.Extensions.Issuer,
		Subject:    c.SubjectAlternativeName,
		Repository: c.Extensions.SourceRepositoryURI,
		Workflow:   c.Extensions.BuildSignerURI,
		Commit:     c.Extensions.SourceRepositoryDigest,
		Ref:        c.Extensions.SourceRepositoryRef,
		Run:        c.Extensions.RunInvocationURI,
	}, nil
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
