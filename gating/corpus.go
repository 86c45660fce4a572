package gating

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	json "github.com/goccy/go-json"
)

// MaxCorpusBytes bounds a labeled corpus file.
const MaxCorpusBytes = 64 << 20

// Example is one labeled self-critique of a corpus: a JSONL line with the
// self-critique's keys plus "label" ("debate" or "skip"), and optionally
// "id", "case" (the kind of example, e.g. "hard-negative") and "voice" (how
// it is written; cross-validation leaves one voice out at a time).
type Example struct {
	ID   string
	Case string
	// Voice is the way the example is written (terse, bullets, polite …);
	// leave-one-voice-out cross-validation holds out one voice at a time.
	Voice string
	// Weight scales the example in training (0 means 1).
	Weight float64
	Label  Outcome
	SelfCritique
	// source is who gave a line of labels.jsonl its label (SourceUser,
	// SourceOutcome); empty for a corpus line.
	source string
}

// exampleWire is an Example on disk, keys in a fixed order.
type exampleWire struct {
	ID                string   `json:"id,omitempty"`
	Layer             string   `json:"layer,omitempty"`
	Question          string   `json:"question,omitempty"`
	InitialAnswer     string   `json:"initial_answer,omitempty"`
	Reasoning         string   `json:"reasoning,omitempty"`
	Critique          string   `json:"critique"`
	FinalAnswer       string   `json:"final_answer,omitempty"`
	InitialConfidence *float64 `json:"initial_confidence,omitempty"`
	FinalConfidence   *float64 `json:"final_confidence,omitempty"`
	EvidenceRefs      []string `json:"evidence_refs,omitempty"`
	Label             Outcome  `json:"label"`
	Case              string   `json:"case,omitempty"`
	Voice             string   `json:"voice,omitempty"`
}

// MarshalJSON writes the example as one corpus line (without newline).
func (e Example) MarshalJSON() ([]byte, error) {
	return json.Marshal(exampleWire{
		ID: e.ID, Layer: string(e.Layer), Question: e.Question, InitialAnswer: e.InitialAnswer,
		Reasoning: e.Reasoning, Critique: e.Critique, FinalAnswer: e.FinalAnswer,
		InitialConfidence: e.InitialConfidence, FinalConfidence: e.FinalConfidence,
		EvidenceRefs: e.EvidenceRefs, Label: e.Label, Case: e.Case, Voice: e.Voice,
	})
}

// ParseExample reads one corpus line: a row "parley gate label" takes
// (ParseLabelLine), the self-critique's fields read strictly (as for
// ParseJSON) or {"layer","text"}, and the label debate or skip. A file of
// labels can so be measured and trained on as it is.
func ParseExample(line []byte) (Example, error) {
	return ParseLabelLine(line)
}

// LabelError is the error of a line whose "label" is missing or other
// than debate or skip; errors.Is(err, ErrCorpus) holds, and its message
// does not say "invalid corpus" again inside ReadCorpus's.
type LabelError struct{ Value string }

func (e *LabelError) Error() string {
	if e.Value == "" {
		return `no label: add "label": "debate" or "label": "skip"`
	}
	return fmt.Sprintf("label %q is not debate or skip", e.Value)
}

// Is makes a LabelError an ErrCorpus.
func (e *LabelError) Is(target error) bool { return target == ErrCorpus }

// parseLabel is ParseOutcome for the "label" of a corpus or label line.
func parseLabel(s string) (Outcome, error) {
	o, err := ParseOutcome(s)
	if err != nil {
		return "", &LabelError{Value: s}
	}
	return o, nil
}

// ReadCorpus reads a JSONL corpus (blank lines and lines starting with //
// are skipped). Any bad line is an error naming its line number and
// wrapping ErrCorpus; ids, when given, must be unique. Lines of a
// labels.jsonl count as Settle counts them: a self-critique labelled again
// (a decision relabelled) counts once, with the label that stands.
func ReadCorpus(r io.Reader) ([]Example, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxCorpusBytes+1))
	var (
		out   []Example
		total int
		ids   = map[string]int{}
	)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		total += len(line)
		if total > MaxCorpusBytes {
			return nil, fmt.Errorf("%w: %w: larger than %d bytes", ErrCorpus, ErrTooLarge, MaxCorpusBytes)
		}
		t := bytes.TrimSpace(line)
		if lineNo == 1 {
			t = bytes.TrimPrefix(t, utf8BOM)
		}
		if len(t) > 0 && !bytes.HasPrefix(t, []byte("//")) {
			if len(t) > MaxInputBytes {
				return nil, fmt.Errorf("%w: line %d: %w", ErrCorpus, lineNo, ErrTooLarge)
			}
			e, perr := ParseExample(t)
			if perr != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrCorpus, lineNo, perr)
			}
			if e.ID != "" {
				if prev, dup := ids[e.ID]; dup {
					return nil, fmt.Errorf("%w: line %d: id %q repeats line %d", ErrCorpus, lineNo, e.ID, prev)
				}
				ids[e.ID] = lineNo
			}
			out = append(out, e)
		}
		if err == io.EOF {
			return settleStored(out), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// WriteCorpus writes examples as JSONL, one per line.
func WriteCorpus(w io.Writer, examples []Example) error {
	var b strings.Builder
	for _, e := range examples {
		line, err := e.MarshalJSON()
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// settleStored drops the lines of labels.jsonl in examples that a later
// label of the same self-critique replaces (see Settle); corpus lines are
// all kept.
func settleStored(examples []Example) []Example {
	stored := make([]int, 0, len(examples))
	for i, e := range examples {
		if e.source != "" {
			stored = append(stored, i)
		}
	}
	keep := settle(len(stored), func(j int) (string, bool) {
		e := examples[stored[j]]
		return CritiqueKey(e.SelfCritique), e.source == SourceUser
	})
	if keep == nil {
		return examples
	}
	drop := make(map[int]bool, len(stored))
	for j, i := range stored {
		drop[i] = !keep[j]
	}
	out := make([]Example, 0, len(examples))
	for i, e := range examples {
		if !drop[i] {
			out = append(out, e)
		}
	}
	return out
}
