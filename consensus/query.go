package consensus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	json "github.com/goccy/go-json"

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
	return retryLost(ctx, s, func() ([]Record, error) { return s.records(ctx, f) })
}

func (s *Store) records(ctx context.Context, f Filter) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	q := `SELECT rec FROM files WHERE rec IS NOT NULL`
	var args []any
	if f.Layer != "" {
		q += ` AND layer = ?`
		args = append(args, string(f.Layer))
	}
	if f.Verdict != "" {
		q += ` AND verdict = ?`
		args = append(args, string(f.Verdict))
	}
	if f.Status != "" {
		q += ` AND status = ?`
		args = append(args, string(f.Status))
	}
	rows, err := s.idx.db.QueryContext(ctx, q+` ORDER BY created DESC, name`, args...)
	if err != nil {
		return nil, s.indexErr(err)
	}
	recs, err := scanRecords(rows)
	if err != nil {
		return nil, s.indexErr(err)
	}
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		out = append(out, *r)
	}
	return out, nil
}

// RecordName is what a user names a record by: the name of its file
// without ".md" (the name wikilinks use) and the id of the debate it
// records ("" when it names none).
type RecordName struct {
	Name     string
	DebateID string
}

// Named is the record whose name is exactly LinkName(arg) or whose debate
// has exactly the id arg, "" when none is. Like Names, it sees the files
// created, renamed or removed since the last lookup and reads no record:
// it costs a lookup in the index, however many records the vault holds.
func (s *Store) Named(ctx context.Context, arg string) (string, error) {
	return retryLost(ctx, s, func() (string, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.ensure(ctx); err != nil {
			return "", err
		}
		if name := LinkName(arg); name != "" {
			var n string
			err := s.idx.db.QueryRowContext(ctx, `SELECT name FROM files WHERE name = ? AND qkey IS NOT NULL`, name+".md").Scan(&n)
			if err == nil {
				return strings.TrimSuffix(n, ".md"), nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return "", s.indexErr(err)
			}
		}
		r, err := s.byDebate(strings.TrimSpace(arg))
		if err != nil || r == nil {
			return "", err
		}
		return r.Name, nil
	})
}

// Current is the name of the record that answers r's question now (its
// active record, the one Check answers from), "" when no record of the
// question is active. Like Names, it reads no record file.
func (s *Store) Current(ctx context.Context, r *Record) (string, error) {
	return retryLost(ctx, s, func() (string, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.ensure(ctx); err != nil {
			return "", err
		}
		if a := s.active(r.key()); a != nil {
			return a.Name, nil
		}
		return "", nil
	})
}

