package app

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/registry"
)

// beatCounter is a registrar that counts the coordinator's heartbeats.
type beatCounter struct {
	Registry
	beats chan struct{}
}

func (b *beatCounter) Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error) {
	return &registry.Registered{}, nil
}

func (b *beatCounter) Heartbeat(ctx context.Context, name, sessionID string) error {
	select {
	case b.beats <- struct{}{}:
	default:
	}
	return nil
}

func (b *beatCounter) Unregister(ctx context.Context, name, sessionID string) error { return nil }

// The coordinator renews its registration as often as the agents do (a
// third of the configured liveness TTL), not every 5 s whatever the TTL: a
// short TTL would otherwise show it dead, and pruned, mid-debate.
func TestCoordinatorHeartbeatFollowsTheTTL(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	os.MkdirAll(root, 0o700)
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"messenger":{"heartbeatTtlMs":1000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Root: root})
	bc := &beatCounter{beats: make(chan struct{}, 8)}
	leave, err := a.enroller(bc, "20260101-spec-x-abcdef").Enroll(context.Background(), "Coordinator-abcdef")
	if err != nil {
		t.Fatal(err)
	}
	defer leave(context.Background())
	for i := 0; i < 2; i++ {
		select {
		case <-bc.beats:
		case <-time.After(4 * time.Second):
			t.Fatalf("%d heartbeat(s) in 4 s with a 1 s TTL", i)
		}
	}
}

// A coordinator whose registration was removed under it (pruned as dead
// while the machine slept past the TTL, or deleted by hand) registers
// again at its next heartbeat, as agents and watches do: it stays in
// agents list for as long as its debate runs.
func TestCoordinatorRegistersAgainAfterItsRegistrationWasRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	os.MkdirAll(root, 0o700)
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"messenger":{"heartbeatTtlMs":1000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Root: root})
	if _, err := a.Init(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := a.OpenBackend(ctx, "file")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const name = "Coordinator-abcdef"
	leave, err := a.enroller(b.Registry(), "20260101-spec-x-abcdef").Enroll(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer leave(ctx)
	if err := os.Remove(filepath.Join(root, "registry", name+".json")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		reg, err := b.Registry().Get(ctx, name)
		if err == nil {
			if reg.SessionID != SessionID("20260101-spec-x-abcdef", name) {
				t.Fatalf("registered again under session %s", reg.SessionID)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still unregistered 10 s after its registration was removed: %v", name, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// unregisteredOnSignal is a registry holding one registration of an
// earlier agent process that unregisters as soon as it is told to stop.
type unregisteredOnSignal struct {
	Registry
	entry registry.Entry
}

func (u *unregisteredOnSignal) Get(ctx context.Context, name string) (*registry.Entry, error) {
	e := u.entry
	return &e, nil
}

func (u *unregisteredOnSignal) Alive(ctx context.Context, name string) (bool, error) {
	return false, nil
}

func (u *unregisteredOnSignal) Host() string { return u.entry.Host }

// registryOnly is a backend of which retire uses the registry alone.
type registryOnly struct {
	Backend
	reg Registry
}

func (r registryOnly) Registry() Registry { return r.reg }

// An agent of an earlier run that has unregistered may not have ended: its
// hold on the inbox, which it could not release while the messenger was
// out of reach, stands until its process ends, and the new agent of the
// same name could not take the inbox (the debate then ended UNAVAILABLE
// on a resume after an outage). retire waits for the process to end.
func TestRetireWaitsForTheEarlierProcessToEnd(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sh", "-c", `trap 'sleep 1; exit 0' TERM; echo ready; while :; do sleep 0.05; done`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil { // the trap is set
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(exited) }()
	const id, name = "20261205-spec-retire-abcdef", "Defender-abcdef"
	reg := &unregisteredOnSignal{entry: registry.Entry{Alive: true, Registration: registry.Registration{
		Name: name, SessionID: SessionID(id, name), Host: "this-host", PID: cmd.Process.Pid}}}
	if err := (&App{}).retire(context.Background(), registryOnly{reg: reg}, id, name); err != nil {
		t.Fatal(err)
	}
	if registry.PIDAlive(cmd.Process.Pid) {
		t.Fatal("retire returned while the earlier agent's process still ran")
	}
}
