package consensus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/vault"
)

// rebuildBatch is how many rows one INSERT statement of a rebuild
// carries: a statement's cost through database/sql and the driver is
// paid once per batch rather than once per row.
const rebuildBatch = 64

// indexLock is the lock file under the root that one build of the index
// at a time holds.
const indexLock = "cache/consensus-index.lock"

// build makes the index from the vault when tryOpen found none usable,
// and opens it. Under the index lock it looks again (another
// process may have built it while this one waited, and then its index is
// used); else it fills a new database file beside the index with
// neither journal nor fsync per transaction (nothing reads it yet),
// syncs it, and renames it over the old one. Readers therefore see the
// old file, or none, or the complete new one: a process that has the old
// one open keeps reading it (SQLite notices the rename and never writes
// back into its place), and two processes that find no index build it
// once. Callers hold s.mu.
func (s *Store) build(ctx context.Context) (*index, error) {
	unlock, err := s.lockIndex(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	ix, err := s.tryOpen()
	if err == nil {
		return ix, nil // built by another process meanwhile
	}
	if !errors.Is(err, errNoIndex) { // corrupt, foreign, of another version or vault
		s.log.Warn("consensus: rebuilding the lookup index", "path", CacheFile, "err", err)
	}
	const tmp = CacheFile + ".new"
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} { // a build that died
		if err := s.root.Remove(tmp + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	// Made 0600 before SQLite opens it, as every file of the root is:
	// SQLite would make it 0644 (the umask's), and its log and shared
	// memory files take the database's mode.
	if f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, vault.FilePerm); err != nil {
		return nil, err
	} else if err := f.Close(); err != nil {
		return nil, err
	}
	if err := s.buildFile(ctx, filepath.Join(s.rootDir, filepath.FromSlash(tmp))); err != nil {
		_ = s.root.Remove(tmp)
		return nil, err
	}
	f, err := s.root.Open(tmp)
	if err == nil {
		err = f.Sync()
		f.Close()
	}
	// The old index's log and shared memory go first: a log left beside
	// the new file would be replayed into it.
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err == nil {
			if err = s.root.Remove(CacheFile + suffix); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
	}
	if err == nil {
		err = s.root.Rename(tmp, CacheFile)
	}
	if err == nil {
		err = durable.SyncDir(s.rootFS, "cache")
	}
	if err != nil {
		_ = s.root.Remove(tmp)
		return nil, err
	}
	return s.tryOpen()
}

// buildFile creates the index at path and fills it from the vault.
func (s *Store) buildFile(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"+
		"&_pragma=foreign_keys(0)&_pragma=cache_size("+cacheSize+")")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES ('version', ?), ('vault', ?)`, schemaVersion, s.v.Path()); err != nil {
		return err
	}
	sig, start, names, folders, err := s.list()
	if err != nil {
		return err
	}
	slices.Sort(folders)
	if _, err := db.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES ('folders', ?)`, strings.Join(folders, "\n")); err != nil {
		return err
	}
	if err := s.rebuild(ctx, db, names, sig, start); err != nil {
		return err
	}
	// Lookups and filings share it through its write-ahead log.
	if _, err := db.ExecContext(ctx, `PRAGMA journal_mode = WAL`); err != nil {
		return err
	}
	return db.Close()
}

// lockIndex takes the index lock, waiting for it as long as ctx allows.
func (s *Store) lockIndex(ctx context.Context) (unlock func(), err error) {
	f, err := s.root.OpenFile(indexLock, os.O_RDWR|os.O_CREATE, vault.FilePerm)
	if err != nil {
		return nil, fmt.Errorf("index lock: %w", err)
	}
	if err := flock.Wait(ctx, f, flock.Exclusive); err != nil {
		f.Close()
		return nil, fmt.Errorf("index lock: %w", err)
	}
	return func() {
		_ = flock.Unlock(f)
		f.Close()
	}, nil
}

// errFilled says that an index found empty had rows by the time it was
// to be filled.
var errFilled = errors.New("the index was filled meanwhile")

// fillInPlace fills the open index, found empty (no record yet when it
// was built), with the named files: errFilled when another process
// filled it first. Callers hold s.mu.
func (s *Store) fillInPlace(ctx context.Context, names []string, sig dirSig, scannedNs int64) error {
	// No memory map while the tables are filled: creating the indexes
	// reads every page, which would all stay resident.
	db := s.idx.db
	if _, err := db.ExecContext(ctx, `PRAGMA mmap_size = 0`); err != nil {
		return s.indexErr(err)
	}
	defer db.Exec(`PRAGMA mmap_size = ` + mmapSize)
	// No fsync while it is written (the database is a cache; a fill that
	// fails rolls back, a torn write-ahead log is discarded by its
	// checksums, and either way the next lookup reads the folder again).
	if _, err := db.ExecContext(ctx, `PRAGMA synchronous = OFF`); err != nil {
		return s.indexErr(err)
	}
	defer db.Exec(`PRAGMA synchronous = NORMAL`)
	s.idx.dfMemo, s.idx.chainMemo = nil, nil
	if err := s.rebuild(ctx, db, names, sig, scannedNs); err != nil {
		if errors.Is(err, errFilled) {
			return err
		}
		return s.indexErr(err)
	}
	s.idx.dir, s.idx.scannedNs = sig, scannedNs
	return nil
}

