package runner

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/reports"
)

// writeReplays writes DIR/replay/ID.json for every failing spec whose
// invariants a replay can judge (replay.For), and returns the files.
func writeReplays(dir string, r *reports.Report) ([]string, error) {
	var files []string
	for _, res := range r.Results {
		b, _ := replay.For(r, res)
		if b == nil {
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
	}
	return files, nil
}
