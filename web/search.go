package web

import (
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/transcripts"
)

// Limits of the debates' search.
const (
	maxDebateHits = 50
	// maxSearched bounds the debates whose transcripts one search reads,
	// newest first.
	maxSearched = 2000
)

// debateHit is a debate a search found, and where: the first place its
// words are (a turn, the verdict), with the anchor of that turn.
type debateHit struct {
	S                      transcripts.Summary
	Where, Snippet, Anchor string
	// Unverified: the words are in a part of a tampered transcript past
	// its first bad line, which the debate's page marks unverified.
	Unverified bool
}

// searchDebates finds the debates that hold every word of q (ignoring
// case) in their topic, their turns' positions, counters and texts, or
// their verdict's reason and final position, newest first. more reports
// that it stopped at maxDebateHits or maxSearched with debates left unread.
func (s *Server) searchDebates(q string) (hits []debateHit, more bool, err error) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil, false, nil
	}
	list, err := s.debates.List()
	if err != nil {
		return nil, false, err
	}
	for i, sum := range list {
		if len(hits) == maxDebateHits || i == maxSearched {
			return hits, true, nil
		}
		if containsAll(strings.ToLower(sum.Topic), words) {
			hits = append(hits, debateHit{S: sum})
			continue
		}
		t, err := s.debates.Read(sum.DebateID)
		if err != nil {
			continue // a debate that cannot be read is not a hit
		}
		if h, ok := searchView(transcripts.NewView(t), words); ok {
			h.S = sum
			hits = append(hits, h)
		}
	}
	return hits, false, nil
}

// field is one searchable text of a debate; unverified when it is read
// from past the first bad line of a tampered transcript.
type field struct {
	where, text, anchor string
	unverified          bool
}

// searchView reports whether every word is somewhere in the debate, and
// names the field that holds the most of them.
func searchView(v *transcripts.View, words []string) (debateHit, bool) {
	fields := []field{{where: "topic", text: v.Topic}, {where: "opening position", text: v.OpeningPosition}}
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			if e.Turn == nil {
				continue
			}
			at := "#line-" + strconv.Itoa(e.Line)
			who := "round " + strconv.Itoa(r.N) + ", " + e.Turn.Agent
			fields = append(fields, field{who + "'s position", e.Turn.Position, at, e.Unverified}, field{who + "'s counter", e.Turn.CounterTo, at, e.Unverified},
				field{who + "'s argument", e.Turn.Text, at, e.Unverified})
		}
	}
	if o := v.Verdict; o != nil {
		bad := v.VerdictUnverified()
		fields = append(fields, field{"final position", o.FinalPosition, "#verdict", bad}, field{"verdict", o.Reason, "#verdict", bad})
	}
	var all strings.Builder
	for _, f := range fields {
		all.WriteString(strings.ToLower(f.text))
		all.WriteByte('\n')
	}
	if !containsAll(all.String(), words) {
		return debateHit{}, false
	}
	best, bestN := fields[0], -1
	for _, f := range fields {
		lower := strings.ToLower(f.text)
		n := 0
		for _, w := range words {
			if strings.Contains(lower, w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = f, n
		}
	}
	return debateHit{Where: best.where, Snippet: snippet(best.text, words[0]), Anchor: best.anchor, Unverified: best.unverified}, true
}

func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// snippet is about 160 characters of text around the first place word is.
func snippet(text, word string) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	i := strings.Index(strings.ToLower(text), word)
	if i < 0 || i > len(text) || len(r) <= 160 {
		return clip.Line(text, 160)
	}
	at := len([]rune(text[:i]))
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
