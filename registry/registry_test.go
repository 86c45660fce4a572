package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/registry"
)

var _ debate.Presence = (*registry.Registry)(nil)

type fixture struct {
	root string
	reg  *registry.Registry
	tr   *inbox.FileTransport
}

func setup(t testing.TB, opts ...registry.Option) *fixture {
	t.Helper()
	root := t.TempDir()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	reg, err := registry.Open(root, tr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return &fixture{root: root, reg: reg, tr: tr}
}

// deadPID returns the id of a process that has exited.
func deadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestRegistrationFormatIsPiMessengerPlusParley(t *testing.T) {
	t.Parallel()
	f := setup(t)
	got, err := f.reg.Register(ctxT(t), registry.Registration{Name: "SwiftRaven", Model: "qwen3", Roles: []string{"attacker"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(f.root, "registry", "SwiftRaven.json"))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "pid", "sessionId", "cwd", "model", "startedAt", "isHuman", "session", "activity", "host", "roles", "protocol", "heartbeatAt"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("registration lacks %q: %s", k, b)
		}
	}
	sess, _ := obj["session"].(map[string]any)
	for _, k := range []string{"toolCalls", "tokens", "filesModified"} {
		if _, ok := sess[k]; !ok {
			t.Errorf("session lacks %q: %s", k, b)
		}
	}
	if act, _ := obj["activity"].(map[string]any); act["lastActivityAt"] == nil {
		t.Errorf("activity lacks lastActivityAt: %s", b)
	}
	if obj["protocol"] != "parley/1" || obj["pid"] != float64(os.Getpid()) || got.SessionID == "" {
		t.Errorf("wrong parley keys: %s", b)
	}
	fi, _ := os.Stat(filepath.Join(f.root, "registry", "SwiftRaven.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("registration mode %v, want 0600", fi.Mode().Perm())
	}
	if ok, err := f.tr.Exists(ctxT(t), "SwiftRaven"); !ok || err != nil {
		t.Errorf("registering did not create the inbox: %v %v", ok, err)
	}
}

func TestMemorableNames(t *testing.T) {
	t.Parallel()
	f := setup(t)
	re := regexp.MustCompile(`^[A-Z][a-z]+[A-Z][a-z]+[0-9]*$`)
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		got, err := f.reg.Register(ctxT(t), registry.Registration{})
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(got.Name) || inbox.ValidateName(got.Name) != nil {
			t.Fatalf("name %q is not Adjective+Noun", got.Name)
		}
		if seen[got.Name] {
			t.Fatalf("name %q given twice", got.Name)
		}
		seen[got.Name] = true
	}
}

// A Registry is safe for concurrent use: goroutines registering memorable
// names through one handle share its name generator (under -race, an
// unguarded generator is a data race), and each gets its own name.
func TestConcurrentMemorableRegistrations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const n = 8
	names := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := f.reg.Register(context.Background(), registry.Registration{})
			if err != nil {
				t.Error(err)
				return
			}
			names[i] = got.Name
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			t.Fatalf("name %q given twice: %v", name, names)
		}
		seen[name] = true
	}
}

func TestMemorableNameCollisionGetsASuffix(t *testing.T) {
	t.Parallel()
	f := setup(t)
	base := registry.FirstName(7)
	for _, want := range []string{base, base + "2", base + "3"} {
		registry.SeedNames(f.reg, 7)
		got, err := f.reg.Register(ctxT(t), registry.Registration{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != want {
			t.Fatalf("got %q, want %q", got.Name, want)
		}
	}
}

// Of claimers racing for one name, exactly one wins: the claim is an
// exclusive create, and a takeover of a dead registration happens under a
// lock that re-checks.
func TestRacingClaimersExactlyOneWins(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		holderPID func(t testing.TB) int
	}{
		{"free name", nil},
		{"dead holder", deadPID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			if tc.holderPID != nil {
				if _, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob", PID: tc.holderPID(t)}); err != nil {
					t.Fatal(err)
				}
			}
			const n = 12
			var wg sync.WaitGroup
			var mu sync.Mutex
			wins, taken := 0, 0
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := f.reg.Register(context.Background(), registry.Registration{Name: "Bob"})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						wins++
					case errors.Is(err, registry.ErrNameTaken):
						taken++
					default:
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if wins != 1 || taken != n-1 {
				t.Fatalf("wins=%d taken=%d, want 1 and %d", wins, taken, n-1)
			}
		})
	}
}

