package debate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestEvidenceChecks(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("one\ntwo\nthree"), 0o600) // no final newline: 3 lines
	os.Mkdir(filepath.Join(ws, "dir"), 0o700)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s\n"), 0o600)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(ws, "escape"))
	os.Symlink("a.go", filepath.Join(ws, "inside"))
	pages := PageFunc(func(ctx context.Context, name string) (bool, error) {
		switch name {
		case "idempotency":
			return true, nil
		case "broken":
			return false, errors.New("vault unreadable")
		}
		return false, nil
	})
	c, err := NewEvidenceChecker(ws, pages)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		ref    string
		kind   string
		status EvidenceStatus
	}{
		{"a.go", "path", EvidenceOK},
		{"./dir/../a.go", "path", EvidenceOK},
		{"a.go:3", "line", EvidenceOK},
		{"a.go:4", "line", EvidenceOutOfRange},
		{"a.go:1-3", "range", EvidenceOK},
		{"a.go:2-9", "range", EvidenceOutOfRange},
		{"a.go:0", "line", EvidenceInvalid},
		{"a.go:3-2", "range", EvidenceInvalid},
		{"dir", "path", EvidenceOK},
		{"dir:1", "line", EvidenceInvalid},
		{"missing.go", "path", EvidenceMissing},
		{"missing.go#L1-L2", "path", EvidenceMissing},
		{"a.go#L1-L2", "path", EvidenceInvalid}, // GitHub's anchor: the file is there
		{"a.go:2:5", "line", EvidenceInvalid},   // line:column
		{"dir#L1", "path", EvidenceMissing},
		{"../x", "path", EvidenceOutside},
		{"/etc/passwd", "path", EvidenceOutside},
		{"escape", "path", EvidenceOutside},
		{"escape:1", "line", EvidenceOutside},
		{"inside:2", "line", EvidenceOK},
		{"[[idempotency]]", "wiki", EvidenceOK},
		{"[[idempotency|the page]]", "wiki", EvidenceOK},
		{"[[idempotency#Keys]]", "wiki", EvidenceOK},
		{"[[nowhere]]", "wiki", EvidenceMissing},
		{"[[broken]]", "wiki", EvidenceInvalid},
		{"[[]]", "wiki", EvidenceInvalid},
		{"https://example.com/x", "url", EvidenceUnchecked},
		{"http://", "url", EvidenceInvalid},
		{"", "unknown", EvidenceInvalid},
		{"a\x00b", "unknown", EvidenceInvalid},
	} {
		got := c.CheckOne(context.Background(), tc.ref)
		if got.Kind != tc.kind || got.Status != tc.status {
			t.Errorf("%q: %s/%s (%s), want %s/%s", tc.ref, got.Kind, got.Status, got.Detail, tc.kind, tc.status)
		}
		// Lines found carry the hash of what they say; nothing else does.
		if wantHash := (tc.kind == "line" || tc.kind == "range") && tc.status == EvidenceOK; (got.Hash != "") != wantHash {
			t.Errorf("%q: hash %q", tc.ref, got.Hash)
		}
	}
	if got := c.CheckOne(context.Background(), "a.go#L1-L2"); got.Detail != "a.go is a file of the workspace, but lines are cited as path:line or path:from-to" {
		t.Errorf("a GitHub-style anchor: %+v", got)
	}
	if got := c.CheckOne(context.Background(), "a.go:2-3"); got.Hash != mustHash(t, "one\ntwo\nthree", 2, 3) {
		t.Errorf("hash of a.go:2-3 is %q", got.Hash)
	}
	// Without a workspace or a vault, paths and pages are recorded unchecked.
	var none *EvidenceChecker
	if got := none.CheckOne(context.Background(), "a.go:1"); got.Status != EvidenceUnchecked {
		t.Errorf("no workspace: %+v", got)
	}
	// Once the context is done, what is left is unchecked.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := c.Check(ctx, []string{"a.go"}); got[0].Status != EvidenceUnchecked {
		t.Errorf("after the deadline: %+v", got)
	}
}

// A named pipe in the workspace, cited as evidence, is checked without
// opening it for a read that would wait for a writer: the coordinator must
// not hang past its wall clock on a reference an agent chose.
func TestEvidenceNamedPipeDoesNotHang(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	c, err := NewEvidenceChecker(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan []EvidenceCheck, 1)
	go func() { done <- c.Check(context.Background(), []string{"pipe", "pipe:1"}) }()
	select {
	case got := <-done:
		if got[0].Status != EvidenceOK || got[1].Status != EvidenceInvalid {
			t.Fatalf("named pipe: %+v", got)
		}
	case <-time.After(20 * time.Second):
		// Unblock the checker's open so the goroutine ends.
		if f, err := os.OpenFile(filepath.Join(ws, "pipe"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("checking a named pipe blocked")
	}
}

func TestHashLines(t *testing.T) {
	t.Parallel()
	text := "one\ntwo\nthree\nfour"
	h := func(s string, from, to int) string {
		got, err := HashLines(strings.NewReader(s), from, to)
		if err != nil {
			return "error: " + err.Error()
		}
		return got
	}
	if h(text, 2, 3) != h("zero\ntwo\nthree\nfive\n", 2, 3) {
		t.Error("lines outside the range changed the hash")
	}
	if h(text, 2, 3) == h("one\ntwo\nTHREE\nfour", 2, 3) {
		t.Error("a change inside the range kept the hash")
	}
	if h(text, 4, 4) == h(text+"\n", 4, 4) {
		t.Error("a line end added to the last line kept the hash")
	}
	for _, r := range [][2]int{{4, 5}, {0, 1}, {3, 2}, {9, 9}} {
		if _, err := HashLines(strings.NewReader(text), r[0], r[1]); !errors.Is(err, ErrLinesOutOfRange) {
			t.Errorf("%v: %v", r, err)
		}
	}
}

func mustHash(t *testing.T, s string, from, to int) string {
	t.Helper()
	h, err := HashLines(strings.NewReader(s), from, to)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A spec or plan edited between two turns (a proposer that adds the section
// a critic asked for, then cites it) is checked as it is at each turn: lines
// added since an earlier turn are found, lines cut since are out of range.
func TestEvidenceFileEditedBetweenTurns(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	plan := filepath.Join(ws, "plan.md")
	if err := os.WriteFile(plan, []byte("one\ntwo\nthree\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewEvidenceChecker(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if got := c.Check(ctx, []string{"plan.md:2", "plan.md:5"}); got[0].Status != EvidenceOK || got[1].Status != EvidenceOutOfRange {
		t.Fatalf("turn 1: %+v", got)
	}
	if err := os.WriteFile(plan, []byte("one\ntwo\nthree\nfour\nfive\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := c.Check(ctx, []string{"plan.md:4-5"})
	if got[0].Status != EvidenceOK || got[0].Hash != mustHash(t, "one\ntwo\nthree\nfour\nfive\n", 4, 5) {
		t.Errorf("lines added after turn 1: %+v", got[0])
	}
	if err := os.WriteFile(plan, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, check := range []func() EvidenceCheck{
		func() EvidenceCheck { return c.Check(ctx, []string{"plan.md:2"})[0] },
		func() EvidenceCheck { return c.CheckOne(ctx, "plan.md:2") },
	} {
		if got := check(); got.Status != EvidenceOutOfRange || got.Detail != "the file has 1 line" || got.Hash != "" {
			t.Errorf("lines cut after turn 2: %+v", got)
		}
	}
}
