package debate

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/vocab"
)

// RoleSpec is everything about one role a participant can take, in one
// place: how many of a session's participants may take it, where they speak
// in a round, what a turn request tells them, what a valid reply of theirs
// looks like, what each of their turns counts as, and the end rules checked
// after their turns. A new role is one RoleSpec (RegisterRole) and its rule
// functions; the coordinator, the journal and the filing need no change.
type RoleSpec struct {
	Name Role
	// Min and Max bound how many participants of a session take the role;
	// Max 0 means no limit. A role with Min 0 is optional.
	Min, Max int
	// Order places the role's speakers in a round: lower speaks first;
	// speakers of one role speak in session order.
	Order int
	// Task is the "Your task" paragraph of a turn request.
	Task string
	// ExampleCounter and ExampleConfidence fill the reply a plain-message
	// agent is shown; ReplyHint is the line after it.
	ExampleCounter    string
	ExampleConfidence int
	ReplyHint         string
	// MayConcede: a turn with an empty position, an empty counter_to and
	// confidence_change 0 concedes ("no further objections"); for any
	// other role an empty position is a bad reply.
	MayConcede bool
	// Decide says what one of the role's turns counted as (a Decision with
	// Round, Role, Agent filled in is passed in); nil: nothing beyond who
	// spoke.
	Decide func(t *Tally, s *Slot, d *Decision)
	// Rules are the end rules checked, in order, right after a slot of
	// this role settles; the rules every debate shares (UnavailableRule
	// before, SharedRules after) are not repeated here.
	Rules []EndRule
}

// builtinRoles are the roles every debate has: one defender, and one or
// more attackers, who speak first.
func builtinRoles() []*RoleSpec {
	return []*RoleSpec{{
		Name: RoleAttacker, Min: 1, Max: 0, Order: 10,
		Task:              "Attack the defender's standing position. State your own position and the claim you counter. If you have no further objections, reply with an empty `counter_to` and `confidence_change: 0`.",
		ExampleCounter:    "<the claim of the defender you counter>",
		ExampleConfidence: -1,
		ReplyHint:         "To concede (no further objections), send `\"position\": \"\"`, `\"counter_to\": \"\"` and `\"confidence_change\": 0`.",
		MayConcede:        true,
		Decide:            decideAttacker,
		Rules:             []EndRule{{RuleConceded, conceded}},
	}, {
		Name: RoleDefender, Min: 1, Max: 1, Order: 20,
		Task:      "Defend the position against this round's attacks. Restate it unchanged if it holds, refine it, or adopt an attacker's position word for word if they are right.",
		ReplyHint: "To hold your position, restate it word for word; to adopt an attacker's position, copy it word for word.",
		Decide:    decideDefender,
		Rules:     []EndRule{{RuleAdopted, adopted}, {RuleSurvived, survived}, {RuleRepeated, repeated}},
	}}
}

// roles is the role table, the built-in roles until RegisterRole adds
// one; filled on first use.
var roles struct {
	sync.RWMutex
	specs []*RoleSpec
}

// table is the role table, under the read lock or the write lock.
func table() []*RoleSpec {
	if roles.specs == nil {
		roles.specs = builtinRoles()
	}
	return roles.specs
}

// RegisterRole adds a role to the table. It is meant for program start
// (or a test's setup): sessions validated before see the old table. The
// name must be a valid, lower-case agent-name-like word not yet
// registered; the error wraps ErrUnknownRole otherwise.
func RegisterRole(spec RoleSpec) error {
	if err := vocab.ValidateName(string(spec.Name)); err != nil || strings.ToLower(string(spec.Name)) != string(spec.Name) {
		return fmt.Errorf("%w: cannot register %q: use a lower-case name", ErrUnknownRole, spec.Name)
	}
	if spec.Max != 0 && spec.Max < spec.Min {
		return fmt.Errorf("%w: %s: Max %d is below Min %d", ErrUnknownRole, spec.Name, spec.Max, spec.Min)
	}
	roles.Lock()
	defer roles.Unlock()
	for _, r := range table() {
		if r.Name == spec.Name {
			return fmt.Errorf("%w: %s is already registered", ErrUnknownRole, spec.Name)
		}
	}
	roles.specs = append(roles.specs, &spec)
	return nil
}

// LookupRole returns the spec of role r.
func LookupRole(r Role) (*RoleSpec, bool) {
	for _, s := range Roles() {
		if s.Name == r {
			return s, true
		}
	}
	return nil, false
}

// Roles lists the registered roles in speaking order.
func Roles() []*RoleSpec {
	roles.Lock() // table() may fill it
	out := slices.Clone(table())
	roles.Unlock()
	slices.SortStableFunc(out, func(a, b *RoleSpec) int { return a.Order - b.Order })
	return out
}

func roleNames() string {
	var names []string
	for _, s := range Roles() {
		names = append(names, string(s.Name))
	}
	return strings.Join(names, ", ")
}

// roleSpec is r's spec; an unregistered role (which Validate refuses
// before a debate starts) gets an empty one, with no rules.
func roleSpec(r Role) *RoleSpec {
	if s, ok := LookupRole(r); ok {
		return s
	}
	return &RoleSpec{Name: r}
}

// Spec is the participant's role: its RoleSpec from the role table (an
// empty spec, with no rules, for a role no one registered, which a
// session's Validate refuses).
func (p Participant) Spec() *RoleSpec { return roleSpec(p.Role) }
