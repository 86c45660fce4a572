package debate

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

func TestSessionValidate(t *testing.T) {
	t.Parallel()
	good := func() *DebateSession {
		return &DebateSession{
			ID: "20260101-spec-keys-abcdef", Topic: "Keys", Layer: LayerSpec, Budget: DefaultBudget(LayerSpec),
			Coordinator: CoordinatorName("20260101-spec-keys-abcdef"), Created: "2026-01-01T00:00:00.000Z",
			Participants: []Participant{{Name: "A", Role: RoleAttacker}, {Name: "B", Role: RoleAttacker}, {Name: "D", Role: RoleDefender}},
		}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("a good session: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*DebateSession)
		want error
	}{
		{"bad id", func(s *DebateSession) { s.ID = "../x" }, ErrInvalidID},
		{"bad layer", func(s *DebateSession) { s.Layer = "code" }, ErrUnknownLayer},
		{"upper-case layer", func(s *DebateSession) { s.Layer = "SPEC" }, ErrUnknownLayer},
		{"empty topic", func(s *DebateSession) { s.Topic = " \t" }, ErrInvalidSession},
		{"huge topic", func(s *DebateSession) { s.Topic = strings.Repeat("x", MaxTopicLen+1) }, ErrInvalidSession},
		{"zero budget", func(s *DebateSession) { s.Budget.MaxWallClockMs = 0 }, ErrInvalidBudget},
		{"no defender", func(s *DebateSession) { s.Participants = s.Participants[:2] }, ErrInvalidSession},
		{"two defenders", func(s *DebateSession) { s.Participants[0].Role = RoleDefender }, ErrInvalidSession},
		{"no attacker", func(s *DebateSession) { s.Participants = s.Participants[2:] }, ErrInvalidSession},
		{"unknown role", func(s *DebateSession) { s.Participants[0].Role = "judge" }, ErrUnknownRole},
		{"hostile name", func(s *DebateSession) { s.Participants[0].Name = "../etc" }, inbox.ErrInvalidName},
		{"unicode trick", func(s *DebateSession) { s.Participants[0].Name = "Аlice" }, inbox.ErrInvalidName},
		{"name twice", func(s *DebateSession) { s.Participants[1].Name = "A" }, ErrInvalidSession},
		{"participant named as the coordinator", func(s *DebateSession) { s.Participants[0].Name = s.Coordinator }, ErrInvalidSession},
		{"bad coordinator", func(s *DebateSession) { s.Coordinator = "" }, inbox.ErrInvalidName},
		{"bad created", func(s *DebateSession) { s.Created = "yesterday" }, ErrInvalidSession},
	} {
		s := good()
		tc.edit(s)
		if err := s.Validate(); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// A role taken too few or too many times says which, how many and
	// what the role allows, for a front end to name what to change.
	for _, tc := range []struct {
		name string
		edit func(*DebateSession)
		want RoleCountError
	}{
		{"no defender", func(s *DebateSession) { s.Participants = s.Participants[:2] }, RoleCountError{Role: RoleDefender, Got: 0, Min: 1, Max: 1}},
		{"two defenders", func(s *DebateSession) { s.Participants[0].Role = RoleDefender }, RoleCountError{Role: RoleDefender, Got: 2, Min: 1, Max: 1}},
		{"no attacker", func(s *DebateSession) { s.Participants = s.Participants[2:] }, RoleCountError{Role: RoleAttacker, Got: 0, Min: 1}},
	} {
		s := good()
		tc.edit(s)
		var rc *RoleCountError
		if err := s.Validate(); !errors.As(err, &rc) || *rc != tc.want {
			t.Errorf("%s: %v, want %+v", tc.name, err, tc.want)
		}
	}
	if got := good().Order(); len(got) != 3 || got[0].Name != "A" || got[1].Name != "B" || got[2].Name != "D" || got[2].Index != 2 {
		t.Errorf("speaking order %+v", got)
	}
	if err := inbox.ValidateName(CoordinatorName("20260101-spec-" + strings.Repeat("a", 32) + "-abcdef")); err != nil {
		t.Errorf("coordinator name: %v", err)
	}
}
