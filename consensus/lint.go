package consensus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/regfile"
)

// Contradiction is two active records that answer the same question
// (TopicScore at least TopicThreshold, either way round, same layer) with
// positions that conflict by ComparePositions.
type Contradiction struct {
	A, B        Record
	TopicScore  float64
	Differences []string
}

// Contradictions finds the active, binding records that contradict each
// other: the current records of questions close enough to be one, and
// records of one question that all still say active. Each pair is
// reported once, A's name before B's.
func (s *Store) Contradictions(ctx context.Context) ([]Contradiction, error) {
	return retryLost(ctx, s, func() ([]Contradiction, error) { return s.contradictions(ctx) })
}

func (s *Store) contradictions(ctx context.Context) ([]Contradiction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	rows, err := s.idx.db.QueryContext(ctx, `SELECT rec FROM files WHERE head = 1 ORDER BY name`)
	if err != nil {
		return nil, s.indexErr(err)
	}
	heads, err := scanRecords(rows)
	if err != nil {
		return nil, s.indexErr(err)
	}
	byKey := map[string]*Record{}
	for _, r := range heads {
		byKey[r.key()] = r
	}
	var out []Contradiction
	for _, a := range heads {
		if !a.Binding() {
			continue
		}
		ta := analyze(a.Topic)
		for _, c := range s.topicCandidates(ctx, a.Layer, ta.words(), topicCandidates) {
			b := byKey[c.key]
			if b == nil || b.Name <= a.Name || b.key() == a.key() || !b.Binding() {
				continue
			}
			score := max(topicScore(ta, &c.topic), topicScore(&c.topic, ta))
			if score < TopicThreshold {
				continue
			}
			if cmp := ComparePositions(a.FinalPosition, b.FinalPosition); cmp.Agreement == Disagree {
				out = append(out, Contradiction{A: *a, B: *b, TopicScore: round2(score), Differences: cmp.Differences})
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	// Records of one question that all still say active (a copy made by
	// hand, a supersession its old record's frontmatter refused): only
	// one of them is the head, so the loop above never meets the others.
	rows, err = s.idx.db.QueryContext(ctx, `SELECT rec FROM files WHERE status = ? AND skip IS NULL AND qkey IN
		(SELECT qkey FROM files WHERE status = ? AND skip IS NULL GROUP BY qkey HAVING count(*) > 1) ORDER BY qkey, name`,
		string(StatusActive), string(StatusActive))
	if err != nil {
		return nil, s.indexErr(err)
	}
	same, err := scanRecords(rows)
	if err != nil {
		return nil, s.indexErr(err)
	}
	for i, a := range same {
		for _, b := range same[i+1:] {
			if b.key() != a.key() || !a.Binding() || !b.Binding() {
				continue
			}
			if cmp := ComparePositions(a.FinalPosition, b.FinalPosition); cmp.Agreement == Disagree {
				out = append(out, Contradiction{A: *a, B: *b, TopicScore: 1, Differences: cmp.Differences})
			}
		}
	}
	return out, nil
}

// StaleEvidence is a record whose cited lines changed since it was filed.
type StaleEvidence struct {
	Record  Record
	Ref     string // "path:from-to"
	Problem string // what is wrong now
}

var evidenceRefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+):([0-9]+)(?:-([0-9]+))?$`) })

// Stale compares the lines every active record cites (its evidence_lines)
// with the files under workspace now: a file gone, lines gone, or lines
// whose hash differs make the record stale. Files are opened through
// os.Root, so no ref reads outside the workspace.
func (s *Store) Stale(ctx context.Context, workspace string) ([]StaleEvidence, error) {
	return s.StaleIn(ctx, func(Record) string { return workspace })
}

// StaleIn is Stale with each record's lines read under the workspace
// workspaceOf names for it (its debate's, say): records of debates run in
// different workspaces are each checked where they were filed. A
// workspace that cannot be opened fails the call.
func (s *Store) StaleIn(ctx context.Context, workspaceOf func(Record) string) ([]StaleEvidence, error) {
	recs, err := retryLost(ctx, s, func() ([]*Record, error) { return s.citing(ctx) })
	if err != nil {
		return nil, err
	}
	roots := map[string]*os.Root{}
	defer func() {
		for _, r := range roots {
			r.Close()
		}
	}()
	sort.Slice(recs, func(i, j int) bool { return recs[i].Name < recs[j].Name })
	var out []StaleEvidence
	for _, rp := range recs {
		r := *rp
		if len(r.EvidenceLines) == 0 {
			continue
		}
		ws := workspaceOf(r)
		root := roots[ws]
		if root == nil {
			if root, err = os.OpenRoot(ws); err != nil {
				return nil, fmt.Errorf("open the workspace: %w", err)
			}
			roots[ws] = root
		}
		for _, line := range r.EvidenceLines {
			hash, ref, ok := strings.Cut(line, " ")
			if !ok {
				out = append(out, StaleEvidence{Record: r, Ref: line, Problem: "an evidence line parley cannot read"})
				continue
			}
			if problem := checkLines(root, ref, hash); problem != "" {
				out = append(out, StaleEvidence{Record: r, Ref: ref, Problem: problem})
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// citing are the active records that cite evidence lines: the index
// picks them by the key their JSON holds only then (evidence_lines is
// omitted when empty), so that the records citing none, most of a large
// vault, are not read at all.
func (s *Store) citing(ctx context.Context) ([]*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	rows, err := s.idx.db.QueryContext(ctx, `SELECT rec FROM files WHERE rec IS NOT NULL AND status = ? AND rec LIKE '%"evidence_lines":%'`, string(StatusActive))
	if err != nil {
		return nil, s.indexErr(err)
	}
	recs, err := scanRecords(rows)
	if err != nil {
		return nil, s.indexErr(err)
	}
	return recs, nil
}

// checkLines says what changed about the lines ref cites ("" if nothing).
func checkLines(root *os.Root, ref, hash string) string {
	m := evidenceRefRE().FindStringSubmatch(ref)
	if m == nil {
		return "not a path:line or path:from-to reference"
	}
	from, _ := strconv.Atoi(m[2])
	to := from
	if m[3] != "" {
		to, _ = strconv.Atoi(m[3])
	}
	// regfile: a named pipe in the file's place must not block the lint.
	f, _, err := regfile.Open(root.OpenFile, m[1])
	var nr *regfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "the file is gone"
	case errors.As(err, &nr):
		return "not a regular file"
	case err != nil:
		return "the file cannot be read: " + err.Error()
	}
	defer f.Close()
	got, err := debate.HashLines(f, from, to)
	switch {
	case errors.Is(err, debate.ErrLinesOutOfRange):
		return fmt.Sprintf("lines %d-%d are gone (the file is shorter now)", from, to)
	case err != nil:
		return "the file cannot be read: " + err.Error()
	case got != hash:
		return fmt.Sprintf("lines %d-%d changed since the record was filed", from, to)
	}
	return ""
}
