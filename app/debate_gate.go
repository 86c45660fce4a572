package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

// FieldGate names the self-critique of GateDebate in an InputError.
const FieldGate = "gate"

// GateDebate runs gate g on the self-critique sc (read from source, which
// the log names) before debate s, and records the decision, with its cues
// and the debate id, in <root>/gate.jsonl. The self-critique's layer and
// question default to the debate's. The entry says whether to debate
// (entry.Outcome); a self-critique the gate cannot decide on is an
// *InputError.
func (a *App) GateDebate(s *debate.DebateSession, g *gating.Gate, sc gating.SelfCritique, source string) (gating.LogEntry, error) {
	if sc.Layer == "" {
		sc.Layer = s.Layer
	}
	d, err := g.Decide(sc)
	if err != nil {
		return gating.LogEntry{}, &InputError{Field: FieldGate, Err: err}
	}
	entry := gating.NewLogEntry(d, sc, source, time.Now())
	entry.DebateID = s.ID
	if entry.Question == "" {
		entry.Question = s.Topic
	}
	return entry, a.appendGateLog(entry)
}

// appendGateLog appends a decision to <root>/gate.jsonl, creating the root
// (0700) if it is missing.
func (a *App) appendGateLog(e gating.LogEntry) error {
	if err := os.MkdirAll(a.root, 0o700); err != nil {
		return fmt.Errorf("create root: %w", err)
	}
	root, err := os.OpenRoot(a.root)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := gating.AppendLog(root, e); err != nil {
		return fmt.Errorf("%s: %w (the decision was not recorded)", a.root, err)
	}
	return nil
}

// gateFor is the gate of a mode: the rules, or the model of
// <root>/gate/model.json (from "parley gate learn") when there is one,
// else the embedded one.
func (a *App) gateFor(mode string) (*gating.Gate, error) {
	m, err := gating.ParseMode(mode)
	if err != nil {
		return nil, err
	}
	if m == gating.ModeRules {
		return gating.Rules(), nil
	}
	path := filepath.Join(a.root, gating.ModelName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return gating.Default(), nil
	}
	if err != nil {
		return nil, err
	}
	g, err := gating.LoadModelFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (remove it with: parley gate learn --reset)", path, err)
	}
	return g, nil
}
