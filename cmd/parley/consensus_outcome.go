package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
)

// newOutcomeLoader gives "consensus file --from-debate" the outcome of a
// debate on disk. Until package transcripts lands, it reads
// <root>/debates/<id>/ itself (debateDir); the lead replaces it with the
// transcripts reader, which also verifies the hash chain.
var newOutcomeLoader = func(a *app) consensus.OutcomeLoader { return debateDir{root: a.rootDir()} }

// Limits of the debate files read here.
const (
	maxTranscriptBytes = 256 << 20
	maxEventBytes      = 16 << 20
	maxSessionBytes    = 1 << 20
)

// debateDir reads a debate's outcome from <root>/debates/<id>/: the
// session from session.json (or the transcript's open event), the turns and
// forfeits from transcript.jsonl, the verdict from its verdict event (or
// verdict.json). It does not verify the chain's hashes.
type debateDir struct{ root string }

var _ consensus.OutcomeLoader = debateDir{}

func (d debateDir) LoadOutcome(ctx context.Context, id string) (*debate.Outcome, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(d.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	dir := path.Join("debates", id)
	f, err := r.Open(path.Join(dir, "transcript.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("debate %s: no transcript under %s (see parley debate list)", id, d.root)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	o, err := decodeTranscript(ctx, io.LimitReader(f, maxTranscriptBytes))
	if err != nil {
		return nil, fmt.Errorf("debate %s: transcript.jsonl: %w", id, err)
	}
	if o.Session == nil {
		var s debate.DebateSession
		if err := readJSON(r, path.Join(dir, "session.json"), &s); err != nil {
			return nil, fmt.Errorf("debate %s: session.json: %w", id, err)
		}
		o.Session = &s
	}
	if o.Verdict == "" {
		var v debate.Outcome
		err := readJSON(r, path.Join(dir, "verdict.json"), &v)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && v.Verdict == "") {
			return nil, fmt.Errorf("debate %s: %w: no verdict yet (parley debate resume %s closes it)", id, consensus.ErrNotClosed, id)
		}
		if err != nil {
			return nil, fmt.Errorf("debate %s: verdict.json: %w", id, err)
		}
		v.Session, v.Turns, v.Forfeits = o.Session, o.Turns, o.Forfeits
		o = &v
	}
	if o.DebateID == "" {
		o.DebateID = id
	}
	if o.DebateID != id || (o.Session.ID != "" && o.Session.ID != id) {
		return nil, fmt.Errorf("debate %s: its files name debate %q", id, o.DebateID)
	}
	return o, nil
}

// transcriptEvent is one line of transcript.jsonl.
type transcriptEvent struct {
	Prev string           `json:"prev"`
	Seq  int              `json:"seq"`
	Kind debate.EventKind `json:"kind"`
	At   string           `json:"at"`
	Data json.RawMessage  `json:"data"`
}

// decodeTranscript folds a transcript's events into an Outcome: the open
// event's session, the turns and forfeits in order, the verdict event's
// outcome (Verdict stays empty when there is none). A line that does not
// decode is an error naming it.
func decodeTranscript(ctx context.Context, r io.Reader) (*debate.Outcome, error) {
	o := &debate.Outcome{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEventBytes)
	for line := 1; sc.Scan(); line++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var ev transcriptEvent
		if err := json.Unmarshal(b, &ev); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		var err error
		switch ev.Kind {
		case debate.EventOpen:
			var s debate.DebateSession
			err = json.Unmarshal(ev.Data, &s)
			o.Session = &s
		case debate.EventTurn:
			var t debate.TurnRecord
			t, err = decodeTurnRecord(ev.Data)
			o.Turns = append(o.Turns, t)
		case debate.EventForfeit:
			var f debate.ForfeitEvent
			err = json.Unmarshal(ev.Data, &f)
			o.Forfeits = append(o.Forfeits, f)
		case debate.EventVerdict:
			var v debate.Outcome
			if err = json.Unmarshal(ev.Data, &v); err == nil {
				v.Session, v.Turns, v.Forfeits = o.Session, o.Turns, o.Forfeits
				o = &v
			}
		}
		if err != nil {
			return nil, fmt.Errorf("line %d (%s): %v", line, ev.Kind, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return o, nil
}

func readJSON(r *os.Root, name string, v any) error {
	f, err := r.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSessionBytes+1))
	if err != nil {
		return err
	}
	if len(data) > maxSessionBytes {
		return fmt.Errorf("larger than %d bytes", maxSessionBytes)
	}
	return json.Unmarshal(data, v)
}

// decodeTurnRecord decodes a turn event's data. debate.TurnRecord embeds
// debate.Turn, whose UnmarshalJSON (the "claim" alias) is promoted to
// TurnRecord and would drop every field TurnRecord adds (agent, hashes,
// evidence); so the Turn and the rest are decoded separately.
func decodeTurnRecord(data []byte) (debate.TurnRecord, error) {
	var tr debate.TurnRecord
	if err := json.Unmarshal(data, &tr.Turn); err != nil {
		return tr, err
	}
	var rest struct {
		Agent           string                 `json:"agent"`
		RequestID       string                 `json:"request_id"`
		MessageID       string                 `json:"message_id"`
		PositionHash    string                 `json:"position_hash"`
		TokensEstimated bool                   `json:"tokens_estimated"`
		OverBudget      bool                   `json:"over_budget"`
		Evidence        []debate.EvidenceCheck `json:"evidence"`
	}
	if err := json.Unmarshal(data, &rest); err != nil {
		return tr, err
	}
	tr.Agent, tr.RequestID, tr.MessageID, tr.PositionHash = rest.Agent, rest.RequestID, rest.MessageID, rest.PositionHash
	tr.TokensEstimated, tr.OverBudget, tr.Evidence = rest.TokensEstimated, rest.OverBudget, rest.Evidence
	return tr, nil
}
