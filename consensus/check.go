package consensus

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/parleyhq/parley/debate"
)

// CheckStatus is the answer of Check.
type CheckStatus string

// The answers of a check.
const (
	// CheckConsistent: the active record of the question binds a position
	// that says the same thing.
	CheckConsistent CheckStatus = "consistent"
	// CheckConflict: the active record binds a position that the new one
	// changes (another number or unit, a negation, the other option of a
	// choice, a dropped or added condition). The caller must not proceed
	// (the CLI exits 3).
	CheckConflict CheckStatus = "conflict"
	// CheckUnclear: parley found the record but cannot tell whether the
	// position agrees with it. The caller must not take it for a pass (the
	// CLI exits 3 unless --lenient).
	CheckUnclear CheckStatus = "unclear"
	// CheckOpen: the active record bound nothing (DEADLOCK, TIMEOUT, or an
	// exhausted budget without agreement); the question is still open.
	CheckOpen CheckStatus = "open"
	// CheckNone: no active record for the question.
	CheckNone CheckStatus = "none"
)

// relatedLimit is how many related records a check lists.
const relatedLimit = 5

// topicCandidates bounds how many records of the layer a check scores by
// meaning (those that share the most words with the topic).
const topicCandidates = 200

// CheckResult is what Check found.
type CheckResult struct {
	Status   CheckStatus
	Layer    debate.Layer
	Slug     string
	Topic    string
	Position string
	// Record is the active record of the question; nil for None.
	Record *Record
	// TopicScore is how surely the record's topic is the question asked
	// (1 for the same topic up to case and punctuation; see TopicScore).
	TopicScore float64
	// Comparison is how the position compares with the record's final
	// position (zero for None and Open).
	Comparison Comparison
	// Judge is the reason a model gave when it decided an unclear case
	// ("" when no model was asked); Warnings say what went wrong on the
	// way (a model endpoint that did not answer).
	Judge    string
	Warnings []string
	// Related are other records ranked by relevance to the topic and the
	// position, best first (the active record itself is not among them).
	Related []Hit
}

// Check answers whether a filed consensus settles a question before a
// decision. It finds the active record of the question in the same layer
// by meaning (TopicScore at least TopicThreshold, the best one wins; the
// same slug always matches), and compares the position with the record's
// final position (ComparePositions). It always lists related records. A
// record edited in place is read again before it is used.
func (s *Store) Check(ctx context.Context, layer debate.Layer, topic, position string) (*CheckResult, error) {
	l, err := debate.ParseLayer(string(layer))
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(topic) == "" || debate.PositionHash(position) == "" {
		return nil, ErrEmptyQuestion
	}
	res, err := s.check(ctx, l, topic, position)
	if err != nil {
		return nil, err
	}
	if res.Status == CheckUnclear && s.judge != nil {
		// Outside the lock: a model may take seconds.
		agr, reason, err := s.judge.Judge(ctx, res.Record.Topic, res.Record.FinalPosition, position)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("judge %s did not answer (%v); the answer stays unclear", s.judgeModel, err))
		} else {
			res.Status, res.Judge = statusOf(agr), s.judgeModel+": "+reason
		}
	}
	return res, nil
}

func (s *Store) check(ctx context.Context, l debate.Layer, topic, position string) (*CheckResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	res := &CheckResult{Layer: l, Slug: TopicSlug(topic), Topic: topic, Position: position}
	key, score := s.matchTopic(ctx, l, topic)
	if key != "" {
		var chain []string
		for _, e := range s.idx.byKey[key] {
			chain = append(chain, e.Name)
		}
		if s.touch(ctx, chain) {
			key, score = s.matchTopic(ctx, l, topic)
		}
	}
	if key == "" && s.embedder != nil {
		k, cos, err := s.embedMatch(ctx, l, topic)
		switch {
		case err != nil:
			res.Warnings = append(res.Warnings, fmt.Sprintf("embeddings %s did not answer (%v); topics matched by their words only", s.embedModel, err))
		case k != "" && !s.nearMissOf(l, topic, k):
			key, score = k, cos
		}
	}
	if r := s.active(key); key != "" && r != nil {
		cp := *r
		res.Record, res.TopicScore = &cp, round2(score)
	}
	switch {
	case res.Record == nil:
		res.Status = CheckNone
	case !res.Record.Binding():
		res.Status = CheckOpen
	case debate.PositionHash(position) == res.Record.FinalPositionHash:
		res.Status = CheckConsistent
		res.Comparison = Comparison{Agreement: Agree, Score: 1}
	default:
		res.Comparison = ComparePositions(res.Record.FinalPosition, position)
		res.Status = statusOf(res.Comparison.Agreement)
	}
	self := ""
	if res.Record != nil {
		self = res.Record.Name
	}
	res.Related = s.search(ctx, topic+"\n"+position, relatedLimit, func(e *entry) bool { return e.Name != self+".md" })
	return res, nil
}

