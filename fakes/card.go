package fakes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// cardState is what a rotation changes. It is per instance: in a rolling
// deploy, instances of two generations serve side by side.
type cardState struct {
	gen        int
	version    string // "" means "1.<gen>.0"
	movedAt    int    // generation whose /g<N> prefix the interfaces use; 0: none
	authScheme string // advertised HTTP auth scheme; "" none
	// modAt is when this generation began on this instance: its start, or
	// the rotation (Last-Modified only when the store cannot say).
	modAt time.Time
	// pubAt is when any instance sharing the store first published this
	// generation (Last-Modified); zero until the first card is served.
	pubAt time.Time
}

// Rotation describes one card rotation. Every rotation bumps the generation
// and so the card's version and ETag.
type Rotation struct {
	// Version replaces the card's version string (default "1.<generation>.0").
	Version string `json:"version,omitempty"`
	// MoveInterfaces publishes the interfaces under /g<generation>/…; every
	// earlier URL keeps working, so tasks started through it stay reachable.
	MoveInterfaces bool `json:"moveInterfaces,omitempty"`
	// AuthScheme advertises an HTTP authentication scheme (e.g. "Bearer") in
	// securitySchemes; "none" withdraws it; "" keeps the current one. The
	// agent does not enforce it: the rotation changes what the card says, as
	// in scenario 1, not who may call.
	AuthScheme string `json:"authScheme,omitempty"`
}

// Rotate advances the card generation while tasks keep running, and returns
// the new generation.
func (a *Agent) Rotate(r Rotation) int {
	a.cardMu.Lock()
	defer a.cardMu.Unlock()
	c := &a.card
	c.gen++
	c.modAt = time.Now()
	c.pubAt = time.Time{}
	c.version = r.Version
	if r.MoveInterfaces {
		c.movedAt = c.gen
	}
	switch r.AuthScheme {
	case "":
	case "none":
		c.authScheme = ""
	default:
		c.authScheme = r.AuthScheme
	}
	a.log.Info("card rotated", "generation", c.gen)
	return c.gen
}

// Generation is the current card generation.
func (a *Agent) Generation() int {
	a.cardMu.Lock()
	defer a.cardMu.Unlock()
	return a.card.gen
}

func (a *Agent) cardSnapshot() cardState {
	a.cardMu.Lock()
	defer a.cardMu.Unlock()
	return a.card
}

// baseURL is the configured base URL or the one the request was made to.
func (a *Agent) baseURL(r *http.Request) string {
	if a.opts.BaseURL != "" {
		return a.opts.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "http" || p == "https" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" && !strings.ContainsAny(h, "/ \\@") {
		host = strings.TrimSpace(strings.Split(h, ",")[0])
	}
	return scheme + "://" + host
}

// publicCard builds the card for one base URL.
func (a *Agent) publicCard(base string) a2a.AgentCard {
	return a.publicCardOf(base, a.cardSnapshot())
}

