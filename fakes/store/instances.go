package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The instances table maps each running instance (its lease owner id) to
// the base URL other instances reach it at, for agents whose instances
// forward requests to the one running a task (fakes' ForwardToOwner). It
// is created on first use, so a store file of a build without it stays
// readable by both.
const qInstancesTable = `CREATE TABLE IF NOT EXISTS instances (
	owner   TEXT PRIMARY KEY,
	url     TEXT NOT NULL,
	seen_at INTEGER NOT NULL
)`

// RegisterInstance records (or refreshes) the URL the instance named owner
// is reached at.
func (s *Store) RegisterInstance(ctx context.Context, owner, url string, now time.Time) error {
	return s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, qInstancesTable); err != nil {
			return err
		}
		_, err := tx.tx.ExecContext(ctx, `INSERT INTO instances (owner, url, seen_at) VALUES (?, ?, ?)
			ON CONFLICT(owner) DO UPDATE SET url = excluded.url, seen_at = excluded.seen_at`, owner, url, ms(now))
		return err
	})
}

// UnregisterInstance forgets the instance named owner (it is going away).
func (s *Store) UnregisterInstance(ctx context.Context, owner string) error {
	return s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, qInstancesTable); err != nil {
			return err
		}
		_, err := tx.tx.ExecContext(ctx, "DELETE FROM instances WHERE owner = ?", owner)
		return err
	})
}

// InstanceURL is the URL the instance named owner registered; ErrNotFound
// when it registered none (or went away).
func (s *Store) InstanceURL(ctx context.Context, owner string) (string, error) {
	var url string
	err := s.db.QueryRowContext(ctx, "SELECT url FROM instances WHERE owner = ?", owner).Scan(&url)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", ErrNotFound
	case err != nil && !s.hasInstances(ctx):
		return "", ErrNotFound
	}
	return url, err
}

// hasInstances reports whether the instances table exists (no instance of
// this store registered yet: none).
func (s *Store) hasInstances(ctx context.Context) bool {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'instances'").Scan(&n)
	return err == nil && n > 0
}
