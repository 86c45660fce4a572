package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedCorpusIsGenerated: the committed corpus files are exactly
// what the generator writes (regenerate with
// go run ./gating/internal/corpusgen -out gating/corpus).
func TestCommittedCorpusIsGenerated(t *testing.T) {
	train, heldout, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"../../corpus/train.jsonl": train, "../../corpus/heldout.jsonl": heldout} {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output; regenerate it", name)
		}
	}
}
