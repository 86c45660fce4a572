package consensus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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
	// CheckTampered: the active record's debate does not verify against
	// its seal (the record, its transcript or another of its files was
	// changed after filing): it binds nothing until it does. The caller
	// must not proceed (the CLI exits 3).
	CheckTampered CheckStatus = "tampered"
)

// SealChecker tells whether the debate a record was filed from still
// verifies against its seal, the record included: nil when it does, else
// an error saying which file differs. The CLI, the MCP server and the web
// pages provide one over the parley root.
type SealChecker interface {
	CheckSeal(ctx context.Context, r *Record) error
}

// WithSealCheck makes Check verify the active record's seal before
// answering consistent, conflict or open.
func WithSealCheck(c SealChecker) Option { return func(s *Store) { s.seal = c } }

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
	// Problem says why a Tampered record's seal fails.
	Problem string
	// Unsealed says why the record's seal could not be checked (its
	// debate is not under the root: ErrNoSeal), "" when it was.
	Unsealed string
}

// Check answers whether a filed consensus settles a question before a
// decision. It finds the active record of the question in the same layer
// by meaning (TopicScore at least TopicThreshold, the best one wins; the
// same slug always matches), and compares the position with the record's
// final position (ComparePositions). It always lists related records. A
// record edited in place is read again before it is used. With
// WithSealCheck, a record whose seal fails is CheckTampered whatever it
// says.
func (s *Store) Check(ctx context.Context, layer debate.Layer, topic, position string) (*CheckResult, error) {
	res, err := retryLost(ctx, s, func() (*CheckResult, error) { return s.checkUnsealed(ctx, layer, topic, position) })
	if err != nil || res.Record == nil || s.seal == nil {
		return res, err
	}
	// Outside the store's lock: the seal check reads the records too.
	switch err := s.seal.CheckSeal(ctx, res.Record); {
	case errors.Is(err, ErrNoSeal):
		res.Unsealed = err.Error()
	case err != nil:
		res.Status, res.Problem = CheckTampered, err.Error()
	}
	return res, nil
}

// checkUnsealed is Check without the seal.
func (s *Store) checkUnsealed(ctx context.Context, layer debate.Layer, topic, position string) (*CheckResult, error) {
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
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	res := &CheckResult{Layer: l, Slug: TopicSlug(topic), Topic: topic, Position: position}
	// The question as the words it says (an agent's framing, markup and
	// configuration syntax read; see voice.go), unless its topic is a
	// record's own.
	position = voicePosition(position)
	if s.active(string(l)+"/"+res.Slug) == nil {
		topic = voiceTopic(topic)
	}
	// The records that share the rarest words of the question and its
	// position: the related records of the answer, and candidates for the
	// question that share too few words of its topic to be found by them.
	query := topic + "\n" + position
	q := analyze(questionText(topic))
	// The document frequencies the search and the topic lookup read, in
	// one query rather than one each.
	keys := []string{"#docs", "#terms"}
	for _, t := range queryTerms(query) {
		keys = append(keys, "s:"+t)
	}
	for _, t := range specificTokens(placeWords(q)) {
		keys = append(keys, "t:"+t)
	}
	s.prefetchDF(ctx, keys)
	hits := s.search(ctx, query, relatedLimit+1, nil, relatedSearch, byName)
	asked := position
	if s.active(string(l)+"/"+res.Slug) == nil {
		// The question's abbreviations and compounds of the words of the
		// record it most likely asks about, written as that record writes
		// them (bridge).
		if i := slices.IndexFunc(hits, func(h Hit) bool { return h.Record.Layer == l && h.Record.Status == StatusActive }); i >= 0 {
			rec := hits[i].Record.Topic + "\n" + hits[i].Record.FinalPosition
			if t := bridge(topic, rec); t != topic {
				topic, q = t, analyze(questionText(t))
			}
			asked = bridge(position, rec)
		}
	}
	m := s.matchTopic(ctx, l, q, topic, asked, hits)
	if m.key != "" {
		var chain []string
		for _, r := range s.chain(m.key) {
			chain = append(chain, r.Name+".md")
		}
		if s.touch(ctx, chain) {
			m = s.matchTopic(ctx, l, q, topic, asked, hits)
		}
	}
	key, score := m.key, m.score
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
	} else if h := s.head(string(l) + "/" + res.Slug); h != nil && h.Status != StatusActive {
		// The question's current record says it is not active, though no
		// record supersedes it (headOf): its status was changed by hand,
		// which is no supersession. It is still the question's record,
		// never "none"; the seal check says whether it binds.
		cp := *h
		res.Record, res.TopicScore = &cp, 1
	}
	switch {
	case res.Record == nil:
		res.Status = CheckNone
	case !res.Record.Binding():
		res.Status = CheckOpen
	case debate.PositionHash(res.Position) == res.Record.FinalPositionHash || debate.PositionHash(position) == res.Record.FinalPositionHash:
		res.Status = CheckConsistent
		res.Comparison = Comparison{Agreement: Agree, Score: 1}
	default:
		// The record's position read as the question's is: a record filed
		// in an agent's voice reads the same.
		filed := voicePosition(res.Record.FinalPosition)
		res.Comparison = ComparePositionsOn(res.Record.Topic, filed, position)
		res.Status = statusOf(res.Comparison.Agreement)
		if res.Status == CheckConflict && m.key == key && m.byEvidence && res.Comparison.Score >= backedScore &&
			numbersKept(filed, position) {
			// Found by its position alone, a position that says much of
			// what the record says, every number of it included, may
			// differ in the case it asks about rather than in the rule:
			// parley cannot tell which.
			res.Status = CheckUnclear
		}
		if res.TopicScore < strayTopic && res.Comparison.Score < strayScore {
			// A topic found only near and a position that speaks of
			// other things: another question about the same object (its
			// payment deadline, not its rate), not a change of this one.
			res.Record, res.Status, res.Comparison = nil, CheckNone, Comparison{}
		}
		if res.Status == CheckConflict && m.key == key && m.reworded {
			// Found as a question in words of its own, the record may
			// still not be the question asked: a change read against it
			// blocks as unclear (exit 3 unless --lenient; a judge model,
			// when set, decides) rather than as a conflict.
			res.Status = CheckUnclear
		}
	}
	self := ""
	if res.Record != nil {
		self = res.Record.Name
	}
	for _, h := range hits {
		if h.Record.Name != self && len(res.Related) < relatedLimit {
			if h.Record.Status == StatusActive {
				h.TopicScore = round2(m.scored[h.Record.key()])
			}
			res.Related = append(res.Related, h)
		}
	}
	return res, nil
}

