package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CardPath is the only path the CDN caches (A2A §8.2 well-known URI).
const CardPath = "/.well-known/agent-card.json"

// CDNHeader on a card served by the CDN says where it came from: "hit" (the
// stored copy) or "miss" (fetched from the origin just now).
const CDNHeader = "A2A-Conform-CDN"

// CDN is the harness's caching reverse proxy in front of the balancer
// (scenario 3): an edge that may serve an older card than the instances
// behind it. Only the card is cached; every other request passes through.
//
// Unheld, it asks the origin on every card request and keeps the answer.
// Held, it answers from the kept copy, as an edge does until the copy
// expires, for as long as the origin's Cache-Control max-age allows and no
// longer: a copy older than max-age is never served (RFC 9111 §4.2), and the
// hold then ends by itself. The window a spec reports is that max-age.
type CDN struct {
	origin *url.URL
	proxy  *httputil.ReverseProxy
	hc     *http.Client
	srv    *http.Server
	url    string

	mu      sync.Mutex
	stored  *cardCopy
	held    bool
	expired bool // a hold ended because its copy reached max-age
}

// cardCopy is one stored card response.
type cardCopy struct {
	body   []byte
	header http.Header
	// at is when the origin produced it, less the Age it already had.
	at     time.Time
	maxAge time.Duration
	// vary holds the request's values of the headers the response varies on.
	vary map[string]string
}

// NewCDN listens on 127.0.0.1:0 in front of origin (the balancer's URL).
func NewCDN(origin string) (*CDN, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return nil, fmt.Errorf("cdn: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cdn: %w", err)
	}
	c := &CDN{origin: u, url: "http://" + ln.Addr().String(), hc: &http.Client{Timeout: 10 * time.Second}}
	c.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = pr.In.Host
			c.forwarded(pr.Out.Header, pr.In.Host)
		},
		FlushInterval: -1,
		Transport:     proxyTransport,
	}
	c.srv = &http.Server{Handler: c, ReadHeaderTimeout: 10 * time.Second}
	go c.srv.Serve(ln)
	return c, nil
}

// forwarded makes the card's interface URLs name the CDN, as an edge in
// front of an agent does, so that a client acting on the card comes back
// through it.
func (c *CDN) forwarded(h http.Header, host string) {
	if h.Get("X-Forwarded-Host") == "" {
		h.Set("X-Forwarded-Host", host)
		h.Set("X-Forwarded-Proto", "http")
	}
}

// URL is the CDN's base URL.
func (c *CDN) URL() string { return c.url }

// ServeHTTP serves the card from the CDN's copy or the origin, and passes
// everything else through.
func (c *CDN) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != CardPath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		if readWholeBody(w, r, "a2a-conform CDN") {
			c.proxy.ServeHTTP(w, r)
		}
		return
	}
	if cp := c.hit(r); cp != nil {
		c.write(w, r, cp, "hit")
		return
	}
	cp, status, err := c.fetch(r.Context(), r.Header, r.Host)
	if err != nil {
		http.Error(w, "a2a-conform cdn: origin: "+err.Error(), http.StatusBadGateway)
		return
	}
	if status != http.StatusOK {
		copyHeader(w.Header(), cp.header)
		w.Header().Set(CDNHeader, "miss")
		w.WriteHeader(status)
		w.Write(cp.body)
		return
	}
	c.mu.Lock()
	if !c.held {
		c.stored = cp
	}
	c.mu.Unlock()
	c.write(w, r, cp, "miss")
}

// hit returns the held copy when it may answer r: held, younger than its
// max-age, and stored for the same values of the headers it varies on.
func (c *CDN) hit(r *http.Request) *cardCopy {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held || c.stored == nil {
		return nil
	}
	if time.Since(c.stored.at) >= c.stored.maxAge {
		c.held, c.expired = false, true
		return nil
	}
	for name, v := range c.stored.vary {
		if r.Header.Get(name) != v {
			return nil
		}
	}
	return c.stored
}

