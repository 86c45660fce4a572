package app

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// The glue between a debate and its agents: the coordinator's
// registration, the liveness of participants, and the agent processes a
// debate starts for itself.

// Spawn says how the App starts parley processes of its own: the agents a
// debate runs ("parley agent run") and detached debates ("parley debate
// resume"). The zero value runs this executable with the App's root and
// vault.
type Spawn struct {
	// Exe is the parley executable; "" means os.Executable().
	Exe string
	// Args are global flags given after --root and --vault (--verbose).
	Args []string
	// Env is added to the environment of each process.
	Env []string
}

// command is the parley process "args…" with the App's root and vault
// (absolute), its output to out.
func (a *App) command(out io.Writer, args ...string) (*exec.Cmd, error) {
	exe := a.spawn.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	root, err := filepath.Abs(a.root)
	if err != nil {
		return nil, err
	}
	vault, err := filepath.Abs(a.vault)
	if err != nil {
		return nil, err
	}
	full := append([]string{"--root", root, "--vault", vault}, a.spawn.Args...)
	cmd := exec.Command(exe, append(full, args...)...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), a.spawn.Env...)
	return cmd, nil
}

// SessionID is the registry session id of name in debate debateID:
// derived, so that a coordinator or agent restarted by a resume is the
// same session and keeps the mail waiting in its inbox.
func SessionID(debateID, name string) string {
	sum := sha256.Sum256([]byte("parley/session/" + debateID + "/" + name))
	h := fmt.Sprintf("%x", sum[:16])
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// Enroller registers a debate's coordinator for as long as it runs,
// renewing its registration as often as agents do.
type Enroller struct {
	reg   Registry
	id    string // the debate
	every time.Duration
	log   *slog.Logger
}

var _ debate.Enroller = Enroller{}

// enroller is the coordinator's enroller for debate id on reg.
func (a *App) enroller(reg Registry, id string) Enroller {
	return Enroller{reg: reg, id: id, every: a.HeartbeatEvery(), log: a.log}
}

// Enroll registers name (with the debate's derived session id) and beats
// until leave is called, which unregisters it.
func (e Enroller) Enroll(ctx context.Context, name string) (func(context.Context), error) {
	sid := SessionID(e.id, name)
	res, err := e.reg.Register(ctx, registry.Registration{Name: name, SessionID: sid, Roles: []string{"coordinator"}, Model: "parley"})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		every := e.every
		if every <= 0 {
			every = 5 * time.Second
		}
		// A registration removed under the coordinator (pruned while the
		// machine slept past the TTL, or deleted) is written back at the
		// next beat; one another session took ends the beats, and the
		// coordinator's messenger then finds out on its own.
		_ = registry.Beat(ctx, every, func(ctx context.Context) error {
			_, err := registry.Renew(ctx, e.reg, res.Registration)
			return err
		}, e.log)
	}()
	return func(ctx context.Context) {
		cancel()
		<-done
		_ = e.reg.Unregister(ctx, name, sid)
	}, nil
}

// agentProcs are the agent processes a debate started; stop ends them.
// Each has a goroutine that waits for it, ended when the process ends.
type agentProcs struct {
	procs []*agentProc
	// failed are the agents whose process could not start, and why.
	failed map[string]*debate.UnavailableError
}

type agentProc struct {
	name   string
	cmd    *exec.Cmd
	log    io.Closer
	exited chan struct{} // closed when the process has ended
}

// presence is the debate's Presence: the registry's liveness, and why an
// agent the debate started never came up (debate.Diagnoser), so that the
// debate ends UNAVAILABLE naming it rather than waiting for it.
type presence struct {
	debate.Presence
	procs *agentProcs
}

var _ debate.Diagnoser = presence{}

func (p presence) Unavailable(agent string) *debate.UnavailableError {
	if p.procs == nil {
		return nil
	}
	return p.procs.failed[agent]
}

// registerWait bounds how long an agent process may take to register.
const registerWait = 20 * time.Second

