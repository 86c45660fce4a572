package vocab

// Role is the name of a participant's part in a debate. Which roles exist,
// what they are told and which end rules apply to them is the debate's
// (package debate's role table); vocab only names the two every debate has.
type Role string

// The roles every debate has.
const (
	RoleDefender Role = "defender"
	RoleAttacker Role = "attacker"
)
