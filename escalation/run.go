package escalation

import (
	"context"
	"fmt"
	"io"
)

// Stats counts what a run saw.
type Stats struct {
	Lines, Records, Decided, Already, Malformed int
	// Changed counts the records already escalated whose verdict or
	// priority differ from the record they were decided from (ErrChanged);
	// they are in Already too.
	Changed int
	// Unavailable counts the records held because their agents could not
	// be had (hold, reason unavailable): decided so by this run, or
	// already so in the ledger and not decided again. They stay so until
	// a run with RetryUnavailable decides them again.
	Unavailable int
	// Incomplete reports a last line without its newline that did not
	// decode (a writer may still be writing it); it is left for a later
	// run.
	Incomplete bool
}

// Sink receives what a run finds: each malformed line with its number, and
// each new decision with its ledger line, before the line is recorded in
// the ledger: an error from Decided (its reader gone) stops the run and
// leaves that record undecided, for the next run to decide and hand over
// again. A Sink's functions are called on the run's goroutine.
type Sink struct {
	Malformed func(line int, err error)
	Decided   func(d *Decision, line []byte) error
	// Changed is told of each record already escalated that changed since
	// (a *ChangedError), with its line's number; it is not decided again.
	Changed func(line int, err error)
	// Already is told of each record already escalated that did not
	// change since, with its line's number and its decision as the ledger
	// holds it (without its detail): it is not decided again.
	Already func(line int, d *Decision)
}

// HandleLine parses one telemetry line and escalates its records (one,
// but for NUL runs: RecordTexts): a malformed one goes to sink.Malformed,
// with the line's number, and is skipped; a record already in the ledger
// is counted and skipped; a new decision goes to sink.Decided. An error
// stops the caller.
func (e *Escalator) HandleLine(ctx context.Context, l Line, sink Sink, st *Stats) error {
	st.Lines++
	if l.TooLong {
		st.Malformed++
		if sink.Malformed != nil {
			sink.Malformed(l.N, fmt.Errorf("%w: the line is longer than %d bytes", ErrMalformed, MaxLineBytes))
		}
		return nil
	}
	for _, text := range RecordTexts(l.Data) {
		if err := e.handleRecord(ctx, l.N, text, sink, st); err != nil {
			return err
		}
	}
	return nil
}

// handleRecord parses and escalates the record text of line n.
func (e *Escalator) handleRecord(ctx context.Context, n int, text []byte, sink Sink, st *Stats) error {
	r, err := ParseRecord(text)
	if err != nil {
		st.Malformed++
		if sink.Malformed != nil {
			sink.Malformed(n, err)
		}
		return nil
	}
	r.Line = n
	st.Records++
	// The sink's own error (its reader gone) stops the run as it is; the
	// record it could not take stays undecided.
	var sinkErr error
	deliver := func(d *Decision, line []byte) error {
		if sink.Decided != nil {
			sinkErr = sink.Decided(d, line)
		}
		return sinkErr
	}
	d, _, err := e.escalate(ctx, r, deliver)
	if err != nil && err == sinkErr {
		return err
	}
	if err != nil {
		return fmt.Errorf("task %s (line %d): %w", r.TaskID, n, err)
	}
	if d == nil {
		st.Already++
		if err := e.Ledger.Changed(r); err != nil {
			st.Changed++
			if sink.Changed != nil {
				sink.Changed(n, err)
			}
		} else if was, ok := e.Ledger.Decision(r.Key()); ok && sink.Already != nil {
			sink.Already(n, &was)
		}
		if _, held := e.Ledger.HeldUnavailable(r.Key()); held {
			st.Unavailable++
		}
		return nil
	}
	st.Decided++
	if d.Action == ActionHold && d.Reason == ReasonUnavailable {
		st.Unavailable++
	}
	return nil
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

// Run escalates every record r holds, in order, and then a last line
// without its newline if it is a whole record.
func (e *Escalator) Run(ctx context.Context, r io.Reader, sink Sink) (Stats, error) {
	var st Stats
	var sc Scanner
	incomplete, err := sc.ReadAll(r, func(l Line) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return e.HandleLine(ctx, l, sink, &st)
	})
	st.Incomplete = incomplete
	return st, err
}
