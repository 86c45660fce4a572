// Package registrytest is the conformance suite that every agent registry
// backend must pass: claims, exactly one winner of a race, liveness by PID
// and heartbeat TTL, heartbeats and takeovers, unregistration by the owner
// only, pruning, memorable names with suffixes, hostile names, malformed
// registrations, and recycled names whose mail is moved aside.
//
// The file registry (package registry) and the JetStream registry (package
// jetstream) both run it; a behaviour one backend has and the other lacks
// shows up here.
package registrytest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/registry"
)

// Registry is the registry API the suite exercises. *registry.Registry and
// *jetstream.Registry implement it.
type Registry interface {
	Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error)
	Get(ctx context.Context, name string) (*registry.Entry, error)
	Alive(ctx context.Context, name string) (bool, error)
	Update(ctx context.Context, name, sessionID string, fn func(*registry.Registration)) error
	Heartbeat(ctx context.Context, name, sessionID string) error
	Unregister(ctx context.Context, name, sessionID string) error
	All(ctx context.Context) ([]registry.Entry, error)
	List(ctx context.Context) ([]registry.Entry, error)
	Prune(ctx context.Context) ([]string, error)
	Restore(ctx context.Context, reg registry.Registration) error
}

// Env is one fresh, empty registry store, made for one subtest.
type Env struct {
	// Open returns a new handle on the store, as another process would
	// open it (its own files or connection). Every handle reads the clock
	// of Advance and draws memorable names from the source of Names.
	Open func(t testing.TB) Registry
	// TTL is the heartbeat TTL the handles were opened with.
	TTL time.Duration
	// Advance moves the clock of every handle forward by d.
	Advance func(d time.Duration)
	// Names makes every handle draw its memorable base names from next.
	Names func(next func() string)
	// Raw returns the stored form of name's registration (nil if none).
	Raw func(t testing.TB, name string) []byte
	// PutRaw stores data as name's registration, bypassing every check (a
	// foreign or broken writer).
	PutRaw func(t testing.TB, name string, data []byte)

	// Mail, when not nil, is the transport whose inboxes a registration
	// adopts; then Waiting and Aside must be set too, and the recycled-name
	// test runs.
	Mail inbox.Transport
	// Waiting counts the messages waiting in agent's inbox.
	Waiting func(t testing.TB, agent string) int
	// Aside counts the messages of agent's inbox moved aside for the
	// previous holder sessionID.
	Aside func(t testing.TB, agent, sessionID string) int
}

// Factory makes a fresh Env for one subtest; it registers cleanups with t.
type Factory func(t testing.TB) *Env

// Run runs the conformance suite against the stores made by newEnv.
func Run(t *testing.T, newEnv Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, env *Env)
	}{
		{"RegisterAndGet", testRegisterAndGet},
		{"StoredFormat", testStoredFormat},
		{"ExactlyOneWinner", testExactlyOneWinner},
		{"Liveness", testLiveness},
		{"HeartbeatAndTakeover", testHeartbeatAndTakeover},
		{"SameSessionReregisters", testSameSession},
		{"OneSessionRacingFromManyProcesses", testOneSessionManyProcesses},
		{"UpdateByOwnerOnly", testUpdate},
		{"ListPrunesDead", testListPrunes},
		{"MemorableNames", testMemorableNames},
		{"MemorableSuffixes", testMemorableSuffixes},
		{"HostileNames", testHostileNames},
		{"MalformedRegistration", testMalformed},
		{"RecycledNameMovesMailAside", testRecycled},
		{"FailedTakeoverKeepsTheHolder", testFailedTakeover},
		{"SameSessionKeepsItsMailWhateverItsID", testSessionIDs},
		{"RestoreAfterAPrune", testRestore},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newEnv(t))
		})
	}
}

