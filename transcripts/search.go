package transcripts

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/filesig"
)

// Limits of a search of the debates.
const (
	// MaxSearchHits is the most debates a search returns.
	MaxSearchHits = 50
	// MaxSearched bounds the debates one search looks at, newest first.
	MaxSearched = 2000
)

// SearchHit is a debate a search found, and where: the first place its
// words are (a turn, the verdict), with the anchor of that place on the
// debate's page ("#line-N", "#verdict"); Where is empty when the topic
// holds them.
type SearchHit struct {
	Debate                 Summary
	Where, Snippet, Anchor string
	// Unverified: the words are in a part of a tampered transcript past
	// its first bad line, which the debate's page marks unverified.
	Unverified bool
}

// Searcher searches and lists the debates of a Store from what it read
// of them before, kept current: every search or listing stats each
// debate's session.json, verdict.json and transcript.jsonl (and asks the
// lock of one without a verdict whether it runs), and reads again only
// the debates whose files changed, or that were written within the racy
// margin of the last look (filesig). Its answers are those of reading
// every debate afresh (Store.Find for its listing). It holds the
// searchable text of every debate in memory. A Searcher is safe for
// concurrent use; its searches and listings run one at a time.
type Searcher struct {
	s  *Store
	mu sync.Mutex
	// debates is what was read of each debate, by id.
	debates map[string]*searchEntry
}

// searchEntry is one debate as a Searcher last read it.
type searchEntry struct {
	sig     debateSig
	settled bool // no file was written within the racy margin of sig's look
	sum     Summary
	sumErr  error
	topic   string // sum.Topic, lower-case
	// fields are the debate's searchable texts, read on first need
	// (fieldsRead); nil when the debate cannot be read.
	fields     []field
	fieldsRead bool
}

// debateSig is what says that a debate's files are as they were.
type debateSig struct {
	session, verdict, transcript filesig.Sig
	// state is the state of a debate without a readable verdict.json,
	// which its lock decides ("" when it has a verdict).
	state State
}

// field is one searchable text of a debate; unverified when it is read
// from past the first bad line of a tampered transcript.
type field struct {
	where, text, lower, anchor string
	unverified                 bool
}

// NewSearcher makes a Searcher of the debates of s. It reads nothing until
// the first search.
func NewSearcher(s *Store) *Searcher {
	return &Searcher{s: s, debates: map[string]*searchEntry{}}
}

// Search finds the debates that hold every word of q (ignoring case) in
// their topic, their turns' positions, counters and texts, or their
// verdict's reason and final position, newest first (as List orders
// them). more reports that it stopped at MaxSearchHits or MaxSearched with
// debates left unread. A debate that cannot be read is no hit. The error
// is the listing's, or ctx's.
func (x *Searcher) Search(ctx context.Context, q string) (hits []SearchHit, more bool, err error) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil, false, nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	list, err := x.refresh(ctx)
	if err != nil {
		return nil, false, err
	}
	for i, e := range list {
		if len(hits) == MaxSearchHits || i == MaxSearched {
			return hits, true, nil
		}
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		if containsAll(e.topic, words) {
			hits = append(hits, SearchHit{Debate: e.sum})
			continue
		}
		if !e.fieldsRead {
			e.fields, e.fieldsRead = x.s.searchFields(e.sum.DebateID), true
		}
		if h, ok := match(e.fields, words); ok {
			h.Debate = e.sum
			hits = append(hits, h)
		}
	}
	return hits, false, nil
}

// refresh brings the entries up to date with the debates directory and
// returns those List would list, in its order. Callers hold x.mu.
func (x *Searcher) refresh(ctx context.Context) ([]*searchEntry, error) {
	ids, err := x.s.debateIDs()
	if err != nil || len(ids) == 0 {
		clear(x.debates)
		return nil, err
	}
	dir, err := x.s.root.Open(Dir)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	seen := make(map[string]bool, len(ids))
	list := make([]*searchEntry, 0, len(ids))
	for i, id := range ids {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		seen[id] = true
		e := x.debates[id]
		at := time.Now()
		sig, err := x.s.sigOf(dir, id, e)
		if err != nil || e == nil || !e.settled || sig != e.sig {
			old := e
			e = &searchEntry{sig: sig, settled: err == nil && sig.settled(at)}
			e.sum, e.sumErr = x.s.summary(id, true)
			if e.sumErr != nil && (old == nil || old.sumErr == nil || old.sumErr.Error() != e.sumErr.Error()) {
				x.s.log.Warn("skipped a debate directory", "debate_id", id, "err", e.sumErr)
			}
			e.topic = strings.ToLower(e.sum.Topic)
			x.debates[id] = e
		}
		if e.sumErr == nil {
			list = append(list, e)
		}
	}
	for id := range x.debates {
		if !seen[id] {
			delete(x.debates, id)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return newer(&list[i].sum, &list[j].sum) })
	return list, nil
}

