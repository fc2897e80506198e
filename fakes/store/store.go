// Package store is the reference agent's state: tasks, the event log every
// instance tails, push configs and pending push deliveries, in SQLite. One
// implementation serves both deployments the harness needs: an in-memory
// database for a single instance (or several in-process instances sharing one
// *Store), and a WAL-mode file shared by several processes. Every change is
// one transaction, so a crash leaves either all of a transition (task row,
// event, deliveries) or none of it.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"

	_ "modernc.org/sqlite"
)

// ErrNotFound is returned for a task or push config that does not exist.
var ErrNotFound = errors.New("not found")

// ErrExists is returned when inserting a task whose id is taken.
var ErrExists = errors.New("already exists")

// schemaVersion is kept in PRAGMA user_version; a file written by another
// schema is refused rather than misread, except version 1, which gains the
// principal column (migrate).
const schemaVersion = 2

// BusyTimeout is how long a writer waits for another process's transaction
// before failing with SQLITE_BUSY.
const BusyTimeout = 5 * time.Second

const schema = `
CREATE TABLE IF NOT EXISTS tasks (
	id          TEXT PRIMARY KEY,
	context_id  TEXT NOT NULL,
	state       TEXT NOT NULL,
	status_ts   INTEGER NOT NULL,
	version     INTEGER NOT NULL,
	body        TEXT NOT NULL,
	script      TEXT NOT NULL DEFAULT '',
	owner       TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL,
	principal   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS tasks_by_ts ON tasks (status_ts, id);
CREATE INDEX IF NOT EXISTS tasks_by_ctx ON tasks (context_id, status_ts, id);
CREATE TABLE IF NOT EXISTS events (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id    TEXT NOT NULL,
	version    INTEGER NOT NULL,
	origin     TEXT NOT NULL,
	state      TEXT NOT NULL,
	body       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS push_configs (
	task_id    TEXT NOT NULL,
	id         TEXT NOT NULL,
	body       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (task_id, id)
);
CREATE TABLE IF NOT EXISTS deliveries (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id     TEXT NOT NULL,
	config_id   TEXT NOT NULL,
	body        TEXT NOT NULL,
	origin      TEXT NOT NULL,
	attempts    INTEGER NOT NULL DEFAULT 0,
	next_at     INTEGER NOT NULL,
	owner       TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0,
	last_error  TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_by_config ON deliveries (task_id, config_id, id);
CREATE TABLE IF NOT EXISTS card_generations (
	generation   INTEGER PRIMARY KEY,
	published_at INTEGER NOT NULL
);
`

// Store is a handle on one database. Several agents may share a handle (they
// then also share its change notifications); several processes may open the
// same file.
type Store struct {
	db   *sql.DB
	path string // "" for memory
	// stmts are the hot statements, prepared once at open: SQLite otherwise
	// parses every statement on every call. They must exist before any
	// transaction runs, because the memory store has a single connection that
	// a transaction holds.
	stmts map[string]*sql.Stmt
	// writeMu serialises this handle's write transactions in Go: SQLite's
	// busy handler backs off by sleeping, which would otherwise throttle
	// writers of one process contending with each other. Other processes
	// are still arbitrated by SQLite (busy timeout).
	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	wakers  map[int]chan struct{}
	closed  bool
}

