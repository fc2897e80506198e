package recorder

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Redacted replaces every secret in what the recorder exports.
const Redacted = "[REDACTED]"

// defaultSecretHeaders carry credentials by definition; their values are
// replaced whole. The notification-token headers are the ones SDKs use for
// webhook tokens (A2A v1.0 §4.3.3), which are secrets too.
var defaultSecretHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
	"X-A2A-Notification-Token", "A2A-Notification-Token", "X-Api-Key", "Api-Key",
}

// defaultSecretQuery are query parameter names whose values are replaced,
// compared case-insensitively: the usual places an API key or token goes
// when a scheme puts it in the URL.
var defaultSecretQuery = []string{
	"access_token", "api_key", "apikey", "key", "token", "password", "secret",
	"client_secret", "signature", "sig", "code",
}

// redactor is immutable; the recorder swaps in a new one when secrets are
// added, so export never races with configuration.
type redactor struct {
	needles []string // every encoding of every secret, longest first
	longest int
	headers map[string]bool // canonical header names
	query   map[string]bool // lower-case query names
	labels  map[string]string
}

func newRedactor(secrets, headers, query []string, labels map[string]string) *redactor {
	rd := &redactor{headers: map[string]bool{}, query: map[string]bool{}, labels: labels}
	for _, h := range headers {
		rd.headers[http.CanonicalHeaderKey(h)] = true
	}
	for _, q := range query {
		rd.query[strings.ToLower(q)] = true
	}
	seen := map[string]bool{}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		// The forms a credential takes on the wire and in a JSON body.
		for _, v := range []string{s, jsonEscaped(s), url.QueryEscape(s), url.PathEscape(s)} {
			if v != "" && !seen[v] {
				seen[v] = true
				rd.needles = append(rd.needles, v)
			}
		}
	}
	sort.Slice(rd.needles, func(i, j int) bool { return len(rd.needles[i]) > len(rd.needles[j]) })
	if len(rd.needles) > 0 {
		rd.longest = len(rd.needles[0])
	}
	return rd
}

func jsonEscaped(s string) string {
	b, err := json.Marshal(s)
	if err != nil || len(b) < 2 {
		return s
	}
	return string(b[1 : len(b)-1])
}

// text replaces every secret occurrence in s.
func (rd *redactor) text(s string) string {
	for _, n := range rd.needles {
		if strings.Contains(s, n) {
			s = strings.ReplaceAll(s, n, Redacted)
		}
	}
	return s
}

// header returns a redacted copy: credential headers lose their values
// entirely, every other value has secrets replaced.
func (rd *redactor) header(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		cp := make([]string, len(vs))
		for i, v := range vs {
			if rd.headers[http.CanonicalHeaderKey(k)] {
				cp[i] = Redacted
				if l, ok := rd.labels[v]; ok {
					cp[i] = "[REDACTED " + l + "]"
				}
			} else {
				cp[i] = rd.text(v)
			}
		}
		out[k] = cp
	}
	return out
}

// url renders u with the password of any userinfo, the values of secret
// query parameters, and every configured secret replaced. The query keeps
// its original order and encoding where nothing was redacted.
func (rd *redactor) url(u *url.URL) string {
	if u == nil {
		return ""
	}
	cp := *u
	if cp.User != nil {
		if _, has := cp.User.Password(); has {
			cp.User = url.UserPassword(cp.User.Username(), "REDACTED")
		}
	}
	if cp.RawQuery != "" {
		pairs := strings.Split(cp.RawQuery, "&")
		for i, p := range pairs {
			k, _, hasValue := strings.Cut(p, "=")
			name, err := url.QueryUnescape(k)
			if err != nil {
				name = k
			}
			if hasValue && rd.query[strings.ToLower(name)] {
				pairs[i] = k + "=REDACTED"
			}
		}
		cp.RawQuery = strings.Join(pairs, "&")
	}
	return rd.text(cp.String())
}
