package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

func newTask(id, ctxID string, state a2a.TaskState, at time.Time) *Task {
	return &Task{
		Task:       a2a.Task{ID: id, ContextID: ctxID, Status: a2a.TaskStatus{State: state, Timestamp: at.UTC().Format(time.RFC3339Nano)}},
		StatusTime: at, Version: 1, CreatedAt: at,
	}
}

func stores(t *testing.T) map[string]*Store {
	t.Helper()
	file, err := OpenSQLite(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	mem := OpenMemory()
	t.Cleanup(func() { file.Close(); mem.Close() })
	return map[string]*Store{"memory": mem, "file": file}
}

func TestTasksAndList(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			base := time.UnixMilli(1_700_000_000_000)
			for i := 0; i < 5; i++ {
				ctxID := "c1"
				if i%2 == 1 {
					ctxID = "c2"
				}
				rec := newTask(fmt.Sprintf("t%d", i), ctxID, a2a.TaskStateWorking, base.Add(time.Duration(i)*time.Second))
				if err := s.Update(ctx, func(tx *Tx) error { return tx.InsertTask(rec) }); err != nil {
					t.Fatal(err)
				}
			}
			dup := newTask("t0", "c1", a2a.TaskStateWorking, base)
			if err := s.Update(ctx, func(tx *Tx) error { return tx.InsertTask(dup) }); !errors.Is(err, ErrExists) {
				t.Fatalf("duplicate insert: %v", err)
			}
			if _, err := s.GetTask(ctx, "nope"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("missing task: %v", err)
			}
			page, total, err := s.ListTasks(ctx, ListQuery{Limit: 2})
			if err != nil || total != 5 || len(page) != 2 || page[0].Task.ID != "t4" || page[1].Task.ID != "t3" {
				t.Fatalf("first page: total %d err %v %v", total, err, ids(page))
			}
			next, _, err := s.ListTasks(ctx, ListQuery{Limit: 2, After: &Cursor{page[1].StatusTime.UnixMilli(), page[1].Task.ID}})
			if err != nil || len(next) != 2 || next[0].Task.ID != "t2" {
				t.Fatalf("second page: %v %v", err, ids(next))
			}
			c1, total, _ := s.ListTasks(ctx, ListQuery{Limit: 10, ContextID: "c1", Since: base.Add(2 * time.Second)})
			if total != 2 || len(c1) != 2 || c1[0].Task.ID != "t4" || c1[1].Task.ID != "t2" {
				t.Fatalf("filtered (inclusive since): total %d %v", total, ids(c1))
			}
			old, _, _ := s.ListTasks(ctx, ListQuery{Limit: 1, OldestFirst: true})
			if old[0].Task.ID != "t0" {
				t.Fatalf("oldest first: %v", ids(old))
			}
		})
	}
}

func ids(ts []*Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Task.ID)
	}
	return out
}

func TestEventsTail(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			wake, stop := s.Notify()
			defer stop()
			last, err := s.LastSeq(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 3; i++ {
				err := s.Update(ctx, func(tx *Tx) error {
					_, err := tx.AppendEvent(Event{TaskID: "t", Version: int64(i), Origin: "a", State: a2a.TaskStateWorking, Body: []byte(`{}`)})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-wake:
			default:
				t.Fatal("no wake-up after a commit")
			}
			evs, err := s.EventsAfter(ctx, last, 10)
			if err != nil || len(evs) != 3 || evs[0].Version != 0 || evs[2].Seq <= evs[0].Seq {
				t.Fatalf("events %v %+v", err, evs)
			}
		})
	}
}

