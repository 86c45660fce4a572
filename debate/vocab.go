package debate

import (
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/vocab"
)

// The debate's words are defined in package vocab, which every package may
// import; these aliases keep the names debate's callers have always used.

// Layer is the pipeline layer a debate belongs to (vocab.Layer).
type Layer = vocab.Layer

// The layers.
const (
	LayerSpec   = vocab.LayerSpec
	LayerPlan   = vocab.LayerPlan
	LayerVerify = vocab.LayerVerify
)

// Layers lists every layer in pipeline order.
var Layers = vocab.Layers

// ParseLayer is vocab.ParseLayer.
func ParseLayer(s string) (Layer, error) { return vocab.ParseLayer(s) }

// Role is a participant's part in a debate (vocab.Role); RoleSpec says
// what each role is.
type Role = vocab.Role

// The roles every debate has.
const (
	RoleDefender = vocab.RoleDefender
	RoleAttacker = vocab.RoleAttacker
)

// ParseRole accepts the name of a registered role (any case); anything
// else wraps ErrUnknownRole.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := LookupRole(r); ok {
		return r, nil
	}
	return "", fmt.Errorf("%w: %q (use %s)", ErrUnknownRole, s, roleNames())
}

// Verdict is how a debate ended (vocab.Verdict).
type Verdict = vocab.Verdict

// The verdicts.
const (
	ConsensusReached = vocab.ConsensusReached
	Deadlock         = vocab.Deadlock
	BudgetExhausted  = vocab.BudgetExhausted
	Timeout          = vocab.Timeout
	Unavailable      = vocab.Unavailable
)

// Verdicts lists every verdict.
var Verdicts = vocab.Verdicts

// ParseVerdict is vocab.ParseVerdict.
func ParseVerdict(s string) (Verdict, error) { return vocab.ParseVerdict(s) }

// Action is what the caller should do with a verdict (vocab.Action).
type Action = vocab.Action

// The actions.
const (
	ActionProceed  = vocab.ActionProceed
	ActionEscalate = vocab.ActionEscalate
)

// ActionFor is vocab.ActionFor.
func ActionFor(v Verdict, final string) Action { return vocab.ActionFor(v, final) }

// Normalize is vocab.Normalize.
func Normalize(position string) string { return vocab.Normalize(position) }

// PositionHash is vocab.PositionHash.
func PositionHash(position string) string { return vocab.PositionHash(position) }

// Slug is vocab.Slug.
func Slug(text string, max int) string { return vocab.Slug(text, max) }

// SlugOr is vocab.SlugOr.
func SlugOr(text string, max int) string { return vocab.SlugOr(text, max) }

// NewID is vocab.NewID.
func NewID(now time.Time, l Layer, topic string) string { return vocab.NewID(now, l, topic) }

// ValidateID is vocab.ValidateID.
func ValidateID(id string) error { return vocab.ValidateID(id) }
