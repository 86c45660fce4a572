package transcripts

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// View is a debate as a reader follows it: the session, the rounds with
// every turn, rejection, forfeit and resume in order, the verdict, and the
// integrity of the transcript it was read from. Every rendering (text,
// Markdown, HTML, JSON, the web page) is made from a View, so they agree.
type View struct {
	ID              string                 `json:"debate_id"`
	Topic           string                 `json:"topic"`
	Layer           debate.Layer           `json:"layer"`
	Scope           string                 `json:"scope,omitempty"`
	Created         string                 `json:"created"`
	State           State                  `json:"state"`
	OpeningPosition string                 `json:"opening_position"`
	Participants    []debate.Participant   `json:"participants"`
	Budget          debate.ConsensusBudget `json:"budget"`
	Context         []ContextRef           `json:"context,omitempty"`
	Integrity       Integrity              `json:"integrity"`
	Rounds          []Round                `json:"rounds"`
	// Verdict is the outcome (the chain's verdict event; verdict.json when
	// the chain is broken), nil while the debate has none.
	Verdict *debate.Outcome `json:"verdict,omitempty"`
	// Record is where the outcome was filed (vault-relative), "" if not.
	Record string `json:"record,omitempty"`
	// Turns and Tokens count the recorded turns and their tokens.
	Turns  int `json:"turns"`
	Tokens int `json:"tokens"`
	// VerifyCommand is the command a reader of a tampered transcript is
	// told to run, as the caller would paste it (with its --root); empty:
	// "parley transcripts verify <id>".
	VerifyCommand string `json:"-"`

	decisions []debate.Decision
	agreed    int
}

// ContextRef is one context item handed to every turn: what it is, where
// it came from, and its text (the debated proposal, say), as session.json
// holds it.
type ContextRef struct {
	Kind  string `json:"kind"`
	Ref   string `json:"ref,omitempty"`
	Chars int    `json:"chars"`
	Text  string `json:"text,omitempty"`
}

// Round is one round of a debate; round 0 holds what came before round 1
// (a resume before the first turn).
type Round struct {
	N       int     `json:"round"`
	Entries []Entry `json:"entries"`
}

// Entry is one event a reader sees: exactly one of Turn, Rejected,
// Forfeit, Resume and Stopped is set, as Kind says.
type Entry struct {
	// Line is the transcript line the event was read from (1-based).
	Line      int                   `json:"line"`
	Kind      debate.EventKind      `json:"kind"`
	At        string                `json:"at"`
	ElapsedMs int64                 `json:"elapsed_ms"`
	Turn      *debate.TurnRecord    `json:"turn,omitempty"`
	Rejected  *debate.RejectedEvent `json:"rejected,omitempty"`
	Forfeit   *debate.ForfeitEvent  `json:"forfeit,omitempty"`
	Resume    *debate.ResumeEvent   `json:"resume,omitempty"`
	// Stopped is a clock event that says a coordinator stopped before the
	// verdict (ElapsedMs is the active time then); a clock checkpoint is
	// not an entry.
	Stopped *debate.ClockEvent `json:"stopped,omitempty"`
	// Decision is what the debate decided a turn or forfeit counted as
	// (debate.Decision): shown as it is, never worked out here.
	Decision *debate.Decision `json:"decision,omitempty"`
	// Unverified is set on every entry at or after the first bad line of a
	// tampered transcript: what it says cannot be trusted.
	Unverified bool `json:"unverified,omitempty"`
}

// LinksEvidence reports whether the entry's evidence references may be
// links: only a verified turn's may. An unverified turn's references, and
// the check results beside them, are what the file now says rather than
// what the debate checked: pages show them as text, marked unverified, and
// the evidence view (package web) does not serve them.
func (e *Entry) LinksEvidence() bool { return e.Turn != nil && !e.Unverified }

// VerdictUnverified reports whether the verdict cannot be trusted: the
// chain breaks before its end, so neither its verdict event nor
// verdict.json (which nothing verified can vouch for) is as recorded.
func (v *View) VerdictUnverified() bool {
	return v.Verdict != nil && !v.Integrity.Intact && v.Integrity.BadLine > 0
}