func TestLiveness(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, tc := range []struct {
		name  string
		reg   registry.Registration
		alive bool
	}{
		{"running pid, fresh heartbeat", registry.Registration{PID: os.Getpid()}, true},
		{"dead pid", registry.Registration{PID: -1}, false},
		{"running pid, stale heartbeat", registry.Registration{PID: os.Getpid(), HeartbeatAt: now.Add(-time.Minute).UTC().Format(registry.TimeLayout)}, false},
		{"other host, fresh heartbeat", registry.Registration{PID: -1, Host: "elsewhere", HeartbeatAt: now.UTC().Format(registry.TimeLayout)}, true},
		{"other host, stale heartbeat", registry.Registration{PID: os.Getpid(), Host: "elsewhere", HeartbeatAt: now.Add(-time.Hour).UTC().Format(registry.TimeLayout)}, false},
		{"other host, no heartbeat (pi-messenger)", registry.Registration{PID: -1, Host: "elsewhere"}, true},
		{"no host, no heartbeat, running pid (pi-messenger)", registry.Registration{PID: os.Getpid()}, true},
		// A clock ahead of the reader's by less than the TTL beats as usual;
		// a heartbeat further ahead (a skewed clock, a hand edit) is no
		// fresher than one as far behind, or it would count forever.
		{"running pid, heartbeat a little ahead", registry.Registration{PID: os.Getpid(), HeartbeatAt: now.Add(10 * time.Second).UTC().Format(registry.TimeLayout)}, true},
		{"running pid, heartbeat an hour ahead", registry.Registration{PID: os.Getpid(), HeartbeatAt: now.Add(time.Hour).UTC().Format(registry.TimeLayout)}, false},
		{"other host, heartbeat an hour ahead", registry.Registration{PID: -1, Host: "elsewhere", HeartbeatAt: now.Add(time.Hour).UTC().Format(registry.TimeLayout)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			reg := tc.reg
			reg.Name, reg.SessionID = "Bob", "s"
			if reg.PID == -1 {
				reg.PID = deadPID(t)
			}
			// Written directly: Register always sets a fresh heartbeat.
			writeRegistration(t, f.root, reg)
			alive, err := f.reg.Alive(ctxT(t), "Bob")
			if err != nil || alive != tc.alive {
				t.Fatalf("Alive = %v, %v; want %v", alive, err, tc.alive)
			}
		})
	}
}

func writeRegistration(t testing.TB, root string, reg registry.Registration) {
	t.Helper()
	b, err := reg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "registry", reg.Name+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestHeartbeatAndTakeover(t *testing.T) {
	t.Parallel()
	f := setup(t, registry.WithTTL(30*time.Second))
	clock := time.Now()
	var mu sync.Mutex
	registry.SetClock(f.reg, func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }

	a, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	advance(20 * time.Second)
	if err := f.reg.Heartbeat(ctxT(t), "Bob", a.SessionID); err != nil {
		t.Fatal(err)
	}
	advance(20 * time.Second) // 40 s after start, 20 s after the heartbeat
	if alive, _ := f.reg.Alive(ctxT(t), "Bob"); !alive {
		t.Fatal("a heartbeat did not keep the agent alive")
	}
	if _, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"}); !errors.Is(err, registry.ErrNameTaken) {
		t.Fatalf("registering a live name = %v, want ErrNameTaken", err)
	}
	advance(31 * time.Second) // the process runs but has stopped beating: dead
	if alive, _ := f.reg.Alive(ctxT(t), "Bob"); alive {
		t.Fatal("a stale heartbeat still counts as alive")
	}
	b, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
	if err != nil || !b.TookOver {
		t.Fatalf("takeover of a stale registration = %+v, %v", b, err)
	}
	// The stalled first session wakes up: it cannot beat over the new one.
	if err := f.reg.Heartbeat(ctxT(t), "Bob", a.SessionID); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("stale session's heartbeat = %v, want ErrNotOwner", err)
	}
	hb := f.reg.Keepalive("Bob", a.SessionID, time.Millisecond)
	if err := hb.Run(ctxT(t)); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("Heartbeater.Run for a lost name = %v, want ErrNotOwner", err)
	}
	if err := f.reg.Unregister(ctxT(t), "Bob", a.SessionID); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("unregistering another session's name = %v, want ErrNotOwner", err)
	}
	e, err := f.reg.Get(ctxT(t), "Bob")
	if err != nil || e.SessionID != b.SessionID {
		t.Fatalf("registration after the stale session's attempts: %+v, %v", e, err)
	}
	if err := f.reg.Unregister(ctxT(t), "Bob", b.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.Get(ctxT(t), "Bob"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("Get after Unregister = %v", err)
	}
	if err := f.reg.Unregister(ctxT(t), "Bob", b.SessionID); err != nil {
		t.Fatalf("Unregister is not idempotent: %v", err)
	}
}

