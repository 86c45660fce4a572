package vocab_test

import (
	"fmt"
	"time"

	"github.com/parleyhq/parley/vocab"
)

// Two wordings of one position are the same position; a debate id reads
// well in a listing and names a directory safely.
func Example() {
	fmt.Println(vocab.PositionHash("Use UUIDv7 keys.") == vocab.PositionHash("  use uuidv7   KEYS"))
	id := vocab.NewID(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), vocab.LayerPlan, "Größe der Warteschlange?")
	fmt.Println(id[:len(id)-7], vocab.ValidateID(id) == nil)
	fmt.Println(vocab.ValidateName("../etc") != nil, vocab.ActionFor(vocab.BudgetExhausted, ""))
	// Output:
	// true
	// 20261201-plan-grosse-der-warteschlange true
	// true escalate
}
