package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// CardPublished is when the card of generation gen was first published by
// any instance sharing the store: the card's Last-Modified, the same on
// every instance that serves that generation, whenever it started. The
// first call for a generation records now, to the second (an HTTP-date has
// no finer resolution); it is never later than the clock. Two generations
// first published within one second share a date: CardDateShared says so,
// and the agent then never answers 304 to that date.
func (s *Store) CardPublished(ctx context.Context, gen int, now time.Time) (time.Time, error) {
	var at int64
	err := s.db.QueryRowContext(ctx, "SELECT published_at FROM card_generations WHERE generation = ?", gen).Scan(&at)
	if err == nil {
		return fromMS(at), nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, err
	}
	at = now.Truncate(time.Second).UnixMilli()
	err = s.Update(ctx, func(tx *Tx) error {
		// Another instance may have recorded it since the read above:
		// its date stands.
		if _, err := tx.tx.ExecContext(ctx, "INSERT OR IGNORE INTO card_generations (generation, published_at) VALUES (?, ?)", gen, at); err != nil {
			return err
		}
		return tx.tx.QueryRowContext(ctx, "SELECT published_at FROM card_generations WHERE generation = ?", gen).Scan(&at)
	})
	if err != nil {
		return time.Time{}, err
	}
	return fromMS(at), nil
}

// CardDateShared says whether a generation other than gen was first
// published at the date at: a client revalidating with that date may hold
// either card, so only a full answer is right for it.
func (s *Store) CardDateShared(ctx context.Context, gen int, at time.Time) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, "SELECT 1 FROM card_generations WHERE published_at = ? AND generation != ? LIMIT 1", ms(at), gen).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
