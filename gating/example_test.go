package gating_test

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/gating"
)

// Parse a Markdown self-critique and let the embedded model decide.
func ExampleGate_Decide() {
	sc, err := gating.Parse(strings.NewReader(`Layer: verify

## Initial answer
Yes: retries stop after five attempts.
Confidence: 0.9

## Self-critique
I think the counter is probably reset on a 429, but I'm not sure.
Whether the backoff path works is unknown.

## Final answer
Yes, probably.
Final confidence: 90%
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := gating.Default().Decide(sc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Outcome, d.Mode, d.Layer)
	for _, c := range d.Cues {
		if c.Feature == "first_person_uncertainty" || c.Feature == "unknown_markers" {
			fmt.Printf("%s: %s\n", c.Feature, c.Text)
		}
	}
	// Output:
	// debate model verify
	// first_person_uncertainty: I think; I'm not sure
	// unknown_markers: unknown
}

// The seed's starter rule: skip iff confidence ≥ 0.8 and no uncertainty
// markers. Quoted text does not count.
func ExampleRules() {
	for _, text := range []string{
		`{"critique": "The ticket says \"this might fail\"; the test shows it does not.", "final_confidence": 0.8}`,
		`{"critique": "It might fail.", "final_confidence": 0.95}`,
		`{"critique": "The test shows it does not fail.", "final_confidence": 0.79}`,
	} {
		sc, err := gating.Parse(strings.NewReader(text))
		if err != nil {
			fmt.Println(err)
			return
		}
		d, _ := gating.Rules().Decide(sc)
		fmt.Println(d.Outcome)
	}
	// Output:
	// skip
	// debate
	// debate
}

// Malformed input is an error, never a default decision.
func ExampleParse_malformed() {
	_, err := gating.Parse(strings.NewReader(`{"critique": "fine", "final_confidence": 7}`))
	fmt.Println(err)
	// Output:
	// confidence out of range: final_confidence is 7 (use a number from 0 to 1, or a string like "80%")
}