// strayTopic and strayScore: a record whose topic scores below
// strayTopic and whose final position shares less than strayScore of the
// question's content (contentScore) answers another question about the
// same object (see check). Chosen on the meaning sets read so far: of the
// values tried (0.7 to 0.9, 0.3 to 0.35) the one that lost the fewest
// conflicts, one, for 28 near misses kept out.
const (
	strayTopic = 0.7
	strayScore = 0.3
)

func statusOf(a Agreement) CheckStatus {
	switch a {
	case Agree:
		return CheckConsistent
	case Disagree:
		return CheckConflict
	}
	return CheckUnclear
}

// topicMatch is what matchTopic found.
type topicMatch struct {
	key   string  // the question's key, "" when none reached TopicThreshold
	score float64 // the best score
	// scored are the scores of the questions matchTopic scored, by key.
	scored map[string]float64
	// byEvidence: the question was found by its distinctive terms alone
	// (evidenceMatch), its topic named too little of the record's;
	// reworded: found so as the record's question in words of its own
	// (rewordedQuestion), less surely.
	byEvidence, reworded bool
}

// matchTopic finds the question a topic asks among the active records of
// layer: the record with the same slug, else the best score at or above
// TopicThreshold among the candidates: the topicCandidates records that
// share the most specific words with the topic, scored by TopicScore, and
// for the closest few below the threshold and the records of layer among
// hits (found by the words of the question and its position together),
// by what the question and its position cover of the record's topic and
// final position (positionScore). q is the topic's analysis
// (analyze(questionText(topic))). Callers hold s.mu.
func (s *Store) matchTopic(ctx context.Context, l debate.Layer, q *analysis, topic, position string, hits []Hit) topicMatch {
	if key := string(l) + "/" + TopicSlug(topic); s.active(key) != nil {
		return topicMatch{key: key, score: 1, scored: map[string]float64{key: 1}}
	}
	cands := s.topicCandidates(ctx, l, placeWords(q), topicCandidates)
	var fromHits []int
	for _, h := range hits {
		r := &h.Record
		if r.Layer != l || r.Status != StatusActive {
			continue
		}
		if i := slices.IndexFunc(cands, func(c candidate) bool { return c.key == r.key() }); i >= 0 {
			fromHits = append(fromHits, i)
			continue
		}
		fromHits = append(fromHits, len(cands))
		cands = append(cands, candidate{key: r.key(), topic: *wordsOnly(analyze(r.Topic))})
	}
	scores := make([]float64, len(cands))
	qt := questionText(topic)
	for i := range cands {
		scores[i] = topicScore(q, &cands[i].topic)
		if sc := s.spelledScore(qt, cands[i].key); sc > scores[i] {
			scores[i] = sc
		}
	}
	raised := s.coverBelowThreshold(q, position, cands, scores, fromHits)
	m := topicMatch{scored: map[string]float64{}}
	best := -1
	for i, c := range cands {
		m.scored[c.key] = scores[i]
		if sc := scores[i]; sc > m.score || sc == m.score && c.key < m.key {
			m.key, m.score, best = c.key, sc, i
		}
	}
	if best >= 0 && raised[best] && m.score >= TopicThreshold {
		// Found by what the position says: another record that the
		// position fits about as well makes it no answer (two records
		// with the same rule, "cheddar" and "gouda" aged alike).
		for i, sc := range scores {
			if i != best && sc >= TopicThreshold && sc > m.score-positionMargin {
				m.key, m.score = "", 0
				break
			}
		}
	}
	if m.key != "" && m.score >= TopicThreshold && s.clashes(q, m.key) {
		// The index keeps a topic's words only: the best one read whole
		// may ask another question ("weekly rest" for "daily rest").
		m.score *= clashFactor
		m.scored[m.key] = m.score
	}
	if m.score < TopicThreshold {
		// No topic is close enough: the question's distinctive terms
		// may still point to one record.
		if ev := s.evidenceMatch(ctx, l, q, topic, position, hits); ev.key != "" && !s.clashes(q, ev.key) {
			m.key, m.score = ev.key, ev.score
			m.scored[ev.key] = ev.score
			m.byEvidence, m.reworded = true, ev.reworded
		}
	}
	if m.score < TopicThreshold || s.active(m.key) == nil {
		m.key = ""
	}
	return m
}

