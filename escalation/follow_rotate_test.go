package escalation

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRotationGapKeepsTheLastLine writes a line to the rotated file in
// the gap between reading it to its end and seeing the new file at the
// path, the interleaving a loaded machine produces now and then: the line
// is read from the old file before the new one is opened.
func TestRotationGapKeepsTheLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	old, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	write := func(f *os.File, s string) {
		t.Helper()
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	write(old, "first\n")
	var got []string
	tl := &tail{path: path, log: slog.New(slog.NewTextHandler(io.Discard, nil)), handle: func(src Source, l Line) error {
		got = append(got, fmt.Sprintf("%d:%d:%s", src.Generation, l.N, l.Data))
		return nil
	}}
	defer tl.close()
	if err := tl.read(); err != nil {
		t.Fatal(err)
	}
	rotated := false
	tl.checking = func() {
		if rotated {
			return
		}
		rotated = true
		// The writer's rotation, between the read and the check: the file
		// moved away, a last line appended to it through the writer's
		// descriptor, then a new file created at the path.
		if err := os.Rename(path, path+".1"); err != nil {
			t.Fatal(err)
		}
		write(old, "last of the old\n")
		nf, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer nf.Close()
		write(nf, "first of the new\n")
	}
	if err := tl.read(); err != nil {
		t.Fatal(err)
	}
	want := []string{"1:1:first", "1:2:last of the old", "2:1:first of the new"}
	if !slices.Equal(got, want) {
		t.Errorf("lines read %q, want %q", got, want)
	}
}

// TestRewriteInPlaceIsReadFromItsStart rewrites the followed file in place
// (opened with O_TRUNC, then written past where it had been read) between
// two reads, as a writer that rewrites its log does: its size never looks
// smaller, yet the first line of the new content must not be skipped.
func TestRewriteInPlaceIsReadFromItsStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	if err := os.WriteFile(path, []byte("first\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	tl := &tail{path: path, log: slog.New(slog.NewTextHandler(io.Discard, nil)), handle: func(src Source, l Line) error {
		got = append(got, fmt.Sprintf("%d:%d:%s", src.Generation, l.N, l.Data))
		return nil
	}}
	defer tl.close()
	if err := tl.read(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("other\nsecond\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := tl.read(); err != nil {
		t.Fatal(err)
	}
	want := []string{"1:1:first", "2:1:other", "2:2:second"}
	if !slices.Equal(got, want) {
		t.Errorf("lines read %q, want %q", got, want)
	}
}
