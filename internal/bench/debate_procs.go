package bench

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/transcripts"
)

// agentReadyTimeout bounds the wait for an agent process to say it listens.
const agentReadyTimeout = 30 * time.Second

// debateBenchProcesses runs o.Concurrent debates at once over backend b,
// each its own coordinator in this process journaling to fsynced
// transcripts under root, spoken by o.AgentPairs pairs of "parley agent
// run --script" processes on the same messenger, as a user runs them.
func debateBenchProcesses(ctx context.Context, o DebateOptions, b Backend, root string) (*DebateResult, error) {
	var nb [4]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return nil, err
	}
	base := binary.BigEndian.Uint32(nb[:])
	tag := fmt.Sprintf("_%06x", base&0xffffff) // agent names of this run only

	tr, closeTr, err := b.open(ctx, root)
	if err != nil {
		return nil, err
	}
	defer closeTr()
	st, err := transcripts.OpenStore(root, nil)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	journal := func(s *debate.DebateSession) (debate.Journal, error) { return st.Create(context.Background(), s) }

	pairs := min(o.Concurrent, o.AgentPairs)
	procs, err := startAgentProcs(ctx, o, root, tag, pairs)
	if err != nil {
		return nil, err
	}
	defer procs.stop()

	cpu0 := selfCPU()
	start := time.Now()
	done, turns, lat, firstErr := concurrentDebates(o.Concurrent, func(i int) (*debate.Outcome, []time.Duration, error) {
		var sent time.Time
		var mine []time.Duration
		progress := func(p debate.Progress) {
			switch p.Event.Kind {
			case debate.EventRequest:
				sent = time.Now()
			case debate.EventTurn:
				mine = append(mine, time.Since(sent))
			}
		}
		s := benchSession(i, o.Rounds, base, procParticipant(debate.RoleAttacker, i%pairs, tag), procParticipant(debate.RoleDefender, i%pairs, tag))
		out, err := debateBenchJournal(ctx, tr, journal, s, progress)
		return out, mine, err
	})
	el := time.Since(start)
	cpu1 := selfCPU()
	agentsCPU, err := procs.stop()
	if err != nil {
		return nil, err
	}
	if done == 0 {
		return nil, firstErr
	}
	slices.Sort(lat)
	res := &DebateResult{
		Bench: "debate", Name: "processes_" + b.Name, Backend: b.Name,
		Setup: fmt.Sprintf("%s; %d coordinators at once in this process, fsynced transcripts; %d agent pairs, each agent a 'parley agent run --script' process answering at once",
			b.describe(), o.Concurrent, pairs),
		Debates: o.Concurrent, Turns: turns, Seconds: el.Seconds(), Complete: done,
		AgentProcesses: 2 * pairs, DebatesPerSec: float64(done) / el.Seconds(),
		TurnP50Ms: ms(pct(lat, 50)), TurnP99Ms: ms(pct(lat, 99)),
		AgentsCPU: agentsCPU.Seconds(),
		Bar:       fmt.Sprintf("%d debates complete", o.Concurrent), Pass: judge(true, done == o.Concurrent),
	}
	if firstErr != nil {
		res.Error = firstErr.Error()
	}
	if cpu0 > 0 {
		res.CoordinatorCPU = (cpu1 - cpu0).Seconds()
	}
	if turns > 0 {
		res.CPUPerTurn = (res.CoordinatorCPU + res.AgentsCPU) * 1000 / float64(turns)
	}
	return res, nil
}

// describe says what the backend is, for a figure's setup line.
func (b Backend) describe() string {
	switch b.Name {
	case BackendNATS:
		return "NATS JetStream transport (" + jetstream.Redact(b.url()) + ")"
	case BackendFile:
		return "file transport (durable delivery, fsync)"
	}
	return b.Name + " messenger backend"
}

func procParticipant(role debate.Role, i int, tag string) debate.Participant {
	name := fmt.Sprintf("BenchProposer%d%s", i, tag)
	if role == debate.RoleAttacker {
		name = fmt.Sprintf("BenchCritic%d%s", i, tag)
	}
	return debate.Participant{Name: name, Role: role}
}

