package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MaxReportBytes bounds what ReadJSON accepts. A full run with capped
// transcripts is a few MiB; 64 MiB leaves room without letting a submitted
// file exhaust memory.
const MaxReportBytes = 64 << 20

// WriteJSON writes r to path as indented report.json.
//
// It fills what the writer owns, in place: APIVersion and Kind when empty,
// Results as [] rather than null, Summary recomputed from the results with
// SummarizeReport (always, so a written report is consistent by construction),
// and Digest. The file is written to a temporary name and renamed, so a
// reader never sees half a report.
func WriteJSON(path string, r *Report) error {
	if r.APIVersion == "" {
		r.APIVersion = APIVersion
	}
	if r.Kind == "" {
		r.Kind = Kind
	}
	if r.Results == nil {
		r.Results = []Result{}
	}
	r.Summary = SummarizeReport(r)
	d, err := digestOfReport(r)
	if err != nil {
		return fmt.Errorf("report.json: %w", err)
	}
	r.Digest = d
	r.raw = nil

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // readability; escaping belongs to the HTML writer
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report.json: %w", err)
	}
	return writeFileAtomic(path, b.Bytes())
}

// ReadJSON reads a report.json of at most MaxReportBytes. Members it does not
// know are ignored (a newer harness may add some); the bytes are kept so that
// Verify hashes exactly what was read. ReadJSON does not verify: call Verify.
func ReadJSON(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxReportBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, the most a report may be", path, MaxReportBytes>>20)
	}
	raw, err := io.ReadAll(io.LimitReader(f, MaxReportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(raw) > MaxReportBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, the most a report may be", path, MaxReportBytes>>20)
	}
	r, err := decodeReport(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func decodeReport(raw []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("not a report: %w", err)
	}
	r.raw = raw
	return &r, nil
}

func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}
