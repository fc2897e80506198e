package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// MaxCardBytes caps a fetched public card: 2 MiB, far above any real card.
const MaxCardBytes = 2 << 20

// CardResponse is everything a card fetch observed. A malformed, missing or
// oversized card is not an error of FetchCard: it is data for a discovery
// check, in Status, Raw and DecodeErr.
type CardResponse struct {
	URL    string
	Status int
	Header http.Header
	// Raw is the body, at most MaxCardBytes (Truncated says it was cut).
	Raw       []byte
	Truncated bool
	// Card is set when Status is 2xx and Raw decodes as an AgentCard.
	Card *a2a.AgentCard
	// DecodeErr says why Card is nil: a non-2xx status, an oversized body, or
	// a decode error. It is nil for 304 Not Modified, which has no body by
	// design (conditional revalidation, spec §8.6).
	DecodeErr error
}

// FetchCard GETs {baseURL}/.well-known/agent-card.json (§8.2) with the given
// headers (If-None-Match, A2A-Version…; none are added). It returns an error
// only when no response was obtained (a Transport-class *Error) or the URL is
// unusable.
func FetchCard(ctx context.Context, hc *http.Client, baseURL string, hdr http.Header) (*CardResponse, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: card base URL %q is not an absolute http(s) URL", baseURL)
	}
	u.Path = strings.TrimRight(u.Path, "/") + a2a.WellKnownCardPath
	u.RawPath = ""
	u.RawQuery, u.Fragment = "", ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("client: card request: %v", err)
	}
	for k, vs := range hdr {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", userAgent)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, &Error{Class: Transport, Op: "GetAgentCard", Message: "card fetch failed", Err: err}
	}
	defer resp.Body.Close()
	out := &CardResponse{URL: u.String(), Status: resp.StatusCode, Header: resp.Header}
	body, rerr := readCapped(resp.Body, MaxCardBytes)
	out.Raw = body
	switch {
	case errors.Is(rerr, errBodyTooLarge):
		out.Truncated = true
		out.DecodeErr = fmt.Errorf("card body exceeded %s", HumanBytes(MaxCardBytes))
		return out, nil
	case rerr != nil:
		return nil, &Error{Class: Transport, Op: "GetAgentCard", HTTPStatus: resp.StatusCode,
			Message: "reading the card body failed", Body: capBody(body), Err: rerr}
	}
	switch {
	case resp.StatusCode == http.StatusNotModified:
	case !success(resp.StatusCode):
		out.DecodeErr = fmt.Errorf("HTTP %d: no card to decode", resp.StatusCode)
	default:
		out.Card, out.DecodeErr = DecodeCard(body)
	}
	return out, nil
}

// DecodeCard decodes a card leniently (a2a.AgentCard keeps unknown and v0.3
// members in Extra) but insists on one JSON object: a BOM, trailing data, an
// array or null is an error.
func DecodeCard(raw []byte) (*a2a.AgentCard, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil, errors.New("card body is empty")
	}
	if t[0] != '{' {
		return nil, fmt.Errorf("card is not a JSON object: starts with %s", snippet(t[:min(len(t), 16)]))
	}
	if err := checkJSONText(t); err != nil {
		return nil, fmt.Errorf("card: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var card a2a.AgentCard
	if err := dec.Decode(&card); err != nil {
		return nil, fmt.Errorf("card does not decode: %v", err)
	}
	if rest := bytes.TrimSpace(t[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("card has trailing data after the JSON object: %s", snippet(rest))
	}
	return &card, nil
}
