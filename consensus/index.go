package consensus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/filesig"
	"github.com/parleyhq/parley/vault"
)

// The lookup index under the parley root: an SQLite database (pure Go,
// modernc.org/sqlite) with a row per file of the records folder, an FTS5
// table of the records' search text (related records, search) and one of
// their topics' canonical words (matching a question). A check reads a
// few rows and no record file; a new process opens the database and
// answers without loading the index into memory.
const (
	// CacheFile is the index's path relative to the root.
	CacheFile = "cache/consensus-index.db"
	// schemaVersion names the layout of the database and of what it
	// stores; another version is rebuilt from the vault.
	schemaVersion = "12/" + lexiconVersion
)

// RacyMargin is how close a file's modification time may be to the moment
// it was read before its size and time stop proving it unchanged (see
// filesig.Margin, which judges it). Such files (and the folder) are
// checked again until they are older than the margin.
const RacyMargin = filesig.CoarseMargin

// marginOf is the racy margin of a file system, told by one of its
// modification times (filesig.Margin).
func marginOf(modNs int64) int64 { return int64(filesig.Margin(modNs)) }

// entry is one Markdown file of the records folder as read.
type entry struct {
	Name   string
	Size   int64
	ModNs  int64
	ReadNs int64 // when the file was read; see RacyMargin
	Record *Record
	Text   string // what search indexes (records only)
	Skip   string // why a file that should be a record is not one
	row    *row   // what the index stores of a record (prepare)
}

// row is what the index stores of a record, computed by the workers that
// read the files so that the one writing to the database only writes.
type row struct {
	rec    string // the record as JSON
	words  string // the topic's canonical words
	spec   string // its specific words, sorted (specKey)
	terms  string // the search terms, as FTS5 tokens
	nterms int
	topic  string // the topics table's text
}

