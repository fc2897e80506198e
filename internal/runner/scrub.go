package runner

import (
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/reports"
)

// secretValues are the credential values of the run (headers from flags,
// config and environment): never to appear in any output file.
func secretValues(cfg Config) []string {
	var out []string
	for _, set := range []func() (http.Header, error){cfg.HeaderSet, cfg.SecondHeaderSet} {
		h, err := set()
		if err != nil {
			continue
		}
		out = append(out, headerSecrets(h)...)
	}
	return out
}

// headerSecrets are the values of h, and the token alone of each
// "Scheme token" value ("Bearer xyz": the token alone may be echoed too).
func headerSecrets(h http.Header) []string {
	var out []string
	for _, vs := range h {
		for _, v := range vs {
			out = append(out, v)
			if _, tok, ok := strings.Cut(v, " "); ok && len(tok) >= 6 {
				out = append(out, tok)
			}
		}
	}
	return out
}

// redact replaces every secret (raw and URL-escaped) in s.
func redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, "[REDACTED]")
		if esc := url.QueryEscape(sec); esc != sec {
			s = strings.ReplaceAll(s, esc, "[REDACTED]")
		}
	}
	return s
}

// scrub is the last line of defence before a report is written: the recorder
// already redacts exchanges, but reasons, violations and observations quote
// what the agent said (an agent that echoes the Authorization header, a
// start-up log quoted in a could-not-run reason).
func scrub(r *reports.Report, secrets []string) {
	if len(secrets) == 0 {
		return
	}
	r.CardError = redact(r.CardError, secrets)
	for i := range r.Run.Args {
		r.Run.Args[i] = redact(r.Run.Args[i], secrets)
	}
	for i := range r.Run.Notes {
		r.Run.Notes[i] = redact(r.Run.Notes[i], secrets)
	}
	for i := range r.Results {
		res := &r.Results[i]
		res.Reason = redact(res.Reason, secrets)
		for j := range res.Violations {
			v := &res.Violations[j]
			v.Where, v.Expected, v.Actual = redact(v.Where, secrets), redact(v.Expected, secrets), redact(v.Actual, secrets)
		}
		for k, v := range res.Observations {
			res.Observations[k] = redact(v, secrets)
		}
		// A step's error quotes a hook's output, as its reason does.
		for j := range res.Steps {
			st := &res.Steps[j]
			st.Error = redact(st.Error, secrets)
			for k := range st.TaskIDs {
				st.TaskIDs[k] = redact(st.TaskIDs[k], secrets)
			}
		}
		for _, list := range [][]string{res.Unchecked, res.Findings} {
			for j := range list {
				list[j] = redact(list[j], secrets)
			}
		}
	}
}

// redactingWriter redacts secrets from each write; the process driver writes
// whole lines, so a secret is never split across two writes.
type redactingWriter struct {
	w       io.Writer
	secrets []string
}

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, redact(string(p), r.secrets)); err != nil {
		return 0, err
	}
	return len(p), nil
}