// spelledScore is the topic score of the question qt (questionText) and
// the active record key read with the acronyms one spells out in the
// other as their words (spelledTopics), or 0 when neither holds one the
// other spells. Callers hold s.mu.
func (s *Store) spelledScore(qt, key string) float64 {
	r := s.active(key)
	if r == nil || !hasAcronym(qt) && !hasAcronym(r.Topic) {
		return 0
	}
	q2, r2, ok := spelledTopics(qt, questionText(r.Topic))
	if !ok {
		return 0
	}
	return topicScore(analyze(q2), wordsOnly(analyze(r2)))
}

// clashes reports whether the question q and the topic of the active
// record key clash (topicClash). Callers hold s.mu.
func (s *Store) clashes(q *analysis, key string) bool {
	r := s.active(key)
	return r != nil && topicClash(q, analyze(r.Topic))
}

// wordsOnly is a as the index keeps a topic: its canonical words alone.
func wordsOnly(a *analysis) *analysis {
	out := &analysis{}
	for _, w := range placeWords(a) {
		out.terms = append(out.terms, term{w: w, cond: -1})
	}
	return out
}

// coverBelowThreshold raises the scores of the few candidates closest
// below TopicThreshold, and when none reaches it of those at extra (found
// by the question's position), to their positionScore when it is higher,
// and returns the indexes of those it raised. Callers hold s.mu.
func (s *Store) coverBelowThreshold(q *analysis, position string, cands []candidate, scores []float64, extra []int) (raised map[int]bool) {
	raised = map[int]bool{}
	if position == "" {
		return raised
	}
	idx := make([]int, 0, len(cands))
	for i, sc := range scores {
		if sc >= coverFloor && sc < TopicThreshold && !slices.Contains(extra, i) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(scores[y], scores[x]) })
	idx = idx[:min(len(idx), coverCandidates)]
	if !slices.ContainsFunc(scores, func(sc float64) bool { return sc >= TopicThreshold }) {
		// The topic's words found no question: the records its position
		// found may be it.
		idx = append(idx, extra[:min(len(extra), coverCandidates)]...)
	}
	var qp *analysis
	var qw, qpw []string
	for _, i := range idx {
		r := s.active(cands[i].key)
		if r == nil || scores[i] >= TopicThreshold {
			continue
		}
		if qp == nil {
			qp = analyze(position)
			qw = topicWords(q)
			qpw = topicWords(qp)
		}
		if coverShare(topicWords(&cands[i].topic), qw, qpw) == 0 {
			// The question names nothing of the record's topic: it is
			// not its question, whatever the positions share (and the
			// record's position need not be read).
			continue
		}
		ps, rf := 0.0, analyze(r.FinalPosition)
		if r.Binding() {
			ps = contentScore(qp, rf)
		}
		c := coverOf(q, qp, &cands[i].topic, rf)
		// Aligned only when it can matter: a position that keeps the
		// filed sentence names another object in it (restatesRule).
		c.reworded = c.foreign && !c.known && !alignTexts(r.FinalPosition, position).edit
		if sc := positionScore(c, ps); sc > scores[i] {
			scores[i], raised[i] = sc, true
		}
	}
	return raised
}

