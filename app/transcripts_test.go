package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A bad filter names its field; the since error names the value once.
func TestTranscriptQueryFilter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f, err := TranscriptQuery{Layer: "plan", Verdict: "DEADLOCK", Since: "36h", Now: now}.Filter()
	if err != nil || f.Layer != "plan" || f.Verdict != "DEADLOCK" || !f.Since.Equal(now.Add(-36*time.Hour)) {
		t.Fatalf("filter %+v %v", f, err)
	}
	for q, field := range map[TranscriptQuery]string{
		{Layer: "deploy"}:     "layer",
		{Verdict: "MAYBE"}:    "verdict",
		{Since: "yesterday"}:  "since",
		{Since: "-3d"}:        "since",
		{Since: "7d\x1b[31m"}: "since",
	} {
		_, err := q.Filter()
		var ie *Error
		if !errors.As(err, &ie) || ie.Field != field || ie.Problem != ProblemInvalid {
			t.Errorf("%+v: %v", q, err)
			continue
		}
		if msg := ie.Format(func(f string) string { return "--" + f }); strings.Count(msg, "since") > 1 || !strings.HasPrefix(msg, "--"+field) {
			t.Errorf("%+v: %q", q, msg)
		}
	}
}

// Reading never makes a root: with none, listing and reading say so.
func TestTranscriptsWithoutRoot(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	if _, err := a.ListTranscripts(context.Background(), TranscriptQuery{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("list: %v", err)
	}
	if _, err := a.ReadTranscript(context.Background(), "20261201-spec-upload-size-cap-abcdef"); !IsNoDebate(err) {
		t.Errorf("read: %v", err)
	}
	if _, err := os.Stat(a.Root()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a read made the root: %v", err)
	}
}

// A seal key is written for its owner only, and never over a file.
func TestNewSealKeyNeverReplaces(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "seal.key")
	k, err := NewSealKey(file)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 || k.SigningKey != file || len(k.PublicKey) != 44 {
		t.Fatalf("key %+v, %v %v", k, info.Mode(), err)
	}
	before, _ := os.ReadFile(file)
	if _, err := NewSealKey(file); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second key: %v", err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("the key was replaced")
	}
}

// TestQueriesNameTheVerdictsTheyTake: a debate can end UNAVAILABLE, a
// record never holds it; each query's refusal lists what it takes.
func TestQueriesNameTheVerdictsTheyTake(t *testing.T) {
	_, err := TranscriptQuery{Verdict: "NOPE"}.Filter()
	if !IsProblem(err, ProblemInvalid) || !strings.Contains(err.Error(), "TIMEOUT or UNAVAILABLE") {
		t.Errorf("transcripts: %v", err)
	}
	if _, err := (TranscriptQuery{Verdict: "UNAVAILABLE"}).Filter(); err != nil {
		t.Errorf("transcripts of UNAVAILABLE debates: %v", err)
	}
	_, err = RecordQuery{Verdict: "NOPE"}.Filter()
	if !IsProblem(err, ProblemInvalid) || strings.Contains(err.Error(), "UNAVAILABLE") {
		t.Errorf("records: %v", err)
	}
}
