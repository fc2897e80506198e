package clientdriver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// The reference client verifies a signed card before it uses it (§8.4.3:
// clients SHOULD verify at least one signature; one that verifies MUST
// follow the procedure), and does not use a card none of whose signatures
// verifies. It speaks ES256, the algorithm of the harness's own cards, and
// fetches keys only from the card's own origin: a signature it cannot check
// (another algorithm, a key elsewhere) is warned about, not trusted and not
// held against the card.

// errBadSignature is the error of a card whose signatures all fail.
type errBadSignature struct{ why string }

func (e *errBadSignature) Error() string { return "the card's signature does not verify: " + e.why }

// errUncheckable says a signature could not be checked at all.
var errUncheckable = errors.New("signature not checkable by this client")

// verifyCard checks raw (the card as received) against its signatures. It
// returns nil when one verifies, errUncheckable (wrapped) when none could be
// checked, and an *errBadSignature when one that could be checked failed and
// none verified.
func (d *Driver) verifyCard(ctx context.Context, raw []byte, card *a2a.AgentCard) error {
	if d.faults.has(faultVerifiesKnownFieldsOnly) {
		raw = knownMembersOnly(raw, card)
	}
	canonical, err := a2a.CanonicalCard(raw, true)
	if err != nil {
		return &errBadSignature{why: "the card cannot be canonicalized: " + err.Error()}
	}
	var bad, uncheckable []string
	for i, s := range card.Signatures {
		err := d.verifyOne(ctx, canonical, s)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errUncheckable):
			uncheckable = append(uncheckable, fmt.Sprintf("signature %d: %v", i, err))
		default:
			bad = append(bad, fmt.Sprintf("signature %d: %v", i, err))
		}
	}
	if len(bad) > 0 {
		return &errBadSignature{why: fmt.Sprint(bad)}
	}
	return fmt.Errorf("%w: %v", errUncheckable, uncheckable)
}

func (d *Driver) verifyOne(ctx context.Context, canonical []byte, s a2a.AgentCardSignature) error {
	hb, err := base64.RawURLEncoding.DecodeString(s.Protected)
	if err != nil {
		return fmt.Errorf("protected header is not base64url: %v", err)
	}
	var hdr struct{ Alg, Kid, Jku string }
	if err := json.Unmarshal(hb, &hdr); err != nil {
		return fmt.Errorf("protected header is not JSON: %v", err)
	}
	if hdr.Alg != "ES256" {
		return fmt.Errorf("%w: alg %q", errUncheckable, hdr.Alg)
	}
	key, err := d.keyFor(ctx, hdr.Jku, hdr.Kid)
	if err != nil {
		return err
	}
	sig, err := base64.RawURLEncoding.DecodeString(s.Signature)
	if err != nil || len(sig) != 64 {
		return errors.New("signature is not a base64url ES256 signature")
	}
	digest := sha256.Sum256([]byte(s.Protected + "." + base64.RawURLEncoding.EncodeToString(canonical)))
	if !ecdsa.Verify(key, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("ES256 signature does not match the canonical card")
	}
	return nil
}

// keyFor fetches the key set at jku (only on the card's own origin) and
// returns the P-256 key named kid.
func (d *Driver) keyFor(ctx context.Context, jku, kid string) (*ecdsa.PublicKey, error) {
	cu, err1 := url.Parse(d.env.CardURL)
	ju, err2 := url.Parse(jku)
	if jku == "" || err1 != nil || err2 != nil || ju.Scheme != cu.Scheme || ju.Host != cu.Host {
		return nil, fmt.Errorf("%w: jku %q is not on the card's origin", errUncheckable, jku)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jku, nil)
	if err != nil {
		return nil, err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: key set: %v", errUncheckable, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: key set answered %d", errUncheckable, resp.StatusCode)
	}
	var set struct {
		Keys []struct{ Kty, Crv, X, Y, Kid string }
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("%w: key set is not JSON", errUncheckable)
	}
	for _, k := range set.Keys {
		if k.Kid != kid || k.Kty != "EC" || k.Crv != "P-256" {
			continue
		}
		x, e1 := base64.RawURLEncoding.DecodeString(k.X)
		y, e2 := base64.RawURLEncoding.DecodeString(k.Y)
		if e1 != nil || e2 != nil {
			return nil, errors.New("key coordinates are not base64url")
		}
		if len(x) != 32 || len(y) != 32 {
			return nil, errors.New("key coordinates are not 32 bytes")
		}
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, fmt.Errorf("key is not a P-256 point: %v", err)
		}
		return pub, nil
	}
	return nil, fmt.Errorf("no P-256 key with kid %q in the key set", kid)
}