// OpenMemory opens a private in-memory database. It lives as long as the
// handle: SQLite's :memory: database belongs to one connection, so the pool is
// pinned to exactly one connection that is never recycled.
func OpenMemory() *Store {
	db, err := sql.Open("sqlite", "file::memory:?_txlock=immediate")
	if err != nil {
		panic(fmt.Sprintf("store: opening an in-memory database cannot fail: %v", err))
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{db: db, wakers: map[int]chan struct{}{}}
	if err := s.init(context.Background()); err != nil {
		panic(fmt.Sprintf("store: creating the in-memory schema cannot fail: %v", err))
	}
	return s
}

// OpenSQLite opens (creating if needed) a database file that several processes
// may share: WAL journal so readers never block the writer, a busy timeout so
// concurrent writers queue instead of failing, and write transactions that take
// the write lock at BEGIN (so a read-then-write never deadlocks on upgrade).
// synchronous=NORMAL survives a process crash, which is what the harness's
// restart specs exercise; it may lose the last commits on power loss.
func OpenSQLite(path string) (*Store, error) {
	return openSQLite(path, BusyTimeout)
}

// openSQLite opens path with the given busy timeout. Opening is retried while
// it fails with SQLITE_BUSY, for up to three busy timeouts: when several
// processes open a new file at once, one converting it to WAL while another
// creates the schema, SQLite may answer SQLITE_BUSY at once instead of waiting
// (it refuses to wait where waiting could deadlock), and an agent instance
// must not die of that at start (seen in CI: "database is locked" from a
// second instance started beside the first).
func openSQLite(path string, busy time.Duration) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty SQLite path")
	}
	deadline := time.Now().Add(3 * busy)
	pause := 5 * time.Millisecond
	for {
		s, err := openSQLiteOnce(path, busy)
		if err == nil || !isBusy(err) || time.Now().Add(pause).After(deadline) {
			return s, err
		}
		time.Sleep(pause)
		pause = min(2*pause, 250*time.Millisecond)
	}
}

func openSQLiteOnce(path string, busy time.Duration) (*Store, error) {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busy.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Idle connections are kept: opening one re-applies the pragmas and
	// re-prepares the hot statements.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	s := &Store{db: db, path: path, wakers: map[int]chan struct{}{}}
	if err := s.init(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return s, nil
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (or one of its extended
// codes), the "database is locked" answer.
func isBusy(err error) bool {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		return coded.Code()&0xff == sqliteBusy
	}
	return false
}

// sqliteBusy is SQLITE_BUSY, SQLite's primary result code 5.
const sqliteBusy = 5

// Path is the database file, or "" for an in-memory store.
func (s *Store) Path() string { return s.path }

const (
	qTaskByID    = "SELECT " + taskCols + " FROM tasks WHERE id = ?"
	qSaveTask    = "UPDATE tasks SET context_id = ?, state = ?, status_ts = ?, version = ?, body = ?, script = ?, owner = ?, lease_until = ? WHERE id = ?"
	qAppendEvent = "INSERT INTO events (task_id, version, origin, state, body, created_at) VALUES (?,?,?,?,?,?)"
	qConfigs     = "SELECT body FROM push_configs WHERE task_id = ? ORDER BY created_at, id"
	qEnqueue     = "INSERT INTO deliveries (task_id, config_id, body, origin, next_at, created_at) VALUES (?,?,?,?,?,?)"
	qEventsAfter = "SELECT seq, task_id, version, origin, state, body FROM events WHERE seq > ? ORDER BY seq LIMIT ?"
	qHasDue      = "SELECT 1 FROM deliveries d WHERE " + dueFilter + " LIMIT 1"
	qHasOrphans  = "SELECT 1 FROM tasks WHERE " + orphanFilter + " LIMIT 1"
	qRenewLease  = "UPDATE tasks SET lease_until = ? WHERE id = ? AND owner = ?"
	qInsertTask  = "INSERT OR IGNORE INTO tasks (" + taskCols + ") VALUES (?,?,?,?,?,?,?,?,?,?,?)"
	qFinishDeliv = "DELETE FROM deliveries WHERE id = ?"
)

var hotStatements = []string{qTaskByID, qSaveTask, qAppendEvent, qConfigs, qEnqueue, qEventsAfter,
	qHasDue, qHasOrphans, qRenewLease, qInsertTask, qFinishDeliv}

func (s *Store) init(ctx context.Context) error {
	if err := s.migrate(ctx); err != nil {
		return err
	}
	s.stmts = map[string]*sql.Stmt{}
	for _, q := range hotStatements {
		st, err := s.db.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("preparing %q: %w", q, err)
		}
		s.stmts[q] = st
	}
	return nil
}

// stmt returns a prepared hot statement, bound to tx when one is given.
func (s *Store) stmt(ctx context.Context, tx *sql.Tx, q string) *sql.Stmt {
	st := s.stmts[q]
	if tx != nil {
		return tx.StmtContext(ctx, st)
	}
	return st
}

func (s *Store) migrate(ctx context.Context) error {
	return s.Update(ctx, func(tx *Tx) error {
		var v int
		if err := tx.tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		if v != 0 && v != 1 && v != schemaVersion {
			return fmt.Errorf("database schema version %d, this build uses %d", v, schemaVersion)
		}
		if v == 1 {
			// Version 2 records who created each task (Task.Principal);
			// tasks of a version-1 file belong to the anonymous principal.
			if _, err := tx.tx.ExecContext(ctx, "ALTER TABLE tasks ADD COLUMN principal TEXT NOT NULL DEFAULT ''"); err != nil {
				return err
			}
		}
		if _, err := tx.tx.ExecContext(ctx, schema); err != nil {
			return err
		}
		_, err := tx.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion))
		return err
	})
}

