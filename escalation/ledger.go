package escalation

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/flock"
)

// LedgerName is the ledger's file under the parley root (SPEC §3).
const LedgerName = "escalations.jsonl"

// Action is what the verifier's harness should do with a record.
type Action string

// The actions of SPEC §9.
const (
	// ActionProceed: the claims survived a debate; close the task.
	ActionProceed Action = "proceed"
	// ActionHold: keep the task for review, for the reason given.
	ActionHold Action = "hold"
	// ActionSkipped: not parley's to decide (not DRIFT, or H/BLOCKER);
	// the harness's own cascade applies.
	ActionSkipped Action = "skipped"
)

// Reason says why a record got its action. The vocabulary is closed.
type Reason string

// The reasons.
const (
	ReasonNotDrift       Reason = "not_drift"        // skipped: the verdict is not DRIFT
	ReasonHighPriority   Reason = "high_priority"    // skipped: H/BLOCKER go to the full evidence-verifier
	ReasonLowPriority    Reason = "low_priority"     // hold: L priority is held without a debate
	ReasonGateSkip       Reason = "gate_skip"        // hold: the gate saw no doubt worth a debate; the DRIFT stands
	ReasonConsensus      Reason = "consensus"        // proceed: CONSENSUS_REACHED on the claims
	ReasonAttackerWon    Reason = "attacker_won"     // hold: the defender adopted the attacker's position
	ReasonClaimsChanged  Reason = "claims_changed"   // hold: consensus on a position other than the claims as stated
	ReasonEvidence       Reason = "evidence_missing" // hold: consensus, but evidence it rests on does not exist
	ReasonDeadlock       Reason = "deadlock"         // hold: DEADLOCK
	ReasonBudget         Reason = "budget_exhausted" // hold: BUDGET_EXHAUSTED
	ReasonTimeout        Reason = "timeout"          // hold: TIMEOUT
	ReasonUnavailable    Reason = "unavailable"      // hold: the agents could not be reached or never answered
	ReasonUnknownVerdict Reason = "unknown_verdict"  // hold: a debate verdict parley does not know
)

// Decision is one line of the ledger and of "parley escalate"'s output.
type Decision struct {
	TaskID    string `json:"task_id"`
	Timestamp string `json:"timestamp"`
	Action    Action `json:"action"`
	// Verdict is the debate's verdict; "" when no debate ran.
	Verdict debate.Verdict `json:"verdict"`
	// DebateID and Record are the debate and its consensus record (a path
	// relative to the vault); "" when no debate ran.
	DebateID string `json:"debate_id"`
	Record   string `json:"record"`
	Reason   Reason `json:"reason"`
	// Detail explains the reason in a sentence.
	Detail string `json:"detail"`
	// Priority and TelemetryVerdict are the record's, as read.
	Priority         Priority `json:"priority"`
	TelemetryVerdict string   `json:"telemetry_verdict"`
	// Decided is when the decision was made (RFC 3339, UTC, ms).
	Decided string `json:"decided"`
}

// Key is the decision's record key.
func (d *Decision) Key() string { return Key(d.TaskID, d.Timestamp) }

// maxDetail bounds a decision's detail, so that a ledger line stays small
// (one write of a few KiB).
const maxDetail = 600

// Ledger is the idempotency ledger and audit log of escalations: one
// Decision per line in <root>/escalations.jsonl. Opening it takes an
// exclusive lock that lasts until Close, so one process escalates into a
// root at a time. Append writes one line with one write on an O_APPEND
// descriptor and fsyncs before returning. A Ledger is safe for concurrent
// use.
type Ledger struct {
	mu sync.Mutex
	f  *os.File
	// seen holds, for each key decided, what its latest decision was made
	// from and what it was.
	seen map[string]decidedFrom
	// unavailable counts each key's hold/unavailable decisions while its
	// latest decision is one (a later decision of another kind clears it).
	unavailable map[string]int
	bad         int
}

