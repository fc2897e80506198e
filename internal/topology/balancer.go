package topology

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// PinHeader on a request to the balancer sends it to one instance (its
// index, "0", "1", …) whatever the policy, even one that is draining. The
// balancer removes it before forwarding, so the agent never sees it.
const PinHeader = "A2A-Conform-Pin"

// InstanceHeader names the instance that answered. The reference agent sets
// it itself; for any other agent the balancer adds it, so that every recorded
// exchange says which instance answered (DESIGN.md "Evidence").
const InstanceHeader = "A2A-Conform-Instance"

// Policy is how the balancer picks an instance for a call that is not pinned.
type Policy int

const (
	// Sticky sends every unpinned call to one instance, the first live and
	// undrained one, until it drains or goes away. It is the default: specs
	// that do not care about instances then see one agent, as through a
	// session-affine load balancer.
	Sticky Policy = iota
	// RoundRobin spreads unpinned calls over the live, undrained instances.
	RoundRobin
)

// Balancer is the harness's own load balancer in front of a driver's
// instances: a reverse proxy on a loopback listener whose slots the driver
// swaps as it restarts and replaces instances.
type Balancer struct {
	mu     sync.Mutex
	slots  []*slot
	policy Policy
	next   int
	srv    *http.Server
	ln     net.Listener
	url    string
}

type slot struct {
	name     string
	target   *url.URL
	proxy    *httputil.ReverseProxy
	draining bool
}

// NewBalancer listens on 127.0.0.1:0 and serves until Close.
func NewBalancer() (*Balancer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("load balancer: %w", err)
	}
	b := &Balancer{ln: ln, url: "http://" + ln.Addr().String()}
	// No write timeout: streams stay open as long as the agent keeps them.
	b.srv = &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	go b.srv.Serve(ln)
	return b, nil
}

// URL is the balancer's base URL.
func (b *Balancer) URL() string { return b.url }

// SetPolicy changes how unpinned calls are spread.
func (b *Balancer) SetPolicy(p Policy) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.policy = p
}

// Set points slot k at an instance (growing the slot list as needed) and
// clears its drain mark; an empty base takes the slot out of service.
func (b *Balancer) Set(k int, name, base string) error {
	var s *slot
	if base != "" {
		u, err := url.Parse(base)
		if err != nil {
			return fmt.Errorf("load balancer: instance %d: %w", k, err)
		}
		s = &slot{name: name, target: u, proxy: b.proxyTo(u, name)}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.slots) <= k {
		b.slots = append(b.slots, nil)
	}
	b.slots[k] = s
	return nil
}

// Drain stops sending unpinned calls to slot k; pinned calls still reach it,
// as they would reach a pod that is terminating but not yet gone.
func (b *Balancer) Drain(k int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if k < len(b.slots) && b.slots[k] != nil {
		b.slots[k].draining = true
	}
}

func (b *Balancer) proxyTo(u *url.URL, name string) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = pr.In.Host
			// Card interface URLs then point at whoever the client called:
			// this balancer, or a proxy in front of it that set them first.
			if pr.In.Header.Get("X-Forwarded-Host") == "" {
				pr.Out.Header.Set("X-Forwarded-Host", pr.In.Host)
				pr.Out.Header.Set("X-Forwarded-Proto", "http")
			}
			pr.Out.Header.Del(PinHeader)
		},
		// Streams are flushed event by event.
		FlushInterval: -1,
		Transport:     proxyTransport,
		ModifyResponse: func(r *http.Response) error {
			if r.Header.Get(InstanceHeader) == "" {
				r.Header.Set(InstanceHeader, name)
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.Header().Set(InstanceHeader, name)
			w.Header().Set(client.BalancerErrorHeader, "unreachable")
			http.Error(w, "a2a-conform load balancer: instance "+name+" did not answer: "+err.Error(), http.StatusBadGateway)
		},
	}
}

// proxyTransport carries the balancer's and the CDN's calls to the
// instances: a transport of their own, not http.DefaultTransport (which the
// in-process agents' push clients also use), without keep-alives, so that no
// proxied stream shares a pooled connection's fate. Every hop is loopback.
var proxyTransport http.RoundTripper = &http.Transport{
	Proxy:                 nil,
	DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	DisableKeepAlives:     true,
	ResponseHeaderTimeout: 0,
}

// ServeHTTP forwards one call to the pinned or chosen instance.
func (b *Balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s, err := b.pick(r.Header.Get(PinHeader))
	if err != nil {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "a2a-conform load balancer: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	if !readWholeBody(w, r, "a2a-conform load balancer") {
		return
	}
	s.proxy.ServeHTTP(w, r)
}

// MaxProxiedBody bounds a request body the balancer and the CDN forward.
// Only the harness sends requests through them, and its largest (a message
// with the hostile suite's oversized parts) is far below it.
const MaxProxiedBody = 32 << 20

// readWholeBody replaces r.Body by an in-memory copy before the request is
// proxied, and reports false (having answered) when it cannot be read.
//
// Why: Go's server consumes and then closes a request body the handler has
// not finished reading as soon as the handler writes its response headers.
// A reverse proxy that streams the client's body straight through shares it
// with its transport, whose last read of it (the check that nothing follows
// Content-Length bytes) can then fail once the instance has already begun
// answering; the transport then closes the instance's connection and the
// event stream is cut mid-way. Under load that cut an HTTP+JSON stream after
// its first event about once in six full runs. Read first, and the two never
// share a body (TestBalancerStreamSurvivesAnEarlyAnswer).
func readWholeBody(w http.ResponseWriter, r *http.Request, who string) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxProxiedBody))
	_ = r.Body.Close()
	if err != nil {
		status := http.StatusBadRequest
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, who+": reading the request body: "+err.Error(), status)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	r.Header.Del("Transfer-Encoding")
	r.TransferEncoding = nil
	return true
}

var errNoInstance = errors.New("no live instance to send the call to")

func (b *Balancer) pick(pin string) (*slot, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if pin != "" {
		k, err := strconv.Atoi(pin)
		if err != nil || k < 0 || k >= len(b.slots) || b.slots[k] == nil {
			return nil, fmt.Errorf("%s %q names no live instance", PinHeader, pin)
		}
		return b.slots[k], nil
	}
	n := len(b.slots)
	for i := 0; i < n; i++ {
		k := i
		if b.policy == RoundRobin {
			k = (b.next + i) % n
		}
		if s := b.slots[k]; s != nil && !s.draining {
			if b.policy == RoundRobin {
				b.next = k + 1
			}
			return s, nil
		}
	}
	return nil, errNoInstance
}

// Close stops the balancer; streams in flight are cut.
func (b *Balancer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := b.srv.Shutdown(ctx); err != nil {
		return b.srv.Close()
	}
	return nil
}