// Integrity is what verification found.
type Integrity struct {
	// Intact is true when the whole chain verified (and agrees with
	// verdict.json when there is one).
	Intact bool `json:"intact"`
	// Sealed says verdict.json was there to check the end against.
	Sealed bool `json:"sealed"`
	// Events is how many lines verified; Head the hash of the last one.
	Events int    `json:"events"`
	Head   string `json:"head"`
	// BadLine and Problem name the first bad line of a tampered transcript.
	BadLine int    `json:"bad_line,omitempty"`
	Problem string `json:"problem,omitempty"`
	// Page is the comparison with the debate's vault page, when a caller
	// made one (see CheckPage).
	Page *PageCheck `json:"page,omitempty"`
	// Files is every file of the debate checked against the seal, when
	// the view was made from an Audit; Signature the seal's signature.
	Files     []FileCheck `json:"files,omitempty"`
	Signature SigStatus   `json:"signature,omitempty"`
}

// RefusesResume reports whether "debate resume" refuses a debate of this
// integrity: its files disagree with its seal, unless all that is wrong
// is a sealed debate's missing verdict.json, which resume writes again
// from the chain. Whoever points a reader at resume asks it first.
func (i Integrity) RefusesResume() bool {
	return i.Tampered() && !OnlyVerdictMissing(i.Files)
}

// Tampered reports whether the transcript, or any file checked against
// its seal, does not verify.
func (i Integrity) Tampered() bool {
	return !i.Intact || (i.Page != nil && i.Page.Status == PageDiffers) || FirstBad(i.Files) != nil || i.Signature.Bad()
}

// Summary is the integrity in a few words, as a badge shows it.
func (i Integrity) Summary() string {
	switch {
	case !i.Intact:
		return fmt.Sprintf("tampered at line %d", i.BadLine)
	case FirstBad(i.Files) != nil:
		f := FirstBad(i.Files)
		return path.Base(f.File) + " " + string(f.Status)
	case i.Page != nil && i.Page.Status == PageDiffers:
		return "vault page differs"
	case i.Signature == SigInvalid:
		return "signature invalid"
	case i.Signature == SigMissing:
		return "seal not signed"
	case i.Sealed:
		return "verified"
	}
	return "verified so far"
}

// Label is the integrity as the lists of debates show it (the integrity
// key of "debate list --json" and "debate status --json"): Summary, in
// capitals as TAMPERED when the chain or a file does not verify.
func (i Integrity) Label() string {
	switch {
	case !i.Intact:
		return fmt.Sprintf("TAMPERED at line %d", i.BadLine)
	case i.Tampered():
		return "TAMPERED: " + i.Summary()
	}
	return i.Summary()
}

// Trouble says in a sentence what is wrong, naming the file; "" when
// nothing is.
func (i Integrity) Trouble() string {
	if f := FirstBad(i.Files); f != nil {
		return f.File + " " + string(f.Status) + ": " + f.Problem
	}
	switch {
	case !i.Intact:
		return fmt.Sprintf("line %d %s", i.BadLine, i.Problem)
	case i.Page != nil && i.Page.Status == PageDiffers:
		return i.Page.Problem
	case i.Signature == SigInvalid:
		return "verdict.json's signature was not made by the configured key (the seal was rewritten)"
	case i.Signature == SigMissing:
		return "verdict.json is not signed although a public key is configured"
	}
	return ""
}

// IntegrityOf is what the audit of t found, as NewView(t).Integrity has
// it, without laying out the debate: what a listing, a badge or a check
// before resuming needs. Laying out a debate of many rounds (NewView)
// costs far more than reading it.
func IntegrityOf(t *Transcript) Integrity {
	var in Integrity
	if r := t.Report; r != nil {
		in = Integrity{Intact: r.Intact, Sealed: r.Sealed, Events: r.Events, Head: r.Head, BadLine: r.BadLine, Problem: r.Problem}
	}
	in.Files, in.Signature = t.Audit, t.Signature
	return in
}

