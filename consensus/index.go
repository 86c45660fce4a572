package consensus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// The lookup cache under the parley root.
const (
	// CacheFile is the cache's path relative to the root.
	CacheFile = "cache/consensus-index.json"
	// maxCacheBytes bounds the cache file on read.
	maxCacheBytes = 512 << 20
	cacheVersion  = 1
)

// racyMargin is how close a file's modification time may be to the moment
// it was read before its size and time stop proving it unchanged: a second
// write within the file system's timestamp granularity can leave both
// alike. Such files (and the folder) are checked again at the next lookup.
const racyMargin = 2 * time.Second

// entry is one Markdown file of the records folder as the index knows it.
type entry struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	ModNs int64  `json:"mtime_ns"`
	// ReadNs is when the file was read; see racyMargin.
	ReadNs int64   `json:"read_ns"`
	Record *Record `json:"record,omitempty"`
	// Text is what search indexes (records only).
	Text string `json:"text,omitempty"`
	// Skip says why a file that should be a record is not one.
	Skip string `json:"skip,omitempty"`
}

func (e *entry) racy() bool { return e.ReadNs-e.ModNs < int64(racyMargin) }

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

	// Derived from entries by derive.
	records  []*entry // records only, sorted by name
	byDebate map[string]*entry
	byKey    map[string][]*entry
	search   *bm25 // built on first search; nil after a change
}

func (ix *index) dirRacy() bool { return ix.scannedNs-ix.dir.ModNs < int64(racyMargin) }

func (ix *index) derive() {
	ix.records = ix.records[:0]
	ix.byDebate = map[string]*entry{}
	ix.byKey = map[string][]*entry{}
	ix.search = nil
	for _, e := range ix.entries {
		if e.Record != nil {
			ix.records = append(ix.records, e)
		}
	}
	sort.Slice(ix.records, func(i, j int) bool { return ix.records[i].Name < ix.records[j].Name })
	for _, e := range ix.records {
		r := e.Record
		if r.DebateID != "" && ix.byDebate[r.DebateID] == nil {
			ix.byDebate[r.DebateID] = e
		}
		ix.byKey[r.key()] = append(ix.byKey[r.key()], e)
	}
}

func (ix *index) bm25() *bm25 {
	if ix.search == nil {
		ix.search = buildBM25(ix.records)
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
		st, err := s.dir.Lstat(name)
		if err != nil {
			continue // gone since the listing
		}
		if e := old[name]; e != nil && e.Size == st.Size && e.ModNs == st.ModTime.UnixNano() && !e.racy() {
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
	}
	if changed {
		s.saveCache()
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
				delete(s.idx.entries, name)
				gone = true
			}
		case e == nil || e.Size != st.Size || e.ModNs != st.ModTime.UnixNano() || e.racy():
			toRead = append(toRead, name)
		}
	}
	if len(toRead) == 0 && !gone {
		return false
	}
	for name, e := range s.readAll(ctx, toRead) {
		s.idx.entries[name] = e
	}
	s.idx.derive()
	s.saveCache()
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
	f, err := s.root.Open(CacheFile)
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

// saveCache writes the cache atomically. A failure only costs the next
// process a full read, so it is logged, not returned.
func (s *Store) saveCache() {
	snap := snapshot{Version: cacheVersion, Vault: s.v.Path(), Dir: s.idx.dir, ScannedNs: s.idx.scannedNs}
	for _, e := range s.idx.entries {
		snap.Entries = append(snap.Entries, e)
	}
	sort.Slice(snap.Entries, func(i, j int) bool { return snap.Entries[i].Name < snap.Entries[j].Name })
	data, err := json.Marshal(&snap)
	if err == nil {
		if err = s.root.MkdirAll("cache", vault.DirPerm); err == nil {
			err = durable.WriteFile(s.rootFS, CacheFile, data, vault.FilePerm)
		}
	}
	if err != nil {
		s.log.Warn("consensus: could not write the lookup cache", "path", CacheFile, "err", err)
	}
}