func ctxT(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// DeadPID returns the id of a process that has exited.
func DeadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// LivePIDs returns the ids of n processes of this host that run until the
// test ends.
func LivePIDs(t testing.TB, n int) []int {
	t.Helper()
	pids := make([]int, n)
	for i := range pids {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		pids[i] = cmd.Process.Pid
	}
	return pids
}

func register(t testing.TB, r Registry, reg registry.Registration) *registry.Registered {
	t.Helper()
	got, err := r.Register(ctxT(t), reg)
	if err != nil {
		t.Fatalf("Register(%q): %v", reg.Name, err)
	}
	return got
}

func makeDead(t testing.TB, r Registry, name, session string) {
	t.Helper()
	pid := DeadPID(t)
	if err := r.Update(ctxT(t), name, session, func(reg *registry.Registration) { reg.PID = pid }); err != nil {
		t.Fatal(err)
	}
}

func testRegisterAndGet(t *testing.T, env *Env) {
	r := env.Open(t)
	got := register(t, r, registry.Registration{Name: "SwiftRaven", Model: "qwen3", Roles: []string{"attacker"}})
	if got.Name != "SwiftRaven" || got.SessionID == "" || got.PID != os.Getpid() || got.Protocol != registry.Protocol || got.HeartbeatAt == "" || got.Host == "" || got.TookOver {
		t.Fatalf("Register returned %+v", got)
	}
	e, err := env.Open(t).Get(ctxT(t), "SwiftRaven") // another handle sees it
	if err != nil {
		t.Fatal(err)
	}
	if !e.Alive || e.SessionID != got.SessionID || e.Model != "qwen3" || !slices.Equal(e.Roles, []string{"attacker"}) || e.HeartbeatAt != got.HeartbeatAt {
		t.Fatalf("Get = %+v, want the registration %+v, alive", e, got.Registration)
	}
	if alive, err := r.Alive(ctxT(t), "SwiftRaven"); !alive || err != nil {
		t.Fatalf("Alive = %v, %v", alive, err)
	}
	if alive, err := r.Alive(ctxT(t), "Nobody"); alive || err != nil {
		t.Fatalf("Alive(unregistered) = %v, %v; want false, nil", alive, err)
	}
	if _, err := r.Get(ctxT(t), "Nobody"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("Get(unregistered) = %v, want ErrNotRegistered", err)
	}
	if env.Mail != nil {
		if ok, err := env.Mail.Exists(ctxT(t), "SwiftRaven"); !ok || err != nil {
			t.Fatalf("registering did not create the inbox: %v, %v", ok, err)
		}
	}
}

// The stored value is the registration file of SPEC §3.1: pi-messenger's
// keys plus parley's, readable by registry.Decode.
func testStoredFormat(t *testing.T, env *Env) {
	got := register(t, env.Open(t), registry.Registration{Name: "GoldFalcon", Roles: []string{"defender"}})
	raw := env.Raw(t, "GoldFalcon")
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("stored form is not JSON: %v\n%s", err, raw)
	}
	for _, k := range []string{"name", "pid", "sessionId", "cwd", "model", "startedAt", "isHuman", "session", "activity", "host", "roles", "protocol", "heartbeatAt"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("stored registration lacks %q: %s", k, raw)
		}
	}
	dec, err := registry.Decode(raw)
	if err != nil || dec.SessionID != got.SessionID || dec.Name != "GoldFalcon" {
		t.Fatalf("registry.Decode(stored) = %+v, %v", dec, err)
	}
}

// Of claimers racing for one name, each on its own handle, exactly one
// wins; the others are told the name is taken.
func testExactlyOneWinner(t *testing.T, env *Env) {
	for _, tc := range []struct {
		name   string
		holder bool
	}{{"free name", false}, {"dead holder", true}} {
		t.Run(tc.name, func(t *testing.T) {
			name := "Bob"
			if tc.holder {
				name = "Carol"
				r := env.Open(t)
				first := register(t, r, registry.Registration{Name: name})
				makeDead(t, r, name, first.SessionID)
			}
			const n = 8
			handles := make([]Registry, n)
			for i := range handles {
				handles[i] = env.Open(t)
			}
			var wins, taken atomic.Int32
			var winner atomic.Value
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					got, err := handles[i].Register(context.Background(), registry.Registration{Name: name})
					switch {
					case err == nil:
						wins.Add(1)
						winner.Store(got.SessionID)
					case errors.Is(err, registry.ErrNameTaken):
						taken.Add(1)
					default:
						t.Error(err)
					}
				}()
			}
			close(start)
			wg.Wait()
			if wins.Load() != 1 || taken.Load() != n-1 {
				t.Fatalf("wins=%d taken=%d, want 1 and %d", wins.Load(), taken.Load(), n-1)
			}
			e, err := env.Open(t).Get(ctxT(t), name)
			if err != nil || e.SessionID != winner.Load() {
				t.Fatalf("the stored registration is %+v, %v; want the winner's %v", e, err, winner.Load())
			}
		})
	}
}

