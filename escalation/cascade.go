package escalation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vocab"
)

// Gate decides whether a self-critique is worth a debate; *gating.Gate
// satisfies it.
type Gate interface {
	Decide(sc gating.SelfCritique) (gating.Decision, error)
}

var _ Gate = (*gating.Gate)(nil)

// Debater runs the debate that escalates a record.
type Debater interface {
	// Debate runs s to its verdict and returns the outcome, with Record
	// set to where it was filed. When a debate with s.ID already exists it
	// is resumed, or, closed, its outcome is returned: a debate is never
	// started twice; one of another record is ErrConflict. An error
	// wrapping ErrUnavailable means the participants could not be reached
	// and no turn was asked for; any other error means the debate did not
	// close (a later call resumes it). Whatever it returns once ctx has
	// ended is not acted on: the record is left undecided. ErrDebateGone
	// (wrapped) means no debate of s.ID exists but a record filed by one
	// does: the escalator debates under the record's next attempt id.
	Debate(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error)
}

// Lookup finds the filed consensus that already settles the question of
// a record's debate, so that a record of a task whose closure a debate
// settled is decided from that debate instead of a second one.
type Lookup interface {
	// Settled returns the closed outcome, with Record and Session set, of the debate
	// whose record settles the question of s (its layer and topic): the
	// question's active record, binding (consensus.Record.Binding), and
	// verified against its debate's seal. It returns nil when none does
	// (no record, an open question, a record that does not verify or whose
	// debate is gone) and when a debate of s.ID exists already (the
	// Debater's to resume or read). When the question's record was found
	// but does not verify (edited after its filing, its seal missing),
	// passed says so, naming the record, and the record is debated anew:
	// its decision tells why the filed consensus did not decide. An error
	// stops the record: nothing is decided.
	Settled(ctx context.Context, s *debate.DebateSession) (o *debate.Outcome, passed string, err error)
}

// Escalator applies the cascade to records and records each decision in
// its Ledger. Its fields are set before the first call and not changed
// after; Escalate is called by one goroutine at a time.
type Escalator struct {
	Ledger  *Ledger
	Gate    Gate
	Debater Debater
	// Lookup, when set, is asked before each debate whether a filed
	// consensus settles its question already; nil debates every time.
	Lookup Lookup
	// GateLog, when set, records the gate's decision on each record
	// decided (gate.jsonl), once the record's decision is final and just
	// before its ledger line: a run that stops on the record with an
	// error logs nothing for it, so the run that decides it later logs
	// the gate's decision once, as that run made it. An error from it is
	// an error of the record (nothing is recorded).
	GateLog func(gating.LogEntry) error
	// Defender and Attacker are the agent specs of the debates.
	Defender, Attacker string
	// Workspace is the absolute directory evidence is read and checked
	// under ("" checks nothing: every evidence path counts as missing).
	Workspace string
	// Budget is the verify-layer budget.
	Budget debate.ConsensusBudget
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
	// RetryUnavailable decides again, once per Escalator, a record whose
	// latest decision (made before) is hold with reason unavailable (the
	// agents could not be reached), in a new debate; by default every
	// decided record is left as it is.
	RetryUnavailable bool

	// decided are the keys this Escalator decided: never retried by it.
	decided map[string]bool
}

// Escalate decides r, records the decision in the ledger and returns it
// with the ledger line. A record whose key is already in the ledger is not
// decided again: Escalate returns nil, nil, nil. An error (ctx's, when it
// ended while the record's debate ran) means nothing was recorded (the record stays undecided and a later run takes it up;
// a debate already begun is resumed, not started again).
func (e *Escalator) Escalate(ctx context.Context, r *Record) (*Decision, []byte, error) {
	return e.escalate(ctx, r, nil)
}