// OpenLedger opens (creating, 0600) and locks the ledger under root and
// reads the keys it holds. A line that does not decode (a torn last line
// after a crash, a hand edit) is counted in Bad and ignored; a last line
// without its newline is ended first, so the next line starts clean.
// Another process holding the ledger is ErrBusy.
func OpenLedger(root *os.Root) (*Ledger, error) {
	f, err := root.OpenFile(LedgerName, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", LedgerName, err)
	}
	if ok, err := flock.Try(f, flock.Exclusive); err != nil || !ok {
		f.Close()
		if err == nil {
			return nil, fmt.Errorf("%w (%s is locked; wait for it or stop it)", ErrBusy, LedgerName)
		}
		return nil, fmt.Errorf("lock %s: %w", LedgerName, err)
	}
	l := &Ledger{f: f, seen: map[string]decidedFrom{}, unavailable: map[string]int{}}
	ds, bad, last, err := readLedger(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		f.Close()
		return nil, err
	}
	l.bad = bad
	for i := range ds {
		l.note(&ds[i])
	}
	if last != 0 && last != '\n' {
		if err := l.write([]byte("\n")); err != nil {
			f.Close()
			return nil, err
		}
	}
	return l, nil
}

// note records d's key as decided; l.mu is held or l not yet shared.
func (l *Ledger) note(d *Decision) {
	k := d.Key()
	l.seen[k] = decidedFrom{taskID: d.TaskID, timestamp: d.Timestamp, verdict: d.TelemetryVerdict, priority: d.Priority, action: d.Action, reason: d.Reason,
		debateVerdict: d.Verdict, debateID: d.DebateID, record: d.Record, decided: d.Decided}
	if d.Action == ActionHold && d.Reason == ReasonUnavailable {
		l.unavailable[k]++
	} else {
		delete(l.unavailable, k)
	}
}

// HeldUnavailable reports whether key's latest decision is hold with
// reason unavailable, and how many such decisions it had in a row: a
// retry (--retry-unavailable) is attempt n+1.
func (l *Ledger) HeldUnavailable(key string) (n int, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, ok = l.unavailable[key]
	return n, ok
}

// Has reports whether a decision for key is in the ledger.
func (l *Ledger) Has(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.seen[key]
	return ok
}

// decidedFrom is what a decision was made from (the record's verdict and
// priority, all the cascade reads before a debate) and what it was (all
// of its line but the detail).
type decidedFrom struct {
	taskID        string
	timestamp     string
	verdict       string
	priority      Priority
	action        Action
	reason        Reason
	debateVerdict debate.Verdict
	debateID      string
	record        string
	decided       string
}

// Decision is the latest decision of key in the ledger, without its
// detail (the ledger's line has it); ok is false when key is undecided.
func (l *Ledger) Decision(key string) (d Decision, ok bool) {
	l.mu.Lock()
	was, ok := l.seen[key]
	l.mu.Unlock()
	if !ok {
		return d, false
	}
	return Decision{TaskID: was.taskID, Timestamp: was.timestamp, Action: was.action, Verdict: was.debateVerdict, DebateID: was.debateID,
		Record: was.record, Reason: was.reason, Priority: was.priority, TelemetryVerdict: was.verdict, Decided: was.decided}, true
}

// Changed returns a *ChangedError when r's key was decided from a record
// that said another verdict or priority (no priority and M are the same
// to the cascade), else nil (r's key undecided included, and a ledger
// line that does not say what it was decided from).
func (l *Ledger) Changed(r *Record) error {
	l.mu.Lock()
	was, ok := l.seen[r.Key()]
	l.mu.Unlock()
	if !ok || was.verdict == "" || (was.verdict == r.Verdict && cascadePriority(was.priority) == cascadePriority(r.Priority)) {
		return nil
	}
	return &ChangedError{TaskID: r.TaskID, Timestamp: r.Timestamp, WasVerdict: was.verdict, WasPriority: was.priority,
		Action: was.action, Reason: was.reason, Verdict: r.Verdict, Priority: r.Priority}
}

