package gating

import "testing"

func TestShippedCorpusLoads(t *testing.T) {
	ex, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d examples", len(ex))
}