// escalate is Escalate, handing each new decision and its ledger line to
// deliver (when not nil) before recording it: a decision deliver cannot
// take (its reader is gone) is not recorded, and deliver's error is
// returned as it is. So a line is recorded only once its reader has it,
// and a run stopped in between delivers it again: a record is never
// debated twice (its debate id is derived), but its line may be printed
// twice.
func (e *Escalator) escalate(ctx context.Context, r *Record, deliver func(*Decision, []byte) error) (*Decision, []byte, error) {
	attempt := 1
	if e.Ledger.Has(r.Key()) {
		n, held := e.Ledger.HeldUnavailable(r.Key())
		if !e.RetryUnavailable || !held || e.decided[r.Key()] {
			return nil, nil, nil
		}
		attempt = n + 1
	}
	d, gated, err := e.decide(ctx, r, attempt)
	if err != nil {
		return nil, nil, err
	}
	if gated != nil && e.GateLog != nil {
		if err := e.GateLog(*gated); err != nil {
			return nil, nil, err
		}
	}
	d.Decided = e.now().UTC().Format(vocab.TimeLayout)
	line, err := e.Ledger.Encode(d)
	if err != nil {
		return nil, nil, err
	}
	if deliver != nil {
		if err := deliver(d, line); err != nil {
			return nil, nil, err
		}
	}
	if err := e.Ledger.Record(d, line); err != nil {
		return nil, nil, err
	}
	if e.decided == nil {
		e.decided = map[string]bool{}
	}
	e.decided[r.Key()] = true
	return d, line, nil
}

