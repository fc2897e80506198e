package reports

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// redactedValue is what the recorder writes in place of a secret.
var redactedValue = regexp.MustCompile(`(?i)\[redacted\]`)

// hopHeaders are left out of a reproduction: the client sets them itself.
var hopHeaders = map[string]bool{"Content-Length": true, "Accept-Encoding": true, "User-Agent": true, "Connection": true}

// ReproduceExchange is a standalone command that sends one recorded
// request again: curl for HTTP (JSON-RPC, HTTP+JSON, a card fetch), grpcurl
// for gRPC. A redacted header value becomes a shell variable named after the
// header ($A2A_AUTHORIZATION), which the reader sets; nothing secret is in
// the command. "" for a webhook the harness received, or a request it cannot
// rebuild (no URL).
func ReproduceExchange(ex Exchange) string {
	if ex.Direction == "in" || ex.URL == "" {
		return ""
	}
	u, err := url.Parse(ex.URL)
	if err != nil || u.Host == "" {
		return ""
	}
	var vars []string
	header := func(name, value string) string {
		if redactedValue.MatchString(value) {
			v := "A2A_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name))
			if !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
			value = redactedValue.ReplaceAllLiteralString(value, "$"+v)
			return `"` + name + ": " + strings.NewReplacer(`"`, `\"`, "`", "\\`").Replace(value) + `"`
		}
		return ShellQuote(name + ": " + value)
	}
	names := make([]string, 0, len(ex.ReqHeader))
	for n := range ex.ReqHeader {
		if !hopHeaders[http.CanonicalHeaderKey(n)] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var words []string
	if u.Scheme == "grpc" || u.Scheme == "grpcs" {
		// grpc://host:port/package.Service/Method
		words = append(words, "grpcurl")
		if u.Scheme == "grpc" {
			words = append(words, "-plaintext")
		}
		for _, n := range names {
			for _, v := range ex.ReqHeader[n] {
				words = append(words, "-H", header(strings.ToLower(n), v))
			}
		}
		if ex.ReqBody != "" {
			words = append(words, "-d", ShellQuote(ex.ReqBody))
		}
		words = append(words, ShellQuote(u.Host), ShellQuote(strings.TrimPrefix(u.Path, "/")))
		return withVars(vars, strings.Join(words, " ")+"   # needs the agent's gRPC reflection, or -proto a2a.proto")
	}
	words = append(words, "curl", "-sS", "-N", "-X", ShellQuote(ex.Method))
	for _, n := range names {
		for _, v := range ex.ReqHeader[n] {
			words = append(words, "-H", header(n, v))
		}
	}
	if ex.ReqBody != "" {
		words = append(words, "--data-binary", ShellQuote(ex.ReqBody))
	}
	words = append(words, ShellQuote(u.String()))
	return withVars(vars, strings.Join(words, " "))
}

func withVars(vars []string, cmd string) string {
	if len(vars) == 0 {
		return cmd
	}
	return "# set " + strings.Join(prefixAll(vars, "$"), ", ") + " to the run's values (redacted from the report)\n" + cmd
}

func prefixAll(list []string, p string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = p + s
	}
	return out
}