func testLiveness(t *testing.T, env *Env) {
	r := env.Open(t)
	dead := DeadPID(t)
	stale := 2 * env.TTL
	cases := []struct {
		name   string
		host   string
		pid    int
		noBeat bool
		alive  bool
	}{
		{"running pid, fresh heartbeat", "", os.Getpid(), false, true},
		{"dead pid", "", dead, false, false},
		{"other host, fresh heartbeat, pid not running here", "elsewhere", dead, false, true},
		{"other host, no heartbeat (cannot be checked)", "elsewhere", dead, true, true},
		{"no heartbeat, running pid", "", os.Getpid(), true, true},
		{"no heartbeat, dead pid", "", dead, true, false},
	}
	for i, tc := range cases {
		got := register(t, r, registry.Registration{Name: fmt.Sprintf("Agent%d", i), Host: tc.host})
		if err := r.Update(ctxT(t), got.Name, got.SessionID, func(reg *registry.Registration) {
			reg.PID = tc.pid
			if tc.noBeat {
				reg.HeartbeatAt = ""
			}
		}); err != nil {
			t.Fatal(err)
		}
		if alive, err := r.Alive(ctxT(t), got.Name); alive != tc.alive || err != nil {
			t.Errorf("%s: Alive = %v, %v; want %v", tc.name, alive, err, tc.alive)
		}
		if e, err := r.Get(ctxT(t), got.Name); err != nil || e.Alive != tc.alive {
			t.Errorf("%s: Get = %+v, %v; want alive %v", tc.name, e, err, tc.alive)
		}
	}
	// A heartbeat older than the TTL is dead, on this host and elsewhere.
	here := register(t, r, registry.Registration{Name: "Here"})
	there := register(t, r, registry.Registration{Name: "There", Host: "elsewhere"})
	env.Advance(stale)
	for _, n := range []string{here.Name, there.Name} {
		if alive, err := r.Alive(ctxT(t), n); alive || err != nil {
			t.Errorf("%s with a heartbeat %v old: Alive = %v, %v; want false", n, stale, alive, err)
		}
	}
}

func testHeartbeatAndTakeover(t *testing.T, env *Env) {
	r := env.Open(t)
	a := register(t, r, registry.Registration{Name: "Bob"})
	step := env.TTL * 2 / 3
	env.Advance(step)
	before, err := r.Get(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Heartbeat(ctxT(t), "Bob", a.SessionID); err != nil {
		t.Fatal(err)
	}
	// pi-messenger shows an agent whose activity.lastActivityAt is old as
	// away: a heartbeat moves it with heartbeatAt.
	after, err := r.Get(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	if after.Activity.LastActivityAt != after.HeartbeatAt || after.Activity.LastActivityAt <= before.Activity.LastActivityAt {
		t.Fatalf("after a heartbeat lastActivityAt is %q (was %q), heartbeatAt %q", after.Activity.LastActivityAt, before.Activity.LastActivityAt, after.HeartbeatAt)
	}
	env.Advance(step) // older than the TTL since registering, younger since the heartbeat
	if alive, _ := r.Alive(ctxT(t), "Bob"); !alive {
		t.Fatal("a heartbeat did not keep the agent alive")
	}
	other := env.Open(t)
	if _, err := other.Register(ctxT(t), registry.Registration{Name: "Bob"}); !errors.Is(err, registry.ErrNameTaken) {
		t.Fatalf("registering a live name = %v, want ErrNameTaken", err)
	}
	env.Advance(env.TTL + time.Second) // the process runs but stopped beating
	if alive, _ := r.Alive(ctxT(t), "Bob"); alive {
		t.Fatal("a stale heartbeat still counts as alive")
	}
	b, err := other.Register(ctxT(t), registry.Registration{Name: "Bob"})
	if err != nil || !b.TookOver {
		t.Fatalf("takeover of a stale registration = %+v, %v", b, err)
	}
	// The stalled first session wakes up: it can neither beat over the
	// new holder nor remove it.
	if err := r.Heartbeat(ctxT(t), "Bob", a.SessionID); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("stale session's heartbeat = %v, want ErrNotOwner", err)
	}
	if err := r.Unregister(ctxT(t), "Bob", a.SessionID); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("unregistering another session's name = %v, want ErrNotOwner", err)
	}
	e, err := r.Get(ctxT(t), "Bob")
	if err != nil || e.SessionID != b.SessionID || !e.Alive {
		t.Fatalf("after the stale session's attempts: %+v, %v", e, err)
	}
	if err := other.Unregister(ctxT(t), "Bob", b.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get(ctxT(t), "Bob"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("Get after Unregister = %v, want ErrNotRegistered", err)
	}
	if err := other.Unregister(ctxT(t), "Bob", b.SessionID); err != nil {
		t.Fatalf("Unregister is not idempotent: %v", err)
	}
	if err := r.Heartbeat(ctxT(t), "Bob", b.SessionID); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("heartbeat of a removed registration = %v, want ErrNotRegistered", err)
	}
	// The name is free again.
	register(t, r, registry.Registration{Name: "Bob"})
}

