package runner

import (
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/reports"
)

const directiveURI = directive.URI

// transcript adapts the recorder to what specs see.
type transcript struct{ r *recorder.Recorder }

func newRecorder(secrets []string) *transcript {
	return &transcript{r: recorder.New(recorder.WithSecrets(secrets...))}
}

func (t *transcript) Owned(owner string) []reports.Exchange { return t.r.Owned(owner) }

func (t *transcript) AddSecret(values ...string) { t.r.AddSecret(values...) }