// Names lists the records' names and debate ids, by name, and the names
// of the files lookups skip (Skipped: broken frontmatter, a symbolic
// link), which name a record as much to the user who typed part of one:
// Record says why it cannot be read. It sees the files created, renamed
// or removed since the last lookup, as every lookup does, and reads no
// record: naming a record among many costs a row of the index each, not a
// check of every file (Records).
func (s *Store) Names(ctx context.Context) ([]RecordName, error) {
	return retryLost(ctx, s, func() ([]RecordName, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.ensure(ctx); err != nil {
			return nil, err
		}
		rows, err := s.idx.db.QueryContext(ctx, `SELECT name, COALESCE(debate_id, '') FROM files WHERE qkey IS NOT NULL OR skip IS NOT NULL`)
		if err != nil {
			return nil, s.indexErr(err)
		}
		defer rows.Close()
		var out []RecordName
		for rows.Next() {
			var n RecordName
			if err := rows.Scan(&n.Name, &n.DebateID); err != nil {
				return nil, s.indexErr(err)
			}
			n.Name = strings.TrimSuffix(n.Name, ".md")
			out = append(out, n)
		}
		if err := rows.Err(); err != nil {
			return nil, s.indexErr(err)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out, nil
	})
}

// Refresh checks every record file's size and time and re-reads those that
// changed, so that records edited in place are seen. Lookups already see
// files created, renamed or removed, and re-check the records they answer
// from; a long-running process calls Refresh when it wants the rest too.
func (s *Store) Refresh(ctx context.Context) error {
	_, err := retryLost(ctx, s, func() (struct{}, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return struct{}{}, s.refresh(ctx)
	})
	return err
}

// Skipped lists the files of the records folder that lookup skips (broken
// frontmatter, symbolic links, invalid records), as of the last lookup.
func (s *Store) Skipped() []Skipped {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx == nil {
		return nil
	}
	return s.skippedFiles()
}

// NamesRecord says whether name, a record's name, wikilink, file name or
// path as a user gives it, can name a record of this store: nil when it
// can, else an error wrapping ErrNoRecord that says why. A path into
// another folder names none (InRecordsFolder), and so does an absolute
// path into another vault's records folder (a path copied from another
// project's output), rather than the record of the same name here.
func (s *Store) NamesRecord(name string) error {
	if !InRecordsFolder(name) {
		return fmt.Errorf("%w: %q is not in %s, whose files are the records", ErrNoRecord, name, Folder)
	}
	p := strings.TrimSpace(name)
	if l, err := vault.ParseLink(p); err == nil {
		p = l.Target
	}
	if !filepath.IsAbs(p) {
		return nil // a name, or a path in the vault
	}
	folder := filepath.Join(s.v.Path(), filepath.FromSlash(Folder))
	if sameDir(filepath.Dir(p), folder) {
		return nil
	}
	return fmt.Errorf("%w: %s is not in this vault's records folder, %s", ErrNoRecord, p, folder)
}

// sameDir reports whether a and b are one directory: the same path, or
// the same once symbolic links are followed (a vault under /tmp reached
// through /private/tmp).
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err := filepath.EvalSymlinks(a)
	if err != nil {
		return false
	}
	rb, err := filepath.EvalSymlinks(b)
	return err == nil && ra == rb
}

// Record reads one record afresh from the vault by name ("spec-x"),
// wikilink ("[[spec-x]]"), file name or vault path, or by the id of the
// debate it records. It returns the record and its page.
func (s *Store) Record(ctx context.Context, name string) (*Record, *vault.Page, error) {
	if err := s.NamesRecord(name); err != nil {
		return nil, nil, err
	}
	file, err := retryLost(ctx, s, func() (string, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.ensure(ctx); err != nil {
			return "", err
		}
		if r, err := s.byDebate(strings.TrimSpace(name)); err == nil && r != nil {
			return r.Name + ".md", nil
		}
		return LinkName(name) + ".md", nil
	})
	if err != nil {
		return nil, nil, err
	}
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
	return retryLost(ctx, s, func() (string, error) { return s.recordOf(ctx, debateID) })
}

func (s *Store) recordOf(ctx context.Context, debateID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensure(ctx); err != nil {
		return "", err
	}
	r, err := s.byDebate(debateID)
	if err != nil || r == nil {
		return "", err
	}
	return r.Path, nil
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
	// TopicScore is, for the related records of a check, how close the
	// record came to being the question asked (0 to 1, never above the
	// answer's own; 0 when it was not scored as the question).
	TopicScore float64 `json:"topic_score,omitempty"`
}

// Search ranks the records the filter selects by BM25 relevance of their
// topic, positions and rationale to the query (SQLite FTS5), best first,
// at most limit. Records that score the same come in order of standing
// (byStanding): the active record before superseded ones, the newest
// before older ones.
func (s *Store) Search(ctx context.Context, query string, f Filter, limit int) ([]Hit, error) {
	return retryLost(ctx, s, func() ([]Hit, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.ensure(ctx); err != nil {
			return nil, err
		}
		return s.search(ctx, query, limit, func(r *Record) bool { return f.match(r) }, fullSearch, byStanding), nil
	})
}

// byStanding orders records of equal score for a reader looking up what
// was decided: active before superseded, then the newest filed first,
// then by name.
func byStanding(a, b *Record) int {
	if (a.Status == StatusActive) != (b.Status == StatusActive) {
		if a.Status == StatusActive {
			return -1
		}
		return 1
	}
	if c := strings.Compare(b.Created, a.Created); c != 0 {
		return c
	}
	return byName(a, b)
}

// byName orders records of equal score by name: the order in which a
// check's topic lookup reads the related records it found.
func byName(a, b *Record) int { return strings.Compare(a.Name, b.Name) }

