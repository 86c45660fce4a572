package inbox

import (
	"fmt"
	"testing"
)

func TestSeenSetForgetsOldestFirst(t *testing.T) {
	t.Parallel()
	s := NewSeenSet(3)
	for i := range 3 {
		if !s.Add(fmt.Sprint(i)) {
			t.Fatalf("%d reported as seen", i)
		}
	}
	if s.Add("1") {
		t.Fatal("a remembered id was reported new")
	}
	s.Add("3") // forgets 0
	if s.Has("0") || !s.Has("1") || !s.Has("3") {
		t.Fatalf("after wrap: 0=%v 1=%v 3=%v", s.Has("0"), s.Has("1"), s.Has("3"))
	}
	s.Add("4") // forgets 1
	s.Add("5") // forgets 2
	s.Add("6") // forgets 3
	for id, want := range map[string]bool{"1": false, "2": false, "3": false, "4": true, "5": true, "6": true} {
		if s.Has(id) != want {
			t.Errorf("Has(%s) = %v, want %v", id, !want, want)
		}
	}
	if len(s.ids) != 3 {
		t.Errorf("remembers %d ids, capacity 3", len(s.ids))
	}
}