// candidate is a question that may be the one asked.
type candidate struct {
	key   string
	topic analysis // its canonical words only
}

// topicCandidates are the questions of layer whose active record's topic
// shares specific words with words, at most limit. Callers hold s.mu.
//
// In a small vault, or when the words are rare, they are the records with
// any of the rarest words, best first by BM25 (the topics table, FTS5).
// When those words are common (more than topicPostings records between
// them), reading every record that has one, or weighing them by BM25
// (which counts every record of each word), would cost a pass over much
// of the vault; then the candidates are the records with the same
// specific words (an indexed key: rewordings, other forms of the
// question), else those with all the words (an intersection, which stops
// at limit) and those that lack just one of them (the key again). A
// record that shares fewer of a question's specific words scores below
// TopicThreshold anyway.
func (s *Store) topicCandidates(ctx context.Context, l debate.Layer, words []string, limit int) []candidate {
	specific := specificTokens(words)
	// By the rarest words first: a word in more than a fifth of the
	// records (at least 500) finds too many to rank cheaply.
	docs := s.df(ctx, "#docs")
	rare := s.rarest(ctx, "t:", specific, max(docs/5, 500), 6)
	if len(rare) == 0 {
		return nil
	}
	var postings int64
	for _, t := range rare {
		postings += s.df(ctx, "t:"+t)
	}
	quote := func(ts []string) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = `"` + t + `"`
		}
		return out
	}
	if postings <= topicPostings {
		return s.topicQuery(ctx, `SELECT f.qkey, f.topic_words FROM topics JOIN files f ON f.id = topics.rowid
			WHERE topics MATCH ? AND f.head = 1 ORDER BY bm25(topics) LIMIT ?`,
			nil, `"`+ftsToken("layer "+string(l))+`" AND (`+strings.Join(quote(rare), " OR ")+`)`, limit)
	}
	have := map[string]bool{}
	key := specKey(words)
	const byKey = `SELECT qkey, topic_words FROM files WHERE layer = ? AND spec_key = ? AND head = 1 LIMIT ?`
	if out := s.topicQuery(ctx, byKey, have, string(l), key, limit); len(out) > 0 {
		return out
	}
	out := s.topicQuery(ctx, `SELECT f.qkey, f.topic_words FROM topics JOIN files f ON f.id = topics.rowid
		WHERE topics MATCH ? AND f.layer = ? AND f.head = 1 LIMIT ?`, have, strings.Join(quote(rare), " AND "), string(l), limit)
	if ks := strings.Fields(key); len(ks) > 1 {
		for i := range ks[:min(len(ks), 8)] {
			fewer := strings.Join(append(append([]string{}, ks[:i]...), ks[i+1:]...), " ")
			out = append(out, s.topicQuery(ctx, byKey, have, string(l), fewer, limit)...)
		}
	}
	return out
}

// specificTokens are the words of a question that are not generic, as
// FTS5 tokens, once each, at most maxQueryTerms.
func specificTokens(words []string) []string {
	lx := theLexicon()
	var specific []string
	seen := map[string]bool{}
	for _, w := range words {
		if t := ftsToken(w); !lx.generic[w] && !seen[t] && len(specific) < maxQueryTerms {
			seen[t] = true
			specific = append(specific, t)
		}
	}
	return specific
}

// topicPostings bounds, roughly, the topic rows a lookup reads (see
// topicCandidates); a variable for tests.
var topicPostings int64 = 500

// topicQuery runs a query for (qkey, topic_words) rows, skipping the
// questions in have (and adding the rest to it, when have is not nil).
func (s *Store) topicQuery(ctx context.Context, query string, have map[string]bool, args ...any) []candidate {
	rows, err := s.query(ctx, query, args...)
	if err != nil {
		s.log.Warn("consensus: topic lookup failed", "path", CacheFile, "err", err)
		return nil
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		var ws string
		if rows.Scan(&c.key, &ws) != nil || have[c.key] {
			continue
		}
		if have != nil {
			have[c.key] = true
		}
		for _, w := range strings.Fields(ws) {
			c.topic.terms = append(c.topic.terms, term{w: w, cond: -1})
		}
		out = append(out, c)
	}
	return out
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
	case CheckTampered:
		return fmt.Sprintf("tampered: %s does not verify against its debate's seal: %s", r.Record.Path, r.Problem)
	}
	return fmt.Sprintf("none: no consensus filed for %s/%s", r.Layer, r.Slug)
}
