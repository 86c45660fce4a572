package app

import (
	"path/filepath"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// ProgressLine is the JSON form of one event of a running debate.
type ProgressLine struct {
	Event          debate.EventKind `json:"event"`
	DebateID       string           `json:"debate_id"`
	Seq            int              `json:"seq"`
	Round          int              `json:"round"`
	MaxRounds      int              `json:"max_rounds"`
	Role           debate.Role      `json:"role,omitempty"`
	Agent          string           `json:"agent,omitempty"`
	Detail         string           `json:"detail,omitempty"`
	Tokens         int              `json:"tokens"`
	MaxTokens      int              `json:"max_tokens"`
	ElapsedMs      int64            `json:"elapsed_ms"`
	MaxWallClockMs int64            `json:"max_wall_clock_ms"`
}

// ProgressJSON is p's JSON line; ok is false for the verdict's event,
// whose line (VerdictLine) comes after filing and says it all.
func ProgressJSON(p debate.Progress) (line ProgressLine, ok bool) {
	if p.Event.Kind == debate.EventVerdict {
		return ProgressLine{}, false
	}
	return ProgressLine{
		Event: p.Event.Kind, DebateID: p.DebateID, Seq: p.Event.Seq, Round: p.Round, MaxRounds: p.MaxRounds,
		Role: p.Role, Agent: p.Agent, Detail: p.Detail, Tokens: p.Tokens, MaxTokens: p.MaxTokens,
		ElapsedMs: p.ElapsedMs, MaxWallClockMs: p.MaxWallClockMs,
	}, true
}

// VerdictLine is the closing JSON line of a debate: the debate's one JSON
// view, and where its files are.
type VerdictLine struct {
	Event string `json:"event"` // "verdict"
	debate.Summary
	Transcript string `json:"transcript"`
	Record     string `json:"record"` // "" when none was filed
}

// Verdict is the closing line of outcome o: its summary, the path of its
// transcript under the root and of its record in the vault.
func (a *App) Verdict(o *debate.Outcome) VerdictLine {
	v := VerdictLine{Event: "verdict",
		Transcript: filepath.Join(a.Root(), filepath.FromSlash(transcripts.Path(o.DebateID, transcripts.TranscriptFile)))}
	if o.Record != "" {
		v.Record = filepath.Join(a.Vault(), filepath.FromSlash(o.Record))
	}
	sess := o.Session
	if sess == nil {
		sess = &debate.DebateSession{ID: o.DebateID}
	}
	v.Summary = debate.SummaryOf(sess, o)
	return v
}
