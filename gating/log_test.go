package gating

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/internal/roottest"
)

func TestAppendAndReadLog(t *testing.T) {
	t.Parallel()
	root, dir := roottest.Temp(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	inputs := []SelfCritique{
		{Layer: debate.LayerSpec, Critique: "I think it might fail.", Question: "Q1"},
		{Layer: debate.LayerVerify, Critique: "It holds; see a.go:1.", FinalConfidence: conf(0.9), EvidenceRefs: []string{"a.go:1"}},
		{Critique: "No layer; it holds.", FinalConfidence: conf(0.95)},
	}
	var wg sync.WaitGroup
	for i, sc := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := Rules().Decide(sc)
			if err != nil {
				t.Error(err)
				return
			}
			if err := AppendLog(root, NewLogEntry(d, sc, "in"+string(rune('0'+i)), now)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	fi, err := os.Stat(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("gate.jsonl mode %v, want 0600", fi.Mode().Perm())
	}
	// A torn last line (a crash mid-write) is skipped and counted.
	f, _ := root.OpenFile(LogName, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-11-30T12:00:00.000Z","decision":"sk`)
	f.Close()
	r, _ := root.Open(LogName)
	defer r.Close()
	entries, bad, err := ReadLog(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || bad != 1 {
		t.Fatalf("%d entries, %d bad; want 3 and 1", len(entries), bad)
	}
	for _, e := range entries {
		if e.Time != "2026-11-30T12:00:00.000Z" || e.Mode != ModeRules || !strings.HasPrefix(e.Source, "in") {
			t.Errorf("entry %+v", e)
		}
	}
	// The next decision after the torn line is a line of its own, not
	// glued to the fragment and lost with it.
	d, err := Rules().Decide(inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := AppendLog(root, NewLogEntry(d, inputs[0], "after-crash", now)); err != nil {
		t.Fatal(err)
	}
	r2, _ := root.Open(LogName)
	defer r2.Close()
	after, badAfter, err := ReadLog(r2)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 4 || badAfter != 1 || after[3].Source != "after-crash" {
		t.Fatalf("after the torn line: %d entries, %d bad; want 4 and 1 (the new decision kept)", len(after), badAfter)
	}
	budget := func(l debate.Layer) int { return debate.DefaultBudget(l).MaxTokens }
	s := Summarize(entries, bad, budget)
	// spec debates (6000); verify skips (8000 saved); unlayered skips at the
	// smallest budget (6000 saved).
	if s.Decisions != 3 || s.Skip != 2 || s.Debate != 1 || s.TokensAlwaysDebate != 20000 || s.TokensGated != 6000 || s.TokensSaved != 14000 || s.BadLines != 1 {
		t.Errorf("stats %+v", s)
	}
	if s.ByLayer["unknown"].TokensSaved != 6000 || s.ByLayer["verify"].Skip != 1 {
		t.Errorf("by layer %+v", s.ByLayer)
	}
}

func TestReadLogSkipsOverlongLines(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("x", MaxLogLine+10) + "\n" + `{"time":"t","decision":"debate","score":1,"threshold":0.2,"mode":"rules","cues":[]}` + "\n\n{\"decision\":\"maybe\"}\n"
	entries, bad, err := ReadLog(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || bad != 2 {
		t.Errorf("%d entries, %d bad; want 1 and 2", len(entries), bad)
	}
}

// TestLogKeepsTheInputForLabelling: a decision's line keeps its
// self-critique (what "gate label --decision" labels), except one too large
// to keep, whose line stays readable.
func TestLogKeepsTheInputForLabelling(t *testing.T) {
	t.Parallel()
	small := SelfCritique{Critique: "TestX passes.", FinalAnswer: "Yes."}
	d, _ := Default().Decide(small)
	e := NewLogEntry(d, small, "-", time.Now())
	if e.Input == nil || e.Input.Critique != small.Critique || len(e.ID) != 8 {
		t.Errorf("small entry %+v", e)
	}
	big := SelfCritique{Critique: strings.Repeat("It might hold. ", MaxLoggedInput/10)}
	d, _ = Default().Decide(big)
	e = NewLogEntry(d, big, "-", time.Now())
	if e.Input != nil {
		t.Error("an oversized self-critique was kept in the log line")
	}
	line, _ := json.Marshal(e)
	if len(line) > MaxLogLine {
		t.Errorf("log line of %d bytes is longer than MaxLogLine", len(line))
	}
}

// A self-critique whose JSON escaping makes it several times its size
// (markup full of '<', '>' and '&', each six bytes in the line) is logged
// without its input, so that its decision can be read back, counted and
// named; before, its line was longer than MaxLogLine and the decision
// "parley gate" had just printed, with a hint to label it, was lost to
// stats and to "gate label --decision". Under the bound, the input is kept.
func TestLogLinesStayReadableWhateverTheEscaping(t *testing.T) {
	t.Parallel()
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		name     string
		critique string
		kept     bool
	}{
		{"markup", "Self-critique: " + strings.Repeat("<<<<<<<<<< maybe <<<<<<<<<<<<<<<< && >>>>>>>>>>\n", 4500), false},
		{"quotes and backslashes", strings.Repeat(`I am not sure "\\" ends the path. `, 7500), false},
		{"plain text under the bound", strings.Repeat("I am not sure <b> holds. ", 4000), true},
	} {
		sc, err := ParseBytes([]byte(tc.critique))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d, err := Default().Decide(sc)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		e := NewLogEntry(d, sc, tc.name, time.Now())
		if (e.Input != nil) != tc.kept {
			t.Errorf("%s: input kept %v, want %v", tc.name, e.Input != nil, tc.kept)
		}
		if err := AppendLog(root, e); err != nil {
			t.Fatal(err)
		}
		f, err := root.Open(LogName)
		if err != nil {
			t.Fatal(err)
		}
		entries, bad, err := ReadLog(f)
		f.Close()
		if err != nil || bad != 0 {
			t.Fatalf("%s: %d bad line(s), %v", tc.name, bad, err)
		}
		if got, err := FindDecision(entries, e.ID); err != nil || got.Source != tc.name {
			t.Errorf("%s: decision %s not read back: %v", tc.name, e.ID, err)
		}
	}
}

// A named pipe planted where gate.jsonl or labels.jsonl goes is refused
// as not a regular file before anything is written: before, the line went
// into the pipe (opened read-write, it never blocked) and the error was
// the fsync's "invalid argument".
func TestAppendRefusesANamedPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, LabelDir), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LogName, LabelsName} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sc := SelfCritique{Critique: "I am not sure."}
	d, err := Rules().Decide(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := AppendLog(root, NewLogEntry(d, sc, "-", time.Now())); !errors.Is(err, regfile.ErrNotRegular) {
		t.Errorf("AppendLog: %v, want ErrNotRegular", err)
	}
	if err := AppendLabels(root, []Label{{Time: "t", Source: SourceUser, Label: Debate, Input: sc}}); !errors.Is(err, regfile.ErrNotRegular) {
		t.Errorf("AppendLabels: %v, want ErrNotRegular", err)
	}
}

// TestSummarizeRangeIgnoresUnreadableTimes: the range of a log is that of
// its decisions whose time reads as RFC 3339, by time, not by string; a
// hand-edited line with no time, or with words for one, still counts as a
// decision but leaves the range alone.
func TestSummarizeRangeIgnoresUnreadableTimes(t *testing.T) {
	t.Parallel()
	budget := func(debate.Layer) int { return 1000 }
	entry := func(tm string) LogEntry {
		return LogEntry{Time: tm, Decision: Decision{Outcome: Debate, Mode: ModeModel}}
	}
	for _, c := range []struct {
		name        string
		times       []string
		first, last string
	}{
		{"all timed", []string{"2026-12-02T10:00:00.000Z", "2026-12-01T09:00:00.000Z", "2026-12-03T08:00:00.000Z"}, "2026-12-01T09:00:00.000Z", "2026-12-03T08:00:00.000Z"},
		{"one without a time", []string{"2026-12-02T10:00:00.000Z", "", "2026-12-03T08:00:00.000Z"}, "2026-12-02T10:00:00.000Z", "2026-12-03T08:00:00.000Z"},
		{"words for a time", []string{"yesterday", "2026-12-02T10:00:00.000Z"}, "2026-12-02T10:00:00.000Z", "2026-12-02T10:00:00.000Z"},
		{"another offset", []string{"2026-12-02T10:00:00+02:00", "2026-12-02T09:30:00Z"}, "2026-12-02T10:00:00+02:00", "2026-12-02T09:30:00Z"},
		{"none timed", []string{"", "soon"}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var entries []LogEntry
			for _, tm := range c.times {
				entries = append(entries, entry(tm))
			}
			s := Summarize(entries, 0, budget)
			if s.Decisions != len(c.times) || s.First != c.first || s.Last != c.last {
				t.Errorf("%d decisions, range %q … %q; want %d, %q … %q", s.Decisions, s.First, s.Last, len(c.times), c.first, c.last)
			}
		})
	}
}
