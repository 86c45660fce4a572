package debate

import (
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// MaxTopicLen bounds a debate's topic (characters).
const MaxTopicLen = 1000

// Validate reports a session that cannot be debated: a bad id, layer or
// budget, an empty or oversized topic, a participant with an invalid name or
// role, a name used twice, or not exactly one defender and at least one
// attacker. Every error wraps ErrInvalidSession, ErrInvalidID,
// ErrUnknownLayer, ErrUnknownRole, ErrInvalidBudget or inbox.ErrInvalidName.
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
	if err := inbox.ValidateName(s.Coordinator); err != nil {
		return fmt.Errorf("%w: coordinator: %w", ErrInvalidSession, err)
	}
	seen := map[string]bool{s.Coordinator: true}
	defenders, attackers := 0, 0
	for _, p := range s.Participants {
		if err := inbox.ValidateName(p.Name); err != nil {
			return fmt.Errorf("%w: participant: %w", ErrInvalidSession, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("%w: %s takes part twice (or is the coordinator's name)", ErrInvalidSession, p.Name)
		}
		seen[p.Name] = true
		switch p.Role {
		case RoleDefender:
			defenders++
		case RoleAttacker:
			attackers++
		default:
			return fmt.Errorf("%w: %s: %w: %q", ErrInvalidSession, p.Name, ErrUnknownRole, p.Role)
		}
	}
	if defenders != 1 {
		return fmt.Errorf("%w: a debate needs exactly one defender, got %d", ErrInvalidSession, defenders)
	}
	if attackers < 1 {
		return fmt.Errorf("%w: a debate needs at least one attacker", ErrInvalidSession)
	}
	if s.Created != "" {
		if _, err := time.Parse(inbox.TimeLayout, s.Created); err != nil {
			return fmt.Errorf("%w: created %q is not %s", ErrInvalidSession, s.Created, inbox.TimeLayout)
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
	// Index is the attacker's position in speaking order (0-based); the
	// defender's Index is the number of attackers.
	Index int
}

// Order returns the speaking order of every round: the attackers in session
// order, then the defender.
func (s *DebateSession) Order() []Speaker {
	var out []Speaker
	for _, p := range s.Attackers() {
		out = append(out, Speaker{Participant: p, Index: len(out)})
	}
	return append(out, Speaker{Participant: s.Defender(), Index: len(out)})
}
