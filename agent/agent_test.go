package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

func request(round, attempt int) *debate.TurnRequest {
	return &debate.TurnRequest{
		DebateID: "20260101-spec-x-abcdef", RequestID: "20260101-spec-x-abcdef:r1:attacker1:a1", Round: round, Role: debate.RoleAttacker,
		Topic: "Keys", Layer: debate.LayerSpec, Position: "Use UUIDv7 keys", Attempt: attempt, MaxRounds: 3,
		Budget: debate.TurnBudget{TokensThisTurn: 2000, Deadline: time.Now().Add(time.Minute).UTC().Format(inbox.TimeLayout)},
	}
}

// outputTurn is the turn the coordinator decodes from out, an exec
// command's output answering request(1, 1): what it reads, as the reply
// message carries it. Output that is no reply fails the test.
func outputTurn(t *testing.T, out string) (*debate.Turn, error) {
	t.Helper()
	req := request(1, 1)
	r, err := ParseOutput([]byte(out), req)
	if err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	reqMsg := &inbox.Message{ID: inbox.NewID(), From: debate.CoordinatorName(req.DebateID), To: "A", Type: debate.TypeTurnRequest}
	m, err := replyMessage("A", reqMsg, req.RequestID, r)
	if err != nil {
		t.Fatal(err)
	}
	return debate.DecodeTurn(m, req)
}

