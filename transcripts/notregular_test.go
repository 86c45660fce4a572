package transcripts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A sealed debate one of whose files was replaced by something that is
// not a regular file (a named pipe, a directory, a symbolic link out of
// the root) was tampered with: the audit names the file as differing and
// says what stands in its place, rather than failing as unreadable
// ("malformed transcript data", "path escapes from parent": exit 1
// instead of 3) or naming the file's mode bits.
func TestAuditOfAFileReplacedByNotAFile(t *testing.T) {
	t.Parallel()
	plants := []struct {
		name, kind string
		plant      func(p, outside string) error
	}{
		{"pipe", "a named pipe", func(p, _ string) error { return syscall.Mkfifo(p, 0o600) }},
		{"directory", "a directory", func(p, _ string) error { return os.Mkdir(p, 0o700) }},
		{"symlink out of the root", "a symbolic link", func(p, outside string) error { return os.Symlink(outside, p) }},
	}
	for _, file := range []string{TranscriptFile, SessionFile, VerdictFile} {
		for _, c := range plants {
			t.Run(file+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s, dir := newStore(t)
				writeDebate(t, s, testID, 6, true).Close()
				p := filepath.Join(dir, Dir, testID, file)
				outside := filepath.Join(t.TempDir(), file)
				if err := os.Rename(p, outside); err != nil {
					t.Fatal(err)
				}
				if err := c.plant(p, outside); err != nil {
					t.Skip("cannot plant it here:", err)
				}
				tr, err := s.Audit(context.Background(), testID, Witnesses{})
				if err != nil {
					t.Fatalf("Audit: %v; want a report naming %s", err, file)
				}
				if file == TranscriptFile && (tr.Report.Intact || tr.Report.BadLine != 1) {
					t.Errorf("report %+v; want broken at line 1", tr.Report)
				}
				var found bool
				for _, fc := range tr.Audit {
					if fc.File == Path(testID, file) {
						found = true
						if fc.Status != FileDiffers || !strings.Contains(fc.Problem, "it is "+c.kind+", not a regular file") {
							t.Errorf("check of %s: %+v; want differs, saying it is %s", file, fc, c.kind)
						}
					}
				}
				if !found {
					t.Errorf("no check of %s in %+v", file, tr.Audit)
				}
			})
		}
	}
}

// The status of a debate whose transcript is gone, or was replaced by
// something that is not a regular file, is what its session says, as
// List lists it: "debate status" said "no debate ID (debate list lists
// them)" or "malformed transcript data" (exit 1) while the list showed
// the debate TAMPERED.
func TestStatusOfADebateWhoseTranscriptIsGoneOrNotAFile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		plant func(p string) error
	}{
		{"gone", func(string) error { return nil }},
		{"pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			writeDebate(t, s, testID, 6, true).Close()
			p := filepath.Join(dir, Dir, testID, TranscriptFile)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(p); err != nil {
				t.Skip("cannot plant it here:", err)
			}
			st, err := s.Status(testID)
			if err != nil || st.DebateID != testID || st.Events != 0 {
				t.Fatalf("Status: %+v, %v; want the debate's status, no events", st, err)
			}
		})
	}
}

// session.json and verdict.json of another debate put in this one's place
// are reported by their debate id, not by whichever field sorts first
// ("budget", "attacker_positions"), which hid that the file is another
// debate's.
func TestAnotherDebatesFilesAreNamedByTheirID(t *testing.T) {
	t.Parallel()
	const other = "20260101-spec-other-keys-ghijkl"
	s, dir := newStore(t)
	writeDebate(t, s, testID, 6, true).Close()
	writeDebate(t, s, other, 6, true).Close()
	for _, f := range []string{SessionFile, VerdictFile} {
		data, err := os.ReadFile(filepath.Join(dir, Dir, other, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, Dir, testID, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := s.Audit(context.Background(), testID, Witnesses{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{SessionFile: "session.json says id = \"" + other + "\"", VerdictFile: "verdict.json says debate_id = \"" + other + "\""}
	for _, fc := range tr.Audit {
		for f, w := range want {
			if fc.File == Path(testID, f) {
				delete(want, f)
				if fc.Status != FileDiffers || !strings.HasPrefix(fc.Problem, w) {
					t.Errorf("%s: %s, %q; want differs, %q…", f, fc.Status, fc.Problem, w)
				}
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("not checked: %v", want)
	}
}

// Another debate's transcript put in this one's place is named as that
// debate's: verify said only that line 1's prev "is not the genesis of"
// this debate ("a transcript of another debate, or line 1 was
// rewritten"), leaving the auditor to find which.
func TestAnotherDebatesTranscriptIsNamed(t *testing.T) {
	t.Parallel()
	const other = "20260101-spec-other-keys-ghijkl"
	s, dir := newStore(t)
	writeDebate(t, s, testID, 6, true).Close()
	writeDebate(t, s, other, 6, true).Close()
	data, err := os.ReadFile(filepath.Join(dir, Dir, other, TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Dir, testID, TranscriptFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Verify(testID)
	if err != nil || rep.Intact || rep.BadLine != 1 || !strings.Contains(rep.Problem, "it opens the chain of another debate, "+other) {
		t.Errorf("Verify: %+v, %v; want line 1 named as the chain of %s", rep, err, other)
	}
	// A line 1 rewritten in place names no other debate.
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(filepath.Join(dir, Dir, testID, TranscriptFile), []byte(strings.Replace(lines[0], `"seq":1`, `"seq":1 `, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if rep, err := s.Verify(testID); err != nil || rep.Intact || strings.Contains(rep.Problem, other) {
		t.Errorf("Verify of a rewritten line 1: %+v, %v", rep, err)
	}
}
