package main

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
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// The glue between the debate and the file messenger: the coordinator's
// registration, the liveness of participants, and the agent processes a
// debate starts for itself.

// childEnv is added to the environment of the parley processes this one
// starts (agents, a detached debate). Tests set it so that the test binary,
// standing in for parley, runs the command line.
var childEnv []string

// sessionIDOf is the registry session id of a name in a debate: derived,
// so that a coordinator or agent restarted by "debate resume" is the same
// session and keeps the mail waiting in its inbox.
func sessionIDOf(debateID, name string) string {
	sum := sha256.Sum256([]byte("parley/session/" + debateID + "/" + name))
	h := fmt.Sprintf("%x", sum[:16])
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// heartbeatEvery is how often agents renew their registration: a third of
// the liveness TTL, at most 5 s.
func (a *factory) heartbeatEvery() time.Duration {
	return min(a.registrationTTL()/3, 5*time.Second)
}

// registrationTTL is the liveness TTL of registrations (config's
// messenger.heartbeatTtlMs, else registry.DefaultTTL).
func (a *factory) registrationTTL() time.Duration {
	if cfg, err := a.config(); err == nil && cfg.Messenger.HeartbeatTTLMs > 0 {
		return time.Duration(cfg.Messenger.HeartbeatTTLMs) * time.Millisecond
	}
	return registry.DefaultTTL
}

// enroller registers the coordinator for as long as it runs, renewing
// its registration as often as agents do.
type enroller struct {
	reg   registrar
	id    string // the debate
	every time.Duration
	log   *slog.Logger
}

// enroller is the coordinator's enroller for debate id, heartbeating at
// a.heartbeatEvery (a third of the configured liveness TTL, at most 5 s).
func (a *factory) enroller(reg registrar, id string) enroller {
	return enroller{reg: reg, id: id, every: a.heartbeatEvery(), log: a.logger()}
}

func (e enroller) Enroll(ctx context.Context, name string) (func(context.Context), error) {
	sid := sessionIDOf(e.id, name)
	_, err := e.reg.Register(ctx, registry.Registration{Name: name, SessionID: sid, Roles: []string{"coordinator"}, Model: "parley"})
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
		// A lost registration ends the beats; the coordinator's messenger
		// then finds out on its own.
		_ = registry.Beat(ctx, every, func(ctx context.Context) error { return e.reg.Heartbeat(ctx, name, sid) }, e.log)
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

type agentProc struct {
	name   string
	cmd    *exec.Cmd
	log    io.Closer
	exited chan struct{} // closed when the process has ended
}

// startAgents starts, as separate processes ("parley agent run"), every
// participant of s that has an adapter spec and is not already alive, and
// waits until each has registered. Their output goes to
// <root>/debates/<id>/logs/<name>.log.
func (a *factory) startAgents(ctx context.Context, m *messenger, store *transcripts.Store, s *debate.DebateSession) (*agentProcs, error) {
	procs := &agentProcs{}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	for _, p := range s.Participants {
		sp, err := agent.ParseSpec(p.Agent)
		if err != nil || sp.Kind == agent.KindRegistered {
			continue
		}
		if err := a.retire(ctx, m, s.ID, p.Name); err != nil {
			procs.stop()
			return nil, err
		}
		logf, err := store.AgentLog(s.ID, p.Name)
		if err != nil {
			procs.stop()
			return nil, err
		}
		args, err := a.childArgs()
		if err != nil {
			procs.stop()
			return nil, err
		}
		args = append(args, "agent", "run", "--name", p.Name, "--role", string(p.Role), "--spec", sp.String(),
			"--session-id", sessionIDOf(s.ID, p.Name), "--exit-with-parent", "--parent-pid", strconv.Itoa(os.Getpid()))
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.Env = append(os.Environ(), childEnv...)
		// Not in the terminal's process group: Ctrl-C stops the debate, and
		// the debate stops its agents.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			logf.Close()
			procs.stop()
			return nil, fmt.Errorf("start agent %s: %w", p.Name, err)
		}
		ap := &agentProc{name: p.Name, cmd: cmd, log: logf, exited: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(ap.exited) }()
		procs.procs = append(procs.procs, ap)
	}
	// Wait for the registrations. An agent whose process ends (or does not
	// register in time) is one that cannot start: the debate goes on and
	// ends UNAVAILABLE when that agent's turn comes.
	deadline := time.Now().Add(20 * time.Second)
	for _, ap := range procs.procs {
		for {
			if alive, _ := m.reg.Alive(ctx, ap.name); alive {
				break
			}
			select {
			case <-ap.exited:
			case <-ctx.Done():
				procs.stop()
				return nil, ctx.Err()
			case <-time.After(20 * time.Millisecond):
				if time.Now().Before(deadline) {
					continue
				}
			}
			logPath := filepath.Join(a.rootDir(), filepath.FromSlash(transcripts.Path(s.ID, "logs/"+ap.name+".log")))
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
			if procs.failed == nil {
				procs.failed = map[string]*debate.UnavailableError{}
			}
			procs.failed[ap.name] = &debate.UnavailableError{
				Kind: debate.UnavailableNoStart, Detail: "the agent cannot start: " + why, Hint: "see " + logPath,
			}
			break
		}
	}
	return procs, nil
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

// retire makes sure no earlier process of the debate's agent name is
// alive: an agent started by a coordinator that was killed stops by itself
// (it watches its parent), but may not have yet. It is told to stop
// (SIGTERM: it unregisters) and waited for; a live agent of that name that
// the debate did not start is an error.
func (a *factory) retire(ctx context.Context, m *messenger, id, name string) error {
	e, err := m.reg.Get(ctx, name)
	if errors.Is(err, registry.ErrNotRegistered) || (err == nil && !e.Alive) {
		return nil
	}
	if err != nil {
		return err
	}
	if e.SessionID != sessionIDOf(id, name) || e.Host != m.reg.Host() || e.PID <= 0 {
		return fmt.Errorf("a live agent that this debate did not start is called %s (see parley agents show %s)", name, name)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		_ = syscall.Kill(e.PID, sig)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			if alive, err := m.reg.Alive(ctx, name); err == nil && !alive {
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

// stop sends SIGTERM to every agent process (they unregister), waits up to
// 5 s, then kills what is left.
func (p *agentProcs) stop() {
	if p == nil {
		return
	}
	for _, ap := range p.procs {
		_ = ap.cmd.Process.Signal(syscall.SIGTERM)
	}
	deadline := time.After(5 * time.Second)
	for _, ap := range p.procs {
		select {
		case <-ap.exited:
		case <-deadline:
			_ = ap.cmd.Process.Kill()
			<-ap.exited
		}
		ap.log.Close()
	}
	p.procs = nil
}

// participantName is the name a debate gives an agent it starts itself:
// the role (and place, for attackers) and the debate id's suffix, so that
// it reads well in "parley agents list" and stays the same on resume.
func participantName(id string, role debate.Role, n int) string {
	suffix := id[strings.LastIndexByte(id, '-')+1:]
	if role == debate.RoleDefender {
		if n > 1 {
			return fmt.Sprintf("Defender%d-%s", n, suffix)
		}
		return "Defender-" + suffix
	}
	return fmt.Sprintf("Attacker%d-%s", n, suffix)
}

// childArgs are the global flags of a parley process this one starts: the
// same root and vault, as absolute paths.
func (a *factory) childArgs() ([]string, error) {
	root, err := filepath.Abs(a.rootDir())
	if err != nil {
		return nil, err
	}
	vault, err := filepath.Abs(a.vaultDir())
	if err != nil {
		return nil, err
	}
	args := []string{"--root", root, "--vault", vault}
	if a.verbose {
		args = append(args, "--verbose")
	}
	return args, nil
}
