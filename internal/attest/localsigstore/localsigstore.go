// Package localsigstore is a Sigstore made in memory for tests: a Fulcio CA
// of its own that issues GitHub Actions-style certificates (issuer, SAN and
// the repository/workflow/commit extensions), with sigstore-go's
// VirtualSigstore (pkg/testing/ca) as transparency log and timestamp
// authority. It signs in-toto Statements into bundles that sigstore-go
// verifies against the trusted root it writes. Nothing reaches the network.
//
// Only tests import it.
package localsigstore

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"os"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protodsse "github.com/sigstore/protobuf-specs/gen/pb-go/dsse"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"github.com/sigstore/sigstore/pkg/signature"
	sigdsse "github.com/sigstore/sigstore/pkg/signature/dsse"
	"google.golang.org/protobuf/encoding/protojson"
)

// Mode is which kind of Sigstore instance to imitate.
type Mode int

const (
	// PublicGood: Fulcio + a Rekor transparency log (the bundle carries a
	// log entry with a signed entry timestamp), as for public repositories.
	PublicGood Mode = iota
	// TimestampOnly: Fulcio + an RFC 3161 timestamp authority and no log,
	// as GitHub's own instance signs private repositories' attestations.
	TimestampOnly
)

// Identity is what the certificate says about the signer.
type Identity struct {
	Issuer     string // OIDC issuer
	SAN        string // URI subject alternative name: the signing workflow at its ref
	Repository string // SourceRepositoryURI
	Workflow   string // BuildSignerURI
	Commit     string // SourceRepositoryDigest
	Ref        string // SourceRepositoryRef
	Run        string // RunInvocationURI
}

// GitHubIdentity is a typical identity of a workflow in repo (owner/name).
func GitHubIdentity(repo, workflowPath, commit string) Identity {
	wf := "https://github.com/" + repo + "/" + workflowPath + "@refs/heads/main"
	return Identity{
		Issuer:     "https://token.actions.githubusercontent.com",
		SAN:        wf,
		Repository: "https://github.com/" + repo,
		Workflow:   wf,
		Commit:     commit,
		Ref:        "refs/heads/main",
		Run:        "https://github.com/" + repo + "/actions/runs/1/attempts/1",
	}
}

// Sigstore is one in-memory instance.
type Sigstore struct {
	mode    Mode
	virtual *ca.VirtualSigstore
	fulcio  *root.FulcioCertificateAuthority
	interK  *ecdsa.PrivateKey
}

// New makes an instance.
func New(mode Mode) (*Sigstore, error) {
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		return nil, err
	}
	rootCert, rootKey, err := ca.GenerateRootCa()
	if err != nil {
		return nil, err
	}
	inter, interKey, err := ca.GenerateFulcioIntermediate(rootCert, rootKey)
	if err != nil {
		return nil, err
	}
	return &Sigstore{mode: mode, virtual: vs, interK: interKey, fulcio: &root.FulcioCertificateAuthority{
		Root: rootCert, Intermediates: []*x509.Certificate{inter}, URI: "https://fulcio.localhost",
	}}, nil
}

// TrustedRoot is the instance's trusted root: its Fulcio CA and, by mode,
// its Rekor log or its timestamp authority.
func (s *Sigstore) TrustedRoot() (*root.TrustedRoot, error) {
	var tlogs map[string]*root.TransparencyLog
	var tsas []root.TimestampingAuthority
	if s.mode == PublicGood {
		// VirtualSigstore gives the log's ID as its hex text; the trusted
		// root's JSON carries raw key IDs, so write the raw bytes.
		tlogs = map[string]*root.TransparencyLog{}
		for k, l := range s.virtual.RekorLogs() {
			raw, err := hex.DecodeString(k)
			if err != nil {
				return nil, err
			}
			cp := *l
			cp.ID = raw
			tlogs[k] = &cp
		}
	} else {
		tsas = s.virtual.TimestampingAuthorities()
	}
	return root.NewTrustedRoot(root.TrustedRootMediaType01, []root.CertificateAuthority{s.fulcio}, nil, tsas, tlogs)
}