// rebuild fills the empty tables of db from the named files (errFilled
// when they are not empty). Workers read and
// parse them and count their terms while this goroutine inserts them, a
// batch of rows per statement, in one transaction; the files table's
// indexes are created after the rows, and the questions with several
// records are settled at the end. A rebuild takes about as long as the
// slower of the two sides and holds neither the files nor their records
// in memory.
func (s *Store) rebuild(ctx context.Context, db *sql.DB, names []string, sig dirSig, scannedNs int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	b := &bulk{tx: tx, stmts: map[string]*sql.Stmt{}}
	defer b.close()
	for _, ix := range indexNames {
		if _, err := tx.Exec(`DROP INDEX IF EXISTS ` + ix); err != nil {
			return err
		}
	}
	// The write lock is held now: rows another process wrote since the
	// caller looked are there to see.
	var filled bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM files)`).Scan(&filled); err != nil {
		return err
	}
	if filled {
		return errFilled
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan string)
	parsed := make(chan *entry, 4*rebuildBatch)
	counts := make(chan map[string]int64, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker counts the terms of what it read; the counts are
			// added up once at the end.
			var c termCounter
			defer func() { counts <- c.df() }()
			var buf []byte // each file is read into the last one's bytes
			for name := range next {
				e := s.readEntry(name, &buf)
				if e == nil {
					continue
				}
				if e.row != nil {
					c.add(e)
				}
				select {
				case parsed <- e:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(next)
		for _, name := range names {
			select {
			case next <- name:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(parsed)
		close(counts)
	}()
	// Each record is inserted as the head of its question if it is
	// active; the questions with several records are settled at the end.
	var werr error
	for e := range parsed {
		if werr == nil {
			if werr = b.add(e); werr != nil {
				cancel() // stop the readers; drain what they already sent
			}
		}
	}
	df := map[string]int64{}
	for m := range counts {
		for t, n := range m {
			df[t] += n
		}
	}
	if werr == nil {
		werr = b.flush()
	}
	if werr != nil {
		return werr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The full-text tables read their text from the rows, in one
	// statement each.
	for _, q := range []string{`INSERT INTO search(search) VALUES ('rebuild')`, `INSERT INTO topics(topics) VALUES ('rebuild')`, indexes} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	if err := settleHeads(tx); err != nil {
		return err
	}
	if err := b.counts(df); err != nil {
		return err
	}
	if err := setDirState(tx, sig, scannedNs); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	b.done = true
	return nil
}

// termCounter counts the records that hold each term, as the df table
// does (distinctTerms), without a string per term and record: one map of
// search terms and one of topic words, keyed by the term alone, each
// entry remembering the last record that counted it.
type termCounter struct {
	search, topic map[string]*termCount
	docs, terms   int64
	active        int64
}

type termCount struct {
	n    int64
	last int64 // the record (c.docs) that counted it last
}

func (c *termCounter) add(e *entry) {
	if c.search == nil {
		c.search, c.topic = map[string]*termCount{}, map[string]*termCount{}
	}
	x := e.row
	c.docs++
	c.count(c.search, x.terms)
	// The topic words as tokens are the topics table's text after its
	// first token, the layer's.
	_, words, _ := strings.Cut(x.topic, " ")
	c.count(c.topic, words)
	c.terms += int64(x.nterms)
	if e.Record.Status == StatusActive {
		c.active++
	}
}

// count adds one to each distinct space-separated token of text in m.
func (c *termCounter) count(m map[string]*termCount, text string) {
	for text != "" {
		t, rest, _ := strings.Cut(text, " ")
		text = rest
		if t == "" {
			continue
		}
		switch tc := m[t]; {
		case tc == nil:
			m[strings.Clone(t)] = &termCount{n: 1, last: c.docs} // not a piece of the record's text, which is dropped
		case tc.last != c.docs:
			tc.n++
			tc.last = c.docs
		}
	}
}

// df is the counts as the df table keys them.
func (c *termCounter) df() map[string]int64 {
	df := make(map[string]int64, len(c.search)+len(c.topic)+3)
	for t, tc := range c.search {
		df["s:"+t] = tc.n
	}
	for t, tc := range c.topic {
		df["t:"+t] = tc.n
	}
	df["#docs"], df["#terms"], df["#active"] = c.docs, c.terms, c.active
	return df
}

// settleHeads sets the heads (and repairs) of the questions with several
// records, which a rebuild inserted each as its own head if active: it
// reads their chains in one pass, in the order of the question, and
// clears the head of every active record that is not its question's.
func settleHeads(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT id, qkey, rec FROM files WHERE qkey IN
		(SELECT qkey FROM files WHERE qkey IS NOT NULL GROUP BY qkey HAVING count(*) > 1) ORDER BY qkey, name`)
	if err != nil {
		return err
	}
	defer rows.Close()
	clearHead, err := tx.Prepare(`UPDATE files SET head = 0 WHERE id = ?`)
	if err != nil {
		return err
	}
	defer clearHead.Close()
	repair, err := tx.Prepare(`INSERT OR IGNORE INTO repairs(qkey) VALUES (?)`)
	if err != nil {
		return err
	}
	defer repair.Close()
	var (
		key   string
		chain []*Record
		ids   = map[*Record]int64{}
		// The updates wait until the chains are read: the query's
		// cursor is still open.
		cleared []int64
		repairs []string
	)
	settle := func() {
		if len(chain) == 0 {
			return
		}
		h := headOf(chain)
		for _, r := range chain {
			if r != h && r.Status == StatusActive {
				cleared = append(cleared, ids[r])
			}
		}
		if len(unrepaired(chain)) > 0 {
			repairs = append(repairs, key)
		}
		chain = chain[:0]
		clear(ids)
	}
	for rows.Next() {
		var id int64
		var k string
		var b []byte
		if err := rows.Scan(&id, &k, &b); err != nil {
			return err
		}
		if k != key {
			settle()
			key = k
		}
		r := new(Record)
		if err := json.Unmarshal(b, r); err != nil {
			return err
		}
		chain = append(chain, r)
		ids[r] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	settle()
	rows.Close()
	for _, id := range cleared {
		if _, err := clearHead.Exec(id); err != nil {
			return err
		}
	}
	for _, k := range repairs {
		if _, err := repair.Exec(k); err != nil {
			return err
		}
	}
	return nil
}

