package clientrun

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/recorder"
)

func withOwner(ctx context.Context, owner string) context.Context {
	if owner == "" {
		return ctx
	}
	return recorder.WithOwner(ctx, owner)
}
