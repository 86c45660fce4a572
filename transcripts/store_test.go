package transcripts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

const testID = "20260101-spec-idempotency-keys-abcdef"

func testSession(id string) *debate.DebateSession {
	return &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Position: "Use UUIDv7 keys",
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec), Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
	}
}

func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// writeDebate records a plausible debate of n events (open, then
// request/turn pairs, then a verdict) and seals it when seal is set.
func writeDebate(t testing.TB, s *Store, id string, n int, seal bool) *Log {
	t.Helper()
	ctx := context.Background()
	sess := testSession(id)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		t.Fatal(err)
	}
	rounds, tokens := 0, 0
	for i := 2; i < n; i++ {
		round := (i-2)/4 + 1
		rounds = round
		if i%2 == 0 {
			_, err = l.Append(ctx, debate.EventRequest, int64(i), debate.RequestEvent{RequestID: fmt.Sprintf("%s:r%d:x:a1", id, round), Round: round, Agent: "Critic", Attempt: 1})
		} else {
			_, err = l.Append(ctx, debate.EventTurn, int64(i), debate.TurnRecord{
				Turn:  debate.Turn{DebateID: id, Round: round, Role: debate.RoleAttacker, Position: fmt.Sprintf("position %d", i), Text: "line one\nline two with \"quotes\" and <html>", Tokens: 100},
				Agent: "Critic", PositionHash: debate.PositionHash(fmt.Sprintf("position %d", i)),
			})
			tokens += 100
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	o := &debate.Outcome{DebateID: id, Verdict: debate.Deadlock, Action: debate.ActionEscalate, Rule: debate.RuleRepeated, Reason: "repeated", Rounds: rounds, Tokens: tokens}
	if _, err := l.Append(ctx, debate.EventVerdict, int64(n), o); err != nil {
		t.Fatal(err)
	}
	if seal {
		if err := l.Seal(ctx, o, "wiki/consensus/spec-idempotency-keys.md"); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func TestLogRoundTrip(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	l := writeDebate(t, s, testID, 12, true)
	want := l.Events()
	head := l.Head()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Verify(testID)
	if err != nil || !rep.Intact || rep.Events != 13 || rep.Head != head || !rep.Sealed { // 12 and the seal event
		t.Fatalf("verify: %+v %v", rep, err)
	}
	l2, err := s.Open(context.Background(), testID)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	got := l2.Events()
	if len(got) != len(want) {
		t.Fatalf("%d events read back, %d written", len(got), len(want))
	}
	for i := range got {
		if got[i].Seq != i+1 || got[i].Kind != want[i].Kind || !bytes.Equal(got[i].Data, want[i].Data) || got[i].ElapsedMs != want[i].ElapsedMs {
			t.Fatalf("event %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if !l2.Sealed() || l2.Head() != head {
		t.Fatal("sealed state or head lost")
	}
	if err := l2.Seal(context.Background(), &debate.Outcome{}, ""); !errors.Is(err, debate.ErrSealed) {
		t.Fatalf("second seal: %v", err)
	}
	v, err := s.Verdict(testID)
	if err != nil || v.Verdict != debate.Deadlock || v.Events != 13 || v.Head != head || v.Record == "" || v.Transcript != "debates/"+testID+"/transcript.jsonl" {
		t.Fatalf("verdict.json: %+v %v", v, err)
	}
	// Permissions (SPEC §3).
	for name, mode := range map[string]os.FileMode{"debates/" + testID: 0o700, "debates/" + testID + "/transcript.jsonl": 0o600, "debates/" + testID + "/session.json": 0o600, "debates/" + testID + "/verdict.json": 0o600} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want %v", name, st.Mode().Perm(), err, mode)
		}
	}
	// Each line is {"prev":…,"seq":…,…,"hash":…}, prev first.
	data, _ := os.ReadFile(filepath.Join(dir, "debates", testID, "transcript.jsonl"))
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasPrefix(first, []byte(`{"prev":"`+Genesis(testID)+`","seq":1,"kind":"open","at":"`)) {
		t.Fatalf("line 1: %s", first)
	}
}

// Editing, deleting or reordering any line makes verification fail at that
// line; an untouched transcript verifies.
func TestVerifyNamesTheFirstBadLine(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	const n = 14
	writeDebate(t, s, testID, n-1, true).Close() // and the seal event
	path := filepath.Join(dir, "debates", testID, "transcript.jsonl")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(orig, []byte("\n"))
	lines = lines[:len(lines)-1] // the empty piece after the last newline
	if len(lines) != n {
		t.Fatalf("%d lines", len(lines))
	}
	join := func(ls [][]byte) []byte { return bytes.Join(ls, nil) }
	verify := func(data []byte) Report {
		t.Helper()
		v, err := s.Verdict(testID)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(bytes.NewReader(data), testID, &Seal{Events: v.Events, Head: v.Head})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := verify(orig); !rep.Intact || rep.Events != n {
		t.Fatalf("untouched transcript: %+v", rep)
	}
	edit := func(line []byte, at int) []byte {
		c := append([]byte(nil), line...)
		if c[at] == 'a' {
			c[at] = 'b'
		} else {
			c[at] = 'a'
		}
		return c
	}
	for i := 0; i < n; i++ {
		l := lines[i]
		cases := map[string]struct {
			data []byte
			want int
		}{}
		// An edit anywhere in the line: prev, seq, kind, data, the hash itself.
		for _, at := range []int{len(prevPrefix) + 3, bytes.Index(l, []byte(`"seq":`)) + 6, bytes.Index(l, []byte(`"kind":`)) + 8, bytes.Index(l, []byte(`"data":`)) + 9, len(l) - 10} {
			mod := append(append(append([][]byte{}, lines[:i]...), edit(l, at)), lines[i+1:]...)
			cases[fmt.Sprintf("edit byte %d", at)] = struct {
				data []byte
				want int
			}{join(mod), i + 1}
		}
		del := append(append([][]byte{}, lines[:i]...), lines[i+1:]...)
		cases["delete"] = struct {
			data []byte
			want int
		}{join(del), i + 1}
		dup := append(append(append([][]byte{}, lines[:i+1]...), lines[i]), lines[i+1:]...)
		cases["duplicate"] = struct {
			data []byte
			want int
		}{join(dup), i + 2}
		if i+1 < n {
			sw := append([][]byte{}, lines...)
			sw[i], sw[i+1] = sw[i+1], sw[i]
			cases["swap with next"] = struct {
				data []byte
				want int
			}{join(sw), i + 1}
		}
		for name, tc := range cases {
			rep := verify(tc.data)
			if rep.Intact || rep.BadLine != tc.want || rep.Problem == "" {
				t.Errorf("line %d, %s: report %+v, want bad line %d", i+1, name, rep, tc.want)
			}
		}
	}
	// Without verdict.json, a transcript cut after a complete line cannot
	// be told from one still being written (documented); a torn line can.
	rep, _ := Verify(bytes.NewReader(join(lines[:n-1])), testID, nil)
	if !rep.Intact || rep.Events != n-1 {
		t.Errorf("unsealed prefix: %+v", rep)
	}
	rep, _ = Verify(bytes.NewReader(join(append(lines[:n-1:n-1], lines[n-1][:40]))), testID, nil)
	if rep.Intact || rep.BadLine != n {
		t.Errorf("torn last line: %+v", rep)
	}
	// A transcript of another debate does not verify under this id.
	rep, _ = Verify(bytes.NewReader(orig), "20260101-spec-other-abcdef", nil)
	if rep.Intact || rep.BadLine != 1 || strings.Contains(rep.Problem, "line 0") || !strings.Contains(rep.Problem, "another debate") {
		t.Errorf("transplanted transcript: %+v", rep)
	}
}

func TestOpenSetsAsideATornLine(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	l := writeDebate(t, s, testID, 6, false)
	events := l.Events()
	l.Close()
	path := filepath.Join(dir, "debates", testID, "transcript.jsonl")
	torn := []byte(`{"prev":"0123","seq":7,"kind":"tu`)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	f.Write(torn)
	f.Close()
	if rep, _ := s.Verify(testID); rep.Intact || rep.BadLine != 7 {
		t.Fatalf("torn line not reported: %+v", rep)
	}
	l2, err := s.Open(context.Background(), testID)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if len(l2.Events()) != len(events) {
		t.Fatalf("%d events after setting aside, want %d", len(l2.Events()), len(events))
	}
	matches, _ := filepath.Glob(path + ".torn-*")
	if len(matches) != 1 {
		t.Fatalf("set-aside files: %v", matches)
	}
	if got, _ := os.ReadFile(matches[0]); !bytes.Equal(got, torn) {
		t.Fatalf("set aside %q, want %q", got, torn)
	}
	if _, err := l2.Append(context.Background(), debate.EventResume, 99, debate.ResumeEvent{}); err != nil {
		t.Fatal(err)
	}
	if rep, _ := s.Verify(testID); !rep.Intact || rep.Events != 7 {
		t.Fatalf("after resume: %+v", rep)
	}
}

func TestOpenRefusesATamperedTranscript(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 8, false).Close()
	path := filepath.Join(dir, "debates", testID, "transcript.jsonl")
	data, _ := os.ReadFile(path)
	data = bytes.Replace(data, []byte("position 5"), []byte("position 6"), 1)
	os.WriteFile(path, data, 0o600)
	_, err := s.Open(context.Background(), testID)
	var te *TamperError
	if !errors.As(err, &te) || !errors.Is(err, ErrTampered) || te.Line != 5 {
		t.Fatalf("open of a tampered transcript: %v", err)
	}
}

func TestOneWriterAtATime(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	l := writeDebate(t, s, testID, 4, false)
	if _, err := s.Open(context.Background(), testID); !errors.Is(err, ErrBusy) {
		t.Fatalf("second writer: %v", err)
	}
	if running, err := s.Running(testID); !running || err != nil {
		t.Fatalf("Running = %v, %v while held", running, err)
	}
	if sum, _ := s.Summary(testID); sum.State != StateRunning {
		t.Fatalf("state %s", sum.State)
	}
	l.Close()
	if running, _ := s.Running(testID); running {
		t.Fatal("still running after Close")
	}
	if sum, _ := s.Summary(testID); sum.State != StateInterrupted {
		t.Fatalf("state %s", sum.State)
	}
	l2, err := s.Open(context.Background(), testID)
	if err != nil {
		t.Fatal(err)
	}
	l2.Close()
	if _, err := s.Create(context.Background(), testSession(testID)); !errors.Is(err, ErrExists) {
		t.Fatalf("create twice: %v", err)
	}
}

func TestHostileIDsAndSymlinks(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	for _, id := range []string{"", "..", "../x", "debates", "20260101-spec-a/b-abcdef", "20260101-spec-x-abcdef/../../y", "20260101-spec-x-abcdef\x00"} {
		if _, err := s.Open(context.Background(), id); !errors.Is(err, debate.ErrInvalidID) {
			t.Errorf("Open(%q) = %v", id, err)
		}
		if _, err := s.Verify(id); !errors.Is(err, debate.ErrInvalidID) {
			t.Errorf("Verify(%q) = %v", id, err)
		}
		sess := testSession(testID)
		sess.ID = id
		if _, err := s.Create(context.Background(), sess); !errors.Is(err, debate.ErrInvalidID) {
			t.Errorf("Create(%q) = %v", id, err)
		}
	}
	// A debate directory planted as a symlink out of the root.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "transcript.jsonl"), nil, 0o600)
	const planted = "20260101-spec-planted-abcdef"
	os.Mkdir(filepath.Join(dir, "debates"), 0o700)
	if err := os.Symlink(outside, filepath.Join(dir, "debates", planted)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(context.Background(), planted); err == nil {
		t.Fatal("opened a transcript through a symlink out of the root")
	}
	if _, err := s.Verify(planted); err == nil {
		t.Fatal("verified a transcript through a symlink out of the root")
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "transcript.jsonl")); len(got) != 0 {
		t.Fatal("wrote outside the root")
	}
}

// failingFile fails the n-th write or sync, like a full disk.
type failingFile struct {
	*os.File
	failWrite, failSync int
	writes, syncs       int
}

func (f *failingFile) Write(p []byte) (int, error) {
	f.writes++
	if f.writes == f.failWrite {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, syscall.ENOSPC
	}
	return f.File.Write(p)
}

func (f *failingFile) Sync() error {
	f.syncs++
	if f.syncs == f.failSync {
		return syscall.EIO
	}
	return f.File.Sync()
}

func TestAppendFailureLeavesNothingHalfWritten(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		write, sync int
		want        error
	}{{"disk full", 3, 0, syscall.ENOSPC}, {"sync error", 0, 2, syscall.EIO}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newStore(t)
			s.open = func(r *os.Root, name string) (appendFile, error) {
				f, err := r.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0o600)
				if err != nil {
					return nil, err
				}
				return &failingFile{File: f, failWrite: tc.write, failSync: tc.sync}, nil
			}
			ctx := context.Background()
			l, err := s.Create(ctx, testSession(testID))
			if err != nil {
				t.Fatal(err)
			}
			var failed error
			for i := 0; i < 5 && failed == nil; i++ {
				_, failed = l.Append(ctx, debate.EventResume, int64(i), debate.ResumeEvent{ElapsedMs: int64(i)})
			}
			if !errors.Is(failed, tc.want) {
				t.Fatalf("append error %v, want %v", failed, tc.want)
			}
			if _, err := l.Append(ctx, debate.EventResume, 9, debate.ResumeEvent{}); err == nil {
				t.Fatal("appended after a failed write")
			}
			good := len(l.Events())
			l.Close()
			rep, err := s.Verify(testID)
			if err != nil || !rep.Intact || rep.Events != good {
				t.Fatalf("after the failure: %+v %v (want %d intact events)", rep, err, good)
			}
		})
	}
}

