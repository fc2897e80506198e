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
// no finer resolution), and at least one second after every generation
// recorded before it, so that a client's If-Modified-Since with the older
// card's date never matches the newer card (RFC 9110 §13.1.3). That may lie
// up to a second or so ahead of the clock when generations follow each
// other within a second; the caller never sends a date in the future.
func (s *Store) CardPublished(ctx context.Context, gen int, now time.Time) (time.Time, error) {
	var at int64
	err := s.db.QueryRowContext(ctx, "SELECT published_at FROM card_generations WHERE generation = ?", gen).Scan(&at)
	if err == nil {
		return fromMS(at), nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, err
	}
	err = s.Update(ctx, func(tx *Tx) error {
		// Another instance may have recorded it since the read above.
		err := tx.tx.QueryRowContext(ctx, "SELECT published_at FROM card_generations WHERE generation = ?", gen).Scan(&at)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var latest sql.NullInt64
		if err := tx.tx.QueryRowContext(ctx, "SELECT MAX(published_at) FROM card_generations").Scan(&latest); err != nil {
			return err
		}
		at = now.Truncate(time.Second).UnixMilli()
		if latest.Valid && at <= latest.Int64 {
			at = latest.Int64 + time.Second.Milliseconds()
		}
		_, err = tx.tx.ExecContext(ctx, "INSERT INTO card_generations (generation, published_at) VALUES (?, ?)", gen, at)
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	return fromMS(at), nil
}
