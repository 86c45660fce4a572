package gating

import (
	"bytes"
	_ "embed"
)

//go:embed corpus/heldout.jsonl
var heldoutCorpus []byte

// HeldOut returns the shipped held-out split of the corpus (the examples
// training never sees), parsed. It is what "parley bench gate" decides on.
func HeldOut() ([]Example, error) { return ReadCorpus(bytes.NewReader(heldoutCorpus)) }
