package demo

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// questions are what the defender asks the attacker in stage 1.
var questions = []string{
	"Is an idempotency key per request enough to make retries safe?",
	"What if two requests with the same key arrive at once?",
	"Would a unique index on the key settle it?",
}

// agent is one registered agent: its messenger handles, its inbox and the
// heartbeat goroutine it owns.
type agent struct {
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
func (r *run) startAgent(ctx context.Context, role string) (*agent, error) {
	tr, err := inbox.NewFileTransport(r.root, inbox.WithLogger(r.svc.Logger))
	if err != nil {
		return nil, err
	}
	reg, err := registry.Open(r.root, tr, registry.WithLogger(r.svc.Logger))
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
	rcv, err := tr.Listen(ctx, me.Name)
	if err != nil {
		_ = reg.Unregister(ctx, me.Name, me.SessionID)
		reg.Close()
		tr.Close()
		return nil, err
	}
	ag := &agent{name: me.Name, session: me.SessionID, tr: tr, reg: reg, recv: rcv}
	hctx, cancel := context.WithCancel(ctx)
	ag.cancel = cancel
	ag.wg.Add(1)
	go func() {
		defer ag.wg.Done()
		_ = reg.Keepalive(me.Name, me.SessionID, time.Second).Run(hctx)
	}()
	err = r.event(Event{Kind: EventRegistered, Data: map[string]any{"agent": me.Name, "role": role, "pid": me.PID},
		Text: fmt.Sprintf("registered %s as %s (pid %d, %s)", me.Name, role, me.PID, filepath.Join(r.root, registry.Dir, me.Name+".json"))})
	if err != nil {
		ag.stop(ctx)
		return nil, err
	}
	return ag, nil
}

// stop ends the heartbeat, releases the inbox and unregisters.
func (ag *agent) stop(ctx context.Context) {
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
func (r *run) exchange(ctx context.Context, asker, answerer *agent) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- r.answer(ctx, answerer, len(questions)) }()
	for i, q := range questions {
		m := &inbox.Message{ID: inbox.NewID(), From: asker.name, To: answerer.name, Text: q}
		if err := r.event(Event{Kind: EventSent, Data: map[string]any{"from": asker.name, "to": answerer.name, "id": m.ID, "text": q},
			Text: fmt.Sprintf("%s → %s  %q", asker.name, answerer.name, q)}); err != nil {
			cancel()
			<-errc
			return err
		}
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
func (r *run) answer(ctx context.Context, ag *agent, n int) error {
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
		if err := r.event(Event{Kind: EventAnswered, Data: map[string]any{"from": ag.name, "to": q.From, "reply_to": q.ID, "id": reply.ID},
			Text: fmt.Sprintf("%s → %s  answer %d (the question reached %s %.2f ms after it was sent)", ag.name, q.From, i+1, ag.name, float64(latency.Microseconds())/1000)}); err != nil {
			return err
		}
		if err := ag.recv.Ack(ctx, del); err != nil {
			return err
		}
	}
	return nil
}
