package consensus

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkCheckReworded is a warm check of a question asked in other
// words than its record's topic (the topic's number dropped and its first
// word swapped), with the record's position: the path that scores
// candidates by their cover and, when none reaches the threshold, by the
// question's evidence.
func BenchmarkCheckReworded(b *testing.B) {
	s := warmStore(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		o := benchOutcomes[r.IntN(len(benchOutcomes))]
		f := strings.Fields(o.Session.Topic)
		topic := "how do we handle " + strings.Join(f[1:len(f)-2], " ") + "?"
		if _, err := s.Check(ctx, o.Session.Layer, topic, o.DefenderPosition); err != nil {
			b.Fatal(err)
		}
	}
}