func TestDeliveriesInOrderPerConfig(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			err := s.Update(ctx, func(tx *Tx) error {
				for i := 0; i < 3; i++ {
					if err := tx.Enqueue("t", "cfgA", []byte(fmt.Sprintf(`{"n":%d}`, i)), "a"); err != nil {
						return err
					}
				}
				return tx.Enqueue("t", "cfgB", []byte(`{"n":9}`), "a")
			})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			if ok, err := s.HasDueDeliveries(ctx, now); !ok || err != nil {
				t.Fatalf("due: %v %v", ok, err)
			}
			got, err := s.ClaimDeliveries(ctx, "me", now, time.Minute, 10)
			if err != nil || len(got) != 2 || string(got[0].Body) != `{"n":0}` || got[1].ConfigID != "cfgB" {
				t.Fatalf("claim: %v %+v", err, got)
			}
			// Leased: nobody else gets them, and the next of cfgA waits for the first.
			if again, _ := s.ClaimDeliveries(ctx, "other", now, time.Minute, 10); len(again) != 0 {
				t.Fatalf("claimed leased deliveries: %+v", again)
			}
			if err := s.RetryDelivery(ctx, got[0].ID, 1, now.Add(time.Hour), "503"); err != nil {
				t.Fatal(err)
			}
			if again, _ := s.ClaimDeliveries(ctx, "other", now, time.Minute, 10); len(again) != 0 {
				t.Fatalf("a later delivery overtook a retried one: %+v", again)
			}
			if err := s.FinishDelivery(ctx, got[0].ID); err != nil {
				t.Fatal(err)
			}
			next, _ := s.ClaimDeliveries(ctx, "other", now, time.Minute, 10)
			if len(next) != 1 || string(next[0].Body) != `{"n":1}` {
				t.Fatalf("next in order: %+v", next)
			}
			if err := s.DeleteConfig(ctx, "t", "cfgA"); err != nil {
				t.Fatal(err)
			}
			if n, _ := s.PendingDeliveries(ctx); n != 1 {
				t.Fatalf("deleting the config left %d deliveries, want only cfgB's", n)
			}
		})
	}
}

func TestOrphansAndLeases(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			now := time.Now()
			rec := newTask("t", "c", a2a.TaskStateWorking, now)
			rec.Script, rec.Owner, rec.LeaseUntil = []byte(`{}`), "a", now.Add(time.Second)
			if err := s.Update(ctx, func(tx *Tx) error { return tx.InsertTask(rec) }); err != nil {
				t.Fatal(err)
			}
			if ok, _ := s.HasOrphans(ctx, now); ok {
				t.Fatal("a leased task counted as orphan")
			}
			later := now.Add(2 * time.Second)
			got, err := s.ClaimOrphans(ctx, "b", later, time.Minute, 5)
			if err != nil || len(got) != 1 || got[0].Owner != "b" {
				t.Fatalf("adopt: %v %+v", err, got)
			}
			if ok, _ := s.RenewLease(ctx, "t", "a", later.Add(time.Hour)); ok {
				t.Fatal("the old owner renewed a lease it lost")
			}
			if err := s.ReleaseLease(ctx, "t", "b"); err != nil {
				t.Fatal(err)
			}
			if ok, _ := s.HasOrphans(ctx, now); !ok {
				t.Fatal("a released task is not adoptable")
			}
		})
	}
}

// Two handles on one file, as two processes would have, writing at once:
// every transaction commits (busy timeout, immediate locking) and the event
// sequence has no gaps.
func TestConcurrentWritersOnOneFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	a, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rec := newTask("t", "c", a2a.TaskStateWorking, time.Now())
	if err := a.Update(ctx, func(tx *Tx) error { return tx.InsertTask(rec) }); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, s := range []*Store{a, b} {
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					errs <- s.Update(ctx, func(tx *Tx) error {
						cur, err := tx.Task("t")
						if err != nil {
							return err
						}
						cur.Version++
						if err := tx.SaveTask(cur); err != nil {
							return err
						}
						_, err = tx.AppendEvent(Event{TaskID: "t", Version: cur.Version, Origin: "x", State: a2a.TaskStateWorking, Body: []byte(`{}`)})
						return err
					})
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, _ := b.GetTask(ctx, "t")
	if got.Version != 81 {
		t.Fatalf("version %d after 80 read-modify-write transactions, want 81 (lost update)", got.Version)
	}
	evs, _ := a.EventsAfter(ctx, 0, 1000)
	for i, e := range evs {
		if e.Version != int64(i+2) {
			t.Fatalf("event %d has version %d: log order differs from commit order", i, e.Version)
		}
	}
}