// searchBudget bounds the candidates a search ranks: the query terms that
// find them must be rare (in at most maxDF records, or a fraction of the
// records), at most terms of them, else the rarest fallback one if it is
// in at most fallbackDF records. A term in many records costs a pass over
// them and barely moves a ranking.
type searchBudget struct {
	fraction          int64 // maxDF is docs / fraction, when larger
	maxDF, fallbackDF int64
	terms             int
	// activeFirst ranks a question's active record before its superseded
	// ones (activeFirst), whatever their scores.
	activeFirst bool
}

var (
	// fullSearch is "consensus search": thorough.
	fullSearch = searchBudget{fraction: 5, maxDF: 50, fallbackDF: 1 << 62, terms: 8, activeFirst: true}
	// relatedSearch is the related records of a check: cheap, so that a
	// check stays within a millisecond on a large vault. Five terms find
	// the record a question restates when its rarest words are noise
	// (a greeting, a place name) at no measurable cost: warm check p50 at
	// 100,000 records 425–462 µs against 455 µs with three, paired.
	relatedSearch = searchBudget{maxDF: 50, fallbackDF: 200, terms: 5}
)

// searchOverfetch is how many more hits than asked a search reads, to
// fill the answer after the filter.
const searchOverfetch = 4

// maxQueryTerms bounds the terms of a search query.
const maxQueryTerms = 32

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// search runs a query and re-checks the files of its hits; if one changed
// it runs the query again on the fresh index. FTS5 finds and orders the
// candidates; their scores are BM25 with an idf that stays positive
// (log(1 + (N - n + 0.5)/(n + 0.5))), so that a small vault ranks too.
// ties orders hits of equal score. Callers hold s.mu.
func (s *Store) search(ctx context.Context, query string, limit int, keep func(*Record) bool, budget searchBudget, ties func(a, b *Record) int) []Hit {
	if limit <= 0 {
		return nil
	}
	docs := float64(s.df(ctx, "#docs"))
	if docs == 0 {
		return nil
	}
	avg := max(float64(s.df(ctx, "#terms"))/docs, 1)
	// The rarest terms find the candidates; the common ones only add to
	// their scores.
	all := queryTerms(query)
	maxDF := budget.maxDF
	if budget.fraction > 0 {
		maxDF = max(maxDF, int64(docs)/budget.fraction)
	}
	terms := s.rarest(ctx, "s:", all, maxDF, budget.terms)
	if len(terms) > 0 && s.df(ctx, "s:"+terms[0]) > maxDF {
		// Nothing is rare enough: the rarest one, if it is not common.
		terms = terms[:1]
		if s.df(ctx, "s:"+terms[0]) > budget.fallbackDF {
			terms = nil
		}
	}
	if len(terms) == 0 {
		return nil
	}
	var idf []scoredTerm
	for _, t := range all {
		if n := float64(s.df(ctx, "s:"+t)); n > 0 {
			idf = append(idf, scoredTerm{t, math.Log(1 + (docs-n+0.5)/(n+0.5))})
		}
	}
	match := make([]string, len(terms))
	var postings int64
	for i, t := range terms {
		match[i] = `"` + t + `"`
		postings += s.df(ctx, "s:"+t)
	}
	read := limit*searchOverfetch + 1
	for attempt := 0; ; attempt++ {
		// When the terms are in at most read records between them, every
		// match is read, and ranking them in FTS5 first (which reads each
		// one's length) changes nothing: the hits are ranked below. The
		// unranked query reads one more row than that, to find out when
		// the counts were short.
		ranked := postings > int64(read) || !unrankedSearch
		var out []Hit
		var n int
		if !ranked {
			out, n = s.searchRows(ctx, searchAll, strings.Join(match, " OR "), read+1, idf, avg, keep)
			ranked = n > read
		}
		if ranked {
			// FTS5 ranks the matches alone; only the best are joined with
			// their records (whose JSON is the larger part of a row).
			out, n = s.searchRows(ctx, searchRanked, strings.Join(match, " OR "), read, idf, avg, keep)
		}
		if n < 0 {
			return nil
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Score != out[j].Score {
				return out[i].Score > out[j].Score
			}
			return ties(&out[i].Record, &out[j].Record) < 0
		})
		if budget.activeFirst {
			out = activeFirst(out)
		}
		if len(out) > limit {
			out = out[:limit]
		}
		names := make([]string, len(out))
		for i, h := range out {
			names[i] = h.Record.Name + ".md"
		}
		if attempt == 0 && s.touch(ctx, names) {
			continue
		}
		return out
	}
}