// bulk is a rebuild's inserts into empty tables: rows are gathered and
// written a batch per statement.
type bulk struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt // by text
	files []any                // the batch's files rows, flattened
	n     int                  // rows in the batch
	done  bool
}

const filesColumns = `name, size, mtime_ns, read_ns, skip, rec, layer, qkey, debate_id, status, verdict, created, date, topic, topic_words, spec_key, terms, head, text, topic_tokens`

// add queues one file's rows, writing the batch when it is full.
func (b *bulk) add(e *entry) error {
	var skip, rec, layer, key, debateID, status, verdict, created, date, topic, words, spec, text, topicTokens any
	var nterms int
	head := false
	if e.Skip != "" {
		skip = e.Skip
	}
	if r := e.Record; r != nil {
		x := e.row
		rec, layer, key, debateID, status, verdict, created, date, topic, words = x.rec, string(r.Layer), r.key(), r.DebateID, string(r.Status), string(r.Verdict), r.Created, r.Date, r.Topic, x.words
		spec, nterms, head = x.spec, x.nterms, r.Status == StatusActive
		text, topicTokens = x.terms, x.topic
	}
	b.files = append(b.files, e.Name, e.Size, e.ModNs, e.ReadNs, skip, rec, layer, key, debateID, status, verdict, created, date, topic, words, spec, nterms, head, text, topicTokens)
	if b.n++; b.n == rebuildBatch {
		return b.flush()
	}
	return nil
}

// flush writes the queued rows.
func (b *bulk) flush() error {
	if err := b.insert(`files(`+filesColumns+`)`, 20, b.files); err != nil {
		return err
	}
	clear(b.files)
	b.files, b.n = b.files[:0], 0
	return nil
}

// insert writes rows of width values each, flattened in args, with one
// statement (prepared once per number of rows).
func (b *bulk) insert(into string, width int, args []any) error {
	if len(args) == 0 {
		return nil
	}
	rows := len(args) / width
	row := "(?" + strings.Repeat(", ?", width-1) + ")"
	q := `INSERT INTO ` + into + ` VALUES ` + row + strings.Repeat(", "+row, rows-1)
	st := b.stmts[q]
	if st == nil {
		var err error
		if st, err = b.tx.Prepare(q); err != nil {
			return err
		}
		b.stmts[q] = st
	}
	_, err := st.Exec(args...)
	return err
}

// counts writes the document frequencies, in the order of the df table's
// key.
func (b *bulk) counts(df map[string]int64) error {
	terms := make([]string, 0, len(df))
	for t, n := range df {
		if n > 0 {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	args := make([]any, 0, 2*rebuildBatch)
	for i, t := range terms {
		args = append(args, t, df[t])
		if len(args) == 2*rebuildBatch || i == len(terms)-1 {
			if err := b.insert(`df(term, n)`, 2, args); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	return nil
}

// close releases the statements and rolls back an uncommitted rebuild.
func (b *bulk) close() {
	for _, st := range b.stmts {
		st.Close()
	}
	if !b.done {
		_ = b.tx.Rollback()
	}
}