// cascadePriority is p as the cascade treats it: none is M.
func cascadePriority(p Priority) Priority {
	if p == PriorityNone {
		return PriorityM
	}
	return p
}

// ChangedError is a record whose key was decided from a record that said
// another verdict or priority. It wraps ErrChanged.
type ChangedError struct {
	TaskID, Timestamp string
	// WasVerdict and WasPriority are what the record said when it was
	// decided; Action and Reason its decision.
	WasVerdict  string
	WasPriority Priority
	Action      Action
	Reason      Reason
	// Verdict and Priority are what it says now.
	Verdict  string
	Priority Priority
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("task %s at %s was decided from a record that said %s, priority %s (%s: %s); the line now says %s, priority %s: it is not decided again (a record is decided once, by task id and timestamp; a verdict that changes is a new record, with its own timestamp)",
		e.TaskID, e.Timestamp, e.WasVerdict, priorityName(e.WasPriority), e.Action, e.Reason, e.Verdict, priorityName(e.Priority))
}

func (e *ChangedError) Unwrap() error { return ErrChanged }

func priorityName(p Priority) string {
	if p == PriorityNone {
		return "none"
	}
	return string(p)
}

// Len is the number of keys decided.
func (l *Ledger) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen)
}

// Bad is how many lines of the ledger did not decode when it was opened.
func (l *Ledger) Bad() int { return l.bad }

// Append records d durably and returns the line written (with its
// newline): Encode, then Record. A failed write or sync is returned; the
// decision is then not recorded (its key stays undecided).
func (l *Ledger) Append(d Decision) ([]byte, error) {
	line, err := l.Encode(&d)
	if err != nil {
		return nil, err
	}
	if err := l.Record(&d, line); err != nil {
		return nil, err
	}
	return line, nil
}

// Encode clips d's detail to the ledger's bound and returns its ledger
// line (with its newline), recording nothing.
func (l *Ledger) Encode(d *Decision) ([]byte, error) {
	d.Detail = clip.Line(d.Detail, maxDetail+1)
	line, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// Record appends line, d's line as Encode made it, durably and notes d's
// key as decided. A failed write or sync is returned; the decision is then
// not recorded (its key stays undecided).
func (l *Ledger) Record(d *Decision, line []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.write(line); err != nil {
		return err
	}
	l.note(d)
	return nil
}

func (l *Ledger) write(b []byte) error {
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("append %s: %w", LedgerName, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", LedgerName, err)
	}
	return nil
}

// Close releases the lock and the file.
func (l *Ledger) Close() error { return l.f.Close() }

// ReadLedger reads a ledger: its decisions in order and the number of
// lines that did not decode.
func ReadLedger(r io.Reader) ([]Decision, int, error) {
	ds, bad, _, err := readLedger(r)
	return ds, bad, err
}

func readLedger(r io.Reader) (ds []Decision, bad int, last byte, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var s Scanner
	emit := func(ln Line) error {
		var d Decision
		if ln.TooLong || json.Unmarshal(ln.Data, &d) != nil || d.TaskID == "" || d.Timestamp == "" {
			if len(bytes.TrimSpace(ln.Data)) > 0 || ln.TooLong {
				bad++
			}
			return nil
		}
		ds = append(ds, d)
		return nil
	}
	buf := make([]byte, 64<<10)
	for {
		n, rerr := br.Read(buf)
		if n > 0 {
			last = buf[n-1]
			if err := s.Feed(buf[:n], emit); err != nil {
				return nil, 0, 0, err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, 0, 0, fmt.Errorf("read %s: %w", LedgerName, rerr)
		}
	}
	if s.Pending() {
		bad++ // a torn last line
	}
	return ds, bad, last, nil
}