// Close closes the handle; notification channels are closed too.
func (s *Store) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		for id, ch := range s.wakers {
			close(ch)
			delete(s.wakers, id)
		}
	}
	s.mu.Unlock()
	return s.db.Close()
}

// Notify returns a channel that receives a signal (coalesced) after every
// committed write through this handle. Writes by other processes are not
// signalled: tailers also poll.
func (s *Store) Notify() (<-chan struct{}, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{}, 1)
	if s.closed {
		close(ch)
		return ch, func() {}
	}
	id := s.nextID
	s.nextID++
	s.wakers[id] = ch
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if c, ok := s.wakers[id]; ok {
			close(c)
			delete(s.wakers, id)
		}
	}
}

func (s *Store) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.wakers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Task is a task row: the wire task plus what the agent needs to run it.
type Task struct {
	Task a2a.Task
	// StatusTime is Task.Status.Timestamp as a time, the ListTasks sort key.
	StatusTime time.Time
	// Version counts the task's changes; events carry the version they produced
	// so a stream can skip what its snapshot already contains.
	Version int64
	// Script is what the worker still has to do (opaque to the store); empty
	// when nothing runs for this task.
	Script []byte
	// Owner and LeaseUntil name the instance running Script; a lease that has
	// run out lets another instance adopt the task.
	Owner      string
	LeaseUntil time.Time
	CreatedAt  time.Time
	// Principal is the identity that created the task (the agent's opaque
	// name for the caller's credentials; "" when it authenticates nobody).
	// It never changes: another identity may not see the task (spec §13.1).
	Principal string
}

// Event is one entry of the shared event log.
type Event struct {
	Seq     int64
	TaskID  string
	Version int64
	Origin  string
	State   a2a.TaskState
	Body    json.RawMessage // an a2a.StreamResponse
}

// Delivery is one pending push: the body of one event for one config.
type Delivery struct {
	ID       int64
	TaskID   string
	ConfigID string
	Body     json.RawMessage
	Origin   string
	Attempts int
	// Created is when the delivery was enqueued (its event's commit).
	Created time.Time
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

// Tx is one write transaction. Its methods must only be called inside the
// function given to Update.
type Tx struct {
	ctx context.Context
	tx  *sql.Tx
	s   *Store
}

// Update runs fn in one write transaction and commits it if fn returns nil.
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(&Tx{ctx: ctx, tx: tx, s: s}); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.wake()
	return nil
}

type scanner interface{ Scan(...any) error }

const taskCols = "id, context_id, state, status_ts, version, body, script, owner, lease_until, created_at, principal"

func scanTask(row scanner) (*Task, error) {
	var (
		t                        Task
		id, ctxID, state, body   string
		script, owner, principal string
		statusTS, lease, created int64
	)
	if err := row.Scan(&id, &ctxID, &state, &statusTS, &t.Version, &body, &script, &owner, &lease, &created, &principal); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	if err := json.Unmarshal([]byte(body), &t.Task); err != nil {
		return nil, fmt.Errorf("task %s: corrupt body: %w", id, err)
	}
	t.StatusTime = fromMS(statusTS)
	if script != "" {
		t.Script = []byte(script)
	}
	t.Owner = owner
	t.LeaseUntil = fromMS(lease)
	t.CreatedAt = fromMS(created)
	t.Principal = principal
	return &t, nil
}

// Task reads a task inside the transaction.
func (t *Tx) Task(id string) (*Task, error) {
	return scanTask(t.st(qTaskByID).QueryRowContext(t.ctx, id))
}

