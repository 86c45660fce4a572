package gating

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/vocab"
)

// LogName is the gate's telemetry file under the parley root (SPEC §3).
const LogName = "gate.jsonl"

// MaxLogLine bounds one line of gate.jsonl when it is read back; a longer
// line counts as bad.
const MaxLogLine = 1 << 20

// MaxLoggedInput bounds the self-critique a gate.jsonl line keeps for
// labelling later, as it is written in the line (JSON-escaped: a '<' takes
// six bytes, a newline two): a larger one is decided and logged without
// it, so that a line stays well under MaxLogLine.
const MaxLoggedInput = 256 << 10

// LogEntry is one line of gate.jsonl: a decision, when it was made, and
// where its input came from.
type LogEntry struct {
	// ID is the decision's short id (8 hex digits), by which "parley gate
	// label --decision" labels it.
	ID   string `json:"id,omitempty"`
	Time string `json:"time"` // RFC 3339, UTC, milliseconds
	Decision
	// Source names the input: a file path, "-" for standard input, or a
	// caller's own label (a debate id, a task id).
	Source string `json:"source,omitempty"`
	// Question is the self-critique's question, shortened to 200 bytes.
	Question string `json:"question,omitempty"`
	// DebateID is the debate the decision opened, or would have opened
	// had it not skipped (debate run --gate).
	DebateID string `json:"debate_id,omitempty"`
	// Input is the self-critique decided on, so that the decision can be
	// labelled later and learnt from; nil when it is larger than
	// MaxLoggedInput.
	Input *SelfCritique `json:"input,omitempty"`
}

// NewLogEntry returns the entry for a decision made now on sc. It keeps
// sc for labelling later when sc, JSON-encoded, is at most
// MaxLoggedInput bytes.
func NewLogEntry(d Decision, sc SelfCritique, source string, now time.Time) LogEntry {
	e := LogEntry{
		ID:       NewDecisionID(),
		Time:     now.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		Decision: d, Source: source, Question: clip.Line(sc.Question, 201),
	}
	size := len(sc.Question) + len(sc.InitialAnswer) + len(sc.Reasoning) + len(sc.Critique) + len(sc.FinalAnswer)
	for _, r := range sc.EvidenceRefs {
		size += len(r)
	}
	if size > MaxLoggedInput {
		return e
	}
	in := sc
	in.Parsed = nil
	// Escaping can make the line several times the text: measure it as
	// written, or a line ReadLog cannot read back loses the decision.
	if b, err := json.Marshal(in); err != nil || len(b) > MaxLoggedInput {
		return e
	}
	e.Input = &in
	return e
}

// AppendLog appends e as one JSON line to gate.jsonl under root, creating
// the file (0600) if needed, and fsyncs it before returning. The line is
// written with one write on an O_APPEND descriptor, so concurrent writers
// (other parley processes) never interleave inside a line. A torn last
// line (a crash mid-write) is ended first, so that the new line is not
// glued to it and lost with it. It is safe for concurrent use.
func AppendLog(root *os.Root, e LogEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	// A named pipe in the file's place would take the line and lose it.
	f, _, err := regfile.OpenFile(root.OpenFile, LogName, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("append %s: %w", LogName, err)
	}
	if torn(f) {
		line = append([]byte{'\n'}, line...) // at worst a blank line, which readers skip
	}
	_, err = f.Write(line)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", LogName, err)
	}
	return nil
}

// torn reports whether f's last byte is not a newline (an empty file is
// not torn).
func torn(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false
	}
	var b [1]byte
	n, err := f.ReadAt(b[:], fi.Size()-1)
	return n == 1 && err == nil && b[0] != '\n'
}

// ReadLog reads gate.jsonl. Lines that do not decode (a torn last line
// after a crash, hand edits) are skipped and counted in bad; only the
// reader's own failure is an error.
func ReadLog(r io.Reader) (entries []LogEntry, bad int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, long, rerr := readLine(br)
		if t := bytes.TrimSpace(line); len(t) > 0 || long {
			var e LogEntry
			if long || json.Unmarshal(t, &e) != nil || (e.Outcome != Debate && e.Outcome != Skip) {
				bad++
			} else {
				entries = append(entries, e)
			}
		}
		if rerr == io.EOF {
			return entries, bad, nil
		}
		if rerr != nil {
			return entries, bad, rerr
		}
	}
}

// readLine reads one line of at most MaxLogLine bytes; a longer one is
// consumed and reported as long.
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, isPrefix, rerr := br.ReadLine()
		if !long {
			line = append(line, chunk...)
			if len(line) > MaxLogLine {
				long, line = true, nil
			}
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) && (len(line) > 0 || long) {
				return line, long, nil
			}
			return line, long, rerr
		}
		if !isPrefix {
			return line, long, nil
		}
	}
}

