package fakes

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The discovery faults' observations, added to faultCases so that TestFaults
// runs each with the fault on (must misbehave) and off (must behave).
func init() {
	for name, observe := range discoveryFaultCases {
		faultCases[name] = observe
	}
}

var discoveryFaultCases = map[string]func(e *faultEnv) string{
	faultCardNotJSON: func(e *faultEnv) string {
		url := bareServer(e)
		cr, err := client.FetchCard(ctxT(), nil, url, nil)
		if err != nil {
			e.t.Fatal(err)
		}
		if cr.Card == nil {
			return fmt.Sprintf("HTTP %d %s: %v", cr.Status, cr.Header.Get("Content-Type"), cr.DecodeErr)
		}
		return ""
	},
	faultCardVariesWithoutVary: func(e *faultEnv) string {
		n := e.node(Options{})
		with := fetchCard(e.t, n, map[string]string{"A2A-Version": "1.0"})
		without := fetchCard(e.t, n, nil)
		if string(with.Raw) != string(without.Raw) && without.Header.Get("Vary") == "" {
			return "bodies differ by A2A-Version, no Vary; without the header: " + truncate(string(without.Raw), 60)
		}
		return ""
	},
	faultLastModifiedInvalid: func(e *faultEnv) string {
		lm := fetchCard(e.t, e.node(Options{}), nil).Header.Get("Last-Modified")
		if _, err := http.ParseTime(lm); err != nil {
			return fmt.Sprintf("Last-Modified %q is not an HTTP-date", lm)
		}
		return ""
	},
	faultHybridCard: func(e *faultEnv) string {
		n := e.node(Options{})
		if left := n.card.V03Leftovers(); len(left) > 0 {
			return fmt.Sprintf("v0.3 members beside supportedInterfaces (%d): %v", len(n.card.SupportedInterfaces), left)
		}
		return ""
	},
	faultCardWrongBinding: func(e *faultEnv) string {
		n := e.node(Options{})
		if i, _ := n.card.Interface(a2a.BindingJSONRPC); !strings.HasSuffix(i.URL, JSONRPCPath) {
			return "JSONRPC interface at " + i.URL
		}
		return ""
	},
	faultMissingVersionCrash: func(e *faultEnv) string {
		n := e.node(Options{})
		status, _, body := rawHTTP(e.t, "POST", n.srv.URL+JSONRPCPath, "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`, map[string]string{"A2A-Version": ""})
		if strings.Contains(string(body), "-32603") {
			return fmt.Sprintf("no A2A-Version: HTTP %d %s", status, truncate(string(body), 80))
		}
		return ""
	},
	faultVersionPatchRejected: func(e *faultEnv) string {
		n := e.node(Options{})
		_, _, body := rawHTTP(e.t, "GET", n.srv.URL+RESTPath+"/tasks/x", "", "", map[string]string{"A2A-Version": "1.0.3"})
		if strings.Contains(string(body), "VERSION_NOT_SUPPORTED") {
			return "A2A-Version 1.0.3 refused: " + truncate(string(body), 80)
		}
		return ""
	},
	faultStreamingServedUnadvertised: func(e *faultEnv) string {
		n := e.node(Options{})
		s, err := n.rest().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		if err == nil {
			collect(e.t, s)
		}
		if !n.card.Streaming() && err == nil {
			return "card says streaming false; SendStreamingMessage streamed"
		}
		return ""
	},
	faultPushServedUnadvertised: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		_, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://a2a-conform.invalid/hook"})
		if !n.card.PushNotifications() && err == nil {
			return "card says push false; config created"
		}
		return ""
	},
	faultExtendedCardServedUnadvertised: func(e *faultEnv) string {
		n := e.node(Options{ExtendedCard: ExtendedCardAbsent})
		if card, err := n.rpc().GetExtendedAgentCard(ctxT(), nil); !n.card.ExtendedAgentCard() && err == nil {
			return "card does not advertise it; GetExtendedAgentCard returned " + card.Name
		}
		return ""
	},
	faultExtendedCardNoAuth: func(e *faultEnv) string {
		n := e.node(Options{})
		if card, err := n.rest().GetExtendedAgentCard(ctxT(), nil); err == nil {
			return "served without credentials: " + card.Name
		}
		return ""
	},
	faultRequiredExtensionNotEnforced: func(e *faultEnv) string {
		n := e.node(Options{})
		required := ""
		for _, x := range n.card.Capabilities.Extensions {
			if x.Required {
				required = x.URI
			}
		}
		if _, err := n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")}); required != "" && err == nil {
			return "card requires " + required + "; a request without it was served"
		}
		return ""
	},
	faultCardSignatureStale: func(e *faultEnv) string {
		n := e.node(Options{})
		if err := verifyCardSignature(e.t, n); err != nil {
			return err.Error()
		}
		return ""
	},
	faultExtensionsHeaderRejected: func(e *faultEnv) string {
		n := e.node(Options{})
		c, _ := client.New(n.rpc().Interface(), client.WithExtensions("https://a2a-conform.dev/extensions/unknown/v1"))
		if _, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")}); err != nil {
			return "unknown extension refused: " + err.Error()
		}
		return ""
	},
}

// bareServer serves an instance without fetching its card (the card may not
// be one).
func bareServer(e *faultEnv) string {
	a, err := New(fastOpts(Options{Faults: e.faults}))
	if err != nil {
		e.t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { a.Shutdown(ctxT()); srv.Close() })
	return srv.URL
}

