package clientdriver

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"
)

// faultSnakeCaseListParams: on HTTP+JSON, ListTasks sends its filters under
// the proto field names (context_id, page_size, …) instead of their camelCase
// JSON names, so an agent ignores them and lists every task (an SDK bug
// class: query parameters named from the proto, not from its JSON mapping).
var faultSnakeCaseListParams = registerFault(Fault{
	Name:        "snake-case-list-params",
	Description: "On HTTP+JSON, sends ListTasks' filters as snake_case query parameters (context_id, page_size) instead of camelCase (contextId, pageSize).",
	Specs:       []string{"CLI-011"},
})

// snakeCaseListParams renames the query parameters of every GET of a tasks
// collection (HTTP+JSON ListTasks) to snake_case.
func snakeCaseListParams(base http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/tasks") && r.URL.RawQuery != "" {
			q := url.Values{}
			for k, vs := range r.URL.Query() {
				q[snake(k)] = vs
			}
			r = r.Clone(r.Context())
			r.URL.RawQuery = q.Encode()
		}
		return base.RoundTrip(r)
	})
}

// snake turns a camelCase name into snake_case.
func snake(s string) string {
	var b strings.Builder
	for i, c := range s {
		if unicode.IsUpper(c) {
			if i > 0 {
				b.WriteByte('_')
			}
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}
