package transcripts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sealed transcript whose last line lost only its final newline (an
// editor's or a copy's doing: nothing is appended to a sealed chain) reads
// as the chain it was sealed as, the same way for every reader: verify,
// read, audit, status and resume. Resume neither sets the seal line aside
// nor calls the debate tampered. Any byte a hash covers still counts: the
// line cut one byte shorter, or edited, is tampering.
func TestASealedTranscriptThatLostItsFinalNewline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		edit   func([]byte) []byte
		intact bool
	}{
		{"final newline gone", func(b []byte) []byte { return b[:len(b)-1] }, true},
		{"final newline and the closing brace gone", func(b []byte) []byte { return b[:len(b)-2] }, false},
		{"last line edited, no final newline", func(b []byte) []byte {
			return []byte(strings.Replace(string(b[:len(b)-1]), `"kind":"seal"`, `"kind":"seaL"`, 1))
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			writeDebate(t, s, testID, 8, true).Close()
			path := filepath.Join(dir, "debates", testID, TranscriptFile)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := tc.edit(data)
			if err := os.WriteFile(path, edited, 0o600); err != nil {
				t.Fatal(err)
			}
			rep, err := s.Verify(testID)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Intact != tc.intact || (tc.intact && rep.Events != 9) || (!tc.intact && rep.BadLine != 9) {
				t.Fatalf("verify: %+v", rep)
			}
			tr, err := s.Read(testID)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Report.Intact != tc.intact {
				t.Fatalf("read: %+v", tr.Report)
			}
			au, err := s.Audit(context.Background(), testID, Witnesses{})
			if err != nil {
				t.Fatal(err)
			}
			if bad := FirstBad(au.Audit); (bad == nil) != tc.intact {
				t.Fatalf("audit: %+v", au.Audit)
			}
			n := 0
			for _, fc := range au.Audit {
				if fc.File == Path(testID, TranscriptFile) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("audit checks the transcript %d times: %+v", n, au.Audit)
			}
			l, err := s.Open(context.Background(), testID)
			if !tc.intact {
				if err == nil {
					l.Close()
					t.Fatal("resume opened a tampered sealed transcript")
				}
				return
			}
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			if got := len(l.Events()); got != 9 {
				t.Fatalf("resume read %d events, want 9", got)
			}
			l.Close()
			if torn, _ := filepath.Glob(path + ".torn-*"); len(torn) != 0 {
				t.Fatalf("resume set the seal line aside: %v", torn)
			}
			if after, _ := os.ReadFile(path); string(after) != string(edited) {
				t.Fatal("resume changed the sealed transcript")
			}
			st, err := s.Status(testID)
			if err != nil {
				t.Fatal(err)
			}
			if st.Events != 9 {
				t.Fatalf("status counts %d events, want 9", st.Events)
			}
		})
	}
}

// TestASealedTranscriptCutAfterItsVerdict: a sealed transcript whose seal
// line was cut off keeps its verdict event: the audit names the one
// missing line as one line, and does not claim the verdict is missing
// too; cut before the verdict, it says the verdict is among them.
func TestASealedTranscriptCutAfterItsVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		keep              int
		transcript, check string
	}{
		{8, "line 9 is missing: verdict.json records 9 events, the transcript ends after 8",
			"the chain's verdict (line 8) is there; the end verdict.json records, 9 events ending at head "},
		{6, "lines 7 to 9 are missing: verdict.json records 9 events, the transcript ends after 6",
			"the chain's verdict is among the missing lines; verdict.json records 9 events ending at head "},
	} {
		s, dir := newStore(t)
		writeDebate(t, s, testID, 8, true).Close()
		path := filepath.Join(dir, "debates", testID, TranscriptFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		if err := os.WriteFile(path, []byte(strings.Join(lines[:tc.keep], "")), 0o600); err != nil {
			t.Fatal(err)
		}
		au, err := s.Audit(context.Background(), testID, Witnesses{})
		if err != nil {
			t.Fatal(err)
		}
		var tr, vj *FileCheck
		for i := range au.Audit {
			switch au.Audit[i].File {
			case Path(testID, TranscriptFile):
				tr = &au.Audit[i]
			case Path(testID, VerdictFile):
				vj = &au.Audit[i]
			}
		}
		if tr == nil || tr.Status != FileMissing || tr.Problem != tc.transcript {
			t.Errorf("kept %d lines: transcript %+v, want missing: %q", tc.keep, tr, tc.transcript)
		}
		if vj == nil || vj.Status != FileUnchecked || !strings.HasPrefix(vj.Problem, tc.check) {
			t.Errorf("kept %d lines: verdict.json %+v, want unchecked: %q…", tc.keep, vj, tc.check)
		}
	}
}

// TestTheAuditChecksTheTranscriptOnce: an interrupted debate whose last
// line a crash cut short has one check of its transcript (pending, its
// complete lines verifying), not a pending one and an intact one; with a
// line edited too, that one check says where it breaks.
func TestTheAuditChecksTheTranscriptOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		edit   bool
		status FileStatus
	}{{"torn last line", false, FilePending}, {"torn last line and an edit", true, FileDiffers}} {
		s, dir := newStore(t)
		writeDebate(t, s, testID, 8, false).Close()
		path := filepath.Join(dir, "debates", testID, TranscriptFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if tc.edit {
			data = []byte(strings.Replace(string(data), "position 5", "position 6", 1))
		}
		if err := os.WriteFile(path, append(data, `{"prev":"0123","seq":9,"ki`...), 0o600); err != nil {
			t.Fatal(err)
		}
		au, err := s.Audit(context.Background(), testID, Witnesses{})
		if err != nil {
			t.Fatal(err)
		}
		var checks []FileCheck
		for _, fc := range au.Audit {
			if fc.File == Path(testID, TranscriptFile) {
				checks = append(checks, fc)
			}
		}
		if len(checks) != 1 || checks[0].Status != tc.status {
			t.Errorf("%s: the transcript's checks %+v, want one, %s", tc.name, checks, tc.status)
		}
	}
}