// benchScript is an agent script that takes a new position every round
// (the attacker countering the defender's position of the round), so
// that a debate runs until its round budget is spent.
func benchScript(role debate.Role, rounds int) ([]byte, error) {
	type turn struct {
		Round            int      `json:"round"`
		Position         string   `json:"position"`
		CounterTo        string   `json:"counter_to,omitempty"`
		EvidenceRefs     []string `json:"evidence_refs"`
		ConfidenceChange float64  `json:"confidence_change"`
		Tokens           int      `json:"tokens"`
		Text             string   `json:"text"`
	}
	var s struct {
		Turns []turn `json:"turns"`
	}
	for r := 1; r <= rounds; r++ {
		t := turn{Round: r, Position: fmt.Sprintf("%s position %d", role, r), EvidenceRefs: []string{}, ConfidenceChange: -1, Tokens: 50,
			Text: "An argument of a realistic length: a sentence or two, citing nothing in particular."}
		if role == debate.RoleAttacker {
			t.CounterTo = fmt.Sprintf("%s position %d", debate.RoleDefender, r)
		}
		s.Turns = append(s.Turns, t)
	}
	return json.Marshal(s)
}

// agentProcs are the agent processes of a run.
type agentProcs struct {
	procs []agentProc
	once  sync.Once
	cpu   time.Duration
	err   error
}

type agentProc struct {
	name string
	cmd  *exec.Cmd
}

// startAgentProcs starts pairs pairs of agent processes on root's
// messenger and waits until each says it listens.
func startAgentProcs(ctx context.Context, o DebateOptions, root, tag string, pairs int) (*agentProcs, error) {
	if o.Parley == "" {
		return nil, errors.New("no parley binary to run the agent processes")
	}
	ap := &agentProcs{}
	for _, role := range []debate.Role{debate.RoleAttacker, debate.RoleDefender} {
		script, err := benchScript(role, o.Rounds)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(root, string(role)+".json"), script, 0o600); err != nil {
			return nil, err
		}
	}
	for i := range pairs {
		for _, role := range []debate.Role{debate.RoleAttacker, debate.RoleDefender} {
			p := procParticipant(role, i, tag)
			if err := ap.start(ctx, o, root, p); err != nil {
				ap.stop()
				return nil, err
			}
		}
	}
	return ap, nil
}

func (ap *agentProcs) start(ctx context.Context, o DebateOptions, root string, p debate.Participant) error {
	log, err := os.OpenFile(filepath.Join(root, p.Name+".log"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(o.Parley, "--root", root, "--json", "agent", "run", "--name", p.Name, "--role", string(p.Role),
		"--script", filepath.Join(root, string(p.Role)+".json"), "--exit-with-parent")
	cmd.Env = append(os.Environ(), o.Env...)
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	ap.procs = append(ap.procs, agentProc{p.Name, cmd})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), `"event":"ready"`) {
				said = true
				ready <- nil
			}
		}
		if !said {
			ready <- fmt.Errorf("agent process %s ended before it listened (its log: %s)", p.Name, log.Name())
		}
	}()
	t := time.NewTimer(agentReadyTimeout)
	defer t.Stop()
	select {
	case err := <-ready:
		return err
	case <-t.C:
		return fmt.Errorf("agent process %s did not listen within %v (its log: %s)", p.Name, agentReadyTimeout, log.Name())
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop sends SIGTERM to every agent process (they unregister and exit;
// not SIGINT, which a bench started as a script's background job starts
// them ignoring), waits for them, and returns the CPU time they used. It
// is idempotent.
func (ap *agentProcs) stop() (time.Duration, error) {
	ap.once.Do(func() {
		for _, p := range ap.procs {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range ap.procs {
			c := p.cmd
			t := time.AfterFunc(10*time.Second, func() { _ = c.Process.Kill() })
			err := c.Wait()
			t.Stop()
			if c.ProcessState != nil {
				ap.cpu += processCPU(c.ProcessState)
			}
			if err != nil && ap.err == nil && (c.ProcessState == nil || !c.ProcessState.Success()) {
				ap.err = fmt.Errorf("agent process %s: %w", p.name, err)
			}
		}
	})
	return ap.cpu, ap.err
}
