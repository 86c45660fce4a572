package gating

import (
	"testing"
)

func benchExamples(b *testing.B) []Example {
	ex, err := Corpus()
	if err != nil {
		b.Fatal(err)
	}
	return ex
}

func BenchmarkExtract(b *testing.B) {
	ex := benchExamples(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Extract(ex[i%len(ex)].SelfCritique)
	}
}

func BenchmarkDecide(b *testing.B) {
	ex := benchExamples(b)
	g := Default()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Decide(ex[i%len(ex)].SelfCritique); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseAndDecide(b *testing.B) {
	ex := benchExamples(b)
	raw := make([][]byte, len(ex))
	for i, e := range ex {
		raw[i], _ = EncodeSelfCritique(e.SelfCritique)
	}
	g := Default()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sc, err := ParseBytes(raw[i%len(raw)])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Decide(sc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRulesDecide(b *testing.B) {
	ex := benchExamples(b)
	g := Rules()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Decide(ex[i%len(ex)].SelfCritique); err != nil {
			b.Fatal(err)
		}
	}
}