// WriteTrustedRoot writes TrustedRoot as JSON.
func (s *Sigstore) WriteTrustedRoot(path string) error {
	tr, err := s.TrustedRoot()
	if err != nil {
		return err
	}
	b, err := tr.MarshalJSON()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// Sign signs an in-toto Statement (DSSE, payload type
// application/vnd.in-toto+json) as id and returns the bundle.
func (s *Sigstore) Sign(statement []byte, id Identity) (*bundle.Bundle, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	leaf, err := s.leafCert(key, id, now.Add(-time.Minute), now.Add(9*time.Minute))
	if err != nil {
		return nil, err
	}
	signer, err := signature.LoadECDSASignerVerifier(key, crypto.SHA256)
	if err != nil {
		return nil, err
	}
	es, err := dsse.NewEnvelopeSigner(&sigdsse.SignerAdapter{SignatureSigner: signer, Pub: &key.PublicKey})
	if err != nil {
		return nil, err
	}
	env, err := es.SignPayload(context.Background(), "application/vnd.in-toto+json", statement)
	if err != nil {
		return nil, err
	}
	sig, err := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
	if err != nil {
		return nil, err
	}
	vm := &protobundle.VerificationMaterial{
		Content: &protobundle.VerificationMaterial_Certificate{Certificate: &protocommon.X509Certificate{RawBytes: leaf.Raw}},
	}
	switch s.mode {
	case PublicGood:
		entry, err := s.virtual.GenerateTlogEntry(leaf, env, sig, now.Unix(), true)
		if err != nil {
			return nil, err
		}
		tle := entry.TransparencyLogEntry()
		if tle == nil {
			return nil, errors.New("virtual Rekor gave no entry")
		}
		logID, err := s.virtual.RekorLogID()
		if err != nil {
			return nil, err
		}
		set, err := s.virtual.RekorSignPayload(tlog.RekorPayload{
			Body: base64.StdEncoding.EncodeToString(tle.CanonicalizedBody), IntegratedTime: tle.IntegratedTime,
			LogIndex: tle.LogIndex, LogID: logID,
		})
		if err != nil {
			return nil, err
		}
		tle.KindVersion = &protorekor.KindVersion{Kind: "dsse", Version: "0.0.1"}
		tle.InclusionPromise = &protorekor.InclusionPromise{SignedEntryTimestamp: set}
		vm.TlogEntries = []*protorekor.TransparencyLogEntry{tle}
	case TimestampOnly:
		tsr, err := s.virtual.TimestampResponse(sig)
		if err != nil {
			return nil, err
		}
		vm.TimestampVerificationData = &protobundle.TimestampVerificationData{
			Rfc3161Timestamps: []*protocommon.RFC3161SignedTimestamp{{SignedTimestamp: tsr}},
		}
	}
	pb := &protobundle.Bundle{
		MediaType:            "application/vnd.dev.sigstore.bundle.v0.3+json",
		VerificationMaterial: vm,
		Content: &protobundle.Bundle_DsseEnvelope{DsseEnvelope: &protodsse.Envelope{
			Payload:     []byte(statementPayload(env)),
			PayloadType: env.PayloadType,
			Signatures:  []*protodsse.Signature{{Sig: sig, Keyid: env.Signatures[0].KeyID}},
		}},
	}
	return bundle.NewBundle(pb)
}

// WriteBundle writes a bundle as JSON.
func WriteBundle(path string, b *bundle.Bundle) error {
	j, err := protojson.Marshal(b.Bundle)
	if err != nil {
		return err
	}
	return os.WriteFile(path, j, 0o644)
}

func statementPayload(env *dsse.Envelope) string {
	p, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		return ""
	}
	return string(p)
}

// leafCert issues a Fulcio-style code-signing certificate for key.
func (s *Sigstore) leafCert(key *ecdsa.PrivateKey, id Identity, notBefore, notAfter time.Time) (*x509.Certificate, error) {
	san, err := url.Parse(id.SAN)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		URIs:         []*url.URL{san},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	for _, kv := range []struct {
		n int
		v string
	}{{8, id.Issuer}, {9, id.Workflow}, {12, id.Repository}, {13, id.Commit}, {14, id.Ref}, {21, id.Run}} {
		if kv.v == "" {
			continue
		}
		val, err := asn1.MarshalWithParams(kv.v, "utf8")
		if err != nil {
			return nil, err
		}
		tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, pkix.Extension{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, kv.n}, Value: val})
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, s.fulcio.Intermediates[0], &key.PublicKey, s.interK)
	if err != nil {
		return nil, fmt.Errorf("leaf certificate: %w", err)
	}
	return x509.ParseCertificate(der)
}

// WithOtherFulcio is the same instance (log, timestamp authority) with a
// Fulcio CA of its own that s's trusted root does not list: what it signs
// must fail on the certificate chain alone.
func (s *Sigstore) WithOtherFulcio() (*Sigstore, error) {
	o, err := New(s.mode)
	if err != nil {
		return nil, err
	}
	o.virtual = s.virtual
	return o, nil
}
