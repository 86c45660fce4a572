package consensus

import (
	"slices"
	"testing"
)

// TestStopWordsAsWritten: a stop word is dropped as written and in its
// listed inflections, but a word that only shares its stem ("canning",
// "owned", "willing") is a word of its own: "Dissolved oxygen limit at
// canning" names canning.
func TestStopWordsAsWritten(t *testing.T) {
	kept := map[string]string{
		"Dissolved oxygen limit at canning":            "canning",
		"Cans are recycled separately":                 "Cans",
		"Devices owned by contractors are wiped":       "owned",
		"Only willing volunteers are asked":            "willing",
		"The backs of the cards are printed in grey":   "backs",
		"Wills are stored in the fireproof safe":       "Wills",
		"Mays and Junes get the summer rota":           "Mays",
		"The musts of the launch checklist are ticked": "musts",
	}
	for text, word := range kept {
		w := analyze(word).words()
		if len(w) != 1 {
			t.Fatalf("%q alone analyses to %q", word, w)
		}
		if !slices.Contains(analyze(text).words(), w[0]) {
			t.Errorf("%q: %q dropped (words %q)", text, word, analyze(text).words())
		}
	}
	for _, text := range []string{"Users can upload files", "It will be shipped", "You may not", "We must do it", "It does not have to be done", "Keep your own copy"} {
		for _, w := range analyze(text).words() {
			if slices.Contains([]string{"can", "will", "may", "must", "do", "have", "own"}, w) {
				t.Errorf("%q: the stop word %q kept (words %q)", text, w, analyze(text).words())
			}
		}
	}
}
