package clientrun

import (
	"reflect"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		`node driver.js`:                   {"node", "driver.js"},
		`  a   'b c'  "d \"e\" \\" f\ g  `: {"a", "b c", `d "e" \`, "f g"},
		`sh -c 'echo $HOME | cat; exit 1'`: {"sh", "-c", "echo $HOME | cat; exit 1"},
		`x --card={card} '{webhook-url}'`:  {"x", "--card={card}", "{webhook-url}"},
		`a''b "" c`:                        {"ab", "", "c"},
	} {
		got, err := SplitWords(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "   ", `a 'b`, `a "b`} {
		if _, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q): no error", bad)
		}
	}
}

func TestParseResultTakesTheLastJSONObjectLine(t *testing.T) {
	out := []byte("log line\n{\"action\":\"send\",\"state\":\"TASK_STATE_WORKING\"}\n[1,2]\n{\"action\":\"send\",\"state\":\"TASK_STATE_COMPLETED\",\"extra\":1}\ntrailing text\n")
	r, line := ParseResult(out)
	if r == nil || r.State != "TASK_STATE_COMPLETED" || line == "" {
		t.Fatalf("got %+v %q", r, line)
	}
	if r, _ := ParseResult([]byte("nothing here\n[]\n")); r != nil {
		t.Fatalf("want no result, got %+v", r)
	}
	if r, line := ParseResult([]byte(`{"state": 3}` + "\n")); r != nil || line == "" {
		t.Fatalf("a JSON object of the wrong shape: %+v %q", r, line)
	}
}
