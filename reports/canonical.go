package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/jcs"
)

// DigestPrefix names the hash in Report.Digest.
const DigestPrefix = "sha256:"

// maxJSONDepth bounds nesting while canonicalising a submitted file (jcs.MaxDepth).
const maxJSONDepth = jcs.MaxDepth

// DigestOf computes the report digest over raw report.json bytes: SHA-256 of
// the RFC 8785 (JCS) canonical form of the top-level object with its "digest"
// member removed, as "sha256:<64 lowercase hex>". docs/report-format.md
// explains how to recompute it with other tools.
//
// It refuses what would make the hash ambiguous between readers: invalid
// UTF-8, duplicate object keys, integers beyond ±(2^53−1), a top level that is
// not an object, trailing data.
func DigestOf(raw []byte) (string, error) {
	canon, err := canonicalReport(raw)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// digestOfReport hashes r as WriteJSON would write it, with Digest empty.
func digestOfReport(r *Report) (string, error) {
	cp := *r
	cp.Digest = ""
	cp.raw = nil
	b, err := json.Marshal(&cp)
	if err != nil {
		return "", fmt.Errorf("encoding report: %w", err)
	}
	return DigestOf(b)
}

func canonicalReport(raw []byte) ([]byte, error) {
	v, err := jcs.Parse(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("top level is not a JSON object")
	}
	delete(obj, "digest")
	return jcs.Marshal(obj)
}
