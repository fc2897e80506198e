package runner

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// tlsLog remembers the TLS session the run last negotiated with each
// authority (suites.TLSLog): the HTTP transport notes every response that
// came over TLS, the gRPC clients every call.
type tlsLog struct {
	mu   sync.Mutex
	seen map[string]string
}

func newTLSLog() *tlsLog { return &tlsLog{seen: map[string]string{}} }

func (l *tlsLog) Note(authority string, st tls.ConnectionState) {
	desc := fmt.Sprintf("%s, %s", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite))
	if st.NegotiatedProtocol != "" {
		desc += " (ALPN " + st.NegotiatedProtocol + ")"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[authority] = desc
}

func (l *tlsLog) Seen(authority string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d, ok := l.seen[authority]
	return d, ok
}

// tlsNoting is the innermost transport: it notes the TLS session of every
// response before anything wraps the response.
type tlsNoting struct {
	next http.RoundTripper
	log  *tlsLog
}

func (t tlsNoting) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.TLS != nil {
		t.log.Note(client.AuthorityOf(req.URL), *resp.TLS)
	}
	return resp, err
}

// tlsConfig is the run's TLS configuration with --ca-file: the system's
// roots and the file's certificates (an agent behind a private CA). Without
// it, nil: the transports' own defaults.
func tlsConfig(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("--ca-file: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca-file %s: no PEM certificate in it", caFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}
