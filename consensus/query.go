package consensus

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// Filter selects records. Zero fields match everything.
type Filter struct {
	Layer   debate.Layer
	Verdict debate.Verdict
	Status  Status
}

func (f Filter) match(r *Record) bool {
	return (f.Layer == "" || r.Layer == f.Layer) && (f.Verdict == "" || r.Verdict == f.Verdict) && (f.Status == "" || r.Status == f.Status)
}

// Records lists the records the filter selects, newest first. It checks
// every record file's size and time first and re-reads those that changed.
func (s *Store) Records(ctx context.Context, f Filter) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	var out []Record
	for _, e := range s.idx.records() {
		if f.match(e.Record) {
			out = append(out, *e.Record)
		}
	}
	slices.SortFunc(out, func(a, b Record) int {
		if c := strings.Compare(b.Created, a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// refresh is a full check of every file's size and time (the first query
// of a Store does the same). Callers hold s.mu.
func (s *Store) refresh(ctx context.Context) error {
	if s.idx == nil {
		s.idx = s.loadCache()
	}
	return s.scan(ctx)
}

// Refresh checks every record file's size and time and re-reads those that
// changed, so that records edited in place are seen. Lookups already see
// files created, renamed or removed, and re-check the records they answer
// from; a long-running process calls Refresh when it wants the rest too.
func (s *Store) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	return s.refresh(ctx)
}

// Skipped lists the files of the records folder that lookup skips (broken
// frontmatter, symbolic links, invalid records), as of the last lookup.
func (s *Store) Skipped() []Skipped {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	if s.idx == nil {
		return nil
	}
	return s.idx.skipped()
}

// Record reads one record afresh from the vault by name ("spec-x"),
// wikilink ("[[spec-x]]"), file name or vault path, or by the id of the
// debate it records. It returns the record and its page.
func (s *Store) Record(ctx context.Context, name string) (*Record, *vault.Page, error) {
	s.mu.Lock()
	if err := s.ensure(ctx); err != nil {
		s.mu.Unlock()
		return nil, nil, err
	}
	s.flush()
	file := linkName(name) + ".md"
	if e := s.idx.byDebate[strings.TrimSpace(name)]; e != nil {
		file = e.Name
	}
	s.mu.Unlock()
	if err := validFile(file); err != nil {
		return nil, nil, fmt.Errorf("%w: %q", ErrNoRecord, name)
	}
	data, _, err := s.dir.ReadFile(file)
	if vault.IsNotExist(err) {
		return nil, nil, fmt.Errorf("%w: %q", ErrNoRecord, name)
	}
	if err != nil {
		return nil, nil, err
	}
	rec, _, err := parseRecord(file, data)
	if err != nil {
		return nil, nil, &RecordError{Op: "read", Path: Folder + "/" + file, Err: err}
	}
	if rec == nil {
		return nil, nil, fmt.Errorf("%w: %q is not a consensus record", ErrNoRecord, name)
	}
	page, err := vault.ParsePage(rec.Path, data)
	if err != nil {
		return nil, nil, err
	}
	return rec, page, nil
}

// RecordOf returns the vault path of the record filed for debate id, ""
// when none is. It implements transcripts.RecordFinder.
func (s *Store) RecordOf(ctx context.Context, debateID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensure(ctx); err != nil {
		return "", err
	}
	defer s.flush()
	if e := s.idx.byDebate[debateID]; e != nil {
		return e.Record.Path, nil
	}
	return "", nil
}

func validFile(name string) error {
	if name == ".md" || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") {
		return ErrNoRecord
	}
	return nil
}

// Hit is a ranked search result.
type Hit struct {
	Record Record  `json:"record"`
	Score  float64 `json:"score"`
}

// Search ranks the records the filter selects by BM25 relevance of their
// topic, positions and rationale to the query, best first, at most limit.
func (s *Store) Search(ctx context.Context, query string, f Filter, limit int) ([]Hit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	return s.search(ctx, query, limit, func(e *entry) bool { return f.match(e.Record) }), nil
}

// search runs a query and re-checks the files of its hits; if one changed
// it runs the query again on the fresh index. Callers hold s.mu.
func (s *Store) search(ctx context.Context, query string, limit int, keep func(*entry) bool) []Hit {
	for attempt := 0; ; attempt++ {
		found := s.idx.bm25().search(query, limit, keep)
		names := make([]string, len(found))
		for i, h := range found {
			names[i] = s.idx.search.docs[h.doc].Name
		}
		if attempt == 0 && s.touch(ctx, names) {
			continue
		}
		out := make([]Hit, len(found))
		for i, h := range found {
			out[i] = Hit{Record: *s.idx.search.docs[h.doc].Record, Score: h.score}
		}
		return out
	}
}