// publicCardOf builds the card of one card state for one base URL.
func (a *Agent) publicCardOf(base string, st cardState) a2a.AgentCard {
	prefix := ""
	if st.movedAt > 0 {
		prefix = fmt.Sprintf("/g%d", st.movedAt)
	}
	version := st.version
	if version == "" {
		version = fmt.Sprintf("1.%d.0", st.gen)
	}
	streaming, push := a.claimStreaming, a.claimPush
	caps := a2a.AgentCapabilities{Streaming: &streaming, PushNotifications: &push}
	if a.opts.ExtendedCard != ExtendedCardAbsent {
		t := true
		caps.ExtendedAgentCard = &t
	}
	if a.directiveOn {
		caps.Extensions = []a2a.AgentExtension{directive.CardExtension()}
	}
	skills := []a2a.AgentSkill{{
		ID: "echo", Name: "Echo",
		Description: "Completes at once with an artifact echoing the message text.",
		Tags:        []string{"echo", "test"}, Examples: []string{"hello"},
	}}
	if a.directiveOn {
		skills = append(skills, a2a.AgentSkill{
			ID: "directive", Name: "Scripted task",
			Description: "Follows the a2a-conform directive data part: delays, outcome, artifact chunks, message reply.",
			Tags:        []string{"a2a-conform", "directive"},
		})
	}
	if len(a.prompts) > 0 {
		var phrases []string
		for _, p := range a.prompts {
			phrases = append(phrases, p.phrase)
		}
		skills = append(skills, a2a.AgentSkill{
			ID: "prompts", Name: "Prompt map",
			Description: "Fixed phrases that trigger scripted behaviours (see docs/directive-extension.md).",
			Tags:        []string{"a2a-conform", "prompt-map"}, Examples: phrases,
		})
	}
	card := a2a.AgentCard{
		Name: "a2a-conform reference agent",
		// No instance name: every instance of a generation serves the same
		// card, so that a client behind a balancer holds one card and one
		// set of validators whichever instance answered.
		Description: "The a2a-conform harness's reference A2A v1.0 agent.",
		SupportedInterfaces: []a2a.AgentInterface{
			{URL: base + prefix + JSONRPCPath, ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion},
			{URL: base + prefix + RESTPath, ProtocolBinding: a2a.BindingHTTPJSON, ProtocolVersion: a2a.ProtocolVersion},
		},
		Provider:           &a2a.AgentProvider{Organization: "a2a-conform", URL: "https://a2a-conform.dev"},
		Version:            version,
		Capabilities:       caps,
		DefaultInputModes:  []string{"text/plain", "application/json"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             skills,
	}
	if st.authScheme != "" {
		card.SecuritySchemes = map[string]a2a.SecurityScheme{
			"a2a-conform": {HTTPAuth: &a2a.HTTPAuthSecurityScheme{Scheme: st.authScheme}},
		}
	}
	if a.opts.GRPCURL != "" {
		card.SupportedInterfaces = append(card.SupportedInterfaces, a2a.AgentInterface{
			URL: a.opts.GRPCURL, ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion})
	}
	a.previousBuildCard(&card, base, prefix)
	a.variantCard(&card, base)
	a.adjustCard(&card)
	return card
}

// extendedCard is what GetExtendedAgentCard returns when one is configured.
func (a *Agent) extendedCard(base string) a2a.AgentCard {
	c := a.publicCard(base)
	c.Name += " (extended)"
	c.Skills = append(c.Skills, a2a.AgentSkill{
		ID: "extended", Name: "Extended-card skill",
		Description: "Listed only on the extended card, so a client can tell the two apart.",
		Tags:        []string{"extended"},
	})
	return c
}

// cardBody is the card document and its strong ETag: a hash of the exact
// bytes, so that any change (version, interfaces, auth) gives a new ETag,
// never only a version bump (A2A v1.0 §8.6 hazard).
func (a *Agent) cardBody(r *http.Request) ([]byte, string) {
	base := a.baseURL(r)
	var body []byte
	if a.servesV03Card(r) {
		body = v03CardBody(a.publicCard(base))
	} else {
		card := a.publicCard(base)
		if st, ok := a.staleForFreshRead(r); ok {
			card = a.publicCardOf(base, st)
		}
		body, _ = json.Marshal(card)
		body = a.publishCard(base, body)
	}
	sum := sha256.Sum256(body)
	switch {
	case a.faults.has(faultETagNeverChanges):
		sum = sha256.Sum256([]byte(a.name))
	case a.faults.has(faultETagPerInstance):
		sum = sha256.Sum256(append(body, a.owner...))
	}
	return body, `"` + hex.EncodeToString(sum[:16]) + `"`
}

func (a *Agent) serveCard(w http.ResponseWriter, r *http.Request) {
	if !onlyGET(w, r, "the agent card is read with GET") {
		return
	}
	if !a.Ready() && !a.faults.has(faultCardBeforeReady) {
		w.Header().Set("Retry-After", retryAfterSeconds)
		msg := "the agent instance is starting"
		if a.draining.Load() {
			msg = "the agent instance is shutting down"
		}
		writeJSON(w, http.StatusServiceUnavailable, "application/json", errUnavailable(msg).restBody(true))
		return
	}
	if a.faults.has(faultCardNotJSON) {
		serveNotJSON(w)
		return
	}
	body, etag := a.cardBody(r)
	h := w.Header()
	// The body does not depend on A2A-Version today, but a cache must not
	// assume it never will (A2A v1.0 §8.6).
	if !a.faults.has(faultCardVariesWithoutVary) {
		h.Set("Vary", "A2A-Version")
	}
	caching := !a.faults.has(faultNoCacheHeaders)
	if caching {
		if a.opts.OmitETag {
			etag = "" // matches no If-None-Match; Last-Modified still revalidates
		} else {
			h.Set("ETag", etag)
		}
		h.Set("Last-Modified", a.lastModified(r.Context()))
		maxAge := int(a.opts.CardMaxAge.Seconds())
		if maxAge < 0 {
			maxAge = 0
		}
		h.Set("Cache-Control", fmt.Sprintf("max-age=%d", maxAge))
		matched := ifNoneMatch(r.Header.Values("If-None-Match"), etag)
		if a.faults.has(faultAnyETagNotModified) && len(r.Header.Values("If-None-Match")) > 0 {
			matched = true
		}
		if !a.faults.has(faultNoConditionalGet) && (matched || a.notModifiedSince(r.Context(), r)) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if r.Method == http.MethodHead {
		h.Set("Content-Type", "application/json")
		if ct := a.opts.CardContentType; ct != "" {
			h.Set("Content-Type", ct)
		}
		h.Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		return
	}
	ct := "application/json"
	if a.opts.CardContentType != "" {
		ct = a.opts.CardContentType
	}
	writeJSON(w, http.StatusOK, ct, body)
}

// ifNoneMatch evaluates If-None-Match (RFC 9110 §13.1.2): "*" matches any
// current representation; otherwise a list of entity tags compared weakly
// (W/ prefixes ignored). Unparseable members are skipped, not fatal.
func ifNoneMatch(headers []string, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, h := range headers {
		for _, tag := range parseETags(h) {
			if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
				return true
			}
		}
	}
	return false
}

// parseETags splits an entity-tag list; commas may occur inside the quotes.
func parseETags(h string) []string {
	var out []string
	s := strings.TrimSpace(h)
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			break
		}
		if s[0] == '*' {
			out = append(out, "*")
			s = s[1:]
			continue
		}
		weak := ""
		if strings.HasPrefix(s, "W/") {
			weak, s = "W/", s[2:]
		}
		if s == "" || s[0] != '"' {
			// Not an entity tag: skip to the next comma.
			if i := strings.IndexByte(s, ','); i >= 0 {
				s = s[i+1:]
				continue
			}
			break
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			break
		}
		out = append(out, weak+s[:end+2])
		s = s[end+2:]
	}
	return out
}

