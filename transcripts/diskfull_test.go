package transcripts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
)

// TestDiskFullMidDebate: when the coordinator's transcript can take no
// more (ENOSPC on a write, EIO on a sync), the debate stops with a
// *debate.StorageError naming the file and the disk's error, no agent is
// recorded as dead or late, and the transcript verifies up to its last
// good event.
func TestDiskFullMidDebate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		write, sync int
		want        error
	}{{"no space", 6, 0, syscall.ENOSPC}, {"I/O error on sync", 0, 4, syscall.EIO}} {
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
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			tr := inbox.NewMemTransport()
			answer := agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
				t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: fmt.Sprintf("%s %d", req.Role, req.Round), ConfidenceChange: -1, Tokens: 50}
				if req.Role == debate.RoleAttacker {
					t.CounterTo = req.Position
				}
				return &agent.Reply{Turn: t}, nil
			})
			for _, name := range []string{"Critic", "Proposer"} {
				ready := make(chan struct{})
				go (&agent.Runner{Name: name, Transport: tr, Responder: answer, Ready: func() { close(ready) }}).Run(ctx)
				<-ready
			}
			sess := testSession(testID)
			l, err := s.Create(ctx, sess)
			if err != nil {
				t.Fatal(err)
			}
			_, err = (&debate.Coordinator{Messenger: tr, Journal: l, Filer: nopFiler{}}).Start(ctx, sess)
			var se *debate.StorageError
			if !errors.As(err, &se) || !errors.Is(err, tc.want) || !errors.Is(err, debate.ErrStorage) ||
				!strings.Contains(err.Error(), "debates/"+testID+"/transcript.jsonl") || !strings.Contains(err.Error(), "no agent is blamed") {
				t.Fatalf("the debate ended with %v, want a StorageError naming the transcript and %v", err, tc.want)
			}
			l.Close()
			events, _ := s.Events(testID)
			for _, e := range events {
				if e.Kind == debate.EventForfeit || e.Kind == debate.EventVerdict {
					t.Errorf("a %s event was recorded: %s", e.Kind, e.Data)
				}
			}
			if rep, err := s.Verify(testID); err != nil || !rep.Intact || rep.Events != len(events) {
				t.Errorf("after the failure: %+v %v", rep, err)
			}
		})
	}
}

type nopFiler struct{}

func (nopFiler) File(ctx context.Context, o *debate.Outcome) (string, error) { return "", nil }

// TestDiskFullAtOpenLeavesNothing: a debate whose session.json cannot be
// written (ENOSPC, EIO) is not created: its directory is gone again, and
// the error says the disk failed.
func TestDiskFullAtOpenLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		op  string
		err error
	}{{"write", syscall.ENOSPC}, {"sync", syscall.EIO}, {"link", syscall.ENOSPC}} {
		t.Run(tc.op, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			fault := &durable.FaultFS{FS: s.fs}
			s.fs = fault
			fault.Fail(tc.op, SessionFile, tc.err, 0)
			_, err := s.Create(context.Background(), testSession(testID))
			if !errors.Is(err, debate.ErrStorage) || !errors.Is(err, tc.err) {
				t.Fatalf("create: %v, want a storage error with %v", err, tc.err)
			}
			// Nothing was kept: the error does not send anyone to resume
			// a debate that is not there.
			if msg := err.Error(); strings.Contains(msg, "resume") || !strings.Contains(msg, "was not opened and nothing of it was kept") {
				t.Errorf("create: %q", msg)
			}
			if _, err := os.Lstat(filepath.Join(dir, "debates", testID)); !errors.Is(err, os.ErrNotExist) {
				ents, _ := os.ReadDir(filepath.Join(dir, "debates", testID))
				t.Fatalf("the failed create left debates/%s behind: %v %v", testID, err, ents)
			}
			list, _ := s.List()
			if len(list) != 0 {
				t.Errorf("listed %+v", list)
			}
			// Once the disk is back, the same debate opens.
			fault.Reset()
			l, err := s.Create(context.Background(), testSession(testID))
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
		})
	}
}

// TestDiskFullAtTheSealSaysTheVerdictIsRecorded: a disk that fails once
// the verdict is recorded (appending the seal) stops the debate with a
// StorageError that says so, and that a resume seals it; it used to say
// the debate "stopped without a verdict", while its status showed the
// verdict.
func TestDiskFullAtTheSealSaysTheVerdictIsRecorded(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	s.open = func(r *os.Root, name string) (appendFile, error) {
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, err
		}
		return &failingFile{File: f, failWrite: 3}, nil // open, verdict, then the seal
	}
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	o := &debate.Outcome{DebateID: testID, Verdict: debate.Deadlock, Action: debate.ActionEscalate, Rule: debate.RuleRepeated, Reason: "repeated"}
	if _, err := l.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, debate.EventVerdict, 1, o); err != nil {
		t.Fatal(err)
	}
	err = l.Seal(ctx, o, "")
	var se *debate.StorageError
	if !errors.As(err, &se) || !se.AfterVerdict || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("seal on a full disk: %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "without a verdict") || !strings.Contains(msg, "debate "+testID+" recorded its verdict but stopped before it was sealed") ||
		!strings.HasSuffix(msg, "then run parley debate resume "+testID) {
		t.Errorf("seal on a full disk: %q", msg)
	}
}
