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
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go

	"github.com/parleyhq/parley/debate"
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
	schemaVersion = "6/" + lexiconVersion
)

// RacyMargin is how close a file's modification time may be to the moment
// it was read before its size and time stop proving it unchanged: a second
// write within the file system's timestamp granularity can leave both
// alike. Such files (and the folder) are checked again at every lookup
// until they are older than this; a vault written in the last RacyMargin
// therefore costs a folder scan (but no re-read of unchanged records) per
// lookup.
const RacyMargin = 2 * time.Second

// entry is one Markdown file of the records folder as read.
type entry struct {
	Name   string
	Size   int64
	ModNs  int64
	ReadNs int64 // when the file was read; see RacyMargin
	Record *Record
	Text   string // what search indexes (records only)
	Skip   string // why a file that should be a record is not one
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
	// stmts are the statements of txWriter, prepared once per Store (a
	// filing's transaction uses them through tx.Stmt).
	stmts map[string]*sql.Stmt
}

func (ix *index) dirRacy() bool { return ix.scannedNs-ix.dir.ModNs < int64(RacyMargin) }

const schema = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, read_ns INTEGER NOT NULL,
	skip TEXT,
	rec TEXT,
	layer TEXT, qkey TEXT, debate_id TEXT, status TEXT, verdict TEXT, created TEXT,
	topic TEXT, topic_words TEXT,
	terms INTEGER NOT NULL DEFAULT 0,
	head INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS files_qkey ON files(qkey);
