package clientdriver

import (
	"net/http"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// variantQueryVersion: A2A-Version goes in the query string, not in a
// header. A2A v1.0 §3.6.1: clients may pass `?A2A-Version=1.0` as a query
// parameter; docs/levels.md (CLI-001): the query form counts.
var variantQueryVersion = registerVariant(Variant{
	Name:        "query-version",
	Description: "Sends A2A-Version as the query parameter (?A2A-Version=1.0, §3.6.1) on every request instead of the header.",
	Specs:       []string{"CLI-001"},
})

// versionInQuery moves the A2A-Version header of r into its query string.
func versionInQuery(r *http.Request) *http.Request {
	v := r.Header.Get(client.HeaderVersion)
	if v == "" {
		return r
	}
	r2 := r.Clone(r.Context())
	r2.Header.Del(client.HeaderVersion)
	u := *r2.URL
	q := u.Query()
	q.Set(client.HeaderVersion, v)
	u.RawQuery = q.Encode()
	r2.URL = &u
	return r2
}