func TestParseSpec(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Spec{
		"script:turns.json":      {KindScript, "turns.json"},
		"exec:echo a:b | cat":    {KindExec, "echo a:b | cat"},
		"openai:llama3.1:8b":     {KindOpenAI, "llama3.1:8b"},
		"@SwiftRaven":            {KindRegistered, "SwiftRaven"},
		"SCRIPT:x":               {KindScript, "x"},
		"custom:whatever it is ": {"custom", "whatever it is "},
	} {
		got, err := ParseSpec(in)
		if err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "script", "script:", ":x", "@", "@../x", "@a b", "sc ript:x", "a/b:c"} {
		if _, err := ParseSpec(bad); !errors.Is(err, ErrBadSpec) {
			t.Errorf("ParseSpec(%q) = %v, want ErrBadSpec", bad, err)
		}
	}
	a := DefaultAdapters()
	if r, err := a.New(Spec{KindOpenAI, "llama3.1:8b"}); err != nil || r.(*LLM).Client().(*OpenAIClient).cfg.Model != "llama3.1:8b" || r.(*LLM).Client().(*OpenAIClient).endpoint != DefaultOpenAIBaseURL+"/chat/completions" {
		t.Errorf("openai: %v", err)
	}
	if _, err := a.New(Spec{"carrier-pigeon", "m"}); !errors.Is(err, ErrBadSpec) {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := a.New(Spec{KindRegistered, "X"}); !errors.Is(err, ErrBadSpec) {
		t.Errorf("@NAME as an adapter: %v", err)
	}
	if r, err := a.New(Spec{KindExec, "true"}); err != nil || r.(*Exec).Command != "true" {
		t.Errorf("exec: %v", err)
	}
}

func TestScriptPicksTheRoundElseTheLast(t *testing.T) {
	t.Parallel()
	s, err := ParseScript([]byte(`{"turns":[
		{"round":2,"position":"two","counter_to":"c","confidence_change":-1,"tokens":7,"text":"t","evidence_refs":["a.go:1"]},
		{"round":1,"claim":"one"},
		{"round":5,"position":"last"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for round, want := range map[int]string{1: "one", 2: "two", 3: "last", 9: "last"} {
		rep, err := s.Respond(context.Background(), request(round, 1))
		if err != nil || rep.Turn.Position != want || rep.Turn.Round != round || rep.Turn.Role != debate.RoleAttacker {
			t.Errorf("round %d: %+v %v, want %q", round, rep.Turn, err, want)
		}
	}
	rep, _ := s.Respond(context.Background(), request(2, 1))
	if tu := rep.Turn; tu.CounterTo != "c" || tu.ConfidenceChange != -1 || tu.Tokens != 7 || tu.Text != "t" || len(tu.EvidenceRefs) != 1 {
		t.Errorf("fields lost: %+v", tu)
	}
}

func TestScriptWrongRepliesOnPurpose(t *testing.T) {
	t.Parallel()
	s, err := ParseScript([]byte(`{"turns":[
		{"round":1,"position":"p","reply_round":4,"reply_role":"defender","reply_debate_id":"other","wrong_attempts":1},
		{"round":2,"position":"p","reply_fields":{"round":"two"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := s.Respond(context.Background(), request(1, 1))
	if rep.Turn.Round != 4 || rep.Turn.Role != debate.RoleDefender || rep.Turn.DebateID != "other" {
		t.Errorf("attempt 1 should be wrong: %+v", rep.Turn)
	}
	rep, _ = s.Respond(context.Background(), request(1, 2))
	if rep.Turn.Round != 1 || rep.Turn.Role != debate.RoleAttacker || rep.Turn.DebateID != "20260101-spec-x-abcdef" {
		t.Errorf("attempt 2 should be right: %+v", rep.Turn)
	}
	rep, _ = s.Respond(context.Background(), request(2, 2))
	if string(rep.Raw) != `{"round":"two"}` {
		t.Errorf("raw reply %s", rep.Raw)
	}
}

func TestScriptDelayStopsWithTheContext(t *testing.T) {
	t.Parallel()
	s, _ := ParseScript([]byte(`{"turns":[{"position":"p","delay_ms":600000}]}`))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := s.Respond(ctx, request(1, 1)); done <- err }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled delay returned %v", err)
	}
}

// A script saved with a byte order mark (Notepad, PowerShell) is the
// script after it, not "invalid character 'ï'".
func TestParseScriptIgnoresAByteOrderMark(t *testing.T) {
	t.Parallel()
	s, err := ParseScript([]byte("\ufeff" + `{"turns":[{"round":1,"position":"Keys leak the creation time"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 1 || s.Turns[0].Position != "Keys leak the creation time" {
		t.Errorf("turns %+v", s.Turns)
	}
}

func TestParseScriptRejects(t *testing.T) {
	t.Parallel()
	for name, bad := range map[string]string{
		"not json":       `{`,
		"no turns":       `{"turns":[]}`,
		"unknown key":    `{"turns":[{"position":"p","colour":"red"}]}`,
		"negative delay": `{"turns":[{"position":"p","delay_ms":-1}]}`,
		// 317 years: as a time.Duration it wraps round to no delay at all.
		"delay overflows":   `{"turns":[{"position":"p","delay_ms":10000000000000}]}`,
		"negative round":    `{"turns":[{"position":"p","round":-1}]}`,
		"fields not an obj": `{"turns":[{"position":"p","reply_fields":[1]}]}`,
		"trailing":          `{"turns":[{"position":"p"}]} {}`,
	} {
		if _, err := ParseScript([]byte(bad)); !errors.Is(err, ErrBadScript) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A slip in the JSON says where it is, counted in the file as saved.
	if _, err := ParseScript([]byte("\ufeff{\"turns\": [\n  {\"round\": 1, \"position\": \"p\",}\n]}")); !errors.Is(err, ErrBadScript) ||
		!strings.Contains(err.Error(), "line 2, column 32: invalid character '}'") {
		t.Errorf("a trailing comma: %v", err)
	}
	if _, err := ParseScript([]byte(fmt.Sprintf(`{"turns":[{"position":"p","delay_ms":%d}]}`, MaxDelayMs))); err != nil {
		t.Errorf("the longest delay: %v", err)
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing script loaded")
	}
}

func TestExecAdapter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, cmd string
		check     func(t *testing.T, r *Reply)
	}{
		{"json output, request on stdin, defaults filled", `read -r line; case "$line" in *'"round":2'*) printf '{"position":"seen round 2","counter_to":"x","confidence_change":-1,"text":"arg"}';; *) echo '{"position":"no"}';; esac`,
			func(t *testing.T, r *Reply) {
				var f map[string]any
				_ = json.Unmarshal(r.Raw, &f)
				if f["position"] != "seen round 2" || f["debate_id"] != "20260101-spec-x-abcdef" || f["round"] != float64(2) || f["role"] != "attacker" {
					t.Errorf("fields %v", f)
				}
			}},
		{"plain text: first line the position", `printf '\n  Keys leak time  \nBecause of the timestamp.\nSecond line.\n'`,
			func(t *testing.T, r *Reply) {
				if r.Turn.Position != "Keys leak time" || r.Turn.Text != "Because of the timestamp.\nSecond line." || r.Turn.CounterTo != "Use UUIDv7 keys" {
					t.Errorf("turn %+v", r.Turn)
				}
			}},
		{"plain text repeating the standing position concedes", `echo 'use uuidv7 keys.'`,
			func(t *testing.T, r *Reply) {
				if !r.Turn.Concedes() {
					t.Errorf("turn %+v", r.Turn)
				}
			}},
		{"environment", `echo "$PARLEY_ROLE $PARLEY_ROUND $PARLEY_ATTEMPT $PARLEY_DEBATE_ID"`,
			func(t *testing.T, r *Reply) {
				if r.Turn.Position != "attacker 2 1 20260101-spec-x-abcdef" {
					t.Errorf("env %q", r.Turn.Position)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := (&Exec{Command: tc.cmd, Dir: dir}).Respond(context.Background(), request(2, 1))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, r)
		})
	}
	for name, cmd := range map[string]string{"exit 1": "echo oops >&2; exit 3", "no output": "true", "json array": "echo '[1,2]'"} {
		if _, err := (&Exec{Command: cmd}).Respond(context.Background(), request(1, 1)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestExecKilledAtTheDeadline(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// The grandchild (sleep) must die with the command's process group.
	_, err := (&Exec{Command: "sleep 600 & echo $! > " + pidFile + "; wait"}).Respond(ctx, request(1, 1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	data, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(data))
	for i := 0; i < 100; i++ {
		if _, err := os.Stat("/proc/" + pid); errors.Is(err, os.ErrNotExist) || pid == "" {
			return
		}
		if st, _ := os.ReadFile("/proc/" + pid + "/stat"); strings.Contains(string(st), ") Z ") {
			return // a zombie awaiting its reaper is dead
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the command's child %s outlived the deadline", pid)
}

// fakeRegistry records what a Runner does with the registry.
type fakeRegistry struct {
	mu    sync.Mutex
	calls []string
	busy  int // registrations refused with inbox.ErrBusy before one is taken
}

func (f *fakeRegistry) note(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}
func (f *fakeRegistry) Register(ctx context.Context, name string, roles []debate.Role) error {
	f.note("register " + name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy > 0 {
		f.busy--
		return fmt.Errorf("register %s: inbox: adopt: %w (a receiver on here, pid 1)", name, inbox.ErrBusy)
	}
	return nil
}

// A Runner with BusyWait registers once an inbox held by another receiver
// is given up within it; without, or with another error, it fails at once.
func TestRunnerWaitsForABusyInbox(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := func(reg *fakeRegistry, wait time.Duration) (int, error) {
		tr := inbox.NewMemTransport()
		ready := make(chan struct{})
		r := &Runner{Name: "Critic", Transport: tr, Registry: reg, BusyWait: wait, Ready: func() { close(ready) },
			Responder: ResponderFunc(func(context.Context, *debate.TurnRequest) (*Reply, error) { return nil, errors.New("no turns here") })}
		rctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- r.Run(rctx) }()
		select {
		case <-ready:
			stop()
			<-done
			return len(reg.calls), nil
		case err := <-done:
			stop()
			return len(reg.calls), err
		}
	}
	if n, err := run(&fakeRegistry{busy: 3}, time.Minute); err != nil || n < 4 {
		t.Errorf("busy 3 times, waiting: %v after %d calls; want registered on the 4th", err, n)
	}
	if n, err := run(&fakeRegistry{busy: 1}, 0); !errors.Is(err, inbox.ErrBusy) || n != 1 {
		t.Errorf("busy, not waiting: %v after %d calls; want inbox.ErrBusy at once", err, n)
	}
	if _, err := run(&fakeRegistry{busy: 1000}, 200*time.Millisecond); !errors.Is(err, inbox.ErrBusy) {
		t.Errorf("busy for longer than the wait: %v; want inbox.ErrBusy", err)
	}
}

// adoptingRegistry claims the name and then takes the inbox, as the
// registries do: a claim while another receiver holds the inbox is given
// back, after the agent showed as registered for a moment (flaps).
type adoptingRegistry struct {
	fakeRegistry
	tr    inbox.Transport
	flaps atomic.Int32
}

func (a *adoptingRegistry) Register(ctx context.Context, name string, roles []debate.Role) error {
	a.note("register " + name)
	rcv, err := a.tr.Listen(ctx, name)
	if err != nil {
		a.flaps.Add(1)
		return fmt.Errorf("register %s: inbox: adopt: %w", name, err)
	}
	return rcv.Close()
}

// While an earlier receiver holds the inbox, a Runner with BusyWait waits
// without claiming its name: a debate that waits for the agent to register
// must not see it live and then gone. It registers once the inbox is free.
func TestRunnerWaitsForABusyInboxUnregistered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tr := inbox.NewMemTransport()
	if err := tr.Create(ctx, "Critic"); err != nil {
		t.Fatal(err)
	}
	earlier, err := tr.Listen(ctx, "Critic")
	if err != nil {
		t.Fatal(err)
	}
	reg := &adoptingRegistry{tr: tr}
	ready := make(chan struct{})
	r := &Runner{Name: "Critic", Transport: tr, Registry: reg, BusyWait: time.Minute, Ready: func() { close(ready) },
		Responder: ResponderFunc(func(context.Context, *debate.TurnRequest) (*Reply, error) { return nil, errors.New("no turns here") })}
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- r.Run(rctx) }()
	time.Sleep(300 * time.Millisecond) // several tries against the held inbox
	earlier.Close()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("the runner ended: %v", err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := reg.flaps.Load(); n != 0 {
		t.Fatalf("the name was claimed %d times while the inbox was held: %v", n, reg.calls)
	}
}

func (f *fakeRegistry) Heartbeat(ctx context.Context, name string) error {
	f.note("heartbeat")
	return nil
}
func (f *fakeRegistry) Unregister(ctx context.Context, name string) error {
	f.note("unregister " + name)
	return nil
}

func TestRunnerAnswersDeduplicatesAndUnregisters(t *testing.T) {
	t.Parallel()
	tr := inbox.NewMemTransport()
	ctx := context.Background()
	tr.Create(ctx, "Coord")
	var calls int
	var mu sync.Mutex
	resp := ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		return &Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "p", Text: "the argument"}}, nil
	})
	reg := &fakeRegistry{}
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	ready := make(chan struct{})
	r := &Runner{Name: "Critic", Transport: tr, Registry: reg, Responder: resp, Heartbeat: 10 * time.Millisecond, Ready: func() { close(ready) }}
	go func() { done <- r.Run(rctx) }()
	<-ready
	req := request(1, 1)
	m1, _ := debate.NewRequestMessage("Coord", "Critic", req)
	tr.Send(ctx, m1)
	tr.Send(ctx, &inbox.Message{From: "Coord", To: "Critic", Text: "just chatting"})
	receive := func() *inbox.Message {
		t.Helper()
		rcv, err := tr.Listen(ctx, "Coord")
		if err != nil {
			t.Fatal(err)
		}
		defer rcv.Close()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		d, err := rcv.Receive(wctx)
		if err != nil {
			t.Fatal(err)
		}
		rcv.Ack(ctx, d)
		return d.Message
	}
	var replies []*inbox.Message
	replies = append(replies, receive())
	// The same request again under another message id (a resumed
	// coordinator whose copy the transport does not deduplicate).
	m2 := *m1
	m2.ID = inbox.NewID()
	tr.Send(ctx, &m2)
	replies = append(replies, receive())
	if calls != 1 {
		t.Errorf("the responder was asked %d times for one request_id", calls)
	}
	if replies[0].ReplyTo != m1.ID || replies[0].Kind() != debate.TypeTurn || replies[0].Text != "the argument" {
		t.Errorf("reply %+v", replies[0])
	}
	if replies[1].ID != replies[0].ID {
		t.Errorf("the repeated request got a different reply %s, want the cached %s", replies[1].ID, replies[0].ID)
	}
	tu, err := debate.DecodeTurn(replies[0], req)
	if err != nil || tu.Position != "p" {
		t.Errorf("reply does not decode: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.calls[0] != "register Critic" || reg.calls[len(reg.calls)-1] != "unregister Critic" || !strings.Contains(strings.Join(reg.calls, ","), "heartbeat") {
		t.Errorf("registry calls %v", reg.calls)
	}
}

func TestRunnerLeavesAnInterruptedRequestForTheNextHolder(t *testing.T) {
	t.Parallel()
	tr := inbox.NewMemTransport()
	ctx := context.Background()
	tr.Create(ctx, "Coord")
	started := make(chan struct{})
	slow := ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- (&Runner{Name: "Critic", Transport: tr, Responder: slow}).Run(rctx) }()
	for tr.Create(ctx, "Critic") != nil {
	}
	m, _ := debate.NewRequestMessage("Coord", "Critic", request(1, 1))
	tr.Send(ctx, m)
	<-started
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rcv, err := tr.Listen(ctx, "Critic")
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d, err := rcv.Receive(pctx)
	if err != nil || d.Message.ID != m.ID {
		t.Fatalf("the interrupted request was acknowledged: %v", err)
	}
}

// Plain text that merely starts with "[" (a wikilink, a tag) is plain
// text, not a JSON value; a JSON array is still refused.
func TestExecPlainTextStartingWithABracket(t *testing.T) {
	t.Parallel()
	r, err := (&Exec{Command: `printf '[[design]] keeps UUIDv7 keys\nSee the page.\n'`}).Respond(context.Background(), request(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Turn == nil || r.Turn.Position != "[[design]] keeps UUIDv7 keys" || r.Turn.Text != "See the page." {
		t.Fatalf("reply %+v", r)
	}
	for _, out := range []string{"[1,2]", " [\"a\"] ", "{not json"} {
		if _, err := ParseOutput([]byte(out), request(1, 1)); !errors.Is(err, ErrBadOutput) {
			t.Errorf("%q: %v, want ErrBadOutput", out, err)
		}
	}
}

// A command that answers and exits, leaving a background child that holds
// its stdout, has answered: the reply is taken, and the child is killed
// with the command's process group rather than left behind.
func TestExecBackgroundChildHoldingStdout(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := (&Exec{Command: "sleep 600 & echo $! > " + pidFile + "; echo 'Keys leak time'"}).Respond(ctx, request(1, 1))
	if err != nil {
		t.Fatalf("the answer was lost: %v", err)
	}
	if r.Turn == nil || r.Turn.Position != "Keys leak time" {
		t.Fatalf("reply %+v", r)
	}
	waitGone(t, pidFile)
}

// A command printing without end is stopped as soon as it passes the
// output limit, not when the turn's deadline comes.
func TestExecEndlessOutputIsCutShort(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The shell ignores SIGPIPE, so only a kill stops it.
	_, err := (&Exec{Command: "trap '' PIPE; echo $$ > " + pidFile + "; while :; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done"}).Respond(ctx, request(1, 1))
	if !errors.Is(err, ErrBadOutput) || ctx.Err() != nil {
		t.Fatalf("err %v (ctx %v), want ErrBadOutput before the deadline", err, ctx.Err())
	}
	waitGone(t, pidFile)
	// A finite but oversized answer is refused too, whole.
	if _, err := (&Exec{Command: "head -c 3000000 /dev/zero | tr '\\0' y"}).Respond(ctx, request(1, 1)); !errors.Is(err, ErrBadOutput) {
		t.Fatalf("3 MB of output: %v, want ErrBadOutput", err)
	}
}

// waitGone waits until the process whose pid is in pidFile has ended.
func waitGone(t *testing.T, pidFile string) {
	t.Helper()
	data, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(data))
	if pid == "" {
		t.Fatal("no pid written")
	}
	for i := 0; i < 500; i++ {
		if _, err := os.Stat("/proc/" + pid); errors.Is(err, os.ErrNotExist) {
			return
		}
		if st, _ := os.ReadFile("/proc/" + pid + "/stat"); strings.Contains(string(st), ") Z ") {
			return // a zombie awaiting its reaper is dead
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %s is still running", pid)
}

// An agent whose command fails, or prints no turn, is asked once more;
// failing twice, it tells the coordinator at once that it is unavailable
// (kind failed, with the command's error), rather than leaving the
// coordinator to wait out the debate's clock. Once more is enough to
// answer.
func TestRunnerReportsACommandThatKeepsFailing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	counter := filepath.Join(dir, "calls")
	for _, c := range []struct {
		name, command string
		unavailable   bool
		detail        string
	}{
		{"crash", "echo boom >&2; exit 1", true, "exit status 1: boom"},
		// Its last words on stderr say why, after any amount of warnings,
		// and however long its command.
		{"a long command", "cat >/dev/null; echo 'You are a sharp critic of software designs; find the weakest assumption in the proposal and attack it with evidence from the files and pages given, citing path:line where you can, and keep your position to one sentence that a reader can check' >/dev/null; echo 'fatal: OPENAI_API_KEY is not set' >&2; exit 1", true, "exit status 1: fatal: OPENAI_API_KEY is not set"},
		// Its last words on stderr say why, after any amount of warnings.
		{"warnings first", "yes 'DeprecationWarning: pkg_resources is deprecated' | head -n 300 >&2; echo 'fatal: OPENAI_API_KEY is not set' >&2; exit 1", true, "exit status 1: fatal: OPENAI_API_KEY is not set"},
		{"silent", "exit 0", true, "no output"},
		{"garbage", `printf '{"position": broken'`, true, "no turn, asked twice"},
		{"once", `n=$(cat "` + counter + `" 2>/dev/null || echo 0); echo $((n+1)) > "` + counter + `"; [ "$n" -ge 1 ] && echo 'second time lucky' || exit 3`, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := inbox.NewMemTransport()
			tr.Create(ctx, "Coord")
			rctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			ready := make(chan struct{})
			r := &Runner{Name: "Critic", Transport: tr, Responder: &Exec{Command: c.command, Dir: dir}, Ready: func() { close(ready) }}
			go func() { done <- r.Run(rctx) }()
			<-ready
			req := request(1, 1)
			req.Budget.Deadline = time.Now().Add(time.Minute).UTC().Format(inbox.TimeLayout)
			m, _ := debate.NewRequestMessage("Coord", "Critic", req)
			start := time.Now()
			tr.Send(ctx, m)
			rcv, err := tr.Listen(ctx, "Coord")
			if err != nil {
				t.Fatal(err)
			}
			defer rcv.Close()
			wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			d, err := rcv.Receive(wctx)
			if err != nil {
				t.Fatalf("no reply: %v", err)
			}
			stop()
			<-done
			if time.Since(start) > 15*time.Second {
				t.Errorf("the reply took %v", time.Since(start))
			}
			if !c.unavailable {
				if d.Message.Kind() != debate.TypeTurn || !strings.Contains(d.Message.Text, "second time lucky") {
					t.Errorf("reply %s %q", d.Message.Kind(), d.Message.Text)
				}
				return
			}
			u, err := debate.DecodeUnavailable(d.Message)
			if err != nil || u.Kind != debate.UnavailableFailed || !strings.Contains(u.Detail, c.detail) {
				t.Errorf("reply %s %q: %+v %v", d.Message.Kind(), d.Message.Text, u, err)
			}
		})
	}
}

// A command that prints the turn request it was given (cat, a wrapper
// that forwards its stdin) has not taken a turn: its output carries the
// defender's standing position and no counter, which read as a turn would
// be the attacker conceding. It is refused as bad output, as is a request
// with fields changed or added (jq '. + {...}').
func TestExecEchoingTheRequestIsNoTurn(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"cat", `sed 's/"attempt"/"attempt_seen"/'`} {
		r, err := (&Exec{Command: cmd}).Respond(context.Background(), request(1, 1))
		if !errors.Is(err, ErrBadOutput) {
			t.Errorf("%s: err %v; want ErrBadOutput", cmd, err)
			if r != nil {
				t.Logf("reply %s", r.Raw)
			}
		}
	}
}

// Output that is not text (it has NUL bytes: a binary, a core dump, a
// crashed encoder) is no position to argue: refused as bad output, not
// read as a plain-text turn whose first "line" is garbage.
func TestExecBinaryOutputIsNoTurn(t *testing.T) {
	t.Parallel()
	for _, out := range []string{"\x00\x01\xff{{{not json", "\x7fELF\x02\x01\x01\x00\x00\x00", "{\"position\":\"x\x00\"}"} {
		if r, err := ParseOutput([]byte(out), request(1, 1)); !errors.Is(err, ErrBadOutput) {
			t.Errorf("%q: turn %+v, err %v; want ErrBadOutput", out, r.Turn, err)
		}
	}
	// Text in any script is text.
	if r, err := ParseOutput([]byte("Clés lentes — 遅い\nparce que"), request(1, 1)); err != nil || r.Turn.Position != "Clés lentes — 遅い" {
		t.Errorf("UTF-8 text: %+v, %v", r, err)
	}
}

// A command whose output starts with a byte order mark (a Windows tool,
// Python's utf-8-sig) printed a JSON turn, not a plain-text line holding
// the JSON as its position.
func TestExecOutputWithAByteOrderMark(t *testing.T) {
	t.Parallel()
	r, err := ParseOutput([]byte("\ufeff{\"position\":\"Keys leak time\",\"counter_to\":\"Use UUIDv7 keys\",\"confidence_change\":-1}\n"), request(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if r.Raw == nil || json.Unmarshal(r.Raw, &f) != nil || f["position"] != "Keys leak time" {
		t.Fatalf("reply %+v", r.Turn)
	}
	r, err = ParseOutput([]byte("\ufeffKeys leak time\nBecause."), request(1, 1))
	if err != nil || r.Turn == nil || r.Turn.Position != "Keys leak time" {
		t.Fatalf("plain text: %+v, %v", r, err)
	}
}

// Probe finds, before a debate, a command that cannot run as a whole:
// one that is not valid shell, or a program of any of its simple commands
// (in a pipeline or a list, after variable assignments) that does not
// exist or is not executable. What only the run can tell (a word made by
// an expansion, a relative path after a cd, a compound command's
// programs) is left for the run to judge.
func TestExecProbe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("#!/bin/sh\necho hi\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for cmd, ok := range map[string]bool{
		"sh -c 'echo hi'":                     true,
		"./agent.sh --fast":                   true,
		"cat":                                 true,
		"cd /tmp && ./x":                      true,
		"$HOME/bin/agent":                     true,
		"./agent.sh | cat | tr a-z A-Z":       true,
		"./agent.sh && echo done; true":       true,
		"FOO=1 BAR=2 ./agent.sh":              true,
		"if true; then ./agent.sh; fi":        true,
		"./agent.sh || exit 1":                true,
		"/nonexistent/debater --fast":         false,
		"./missing.sh":                        false,
		"./notes.txt":                         false,
		"no-such-program-parley-test":         false,
		"FOO=1 ./missing":                     false,
		"./agent.sh | no-such-filter-parley":  false,
		"./agent.sh|no-such-filter-parley":    false,
		"true && ./missing.sh --fast":         false,
		"./agent.sh 'an unterminated quote":   false,
		"./agent.sh && && echo twice":         false,
		"cat | ./agent.sh; ./notes.txt --now": false,
	} {
		e := &Exec{Command: cmd, Dir: dir}
		err := e.Probe(context.Background())
		if (err == nil) != ok {
			t.Errorf("%q: %v", cmd, err)
		}
		if err != nil {
			if u := e.Unavailable(err); u == nil || u.Kind != debate.UnavailableNoStart {
				t.Errorf("%q: %v is not cannot_start", cmd, err)
			}
		}
	}
	// A relative path not found says where it was looked for: a command
	// written for another directory (config.json's, a cron job's home).
	for _, d := range []string{dir, ""} {
		e := &Exec{Command: "./missing.sh --fast", Dir: d}
		want := d
		if d == "" {
			want, _ = os.Getwd()
		}
		if err := e.Probe(context.Background()); err == nil || !strings.Contains(e.Unavailable(err).Detail, "looked for under "+want) {
			t.Errorf("Dir %q: %v; want it to name %s", d, err, want)
		}
	}
}

// The prompt in an exec: command's input says how a command answers: on
// standard output, as a JSON turn or plain text. It does not tell the
// command (or the model it hands the prompt to) to send a debate_turn
// message with a replyTo, which a command cannot do.
func TestExecPromptSaysToPrintTheTurn(t *testing.T) {
	t.Parallel()
	in := filepath.Join(t.TempDir(), "in.json")
	if _, err := (&Exec{Command: "cat > " + in + "; echo 'Keys leak the creation time'"}).Respond(context.Background(), request(1, 1)); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		RequestID string `json:"request_id"`
		Text      string `json:"text"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Debate turn: round 1 of 3", "printing your turn on standard output", "plain text: the first line is your position", "To concede"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, got.Text)
		}
	}
	for _, wrong := range []string{"replyTo", "Send a message to", "debate_turn` message"} {
		if strings.Contains(got.Text, wrong) {
			t.Errorf("the prompt says %q, which a command cannot do:\n%s", wrong, got.Text)
		}
	}
	if got.RequestID != request(1, 1).RequestID {
		t.Errorf("request_id %q", got.RequestID)
	}
}

// A JSON object that states no turn at all (no position, claim or
// counter_to: a wrapper printing its API's error, {} from a jq filter
// that found nothing, a refusal in a "text" field) is output that is not
// a turn, refused as bad output with the object shown: read as a turn, its
// empty position and empty counter_to would be the attacker conceding,
// and a broken agent would file a consensus. A concession said in its
// fields is still one.
func TestExecObjectStatingNoTurnIsNoTurn(t *testing.T) {
	t.Parallel()
	for _, out := range []string{
		`{}`,
		`{"error":{"message":"Rate limit reached for gpt-4o","type":"requests"}}`,
		`{"text":"I'm sorry, but I can't help with that."}`,
		`{"confidence_change":0,"evidence_refs":[]}`,
	} {
		r, err := (&Exec{Command: `cat >/dev/null; printf '%s\n' "$OUT"`, Env: []string{"OUT=" + out}}).Respond(context.Background(), request(1, 1))
		if !errors.Is(err, ErrBadOutput) || !strings.Contains(err.Error(), out[:min(len(out), 30)]) {
			t.Errorf("%s: reply %+v, err %v; want ErrBadOutput showing the object", out, r, err)
		}
	}
	for out, concedes := range map[string]bool{
		`{"position":"","counter_to":"","confidence_change":0}`: true,
		`{"counter_to":"","confidence_change":0}`:               true,
		`{"claim":"Keys leak the creation time"}`:               false,
	} {
		tu, err := outputTurn(t, out)
		if err != nil || tu.Concedes() != concedes {
			t.Errorf("%s: turn %+v, err %v; want concedes %v", out, tu, err, concedes)
		}
	}
}

// slowFailure fails every call, and each call moves the runner's clock on
// by took: a command that fails only after a long wait (a wrapper whose
// API call times out).
type slowFailure struct {
	mu    sync.Mutex
	now   time.Time
	took  time.Duration
	calls int
}

func (s *slowFailure) clock() time.Time { s.mu.Lock(); defer s.mu.Unlock(); return s.now }

func (s *slowFailure) Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.now = s.now.Add(s.took)
	return nil, errors.New("exit status 1: API error: upstream timed out")
}

// A command that failed after taking longer than the turn has left is not
// run again (it could not finish, and the coordinator would hear nothing
// until the deadline, ending the debate TIMEOUT with the cause lost): the
// agent is unavailable at once, with the failure. With time left, it is
// asked once more, as before.
func TestRunnerDoesNotAskAgainWithoutTimeForIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		took  time.Duration
		calls int
	}{
		{"no time for a second try", 40 * time.Second, 1},
		{"time for a second try", 10 * time.Second, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			resp := &slowFailure{now: start, took: c.took}
			tr := inbox.NewMemTransport()
			tr.Create(ctx, "Coord")
			rctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			ready := make(chan struct{})
			r := &Runner{Name: "Critic", Transport: tr, Responder: resp, Ready: func() { close(ready) }, now: resp.clock}
			go func() { done <- r.Run(rctx) }()
			<-ready
			req := request(1, 1)
			req.Budget.Deadline = start.Add(time.Minute).UTC().Format(inbox.TimeLayout)
			m, _ := debate.NewRequestMessage("Coord", "Critic", req)
			tr.Send(ctx, m)
			rcv, err := tr.Listen(ctx, "Coord")
			if err != nil {
				t.Fatal(err)
			}
			defer rcv.Close()
			d, err := rcv.Receive(ctx)
			if err != nil {
				t.Fatalf("no reply: %v", err)
			}
			stop()
			<-done
			u, err := debate.DecodeUnavailable(d.Message)
			if err != nil || u.Kind != debate.UnavailableFailed || !strings.Contains(u.Detail, "API error: upstream timed out") {
				t.Fatalf("reply %s %q: %+v %v", d.Message.Kind(), d.Message.Text, u, err)
			}
			if resp.calls != c.calls {
				t.Errorf("%d calls, want %d", resp.calls, c.calls)
			}
		})
	}
}