CREATE INDEX IF NOT EXISTS files_debate ON files(debate_id);
CREATE INDEX IF NOT EXISTS files_created ON files(created);
CREATE INDEX IF NOT EXISTS files_head ON files(head, layer);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(text, tokenize = "unicode61 tokenchars '_'");
CREATE VIRTUAL TABLE IF NOT EXISTS topics USING fts5(words, tokenize = "unicode61 tokenchars '_'");
CREATE TABLE IF NOT EXISTS emb(k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS df(term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
`

// openIndex opens (creating or rebuilding when needed) the database.
// Callers hold s.mu.
func (s *Store) openIndex() error {
	if s.idx != nil {
		return nil
	}
	for attempt := 0; ; attempt++ {
		ix, err := s.tryOpen()
		if err == nil {
			s.idx = ix
			return nil
		}
		if attempt > 0 {
			return &RecordError{Op: "index", Path: CacheFile, Err: err}
		}
		// Corrupt, foreign, of another version or vault: start afresh.
		s.log.Warn("consensus: rebuilding the lookup index", "path", CacheFile, "err", err)
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			_ = s.root.Remove(CacheFile + suffix)
		}
	}
}

func (s *Store) tryOpen() (*index, error) {
	if err := s.root.MkdirAll("cache", vault.DirPerm); err != nil {
		return nil, err
	}
	// Only a regular file (or none) is opened: a link planted in its place
	// must not make the index write elsewhere.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if st, err := s.root.Lstat(CacheFile + suffix); err == nil && !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s%s is not a regular file", CacheFile, suffix)
		}
	}
	if _, err := s.root.Lstat(CacheFile); errors.Is(err, fs.ErrNotExist) {
		f, err := s.root.OpenFile(CacheFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, vault.FilePerm)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if f != nil {
			f.Close()
		}
	}
	path := filepath.Join(s.rootDir, filepath.FromSlash(CacheFile))
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	ix := &index{db: db}
	fail := func(err error) (*index, error) {
		db.Close()
		return nil, err
	}
	var version, vaultPath string
	err = db.QueryRow(`SELECT (SELECT v FROM meta WHERE k='version'), (SELECT v FROM meta WHERE k='vault')`).Scan(&version, &vaultPath)
	switch {
	case err == nil && (version != schemaVersion || vaultPath != s.v.Path()):
		return fail(fmt.Errorf("index of version %q for vault %q", version, vaultPath))
	case err != nil && !strings.Contains(err.Error(), "no such table") && !errors.Is(err, sql.ErrNoRows) && !strings.Contains(err.Error(), "converting NULL"):
		return fail(err)
	case err != nil:
		if _, err := db.Exec(schema); err != nil {
			return fail(err)
		}
		if _, err := db.Exec(`INSERT OR REPLACE INTO meta(k, v) VALUES ('version', ?), ('vault', ?)`, schemaVersion, s.v.Path()); err != nil {
			return fail(err)
		}
	}
	var dir string
	if err := db.QueryRow(`SELECT v FROM meta WHERE k='dir'`).Scan(&dir); err == nil {
		_ = json.Unmarshal([]byte(dir), &ix.dir)
	}
	var scanned string
	if err := db.QueryRow(`SELECT v FROM meta WHERE k='scanned_ns'`).Scan(&scanned); err == nil {
		ix.scannedNs, _ = strconv.ParseInt(scanned, 10, 64)
	}
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
// changed: it stats the folder alone and rescans only when the folder
// changed (a file created, renamed or removed) or was written within
// RacyMargin of the last scan. Callers hold s.mu.
func (s *Store) ensure(ctx context.Context) error {
	if err := s.openIndex(); err != nil {
		return err
	}
	info, err := s.dir.Stat()
	if err != nil {
		return &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	if sigOf(info) == s.idx.dir && !s.idx.dirRacy() {
		return nil
	}
	return s.scan(ctx, false)
}

// refresh is a full check of every file's size and time. Callers hold
// s.mu.
func (s *Store) refresh(ctx context.Context) error {
	if err := s.openIndex(); err != nil {
		return err
	}
	return s.scan(ctx, true)
}

// scan lists the folder, lstats every file and reads those whose size or
// time changed (or that are new, or racy), in parallel, and writes what
// changed to the index in one transaction. Callers hold s.mu.
func (s *Store) scan(ctx context.Context, full bool) error {
	info, err := s.dir.Stat()
	if err != nil {
		return &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	start := time.Now().UnixNano()
	names, err := s.dir.Names()
	if err != nil {
		return err
	}
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
		if name == IndexName {
			continue
		}
		present[name] = true
		k, ok := old[name]
		if !ok {
			toRead = append(toRead, name)
			continue
		}
		st, err := s.dir.Lstat(name)
		if err != nil {
			continue // gone since the listing
		}
		if k.size == st.Size && k.mod == st.ModTime.UnixNano() && k.read-k.mod >= int64(RacyMargin) {
			continue
		}
		toRead = append(toRead, name)
	}
	if len(old) == 0 {
		return s.rebuild(ctx, toRead, sigOf(info), start)
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
	sig := sigOf(info)
	_ = full
	return s.write(ctx, got, gone, &sig, start)
}

// indexErr wraps a database failure.
func (s *Store) indexErr(err error) error {
	return &RecordError{Op: "index", Path: CacheFile, Err: err}
}

// write stores what was read and drops what is gone, in one transaction,
// recomputing the heads of the questions touched; with sig it also
// records the folder's state. Callers hold s.mu.
func (s *Store) write(ctx context.Context, got map[string]*entry, gone []string, sig *dirSig, scannedNs int64) error {
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

// rebuild fills an empty index from the named files: workers read and
// parse them while this goroutine inserts them, in one transaction, so
// that a rebuild takes about as long as the slower of the two and holds
// neither the files nor their records in memory. Callers hold s.mu.
func (s *Store) rebuild(ctx context.Context, names []string, sig dirSig, scannedNs int64) error {
	w, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer w.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan string)
	parsed := make(chan *entry, 64)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range next {
				if e := s.readEntry(name); e != nil {
					select {
					case parsed <- e:
					case <-ctx.Done():
						return
					}
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
	}()
	var werr error
	for e := range parsed {
		if werr == nil {
			if werr = w.insert(e); werr != nil {
				cancel() // stop the readers; drain what they already sent
			}
		}
	}
	if werr != nil {
		return s.indexErr(werr)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Heads: a question with one record is answered by it if it is
	// active; the few with several go through headOf.
	if _, err := w.tx.Exec(`UPDATE files SET head = (status = 'active') WHERE rec IS NOT NULL AND qkey IN
		(SELECT qkey FROM files WHERE rec IS NOT NULL GROUP BY qkey HAVING count(*) = 1)`); err != nil {
		return s.indexErr(err)
	}
	rows, err := w.tx.Query(`SELECT qkey FROM files WHERE rec IS NOT NULL GROUP BY qkey HAVING count(*) > 1`)
	if err != nil {
		return s.indexErr(err)
	}
	var multi []string
	for rows.Next() {
		var k string
		if rows.Scan(&k) == nil {
			multi = append(multi, k)
		}
	}
	rows.Close()
	for _, key := range multi {
		if err := recomputeHead(w.tx, key); err != nil {
			return s.indexErr(err)
		}
	}
	return w.commit(&sig, scannedNs)
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
		`SELECT id, qkey, topic_words, terms FROM files WHERE name = ?`,
		`DELETE FROM files WHERE id = ?`,
		`DELETE FROM search WHERE rowid = ?`,
		`DELETE FROM topics WHERE rowid = ?`,
		`INSERT INTO files(name, size, mtime_ns, read_ns, skip, rec, layer, qkey, debate_id, status, verdict, created, topic, topic_words, terms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		`INSERT INTO search(rowid, text) VALUES (?, ?)`,
		`INSERT INTO topics(rowid, words) VALUES (?, ?)`,
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

func (w *txWriter) count(sign int64, terms, words string, n int64) {
	seen := map[string]bool{}
	for _, t := range strings.Fields(terms) {
		if !seen["s:"+t] {
			seen["s:"+t] = true
			w.delta["s:"+t] += sign
		}
	}
	for _, t := range strings.Fields(words) {
		if !seen["t:"+t] {
			seen["t:"+t] = true
			w.delta["t:"+t] += sign
		}
	}
	w.delta["#docs"] += sign
	w.delta["#terms"] += sign * n
}

// del drops the row of a file, if any.
func (w *txWriter) del(name string) error {
	var id, n int64
	var key, words sql.NullString
	err := w.sel.QueryRow(name).Scan(&id, &key, &words, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if key.Valid {
		w.keys[key.String] = true
		var text string
		if err := w.tx.QueryRow(`SELECT text FROM search WHERE rowid = ?`, id).Scan(&text); err == nil {
			w.count(-1, text, topicTokensOnly(words.String), n)
		}
	}
	for _, st := range []*sql.Stmt{w.delFile, w.delSearch, w.delTopic} {
		if _, err := st.Exec(id); err != nil {
			return err
		}
	}
	return nil
}

// insert adds the row of a file (which must have none).
func (w *txWriter) insert(e *entry) error {
	var skip, rec, layer, key, debateID, status, verdict, created, topic, words any
	var terms, tw string
	var nterms int
	if e.Skip != "" {
		skip = e.Skip
	}
	if r := e.Record; r != nil {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		tw = strings.Join(analyze(r.Topic).words(), " ")
		rec, layer, key, debateID, status, verdict, created, topic, words = string(b), string(r.Layer), r.key(), r.DebateID, string(r.Status), string(r.Verdict), r.Created, r.Topic, tw
		w.keys[r.key()] = true
		terms, nterms = searchTerms(e.Text)
	}
	res, err := w.insFile.Exec(e.Name, e.Size, e.ModNs, e.ReadNs, skip, rec, layer, key, debateID, status, verdict, created, topic, words, nterms)
	if err != nil || e.Record == nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := w.insSearch.Exec(id, terms); err != nil {
		return err
	}
	if _, err := w.insTopic.Exec(id, topicTokens(e.Record.Layer, tw)); err != nil {
		return err
	}
	w.count(1, terms, topicTokensOnly(tw), int64(nterms))
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
		b, _ := json.Marshal(sig)
		if _, err := w.tx.Exec(`INSERT OR REPLACE INTO meta(k, v) VALUES ('dir', ?), ('scanned_ns', ?)`, string(b), strconv.FormatInt(scannedNs, 10)); err != nil {
			return s.indexErr(err)
		}
	}
	if err := w.tx.Commit(); err != nil {
		return s.indexErr(err)
	}
	w.done = true
	if sig != nil {
		s.idx.dir, s.idx.scannedNs = *sig, scannedNs
	}
	return nil
}

// recomputeHead marks the record that answers question key (its head, if
// active) with head = 1 and the others 0.
func recomputeHead(tx *sql.Tx, key string) error {
	chain, err := chainOf(tx, key)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE files SET head = 0 WHERE qkey = ? AND head != 0`, key); err != nil {
		return err
	}
	if h := headOf(chain); h != nil && h.Status == StatusActive {
		_, err = tx.Exec(`UPDATE files SET head = 1 WHERE name = ?`, h.Name+".md")
	}
	return err
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

// chainOf reads the records of question key.
func chainOf(q querier, key string) ([]*Record, error) {
	rows, err := q.Query(`SELECT rec FROM files WHERE qkey = ? AND rec IS NOT NULL ORDER BY name`, key)
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
func (s *Store) df(ctx context.Context, term string) int64 {
	var n int64
	_ = s.idx.db.QueryRowContext(ctx, `SELECT n FROM df WHERE term = ?`, term).Scan(&n)
	return n
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
	for _, name := range names {
		var size, mod, read int64
		err := s.idx.db.QueryRowContext(ctx, `SELECT size, mtime_ns, read_ns FROM files WHERE name = ?`, name).Scan(&size, &mod, &read)
		known := err == nil
		st, lerr := s.dir.Lstat(name)
		switch {
		case lerr != nil:
			if known {
				gone = append(gone, name)
			}
		case !known || size != st.Size || mod != st.ModTime.UnixNano() || read-mod < int64(RacyMargin):
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
				e := s.readEntry(name)
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

// readEntry reads one file; nil means it no longer exists.
func (s *Store) readEntry(name string) *entry {
	s.reads.Add(1)
	now := time.Now().UnixNano()
	data, st, err := s.dir.ReadFile(name)
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
			e.Skip = "not a regular file (a symbolic link is never read as a record)"
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
	}
	return e
}

// byDebate is the record of a debate (the first by name if several).
// Callers hold s.mu.
func (s *Store) byDebate(id string) (*Record, error) {
	rows, err := s.idx.db.Query(`SELECT rec FROM files WHERE debate_id = ? AND rec IS NOT NULL ORDER BY name LIMIT 1`, id)
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
	recs, err := chainOf(s.idx.db, key)
	if err != nil {
		s.log.Warn("consensus: could not read the lookup index", "path", CacheFile, "err", err)
	}
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
