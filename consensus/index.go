package consensus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/vault"
)

// The lookup cache under the parley root.
const (
	// CacheFile is the cache's path relative to the root.
	CacheFile = "cache/consensus-index.json"
	// maxCacheBytes bounds the cache file on read.
	maxCacheBytes = 512 << 20
	cacheVersion  = 2
)

// RacyMargin is how close a file's modification time may be to the moment
// it was read before its size and time stop proving it unchanged: a second
// write within the file system's timestamp granularity can leave both
// alike. Such files (and the folder) are checked again at every lookup
// until they are older than this; a vault written in the last RacyMargin
// therefore costs a folder scan (but no re-read of unchanged records) per
// lookup.
const RacyMargin = 2 * time.Second

// entry is one Markdown file of the records folder as the index knows it.
type entry struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	ModNs int64  `json:"mtime_ns"`
	// ReadNs is when the file was read; see RacyMargin.
	ReadNs int64   `json:"read_ns"`
	Record *Record `json:"record,omitempty"`
	// Text is what search indexes (records only).
	Text string `json:"text,omitempty"`
	// Skip says why a file that should be a record is not one.
	Skip string `json:"skip,omitempty"`

	topicOnce sync.Once
	topicA    *analysis
}

func (e *entry) racy() bool { return e.ReadNs-e.ModNs < int64(RacyMargin) }

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

// snapshot is the cache file's content.
type snapshot struct {
	Version   int      `json:"version"`
	Vault     string   `json:"vault"`
	Dir       dirSig   `json:"dir"`
	ScannedNs int64    `json:"scanned_ns"`
	Entries   []*entry `json:"entries"`
	// Embeddings of record topics (consensus.embeddings), by model and
	// topic.
	Embeddings map[string][]float32 `json:"embeddings,omitempty"`
}

// Skipped is a file of the records folder that lookup skips, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// index is the Store's knowledge of the records folder. The Store's mutex
// guards it.
type index struct {
	dir       dirSig
	scannedNs int64 // when the folder was last listed
	entries   map[string]*entry

	// Kept up to date with entries by derive, put and drop.
	byDebate map[string]*entry
	byKey    map[string][]*entry
	// Rebuilt on demand after a change.
	sorted []*entry    // records only, by name; nil when stale
	search *bm25       // nil when stale
	topics *topicIndex // nil when stale
	// emb holds topics' embeddings by model and topic (Store.embedKey);
	// kept in the cache with the entries.
	emb   map[string][]float32
	dirty bool // the cache file is behind
}

func (ix *index) dirRacy() bool { return ix.scannedNs-ix.dir.ModNs < int64(RacyMargin) }

// derive rebuilds the lookup maps from entries.
func (ix *index) derive() {
	ix.byDebate = map[string]*entry{}
	ix.byKey = map[string][]*entry{}
	ix.sorted, ix.search, ix.topics = nil, nil, nil
	for _, e := range ix.records() {
		ix.link(e)
	}
}

func (ix *index) link(e *entry) {
	r := e.Record
	if r == nil {
		return
	}
	if cur := ix.byDebate[r.DebateID]; r.DebateID != "" && (cur == nil || e.Name < cur.Name) {
		ix.byDebate[r.DebateID] = e
	}
	ix.byKey[r.key()] = append(ix.byKey[r.key()], e)
}

// put adds or replaces one entry, keeping the maps current.
func (ix *index) put(e *entry) {
	ix.drop(e.Name)
	ix.entries[e.Name] = e
	ix.link(e)
	ix.sorted, ix.search, ix.topics, ix.dirty = nil, nil, nil, true
}