// st returns a hot statement bound to the transaction; before init (the
// schema migration) there are none.
func (t *Tx) st(q string) *sql.Stmt { return t.s.stmt(t.ctx, t.tx, q) }

// InsertTask creates a task row; ErrExists if the id is taken.
func (t *Tx) InsertTask(rec *Task) error {
	body, err := json.Marshal(rec.Task)
	if err != nil {
		return err
	}
	res, err := t.st(qInsertTask).ExecContext(t.ctx,
		rec.Task.ID, rec.Task.ContextID, string(rec.Task.Status.State), ms(rec.StatusTime), rec.Version,
		string(body), string(rec.Script), rec.Owner, ms(rec.LeaseUntil), ms(rec.CreatedAt), rec.Principal)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrExists
	}
	return nil
}

// ReplaceTask overwrites a task row, creating it if absent. Only faults use
// it: a correct agent never re-creates a task id.
func (t *Tx) ReplaceTask(rec *Task) error {
	if _, err := t.tx.ExecContext(t.ctx, "DELETE FROM tasks WHERE id = ?", rec.Task.ID); err != nil {
		return err
	}
	return t.InsertTask(rec)
}

// SaveTask writes every column of an existing task.
func (t *Tx) SaveTask(rec *Task) error {
	body, err := json.Marshal(rec.Task)
	if err != nil {
		return err
	}
	res, err := t.st(qSaveTask).ExecContext(t.ctx,
		rec.Task.ContextID, string(rec.Task.Status.State), ms(rec.StatusTime), rec.Version,
		string(body), string(rec.Script), rec.Owner, ms(rec.LeaseUntil), rec.Task.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// AppendEvent adds an event to the shared log and returns its sequence number.
func (t *Tx) AppendEvent(e Event) (int64, error) {
	res, err := t.st(qAppendEvent).ExecContext(t.ctx,
		e.TaskID, e.Version, e.Origin, string(e.State), string(e.Body), time.Now().UnixMilli())
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// Configs lists a task's push configs in creation order.
func (t *Tx) Configs(taskID string) ([]a2a.TaskPushNotificationConfig, error) {
	rows, err := t.st(qConfigs).QueryContext(t.ctx, taskID)
	return scanConfigs(rows, err, taskID)
}

// ConfigsRegisteredNear lists the push configs of other tasks that were
// created within `within` of one of taskID's own configs, in creation order:
// for the fault whose dispatcher routes by registration time instead of by
// task (push-misrouted-to-sibling-config).
func (t *Tx) ConfigsRegisteredNear(taskID string, within time.Duration) ([]a2a.TaskPushNotificationConfig, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT p.body FROM push_configs p WHERE p.task_id <> ?1 AND EXISTS (
		SELECT 1 FROM push_configs o WHERE o.task_id = ?1 AND abs(o.created_at - p.created_at) <= ?2)
		ORDER BY p.created_at, p.task_id, p.id`, taskID, within.Nanoseconds())
	return scanConfigs(rows, err, taskID)
}

// PutConfig creates or replaces (same task and id) a push config.
func (t *Tx) PutConfig(c a2a.TaskPushNotificationConfig) error {
	return putConfig(t.ctx, t.tx, c)
}

// Enqueue records a pending push of body to one config, due now.
func (t *Tx) Enqueue(taskID, configID string, body []byte, origin string) error {
	return t.EnqueueAt(taskID, configID, body, origin, time.Now())
}

// EnqueueAt records a pending push of body to one config, due at due (a
// queue-backed dispatcher's delay). Each config's deliveries still go out in
// the order they were enqueued.
func (t *Tx) EnqueueAt(taskID, configID string, body []byte, origin string, due time.Time) error {
	_, err := t.st(qEnqueue).ExecContext(t.ctx,
		taskID, configID, string(body), origin, due.UnixMilli(), time.Now().UnixMilli())
	return err
}

type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}

func scanConfigs(rows *sql.Rows, err error, taskID string) ([]a2a.TaskPushNotificationConfig, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []a2a.TaskPushNotificationConfig
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		var c a2a.TaskPushNotificationConfig
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			return nil, fmt.Errorf("corrupt push config of task %s: %w", taskID, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func putConfig(ctx context.Context, q querier, c a2a.TaskPushNotificationConfig) error {
	body, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO push_configs (task_id, id, body, created_at) VALUES (?,?,?,?)
		ON CONFLICT (task_id, id) DO UPDATE SET body = excluded.body`,
		c.TaskID, c.ID, string(body), time.Now().UnixNano())
	return err
}

// GetTask reads one task.
func (s *Store) GetTask(ctx context.Context, id string) (*Task, error) {
	return scanTask(s.stmt(ctx, nil, qTaskByID).QueryRowContext(ctx, id))
}

// Cursor is a position in the ListTasks order: the last task of a page.
type Cursor struct {
	StatusMS int64
	ID       string
}

// ListQuery selects tasks for ListTasks.
type ListQuery struct {
	ContextID string
	State     a2a.TaskState
	// Since keeps tasks whose status time is at or after it (inclusive).
	Since time.Time
	// After continues from a previous page.
	After *Cursor
	Limit int
	// OldestFirst reverses the spec's newest-first order (a fault uses it).
	OldestFirst bool
	// Scoped keeps only the tasks of Principal (spec §13.1: results are
	// scoped to the caller, with or without other filters); the count
	// before pagination is of those alone.
	Scoped    bool
	Principal string
}

// ListTasks returns one page in (status time, id) order, newest first, and the
// number of tasks matching the filters before pagination.
func (s *Store) ListTasks(ctx context.Context, q ListQuery) ([]*Task, int, error) {
	var where []string
	var args []any
	if q.Scoped {
		where = append(where, "principal = ?")
		args = append(args, q.Principal)
	}
	if q.ContextID != "" {
		where = append(where, "context_id = ?")
		args = append(args, q.ContextID)
	}
	if q.State != "" {
		where = append(where, "state = ?")
		args = append(args, string(q.State))
	}
	if !q.Since.IsZero() {
		where = append(where, "status_ts >= ?")
		args = append(args, q.Since.UnixMilli())
	}
	filter := ""
	if len(where) > 0 {
		filter = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM tasks"+filter, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order, cmp := " ORDER BY status_ts DESC, id DESC", "<"
	if q.OldestFirst {
		order, cmp = " ORDER BY status_ts ASC, id ASC", ">"
	}
	if q.After != nil {
		where = append(where, "(status_ts, id) "+cmp+" (?, ?)")
		args = append(args, q.After.StatusMS, q.After.ID)
	}
	filter = ""
	if len(where) > 0 {
		filter = " WHERE " + strings.Join(where, " AND ")
	}
	args = append(args, q.Limit)
	rows, err := s.db.QueryContext(ctx, "SELECT "+taskCols+" FROM tasks"+filter+order+" LIMIT ?", args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []*Task
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, t)
	}
	return out, total, rows.Err()
}

// LastSeq is the sequence number of the newest event (0 when there is none).
func (s *Store) LastSeq(ctx context.Context) (int64, error) {
	var seq sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT MAX(seq) FROM events").Scan(&seq)
	return seq.Int64, err
}

// EventsAfter returns up to limit events with a sequence number above seq, in
// order. SQLite has one writer at a time and assigns seq inside the write
// transaction, so a reader never sees seq N+1 before N is committed: tailing
// by seq misses nothing.
func (s *Store) EventsAfter(ctx context.Context, seq int64, limit int) ([]Event, error) {
	rows, err := s.stmt(ctx, nil, qEventsAfter).QueryContext(ctx, seq, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		var state, body string
		if err := rows.Scan(&e.Seq, &e.TaskID, &e.Version, &e.Origin, &state, &body); err != nil {
			return nil, err
		}
		e.State = a2a.TaskState(state)
		e.Body = json.RawMessage(body)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PruneEvents deletes events older than the cutoff. Tailers that fell further
// behind than that resynchronise from task snapshots.
func (s *Store) PruneEvents(ctx context.Context, olderThan time.Time) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM events WHERE created_at < ?", olderThan.UnixMilli())
	return err
}

// GetConfig reads one push config.
func (s *Store) GetConfig(ctx context.Context, taskID, id string) (a2a.TaskPushNotificationConfig, error) {
	var body string
	err := s.db.QueryRowContext(ctx, "SELECT body FROM push_configs WHERE task_id = ? AND id = ?", taskID, id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return a2a.TaskPushNotificationConfig{}, ErrNotFound
	}
	if err != nil {
		return a2a.TaskPushNotificationConfig{}, err
	}
	var c a2a.TaskPushNotificationConfig
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		return c, fmt.Errorf("corrupt push config %s/%s: %w", taskID, id, err)
	}
	return c, nil
}

// ListConfigs lists a task's push configs in creation order.
func (s *Store) ListConfigs(ctx context.Context, taskID string) ([]a2a.TaskPushNotificationConfig, error) {
	rows, err := s.stmt(ctx, nil, qConfigs).QueryContext(ctx, taskID)
	return scanConfigs(rows, err, taskID)
}

// PutConfig creates or replaces a push config outside a task transition.
func (s *Store) PutConfig(ctx context.Context, c a2a.TaskPushNotificationConfig) error {
	return s.Update(ctx, func(tx *Tx) error { return tx.PutConfig(c) })
}

// DeleteConfig removes a push config and its pending deliveries, so that no
// later notification reaches it (spec §3.1.10). Deleting a missing config is
// not an error.
func (s *Store) DeleteConfig(ctx context.Context, taskID, id string) error {
	return s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, "DELETE FROM push_configs WHERE task_id = ? AND id = ?", taskID, id); err != nil {
			return err
		}
		_, err := tx.tx.ExecContext(ctx, "DELETE FROM deliveries WHERE task_id = ? AND config_id = ?", taskID, id)
		return err
	})
}