func TestListAndRender(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	other := "20260102-plan-another-topic-bcdefg"
	l := writeDebate(t, s, other, 4, false)
	defer l.Close()
	os.Mkdir(filepath.Join(dir, "debates", "not-a-debate"), 0o700)
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("list: %+v", list)
	}
	byID := map[string]Summary{list[0].DebateID: list[0], list[1].DebateID: list[1]}
	if byID[testID].State != StateClosed || byID[testID].Verdict != debate.Deadlock || byID[other].State != StateRunning {
		t.Fatalf("list: %+v", list)
	}
	tr, err := s.Read(testID)
	if err != nil {
		t.Fatal(err)
	}
	md := string(RenderMarkdown(tr))
	for _, want := range []string{"# Debate: Idempotency keys", "`" + testID + "`", "## Round 1", "### Critic (attacker) — 100 tokens",
		"> line one\n> line two", "## Verdict: DEADLOCK → escalate", "intact: 9 events", "wiki/consensus/spec-idempotency-keys.md"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestLoadOutcome(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	turn := debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Tokens: 5}, Agent: "Critic", RequestID: "r"}
	if _, err := l.Append(ctx, debate.EventTurn, 5, turn); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadOutcome(ctx, testID); !errors.Is(err, ErrNotSealed) {
		t.Fatalf("an open debate: %v", err)
	}
	st, err := debate.Replay(l.Events())
	if err != nil {
		t.Fatal(err)
	}
	o, done := st.Judge(5)
	if !done || o.Verdict != debate.ConsensusReached {
		t.Fatalf("judge: %+v", o)
	}
	l.Append(ctx, debate.EventVerdict, 5, o)
	l.Seal(ctx, o, "wiki/consensus/spec-idempotency-keys.md")
	got, err := s.LoadOutcome(ctx, testID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != debate.ConsensusReached || got.Session == nil || got.Session.Topic != sess.Topic || len(got.Turns) != 1 ||
		got.Turns[0].Agent != "Critic" || got.FinalPosition != "Use UUIDv7 keys" || got.Record != "wiki/consensus/spec-idempotency-keys.md" {
		t.Fatalf("outcome %+v", got)
	}
	path := filepath.Join(dir, "debates", testID, "transcript.jsonl")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte(`"tokens":5`), []byte(`"tokens":1`), 1), 0o600)
	if _, err := s.LoadOutcome(ctx, testID); !errors.Is(err, ErrTampered) {
		t.Fatalf("a tampered transcript: %v", err)
	}
}