// drop removes one entry, keeping the maps current.
func (ix *index) drop(name string) {
	old := ix.entries[name]
	if old == nil {
		return
	}
	delete(ix.entries, name)
	ix.sorted, ix.search, ix.topics, ix.dirty = nil, nil, nil, true
	r := old.Record
	if r == nil {
		return
	}
	chain := ix.byKey[r.key()]
	for i, e := range chain {
		if e == old {
			chain = append(chain[:i:i], chain[i+1:]...)
			break
		}
	}
	if len(chain) == 0 {
		delete(ix.byKey, r.key())
	} else {
		ix.byKey[r.key()] = chain
	}
	if ix.byDebate[r.DebateID] == old {
		delete(ix.byDebate, r.DebateID)
		for _, e := range chain { // another record of the same debate, if any
			if e.Record.DebateID == r.DebateID {
				ix.link(e)
			}
		}
	}
}

// records are the entries that are records, sorted by name.
func (ix *index) records() []*entry {
	if ix.sorted == nil {
		ix.sorted = make([]*entry, 0, len(ix.entries))
		for _, e := range ix.entries {
			if e.Record != nil {
				ix.sorted = append(ix.sorted, e)
			}
		}
		sort.Slice(ix.sorted, func(i, j int) bool { return ix.sorted[i].Name < ix.sorted[j].Name })
	}
	return ix.sorted
}

func (ix *index) bm25() *bm25 {
	if ix.search == nil {
		ix.search = buildBM25(ix.records())
	}
	return ix.search
}

