package runner

import (
	"time"

	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/reports"
)

const directiveURI = directive.URI

// transcript adapts the recorder to what specs see.
type transcript struct{ r *recorder.Recorder }

// newRecorder redacts secrets; the second identity's are also labelled, so
// that a transcript shows which identity a request came from.
func newRecorder(secrets, second []string) *transcript {
	return &transcript{r: recorder.New(recorder.WithSecrets(secrets...),
		recorder.WithLabeledSecret("second identity", second...))}
}

func (t *transcript) Owned(owner string) []reports.Exchange { return t.r.Owned(owner) }

func (t *transcript) AddSecret(values ...string) { t.r.AddSecret(values...) }

// Start is when the transcript's clock (AtMs) began, for the steps a spec
// records (suites.T.Changed).
func (t *transcript) Start() time.Time { return t.r.Start() }
