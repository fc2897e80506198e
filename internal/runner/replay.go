package runner

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/reports"
)

// writeReplays writes DIR/replay/ID.json for every failing spec whose
// invariants a replay can judge (replay.For), and returns the files. Every
// fail's result says where its bundle is, or why it has none.
func writeReplays(dir string, r *reports.Report) ([]string, error) {
	var files []string
	for i, res := range r.Results {
		b, why := replay.For(r, res)
		if b == nil {
			if res.Verdict == reports.Fail {
				r.Results[i].Replay = &reports.ReplayNote{None: why}
			}
			continue
		}
		data, err := json.MarshalIndent(b, "", "  ")
		if err != nil {
			return files, err
		}
		if err := os.MkdirAll(filepath.Join(dir, "replay"), 0o755); err != nil {
			return files, err
		}
		p := filepath.Join(dir, "replay", res.ID+".json")
		if err := os.WriteFile(p, append(data, '\n'), 0o644); err != nil {
			return files, err
		}
		files = append(files, p)
		r.Results[i].Replay = &reports.ReplayNote{Bundle: "replay/" + res.ID + ".json"}
	}
	return files, nil
}
