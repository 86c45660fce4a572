package debate

import (
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/vocab"
)

// MaxTopicLen bounds a debate's topic (characters).
const MaxTopicLen = 1000

// Validate reports a session that cannot be debated: a bad id, layer or
// budget, an empty or oversized topic, a participant with an invalid name or
// role, a name used twice, or not exactly one defender and at least one
// attacker (or, for a registered role, outside its RoleSpec's Min and Max:
// a *RoleCountError). Every error wraps ErrInvalidSession, ErrInvalidID,
// ErrUnknownLayer, ErrUnknownRole, ErrInvalidBudget or vocab.ErrInvalidName.
func (s *DebateSession) Validate() error {
	if err := ValidateID(s.ID); err != nil {
		return err
	}
	if _, err := ParseLayer(string(s.Layer)); err != nil || Layer(strings.ToLower(string(s.Layer))) != s.Layer {
		return fmt.Errorf("%w: %q", ErrUnknownLayer, s.Layer)
	}
	if strings.TrimSpace(s.Topic) == "" {
		return fmt.Errorf("%w: the topic is empty", ErrInvalidSession)
	}
	if n := len([]rune(s.Topic)); n > MaxTopicLen {
		return fmt.Errorf("%w: the topic has %d characters, limit %d", ErrInvalidSession, n, MaxTopicLen)
	}
	if err := s.Budget.Validate(); err != nil {
		return err
	}
	if err := vocab.ValidateName(s.Coordinator); err != nil {
		return fmt.Errorf("%w: coordinator: %w", ErrInvalidSession, err)
	}
	seen := map[string]bool{s.Coordinator: true}
	count := map[Role]int{}
	for _, p := range s.Participants {
		if err := vocab.ValidateName(p.Name); err != nil {
			return fmt.Errorf("%w: participant: %w", ErrInvalidSession, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("%w: %s takes part twice (or is the coordinator's name)", ErrInvalidSession, p.Name)
		}
		seen[p.Name] = true
		if _, ok := LookupRole(p.Role); !ok {
			return fmt.Errorf("%w: %s: %w: %q", ErrInvalidSession, p.Name, ErrUnknownRole, p.Role)
		}
		count[p.Role]++
	}
	for _, r := range Roles() {
		if n := count[r.Name]; n < r.Min || (r.Max > 0 && n > r.Max) {
			return &RoleCountError{Role: r.Name, Got: n, Min: r.Min, Max: r.Max}
		}
	}
	if s.Created != "" {
		if _, err := time.Parse(vocab.TimeLayout, s.Created); err != nil {
			return fmt.Errorf("%w: created %q is not %s", ErrInvalidSession, s.Created, vocab.TimeLayout)
		}
	}
	return nil
}

// CoordinatorName is the agent name of a debate's coordinator: "Coordinator-"
// and the debate id's random suffix. It is a valid agent name for every valid
// id and stays the same when the debate is resumed, so replies sent to a
// coordinator that crashed wait in the inbox of the one that resumes.
func CoordinatorName(id string) string {
	suffix := id
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		suffix = id[i+1:]
	}
	return "Coordinator-" + suffix
}

// Speaker is one slot of a round's speaking order.
type Speaker struct {
	Participant
	// Index is the speaker's place in the round (0-based): attackers
	// first, in session order, so an attacker's Index is its place among
	// the attackers and the defender's is the number of attackers.
	Index int
	// Nth is the speaker's place among the participants of its role
	// (0-based).
	Nth int
}

// Order returns the speaking order of every round: the participants by
// their role's Order (attackers, then the defender), each role's in
// session order.
func (s *DebateSession) Order() []Speaker {
	var out []Speaker
	for _, r := range Roles() {
		nth := 0
		for _, p := range s.Participants {
			if p.Role == r.Name {
				out = append(out, Speaker{Participant: p, Index: len(out), Nth: nth})
				nth++
			}
		}
	}
	return out
}
