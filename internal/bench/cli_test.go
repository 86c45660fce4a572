package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// A watcher that dies ends the run at once with what it said, rather than
// waiting out a timeout for every message still to come.
func TestRunCLIStopsWhenTheWatcherDies(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "parley")
	script := "#!/bin/sh\ncase \" $* \" in\n*\" watch \"*) echo 'watch: the disk is on fire' >&2; exit 1;;\nesac\nexit 0\n"
	if err := os.WriteFile(fake, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	floor, err := BuildFloor(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = RunCLI(ctx, CLIOptions{Parley: fake, Floor: floor, Dir: filepath.Join(dir, "run"), Idle: 1, Stream: 1, Blocks: 1, Senders: 1, PerSender: 1, Rounds: 1})
	if err == nil || !strings.Contains(err.Error(), "the disk is on fire") {
		t.Fatalf("RunCLI = %v, want the watcher's last words", err)
	}
	if d := time.Since(start); d > arrivalTimeout {
		t.Fatalf("RunCLI took %v to notice", d)
	}
}