// A command that hands its prompt to a model and prints the model's words
// prints what a model writes: the turn's JSON object in a ```json fence,
// after a line of prose, or after a <think> block. Its output is read as
// a model's reply is (the same position), not as plain text whose first
// line ("```json", "Here is my turn:") would be argued as the position;
// and a fence that holds no turn object is no turn at all.
func TestExecOutputIsReadAsAModelReplyIs(t *testing.T) {
	t.Parallel()
	const obj = `{"position": "Keys leak the creation time", "counter_to": "Use UUIDv7 keys", "confidence_change": -1}`
	for name, out := range map[string]string{
		"fenced":      "```json\n" + obj + "\n```\n",
		"prose first": "Here is my turn:\n" + obj + "\n",
		"prose after": obj + "\nThat is all I have to say.",
		"think block": "<think>\nThe defender says {\"position\": \"draft\"}.\n</think>\n" + obj,
		"not UTF-8":   "Voil\xe0 my turn:\n```json\n" + obj + "\n```",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, err := ParseModelReply(out, request(1, 1))
			if err != nil {
				t.Fatal(err)
			}
			got, err := outputTurn(t, out)
			if err != nil {
				t.Fatal(err)
			}
			// With no "text", the prose around the object is the argument
			// (the message renders the object when there is none).
			if got.Position != want.Position || got.CounterTo != want.CounterTo || (want.Text != "" && got.Text != want.Text) {
				t.Errorf("exec read %q / %q / %q; a model's reply reads %q / %q / %q",
					got.Position, got.CounterTo, got.Text, want.Position, want.CounterTo, want.Text)
			}
		})
	}
	for _, out := range []string{"```json\n{\"position\": \"cut short\n```", "```\nno object here\n```"} {
		if r, err := ParseOutput([]byte(out), request(1, 1)); !errors.Is(err, ErrBadOutput) {
			t.Errorf("%q: reply %+v, err %v; want ErrBadOutput", out, r, err)
		}
	}
}

// A command's "tokens" is read as a server's usage count is: a fraction
// (a Python wrapper's len(text) / 4) is cut to a whole number, and a
// value that is no count (a string, null, 0 or less) is not reported, so
// that the coordinator estimates; the turn is never rejected for it.
func TestExecTokensReadAsAUsageCount(t *testing.T) {
	t.Parallel()
	for tokens, want := range map[string]int{`12`: 12, `12.0`: 12, `12.7`: 12, `1e3`: 1000, `"12"`: 0, `null`: 0, `-5`: 0, `0`: 0} {
		out := `{"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":` + tokens + `}`
		tu, err := outputTurn(t, out)
		if err != nil || tu.Tokens != want {
			t.Errorf("tokens %s: turn %+v, err %v; want %d tokens (0: estimated)", tokens, tu, err, want)
		}
	}
}
