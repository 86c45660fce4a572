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

// Only empty, binary or oversized input is refused; anything readable is
// read, and the decision says how.
func ExampleParse_anyLayout() {
	sc, err := gating.Parse(strings.NewReader(`**Draft:** the export is paginated.
**Double-check:** spec §4.3 says cursor pages of at most 500; export/list.go:27 does that.
**Revised answer:** paginated, 500 per page.
Confidence: 0.7 -> 0.9
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range sc.Parsed.Sections {
		fmt.Printf("%s from %s %q\n", s.Section, s.How, s.Label)
	}
	for _, c := range sc.Parsed.Confidences {
		fmt.Printf("%s confidence %v (%s)\n", c.Slot, c.Value, c.How)
	}
	_, err = gating.Parse(strings.NewReader("\x00\x01"))
	fmt.Println(err)
	// Output:
	// initial_answer from bold "Draft"
	// critique from bold "Double-check"
	// final_answer from bold "Revised answer"
	// initial confidence 0.7 (a -> b)
	// final confidence 0.9 (a -> b)
	// input is not text: control byte 0x00 at offset 0
}
