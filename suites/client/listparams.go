package client

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// listParams are ListTasksRequest's members by their JSON (camelCase) names:
// the names its HTTP+JSON query parameters take (§11.5).
var listParams = map[string]bool{"tenant": true, "contextId": true, "status": true, "pageSize": true, "pageToken": true,
	"historyLength": true, "statusTimestampAfter": true, "includeArtifacts": true}

// CLI-011: on HTTP+JSON, ListTasks' filters are query parameters named in
// camelCase, the JSON names of the request's fields (§11.5 MUST). The client
// sends a message, then lists the tasks of its context in the state the task
// ended in; a parameter under its proto (snake_case) name fails.
var _ = suites.Spec("CLI-011", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "list", Action: List, Agent: Agent{
		Interfaces: []Interface{{Binding: a2a.BindingHTTPJSON}, {Binding: a2a.BindingJSONRPC}}}})
	var rest, rpc []Request
	for _, r := range o.Ops() {
		if r.Op != a2a.MethodListTasks {
			continue
		}
		if r.Binding == a2a.BindingHTTPJSON {
			rest = append(rest, r)
		} else {
			rpc = append(rpc, r)
		}
	}
	switch {
	case len(rest) == 0 && len(rpc) > 0:
		t.NotApplicable("the client listed tasks over JSON-RPC (%s), where the filters are members of the request body: query parameter names are HTTP+JSON's.", Where(rpc[0]))
	case len(rest) == 0:
		t.Indeterminate("the client sent no ListTasks (driver result: %s): nothing to judge.", o.Driver.ResultLine)
	}
	var vs []invariants.Violation
	for _, r := range rest {
		q, err := url.ParseQuery(r.Query)
		if err != nil {
			vs = append(vs, invariants.Violation{Invariant: "client-query-names", Where: Where(r),
				Expected: "a query string of URL-encoded parameters (§11.5)", Actual: fmt.Sprintf("%q: %v", r.Query, err)})
			continue
		}
		var names []string
		for k := range q {
			names = append(names, k)
		}
		sort.Strings(names)
		t.Observe("query of "+Where(r), strings.Join(names, ", "))
		for _, k := range names {
			if c := camel(k); c != k && listParams[c] {
				vs = append(vs, invariants.Violation{Invariant: "client-query-names", Where: Where(r),
					Expected: fmt.Sprintf("the parameter %s, the camelCase JSON name of the field", c),
					Actual:   fmt.Sprintf("%s=%s", k, q.Get(k))})
			}
		}
	}
	t.Violated(vs...)
})

// camel turns a snake_case name into camelCase (a name without '_' is
// returned as it is).
func camel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	up := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c == '_':
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(c))
			up = false
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