// A create cut short by a crash (the directory made, the empty transcript
// perhaps, but no session.json) is finished by the next Create of that id:
// a debate id derived from its question (an escalation's) must not be
// refused for ever. A debate that has its session.json still exists.
func TestCreateFinishesACreateCutShort(t *testing.T) {
	t.Parallel()
	for name, leave := range map[string][]string{
		"directory only":             nil,
		"directory and transcript":   {TranscriptFile},
		"directory, transcript, tmp": {TranscriptFile, ".session.json.0123.tmp"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			ddir := filepath.Join(dir, "debates", testID)
			if err := os.MkdirAll(ddir, 0o700); err != nil {
				t.Fatal(err)
			}
			for _, f := range leave {
				if err := os.WriteFile(filepath.Join(ddir, f), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			l, err := s.Create(context.Background(), testSession(testID))
			if err != nil {
				t.Fatalf("create after a crash mid-create: %v", err)
			}
			if _, err := l.Append(context.Background(), debate.EventOpen, 0, testSession(testID)); err != nil {
				t.Fatal(err)
			}
			l.Close()
			if sess, err := s.Session(testID); err != nil || sess.Topic != "Idempotency keys" {
				t.Fatalf("session %+v %v", sess, err)
			}
			if rep, err := s.Verify(testID); err != nil || !rep.Intact || rep.Events != 1 {
				t.Fatalf("verify %+v %v", rep, err)
			}
			// Now it exists.
			if _, err := s.Create(context.Background(), testSession(testID)); !errors.Is(err, ErrExists) {
				t.Fatalf("second create: %v", err)
			}
		})
	}
	// A directory holding a transcript with events but no session.json was
	// not left by Create: it is not taken over.
	s, dir := newStore(t)
	ddir := filepath.Join(dir, "debates", testID)
	os.MkdirAll(ddir, 0o700)
	os.WriteFile(filepath.Join(ddir, TranscriptFile), []byte("something\n"), 0o600)
	if _, err := s.Create(context.Background(), testSession(testID)); !errors.Is(err, ErrExists) {
		t.Fatalf("create over a transcript with content: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(ddir, TranscriptFile)); string(got) != "something\n" {
		t.Fatalf("transcript changed: %q", got)
	}
}

// A sealed debate whose transcript lost its last lines (the verdict among
// them) is tampered: Open refuses it, rather than letting a resume carry
// the debate on past the verdict.json that sealed it.
func TestOpenChecksTheSeal(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	path := filepath.Join(dir, "debates", testID, TranscriptFile)
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	if err := os.WriteFile(path, bytes.Join(lines[:6], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Open(context.Background(), testID)
	var te *TamperError
	if !errors.As(err, &te) || te.Line != 7 {
		t.Fatalf("open of a sealed transcript cut short: %v", err)
	}
	// Untouched, a sealed debate opens (to be re-filed).
	os.WriteFile(path, data, 0o600)
	l, err := s.Open(context.Background(), testID)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}

// A named pipe planted in place of any of a debate's files is refused at
// once by every reader and by a resume, never waited on: opened without
// O_NONBLOCK, it blocked "transcripts list", "debate list" and
// "transcripts verify" in open(2) for good (Ctrl-C could not stop them).
func TestNamedPipesAreRefusedNotWaitedOn(t *testing.T) {
	t.Parallel()
	for _, name := range []string{SessionFile, TranscriptFile, VerdictFile} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			const id = "20260101-spec-fifo-abcdef"
			l := writeDebate(t, s, id, 6, true)
			l.Close()
			p := filepath.Join(dir, "debates", id, name)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, op := range []struct {
				name string
				call func() error
			}{
				{"List", func() error { _, err := s.List(); return err }},
				{"Summary", func() error { _, err := s.Summary(id); return err }},
				{"Verify", func() error { _, err := s.Verify(id); return err }},
				{"Read", func() error { _, err := s.Read(id); return err }},
				{"Events", func() error { _, err := s.Events(id); return err }},
				{"Open", func() error {
					l, err := s.Open(context.Background(), id)
					if err == nil {
						l.Close()
					}
					return err
				}},
			} {
				done := make(chan error, 1)
				go func() { done <- op.call() }()
				select {
				case err := <-done:
					// Verifying and resuming need the transcript and the
					// seal: a pipe in their place is an error.
					if (op.name == "Verify" || op.name == "Open") && name != SessionFile && err == nil {
						t.Errorf("%s: no error with a named pipe as %s", op.name, name)
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("%s blocked on a named pipe as %s", op.name, name)
				}
			}
		})
	}
}

// A named pipe planted as an agent's log is refused at once: opened for
// writing without O_NONBLOCK it blocked the debate starting that agent
// until something read the pipe.
func TestAgentLogRefusesANamedPipe(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	const id = "20260101-spec-fifo-abcdef"
	writeDebate(t, s, id, 2, false).Close()
	logs := filepath.Join(dir, "debates", id, LogsDir)
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(logs, "Bob.log"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := s.AgentLog(id, "Bob")
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("AgentLog opened a named pipe as a log")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("AgentLog blocked on a named pipe")
	}
	f, err := s.AgentLog(id, "Alice")
	if err != nil {
		t.Fatalf("a regular log: %v", err)
	}
	f.Close()
}

// spacedJSON marshals to JSON laid out over several lines.
type spacedJSON struct{}

func (spacedJSON) MarshalJSON() ([]byte, error) {
	return []byte("{\n  \"a\": [1,\n 2],\r\n  \"b\": \"x\"\n}"), nil
}

// Append writes an event's data as compact JSON on one line, even when the
// data lays itself out over several (a MarshalJSON or a json.RawMessage).
func TestAppendCompactsData(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	ctx := context.Background()
	l, sess := created(t, s, testID)
	defer l.Close()
	if _, err := l.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		t.Fatal(err)
	}
	for _, data := range []any{spacedJSON{}, json.RawMessage("{\n\"a\" : [1,\n 2], \"b\":\"x\"}"), struct {
		R json.RawMessage `json:"r"`
	}{json.RawMessage("[ 1,\r\n2 ]")}} {
		e, err := l.Append(ctx, debate.EventResume, 1, data)
		if err != nil {
			t.Fatalf("%T: %v", data, err)
		}
		if bytes.ContainsAny(e.Data, " \r\n") {
			t.Errorf("%T: data %q is not compact", data, e.Data)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "debates", testID, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(raw, []byte("\n")); n != 4 {
		t.Fatalf("%d lines, want 4:\n%s", n, raw)
	}
	if rep, err := s.Verify(testID); err != nil || !rep.Intact || rep.Events != 4 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

// A debate without verdict.json whose transcript was replaced by something
// that is not a regular file (a named pipe) is still listed, interrupted:
// "debate list" and "transcripts list" left it out ("no debates yet"),
// while a sealed one was listed as unreadable.
func TestADebateWhoseTranscriptIsNotAFileIsListed(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 6, false).Close()
	p := filepath.Join(dir, Dir, testID, TranscriptFile)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].DebateID != testID || list[0].State != StateInterrupted {
		t.Errorf("List: %+v, %v; want the debate, interrupted", list, err)
	}
	if tr, err := s.Audit(context.Background(), testID, Witnesses{}); err != nil || tr.Report.Intact {
		t.Errorf("the audit of a transcript that is a pipe found nothing wrong: %v", err)
	}
}