// startAgents starts, as separate processes ("parley agent run"), every
// participant of s that has an adapter spec, after retiring an earlier
// process of the same name, and waits until each has registered. Their
// output goes to <root>/debates/<id>/logs/<name>.log. An agent whose
// process ends (or does not register in time) cannot start: the debate
// goes on and ends UNAVAILABLE when that agent's turn comes.
func (a *App) startAgents(ctx context.Context, m Backend, store *transcripts.Store, s *debate.DebateSession) (*agentProcs, error) {
	procs := &agentProcs{}
	fail := func(err error) (*agentProcs, error) {
		procs.stop()
		return nil, err
	}
	for _, p := range s.Participants {
		sp, err := agent.ParseSpec(p.Agent)
		if err != nil || sp.Kind == agent.KindRegistered {
			continue
		}
		if err := a.retire(ctx, m, s.ID, p.Name); err != nil {
			return fail(err)
		}
		logf, err := store.AgentLog(s.ID, p.Name)
		if err != nil {
			return fail(err)
		}
		cmd, err := a.command(logf, "agent", "run", "--name", p.Name, "--role", string(p.Role), "--spec", sp.String(),
			"--session-id", SessionID(s.ID, p.Name), "--exit-with-parent", "--parent-pid", strconv.Itoa(os.Getpid()))
		if err != nil {
			logf.Close()
			return fail(err)
		}
		// Not in the terminal's process group: Ctrl-C stops the debate, and
		// the debate stops its agents.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			logf.Close()
			return fail(fmt.Errorf("start agent %s: %w", p.Name, err))
		}
		ap := &agentProc{name: p.Name, cmd: cmd, log: logf, exited: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(ap.exited) }()
		procs.procs = append(procs.procs, ap)
	}
	deadline := time.Now().Add(registerWait)
	for _, ap := range procs.procs {
		for {
			if alive, _ := m.Registry().Alive(ctx, ap.name); alive {
				break
			}
			select {
			case <-ap.exited:
			case <-ctx.Done():
				return fail(ctx.Err())
			case <-time.After(20 * time.Millisecond):
				if time.Now().Before(deadline) {
					continue
				}
			}
			procs.noStart(ap, filepath.Join(a.root, filepath.FromSlash(transcripts.Path(s.ID, "logs/"+ap.name+".log"))))
			break
		}
	}
	return procs, nil
}

// noStart records why ap did not register (killing it if it still runs),
// with the last line of its log.
func (p *agentProcs) noStart(ap *agentProc, logPath string) {
	why := "its process did not register within 20 s"
	select {
	case <-ap.exited:
		why = "its process exited before it registered"
		if ap.cmd.ProcessState != nil {
			why = fmt.Sprintf("its process exited (%v) before it registered", ap.cmd.ProcessState)
		}
	default:
		_ = ap.cmd.Process.Kill()
	}
	if last := lastLogLine(logPath); last != "" {
		why += ": " + last
	}
	if p.failed == nil {
		p.failed = map[string]*debate.UnavailableError{}
	}
	p.failed[ap.name] = &debate.UnavailableError{
		Kind: debate.UnavailableNoStart, Detail: "the agent cannot start: " + why, Hint: "see " + logPath,
	}
}

// lastLogLine is the last non-empty line of an agent's log (at most 300
// characters), "" when there is none.
func lastLogLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(last); len(r) > 300 {
		last = string(r[:300]) + "…"
	}
	return last
}

// ForeignAgentError is a live agent with the name of an agent the debate
// starts itself, that the debate did not start.
type ForeignAgentError struct{ Agent string }

func (e *ForeignAgentError) Error() string {
	return "a live agent that this debate did not start is called " + e.Agent
}

// retire makes sure no earlier process of the debate's agent name is
// alive: an agent started by a coordinator that was killed stops by itself
// (it watches its parent), but may not have yet. It is told to stop
// (SIGTERM: it unregisters) and waited for until its process has ended,
// interrupt.Grace, then killed and waited for as long again. Its process,
// not only its registration: after an outage of the messenger it may have
// unregistered with its hold on the inbox still standing (the hold could
// not be released while the server was out of reach; it lapses when the
// process ends), and the new agent could not take the inbox until then.
// One that unregistered before retire looked is not seen here: the new
// agent waits for the inbox itself (agentBusyWait). A live agent of that
// name that the debate did not start is a *ForeignAgentError.
func (a *App) retire(ctx context.Context, m Backend, id, name string) error {
	reg := m.Registry()
	e, err := reg.Get(ctx, name)
	if errors.Is(err, registry.ErrNotRegistered) || (err == nil && !e.Alive) {
		return nil
	}
	if err != nil {
		return err
	}
	if e.SessionID != SessionID(id, name) || e.Host != reg.Host() || e.PID <= 0 {
		return &ForeignAgentError{Agent: name}
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		_ = syscall.Kill(e.PID, sig)
		for deadline := time.Now().Add(interrupt.Grace); time.Now().Before(deadline); {
			if !registry.PIDAlive(e.PID) {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return fmt.Errorf("agent %s (pid %d) of an earlier run does not stop", name, e.PID)
}

// stop sends SIGTERM to every agent process (they unregister), waits for
// them interrupt.Grace, then kills what is left. It is called once the
// coordinator has left: an agent that stopped before would count as one
// that died in the debate.
func (p *agentProcs) stop() {
	if p == nil {
		return
	}
	for _, ap := range p.procs {
		_ = ap.cmd.Process.Signal(syscall.SIGTERM)
	}
	// One deadline for them all, which stays over once it is: each agent
	// still running then is killed.
	limit, cancel := interrupt.Cleanup(context.Background())
	defer cancel()
	for _, ap := range p.procs {
		select {
		case <-ap.exited:
		case <-limit.Done():
			_ = ap.cmd.Process.Kill()
			<-ap.exited
		}
		ap.log.Close()
	}
	p.procs = nil
}
