package clientdriver

import (
	"context"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionResolve, actionResolve) }

// actionResolve: resolve the card twice, 1 s apart, through the card cache
// (a fresh copy is not fetched again; an expired one is revalidated with
// If-None-Match).
func actionResolve(ctx context.Context, d *Driver) error {
	if err := d.resolve(ctx, false); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second):
	}
	return d.resolve(ctx, false)
}
