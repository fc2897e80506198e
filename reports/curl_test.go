package reports

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// A recorded request comes back as a command that sends it again, with no
// secret in it and with the reader's variable in its place.
func TestReproduceExchange(t *testing.T) {
	ex := Exchange{Seq: 7, Direction: "out", Method: "POST", URL: "http://127.0.0.1:41833/a2a",
		ReqHeader: http.Header{"Content-Type": {"application/json"}, "A2a-Version": {"1.0"}, "Authorization": {"[REDACTED]"}, "Content-Length": {"99"}},
		ReqBody:   `{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"it's"}}`}
	got := ReproduceExchange(ex)
	for _, want := range []string{
		"# set $A2A_AUTHORIZATION to the run's values",
		`curl -sS -N -X POST -H 'A2a-Version: 1.0' -H "Authorization: $A2A_AUTHORIZATION" -H 'Content-Type: application/json'`,
		`--data-binary '{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"it'\''s"}}' http://127.0.0.1:41833/a2a`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "Content-Length") || strings.Contains(strings.ToLower(got), "[redacted]") {
		t.Errorf("hop header or redaction marker left in:\n%s", got)
	}
	// The command is valid shell: sh parses it (without running it).
	if sh, err := exec.LookPath("sh"); err == nil {
		if out, err := exec.Command(sh, "-n", "-c", got).CombinedOutput(); err != nil {
			t.Errorf("sh -n: %v: %s", err, out)
		}
	}
	g := ReproduceExchange(Exchange{Method: "GetTask", URL: "grpc://127.0.0.1:42623/lf.a2a.v1.A2AService/GetTask",
		ReqHeader: http.Header{"A2a-Version": {"1.0"}}, ReqBody: `{"id":"t-1"}`})
	if !strings.HasPrefix(g, `grpcurl -plaintext -H 'a2a-version: 1.0' -d '{"id":"t-1"}' 127.0.0.1:42623 lf.a2a.v1.A2AService/GetTask`) {
		t.Errorf("grpcurl: %s", g)
	}
	if ReproduceExchange(Exchange{Direction: "in", Method: "POST", URL: "http://127.0.0.1/hook"}) != "" {
		t.Error("a webhook the harness received has no reproduction")
	}
}