func TestHeartbeaterKeepsBeatingUntilCancelled(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	first := a.HeartbeatAt
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.reg.Keepalive("Bob", a.SessionID, 5*time.Millisecond).Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		e, err := f.reg.Get(ctxT(t), "Bob")
		if err != nil {
			t.Fatal(err)
		}
		if e.HeartbeatAt != first {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("heartbeatAt never changed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel = %v, want nil", err)
	}
}

func TestListPrunesDead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	if _, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Live"}); err != nil {
		t.Fatal(err)
	}
	writeRegistration(t, f.root, registry.Registration{Name: "Dead", PID: deadPID(t), SessionID: "x"})
	live, err := f.reg.List(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].Name != "Live" || !live[0].Alive {
		t.Fatalf("List = %+v, want only Live", live)
	}
	if _, err := os.Stat(filepath.Join(f.root, "registry", "Dead.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("List did not prune the dead registration")
	}
	writeRegistration(t, f.root, registry.Registration{Name: "Dead2", PID: deadPID(t), SessionID: "y"})
	pruned, err := f.reg.Prune(ctxT(t))
	if err != nil || len(pruned) != 1 || pruned[0] != "Dead2" {
		t.Fatalf("Prune = %v, %v", pruned, err)
	}
}

// Prune and List remove only what parley writes: a registration file. A
// directory or a symbolic link named like one (full, empty, dangling) is
// left alone, and does not keep the dead registration beside it from
// being pruned.
func TestPruneLeavesWhatParleyDidNotWrite(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := filepath.Join(f.root, "registry")
	writeRegistration(t, f.root, registry.Registration{Name: "Dead", PID: deadPID(t), SessionID: "x"})
	planted := []string{"Full.json", "Empty.json", "Link.json", "Dangling.json"}
	if err := os.MkdirAll(filepath.Join(dir, "Full.json", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "Empty.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "theirs.json")
	if err := os.WriteFile(target, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "Link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "Dangling.json")); err != nil {
		t.Fatal(err)
	}
	if live, err := f.reg.List(ctxT(t)); err != nil || len(live) != 0 {
		t.Fatalf("List = %+v, %v; want no live agents and no error", live, err)
	}
	writeRegistration(t, f.root, registry.Registration{Name: "Dead2", PID: deadPID(t), SessionID: "y"})
	pruned, err := f.reg.Prune(ctxT(t))
	if err != nil || len(pruned) != 1 || pruned[0] != "Dead2" {
		t.Fatalf("Prune = %v, %v; want [Dead2]", pruned, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "Dead.json")); !errors.Is(err, os.ErrNotExist) {
		t.Error("List did not prune the dead registration beside the planted entries")
	}
	for _, name := range planted {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
	if all, err := f.reg.All(ctxT(t)); err != nil || len(all) != 0 {
		t.Errorf("All = %+v, %v; want nothing", all, err)
	}
}

// A directory in a registration's place is not parley's (prune leaves
// it): registering the name is refused as an unsafe path that names it,
// so the caller can say to move it away, rather than failing on the
// rename with "file exists"; the directory and what is in it stay.
func TestRegisterOverADirectoryIsAnUnsafePath(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := filepath.Join(f.root, "registry", "Bob.json")
	if err := os.MkdirAll(filepath.Join(dir, "theirs"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
	if !errors.Is(err, registry.ErrUnsafePath) || !strings.Contains(err.Error(), "registry/Bob.json is a directory") {
		t.Fatalf("Register over a directory = %v; want ErrUnsafePath saying registry/Bob.json is a directory", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "theirs")); err != nil {
		t.Fatalf("the directory was touched: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(f.root, "registry", ".*.tmp")); len(left) != 0 {
		t.Fatalf("staging files left behind: %v", left)
	}
}

// A dead registration that cannot be removed does not stop Prune: it
// removes the others and reports that one (a *PruneError naming it, with
// the cause); List lists all the same.
func TestPruneGoesOnPastARegistrationItCannotRemove(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	rt, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ffs := &durable.FaultFS{FS: durable.Root(rt)}
	reg, err := registry.Open(root, nil, registry.WithFS(ffs))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if _, err := reg.Register(ctxT(t), registry.Registration{Name: "Live"}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Alpha", "Bravo", "Charlie"} {
		writeRegistration(t, root, registry.Registration{Name: n, PID: deadPID(t), SessionID: n})
	}
	ffs.Fail("remove", "registry/Bravo.json", syscall.EACCES, 0)
	live, err := reg.List(ctxT(t))
	if err != nil || len(live) != 1 || live[0].Name != "Live" {
		t.Fatalf("List = %+v, %v; want Live, and no error", live, err)
	}
	for _, n := range []string{"Alpha", "Charlie"} {
		if _, err := reg.Get(ctxT(t), n); !errors.Is(err, registry.ErrNotRegistered) {
			t.Errorf("%s was not pruned past Bravo: %v", n, err)
		}
	}
	writeRegistration(t, root, registry.Registration{Name: "Delta", PID: deadPID(t), SessionID: "Delta"})
	pruned, err := reg.Prune(ctxT(t))
	var pe *registry.PruneError
	if !slices.Equal(pruned, []string{"Delta"}) || !errors.As(err, &pe) || len(pe.Errs) != 1 ||
		!errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), "Bravo") {
		t.Fatalf("Prune = %v, %v; want [Delta], and a PruneError naming Bravo with EACCES", pruned, err)
	}
	if _, err := reg.Get(ctxT(t), "Bravo"); err != nil {
		t.Errorf("Bravo: %v; want its registration still there", err)
	}
}

// A recycled name does not inherit the previous holder's unclaimed mail;
// an inbox made ahead by "agents add" and the same session re-registering
// keep theirs.
func TestRecycledNameMovesMailAside(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := ctxT(t)
	send := func(text string) {
		if err := f.tr.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	waiting := func() int {
		n, _, _, err := f.tr.Count(ctx, "Bob")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// agents add Bob, then mail, then Bob registers: he gets it.
	if err := f.tr.Create(ctx, "Bob"); err != nil {
		t.Fatal(err)
	}
	send("for the Bob to come")
	first, err := f.reg.Register(ctx, registry.Registration{Name: "Bob", PID: deadPID(t)})
	if err != nil || first.MovedAside != 0 || waiting() != 1 {
		t.Fatalf("first registration: %+v, %v, waiting %d", first, err, waiting())
	}
	// The same session re-registers: still his.
	again, err := f.reg.Register(ctx, registry.Registration{Name: "Bob", SessionID: first.SessionID})
	if err != nil || again.MovedAside != 0 || waiting() != 1 {
		t.Fatalf("re-registration: %+v, %v, waiting %d", again, err, waiting())
	}
	// Make the holder dead, mail arrives, a new session takes the name.
	if err := f.reg.Update(ctx, "Bob", first.SessionID, func(r *registry.Registration) { r.PID = deadPID(t) }); err != nil {
		t.Fatal(err)
	}
	send("for the dead Bob")
	second, err := f.reg.Register(ctx, registry.Registration{Name: "Bob"})
	if err != nil || !second.TookOver || second.MovedAside != 2 {
		t.Fatalf("recycled name: %+v, %v; want a takeover with 2 moved aside", second, err)
	}
	if waiting() != 0 {
		t.Fatal("the new holder inherited the old holder's mail")
	}
	aside, _ := filepath.Glob(filepath.Join(f.root, "inbox", "Bob", "aside", first.SessionID, "*.json"))
	if len(aside) != 2 {
		t.Fatalf("aside holds %v, want the 2 messages (kept, not lost)", aside)
	}
	// Even after the registration is pruned, a different session gets a
	// clean inbox.
	send("for the second Bob")
	if err := f.reg.Update(ctx, "Bob", second.SessionID, func(r *registry.Registration) { r.PID = deadPID(t) }); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	third, err := f.reg.Register(ctx, registry.Registration{Name: "Bob"})
	if err != nil || third.TookOver || third.MovedAside != 1 {
		t.Fatalf("name taken after a prune: %+v, %v; want 1 moved aside", third, err)
	}
}

func TestHostileNamesRejected(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := ctxT(t)
	for _, name := range inboxtest.HostileNames {
		if name == "" {
			continue // the empty name asks for a memorable one
		}
		if _, err := f.reg.Register(ctx, registry.Registration{Name: name}); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Register(%q) = %v, want ErrInvalidName", name, err)
		}
		if _, err := f.reg.Get(ctx, name); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Get(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := f.reg.Heartbeat(ctx, name, "s"); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Heartbeat(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := f.reg.Unregister(ctx, name, "s"); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Unregister(%q) = %v, want ErrInvalidName", name, err)
		}
	}
	des, _ := os.ReadDir(filepath.Join(f.root, "registry"))
	for _, d := range des {
		if d.Name() != ".lock" {
			t.Errorf("a hostile name left %s", d.Name())
		}
	}
}

// Must show: a symlink planted as a registry file or directory does not let
// any write escape the root.
func TestPlantedSymlinksInTheRegistry(t *testing.T) {
	t.Parallel()
	t.Run("registration file", func(t *testing.T) {
		t.Parallel()
		f := setup(t)
		outside := filepath.Join(t.TempDir(), "victim.json")
		os.WriteFile(outside, []byte("precious"), 0o600)
		if err := os.Symlink(outside, filepath.Join(f.root, "registry", "Bob.json")); err != nil {
			t.Fatal(err)
		}
		if alive, err := f.reg.Alive(ctxT(t), "Bob"); alive || err != nil {
			t.Fatalf("a symlink counts as a live registration: %v %v", alive, err)
		}
		got, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.reg.Heartbeat(ctxT(t), "Bob", got.SessionID); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(outside); string(b) != "precious" {
			t.Fatalf("the symlink's target was overwritten: %q", b)
		}
		fi, _ := os.Lstat(filepath.Join(f.root, "registry", "Bob.json"))
		if !fi.Mode().IsRegular() {
			t.Fatal("the registration is still a symlink")
		}
	})
	t.Run("registry directory", func(t *testing.T) {
		t.Parallel()
		root, outside := t.TempDir(), t.TempDir()
		os.Symlink(outside, filepath.Join(root, "registry"))
		if _, err := registry.Open(root, nil); !errors.Is(err, registry.ErrUnsafePath) {
			t.Fatalf("Open with registry/ a symlink = %v, want ErrUnsafePath", err)
		}
		if des, _ := os.ReadDir(outside); len(des) != 0 {
			t.Fatal("wrote outside the root")
		}
	})
	t.Run("lock file", func(t *testing.T) {
		t.Parallel()
		f := setup(t)
		outside := filepath.Join(t.TempDir(), "lock")
		os.Symlink(outside, filepath.Join(f.root, "registry", ".lock"))
		writeRegistration(t, f.root, registry.Registration{Name: "Bob", PID: deadPID(t), SessionID: "x"})
		_, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
		if err == nil {
			t.Fatal("took over through a lock file that points outside the root")
		}
		if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("created a file outside the root")
		}
	})
	t.Run("inbox directory", func(t *testing.T) {
		t.Parallel()
		f := setup(t)
		outside := t.TempDir()
		os.Symlink(outside, filepath.Join(f.root, "inbox", "Bob"))
		if _, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Bob"}); !errors.Is(err, inbox.ErrUnsafePath) {
			t.Fatalf("Register with a symlinked inbox = %v, want ErrUnsafePath", err)
		}
		if des, _ := os.ReadDir(outside); len(des) != 0 {
			t.Fatal("wrote outside the root")
		}
		if _, err := f.reg.Get(ctxT(t), "Bob"); !errors.Is(err, registry.ErrNotRegistered) {
			t.Fatalf("a failed registration left its file: %v", err)
		}
	})
}

func TestDecodeAcceptsPiMessengerRegistrations(t *testing.T) {
	t.Parallel()
	pi := `{"name":"PiAgent","pid":4242,"sessionId":"abc","cwd":"/w","model":"claude","startedAt":"2026-11-30T10:00:00.000Z",
	"isHuman":false,"session":{"toolCalls":3,"tokens":1200,"filesModified":["a.go"]},"activity":{"lastActivityAt":"2026-11-30T10:01:00.000Z"},
	"gitBranch":"main"}`
	r, err := registry.Decode([]byte(pi))
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "PiAgent" || r.PID != 4242 || r.Session.Tokens != 1200 || len(r.Session.FilesModified) != 1 || r.Protocol != "" {
		t.Fatalf("decoded %+v", r)
	}
	for _, bad := range []string{`{"pid":1}`, `{"name":"A"}`, `{"name":"../x","pid":1}`, `{"name":"A","pid":-3}`,
		`{"name":"A","pid":1,"heartbeatAt":"yesterday"}`, `[]`, `{"name":"A","pid":"7"}`, "\xff"} {
		if _, err := registry.Decode([]byte(bad)); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("Decode(%s) = %v, want ErrMalformed", bad, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := (&registry.Registration{Name: "SwiftRaven", PID: 10, SessionID: "s", Roles: []string{"defender"}, HeartbeatAt: "2026-11-30T10:00:00.000Z"}).Encode()
	f.Add(good)
	f.Add([]byte(`{"name":"A","pid":1,"session":{"filesModified":null}}`))
	f.Add([]byte(`{"name":"A","pid":1e400}`))
	f.Add([]byte(`{"name":"A","pid":1,"roles":"x"}`))
	f.Add([]byte(`{"name":"A","pid":1,"heartbeatAt":"2026-13-40T99:00:00Z"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := registry.Decode(data)
		if err != nil {
			if !errors.Is(err, registry.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if inbox.ValidateName(r.Name) != nil || r.PID < 0 {
			t.Fatalf("accepted %+v", r)
		}
		enc, err := r.Encode()
		if err != nil {
			return // over the size limit after re-encoding
		}
		r2, err := registry.Decode(enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		if fmt.Sprint(*r2) != fmt.Sprint(*r) && !(len(r.Session.FilesModified) == 0 && len(r2.Session.FilesModified) == 0) {
			t.Fatalf("round trip changed the registration:\n%+v\n%+v", r, r2)
		}
	})
}

// ENOSPC and EACCES through the write seam: a clear error, no registration
// and no staging file left behind.
func TestRegisterWriteFaults(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		op  string
		err error
	}{{"write", syscall.ENOSPC}, {"link", syscall.EACCES}, {"open", syscall.EACCES}} {
		t.Run(f.op, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			r, err := os.OpenRoot(root)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ffs := &durable.FaultFS{FS: durable.Root(r)}
			reg, err := registry.Open(root, nil, registry.WithFS(ffs))
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			ffs.Fail(f.op, "registry/", f.err, 0)
			_, err = reg.Register(ctxT(t), registry.Registration{Name: "Bob"})
			if !errors.Is(err, f.err) || !strings.Contains(err.Error(), "Bob") {
				t.Fatalf("Register = %v, want %v naming Bob", err, f.err)
			}
			des, _ := os.ReadDir(filepath.Join(root, "registry"))
			for _, d := range des {
				if d.Name() != ".lock" {
					t.Errorf("left behind: %s", d.Name())
				}
			}
			ffs.Reset()
			if _, err := reg.Register(ctxT(t), registry.Registration{Name: "Bob"}); err != nil {
				t.Fatalf("after the fault cleared: %v", err)
			}
		})
	}
}

// Open creates registry/ and fsyncs the root, so that a power cut cannot
// lose the directory with the registrations fsynced inside; a failed fsync
// is an error. An existing registry/ needs no fsync.
func TestOpenMakesTheRegistryDirectoryDurable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ffs := &durable.FaultFS{FS: durable.Root(r)}
	ffs.Fail("sync", "", syscall.EIO, 0)
	if reg, err := registry.Open(root, nil, registry.WithFS(ffs)); !errors.Is(err, syscall.EIO) {
		if err == nil {
			reg.Close()
		}
		t.Fatalf("Open of a new registry with fsync failing = %v, want EIO (the new directory is fsynced)", err)
	}
	reg, err := registry.Open(root, nil, registry.WithFS(ffs))
	if err != nil {
		t.Fatalf("Open of an existing registry: %v", err)
	}
	reg.Close()
}

func TestRemoveStaleStaging(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := filepath.Join(f.root, "registry")
	stale := filepath.Join(dir, ".Bob.json.0123456789ab.tmp")
	fresh := filepath.Join(dir, ".Carol.json.0123456789ab.tmp")
	for _, p := range []string{stale, fresh} {
		os.WriteFile(p, []byte("{"), 0o600)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	dave, err := f.reg.Register(ctxT(t), registry.Registration{Name: "Dave"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.reg.Heartbeat(ctxT(t), "Dave", dave.SessionID); err != nil { // takes the lock
		t.Fatal(err)
	}
	n, err := f.reg.RemoveStaleStaging(ctxT(t), time.Now())
	if err != nil || n != 1 {
		t.Fatalf("RemoveStaleStaging = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("removed a staging file that may still be written")
	}
	if _, err := os.Stat(filepath.Join(dir, ".lock")); err != nil {
		t.Fatal("removed the lock")
	}
	if _, err := f.reg.Get(ctxT(t), "Dave"); err != nil {
		t.Fatalf("removed a registration: %v", err)
	}
}

// A holder whose registry directory was removed under it (rm -rf
// registry/ to clear stale entries) gets its registration back at its next
// heartbeat, as when only its file was removed, rather than failing every
// beat on the missing lock file while senders see it gone.
func TestRenewAfterTheRegistryDirectoryWasRemoved(t *testing.T) {
	f := setup(t)
	ctx := ctxT(t)
	res, err := f.reg.Register(ctx, registry.Registration{Name: "Wren", SessionID: "s-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(f.root, "registry")); err != nil {
		t.Fatal(err)
	}
	if restored, err := registry.Renew(ctx, f.reg, res.Registration); err != nil || !restored {
		t.Fatalf("registry/ removed: restored %v, %v; want the registration written back", restored, err)
	}
	if got, err := f.reg.Get(ctx, "Wren"); err != nil || got.SessionID != "s-1" || !got.Alive {
		t.Fatalf("after restore: %+v, %v", got, err)
	}
	fi, err := os.Stat(filepath.Join(f.root, "registry"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("registry/ made again: %v, %v; want a private directory", fi, err)
	}
}

// onlyBeats is a registry that cannot restore: Renew reports the loss.
type onlyBeats struct{ r *registry.Registry }

func (o onlyBeats) Heartbeat(ctx context.Context, name, sid string) error {
	return o.r.Heartbeat(ctx, name, sid)
}

// Renew renews a live registration, writes back one removed under its
// holder, leaves another session's alone, and reports the loss when the
// registry cannot restore.
func TestRenew(t *testing.T) {
	f := setup(t)
	ctx := ctxT(t)
	res, err := f.reg.Register(ctx, registry.Registration{Name: "Wren", SessionID: "s-1"})
	if err != nil {
		t.Fatal(err)
	}
	held := res.Registration
	if restored, err := registry.Renew(ctx, f.reg, held); err != nil || restored {
		t.Fatalf("live: restored %v, %v", restored, err)
	}
	if err := os.Remove(filepath.Join(f.root, "registry", "Wren.json")); err != nil {
		t.Fatal(err)
	}
	if restored, err := registry.Renew(ctx, onlyBeats{f.reg}, held); !errors.Is(err, registry.ErrNotRegistered) || restored {
		t.Fatalf("removed, no restorer: restored %v, %v", restored, err)
	}
	if restored, err := registry.Renew(ctx, f.reg, held); err != nil || !restored {
		t.Fatalf("removed: restored %v, %v", restored, err)
	}
	if got, err := f.reg.Get(ctx, "Wren"); err != nil || got.SessionID != "s-1" {
		t.Fatalf("after restore: %+v, %v", got, err)
	}
	if err := f.reg.Unregister(ctx, "Wren", "s-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.Register(ctx, registry.Registration{Name: "Wren", SessionID: "s-2"}); err != nil {
		t.Fatal(err)
	}
	if restored, err := registry.Renew(ctx, f.reg, held); !errors.Is(err, registry.ErrNotOwner) || restored {
		t.Fatalf("taken by s-2: restored %v, %v", restored, err)
	}
}
