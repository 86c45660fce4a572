package bench

import (
	"testing"
	"time"
)

// The delivery check counts what a user would call lost, doubled or out of
// order, and nothing else: two sends that overlapped in time have no order.
func TestWatcherCheck(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	w := &watcher{waiting: map[string]chan time.Time{}, seen: map[string]int{}, order: map[string][]string{}}
	spans := map[string]span{
		"idle A 0": {at(0), at(10)}, "idle A 1": {at(20), at(30)}, "idle A 2": {at(40), at(50)},
		// B 0 and B 1 overlapped: either order is right.
		"stream B 0": {at(0), at(30)}, "stream B 1": {at(20), at(25)},
		"stream B 2": {at(60), at(70)},
		"warmup W 0": {at(0), at(1)},
	}
	arrive := func(text string) {
		w.seen[text]++
		f := text[:len(text)-2]
		w.order[f] = append(w.order[f], text)
	}
	// A: 2 arrives before 1 though 1 had exited before 2 was spawned.
	arrive("idle A 0")
	arrive("idle A 2")
	arrive("idle A 1")
	arrive("stream B 1")
	arrive("stream B 0")
	arrive("stream B 0") // doubled
	arrive("warmup W 0")
	arrive("warmup W 0") // warm-up messages are not counted
	w.waiting["stream B 2"] = make(chan time.Time, 1)
	lost, dup, reordered, total := w.check(map[string]int{"Ida": 3, "Sten": 3, "Warm": 1}, spans)
	if lost != 1 || dup != 1 || reordered != 1 || total != 6 {
		t.Fatalf("lost %d, duplicated %d, reordered %d, total %d; want 1, 1, 1, 6", lost, dup, reordered, total)
	}
}