// sigOf stats the files of debate id, whose directory is under dir (the
// debates directory, open). The state of a debate without a verdict.json
// (or whose verdict.json was unreadable when old was read) is asked of its
// lock.
func (s *Store) sigOf(dir *os.File, id string, old *searchEntry) (debateSig, error) {
	var sig debateSig
	for _, f := range []struct {
		name string
		to   *filesig.Sig
	}{{SessionFile, &sig.session}, {VerdictFile, &sig.verdict}, {TranscriptFile, &sig.transcript}} {
		var err error
		*f.to, err = filesig.At(int(dir.Fd()), id+"/"+f.name)
		if errors.Is(err, filesig.ErrNoAt) {
			var fi fs.FileInfo
			switch fi, err = s.root.Stat(fileOf(id, f.name)); {
			case err == nil:
				*f.to = filesig.Of(fi)
			case errors.Is(err, fs.ErrNotExist):
				err = nil
			}
		}
		if err != nil {
			return sig, err
		}
	}
	if !sig.verdict.Exists || old == nil || old.sumErr != nil || old.sum.State != StateClosed {
		var err error
		if sig.state, err = s.unsealedState(id); err != nil {
			return sig, err
		}
	}
	return sig, nil
}

// settled reports whether every file of the debate was older than the
// racy margin when it was looked at, at at.
func (d debateSig) settled(at time.Time) bool {
	return d.session.Settled(at) && d.verdict.Settled(at) && d.transcript.Settled(at)
}

// searchFields reads debate id and returns its searchable texts; nil when
// it cannot be read.
func (s *Store) searchFields(id string) []field {
	t, err := s.Read(id)
	if err != nil {
		return nil
	}
	v := NewView(t)
	fields := []field{{where: "topic", text: v.Topic}, {where: "opening position", text: v.OpeningPosition}}
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			if e.Turn == nil {
				continue
			}
			at := "#line-" + strconv.Itoa(e.Line)
			who := "round " + strconv.Itoa(r.N) + ", " + e.Turn.Agent
			fields = append(fields, field{where: who + "'s position", text: e.Turn.Position, anchor: at, unverified: e.Unverified},
				field{where: who + "'s counter", text: e.Turn.CounterTo, anchor: at, unverified: e.Unverified},
				field{where: who + "'s argument", text: e.Turn.Text, anchor: at, unverified: e.Unverified})
		}
	}
	if o := v.Verdict; o != nil {
		bad := v.VerdictUnverified()
		fields = append(fields, field{where: "final position", text: o.FinalPosition, anchor: "#verdict", unverified: bad},
			field{where: "verdict", text: o.Reason, anchor: "#verdict", unverified: bad})
	}
	for i := range fields {
		fields[i].lower = strings.ToLower(fields[i].text)
	}
	return fields
}

// match reports whether every word is in some field, and names the field
// that holds the most of them (the first of those).
func match(fields []field, words []string) (SearchHit, bool) {
	if len(fields) == 0 {
		return SearchHit{}, false
	}
	for _, w := range words {
		in := false
		for i := range fields {
			if strings.Contains(fields[i].lower, w) {
				in = true
				break
			}
		}
		if !in {
			return SearchHit{}, false
		}
	}
	best, bestN := &fields[0], -1
	for i := range fields {
		n := 0
		for _, w := range words {
			if strings.Contains(fields[i].lower, w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = &fields[i], n
		}
	}
	return SearchHit{Where: best.where, Snippet: snippet(best.text, words[0]), Anchor: best.anchor, Unverified: best.unverified}, true
}

func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// snippet is about 160 characters of text around the first place word
// (lower-case) is, ignoring case as the search does.
func snippet(text, word string) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	at := foldIndex(text, word)
	if at < 0 || len(r) <= 160 {
		return clip.Line(text, 160)
	}
	from := max(0, at-60)
	to := min(len(r), from+160)
	out := string(r[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(r) {
		out += "…"
	}
	return out
}

// foldIndex is the index, in runes of text, of the rune where word first
// is in strings.ToLower(text), -1 when it is not there. Lower-casing
// changes the length of some runes (İ is 2 bytes, its lower case 1; the
// Kelvin sign K 3, k 1; an invalid byte 1, U+FFFD 3), so a byte offset in
// the lower-case text is not one in text: the runes' lower-case lengths
// are summed up to it.
func foldIndex(text, word string) int {
	i := strings.Index(strings.ToLower(text), word)
	if i < 0 {
		return -1
	}
	n, k := 0, 0
	for _, c := range text {
		if n += utf8.RuneLen(unicode.ToLower(c)); n > i {
			return k
		}
		k++
	}
	return k
}

// Find lists the debates the filter selects, newest first, as Store.Find
// does, from what the Searcher read before, kept current as for Search.
func (x *Searcher) Find(ctx context.Context, f Filter) ([]Summary, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	list, err := x.refresh(ctx)
	if err != nil {
		return nil, err
	}
	var out []Summary
	for _, e := range list {
		if f.Match(&e.sum) {
			out = append(out, e.sum)
		}
	}
	return out, nil
}
