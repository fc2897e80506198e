package attest

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sigstore@1.3.0's npm tarball digest, the subject of the real bundle.
const npmSigstore130 = "76176ffa33808b54602c7c35de5c6e9a4deb96066dba6533f50ac234f4f1f4c6b3527515dc17c06fbe2860030f410eee69ea20079bd3a2c6f3dcf3b329b10751"

// TestARealGitHubActionsBundle verifies, offline, a bundle that GitHub
// Actions really signed on the public-good instance (not one our local
// signing setup made): the Sigstore half of `verify --bundle` accepts its
// chain, Rekor entry, SCT and time, reads the workflow identity from the
// certificate, applies an identity policy, and the report half refuses it
// because it signs no test result.
func TestARealGitHubActionsBundle(t *testing.T) {
	bundles, err := Bundles("testdata/public-good/npm-sigstore-1.3.0.sigstore.json")
	if err != nil {
		t.Fatal(err)
	}
	roots, err := TrustedRoots("testdata/public-good/trusted-root.json")
	if err != nil {
		t.Fatal(err)
	}
	digest, _ := hex.DecodeString(npmSigstore130)
	const workflow = "https://github.com/sigstore/sigstore-js/.github/workflows/release.yml@refs/heads/main"

	st, id, err := verifySigned(bundles[0], roots[0], "sha512", digest, Policy{})
	if err != nil {
		t.Fatalf("a real public-good bundle did not verify: %v", err)
	}
	if st.GetPredicateType() != "https://slsa.dev/provenance/v0.2" {
		t.Errorf("predicate type %q", st.GetPredicateType())
	}
	want := map[string][2]string{
		"issuer":     {id.Issuer, GitHubActionsIssuer},
		"subject":    {id.Subject, workflow},
		"repository": {id.Repository, "https://github.com/sigstore/sigstore-js"},
		"workflow":   {id.Workflow, workflow},
		"commit":     {id.Commit, "dae8bd8eb433a4147b4655c00fe73e0f22bc0fb1"},
		"ref":        {id.Ref, "refs/heads/main"},
		"run":        {id.Run, "https://github.com/sigstore/sigstore-js/actions/runs/4735384265/attempts/1"},
	}
	for k, v := range want {
		if v[0] != v[1] {
			t.Errorf("%s: got %q, want %q", k, v[0], v[1])
		}
	}

	// An identity policy: the signer's workflow passes, another repository's does not.
	if _, _, err := verifySigned(bundles[0], roots[0], "sha512", digest, Policy{Identity: workflow, Issuer: GitHubActionsIssuer}); err != nil {
		t.Errorf("the signer's own identity was refused: %v", err)
	}
	if _, _, err := verifySigned(bundles[0], roots[0], "sha512", digest, Policy{IdentityRegexp: `^https://github\.com/a2a-conform/`, Issuer: GitHubActionsIssuer}); err == nil || !strings.Contains(err.Error(), "a2a-conform") {
		t.Errorf("a policy naming another repository: got %v", err)
	}

	// Another artifact's digest: the bundle signs something else.
	other := append([]byte(nil), digest...)
	other[0] ^= 1
	if _, _, err := verifySigned(bundles[0], roots[0], "sha512", other, Policy{}); err == nil || !strings.Contains(err.Error(), "signs another report") {
		t.Errorf("another digest: got %v", err)
	}

	// One byte of the signed statement changed: the signature no longer holds.
	raw, err := os.ReadFile("testdata/public-good/npm-sigstore-1.3.0.sigstore.json")
	if err != nil {
		t.Fatal(err)
	}
	var b map[string]any
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	env := b["dsseEnvelope"].(map[string]any)
	payload, _ := base64.StdEncoding.DecodeString(env["payload"].(string))
	payload = []byte(strings.Replace(string(payload), "refs/heads/main", "refs/heads/evil", 1))
	env["payload"] = base64.StdEncoding.EncodeToString(payload)
	edited := filepath.Join(t.TempDir(), "edited.json")
	raw, _ = json.Marshal(b)
	if err := os.WriteFile(edited, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	eb, err := Bundles(edited)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := verifySigned(eb[0], roots[0], "sha512", digest, Policy{}); err == nil {
		t.Error("an edited statement verified")
	}

	// The report half: a valid signature over something that is not a
	// test result is refused, whatever signed it.
	if _, err := reportPredicate(st, nil); err == nil || !strings.Contains(err.Error(), "predicate type") {
		t.Errorf("a provenance statement read as a test result: got %v", err)
	}
}