func testSameSession(t *testing.T, env *Env) {
	r := env.Open(t)
	a := register(t, r, registry.Registration{Name: "Bob", Model: "m1"})
	again, err := env.Open(t).Register(ctxT(t), registry.Registration{Name: "Bob", SessionID: a.SessionID, Model: "m2"})
	if err != nil || again.TookOver {
		t.Fatalf("the same session re-registering = %+v, %v", again, err)
	}
	if e, err := r.Get(ctxT(t), "Bob"); err != nil || e.Model != "m2" {
		t.Fatalf("re-registration not stored: %+v, %v", e, err)
	}
}

// Processes that share one session id (every "parley watch" of a name
// does) and race for its name: exactly one holds it, under its own PID;
// the others are refused with ErrSessionBusy, which is a kind of
// ErrNameTaken, and leave the winner's registration as it was. Once the
// winner's process is gone, another process of the session takes the name
// back and keeps the session's mail.
func testOneSessionManyProcesses(t *testing.T, env *Env) {
	const n, session = 6, "parley-watch-Zed"
	pids := LivePIDs(t, n)
	ctx := ctxT(t)
	handles := make([]Registry, n)
	for i := range handles {
		handles[i] = env.Open(t)
	}
	var wins, busy atomic.Int32
	var winner atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := handles[i].Register(ctx, registry.Registration{Name: "Zed", SessionID: session, PID: pids[i]})
			switch {
			case err == nil:
				wins.Add(1)
				winner.Store(int64(pids[i]))
			case errors.Is(err, registry.ErrSessionBusy) && errors.Is(err, registry.ErrNameTaken):
				busy.Add(1)
			default:
				t.Errorf("process %d: %v", pids[i], err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if wins.Load() != 1 || busy.Load() != n-1 {
		t.Fatalf("wins=%d busy=%d, want 1 and %d", wins.Load(), busy.Load(), n-1)
	}
	r := env.Open(t)
	e, err := r.Get(ctxT(t), "Zed")
	if err != nil || int64(e.PID) != winner.Load() || !e.Alive {
		t.Fatalf("the stored registration is %+v, %v; want the winner's, pid %d, alive", e, err, winner.Load())
	}

	// The winner's process ends without unregistering; a later process of
	// the session takes the name back, and the session's mail stays.
	if env.Mail != nil {
		if err := env.Mail.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Zed", Text: "for any watch of Zed"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Update(ctxT(t), "Zed", session, func(reg *registry.Registration) { reg.PID = DeadPID(t) }); err != nil {
		t.Fatal(err)
	}
	again, err := env.Open(t).Register(ctxT(t), registry.Registration{Name: "Zed", SessionID: session})
	if err != nil || again.PID != os.Getpid() || again.MovedAside != 0 {
		t.Fatalf("the session's next process: %+v, %v; want the name, and no mail moved aside", again, err)
	}
	if env.Mail != nil && env.Waiting(t, "Zed") != 1 {
		t.Fatalf("%d waiting for the session's next process, want 1", env.Waiting(t, "Zed"))
	}
}

func testUpdate(t *testing.T, env *Env) {
	r := env.Open(t)
	a := register(t, r, registry.Registration{Name: "Bob"})
	if err := r.Update(ctxT(t), "Bob", a.SessionID, func(reg *registry.Registration) {
		reg.Session.Tokens = 1200
		reg.Name, reg.SessionID = "Mallory", "stolen" // ignored: name and session stay
	}); err != nil {
		t.Fatal(err)
	}
	e, err := r.Get(ctxT(t), "Bob")
	if err != nil || e.Session.Tokens != 1200 || e.SessionID != a.SessionID || e.Name != "Bob" {
		t.Fatalf("after Update: %+v, %v", e, err)
	}
	if _, err := r.Get(ctxT(t), "Mallory"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("Update renamed the registration: %v", err)
	}
	if err := r.Update(ctxT(t), "Bob", "another", func(*registry.Registration) {}); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("Update by another session = %v, want ErrNotOwner", err)
	}
	if err := r.Update(ctxT(t), "Nobody", "s", func(*registry.Registration) {}); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("Update of an unregistered name = %v, want ErrNotRegistered", err)
	}
}