// activeFirst moves the active record of each question that has a
// superseded record ranked above it to just before the first of those:
// a reader looking up what was decided finds the question's answer now
// before what it was, and a record that once answered the question never
// outranks the one that answers it. The rest keeps its order.
func activeFirst(hits []Hit) []Hit {
	activeAt := map[string]int{}
	for i := range hits {
		if hits[i].Record.Status == StatusActive {
			if _, ok := activeAt[hits[i].Record.key()]; !ok {
				activeAt[hits[i].Record.key()] = i
			}
		}
	}
	out := make([]Hit, 0, len(hits))
	placed := make([]bool, len(hits))
	for i := range hits {
		if placed[i] {
			continue
		}
		if hits[i].Record.Status != StatusActive {
			if j, ok := activeAt[hits[i].Record.key()]; ok && j > i && !placed[j] {
				out = append(out, hits[j])
				placed[j] = true
			}
		}
		out = append(out, hits[i])
		placed[i] = true
	}
	return out
}

// unrankedSearch lets a search whose terms are in few records read them
// unranked (see search); a variable for tests.
var unrankedSearch = true

// The queries of searchRows: the records of the matches, the best limit
// by FTS5's BM25 (searchRanked) or the first limit (searchAll), with
// their search text read from the files row itself (the search table's
// content is that column: reading it through the search table costs a
// cursor on it per row).
const (
	searchRanked = `SELECT f.rec, f.text, f.terms
			FROM (SELECT rowid AS id, bm25(search) AS r FROM search WHERE search MATCH ? ORDER BY r LIMIT ?) m
			JOIN files f ON f.id = m.id ORDER BY m.r, f.name`
	searchAll = `SELECT f.rec, f.text, f.terms
			FROM (SELECT rowid AS id FROM search WHERE search MATCH ? LIMIT ?) m
			JOIN files f ON f.id = m.id`
)

// scoredTerm is a query term that some record holds, and its idf.
type scoredTerm struct {
	term string
	idf  float64
}

// searchRows runs a search query and scores its rows (BM25, with the
// terms' idf and the average length avg) that keep keeps. n is how many rows it read, -1
// when the query failed. Callers hold s.mu.
func (s *Store) searchRows(ctx context.Context, query, match string, limit int, terms []scoredTerm, avg float64, keep func(*Record) bool) (out []Hit, n int) {
	at := make(map[string]int, len(terms))
	for i, t := range terms {
		at[t.term] = i
	}
	rows, err := s.query(ctx, query, match, limit)
	if err != nil {
		s.log.Warn("consensus: search failed", "path", CacheFile, "err", err)
		return nil, -1
	}
	defer rows.Close()
	for rows.Next() {
		n++
		var b []byte
		var text string
		var dl float64
		if err := rows.Scan(&b, &text, &dl); err != nil {
			break
		}
		var r Record
		if json.Unmarshal(b, &r) != nil || keep != nil && !keep(&r) {
			continue
		}
		// The terms' counts, summed in the query's order: a record
		// scores the same whatever the order of a map.
		tf := make([]float64, len(terms))
		for _, w := range strings.Fields(text) {
			if i, ok := at[w]; ok {
				tf[i]++
			}
		}
		score := 0.0
		for i, f := range tf {
			if f > 0 {
				score += terms[i].idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*dl/avg))
			}
		}
		out = append(out, Hit{Record: r, Score: score})
	}
	return out, n
}

// queryTerms are the search terms of a query (tokenize) as FTS5 tokens,
// once each, at most maxQueryTerms.
func queryTerms(text string) []string {
	var terms []string
	seen := map[string]bool{}
	tokenize(text, func(t string) {
		t = ftsToken(t)
		if !seen[t] && len(terms) < maxQueryTerms {
			seen[t] = true
			terms = append(terms, t)
		}
	})
	return terms
}