// verifyCardSignature checks the card's one ES256 signature against the key
// set its jku names: an independent, minimal verifier (DISC-017 has the full
// one).
func verifyCardSignature(t *testing.T, n *node) error {
	t.Helper()
	cr := fetchCard(t, n, nil)
	var card struct {
		Signatures []a2a.AgentCardSignature `json:"signatures"`
	}
	if err := json.Unmarshal(cr.Raw, &card); err != nil || len(card.Signatures) != 1 {
		return fmt.Errorf("signatures: %v %d", err, len(card.Signatures))
	}
	sig := card.Signatures[0]
	hdrJSON, err := base64.RawURLEncoding.DecodeString(sig.Protected)
	if err != nil {
		return err
	}
	var hdr struct{ Alg, Kid, Jku, Typ string }
	if err := json.Unmarshal(hdrJSON, &hdr); err != nil || hdr.Alg != "ES256" || hdr.Kid == "" || hdr.Jku != n.srv.URL+JWKSPath {
		return fmt.Errorf("protected header %s (%v)", hdrJSON, err)
	}
	_, _, body := rawHTTP(t, "GET", hdr.Jku, "", "", nil)
	var set struct {
		Keys []struct{ Kid, Crv, X, Y string } `json:"keys"`
	}
	json.Unmarshal(body, &set)
	if len(set.Keys) != 1 || set.Keys[0].Kid != hdr.Kid {
		return fmt.Errorf("key set %s does not hold kid %s", body, hdr.Kid)
	}
	x, _ := base64.RawURLEncoding.DecodeString(set.Keys[0].X)
	y, _ := base64.RawURLEncoding.DecodeString(set.Keys[0].Y)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	if err != nil {
		return err
	}
	canonical, err := a2a.CanonicalCard(cr.Raw, true)
	if err != nil {
		return err
	}
	raw, _ := base64.RawURLEncoding.DecodeString(sig.Signature)
	digest := sha256.Sum256([]byte(sig.Protected + "." + base64.RawURLEncoding.EncodeToString(canonical)))
	if len(raw) != 64 || !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:])) {
		return fmt.Errorf("the signature does not verify over the card served")
	}
	return nil
}

// The clean agent: a valid signature that survives a rotation (re-signed),
// the same bytes on every fetch, Last-Modified honoured by If-Modified-Since.
func TestCardSignedAndRevalidatesByDate(t *testing.T) {
	n := startNode(t, Options{})
	if err := verifyCardSignature(t, n); err != nil {
		t.Fatal(err)
	}
	first := fetchCard(t, n, nil)
	if again := fetchCard(t, n, nil); string(again.Raw) != string(first.Raw) {
		t.Fatal("the signed card changes between fetches")
	}
	lm := first.Header.Get("Last-Modified")
	at, err := http.ParseTime(lm)
	if err != nil || at.After(time.Now()) {
		t.Fatalf("Last-Modified %q: %v", lm, err)
	}
	if cr := fetchCard(t, n, map[string]string{"If-Modified-Since": lm}); cr.Status != http.StatusNotModified {
		t.Fatalf("If-Modified-Since the card's own date: HTTP %d", cr.Status)
	}
	before := at.Add(-time.Hour).UTC().Format(http.TimeFormat)
	if cr := fetchCard(t, n, map[string]string{"If-Modified-Since": before}); cr.Status != http.StatusOK {
		t.Fatalf("If-Modified-Since an earlier date: HTTP %d", cr.Status)
	}
	if cr := fetchCard(t, n, map[string]string{"If-Modified-Since": lm, "If-None-Match": `"other"`}); cr.Status != http.StatusOK {
		t.Fatalf("If-None-Match must win over If-Modified-Since: HTTP %d", cr.Status)
	}
	n.agent.Rotate(Rotation{Version: "9.0.0"})
	if err := verifyCardSignature(t, n); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	status, hdr, _ := rawHTTP(t, http.MethodGet, n.srv.URL+JWKSPath, "", "", nil)
	if status != 200 || hdr.Get("Content-Type") != "application/jwk-set+json" {
		t.Fatalf("JWKS: %d %s", status, hdr.Get("Content-Type"))
	}
}

func TestRequiredExtensionOption(t *testing.T) {
	const uri = "https://a2a-conform.dev/extensions/test-required/v1"
	n := startNode(t, Options{RequiredExtension: uri})
	if len(n.card.Capabilities.Extensions) == 0 || !n.card.Capabilities.Extensions[len(n.card.Capabilities.Extensions)-1].Required {
		t.Fatalf("card extensions %+v", n.card.Capabilities.Extensions)
	}
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		_, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		expectKind(t, err, a2a.ErrExtensionSupportRequired)
		declared, _ := client.New(c.Interface(), client.WithExtensions(directive.URI, uri))
		if _, err := declared.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")}); err != nil {
			t.Fatalf("declared: %v", err)
		}
	})
}

func TestExtendedCardChallenge(t *testing.T) {
	n := startNode(t, Options{})
	if s := n.card.SecuritySchemes[ExtendedCardScheme]; s.HTTPAuth == nil || s.HTTPAuth.Scheme != "Bearer" {
		t.Fatalf("the card does not declare the extended card's scheme: %+v", n.card.SecuritySchemes)
	}
	for _, url := range []string{n.srv.URL + RESTPath + "/extendedAgentCard", n.srv.URL + JSONRPCPath} {
		method, body := "GET", ""
		if strings.HasSuffix(url, JSONRPCPath) {
			method, body = "POST", `{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}`
		}
		status, hdr, _ := rawHTTP(t, method, url, "application/json", body, nil)
		if status != http.StatusUnauthorized || !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("%s without credentials: %d %q", url, status, hdr.Get("WWW-Authenticate"))
		}
	}
}