func testListPrunes(t *testing.T, env *Env) {
	r := env.Open(t)
	register(t, r, registry.Registration{Name: "Live"})
	register(t, r, registry.Registration{Name: "Remote", Host: "elsewhere"})
	d := register(t, r, registry.Registration{Name: "Dead"})
	makeDead(t, r, "Dead", d.SessionID)
	all, err := r.All(ctxT(t))
	if err != nil || len(all) != 3 || all[0].Name != "Dead" || all[0].Alive || !all[1].Alive {
		t.Fatalf("All = %+v, %v; want Dead (not alive), Live, Remote sorted", all, err)
	}
	live, err := r.List(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 2 || live[0].Name != "Live" || live[1].Name != "Remote" || !live[0].Alive {
		t.Fatalf("List = %+v, want Live and Remote", live)
	}
	if _, err := r.Get(ctxT(t), "Dead"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("List did not prune the dead registration: %v", err)
	}
	d2 := register(t, r, registry.Registration{Name: "Dead2"})
	makeDead(t, r, "Dead2", d2.SessionID)
	stale := register(t, r, registry.Registration{Name: "Stale", Host: "elsewhere"})
	env.Advance(env.TTL + time.Second)
	// Live and Remote have stale heartbeats now too; Live beats again.
	var liveSession string
	for _, e := range live {
		if e.Name == "Live" {
			liveSession = e.SessionID
		}
	}
	if err := r.Heartbeat(ctxT(t), "Live", liveSession); err != nil {
		t.Fatal(err)
	}
	pruned, err := env.Open(t).Prune(ctxT(t))
	slices.Sort(pruned)
	if err != nil || !slices.Equal(pruned, []string{"Dead2", "Remote", "Stale"}) {
		t.Fatalf("Prune = %v, %v; want [Dead2 Remote Stale]", pruned, err)
	}
	if _, err := r.Get(ctxT(t), "Live"); err != nil {
		t.Fatalf("Prune removed a live registration: %v", err)
	}
	if again, err := r.Prune(ctxT(t)); err != nil || len(again) != 0 {
		t.Fatalf("a second Prune = %v, %v; want nothing", again, err)
	}
	// The pruned name is free for anyone.
	if got := register(t, r, registry.Registration{Name: "Stale"}); got.SessionID == stale.SessionID {
		t.Fatal("the new holder has the old session")
	}
}

var memorableRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][a-z]+[A-Z][a-z]+[0-9]*$`) })

func testMemorableNames(t *testing.T, env *Env) {
	r := env.Open(t)
	seen := map[string]bool{}
	for range 20 {
		got := register(t, r, registry.Registration{})
		if !memorableRE().MatchString(got.Name) || inbox.ValidateName(got.Name) != nil {
			t.Fatalf("name %q is not Adjective+Noun", got.Name)
		}
		if seen[got.Name] {
			t.Fatalf("name %q given twice", got.Name)
		}
		seen[got.Name] = true
	}
}

// A memorable name that is taken gets a numeric suffix 2…9; when all are
// taken, other base names are drawn, and when none is free the
// registration fails with ErrNameTaken.
func testMemorableSuffixes(t *testing.T, env *Env) {
	env.Names(func() string { return "SwiftRaven" })
	r := env.Open(t)
	want := []string{"SwiftRaven", "SwiftRaven2", "SwiftRaven3", "SwiftRaven4", "SwiftRaven5", "SwiftRaven6", "SwiftRaven7", "SwiftRaven8", "SwiftRaven9"}
	for _, w := range want {
		if got := register(t, r, registry.Registration{}); got.Name != w {
			t.Fatalf("got %q, want %q", got.Name, w)
		}
	}
	if got, err := r.Register(ctxT(t), registry.Registration{}); !errors.Is(err, registry.ErrNameTaken) {
		t.Fatalf("with every candidate taken: %+v, %v; want ErrNameTaken", got, err)
	}
	bases := []string{"SwiftRaven", "GoldFalcon"}
	var i atomic.Int32
	env.Names(func() string { return bases[int(i.Add(1)-1)%len(bases)] })
	if got := register(t, env.Open(t), registry.Registration{}); got.Name != "GoldFalcon" {
		t.Fatalf("after SwiftRaven…9: %q, want the next base GoldFalcon", got.Name)
	}
}

func testHostileNames(t *testing.T, env *Env) {
	r := env.Open(t)
	ctx := ctxT(t)
	for _, name := range inboxtest.HostileNames {
		if name != "" { // the empty name asks for a memorable one
			if _, err := r.Register(ctx, registry.Registration{Name: name}); !errors.Is(err, inbox.ErrInvalidName) {
				t.Errorf("Register(%q) = %v, want ErrInvalidName", name, err)
			}
		}
		if _, err := r.Get(ctx, name); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Get(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := r.Heartbeat(ctx, name, "s"); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Heartbeat(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := r.Update(ctx, name, "s", func(*registry.Registration) {}); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Update(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := r.Unregister(ctx, name, "s"); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Unregister(%q) = %v, want ErrInvalidName", name, err)
		}
		if alive, err := r.Alive(ctx, name); alive {
			t.Errorf("Alive(%q) = true, %v", name, err)
		}
	}
	if all, err := r.All(ctx); err != nil || len(all) != 0 {
		t.Fatalf("hostile names left registrations: %+v, %v", all, err)
	}
}

// A stored registration that does not decode (or names another agent) is
// not alive, is reported as malformed, is skipped by All, and its name can
// be taken.
func testMalformed(t *testing.T, env *Env) {
	r := env.Open(t)
	other, _ := (&registry.Registration{Name: "Mallory", PID: os.Getpid(), SessionID: "m"}).Encode()
	for name, data := range map[string][]byte{
		"Broken":   []byte(`{"name":"Broken","pid":`),
		"Binary":   {0xff, 0xfe, 0},
		"Imposter": other,
	} {
		env.PutRaw(t, name, data)
		env.Advance(time.Minute) // past any grace for writers in progress
		if alive, err := r.Alive(ctxT(t), name); alive || err != nil {
			t.Errorf("%s: Alive = %v, %v; want false, nil", name, alive, err)
		}
		if _, err := r.Get(ctxT(t), name); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s: Get = %v, want ErrMalformed", name, err)
		}
		all, err := r.All(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range all {
			if e.Name == name || e.Name == "Mallory" {
				t.Errorf("%s: All lists %+v; want it skipped", name, e)
			}
		}
		got, err := r.Register(ctxT(t), registry.Registration{Name: name})
		if err != nil {
			t.Errorf("%s: taking the name over = %v", name, err)
			continue
		}
		if e, err := r.Get(ctxT(t), name); err != nil || e.SessionID != got.SessionID {
			t.Errorf("%s: after the takeover Get = %+v, %v", name, e, err)
		}
	}
}

// A recycled name does not inherit the previous holder's unclaimed mail
// (moved aside, not lost); an inbox made ahead and the same session
// re-registering keep theirs.
func testRecycled(t *testing.T, env *Env) {
	if env.Mail == nil {
		t.Skip("this registry adopts no inboxes")
	}
	r := env.Open(t)
	ctx := ctxT(t)
	send := func(text string) {
		t.Helper()
		if err := env.Mail.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.Mail.Create(ctx, "Bob"); err != nil {
		t.Fatal(err)
	}
	send("for the Bob to come")
	first := register(t, r, registry.Registration{Name: "Bob"})
	if first.MovedAside != 0 || env.Waiting(t, "Bob") != 1 {
		t.Fatalf("first registration: %+v, waiting %d; want the mail kept", first, env.Waiting(t, "Bob"))
	}
	again := register(t, r, registry.Registration{Name: "Bob", SessionID: first.SessionID})
	if again.MovedAside != 0 || env.Waiting(t, "Bob") != 1 {
		t.Fatalf("re-registration: %+v, waiting %d", again, env.Waiting(t, "Bob"))
	}
	makeDead(t, r, "Bob", first.SessionID)
	send("for the dead Bob")
	second := register(t, env.Open(t), registry.Registration{Name: "Bob"})
	if !second.TookOver || second.MovedAside != 2 {
		t.Fatalf("recycled name: %+v; want a takeover with 2 moved aside", second)
	}
	if n := env.Waiting(t, "Bob"); n != 0 {
		t.Fatalf("the new holder inherited %d of the old holder's messages", n)
	}
	if n := env.Aside(t, "Bob", first.SessionID); n != 2 {
		t.Fatalf("%d messages aside for the first session, want 2 (kept, not lost)", n)
	}
	// Even after the registration is pruned, another session gets a clean
	// inbox.
	send("for the second Bob")
	makeDead(t, r, "Bob", second.SessionID)
	if _, err := r.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	third := register(t, r, registry.Registration{Name: "Bob"})
	if third.TookOver || third.MovedAside != 1 || env.Aside(t, "Bob", second.SessionID) != 1 {
		t.Fatalf("name taken after a prune: %+v; want 1 moved aside", third)
	}
	// What "agents show" counts: every earlier holder's mail set aside.
	if ac, ok := env.Mail.(interface {
		AsideTotal(ctx context.Context, agent string) (int, error)
	}); ok {
		if n, err := ac.AsideTotal(ctx, "Bob"); err != nil || n != 3 {
			t.Fatalf("AsideTotal = %d, %v; want the 3 messages of both earlier holders", n, err)
		}
		if n, err := ac.AsideTotal(ctx, "Alice"); err != nil || n != 0 {
			t.Fatalf("AsideTotal of an inbox with none = %d, %v", n, err)
		}
	}
	// The new holder's own mail is its own.
	send("for the third Bob")
	rcv, err := env.Mail.Listen(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	d, err := rcv.Receive(ctx)
	if err != nil || d.Message.Text != "for the third Bob" {
		t.Fatalf("the new holder received %+v, %v", d, err)
	}
}

// A takeover that cannot get the inbox (the stalled holder's receiver still
// holds it) fails with inbox.ErrBusy and gives the name back as it was: the
// stalled holder's registration, not nothing. Otherwise a holder that was
// only slow (stopped with Ctrl-Z, a long pause) would come back
// unregistered, and every liveness check would call it dead.
func testFailedTakeover(t *testing.T, env *Env) {
	if env.Mail == nil {
		t.Skip("this registry adopts no inboxes")
	}
	r := env.Open(t)
	ctx := ctxT(t)
	a := register(t, r, registry.Registration{Name: "Bob", Model: "stalled"})
	rcv, err := env.Mail.Listen(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	env.Advance(env.TTL + time.Second) // its heartbeat went stale; its receiver is still open
	_, err = env.Open(t).Register(ctx, registry.Registration{Name: "Bob", Model: "newcomer"})
	if !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("takeover of a name whose inbox is held = %v, want inbox.ErrBusy", err)
	}
	e, err := r.Get(ctx, "Bob")
	if err != nil || e.SessionID != a.SessionID || e.Model != "stalled" {
		t.Fatalf("after the failed takeover the registration is %+v, %v; want the stalled holder's", e, err)
	}
	if err := r.Heartbeat(ctx, "Bob", a.SessionID); err != nil {
		t.Fatalf("the stalled holder's next heartbeat = %v, want it to keep its name", err)
	}
	if alive, _ := r.Alive(ctx, "Bob"); !alive {
		t.Fatal("the stalled holder is not alive again after its heartbeat")
	}
}

// A session re-registering keeps the mail of its inbox whatever its id
// looks like (spaces around it, a long one): the inbox's record of its
// owner must compare equal, or the session's own mail is moved aside.
func testSessionIDs(t *testing.T, env *Env) {
	if env.Mail == nil {
		t.Skip("this registry adopts no inboxes")
	}
	ctx := ctxT(t)
	for i, session := range []string{" padded session\t", strings.Repeat("s", 10000)} {
		name := fmt.Sprintf("Bob%d", i)
		r := env.Open(t)
		register(t, r, registry.Registration{Name: name, SessionID: session})
		if err := env.Mail.Send(ctx, &inbox.Message{From: "Alice", To: name, Text: "for this session"}); err != nil {
			t.Fatal(err)
		}
		again := register(t, env.Open(t), registry.Registration{Name: name, SessionID: session})
		if again.MovedAside != 0 || env.Waiting(t, name) != 1 {
			t.Errorf("session %.20q re-registering: %d moved aside, %d waiting; want its mail kept", session, again.MovedAside, env.Waiting(t, name))
		}
		// And another session taking the name over does not inherit it.
		makeDead(t, r, name, session)
		other := register(t, env.Open(t), registry.Registration{Name: name})
		if other.MovedAside != 1 || env.Waiting(t, name) != 0 {
			t.Errorf("after session %.20q, a new session: %d moved aside, %d waiting; want the mail moved aside", session, other.MovedAside, env.Waiting(t, name))
		}
	}
}

// A holder whose registration was pruned while it was paused (its receiver
// still open) gets it back with Restore, alive, under its own session and
// with its inbox's mail where it was; a name another session holds
// meanwhile, alive or dead, is ErrNotOwner and stays that session's.
func testRestore(t *testing.T, env *Env) {
	r := env.Open(t)
	ctx := ctxT(t)
	if env.Mail != nil {
		if err := env.Mail.Create(ctx, "Bob"); err != nil {
			t.Fatal(err)
		}
	}
	held := register(t, r, registry.Registration{Name: "Bob", SessionID: "watch-Bob", Model: "watcher"})
	if env.Mail != nil {
		rcv, err := env.Mail.Listen(ctx, "Bob")
		if err != nil {
			t.Fatal(err)
		}
		defer rcv.Close()
		if err := env.Mail.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: "while paused"}); err != nil {
			t.Fatal(err)
		}
	}
	env.Advance(env.TTL + time.Second) // paused past the TTL
	if pruned, err := env.Open(t).Prune(ctx); err != nil || !slices.Equal(pruned, []string{"Bob"}) {
		t.Fatalf("Prune = %v, %v; want [Bob]", pruned, err)
	}
	if err := r.Heartbeat(ctx, "Bob", held.SessionID); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("heartbeat after the prune = %v, want ErrNotRegistered", err)
	}
	if err := r.Restore(ctx, held.Registration); err != nil {
		t.Fatalf("Restore after the prune: %v", err)
	}
	e, err := env.Open(t).Get(ctx, "Bob")
	if err != nil || !e.Alive || e.SessionID != held.SessionID || e.Model != "watcher" || e.StartedAt != held.StartedAt {
		t.Fatalf("after Restore: %+v, %v; want the holder's registration, alive", e, err)
	}
	if err := r.Restore(ctx, held.Registration); err != nil {
		t.Fatalf("Restore of a registration already restored: %v", err)
	}
	if err := r.Heartbeat(ctx, "Bob", held.SessionID); err != nil {
		t.Fatalf("heartbeat after Restore: %v", err)
	}
	if env.Mail != nil {
		if n := env.Waiting(t, "Bob"); n != 1 {
			t.Fatalf("%d messages waiting after Restore, want the 1 sent while paused", n)
		}
	}

	// Another session holds the name: alive, then dead. Restore takes it
	// in neither case.
	if err := r.Unregister(ctx, "Bob", held.SessionID); err != nil {
		t.Fatal(err)
	}
	other := register(t, env.Open(t), registry.Registration{Name: "Kite", SessionID: "other"})
	kite := held.Registration
	kite.Name = "Kite"
	if err := r.Restore(ctx, kite); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("Restore over a live holder = %v, want ErrNotOwner", err)
	}
	makeDead(t, r, "Kite", other.SessionID)
	if err := r.Restore(ctx, kite); !errors.Is(err, registry.ErrNotOwner) {
		t.Fatalf("Restore over a dead holder = %v, want ErrNotOwner", err)
	}
	if e, err := r.Get(ctx, "Kite"); err != nil || e.SessionID != other.SessionID {
		t.Fatalf("after refused Restores Kite is %+v, %v; want the other session's", e, err)
	}
	if err := r.Restore(ctx, registry.Registration{Name: "../Bob", SessionID: "x"}); err == nil {
		t.Fatal("Restore of a hostile name succeeded")
	}
}