func statusOf(a Agreement) CheckStatus {
	switch a {
	case Agree:
		return CheckConsistent
	case Disagree:
		return CheckConflict
	}
	return CheckUnclear
}

// matchTopic finds the question a topic asks among the active records of
// layer: the record with the same slug, else the best TopicScore at or
// above TopicThreshold. It returns the question's key ("" if none) and the
// score. Callers hold s.mu.
func (s *Store) matchTopic(_ context.Context, l debate.Layer, topic string) (string, float64) {
	if key := string(l) + "/" + TopicSlug(topic); s.active(key) != nil {
		return key, 1
	}
	q := analyze(topic)
	best, bestScore := "", 0.0
	for _, e := range s.idx.topicIx().candidates(l, q.words(), topicCandidates) {
		r := e.Record
		if s.active(r.key()) != r {
			continue
		}
		sc := topicScore(q, e.topic())
		if sc > bestScore || sc == bestScore && r.key() < best {
			best, bestScore = r.key(), sc
		}
	}
	if bestScore < TopicThreshold {
		return "", bestScore
	}
	return best, bestScore
}

// nearMissOf reports whether the question and the record of key differ
// in two options of one choice (the curated alternatives: "WebP" and
// "AVIF", "ascending" and "descending"): then an embedding's closeness
// does not make them one question.
func (s *Store) nearMissOf(_ debate.Layer, topic, key string) bool {
	r := s.active(key)
	if r == nil {
		return true
	}
	lx := theLexicon()
	wa, wb := analyze(topic).words(), analyze(r.Topic).words()
	for x := range specificOnly(wa, set(wb)) {
		for y := range specificOnly(wb, set(wa)) {
			if g := lx.altGroup[x]; g != 0 && g == lx.altGroup[y] {
				return true
			}
		}
	}
	return false
}

// topicIndex maps the canonical words of every record's topic to the
// records, per layer, for matchTopic.
type topicIndex struct {
	words map[string][]*entry // layer + "/" + word → records
}

func (ix *index) topicIx() *topicIndex {
	if ix.topics == nil {
		lx := theLexicon()
		t := &topicIndex{words: map[string][]*entry{}}
		for _, e := range ix.records() {
			seen := map[string]bool{}
			for _, w := range e.topic().words() {
				if seen[w] || lx.generic[w] {
					continue
				}
				seen[w] = true
				k := string(e.Record.Layer) + "/" + w
				t.words[k] = append(t.words[k], e)
			}
		}
		ix.topics = t
	}
	return ix.topics
}

// candidates are the records of layer that share a specific word with the
// topic's words, those sharing the most first, at most limit.
func (t *topicIndex) candidates(l debate.Layer, words []string, limit int) []*entry {
	count := map[*entry]int{}
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		for _, e := range t.words[string(l)+"/"+w] {
			count[e]++
		}
	}
	out := make([]*entry, 0, len(count))
	for e := range count {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// topic is the analysis of the entry's record topic, computed once.
func (e *entry) topic() *analysis {
	e.topicOnce.Do(func() { e.topicA = analyze(e.Record.Topic) })
	return e.topicA
}

// String is a one-line summary of the result.
func (r *CheckResult) String() string {
	switch r.Status {
	case CheckConflict:
		return fmt.Sprintf("conflict with %s: the filed consensus is %q (%s)", r.Record.Path, r.Record.FinalPosition, strings.Join(r.Comparison.Differences, "; "))
	case CheckUnclear:
		return fmt.Sprintf("unclear against %s: the filed consensus is %q (%s)", r.Record.Path, r.Record.FinalPosition, strings.Join(r.Comparison.Differences, "; "))
	case CheckConsistent:
		return fmt.Sprintf("consistent with %s", r.Record.Path)
	case CheckOpen:
		return fmt.Sprintf("open: %s records %s without a binding position", r.Record.Path, r.Record.Verdict)
	}
	return fmt.Sprintf("none: no consensus filed for %s/%s", r.Layer, r.Slug)
}
