package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// newDemoCmd is "parley demo": the flow on a temporary root, in seconds.
//
// Stage 1 (the messenger): two agents register, each with its own
// transport and registry handle as two processes would have, and exchange
// questions and answers through their durable inboxes. The agents run as
// goroutines of this process (so the demo needs no binary on disk); the
// multi-process behaviour is what "parley bench messenger" and the inbox
// tests exercise.
//
// Stage 2 (the debate, demo_debate.go): a scripted critic and proposer run
// as separate "parley agent run" processes and debate to a verdict, which is
// filed in the vault; the transcript's hash chain is verified.
//
// Stage 3 (escalation, demo_escalate.go): a sample mini-verifier telemetry
// file is escalated with scripted agents; it ends in escalate's JSON lines.
func newDemoCmd(a *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "demo [--dir DIR]",
		Short: "Run the whole flow on a temporary root, in seconds",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := demoRoot(dir)
			if err != nil {
				return err
			}
			return runDemo(cmd.Context(), a, root)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the demo's root: used if new or empty, else a new demo-* directory is made in it (default: a new temporary directory, kept)")
	return cmd
}

// demoRoot is the directory a demo runs in: never one that holds
// anything, so that a demo neither overwrites a file (a config.json, a
// vault) nor mixes with an earlier run. dir itself when it is new or
// empty; else a new demo-* directory inside it, so the same --dir can be
// given again; a new temporary directory without dir.
func demoRoot(dir string) (string, error) {
	if dir == "" {
		return os.MkdirTemp("", "parley-demo-")
	}
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("--dir: %w", err)
		}
		return dir, nil
	case err != nil:
		return "", usagef("--dir %s: %v", dir, err)
	case len(ents) == 0:
		return dir, nil
	}
	sub, err := os.MkdirTemp(dir, "demo-")
	if err != nil {
		return "", fmt.Errorf("--dir: %w", err)
	}
	return sub, nil
}

// demoQuestions are what the defender asks the attacker in stage 1.
var demoQuestions = []string{
	"Is an idempotency key per request enough to make retries safe?",
	"What if two requests with the same key arrive at once?",
	"Would a unique index on the key settle it?",
}

// demo carries the state and the output of one demo run.
type demo struct {
	a     *factory
	root  string
	start time.Time
	mu    sync.Mutex // serialises output from the agents' goroutines
}

func runDemo(ctx context.Context, a *factory, root string) error {
	d := &demo{a: a, root: root, start: time.Now()}
	d.event("root", map[string]any{"root": root}, "messenger root: %s", root)

	alice, err := d.startAgent(ctx, "defender")
	if err != nil {
		return err
	}
	defer alice.stop(ctx)
	bob, err := d.startAgent(ctx, "attacker")
	if err != nil {
		return err
	}
	defer bob.stop(ctx)

	if err := d.exchange(ctx, alice, bob); err != nil {
		return err
	}
	o, err := d.demoDebate(ctx)
	if err != nil {
		return err
	}
	ds, err := d.demoEscalate(ctx)
	if err != nil {
		return err
	}
	d.report(alice, bob, o)
	d.reportEscalate(ds)
	return nil
}

// demoAgent is one registered agent: its messenger handles, its inbox and
// the heartbeat goroutine it owns.
type demoAgent struct {
	name, session string
	tr            *inbox.FileTransport
	reg           *registry.Registry
	recv          inbox.Receiver
	cancel        context.CancelFunc
	wg            sync.WaitGroup
	once          sync.Once
}

// startAgent registers an agent with a memorable name, opens its inbox and
// starts its heartbeat.
func (d *demo) startAgent(ctx context.Context, role string) (*demoAgent, error) {
	tr, err := inbox.NewFileTransport(d.root, inbox.WithLogger(d.a.logger()))
	if err != nil {
		return nil, err
	}
	reg, err := registry.Open(d.root, tr, registry.WithLogger(d.a.logger()))
	if err != nil {
		tr.Close()
		return nil, err
	}
	me, err := reg.Register(ctx, registry.Registration{Roles: []string{role}, Model: "demo"})
	if err != nil {
		reg.Close()
		tr.Close()
		return nil, err
	}
	r, err := tr.Listen(ctx, me.Name)
	if err != nil {
		_ = reg.Unregister(ctx, me.Name, me.SessionID)
		reg.Close()
		tr.Close()
		return nil, err
	}
	ag := &demoAgent{name: me.Name, session: me.SessionID, tr: tr, reg: reg, recv: r}
	hctx, cancel := context.WithCancel(ctx)
	ag.cancel = cancel
	ag.wg.Add(1)
	go func() {
		defer ag.wg.Done()
		_ = reg.Keepalive(me.Name, me.SessionID, time.Second).Run(hctx)
	}()
	d.event("registered", map[string]any{"agent": me.Name, "role": role, "pid": me.PID},
		"registered %s as %s (pid %d, %s)", me.Name, role, me.PID, filepath.Join(d.root, registry.Dir, me.Name+".json"))
	return ag, nil
}