func (ix *index) skipped() []Skipped {
	var out []Skipped
	for _, e := range ix.entries {
		if e.Skip != "" {
			out = append(out, Skipped{Path: Folder + "/" + e.Name, Reason: e.Skip})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// ensure brings the index up to date for a query, cheaply when nothing
// changed: on first use it loads the cache and checks every file's size and
// time (reading only the changed ones); afterwards it lstats the folder
// alone and rescans only when the folder changed. Callers hold s.mu.
func (s *Store) ensure(ctx context.Context) error {
	if s.idx == nil {
		s.idx = s.loadCache()
		return s.scan(ctx)
	}
	info, err := s.dir.Stat()
	if err != nil {
		return &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	if sigOf(info) == s.idx.dir && !s.idx.dirRacy() {
		return nil
	}
	return s.scan(ctx)
}

// scan lists the folder, lstats every file and reads those whose size or
// time changed (or that are new, or racy), in parallel. Callers hold s.mu.
func (s *Store) scan(ctx context.Context) error {
	info, err := s.dir.Stat()
	if err != nil {
		return &RecordError{Op: "stat", Path: Folder, Err: err}
	}
	start := time.Now().UnixNano()
	names, err := s.dir.Names()
	if err != nil {
		return err
	}
	old := s.idx.entries
	next := make(map[string]*entry, len(names))
	var toRead []string
	for _, name := range names {
		if name == IndexName {
			continue
		}
		e := old[name]
		if e == nil {
			toRead = append(toRead, name) // new: reading it tells its size and time
			continue
		}
		st, err := s.dir.Lstat(name)
		if err != nil {
			continue // gone since the listing
		}
		if e.Size == st.Size && e.ModNs == st.ModTime.UnixNano() && !e.racy() {
			next[name] = e
			continue
		}
		toRead = append(toRead, name)
	}
	changed := len(toRead) > 0 || len(next) != len(old)
	for name, e := range s.readAll(ctx, toRead) {
		next[name] = e
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.idx.entries = next
	s.idx.dir = sigOf(info)
	s.idx.scannedNs = start
	if changed || s.idx.byKey == nil {
		s.idx.derive()
		s.idx.dirty = s.idx.dirty || changed
	}
	return nil
}

// touch re-checks the named files alone (the records an answer rests on),
// so that a record edited in place is seen even though the folder did not
// change. It reports whether anything changed. Callers hold s.mu.
func (s *Store) touch(ctx context.Context, names []string) bool {
	var toRead []string
	gone := false
	for _, name := range names {
		e := s.idx.entries[name]
		st, err := s.dir.Lstat(name)
		switch {
		case err != nil:
			if e != nil {
				s.idx.drop(name)
				gone = true
			}
		case e == nil || e.Size != st.Size || e.ModNs != st.ModTime.UnixNano() || e.racy():
			toRead = append(toRead, name)
		}
	}
	if len(toRead) == 0 && !gone {
		return false
	}
	got := s.readAll(ctx, toRead)
	for _, name := range toRead {
		if e := got[name]; e != nil {
			s.idx.put(e)
		} else if ctx.Err() == nil {
			s.idx.drop(name) // gone since the lstat
		}
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

// loadCache reads the cache file; any problem (missing, corrupt, another
// vault, another version) yields an empty index, which the scan fills.
func (s *Store) loadCache() *index {
	ix := &index{entries: map[string]*entry{}}
	// A named pipe planted as the cache must not block every lookup in
	// open(2); only a regular file is read.
	f, _, err := regfile.Open(s.root.OpenFile, CacheFile)
	if err != nil {
		return ix
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCacheBytes+1))
	if err != nil || len(data) > maxCacheBytes {
		return ix
	}
	snap, err := decodeSnapshot(data)
	if err != nil {
		s.log.Warn("consensus: ignoring the lookup cache", "path", CacheFile, "err", err)
		return ix
	}
	if snap.Vault != s.v.Path() {
		return ix
	}
	for _, e := range snap.Entries {
		ix.entries[e.Name] = e
	}
	ix.dir, ix.scannedNs = snap.Dir, snap.ScannedNs
	ix.emb = snap.Embeddings
	return ix
}

// decodeSnapshot decodes and checks a cache file: every entry must name a
// Markdown file of the folder and every record must be well formed, or the
// whole cache is refused.
func decodeSnapshot(data []byte) (*snapshot, error) {
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, err
	}
	if snap.Version != cacheVersion {
		return nil, fmt.Errorf("cache version %d, want %d", snap.Version, cacheVersion)
	}
	seen := map[string]bool{}
	for _, e := range snap.Entries {
		if e == nil || e.Name == "" || strings.ContainsAny(e.Name, "/\\\x00") || strings.HasPrefix(e.Name, ".") ||
			!strings.HasSuffix(e.Name, ".md") || seen[e.Name] {
			return nil, errors.New("cache entry with a bad or repeated name")
		}
		seen[e.Name] = true
		if r := e.Record; r != nil {
			if r.Name+".md" != e.Name || r.Topic == "" || r.Slug != TopicSlug(r.Topic) || r.Path != Folder+"/"+e.Name {
				return nil, fmt.Errorf("cache record %q is inconsistent", e.Name)
			}
		}
	}
	return &snap, nil
}

// flush hands a snapshot of the index to the cache writer if the cache is
// behind; the lookup that called it does not wait for the write. Callers
// hold s.mu.
func (s *Store) flush() {
	if s.idx == nil || !s.idx.dirty || s.pending == nil {
		return
	}
	s.idx.dirty = false
	snap := &snapshot{Version: cacheVersion, Vault: s.v.Path(), Dir: s.idx.dir, ScannedNs: s.idx.scannedNs, Embeddings: maps.Clone(s.idx.emb)}
	snap.Entries = make([]*entry, 0, len(s.idx.entries))
	for _, e := range s.idx.entries {
		snap.Entries = append(snap.Entries, e) // entries are never changed, only replaced
	}
	for {
		select {
		case s.pending <- snap:
			return
		default:
		}
		select { // a snapshot not yet written is out of date: replace it
		case <-s.pending:
		default:
		}
	}
}

// writeCaches is the cache writer: it owns the cache file and writes each
// snapshot it is handed, atomically, until pending is closed (by Close).
// A failure only costs the next process a full read, so it is logged.
func (s *Store) writeCaches() {
	defer close(s.written)
	for snap := range s.pending {
		sort.Slice(snap.Entries, func(i, j int) bool { return snap.Entries[i].Name < snap.Entries[j].Name })
		data, err := json.MarshalNoEscape(snap)
		if err == nil {
			if err = s.root.MkdirAll("cache", vault.DirPerm); err == nil {
				err = durable.WriteFile(s.rootFS, CacheFile, data, vault.FilePerm)
			}
		}
		if err != nil {
			s.log.Warn("consensus: could not write the lookup cache", "path", CacheFile, "err", err)
		}
	}
}