// NewestOtherConfig is the most recently created push config with a token
// other than (taskID, id), for the fault whose dispatcher sends the newest
// registration's token with every push (push-token-of-other-config).
// ErrNotFound when there is none.
func (s *Store) NewestOtherConfig(ctx context.Context, taskID, id string) (a2a.TaskPushNotificationConfig, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT body FROM push_configs WHERE NOT (task_id = ? AND id = ?)
		AND json_extract(body, '$.token') <> '' ORDER BY created_at DESC LIMIT 1`, taskID, id)
	cs, err := scanConfigs(rows, err, taskID)
	if err != nil {
		return a2a.TaskPushNotificationConfig{}, err
	}
	if len(cs) == 0 {
		return a2a.TaskPushNotificationConfig{}, ErrNotFound
	}
	return cs[0], nil
}

// ConfigKeys lists every (task id, config id) pair, for the fault that
// snapshots the registrations at start-up.
func (s *Store) ConfigKeys(ctx context.Context) ([][2]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT task_id, id FROM push_configs")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var k [2]string
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// dueFilter selects the deliveries an instance may take now: due, not leased,
// and the oldest pending one of their config, so each webhook receives its
// task's events in order even when several instances deliver.
const dueFilter = `d.next_at <= ?1 AND d.lease_until <= ?1 AND d.id = (
	SELECT MIN(e.id) FROM deliveries e WHERE e.task_id = d.task_id AND e.config_id = d.config_id)`

// HasDueDeliveries is the cheap read an idle dispatcher polls, so that idle
// instances do not contend for the write lock.
func (s *Store) HasDueDeliveries(ctx context.Context, now time.Time) (bool, error) {
	var one int
	err := s.stmt(ctx, nil, qHasDue).QueryRowContext(ctx, now.UnixMilli()).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// ClaimDeliveries leases up to max due deliveries to owner until now+lease. A
// delivery whose owner dies is taken over by another instance when its lease
// runs out: delivery is at least once, never at most once.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, max int) ([]Delivery, error) {
	var out []Delivery
	err := s.Update(ctx, func(tx *Tx) error {
		out = nil
		rows, err := tx.tx.QueryContext(ctx, "SELECT d.id, d.task_id, d.config_id, d.body, d.origin, d.attempts, d.created_at FROM deliveries d WHERE "+
			dueFilter+" ORDER BY d.id LIMIT ?2", now.UnixMilli(), max)
		if err != nil {
			return err
		}
		for rows.Next() {
			var d Delivery
			var body string
			var created int64
			if err := rows.Scan(&d.ID, &d.TaskID, &d.ConfigID, &body, &d.Origin, &d.Attempts, &created); err != nil {
				rows.Close()
				return err
			}
			d.Body = json.RawMessage(body)
			d.Created = time.UnixMilli(created)
			out = append(out, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, d := range out {
			if _, err := tx.tx.ExecContext(ctx, "UPDATE deliveries SET owner = ?, lease_until = ? WHERE id = ?",
				owner, now.Add(lease).UnixMilli(), d.ID); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// FinishDelivery removes a delivery that succeeded or was given up.
func (s *Store) FinishDelivery(ctx context.Context, id int64) error {
	return s.Update(ctx, func(tx *Tx) error {
		_, err := tx.st(qFinishDeliv).ExecContext(ctx, id)
		return err
	})
}

// RetryDelivery releases a delivery that failed, due again at nextAt.
func (s *Store) RetryDelivery(ctx context.Context, id int64, attempts int, nextAt time.Time, lastErr string) error {
	if len(lastErr) > 512 {
		lastErr = lastErr[:512]
	}
	return s.Update(ctx, func(tx *Tx) error {
		_, err := tx.tx.ExecContext(ctx,
			"UPDATE deliveries SET attempts = ?, next_at = ?, owner = '', lease_until = 0, last_error = ? WHERE id = ?",
			attempts, nextAt.UnixMilli(), lastErr, id)
		return err
	})
}

// ReleaseDeliveries hands back the leases an instance holds, so that another
// instance takes them at once instead of after the lease runs out.
func (s *Store) ReleaseDeliveries(ctx context.Context, owner string) error {
	return s.Update(ctx, func(tx *Tx) error {
		_, err := tx.tx.ExecContext(ctx, "UPDATE deliveries SET owner = '', lease_until = 0 WHERE owner = ?", owner)
		return err
	})
}

// PendingDeliveries counts deliveries not yet made, for tests and drain.
func (s *Store) PendingDeliveries(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM deliveries").Scan(&n)
	return n, err
}

// orphanFilter selects tasks with work left whose runner's lease ran out.
const orphanFilter = `script != '' AND lease_until <= ?1 AND state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')`

// HasOrphans is the cheap read before ClaimOrphans.
func (s *Store) HasOrphans(ctx context.Context, now time.Time) (bool, error) {
	var one int
	err := s.stmt(ctx, nil, qHasOrphans).QueryRowContext(ctx, now.UnixMilli()).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// ClaimOrphans leases up to max orphaned tasks to owner: their instance died
// or shut down with work left, and this instance carries it on.
func (s *Store) ClaimOrphans(ctx context.Context, owner string, now time.Time, lease time.Duration, max int) ([]*Task, error) {
	var out []*Task
	err := s.Update(ctx, func(tx *Tx) error {
		out = nil
		rows, err := tx.tx.QueryContext(ctx, "SELECT "+taskCols+" FROM tasks WHERE "+orphanFilter+" ORDER BY created_at LIMIT ?2",
			now.UnixMilli(), max)
		if err != nil {
			return err
		}
		for rows.Next() {
			t, err := scanTask(rows)
			if err != nil {
				rows.Close()
				return err
			}
			out = append(out, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, t := range out {
			t.Owner, t.LeaseUntil = owner, now.Add(lease)
			if _, err := tx.tx.ExecContext(ctx, "UPDATE tasks SET owner = ?, lease_until = ? WHERE id = ?",
				owner, ms(t.LeaseUntil), t.Task.ID); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// RenewLease extends owner's lease on a task; false when owner no longer holds
// it (another instance adopted the task after the lease ran out).
func (s *Store) RenewLease(ctx context.Context, taskID, owner string, until time.Time) (bool, error) {
	var n int64
	err := s.Update(ctx, func(tx *Tx) error {
		res, err := tx.st(qRenewLease).ExecContext(ctx, ms(until), taskID, owner)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n > 0, err
}

// ReleaseLease gives a task's remaining work back (on shutdown), so that
// another instance adopts it without waiting for the lease to run out.
func (s *Store) ReleaseLease(ctx context.Context, taskID, owner string) error {
	return s.Update(ctx, func(tx *Tx) error {
		_, err := tx.tx.ExecContext(ctx, "UPDATE tasks SET owner = '', lease_until = 0 WHERE id = ? AND owner = ?", taskID, owner)
		return err
	})
}
