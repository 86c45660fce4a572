package app

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/roottest"
	"github.com/parleyhq/parley/transcripts"
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

// A debate started in the background whose seal could not be signed is
// refused before anything is written, as "debate run" refuses it: not an
// id printed for a debate whose process stops at once and leaves it
// interrupted.
func TestStartDebateRefusesASealItCannotSign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key, err := NewSealKey(filepath.Join(dir, "seal.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(key.SigningKey, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.json", "d.json"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(`{"turns":[{"round":1,"position":"p"}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, seal := range map[string]map[string]string{
		"readable by others": {"signingKey": key.SigningKey, "publicKey": key.PublicKey},
		"public key alone":   {"publicKey": key.PublicKey},
	} {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			if err := os.MkdirAll(root, 0o700); err != nil {
				t.Fatal(err)
			}
			cfg, _ := json.Marshal(map[string]any{"seal": seal})
			if err := os.WriteFile(filepath.Join(root, "config.json"), cfg, 0o600); err != nil {
				t.Fatal(err)
			}
			// Should the refusal fail, the "debate process" is true(1).
			a := New(Options{Root: root, Spawn: Spawn{Exe: "true"}})
			s, err := a.NewSession(context.Background(), DebateRequest{Layer: "spec", Topic: "Seal keys", Agents: []string{"attacker=script:" + filepath.Join(dir, "a.json"), "defender=script:" + filepath.Join(dir, "d.json")}, Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.StartDebate(context.Background(), s); err == nil || !strings.Contains(err.Error(), "seal") {
				t.Errorf("started: %v", err)
			}
			if ents, _ := os.ReadDir(filepath.Join(root, "debates")); len(ents) != 0 {
				t.Errorf("a refused debate left %d debate(s)", len(ents))
			}
		})
	}
}

// writeDebateFiles records debate id under root without agents: its open
// event, one request and a clock checkpoint, then, with close, a verdict
// and its seal.
func writeDebateFiles(t *testing.T, root, id string, close bool) {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := transcripts.OpenStore(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &debate.DebateSession{ID: id, Topic: "Keys", Layer: debate.LayerSpec, Position: "Use UUIDv7 keys",
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec), Created: "2026-12-01T10:00:00.000Z", Coordinator: debate.CoordinatorName(id)}
	l, err := st.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	o := &debate.Outcome{DebateID: id, Verdict: debate.Timeout, Action: debate.ActionEscalate, Rule: debate.RuleWallClock, Reason: "the wall clock ran out", Rounds: 1}
	events := []struct {
		kind debate.EventKind
		data any
	}{{debate.EventOpen, s}, {debate.EventRequest, debate.RequestEvent{RequestID: id + ":r1:critic:a1", Round: 1, Agent: "Critic", Attempt: 1}}, {debate.EventClock, map[string]string{"reason": "checkpoint"}}}
	if close {
		events = append(events, struct {
			kind debate.EventKind
			data any
		}{debate.EventVerdict, o})
	}
	for i, ev := range events {
		if _, err := l.Append(ctx, ev.kind, int64(i), ev.data); err != nil {
			t.Fatal(err)
		}
	}
	if close {
		if err := l.Seal(ctx, o, ""); err != nil {
			t.Fatal(err)
		}
	}
}

// A debate whose hash chain breaks is listed with the line it breaks at,
// as "transcripts verify" names it, not "TAMPERED: tampered".
func TestListsNameTheLineAChainBreaksAt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	a := New(Options{Root: root})
	const id = "20261201-spec-keys-abcdef"
	writeDebateFiles(t, root, id, false)
	path := filepath.Join(root, "debates", id, "transcript.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), ":r1:critic:a1", ":r1:critic:a9", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := a.ListDebates(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("%v %v", list, err)
	}
	if got := list[0].Integrity; got != "TAMPERED at line 2" {
		t.Errorf("debate list says %q", got)
	}
	found, err := a.ListTranscripts(ctx, TranscriptQuery{})
	if err != nil || len(found) != 1 || found[0].Integrity != "TAMPERED at line 2" {
		t.Errorf("transcripts list: %+v %v", found, err)
	}
}

// Watching a debate reports the events of the debate, as running it does
// (open, request, turn, …, verdict), never the seal: that is the
// record of its filing, which "debate run" does not report, and which
// "debate watch --json" printed as an event of round 0.
func TestWatchReportsTheDebatesEventsNotItsSeal(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	a := New(Options{Root: root})
	const id = "20261201-spec-keys-abcdef"
	writeDebateFiles(t, root, id, true)
	var kinds []debate.EventKind
	o, err := a.WatchDebate(context.Background(), id, func(p debate.Progress) { kinds = append(kinds, p.Event.Kind) })
	if err != nil || o == nil || o.Verdict != debate.Timeout {
		t.Fatalf("watch: %+v %v", o, err)
	}
	want := []debate.EventKind{debate.EventOpen, debate.EventRequest, debate.EventClock, debate.EventVerdict}
	if !slices.Equal(kinds, want) {
		t.Errorf("watch reported %v, want %v", kinds, want)
	}
}

// writeUnclosedDebate writes debate id as a coordinator killed while
// filing leaves it: its verdict recorded, nothing filed or sealed.
func writeUnclosedDebate(t *testing.T, root, id string) {
	t.Helper()
	ctx := context.Background()
	writeDebateFiles(t, root, id, false)
	st, err := transcripts.OpenStore(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := st.Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	o := &debate.Outcome{DebateID: id, Verdict: debate.ConsensusReached, Action: debate.ActionProceed, Rule: debate.RuleSurvived,
		Reason: "the position held", FinalPosition: "Use UUIDv7 keys", Rounds: 1}
	if _, err := l.Append(ctx, debate.EventVerdict, 9, o); err != nil {
		t.Fatal(err)
	}
}

// "consensus file --from-debate" of a debate whose coordinator was killed
// after its verdict files its record, and says the debate is still not
// closed (its page, seal and verdict.json wait for resume): it used to
// say "filed" alone, as if it had finished the interrupted closing its
// help promised to finish. A closed debate is filed again without a word.
func TestFileFromADebateNotClosedSaysSo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	a := New(Options{Root: root})
	const cut, closed = "20261201-spec-keys-abcdef", "20261201-spec-locks-abcdef"
	writeUnclosedDebate(t, root, cut)
	writeDebateFiles(t, root, closed, true)
	c, err := a.OpenConsensus()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f, err := c.FileFrom(ctx, cut)
	if err != nil || f.Record == "" || !f.NotClosed {
		t.Fatalf("filing a debate whose closing was cut short: %+v %v", f, err)
	}
	if f, err := c.FileFrom(ctx, closed); err != nil || f.NotClosed {
		t.Fatalf("filing a closed debate again: %+v %v", f, err)
	}
}

// A debate whose coordinator stopped after recording its verdict and
// before closing it (killed while filing, a full vault disk) is not shown
// as closed: watch used to return its verdict as the outcome, which the
// command line printed with "record: none filed" and exit 0 for a
// CONSENSUS_REACHED that was never filed. It is now a *NotClosedError,
// explained with the resume that finishes closing it.
func TestWatchOfAVerdictNotFiledSaysToResume(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	a := New(Options{Root: root})
	const id = "20261201-spec-keys-abcdef"
	writeUnclosedDebate(t, root, id)

	got, err := a.WatchDebate(ctx, id, nil)
	var nc *NotClosedError
	if got != nil || !errors.As(err, &nc) || nc.Verdict != debate.ConsensusReached {
		t.Fatalf("watch of a verdict not filed: %+v, %v", got, err)
	}
	var e *Error
	if !errors.As(a.ExplainDebate(err, id), &e) || e.Problem != ProblemNotActive {
		t.Fatalf("not explained: %v", a.ExplainDebate(err, id))
	}
	msg := e.Format(func(c string) string { return "<" + c + ">" })
	for _, w := range []string{"recorded its verdict, CONSENSUS_REACHED", "not filed", "<parley debate resume " + id + "> finishes closing it"} {
		if !strings.Contains(msg, w) {
			t.Errorf("%q does not say %q", msg, w)
		}
	}
}

// A key whose write fails (a full disk) leaves no file behind: a partial
// one used to stay, and the next keygen refused it as a key it must never
// replace. Once the disk has room, the same file is written whole.
func TestSealKeyWriteThatFailsLeavesNothing(t *testing.T) {
	t.Parallel()
	r, dir := roottest.Temp(t)
	full := &durable.FaultFS{FS: durable.Root(r)}
	full.Fail("write", "", syscall.ENOSPC, 0)
	abs := filepath.Join(dir, "seal.key")
	if _, err := writeSealKey(full, "seal.key", abs, "keys/seal.key"); !errors.Is(err, syscall.ENOSPC) || err.Error() != "write keys/seal.key: no space left on device" {
		t.Fatalf("a full disk: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a failed write left %d file(s), %s first", len(ents), ents[0].Name())
	}
	full.Reset()
	k, err := writeSealKey(full, "seal.key", abs, "keys/seal.key")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(abs); err != nil || info.Mode().Perm() != 0o600 || k.SigningKey != abs {
		t.Fatalf("key %+v: %v %v", k, info, err)
	}
	if _, err := NewSealKey(abs); !errors.Is(err, fs.ErrExist) {
		t.Errorf("over the key: %v", err)
	}
}