// write answers with a copy: its Age in whole seconds (RFC 9111 §5.1), and
// 304 when If-None-Match names its ETag.
func (c *CDN) write(w http.ResponseWriter, r *http.Request, cp *cardCopy, how string) {
	h := w.Header()
	copyHeader(h, cp.header)
	h.Set("Age", strconv.Itoa(int(time.Since(cp.at)/time.Second)))
	h.Set(CDNHeader, how)
	if etag := cp.header.Get("ETag"); etag != "" && how == "hit" {
		for _, v := range r.Header.Values("If-None-Match") {
			for _, tag := range strings.Split(v, ",") {
				if t := strings.TrimPrefix(strings.TrimSpace(tag), "W/"); t == "*" || t == strings.TrimPrefix(etag, "W/") {
					w.WriteHeader(http.StatusNotModified)
					return
				}
			}
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(cp.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(cp.body)
	}
}

// fetch asks the origin for the card with the caller's headers.
func (c *CDN) fetch(ctx context.Context, in http.Header, host string) (*cardCopy, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.origin.String()+CardPath, nil)
	if err != nil {
		return nil, 0, err
	}
	for k, vs := range in {
		req.Header[k] = vs
	}
	req.Host = host
	c.forwarded(req.Header, host)
	sent := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, 0, err
	}
	cp := &cardCopy{body: body, header: resp.Header.Clone(), at: sent, maxAge: maxAge(resp.Header), vary: map[string]string{}}
	if age, err := strconv.Atoi(resp.Header.Get("Age")); err == nil && age > 0 {
		cp.at = sent.Add(-time.Duration(age) * time.Second)
	}
	for _, v := range resp.Header.Values("Vary") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				cp.vary[http.CanonicalHeaderKey(name)] = in.Get(name)
			}
		}
	}
	cp.header.Del("Content-Length")
	cp.header.Del("Date")
	return cp, resp.StatusCode, nil
}

// maxAge is how long Cache-Control lets a shared cache keep the response:
// s-maxage, else max-age; zero for no-store, no-cache, private or none.
func maxAge(h http.Header) time.Duration {
	var age, shared = -1, -1
	for _, v := range h.Values("Cache-Control") {
		for _, d := range strings.Split(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(strings.ToLower(d)), "=")
			switch name {
			case "no-store", "no-cache", "private":
				return 0
			case "max-age":
				age, _ = strconv.Atoi(strings.Trim(val, `"`))
			case "s-maxage":
				shared, _ = strconv.Atoi(strings.Trim(val, `"`))
			}
		}
	}
	if shared >= 0 {
		age = shared
	}
	return time.Duration(max(age, 0)) * time.Second
}

// ErrNotCacheable is Hold's error when the origin's card may not be kept.
var ErrNotCacheable = errors.New("the origin's Cache-Control lets no cache keep the card")

// CardHold is the copy a hold keeps serving.
type CardHold struct {
	ETag, CacheControl string
	Body               []byte
	// MaxAge is the window: the copy is served for at most this long after
	// the origin produced it.
	MaxAge time.Duration
	// Until is when the copy reaches MaxAge and the hold ends.
	Until time.Time
}

// Hold fetches the card from the origin now (with header, as a client
// would ask for it) and keeps serving that copy, whatever the origin serves
// next, until Release or until the copy reaches the origin's max-age.
func (c *CDN) Hold(ctx context.Context, header http.Header) (CardHold, error) {
	host := strings.TrimPrefix(c.url, "http://")
	cp, status, err := c.fetch(ctx, header, host)
	if err != nil {
		return CardHold{}, fmt.Errorf("cdn: origin: %w", err)
	}
	if status != http.StatusOK {
		return CardHold{}, fmt.Errorf("cdn: origin answered the card with HTTP %d", status)
	}
	hold := CardHold{ETag: cp.header.Get("ETag"), CacheControl: strings.Join(cp.header.Values("Cache-Control"), ", "),
		Body: cp.body, MaxAge: cp.maxAge, Until: cp.at.Add(cp.maxAge)}
	if cp.maxAge <= 0 {
		return hold, fmt.Errorf("%w (Cache-Control %q)", ErrNotCacheable, hold.CacheControl)
	}
	c.mu.Lock()
	c.stored, c.held, c.expired = cp, true, false
	c.mu.Unlock()
	return hold, nil
}

// Release ends a hold; the next card request goes to the origin. It reports
// whether the hold had already ended because its copy reached max-age.
func (c *CDN) Release() (expired bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	expired = c.expired
	c.held, c.expired = false, false
	return expired
}

// Close stops the CDN.
func (c *CDN) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := c.srv.Shutdown(ctx); err != nil {
		return c.srv.Close()
	}
	return nil
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
}
