package transcripts_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

type nopFiler struct{}

func (nopFiler) File(ctx context.Context, o *debate.Outcome) (string, error) { return "", nil }

func startAgent(t *testing.T, tr inbox.Transport, name, script string) {
	t.Helper()
	s, err := agent.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- (&agent.Runner{Name: name, Transport: tr, Responder: s, Ready: func() { close(ready) }}).Run(ctx)
	}()
	<-ready
	t.Cleanup(func() { cancel(); <-done })
}

// A coordinator writing a real transcript is stopped after a random event,
// resumed from the transcript, and ends as an uninterrupted one does; the
// chain verifies and no turn is recorded twice.
func TestCoordinatorResumesFromTheTranscript(t *testing.T) {
	t.Parallel()
	runs := 12
	if testing.Short() {
		runs = 4
	}
	run := func(t *testing.T, stopAfter int) (*debate.Outcome, transcripts.Report, int) {
		dir := t.TempDir()
		store, err := transcripts.OpenStore(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		tr := inbox.NewMemTransport()
		startAgent(t, tr, "Critic", `{"turns":[{"round":1,"position":"Keys leak time","counter_to":"x","confidence_change":-1,"tokens":50},{"round":2,"position":"Keys collide","counter_to":"x","confidence_change":-1,"tokens":60},{"round":3,"position":"Keys collide","counter_to":"x","confidence_change":-1,"tokens":70}]}`)
		startAgent(t, tr, "Proposer", `{"turns":[{"round":1,"position":"Use UUIDv7 keys, hashed","tokens":80},{"round":2,"position":"Use UUIDv7 keys, hashed and salted","tokens":90}]}`)
		const id = "20260101-spec-idempotency-keys-abcdef"
		sess := &debate.DebateSession{
			ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Coordinator: debate.CoordinatorName(id), Created: inbox.Now(),
			Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
			Budget:       debate.ConsensusBudget{MaxRounds: 4, MaxTokens: 6000, MaxTokensPerRound: 2000, MaxWallClockMs: 60000, ConvergenceRounds: 1},
		}
		log, err := store.Create(context.Background(), sess)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		n := 0
		c := &debate.Coordinator{Messenger: tr, Journal: log, Filer: nopFiler{}, Progress: func(debate.Progress) {
			if n++; n == stopAfter {
				cancel() // the coordinator stops as if killed after this event
			}
		}}
		o, err := c.Start(ctx, sess)
		if err != nil {
			// A stopped coordinator records its active time last.
			ev := log.Events()
			var clock debate.ClockEvent
			if last := ev[len(ev)-1]; last.Kind != debate.EventClock || json.Unmarshal(last.Data, &clock) != nil || clock.Reason != debate.ClockStopped {
				t.Fatalf("stop after %d: the transcript ends with %s %s, want a clock event: stopped", stopAfter, last.Kind, last.Data)
			}
		}
		log.Close()
		for resumes := 0; err != nil; resumes++ {
			if !errors.Is(err, context.Canceled) || resumes > 0 {
				t.Fatalf("stop after %d: %v", stopAfter, err)
			}
			log, err = store.Open(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			o, err = (&debate.Coordinator{Messenger: tr, Journal: log, Filer: nopFiler{}}).Resume(context.Background())
			log.Close()
		}
		rep, err := store.Verify(id)
		if err != nil {
			t.Fatal(err)
		}
		events, _ := store.Events(id)
		turns := 0
		for _, e := range events {
			if e.Kind == debate.EventTurn {
				turns++
			}
		}
		return o, rep, turns
	}
	want, rep, turns := run(t, 0)
	if !rep.Intact || want.Verdict != debate.Deadlock {
		t.Fatalf("uninterrupted: %s %+v", want.Verdict, rep)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for i := 0; i < runs; i++ {
		stop := 1 + rng.IntN(rep.Events-1)
		t.Run(fmt.Sprintf("stop-after-%d", stop), func(t *testing.T) {
			o, r, n := run(t, stop)
			if o.Verdict != want.Verdict || o.Tokens != want.Tokens || !slices.Equal(lines(o.Turns), lines(want.Turns)) {
				t.Fatalf("resumed: %s %d %v; want %s %d %v", o.Verdict, o.Tokens, lines(o.Turns), want.Verdict, want.Tokens, lines(want.Turns))
			}
			if !r.Intact || n != turns {
				t.Fatalf("chain %+v, %d turn events (want %d)", r, n, turns)
			}
		})
	}
}

func lines(ts []debate.TurnRecord) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("r%d %s %q", t.Round, t.Agent, t.Position))
	}
	return out
}
