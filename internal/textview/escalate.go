package textview

import (
	"fmt"
	"io"

	"github.com/parleyhq/parley/escalation"
)

// EscalationNotes are the lines "parley escalate" writes to W (standard
// error) about its run over the telemetry file Telemetry: the lines it
// skipped, that it follows the file, and what it did. The decisions
// themselves are the ledger's JSON lines, on standard output.
type EscalationNotes struct {
	W         io.Writer
	Telemetry string
}

// Malformed says line number line was skipped, and why.
func (n EscalationNotes) Malformed(line int, err error) {
	fmt.Fprintf(n.W, "parley: %s:%d: %v (line skipped)\n", n.Telemetry, line, err)
}

// Incomplete says a partial last line of path was given up.
func (n EscalationNotes) Incomplete(path string, line int) {
	fmt.Fprintf(n.W, "parley: %s:%d: a partial last line was given up: the file was rotated or truncated before its newline came\n", path, line)
}

// Following says the run follows the file, and how to stop it.
func (n EscalationNotes) Following() {
	fmt.Fprintf(n.W, "parley: following %s: a line per record decided, as records arrive (Ctrl-C stops)\n", n.Telemetry)
}

// Interrupted says a followed run stopped on err and the record is taken
// up again.
func (n EscalationNotes) Interrupted(err error) {
	fmt.Fprintf(n.W, "parley: interrupted (%v); the next parley escalate takes the record up again\n", err)
}

// Already says line number line holds a record decided before, and what
// its decision was: the run does not decide it again, and prints no line
// for it on standard output (escalations.jsonl has its line).
func (n EscalationNotes) Already(line int, d *escalation.Decision) {
	what := fmt.Sprintf("%s (%s)", d.Action, d.Reason)
	if d.DebateID != "" {
		what += ", debate " + d.DebateID
	}
	if d.Record != "" {
		what += ", record " + d.Record
	}
	when := ""
	if d.Decided != "" {
		when = " on " + d.Decided
	}
	fmt.Fprintf(n.W, "parley: %s:%d: task %s at %s was decided%s: %s; not decided again (%s holds its line)\n",
		n.Telemetry, line, d.TaskID, d.Timestamp, when, what, escalation.LedgerName)
}

// Stats says what the run did: a last line not yet whole, the counts, and
// the records held because their agents could not be had, with how to
// decide them again (a later run leaves them as they are).
func (n EscalationNotes) Stats(st escalation.Stats) {
	if st.Incomplete {
		fmt.Fprintf(n.W, "parley: %s: the last line has no newline and is not a whole record yet; a later run takes it\n", n.Telemetry)
	}
	fmt.Fprintf(n.W, "parley: %d record(s): %d decided, %d already escalated, %d malformed line(s) skipped\n", st.Records, st.Decided, st.Already, st.Malformed)
	if st.Unavailable > 0 {
		fmt.Fprintf(n.W, "parley: %d record(s) held as unavailable: their agents could not be had (the line's detail says why); once they can, parley escalate --retry-unavailable decides them again\n", st.Unavailable)
	}
}