// NewView builds the view of a transcript as Read returned it. Events that
// do not decode are left out; on a tampered transcript, entries from the
// first bad line on are marked Unverified.
func NewView(t *Transcript) *View {
	s := t.Session
	v := &View{
		ID: s.ID, Topic: s.Topic, Layer: s.Layer, Scope: s.Scope, Created: s.Created, State: t.State,
		OpeningPosition: s.OpeningPosition(), Participants: s.Participants, Budget: s.Budget,
	}
	for _, c := range s.Context {
		v.Context = append(v.Context, ContextRef{Kind: c.Kind, Ref: c.Ref, Chars: len([]rune(c.Text)), Text: c.Text})
	}
	v.Integrity = IntegrityOf(t)
	bad := 0
	if !v.Integrity.Intact && v.Integrity.BadLine > 0 {
		bad = v.Integrity.BadLine
	}
	cur := -1 // index in v.Rounds of the round being filled
	at := func(round int) *Round {
		if cur >= 0 && v.Rounds[cur].N == round {
			return &v.Rounds[cur]
		}
		for i := range v.Rounds {
			if v.Rounds[i].N == round {
				cur = i
				return &v.Rounds[i]
			}
		}
		v.Rounds = append(v.Rounds, Round{N: round})
		cur = len(v.Rounds) - 1
		return &v.Rounds[cur]
	}
	// current is the round being filled: an entry between rounds (a resume,
	// a stop) goes with the round before it.
	current := func() int {
		if cur < 0 {
			return 0
		}
		return v.Rounds[cur].N
	}
	var fromEvents *debate.Outcome
	for _, e := range t.Events {
		en := Entry{Line: e.Seq, Kind: e.Kind, At: e.At, ElapsedMs: e.ElapsedMs, Unverified: bad > 0 && e.Seq >= bad}
		round := 0
		switch e.Kind {
		case debate.EventTurn:
			var tr debate.TurnRecord
			if json.Unmarshal(e.Data, &tr) != nil {
				continue
			}
			if tr.Text != "" {
				// A turn sent without an argument travels with a Markdown
				// rendering of itself as its text; that is not an argument.
				bare := tr.Turn
				bare.Text = ""
				if strings.TrimSpace(tr.Text) == strings.TrimSpace(debate.RenderTurn(&bare)) {
					tr.Text = ""
				}
			}
			en.Turn, round = &tr, tr.Round
			v.Turns++
			v.Tokens += tr.Tokens
		case debate.EventRejected:
			var r debate.RejectedEvent
			if json.Unmarshal(e.Data, &r) != nil {
				continue
			}
			en.Rejected, round = &r, r.Round
		case debate.EventForfeit:
			var f debate.ForfeitEvent
			if json.Unmarshal(e.Data, &f) != nil {
				continue
			}
			en.Forfeit, round = &f, f.Round
		case debate.EventResume:
			var r debate.ResumeEvent
			if json.Unmarshal(e.Data, &r) != nil {
				continue
			}
			en.Resume = &r
			round = current()
		case debate.EventClock:
			var c debate.ClockEvent
			if json.Unmarshal(e.Data, &c) != nil || c.Reason != debate.ClockStopped {
				continue
			}
			en.Stopped = &c
			round = current()
		case debate.EventVerdict:
			var o debate.Outcome
			if json.Unmarshal(e.Data, &o) == nil {
				fromEvents = &o
			}
			continue
		default:
			continue
		}
		r := at(round)
		r.Entries = append(r.Entries, en)
	}
	v.decide(s)
	// The chain's verdict event is the verdict: verdict.json only says
	// where it was filed (an audit compares the two).
	switch {
	case fromEvents != nil && bad == 0:
		v.Verdict = fromEvents
		if t.Verdict != nil {
			v.Record = t.Verdict.Record
		}
	case t.Verdict != nil:
		o := t.Verdict.Outcome
		v.Verdict, v.Record = &o, t.Verdict.Record
	case fromEvents != nil:
		v.Verdict = fromEvents
	}
	if o := v.Verdict; o != nil {
		o.Session = s
		o.Decisions, o.AgreedRound = v.decisions, v.agreed
	}
	// A record renamed since it was filed, found intact, is where it is
	// now: that is the file a reader opens.
	for _, f := range t.Audit {
		if f.FiledAs != "" && f.FiledAs == v.Record && f.Status == FileIntact {
			v.Record = f.File
		}
	}
	return v
}

