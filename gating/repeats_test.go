package gating

import (
	"strings"
	"testing"
)

func TestCollapseRepeats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"probably probably probably", "probably"},
		{"very very good", "very very good"}, // said twice: left alone
		{"I am not sure; I am not sure; I am not sure; ", "I am not sure; "},
		{"Not sure. not sure; NOT SURE! Ran the tests.", "Not sure. Ran the tests."},
		{"- todo\n- todo\n- todo\n- done\n", "- todo\n- done\n"},
		{"a b a b a b c", "a b c"},
		{"no repeats at all here", "no repeats at all here"},
		{"", ""},
		{"x " + strings.Repeat("- ", 1000) + "y", "x - y"},
	} {
		if got := collapseRepeats(c.in); got != c.want {
			t.Errorf("collapseRepeats(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkCollapseRepeats(b *testing.B) {
	ex := benchExamples(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		collapseRepeats(ex[i%len(ex)].Critique)
	}
}
