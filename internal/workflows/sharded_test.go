package workflows

import (
	"strings"
	"testing"
)

// The sharded examples (docs/vendor-guide.md): the GitHub workflow pins
// every action by commit, as the repository's own workflows do, runs a
// matrix of vendors × shards that uploads each shard's report, and merges
// them in a last job; the Indexed Job turns its 0-based completion index
// into a 1-based --shard.
func TestShardedExamples(t *testing.T) {
	m, doc := load(t, "examples/github-sharded.yml")
	for _, n := range usesNodes(doc) {
		if p := usesProblem(n, nil); p != "" {
			t.Errorf("github-sharded.yml:%d: uses %s: %s", n.Line, n.Value, p)
		}
	}
	jobs, _ := m["jobs"].(map[string]any)
	shard, _ := jobs["shard"].(map[string]any)
	merge, _ := jobs["merge"].(map[string]any)
	if shard == nil || merge == nil {
		t.Fatalf("github-sharded.yml: want jobs shard and merge, have %v", jobs)
	}
	matrix, _ := shard["strategy"].(map[string]any)["matrix"].(map[string]any)
	if matrix["shard"] == nil || matrix["vendor"] == nil {
		t.Errorf("github-sharded.yml: the shard job's matrix wants shard and vendor, has %v", matrix)
	}
	text := func(v any) string { b := strings.Builder{}; walk(v, &b); return b.String() }
	for _, want := range []string{"--shard \"$SHARD/$SHARDS\"", "--seed \"$SEED\"", "actions/upload-artifact@"} {
		if !strings.Contains(text(shard), want) {
			t.Errorf("github-sharded.yml: the shard job lacks %q", want)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "a2a-conform merge "} {
		if !strings.Contains(text(merge), want) {
			t.Errorf("github-sharded.yml: the merge job lacks %q", want)
		}
	}
	if needs, _ := merge["needs"].(string); needs != "shard" {
		t.Errorf("github-sharded.yml: merge needs %v, want shard", merge["needs"])
	}

	k, _ := load(t, "examples/k8s/indexed-job.yaml")
	spec, _ := k["spec"].(map[string]any)
	if k["kind"] != "Job" || spec["completionMode"] != "Indexed" {
		t.Errorf("indexed-job.yaml: want an Indexed Job, have kind %v mode %v", k["kind"], spec["completionMode"])
	}
	if !strings.Contains(text(spec), `--shard "$shard/$SHARDS"`) || !strings.Contains(text(spec), "shard=$((JOB_COMPLETION_INDEX + 1))") {
		t.Error("indexed-job.yaml: the pod must run --shard $((JOB_COMPLETION_INDEX+1))/N")
	}
}

func walk(v any, b *strings.Builder) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			b.WriteString(k + "\n")
			walk(e, b)
		}
	case []any:
		for _, e := range x {
			walk(e, b)
		}
	default:
		b.WriteString(strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(toString(x), "\\\n", ""), "\n", " ")) + "\n")
	}
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