// serveAdmin is the opt-in admin endpoint: POST rotate (body: Rotation JSON,
// optional) and GET state.
func (a *Agent) serveAdmin(w http.ResponseWriter, r *http.Request, op string) {
	switch {
	case op == "rotate" && r.Method == http.MethodPost:
		var rot Rotation
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if err == nil && len(strings.TrimSpace(string(body))) > 0 {
			err = json.Unmarshal(body, &rot)
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, "application/json", errInvalidParams("", "rotation: %v", err).restBody(true))
			return
		}
		gen := a.Rotate(rot)
		b, _ := json.Marshal(map[string]int{"generation": gen})
		writeJSON(w, http.StatusOK, "application/json", b)
	case op == "state" && r.Method == http.MethodGet:
		b, _ := json.Marshal(map[string]any{"name": a.name, "generation": a.Generation(), "ready": a.Ready(),
			"faults": a.faults.names()})
		writeJSON(w, http.StatusOK, "application/json", b)
	default:
		writeJSON(w, http.StatusNotFound, "application/json", errMethodNotFound(r.Method+" "+op).restBody(true))
	}
}

// onlyGET answers 405 to anything but GET and HEAD on the well-known
// documents (card, key set) and reports whether the request may go on.
func onlyGET(w http.ResponseWriter, r *http.Request, msg string) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	writeJSON(w, http.StatusMethodNotAllowed, "application/json",
		errInvalidRequest("%s", msg).withHTTP(http.StatusMethodNotAllowed).restBody(true))
	return false
}