// Stats summarises gate.jsonl against always-debate (SPEC §7).
type Stats struct {
	Decisions int     `json:"decisions"`
	Debate    int     `json:"debate"`
	Skip      int     `json:"skip"`
	SkipRate  float64 `json:"skip_rate"`
	// TokensAlwaysDebate is what debating every question would have cost at
	// each layer's token budget; TokensGated what the gate's debates cost
	// at the same rate; TokensSaved the difference.
	TokensAlwaysDebate int                   `json:"tokens_always_debate"`
	TokensGated        int                   `json:"tokens_gated"`
	TokensSaved        int                   `json:"tokens_saved"`
	SavedShare         float64               `json:"saved_share"`
	ByLayer            map[string]LayerStats `json:"by_layer"`
	ByMode             map[Mode]int          `json:"by_mode"`
	BadLines           int                   `json:"bad_lines"`
	// First and Last are the earliest and the latest decision's time as
	// logged, of the decisions whose time reads as RFC 3339; "" when none
	// does. Untimed counts the decisions whose time is missing or unreadable
	// (a hand-edited line): they count everywhere but in the range.
	First   string `json:"first,omitempty"`
	Last    string `json:"last,omitempty"`
	Untimed int    `json:"untimed,omitempty"`
}

// LayerStats is Stats for one layer ("" is reported as "unknown").
type LayerStats struct {
	Decisions   int `json:"decisions"`
	Skip        int `json:"skip"`
	Budget      int `json:"budget_tokens"`
	TokensSaved int `json:"tokens_saved"`
	// OutcomeLabelled is how many of the layer's debate decisions have an
	// outcome label (see OutcomeLabel); WorthIt how many of those the
	// debate proved worth having; Precision is WorthIt/OutcomeLabelled
	// (0 when none is labelled).
	OutcomeLabelled int     `json:"outcome_labelled"`
	WorthIt         int     `json:"worth_it"`
	Precision       float64 `json:"outcome_precision"`
}

// AddOutcomes fills in the outcome-labelled precision of s's layers from
// outcome labels (see OutcomeLabels) of the entries Summarize counted.
func (s *Stats) AddOutcomes(entries []LogEntry, outcomes []Label) {
	byID := map[string]Outcome{}
	for _, l := range outcomes {
		if l.Source == SourceOutcome && l.DecisionID != "" {
			byID[l.DecisionID] = l.Label
		}
	}
	for _, e := range entries {
		label, ok := byID[e.ID]
		if !ok || e.Outcome != Debate {
			continue
		}
		name := string(e.Layer)
		if _, known := s.ByLayer[name]; !known || name == "" {
			name = "unknown"
		}
		ls := s.ByLayer[name]
		ls.OutcomeLabelled++
		if label == Debate {
			ls.WorthIt++
		}
		ls.Precision = float64(ls.WorthIt) / float64(ls.OutcomeLabelled)
		s.ByLayer[name] = ls
	}
}

// Summarize counts decisions and estimates the tokens the skips saved:
// each skip saves its layer's maxTokens budget (budget(l)); a decision
// without a layer is priced at the smallest layer budget, so that the
// estimate errs low.
func Summarize(entries []LogEntry, bad int, budget func(vocab.Layer) int) Stats {
	s := Stats{BadLines: bad, ByLayer: map[string]LayerStats{}, ByMode: map[Mode]int{}}
	smallest := 0
	for i, l := range vocab.Layers {
		if b := budget(l); i == 0 || b < smallest {
			smallest = b
		}
	}
	var first, last time.Time
	for _, e := range entries {
		name, cost := string(e.Layer), 0
		if _, err := vocab.ParseLayer(name); err == nil && name != "" {
			cost = budget(e.Layer)
		} else {
			name, cost = "unknown", smallest
		}
		ls := s.ByLayer[name]
		ls.Decisions++
		ls.Budget = cost
		s.Decisions++
		s.ByMode[e.Mode]++
		s.TokensAlwaysDebate += cost
		if e.Outcome == Skip {
			s.Skip++
			ls.Skip++
			ls.TokensSaved += cost
		} else {
			s.Debate++
			s.TokensGated += cost
		}
		s.ByLayer[name] = ls
		t, err := time.Parse(time.RFC3339Nano, e.Time)
		if err != nil {
			s.Untimed++
			continue
		}
		if s.First == "" || t.Before(first) {
			first, s.First = t, e.Time
		}
		if s.Last == "" || t.After(last) {
			last, s.Last = t, e.Time
		}
	}
	s.TokensSaved = s.TokensAlwaysDebate - s.TokensGated
	if s.Decisions > 0 {
		s.SkipRate = float64(s.Skip) / float64(s.Decisions)
	}
	if s.TokensAlwaysDebate > 0 {
		s.SavedShare = float64(s.TokensSaved) / float64(s.TokensAlwaysDebate)
	}
	return s
}