func (e *Escalator) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Escalator) log() *slog.Logger {
	if e.Logger != nil {
		return e.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// maxGoneAttempts bounds the ids a record's debate skips because their
// debates are gone and their records filed (ErrDebateGone).
const maxGoneAttempts = 1000

// decide is the cascade of SPEC §9. It returns the decision and, when the
// gate decided on the record, the gate's decision as gate.jsonl keeps it
// (logged by the caller once the decision is recorded).
func (e *Escalator) decide(ctx context.Context, r *Record, attempt int) (*Decision, *gating.LogEntry, error) {
	d := &Decision{TaskID: r.TaskID, Timestamp: r.Timestamp, Priority: r.Priority, TelemetryVerdict: r.Verdict}
	var gated *gating.LogEntry
	set := func(a Action, reason Reason, detail string) (*Decision, *gating.LogEntry, error) {
		d.Action, d.Reason, d.Detail = a, reason, detail
		return d, gated, nil
	}
	if r.Verdict != VerdictDrift {
		return set(ActionSkipped, ReasonNotDrift, fmt.Sprintf("the verdict is %s; only DRIFT is escalated", r.Verdict))
	}
	switch r.Priority {
	case PriorityH, PriorityBlocker:
		return set(ActionSkipped, ReasonHighPriority, fmt.Sprintf("%s priority: for the full evidence-verifier, not parley", r.Priority))
	case PriorityL:
		return set(ActionHold, ReasonLowPriority, "L priority: held for review without a debate")
	}
	id := AttemptID(r, attempt)
	sc := SelfCritique(r)
	g, err := e.Gate.Decide(sc)
	if err != nil {
		// The critique is built by parley and always valid; if the gate
		// cannot read it anyway, it cannot say "skip": debate.
		e.log().Warn("the gate could not decide; debating", "task_id", r.TaskID, "err", err)
		g = gating.Decision{Outcome: gating.Debate}
	} else {
		entry := gating.NewLogEntry(g, sc, "task:"+r.TaskID, e.now())
		entry.DebateID = id
		gated = &entry
	}
	if !g.Debate() {
		return set(ActionHold, ReasonGateSkip, gateDetail(g))
	}
	var s *debate.DebateSession
	var o *debate.Outcome
	var passed string // why the question's filed record did not decide
	if e.Lookup != nil {
		if s, err = sessionOf(id, r, e.Defender, e.Attacker, e.Workspace, e.Budget, e.now()); err != nil {
			return nil, nil, err
		}
		if o, passed, err = e.Lookup.Settled(ctx, s); err != nil {
			return nil, nil, err
		}
		if o != nil && (o.Session == nil || debate.PositionHash(o.Session.OpeningPosition()) != debate.PositionHash(s.OpeningPosition())) {
			// Settled for other claims: the claims as they are now are a
			// question of their own, which a debate decides (its record
			// supersedes the settled one).
			o = nil
		}
		if o != nil {
			// The question is settled: its debate's outcome decides, as a
			// new debate's would (the claims as they stand now, the
			// evidence as it is now), and no second debate runs.
			d.Verdict, d.DebateID, d.Record = o.Verdict, o.DebateID, o.Record
			d.Action, d.Reason, d.Detail = Judge(ctx, s, o, e.Workspace)
			d.Detail = fmt.Sprintf("settled by the filed consensus %s (debate %s), so no new debate ran: %s", o.Record, o.DebateID, d.Detail)
			return d, gated, nil
		}
	}
	for {
		if s, err = sessionOf(id, r, e.Defender, e.Attacker, e.Workspace, e.Budget, e.now()); err != nil {
			return nil, nil, err
		}
		o, err = e.Debater.Debate(ctx, s)
		if !errors.Is(err, ErrDebateGone) || attempt >= maxGoneAttempts || ctx.Err() != nil {
			break
		}
		// The debate of this id was removed, its record left in the
		// vault: a new debate under that id would leave the record
		// standing for the old one. The next attempt's id is free, or
		// names the debate a run before this one began.
		e.log().Info("the debate of the record is gone, its record filed; debating under the next id", "task_id", r.TaskID, "debate_id", id, "err", err)
		attempt++
		id = AttemptID(r, attempt)
		if gated != nil {
			gated.DebateID = id
		}
	}
	if ctx.Err() != nil {
		// Interrupted (Ctrl-C) while the agents were checked or the
		// debate ran: what came back says nothing of the agents (a probe
		// cut short reads as an endpoint that cannot be reached). Nothing
		// is decided; the next run takes the record up again, and
		// finds the debate if it closed.
		return nil, nil, ctx.Err()
	}
	if errors.Is(err, ErrUnavailable) {
		// Every agent that cannot be had, why, and what to do: up to the
		// ledger's bound, not one line's.
		return set(ActionHold, ReasonUnavailable, clip.Line(err.Error(), maxDetail+1))
	}
	if err != nil {
		return nil, nil, err
	}
	d.Verdict, d.DebateID, d.Record = o.Verdict, o.DebateID, o.Record
	d.Action, d.Reason, d.Detail = Judge(ctx, s, o, e.Workspace)
	if passed != "" {
		// A filed consensus the user would expect to decide did not: the
		// decision says so before what the new debate decided.
		d.Detail = passed + "; a new debate decided: " + d.Detail
	}
	return d, gated, nil
}

func gateDetail(g gating.Decision) string {
	var cues []string
	for i, c := range g.Cues {
		if i == 3 {
			break
		}
		cues = append(cues, c.Feature)
	}
	detail := fmt.Sprintf("the gate (%s) scored %.2f against %.2f: no doubt worth a debate; the DRIFT stands", g.Mode, g.Score, g.Threshold)
	if len(cues) > 0 {
		detail += " (cues: " + strings.Join(cues, ", ") + ")"
	}
	return detail
}

// Judge turns a closed debate of session s into an action: proceed only
// when the verdict is CONSENSUS_REACHED, the position that stands is the
// defender's opening claims (not an adopted attacker position, not a
// changed one), and no evidence the defender cited or the record named is
// missing under workspace. Everything else holds, with its reason; a
// participant that never produced a turn makes the hold "unavailable".
func Judge(ctx context.Context, s *debate.DebateSession, o *debate.Outcome, workspace string) (Action, Reason, string) {
	if o.Verdict == debate.ConsensusReached {
		switch {
		case o.Rule == debate.RuleAdopted:
			return ActionHold, ReasonAttackerWon, "the defender adopted the attacker's position: " + clip.Line(o.FinalPosition, 301)
		case debate.PositionHash(o.FinalPosition) != debate.PositionHash(s.OpeningPosition()):
			return ActionHold, ReasonClaimsChanged, "consensus on a position other than the claims as stated: " + clip.Line(o.FinalPosition, 301)
		}
		if missing := missingEvidence(ctx, s, o, workspace); len(missing) > 0 {
			return ActionHold, ReasonEvidence, "consensus, but evidence it rests on is missing under the workspace: " + strings.Join(missing, ", ")
		}
		return ActionProceed, ReasonConsensus, fmt.Sprintf("the claims stand (%s): %s", o.Rule, clip.Line(o.Reason, 301))
	}
	if o.Verdict == debate.Unavailable {
		// The agent and the cause, with what to do about it.
		return ActionHold, ReasonUnavailable, clip.Line(o.Reason, 401)
	}
	if who := silent(s, o); who != "" {
		return ActionHold, ReasonUnavailable, who
	}
	switch o.Verdict {
	case debate.Deadlock:
		return ActionHold, ReasonDeadlock, clip.Line(o.Reason, 401)
	case debate.BudgetExhausted:
		return ActionHold, ReasonBudget, clip.Line(o.Reason, 401)
	case debate.Timeout:
		return ActionHold, ReasonTimeout, clip.Line(o.Reason, 401)
	}
	return ActionHold, ReasonUnknownVerdict, fmt.Sprintf("verdict %q", o.Verdict)
}

// silent names the participants that never produced a turn, with why.
func silent(s *debate.DebateSession, o *debate.Outcome) string {
	spoke := map[string]bool{}
	for _, t := range o.Turns {
		spoke[t.Agent] = true
	}
	why := map[string][]string{}
	for _, f := range o.Forfeits {
		why[f.Agent] = append(why[f.Agent], string(f.Reason))
	}
	var out []string
	for _, p := range s.Participants {
		if !spoke[p.Name] && len(why[p.Name]) > 0 {
			out = append(out, fmt.Sprintf("%s %s (%s) never produced a turn (forfeits: %s)", p.Role, p.Name, p.Agent, strings.Join(uniq(why[p.Name]), ", ")))
		}
	}
	return strings.Join(out, "; ")
}

func uniq(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// missingEvidence checks the record's evidence paths under workspace and
// collects the defender's cited evidence that the debate found missing,
// out of range or outside the workspace.
func missingEvidence(ctx context.Context, s *debate.DebateSession, o *debate.Outcome, workspace string) []string {
	var missing []string
	for _, t := range o.Turns {
		if t.Role != debate.RoleDefender {
			continue
		}
		for _, ev := range t.Evidence {
			switch ev.Status {
			case debate.EvidenceMissing, debate.EvidenceOutOfRange, debate.EvidenceOutside, debate.EvidenceInvalid:
				missing = append(missing, fmt.Sprintf("%s (%s)", ev.Ref, ev.Status))
			}
		}
	}
	paths := recordPaths(s)
	if len(paths) == 0 {
		return missing
	}
	checker, err := debate.NewEvidenceChecker(workspace, nil)
	if err != nil || workspace == "" {
		for _, p := range paths {
			missing = append(missing, p+" (no workspace)")
		}
		return missing
	}
	defer checker.Close()
	for _, p := range paths {
		rel, ok := LocalPath(workspace, p)
		if !ok {
			missing = append(missing, p+" ("+string(debate.EvidenceOutside)+")")
			continue
		}
		switch ev := checker.CheckOne(ctx, rel); ev.Status {
		case debate.EvidenceOK, debate.EvidenceUnchecked:
		default:
			missing = append(missing, fmt.Sprintf("%s (%s)", p, ev.Status))
		}
	}
	return missing
}

// recordPaths are the evidence paths the record named: the session's file
// context items.
func recordPaths(s *debate.DebateSession) []string {
	var out []string
	for _, c := range s.Context {
		if c.Kind == "file" {
			out = append(out, c.Ref)
		}
	}
	return out
}
