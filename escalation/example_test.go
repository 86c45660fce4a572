package escalation_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/gating"
)

// conceding is a Debater whose attacker gives up at once: the claims stand.
type conceding struct{}

func (conceding) Debate(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
	return &debate.Outcome{
		DebateID: s.ID, Verdict: debate.ConsensusReached, Rule: debate.RuleConceded, FinalPosition: s.OpeningPosition(),
		Record: "wiki/consensus/verify-closure-of-task-100125.md",
	}, nil
}

// Escalate a telemetry file: each record gets one decision, recorded in the
// ledger; running it again decides nothing new.
func ExampleEscalator() {
	dir, _ := os.MkdirTemp("", "escalation-example-")
	defer os.RemoveAll(dir)
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	ledger, err := escalation.OpenLedger(root)
	if err != nil {
		panic(err)
	}
	defer ledger.Close()
	e := &escalation.Escalator{
		Ledger: ledger, Gate: gating.Rules(), Debater: conceding{},
		Defender: "script:defender.json", Attacker: "script:attacker.json",
		Budget: debate.DefaultBudget(debate.LayerVerify),
	}
	telemetry := `{"timestamp":"2026-05-14T13:18:42Z","task_id":"100123","verdict":"CONFIRMED","confidence":0.92,"reasons":[]}
{"timestamp":"2026-05-14T13:20:00Z","task_id":"100124","verdict":"DRIFT","priority":"L","reasons":["README not updated"]}
{"timestamp":"2026-05-14T13:21:00Z","task_id":"100125","verdict":"DRIFT","priority":"M","confidence":0.55,"reasons":["The retry test might not run"],"claims":["Retries are tested"]}
{"timestamp":"2026-05-14T13:22:00Z","task_id":"100126","verdict":"DRIFT","priority":"H","reasons":["x"]}
`
	sink := escalation.Sink{Decided: func(d *escalation.Decision, _ []byte) error {
		fmt.Printf("%s %-8s %-7s %s\n", d.TaskID, d.TelemetryVerdict, d.Action, d.Reason)
		return nil
	}}
	st, _ := e.Run(context.Background(), strings.NewReader(telemetry), sink)
	fmt.Println("decided", st.Decided)
	st, _ = e.Run(context.Background(), strings.NewReader(telemetry), sink)
	fmt.Println("decided", st.Decided, "already", st.Already)
	// Output:
	// 100123 CONFIRMED skipped not_drift
	// 100124 DRIFT    hold    low_priority
	// 100125 DRIFT    proceed consensus
	// 100126 DRIFT    skipped high_priority
	// decided 4
	// decided 0 already 4
}