// prepare computes e.row for a record.
func (e *entry) prepare() error {
	r := e.Record
	if r == nil || e.row != nil {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	ws := placeWords(analyze(r.Topic))
	x := &row{rec: string(b), words: strings.Join(ws, " "), spec: specKey(ws)}
	x.terms, x.nterms = searchTerms(e.Text)
	x.topic = topicTokens(r.Layer, x.words)
	e.row = x
	return nil
}

// distinctTerms are the distinct search terms ("s:") and topic words
// ("t:") of a record, as the df table counts them, in sorted order.
func distinctTerms(terms, words string) []string {
	var out []string
	add := func(prefix, text string) {
		f := strings.Fields(text)
		slices.Sort(f)
		for _, t := range slices.Compact(f) {
			out = append(out, prefix+t)
		}
	}
	add("s:", terms)
	add("t:", words)
	return out
}

// dirSig identifies a state of the records folder: any file created,
// renamed or removed in it changes its modification time.
type dirSig struct {
	ModNs int64  `json:"mtime_ns"`
	Size  int64  `json:"size"`
	Ino   uint64 `json:"ino"`
}

func sigOf(info fs.FileInfo) dirSig {
	sig := dirSig{ModNs: info.ModTime().UnixNano(), Size: info.Size()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		sig.Ino = uint64(st.Ino)
	}
	return sig
}

// Skipped is a file of the records folder that lookup skips, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// index is the Store's handle on the database, with the folder state it
// last saw. The Store's mutex guards it.
type index struct {
	db        *sql.DB
	dir       dirSig
	scannedNs int64 // when the folder was last listed
	// stmts are the statements prepared once per Store: lookups' (query)
	// and txWriter's (a filing's transaction uses them through tx.Stmt).
	stmts map[string]*sql.Stmt
	// listings counts the folder listings (scans), for tests.
	listings int
	// dfMemo holds the document frequencies read during one lookup (see
	// df); every lookup and every write starts it afresh.
	dfMemo map[string]int64
	// chainMemo holds the questions' records read during one lookup, in
	// the same way.
	chainMemo map[string][]*Record
}

func (ix *index) dirRacy() bool { return ix.scannedNs-ix.dir.ModNs < marginOf(ix.dir.ModNs) }

// The connection's memory map and page cache (KiB when negative).
const (
	mmapSize  = "1073741824"
	cacheSize = "-8192"
)

// The full-text tables hold FTS5 tokens made by ftsToken (ASCII letters,
// digits and '_'), so the ascii tokenizer reads them as written. Their
// text is the files table's (external content, through the records view):
// kept once, and a rebuild fills them in one 'rebuild' command each after
// the rows are in, rather than a statement at a time (FTS5 writes out
// what it gathered at every statement of a transaction). Lookups match
// single tokens, never phrases: the topics table keeps no positions
// (detail=none: smaller, faster to build); the search table keeps them,
// as BM25 on a table without them tokenizes each matching row again.
const schema = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, read_ns INTEGER NOT NULL,
	skip TEXT,
	layer TEXT, qkey TEXT, debate_id TEXT, status TEXT, verdict TEXT, created TEXT, date TEXT,
	topic TEXT, topic_words TEXT, spec_key TEXT,
	terms INTEGER NOT NULL DEFAULT 0,
	head INTEGER NOT NULL DEFAULT 0,
	rec TEXT, -- after the columns lookups read, which are read without its overflow pages
	text TEXT, -- the search terms, as FTS5 tokens (the search table's content)
	topic_tokens TEXT -- the layer and topic words, as FTS5 tokens (the topics table's)
);
CREATE VIEW IF NOT EXISTS records AS SELECT id, text, topic_tokens FROM files WHERE rec IS NOT NULL;
CREATE TABLE IF NOT EXISTS repairs(qkey TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(text, content = 'records', content_rowid = 'id', tokenize = "ascii tokenchars '_'");
CREATE VIRTUAL TABLE IF NOT EXISTS topics USING fts5(topic_tokens, content = 'records', content_rowid = 'id', tokenize = "ascii tokenchars '_'", detail = none);
CREATE TABLE IF NOT EXISTS emb(k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS df(term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
` + indexes

// indexes are the files table's indexes (indexNames); a rebuild drops
// them and creates them again after its inserts (a sort each, faster than
// maintaining them row by row).
const indexes = `
CREATE UNIQUE INDEX IF NOT EXISTS files_name ON files(name);
CREATE INDEX IF NOT EXISTS files_qkey ON files(qkey);
CREATE INDEX IF NOT EXISTS files_debate ON files(debate_id);
CREATE INDEX IF NOT EXISTS files_created ON files(created DESC, name);
CREATE INDEX IF NOT EXISTS files_head ON files(head, layer);
CREATE INDEX IF NOT EXISTS files_skip ON files(name) WHERE skip IS NOT NULL;
CREATE INDEX IF NOT EXISTS files_spec ON files(layer, spec_key) WHERE head = 1;
`

var indexNames = []string{"files_name", "files_qkey", "files_debate", "files_created", "files_head", "files_skip", "files_spec"}

// openIndex opens the database, building it from the vault first when it
// is missing or unusable (corrupt, of another version or vault): see
// build. Callers hold s.mu.
func (s *Store) openIndex(ctx context.Context) error {
	if s.idx != nil {
		return nil
	}
	ix, err := s.tryOpen()
	if err != nil {
		ix, err = s.build(ctx)
		// Removed between its build and its opening (by hand, by a
		// cleaner): build it again, a few times at most.
		for try := 1; errors.Is(err, errNoIndex) && try < maxIndexTries; try++ {
			ix, err = s.build(ctx)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &RecordError{Op: "index", Path: CacheFile, Err: err}
		}
	}
	s.idx = ix
	return nil
}

// maxIndexTries bounds how often a lookup opens or builds an index that
// keeps going from under it.
const maxIndexTries = 4

// errNoIndex says that there is no index file yet.
var errNoIndex = errors.New("no lookup index yet")

// indexDSN is how the index is opened for lookups and filings: read and
// written in place (never created: build does that), through a memory
// map (no read system call per page; only the pages a lookup touches
// become resident) with a page cache of at most 8 MB, so that a check
// stays small whatever the vault's size. Every transaction writes, and
// takes the write lock when it begins (waiting for it as long as the
// busy timeout allows): one that took it only at its first write, after
// reading, would fail at once if another process had written meanwhile.
func indexDSN(path string) string {
	return "file:" + path + "?mode=rw&_txlock=immediate&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)" +
		"&_pragma=mmap_size(" + mmapSize + ")&_pragma=cache_size(" + cacheSize + ")"
}

// tryOpen opens the index file if it is there and is an index of this
// version for this vault; errNoIndex when there is none.
func (s *Store) tryOpen() (*index, error) {
	if err := s.root.MkdirAll("cache", vault.DirPerm); err != nil {
		return nil, err
	}
	// Only a regular file is opened: a link planted in its place must not
	// make the index write elsewhere.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		st, err := s.root.Lstat(CacheFile + suffix)
		switch {
		case suffix == "" && errors.Is(err, fs.ErrNotExist):
			return nil, errNoIndex
		case err == nil && !st.Mode().IsRegular():
			return nil, fmt.Errorf("%s%s is not a regular file", CacheFile, suffix)
		}
	}
	db, err := sql.Open("sqlite", indexDSN(filepath.Join(s.rootDir, filepath.FromSlash(CacheFile))))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	ix := &index{db: db}
	var version, vaultPath, dir, scanned sql.NullString
	err = db.QueryRow(`SELECT (SELECT v FROM meta WHERE k='version'), (SELECT v FROM meta WHERE k='vault'),
		(SELECT v FROM meta WHERE k='dir'), (SELECT v FROM meta WHERE k='scanned_ns')`).Scan(&version, &vaultPath, &dir, &scanned)
	switch {
	case err != nil:
		db.Close()
		return nil, err
	case version.String != schemaVersion || vaultPath.String != s.v.Path():
		db.Close()
		return nil, fmt.Errorf("index of version %q for vault %q", version.String, vaultPath.String)
	}
	_ = json.Unmarshal([]byte(dir.String), &ix.dir)
	ix.scannedNs, _ = strconv.ParseInt(scanned.String, 10, 64)
	return ix, nil
}

// closeIndex closes the database, if open.
func (s *Store) closeIndex() error {
	if s.idx == nil {
		return nil
	}
	for _, st := range s.idx.stmts {
		st.Close()
	}
	err := s.idx.db.Close()
	s.idx = nil
	return err
}

// ensure brings the index up to date for a query, cheaply when nothing
// changed: it stats the folder alone. When the folder changed (a file
// created, renamed or removed) it lists the folder and checks every
// file's size and time; when it looks unchanged but was written within
// the racy margin of the last look, a change since could hide behind the
// same time, and it compares the folder's names with the index's (a
// create, rename or removal by someone else shows there). Records edited
// in place do not change the folder: lookups re-check the records they
// answer from (touch). Callers hold s.mu.
func (s *Store) ensure(ctx context.Context) error {
	if err := s.openIndex(ctx); err != nil {
		return err
	}
	s.idx.dfMemo, s.idx.chainMemo = nil, nil
	info, err := s.dir.Stat()
	if err != nil {
		return &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	switch {
	case sigOf(info) != s.idx.dir:
		return s.scan(ctx, true)
	case s.idx.dirRacy():
		return s.scan(ctx, false)
	}
	return nil
}

// refresh is a full check of every file's size and time, whatever the
// folder's state. Callers hold s.mu.
func (s *Store) refresh(ctx context.Context) error {
	if err := s.openIndex(ctx); err != nil {
		return err
	}
	return s.scan(ctx, true)
}

// scan lists the folder and reads the files the index does not know and,
// with stat, those whose size or time changed or that are racy, in
// parallel, and writes what changed to the index in one transaction.
// Callers hold s.mu.
func (s *Store) scan(ctx context.Context, stat bool) error {
	sig, start, names, folders, err := s.list()
	if err != nil {
		return err
	}
	if err := s.noteFolders(ctx, folders); err != nil {
		return err
	}
	s.idx.listings++
	type known struct{ size, mod, read int64 }
	old := map[string]known{}
	rows, err := s.idx.db.QueryContext(ctx, `SELECT name, size, mtime_ns, read_ns FROM files`)
	if err != nil {
		return s.indexErr(err)
	}
	for rows.Next() {
		var n string
		var k known
		if err := rows.Scan(&n, &k.size, &k.mod, &k.read); err != nil {
			rows.Close()
			return s.indexErr(err)
		}
		old[n] = k
	}
	rows.Close()
	present := make(map[string]bool, len(names))
	var toRead []string
	for _, name := range names {
		present[name] = true
		k, ok := old[name]
		if !ok {
			toRead = append(toRead, name)
			continue
		}
		if !stat {
			continue
		}
		st, err := s.dir.Lstat(name)
		if err != nil {
			continue // gone since the listing
		}
		if k.size == st.Size && k.mod == st.ModTime.UnixNano() && k.read-k.mod >= marginOf(k.mod) {
			continue
		}
		toRead = append(toRead, name)
	}
	if len(old) == 0 {
		err := s.fillInPlace(ctx, toRead, sig, start)
		if !errors.Is(err, errFilled) {
			return err
		}
		// Another process filled the index meanwhile: read what it wrote.
		return s.scan(ctx, stat)
	}
	var gone []string
	for name := range old {
		if !present[name] {
			gone = append(gone, name)
		}
	}
	got := s.readAll(ctx, toRead)
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, name := range toRead {
		if got[name] == nil {
			gone = append(gone, name)
		}
	}
	return s.write(ctx, got, gone, &sig, start)
}

// list lists the records folder: its state, when it was listed, the
// names of its Markdown files but the index page, and the folders in it.
func (s *Store) list() (sig dirSig, start int64, names, folders []string, err error) {
	info, err := s.dir.Stat()
	if err != nil {
		return dirSig{}, 0, nil, nil, &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	start = time.Now().UnixNano()
	names, folders, err = s.dir.List()
	if err != nil {
		return dirSig{}, 0, nil, nil, err
	}
	return sigOf(info), start, slices.DeleteFunc(names, func(n string) bool { return n == IndexName }), folders, nil
}

// noteFolders records in the index the folders that the records folder
// holds (a listing found them), so that a filing knows them without
// listing the folder again: creating or removing one changes the records
// folder, which the next lookup lists. Callers hold s.mu.
func (s *Store) noteFolders(ctx context.Context, folders []string) error {
	slices.Sort(folders)
	v := strings.Join(folders, "\n")
	var old string
	err := s.idx.db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'folders'`).Scan(&old)
	if err == nil && old == v {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s.indexErr(err)
	}
	if _, err := s.idx.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta(k, v) VALUES ('folders', ?)`, v); err != nil {
		return s.indexErr(err)
	}
	return nil
}

// folders are the folders in the records folder as the index last saw
// them; an index that never noted them (built before it did so) lists
// the folder once. Callers hold s.mu.
func (s *Store) folders(ctx context.Context) ([]string, error) {
	var v string
	err := s.idx.db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'folders'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, folders, err := s.dir.List()
		if err != nil {
			return nil, err
		}
		return folders, s.noteFolders(ctx, folders)
	case err != nil:
		return nil, s.indexErr(err)
	case v == "":
		return nil, nil
	}
	return strings.Split(v, "\n"), nil
}

// query runs a read through a statement prepared once per Store (SQLite
// parses a statement's text in about as long as a small lookup takes).
// Callers hold s.mu.
func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (s *Store) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	if st := s.idx.stmts[q]; st != nil {
		return st, nil
	}
	st, err := s.idx.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if s.idx.stmts == nil {
		s.idx.stmts = map[string]*sql.Stmt{}
	}
	s.idx.stmts[q] = st
	return st, nil
}

// indexErr wraps a database failure.
func (s *Store) indexErr(err error) error {
	return &RecordError{Op: "index", Path: CacheFile, Err: err}
}

// retryLost runs a lookup and, while its index fails under it (lostIndex),
// runs it again on the index opened again or rebuilt, a few times at most.
func retryLost[T any](ctx context.Context, s *Store, lookup func() (T, error)) (T, error) {
	v, err := lookup()
	for try := 1; try < maxIndexTries && s.lostIndex(ctx, err); try++ {
		v, err = lookup()
	}
	return v, err
}

// lostIndex says whether err is the index failing under a lookup (the
// cache file removed or replaced by hand while it was open), and if so
// closes it, so that the lookup asked once more opens the index again or
// builds it from the vault, which is the truth.
func (s *Store) lostIndex(ctx context.Context, err error) bool {
	var re *RecordError
	if err == nil || ctx.Err() != nil || !errors.As(err, &re) || re.Op != "index" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Warn("consensus: the lookup index failed under a lookup; opening it again", "err", err)
	_ = s.closeIndex()
	return true
}

// write stores what was read and drops what is gone, in one transaction,
// recomputing the heads of the questions touched; with sig it also
// records the folder's state. Callers hold s.mu.
func (s *Store) write(ctx context.Context, got map[string]*entry, gone []string, sig *dirSig, scannedNs int64) error {
	s.idx.dfMemo, s.idx.chainMemo = nil, nil // whatever the outcome
	if len(got) == 0 && len(gone) == 0 && sig == nil {
		return nil
	}
	w, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer w.close()
	for _, name := range gone {
		if err := w.del(name); err != nil {
			return s.indexErr(err)
		}
	}
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := w.del(name); err != nil {
			return s.indexErr(err)
		}
		if err := w.insert(got[name]); err != nil {
			return s.indexErr(err)
		}
	}
	for key := range w.keys {
		if err := recomputeHead(w.tx, key); err != nil {
			return s.indexErr(err)
		}
	}
	return w.commit(sig, scannedNs)
}

// txWriter is one transaction that changes rows, with its prepared
// statements and the document-frequency deltas to apply at commit.
type txWriter struct {
	s                                 *Store
	tx                                *sql.Tx
	sel, delFile, delSearch, delTopic *sql.Stmt
	insFile, insSearch, insTopic      *sql.Stmt
	// delta counts the document-frequency changes ("s:" search terms,
	// "t:" topic words, "#docs" and "#terms" the totals), applied once at
	// commit: a rebuild of many records costs one update per distinct
	// term.
	delta map[string]int64
	keys  map[string]bool // questions whose heads need recomputing
	done  bool
}

func (s *Store) begin(ctx context.Context) (*txWriter, error) {
	queries := []string{
		`SELECT id, qkey, topic_words, terms, status = 'active', text, topic_tokens FROM files WHERE name = ?`,
		`DELETE FROM files WHERE id = ?`,
		`INSERT INTO search(search, rowid, text) VALUES ('delete', ?, ?)`,
		`INSERT INTO topics(topics, rowid, topic_tokens) VALUES ('delete', ?, ?)`,
		`INSERT INTO files(name, size, mtime_ns, read_ns, skip, rec, layer, qkey, debate_id, status, verdict, created, date, topic, topic_words, spec_key, terms, head, text, topic_tokens)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
		`INSERT INTO search(rowid, text) VALUES (?, ?)`,
		`INSERT INTO topics(rowid, topic_tokens) VALUES (?, ?)`,
	}
	// Prepared on the database before the transaction takes its one
	// connection.
	if s.idx.stmts == nil {
		s.idx.stmts = map[string]*sql.Stmt{}
	}
	for _, q := range queries {
		if s.idx.stmts[q] == nil {
			st, err := s.idx.db.PrepareContext(ctx, q)
			if err != nil {
				return nil, s.indexErr(err)
			}
			s.idx.stmts[q] = st
		}
	}
	tx, err := s.idx.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.indexErr(err)
	}
	w := &txWriter{s: s, tx: tx, delta: map[string]int64{}, keys: map[string]bool{}}
	for i, st := range []**sql.Stmt{&w.sel, &w.delFile, &w.delSearch, &w.delTopic, &w.insFile, &w.insSearch, &w.insTopic} {
		*st = tx.Stmt(s.idx.stmts[queries[i]])
	}
	return w, nil
}

// close rolls back an uncommitted transaction and releases the
// statements.
func (w *txWriter) close() {
	for _, st := range []*sql.Stmt{w.sel, w.delFile, w.delSearch, w.delTopic, w.insFile, w.insSearch, w.insTopic} {
		if st != nil {
			st.Close()
		}
	}
	if !w.done {
		_ = w.tx.Rollback()
	}
}

func (w *txWriter) count(sign int64, distinct []string, n int64) {
	for _, t := range distinct {
		w.delta[t] += sign
	}
	w.delta["#docs"] += sign
	w.delta["#terms"] += sign * n
}

// del drops the row of a file, if any.
func (w *txWriter) del(name string) error {
	var id, n int64
	var key, words, text, topic sql.NullString
	var active sql.NullBool
	err := w.sel.QueryRow(name).Scan(&id, &key, &words, &n, &active, &text, &topic)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if key.Valid {
		// The full-text tables drop a row given the text they indexed.
		w.keys[key.String] = true
		w.count(-1, distinctTerms(text.String, topicTokensOnly(words.String)), n)
		if active.Bool {
			w.delta["#active"]--
		}
		if _, err := w.delSearch.Exec(id, text); err != nil {
			return err
		}
		if _, err := w.delTopic.Exec(id, topic); err != nil {
			return err
		}
	}
	_, err = w.delFile.Exec(id)
	return err
}

// insert adds the row of a file (which must have none).
func (w *txWriter) insert(e *entry) error {
	var skip, rec, layer, key, debateID, status, verdict, created, date, topic, words, spec, text, topicTokens any
	var nterms int
	if e.Skip != "" {
		skip = e.Skip
	}
	if err := e.prepare(); err != nil {
		return err
	}
	if r := e.Record; r != nil {
		rec, layer, key, debateID, status, verdict, created, date, topic, words = e.row.rec, string(r.Layer), r.key(), r.DebateID, string(r.Status), string(r.Verdict), r.Created, r.Date, r.Topic, e.row.words
		spec, text, topicTokens = e.row.spec, e.row.terms, e.row.topic
		w.keys[r.key()] = true
		nterms = e.row.nterms
	}
	res, err := w.insFile.Exec(e.Name, e.Size, e.ModNs, e.ReadNs, skip, rec, layer, key, debateID, status, verdict, created, date, topic, words, spec, nterms, text, topicTokens)
	if err != nil || e.Record == nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := w.insSearch.Exec(id, e.row.terms); err != nil {
		return err
	}
	if _, err := w.insTopic.Exec(id, e.row.topic); err != nil {
		return err
	}
	w.count(1, distinctTerms(e.row.terms, topicTokensOnly(e.row.words)), int64(nterms))
	if e.Record.Status == StatusActive {
		w.delta["#active"]++
	}
	return nil
}

// commit applies the frequency deltas, records the folder's state (with
// sig) and commits.
func (w *txWriter) commit(sig *dirSig, scannedNs int64) error {
	s := w.s
	if len(w.delta) > 0 {
		upd, err := w.tx.Prepare(`INSERT INTO df(term, n) VALUES (?, ?) ON CONFLICT(term) DO UPDATE SET n = n + excluded.n`)
		if err != nil {
			return s.indexErr(err)
		}
		defer upd.Close()
		drop, err := w.tx.Prepare(`DELETE FROM df WHERE term = ? AND n <= 0`)
		if err != nil {
			return s.indexErr(err)
		}
		defer drop.Close()
		for t, d := range w.delta {
			if d == 0 {
				continue
			}
			if _, err := upd.Exec(t, d); err != nil {
				return s.indexErr(err)
			}
			if d < 0 {
				if _, err := drop.Exec(t); err != nil {
					return s.indexErr(err)
				}
			}
		}
	}
	if sig != nil {
		if err := setDirState(w.tx, *sig, scannedNs); err != nil {
			return s.indexErr(err)
		}
	}
	if err := w.tx.Commit(); err != nil {
		return s.indexErr(err)
	}
	w.done = true
	s.idx.dfMemo, s.idx.chainMemo = nil, nil
	if sig != nil {
		s.idx.dir, s.idx.scannedNs = *sig, scannedNs
	}
	return nil
}

// setDirState records the folder's state and when it was listed.
func setDirState(tx *sql.Tx, sig dirSig, scannedNs int64) error {
	b, _ := json.Marshal(sig)
	_, err := tx.Exec(`INSERT OR REPLACE INTO meta(k, v) VALUES ('dir', ?), ('scanned_ns', ?)`, string(b), strconv.FormatInt(scannedNs, 10))
	return err
}

// recomputeHead marks the record that answers question key (its head, if
// active) with head = 1 and the others 0, and notes the question in
// repairs when a record of it is superseded but not marked so (see
// unrepaired).
func recomputeHead(tx *sql.Tx, key string) error {
	chain, err := chainOf(tx, key)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE files SET head = 0 WHERE qkey = ? AND head != 0`, key); err != nil {
		return err
	}
	if h := headOf(chain); h != nil && h.Status == StatusActive {
		if _, err = tx.Exec(`UPDATE files SET head = 1 WHERE name = ?`, h.Name+".md"); err != nil {
			return err
		}
	}
	if len(unrepaired(chain)) > 0 {
		_, err = tx.Exec(`INSERT OR IGNORE INTO repairs(qkey) VALUES (?)`, key)
	} else {
		_, err = tx.Exec(`DELETE FROM repairs WHERE qkey = ?`, key)
	}
	return err
}

// unrepaired maps each record of a chain that a later record supersedes
// but that is not marked superseded by it (a filing interrupted between
// writing the new record and flipping the old one) to that record.
func unrepaired(chain []*Record) map[*Record]*Record {
	by := map[string]*Record{}
	for _, r := range chain {
		if r.Supersedes == "" || r.Supersedes == r.Name {
			continue
		}
		if prev := by[r.Supersedes]; prev == nil || r.Created > prev.Created {
			by[r.Supersedes] = r
		}
	}
	var out map[*Record]*Record
	for _, r := range chain {
		newer := by[r.Name]
		if newer == nil || (r.Status == StatusSuperseded && r.SupersededBy == newer.Name) {
			continue
		}
		if out == nil {
			out = map[*Record]*Record{}
		}
		out[r] = newer
	}
	return out
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

const chainQuery = `SELECT rec FROM files WHERE qkey = ? ORDER BY name`

// chainOf reads the records of question key.
func chainOf(q querier, key string) ([]*Record, error) {
	rows, err := q.Query(chainQuery, key)
	if err != nil {
		return nil, err
	}
	return scanRecords(rows)
}

func scanRecords(rows *sql.Rows) ([]*Record, error) {
	defer rows.Close()
	var out []*Record
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		r := new(Record)
		if err := json.Unmarshal(b, r); err != nil {
			return nil, err
		}
		// A row edited by hand must not name a file outside the folder.
		if validFile(r.Name+".md") != nil || r.Path != Folder+"/"+r.Name+".md" {
			return nil, fmt.Errorf("index row for %q is inconsistent", r.Name)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// searchTerms is a record's search text as search indexes it: its terms
// (tokenize) as FTS5 tokens, and how many there are.
func searchTerms(text string) (string, int) {
	var b strings.Builder
	b.Grow(len(text)) // the terms are no longer than the text
	n := 0
	tokenize(text, func(t string) {
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ftsToken(t))
		n++
	})
	return b.String(), n
}

// specKey is the specific (not generic) canonical words of a topic as
// FTS5 tokens, distinct and sorted: two topics with the same key name the
// same things, in any order and form.
func specKey(words []string) string {
	lx := theLexicon()
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if t := ftsToken(w); !lx.generic[w] && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// topicTokensOnly is a topic's canonical words as FTS5 tokens, without
// the layer.
func topicTokensOnly(words string) string {
	f := strings.Fields(words)
	for i, w := range f {
		f[i] = ftsToken(w)
	}
	return strings.Join(f, " ")
}

// df is how many records hold a term ("s:" a search term, "t:" a topic
// word; "#docs" the records, "#terms" their search terms). Callers hold
// s.mu.
// A lookup asks for the same terms more than once (to pick the rarest,
// then to weigh them): what it read is kept until the next lookup or
// write.
func (s *Store) df(ctx context.Context, term string) int64 {
	if n, ok := s.idx.dfMemo[term]; ok {
		return n
	}
	s.prefetchDF(ctx, []string{term})
	return s.idx.dfMemo[term]
}

// prefetchDF reads the document frequencies of several terms in one
// query (0 for a term in no record).
func (s *Store) prefetchDF(ctx context.Context, terms []string) {
	if s.idx.dfMemo == nil {
		s.idx.dfMemo = map[string]int64{}
	}
	var args []any
	for _, t := range terms {
		if _, ok := s.idx.dfMemo[t]; !ok {
			s.idx.dfMemo[t] = 0
			args = append(args, t)
		}
	}
	if len(args) == 0 {
		return
	}
	rows, err := s.query(ctx, `SELECT term, n FROM df WHERE term IN (?`+strings.Repeat(", ?", len(args)-1)+`)`, args...)
	if err != nil {
		for _, t := range args {
			delete(s.idx.dfMemo, t.(string)) // asked again next time
		}
		return
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int64
		if rows.Scan(&t, &n) == nil {
			s.idx.dfMemo[t] = n
		}
	}
}

// rarest keeps the terms whose document frequency (df of prefix+term) is
// at most maxDF, rarest first, at most keep of them; when none is that
// rare, the rarest one (the caller decides what to do with it). Common terms cost a pass over most records and
// barely move a ranking. Callers hold s.mu.
func (s *Store) rarest(ctx context.Context, prefix string, terms []string, maxDF int64, keep int) []string {
	type tf struct {
		t string
		n int64
	}
	keys := make([]string, len(terms))
	for i, t := range terms {
		keys[i] = prefix + t
	}
	s.prefetchDF(ctx, keys)
	var all []tf
	for _, t := range terms {
		if n := s.df(ctx, prefix+t); n > 0 {
			all = append(all, tf{t, n})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].n < all[j].n })
	var out []string
	for _, x := range all {
		if len(out) < keep && (x.n <= maxDF || len(out) == 0) {
			out = append(out, x.t)
		}
	}
	return out
}

// topicTokens is what the topics table indexes for a record: its layer
// and its topic's canonical words, as FTS5 tokens.
func topicTokens(l debate.Layer, words string) string {
	var b strings.Builder
	b.WriteString(ftsToken("layer " + string(l)))
	for _, w := range strings.Fields(words) {
		b.WriteByte(' ')
		b.WriteString(ftsToken(w))
	}
	return b.String()
}

// ftsToken turns a canonical word into one FTS5 token (letters, digits and
// '_').
func ftsToken(w string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '_'
	}, w)
}

// touch re-checks the named files alone (the records an answer rests on),
// so that a record edited in place is seen even though the folder did not
// change. It reports whether anything changed. Callers hold s.mu.
func (s *Store) touch(ctx context.Context, names []string) bool {
	var toRead, gone []string
	rows := s.fileStates(ctx, names)
	for _, name := range names {
		f, known := rows[name]
		st, lerr := s.dir.Lstat(name)
		switch {
		case lerr != nil:
			if known {
				gone = append(gone, name)
			}
		case !known || f.size != st.Size || f.mod != st.ModTime.UnixNano() || f.read-f.mod < marginOf(f.mod):
			toRead = append(toRead, name)
		}
	}
	if len(toRead) == 0 && len(gone) == 0 {
		return false
	}
	got := s.readAll(ctx, toRead)
	for _, name := range toRead {
		if got[name] == nil && ctx.Err() == nil {
			gone = append(gone, name)
		}
	}
	if err := s.write(ctx, got, gone, nil, 0); err != nil {
		s.log.Warn("consensus: could not update the lookup index", "path", CacheFile, "err", err)
	}
	return true
}

// fileState is what the index knows of a file: its size, its time and
// when it was read (nanoseconds).
type fileState struct{ size, mod, read int64 }

// fileStates reads the states of the named files in one query (a file the
// index does not know is absent from the map, and so is every file when
// the query fails: then each is read again). Callers hold s.mu.
func (s *Store) fileStates(ctx context.Context, names []string) map[string]fileState {
	out := make(map[string]fileState, len(names))
	if len(names) == 0 {
		return out
	}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = n
	}
	rows, err := s.query(ctx, `SELECT name, size, mtime_ns, read_ns FROM files WHERE name IN (?`+strings.Repeat(", ?", len(names)-1)+`)`, args...)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		var f fileState
		if rows.Scan(&n, &f.size, &f.mod, &f.read) == nil {
			out[n] = f
		}
	}
	if rows.Err() != nil {
		return map[string]fileState{}
	}
	return out
}

// readAll reads and parses files in parallel; a file that vanished is left
// out of the result.
func (s *Store) readAll(ctx context.Context, names []string) map[string]*entry {
	out := make(map[string]*entry, len(names))
	if len(names) == 0 {
		return out
	}
	workers := min(runtime.GOMAXPROCS(0), len(names)/16+1)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next = make(chan string)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range next {
				e := s.readEntry(name, nil)
				mu.Lock()
				if e != nil {
					out[name] = e
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, name := range names {
		select {
		case next <- name:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return out
}

// readEntry reads one file; nil means it no longer exists. With buf, the
// file is read into *buf's storage, and *buf keeps what was used (no byte
// of the file is kept in the entry).
func (s *Store) readEntry(name string, buf *[]byte) *entry {
	s.reads.Add(1)
	now := time.Now().UnixNano()
	var into []byte
	if buf != nil {
		into = *buf
	}
	data, st, err := s.dir.ReadFileInto(name, into)
	if buf != nil && cap(data) > cap(into) {
		*buf = data[:0]
	}
	if vault.IsNotExist(err) {
		return nil
	}
	e := &entry{Name: name, ReadNs: now}
	if err != nil {
		if lst, lerr := s.dir.Lstat(name); lerr == nil {
			e.Size, e.ModNs = lst.Size, lst.ModTime.UnixNano()
		}
		e.Skip = err.Error()
		if errors.Is(err, vault.ErrNotPage) {
			e.Skip = err.Error() + " (only a regular file is read as a record)"
		}
		s.log.Warn("consensus: skipped record", "path", Folder+"/"+name, "err", e.Skip)
		return e
	}
	e.Size, e.ModNs = st.Size, st.ModTime.UnixNano()
	rec, text, err := parseRecord(name, data)
	switch {
	case err != nil:
		e.Skip = err.Error()
		s.log.Warn("consensus: skipped record", "path", Folder+"/"+name, "err", err)
	case rec != nil:
		e.Record, e.Text = rec, text
		if err := e.prepare(); err != nil {
			e.Record, e.Skip = nil, err.Error()
		}
	}
	return e
}

// byDebate is the record of a debate (the first by name if several).
// Callers hold s.mu.
func (s *Store) byDebate(id string) (*Record, error) {
	rows, err := s.query(context.Background(), `SELECT rec FROM files WHERE debate_id = ? AND qkey IS NOT NULL ORDER BY name LIMIT 1`, id)
	if err != nil {
		return nil, err
	}
	recs, err := scanRecords(rows)
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	return recs[0], nil
}

// chain is the records of question key. Callers hold s.mu.
func (s *Store) chain(key string) []*Record {
	if recs, ok := s.idx.chainMemo[key]; ok {
		return recs
	}
	var recs []*Record
	rows, err := s.query(context.Background(), chainQuery, key)
	if err == nil {
		recs, err = scanRecords(rows)
	}
	if err != nil {
		s.log.Warn("consensus: could not read the lookup index", "path", CacheFile, "err", err)
		return recs
	}
	if s.idx.chainMemo == nil {
		s.idx.chainMemo = map[string][]*Record{}
	}
	s.idx.chainMemo[key] = recs
	return recs
}

// skipped lists the files lookup skips. Callers hold s.mu.
func (s *Store) skippedFiles() []Skipped {
	rows, err := s.idx.db.Query(`SELECT name, skip FROM files WHERE skip IS NOT NULL ORDER BY name`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var out []Skipped
	for rows.Next() {
		var n, why string
		if rows.Scan(&n, &why) == nil {
			out = append(out, Skipped{Path: Folder + "/" + n, Reason: why})
		}
	}
	return out
}

// ErrNotEmpty is returned by Import when the records folder already
// holds records.
var ErrNotEmpty = errors.New("the records folder already holds records")

// Import files the outcomes of many debates into a records folder that
// holds no record yet (a new vault, an import of past debates): the same
// records FileAll would write, in order (a later debate on a question
// supersedes the earlier one), but each page is written once with its
// final status, by parallel workers, and the lookup index is built from
// the folder in one transaction at the end. It returns the records' vault
// paths in the order of outcomes.
func (s *Store) Import(ctx context.Context, outcomes []*debate.Outcome) ([]string, error) {
	seen := make(map[string]bool, len(outcomes))
	for _, o := range outcomes {
		if err := validateOutcome(o); err != nil {
			return nil, err
		}
		if seen[o.DebateID] {
			return nil, fmt.Errorf("%w: debate %s twice", ErrIncompleteOutcome, o.DebateID)
		}
		seen[o.DebateID] = true
	}
	done, err := s.beginWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if s.df(ctx, "#docs") > 0 {
		return nil, ErrNotEmpty
	}
	// The chains, in memory: each question's records in filing order.
	now := s.now()
	created := now.UTC().Format(timeFormat)
	places := make([]recordPlace, len(outcomes))
	heads := map[string]int{} // question → index of its latest outcome
	counts := map[string]int{}
	for i, o := range outcomes {
		l, slug := debate.Layer(string(o.Session.Layer)), TopicSlug(o.Session.Topic)
		key := string(l) + "/" + slug
		counts[key]++
		places[i] = recordPlace{name: recordName(l, slug, counts[key]), status: StatusActive, created: created}
		if h, ok := heads[key]; ok {
			places[i].supersedes = places[h].name
			places[h].status, places[h].supersededBy = StatusSuperseded, places[i].name
		}
		heads[key] = i
	}
	paths := make([]string, len(outcomes))
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		next  = make(chan int)
	)
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := Folder + "/" + places[i].name + ".md"
				fm, body := renderRecord(outcomes[i], places[i], now)
				if err := s.v.CreatePage(p, fm, body); err != nil {
					once.Do(func() { first = &RecordError{Op: "import", Path: p, Err: err} })
					continue
				}
				paths[i] = p
			}
		}()
	}
feed:
	for i := range outcomes {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	// Index what was written, even after an error: the pages are filed.
	if err := s.scan(ctx, true); err != nil {
		return nil, errors.Join(first, err)
	}
	if first != nil {
		return nil, first
	}
	if err := s.writeIndexPage(now); err != nil {
		return nil, err
	}
	s.noteOwnWrites(ctx)
	return paths, nil
}

// noteOwnWrites records the folder's state after a filing whose every
// change the index already holds, so that the next lookups need not list
// the folder again. Callers hold the filing lock and s.mu.
//
// On a file system with fine timestamps the state is recorded as settled
// (as if listed once the margin had passed) without waiting for the
// margin: a change by someone else after this moment changes the folder's
// signature, which every lookup compares (ensure), unless it falls in the
// very clock tick (a few milliseconds) of the filing's last write.
// Waiting out the margin and looking again, as this once did (20 ms a
// filing), caught nothing more: a change in a later tick shows in the
// signature either way, and one in the same tick shows in neither. Such
// a change (another program creating, renaming or removing a file in the
// folder within the same tick as a filing; parley's own filings take the
// lock) is seen at the folder's next change or the next full look
// (Refresh, "consensus list"). On a coarse one, where a tick may last a
// second, the state is recorded as just listed: the lookups within the
// margin compare the folder's names.
func (s *Store) noteOwnWrites(ctx context.Context) {
	info, err := s.dir.Stat()
	if err != nil {
		return
	}
	sig := sigOf(info)
	scanned := time.Now().UnixNano()
	if m := marginOf(sig.ModNs); m == int64(filesig.FineMargin) {
		scanned = max(scanned, sig.ModNs+m)
	}
	if err := s.write(ctx, nil, nil, &sig, scanned); err != nil {
		s.log.Warn("consensus: could not update the lookup index", "path", CacheFile, "err", err)
	}
}
