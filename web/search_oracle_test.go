package web

import (
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/transcripts"
)

// The search of the debates as it was before transcripts.Searcher, kept
// as the oracle the Searcher must agree with: it reads every debate's
// transcript afresh for every query.
const (
	maxDebateHits = transcripts.MaxSearchHits
	maxSearched   = transcripts.MaxSearched
)

// searchAfresh finds the debates that hold every word of q (ignoring
// case) in their topic, their turns' positions, counters and texts, or
// their verdict's reason and final position, newest first. more reports
// that it stopped at maxDebateHits or maxSearched with debates left unread.
func searchAfresh(debates *transcripts.Store, q string) (hits []transcripts.SearchHit, more bool, err error) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil, false, nil
	}
	list, err := debates.List()
	if err != nil {
		return nil, false, err
	}
	for i, sum := range list {
		if len(hits) == maxDebateHits || i == maxSearched {
			return hits, true, nil
		}
		if oracleContainsAll(strings.ToLower(sum.Topic), words) {
			hits = append(hits, transcripts.SearchHit{Debate: sum})
			continue
		}
		t, err := debates.Read(sum.DebateID)
		if err != nil {
			continue // a debate that cannot be read is not a hit
		}
		if h, ok := oracleView(transcripts.NewView(t), words); ok {
			h.Debate = sum
			hits = append(hits, h)
		}
	}
	return hits, false, nil
}

// oracleField is one searchable text of a debate; unverified when it is read
// from past the first bad line of a tampered transcript.
type oracleField struct {
	where, text, anchor string
	unverified          bool
}

// oracleView reports whether every word is somewhere in the debate, and
// names the oracleField that holds the most of them.
func oracleView(v *transcripts.View, words []string) (transcripts.SearchHit, bool) {
	oracleFields := []oracleField{{where: "topic", text: v.Topic}, {where: "opening position", text: v.OpeningPosition}}
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			if e.Turn == nil {
				continue
			}
			at := "#line-" + strconv.Itoa(e.Line)
			who := "round " + strconv.Itoa(r.N) + ", " + e.Turn.Agent
			oracleFields = append(oracleFields, oracleField{who + "'s position", e.Turn.Position, at, e.Unverified}, oracleField{who + "'s counter", e.Turn.CounterTo, at, e.Unverified},
				oracleField{who + "'s argument", e.Turn.Text, at, e.Unverified})
		}
	}
	if o := v.Verdict; o != nil {
		bad := v.VerdictUnverified()
		oracleFields = append(oracleFields, oracleField{"final position", o.FinalPosition, "#verdict", bad}, oracleField{"verdict", o.Reason, "#verdict", bad})
	}
	var all strings.Builder
	for _, f := range oracleFields {
		all.WriteString(strings.ToLower(f.text))
		all.WriteByte('\n')
	}
	if !oracleContainsAll(all.String(), words) {
		return transcripts.SearchHit{}, false
	}
	best, bestN := oracleFields[0], -1
	for _, f := range oracleFields {
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
	return transcripts.SearchHit{Where: best.where, Snippet: oracleSnippet(best.text, words[0]), Anchor: best.anchor, Unverified: best.unverified}, true
}

func oracleContainsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// oracleSnippet is about 160 characters of text around the first place
// word is (with the rune index of the match in the text itself, as the
// Searcher's snippet has it since the fix for text whose lower case has
// another length).
func oracleSnippet(text, word string) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	at := -1
	for k := range r {
		if strings.HasPrefix(strings.ToLower(string(r[k:])), word) {
			at = k
			break
		}
	}
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
