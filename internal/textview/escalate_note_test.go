package textview_test

import (
	"bytes"
	"testing"

	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/internal/textview"
)

// A record decided before is named with its line and what it was decided,
// so that a rerun that decides nothing still says what happened.
func TestEscalationNotesSayWhatWasDecidedBefore(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	n := textview.EscalationNotes{W: &out, Telemetry: "verifier.jsonl"}
	n.Already(3, &escalation.Decision{TaskID: "100125", Timestamp: "2026-05-14T13:21:30Z", Action: escalation.ActionProceed, Reason: escalation.ReasonConsensus,
		DebateID: "20260514-verify-task-100125-ol6nof", Record: "wiki/consensus/verify-closure-of-task-100125.md", Decided: "2026-11-30T12:59:38.900Z"})
	n.Already(4, &escalation.Decision{TaskID: "100126", Timestamp: "2026-05-14T13:22:10Z", Action: escalation.ActionSkipped, Reason: escalation.ReasonHighPriority})
	want := "parley: verifier.jsonl:3: task 100125 at 2026-05-14T13:21:30Z was decided on 2026-11-30T12:59:38.900Z: proceed (consensus), debate 20260514-verify-task-100125-ol6nof, record wiki/consensus/verify-closure-of-task-100125.md; not decided again (escalations.jsonl holds its line)\n" +
		"parley: verifier.jsonl:4: task 100126 at 2026-05-14T13:22:10Z was decided: skipped (high_priority); not decided again (escalations.jsonl holds its line)\n"
	if out.String() != want {
		t.Fatalf("got  %q\nwant %q", out.String(), want)
	}
}