// stop ends the heartbeat, releases the inbox and unregisters.
func (ag *demoAgent) stop(ctx context.Context) {
	ag.once.Do(func() {
		ag.cancel()
		ag.wg.Wait()
		ag.recv.Close()
		_ = ag.reg.Unregister(context.WithoutCancel(ctx), ag.name, ag.session)
		ag.reg.Close()
		ag.tr.Close()
	})
}

// exchange: the asker sends each question and waits for the answer, which
// the answerer's goroutine sends back as a reply.
func (d *demo) exchange(ctx context.Context, asker, answerer *demoAgent) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- d.answer(ctx, answerer, len(demoQuestions)) }()
	for i, q := range demoQuestions {
		m := &inbox.Message{ID: inbox.NewID(), From: asker.name, To: answerer.name, Text: q}
		d.event("sent", map[string]any{"from": asker.name, "to": answerer.name, "id": m.ID, "text": q},
			"%s → %s  %q", asker.name, answerer.name, q)
		if err := m.SetFields(map[string]any{"sent_unix_ns": time.Now().UnixNano()}); err != nil {
			return err
		}
		if err := asker.tr.Send(ctx, m); err != nil {
			return err
		}
		del, err := asker.recv.Receive(ctx)
		if err != nil {
			return fmt.Errorf("waiting for the answer to question %d: %w", i+1, err)
		}
		if del.Message.ReplyTo != m.ID {
			return fmt.Errorf("answer %s does not reply to %s", del.Message.ID, m.ID)
		}
		if err := asker.recv.Ack(ctx, del); err != nil {
			return err
		}
	}
	return <-errc
}

// answer is the answering agent's loop: claim, reply, acknowledge.
func (d *demo) answer(ctx context.Context, ag *demoAgent, n int) error {
	for i := 0; i < n; i++ {
		del, err := ag.recv.Receive(ctx)
		if err != nil {
			return err
		}
		q := del.Message
		var f struct {
			SentUnixNs int64 `json:"sent_unix_ns"`
		}
		_ = q.DecodeFields(&f)
		latency := time.Since(time.Unix(0, f.SentUnixNs))
		reply := &inbox.Message{From: ag.name, To: q.From, ReplyTo: q.ID,
			Text: fmt.Sprintf("Answer %d: not on its own — a retry racing the first attempt needs the key claimed atomically.", i+1)}
		if err := ag.tr.Send(ctx, reply); err != nil {
			return err
		}
		d.event("answered", map[string]any{"from": ag.name, "to": q.From, "reply_to": q.ID, "id": reply.ID},
			"%s → %s  answer %d (the question reached %s %.2f ms after it was sent)", ag.name, q.From, i+1, ag.name, float64(latency.Microseconds())/1000)
		if err := ag.recv.Ack(ctx, del); err != nil {
			return err
		}
	}
	return nil
}

// report says what happened and where to look.
func (d *demo) report(alice, bob *demoAgent, o *debate.Outcome) {
	elapsed := time.Since(d.start).Round(time.Millisecond)
	if d.a.json {
		_ = d.a.emit(map[string]any{
			"event":        "done",
			"elapsed_ms":   elapsed.Milliseconds(),
			"root":         d.root,
			"acknowledged": []string{filepath.Join(d.root, inbox.InboxDir, alice.name, inbox.CurDir), filepath.Join(d.root, inbox.InboxDir, bob.name, inbox.CurDir)},
			"debate_id":    o.DebateID,
			"verdict":      o.Verdict,
			"transcript":   filepath.Join(d.root, "debates", o.DebateID, "transcript.jsonl"),
			"record":       filepath.Join(d.root, "vault", filepath.FromSlash(o.Record)),
		})
		return
	}
	d.a.printf("\n%d questions answered and a debate closed with %s in %s. Where to look:\n", len(demoQuestions), o.Verdict, elapsed)
	d.reportDebate(o)
	d.a.printf("  messages      %s/inbox/{%s,%s}/cur/   (acknowledged, one JSON file each)\n", d.root, alice.name, bob.name)
	d.a.printf("  registrations %s/registry/            (removed as the agents stopped)\n", d.root)
	d.a.printf("  try           parley --root %s agents show %s\n", d.root, bob.name)
	d.a.printf("                parley --root %s send --from You --to %s 'hello'\n", d.root, bob.name)
}

// event prints one step: a JSON line under --json, else a timed line.
func (d *demo) event(kind string, fields map[string]any, format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.a.json {
		obj := map[string]any{"event": kind, "t_ms": float64(time.Since(d.start).Microseconds()) / 1000}
		for k, v := range fields {
			obj[k] = v
		}
		_ = d.a.emit(obj)
		return
	}
	d.a.printf("[%8.1f ms] %s\n", float64(time.Since(d.start).Microseconds())/1000, fmt.Sprintf(format, args...))
}
