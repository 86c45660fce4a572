package gating

import (
	"fmt"
	"strings"
	"testing"
)

// hostileInputs are near-limit texts built to make a careless scanner
// quadratic: unmatched quotes and backticks, apostrophes that never close,
// thousands of distinct statements, one enormous word.
func hostileInputs() map[string]string {
	fill := func(unit string) string {
		return strings.Repeat(unit, (MaxInputBytes-1024)/len(unit))
	}
	var ticks strings.Builder
	for n := 1; ticks.Len() < MaxInputBytes/2; n++ {
		ticks.WriteString(strings.Repeat("`", n%200+1) + " x ")
	}
	var claims strings.Builder
	for i := 0; claims.Len() < MaxInputBytes-1024; i++ {
		fmt.Fprintf(&claims, "The cache%d is safe%d. ", i, i)
	}
	return map[string]string{
		"apostrophes":     fill(" 'a'a'a'a'a"),
		"unmatched quote": fill("\"" + strings.Repeat("probably ", 70) + "\n"),
		"backtick runs":   ticks.String(),
		"statements":      claims.String(),
		"wikilinks":       fill("[[a "),
		"urls":            fill("http://"),
		"one word":        fill("a"),
		"paths":           fill("a/b.go:1 "),
		"hedges":          fill("I'm not sure it might probably fail. "),
		// One endless sentence, then endless short ones, full of what
		// the failure, verdict, dismissal and settled-doubt scans look at.
		"failures and verdicts": fill("TestX fails now works close enough I checked 3 rows PASS "),
		"questions and checks":  fill("Does it fail? Works. I ran go test ./x -run Y. PASS\n- ran: curl -s a/b\n"),
		"answer figures":        "Initial answer: 1 row\nFinal answer: " + fill("5 rows 7 ms "),
	}
}

// TestHostileInputsAreDecided runs the gate over each hostile input; the
// test binary's timeout is the guard (a quadratic scan takes hours), and
// BenchmarkDecideHostile measures them.
func TestHostileInputsAreDecided(t *testing.T) {
	t.Parallel()
	for name, text := range hostileInputs() {
		sc, err := ParseBytes([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := Default().Decide(sc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func BenchmarkDecideHostile(b *testing.B) {
	for name, text := range hostileInputs() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				sc, err := ParseBytes([]byte(text))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Default().Decide(sc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