// ListTasks scoped to a principal counts and returns that principal's tasks
// alone, with or without other filters (spec §13.1).
func TestListScopedToPrincipal(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			base := time.UnixMilli(1_700_000_000_000)
			for i, who := range []string{"alice", "bob", "alice"} {
				rec := newTask(fmt.Sprintf("t%d", i), "shared", a2a.TaskStateCompleted, base.Add(time.Duration(i)*time.Millisecond))
				rec.Principal = who
				if err := s.Update(ctx, func(tx *Tx) error { return tx.InsertTask(rec) }); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []ListQuery{{Limit: 10}, {ContextID: "shared", Limit: 10}} {
				q.Scoped, q.Principal = true, "bob"
				got, total, err := s.ListTasks(ctx, q)
				if err != nil || total != 1 || len(got) != 1 || got[0].Task.ID != "t1" || got[0].Principal != "bob" {
					t.Fatalf("bob's list %+v: %d tasks, total %d, %v", q, len(got), total, err)
				}
			}
			if _, total, _ := s.ListTasks(ctx, ListQuery{Limit: 10}); total != 3 {
				t.Fatalf("unscoped total %d, want 3", total)
			}
		})
	}
}

// A file written by schema version 1 (no principal column) is migrated in
// place: its tasks belong to the anonymous principal.
func TestMigratesSchemaVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	// Turn the file back into a version-1 one: drop the column the
	// migration adds and the version that says it is there.
	for _, q := range []string{"ALTER TABLE tasks DROP COLUMN principal", "PRAGMA user_version = 1",
		"INSERT INTO tasks (id, context_id, state, status_ts, version, body, created_at) VALUES ('old', 'c', 'TASK_STATE_COMPLETED', 1, 1, '{\"id\":\"old\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}', 1)"} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s, err = OpenSQLite(path)
	if err != nil {
		t.Fatalf("reopening a version-1 file: %v", err)
	}
	defer s.Close()
	rec, err := s.GetTask(ctx, "old")
	if err != nil || rec.Principal != "" {
		t.Fatalf("old task after migration: %+v, %v", rec, err)
	}
}

// holdLock opens path with a plain connection (rollback journal, no busy
// wait) and takes SQLite's exclusive lock on it, as another process starting
// up may; release ends the transaction.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE IF NOT EXISTS other (x)", "BEGIN EXCLUSIVE"} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
				t.Error(err)
			}
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// An instance that opens the shared file while another process holds it
// locked for longer than a busy timeout does not die of SQLITE_BUSY: the
// open is retried (CI saw a second agent instance exit at start with
// "database is locked"). The retries are bounded: a lock that outlasts them
// still fails, with SQLite's own error.
func TestOpenWaitsOutABusyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	release := holdLock(t, path)
	timer := time.AfterFunc(200*time.Millisecond, release)
	defer timer.Stop()
	s, err := openSQLite(path, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("open while another holds the lock for 2 busy timeouts: %v", err)
	}
	defer s.Close()
	if err := s.Update(context.Background(), func(tx *Tx) error {
		return tx.InsertTask(newTask("t", "c", a2a.TaskStateWorking, time.Now()))
	}); err != nil {
		t.Fatalf("the store opened after waiting does not work: %v", err)
	}

	other := filepath.Join(t.TempDir(), "held.db")
	holdLock(t, other)
	_, err = openSQLite(other, 50*time.Millisecond)
	if err == nil || !isBusy(err) || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("open of a file locked for good: %v, want SQLITE_BUSY", err)
	}
}