// decide attaches to every turn and forfeit entry what the debate decided
// it counted as: debate.Analyze over the recorded slots, the analysis the
// coordinator applied its end rules to.
func (v *View) decide(s *debate.DebateSession) {
	o := &debate.Outcome{Session: s}
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			switch {
			case e.Turn != nil:
				o.Turns = append(o.Turns, *e.Turn)
			case e.Forfeit != nil:
				o.Forfeits = append(o.Forfeits, *e.Forfeit)
			}
		}
	}
	a := debate.Analyze(o)
	v.decisions, v.agreed = a.Decisions, a.AgreedRound
	type key struct {
		round int
		agent string
	}
	byKey := map[key]*debate.Decision{}
	for i := range a.Decisions {
		d := &a.Decisions[i]
		byKey[key{d.Round, d.Agent}] = d
	}
	for i := range v.Rounds {
		for j := range v.Rounds[i].Entries {
			e := &v.Rounds[i].Entries[j]
			switch {
			case e.Turn != nil:
				e.Decision = byKey[key{e.Turn.Round, e.Turn.Agent}]
			case e.Forfeit != nil:
				e.Decision = byKey[key{e.Forfeit.Round, e.Forfeit.Agent}]
			}
		}
	}
}

// readLenient reads every line of a transcript that decodes as an event,
// without checking hashes, for showing a tampered transcript as it now
// reads. Each event's Seq is set to the line it was read from, whatever
// the line claims. It reads at most maxLenientLines lines.
func readLenient(data []byte) []debate.Event {
	var out []debate.Event
	n := 0
	for line := range bytes.Lines(data) {
		n++
		if n > maxLenientLines {
			break
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 || len(line) > MaxLineBytes {
			continue
		}
		var r rawLine
		if json.Unmarshal(line, &r) != nil || r.Kind == "" || len(r.Data) == 0 {
			continue
		}
		out = append(out, debate.Event{Seq: n, Kind: r.Kind, At: r.At, ElapsedMs: r.ElapsedMs, Data: r.Data})
	}
	return out
}

// maxLenientLines bounds how much of a tampered transcript is shown.
const maxLenientLines = 1 << 20

// ParticipantList lists the participants as "Name (role)".
func (v *View) ParticipantList() string {
	var ps []string
	for _, p := range v.Participants {
		ps = append(ps, p.Name+" ("+string(p.Role)+", "+AgentLabel(p)+")")
	}
	return strings.Join(ps, ", ")
}

// AgentLabel says what kind of agent a participant is and what its spec
// names: "openai llama3.1:8b" (the model), "script critic.json" (the
// script's file name), "exec ./check.sh" (the command, shortened),
// "registered agent Bob" (an agent that registered itself: an MCP client,
// a long-running process).
func AgentLabel(p debate.Participant) string {
	spec := p.Agent
	if name, ok := strings.CutPrefix(spec, "@"); ok {
		return "registered agent " + name
	}
	kind, arg, ok := strings.Cut(spec, ":")
	switch {
	case spec == "":
		return "agent kind not recorded"
	case !ok:
		return spec
	case kind == "script":
		arg = path.Base(filepath.ToSlash(arg))
	case kind == "exec":
		if r := []rune(arg); len(r) > 60 {
			arg = string(r[:59]) + "…"
		}
	}
	return kind + " " + arg
}

// RedactEvidence replaces every evidence check of the view's turns with
// what an untrusted reader may learn of it (debate.EvidenceCheck.Redacted).
func (v *View) RedactEvidence() {
	for i := range v.Rounds {
		for j := range v.Rounds[i].Entries {
			if tr := v.Rounds[i].Entries[j].Turn; tr != nil && len(tr.Evidence) > 0 {
				cp := debate.RedactTurns([]debate.TurnRecord{*tr})[0]
				v.Rounds[i].Entries[j].Turn = &cp
			}
		}
	}
}

// stopDetail is why a coordinator stopped, as its clock event says.
func stopDetail(c *debate.ClockEvent) string {
	if c.Detail == "" {
		return "no reason recorded"
	}
	return c.Detail
}
