package transcripts

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vocab"
)

// Filter selects debates in a listing. Zero fields match everything.
type Filter struct {
	Layer   debate.Layer
	Verdict debate.Verdict
	State   State
	// Since keeps debates created at or after it.
	Since time.Time
	// Text keeps debates whose topic or id contains every word of it,
	// ignoring case.
	Text string
}

// Match reports whether a debate's summary passes the filter. A debate
// without a verdict never matches a Verdict filter.
func (f Filter) Match(s *Summary) bool {
	if f.Layer != "" && s.Layer != f.Layer {
		return false
	}
	if f.Verdict != "" && s.Verdict != f.Verdict {
		return false
	}
	if f.State != "" && s.State != f.State {
		return false
	}
	if !f.Since.IsZero() {
		created, err := time.Parse(vocab.TimeLayout, s.Created)
		if err != nil || created.Before(f.Since) {
			return false
		}
	}
	if words := strings.Fields(strings.ToLower(f.Text)); len(words) > 0 {
		hay := strings.ToLower(s.Topic + "\n" + s.DebateID)
		for _, w := range words {
			if !strings.Contains(hay, w) {
				return false
			}
		}
	}
	return true
}

// Find lists the debates the filter selects, newest first (see List).
func (s *Store) Find(f Filter) ([]Summary, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for i := range all {
		if f.Match(&all[i]) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// maxSinceDays is the longest age in days a time.Duration holds.
const maxSinceDays = int(math.MaxInt64 / int64(24*time.Hour))

// ParseSince reads a --since value: a date (2026-01-31, midnight UTC), an
// RFC 3339 time, or an age before now (90m, 36h, 7d).
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	var d time.Duration
	var err error
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		days, err = strconv.Atoi(n)
		if err == nil && days > maxSinceDays {
			// In nanoseconds it would wrap round, to any age at all
			// (213504d read as 21 minutes).
			return time.Time{}, fmt.Errorf("since %q: an age is at most %dd; for an older start give a date (2000-01-01)", s, maxSinceDays)
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("since %q: use a date (2026-01-31), an RFC 3339 time, or an age such as 36h or 7d", s)
	}
	return now.Add(-d), nil
}

// progress counts the rounds so far (see roundOf) and the tokens spent in
// a transcript's events, and finds the verdict its verdict event records
// (nil when there is none), for the listing of a debate that has no
// verdict.json yet. Lines that do not decode are skipped.
func progress(data []byte) (rounds, tokens int, verdict *debate.Outcome) {
	for line := range bytes.Lines(data) {
		var r rawLine
		if json.Unmarshal(bytes.TrimSuffix(line, []byte("\n")), &r) != nil {
			continue
		}
		rounds = max(rounds, roundOf(r.Kind, r.Data))
		switch r.Kind {
		case debate.EventTurn:
			var d struct {
				Tokens int `json:"tokens"`
			}
			if json.Unmarshal(r.Data, &d) == nil {
				tokens += d.Tokens
			}
		case debate.EventVerdict:
			var o debate.Outcome
			if json.Unmarshal(r.Data, &o) == nil {
				verdict = &o
			}
		}
	}
	return rounds, tokens, verdict
}

// roundOf is the round an event begins or settles: a turn requested, taken
// or forfeited; 0 for any other event. A debate's rounds so far, wherever
// parley shows them (debate status, transcripts list, the web pages), are
// the highest roundOf its events — round 1 from the first request on —
// and, once it is closed, its verdict's count.
func roundOf(kind debate.EventKind, data []byte) int {
	switch kind {
	case debate.EventTurn, debate.EventForfeit, debate.EventRequest:
		var d struct {
			Round int `json:"round"`
		}
		if json.Unmarshal(data, &d) == nil {
			return d.Round
		}
	}
	return 0
}
