package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// env is a parley root with a Server on it and an SDK client connected to
// the server over the in-memory transport.
type env struct {
	root, vault string
	tr          *inbox.FileTransport
	reg         *registry.Registry
	cs          *consensus.Store
	store       *transcripts.Store
	srv         *Server
	client      *mcp.ClientSession
	starter     *fakeStarter
}

func newEnv(t testing.TB) *env { t.Helper(); return newEnvWith(t, nil) }

// newEnvWith is newEnv with the Server's Config changed by mod first.
func newEnvWith(t testing.TB, mod func(*Config)) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{root: filepath.Join(dir, "root"), vault: filepath.Join(dir, "vault"), starter: &fakeStarter{}}
	var err error
	if e.tr, err = inbox.NewFileTransport(e.root); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.tr.Close() })
	if e.reg, err = registry.Open(e.root, e.tr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.reg.Close() })
	v, err := vault.Create(e.vault)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if e.cs, err = consensus.Open(e.root, v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.cs.Close() })
	if e.store, err = transcripts.OpenStore(e.root, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.store.Close() })
	cfg := Config{
		Transport: e.tr, Registry: e.reg, Consensus: e.cs, Transcripts: e.store, Root: e.root,
		Starter: e.starter, Heartbeat: 200 * time.Millisecond,
	}
	if mod != nil {
		mod(&cfg)
	}
	e.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.srv.Close() })
	e.client = e.connect(t)
	return e
}

// connect connects one more SDK client to the server in memory.
func (e *env) connect(t testing.TB) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := e.srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "parley-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured result.
func ok[T any](t testing.TB, cs *mcp.ClientSession, tool string, args any) T {
	t.Helper()
	res := call(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s(%v): tool error: %s", tool, args, text(res))
	}
	var out T
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured result %s: %v", tool, b, err)
	}
	return out
}

// fails calls a tool that must fail with a tool error and returns its text.
func fails(t testing.TB, cs *mcp.ClientSession, tool string, args any) string {
	t.Helper()
	res := call(t, cs, tool, args)
	if !res.IsError {
		t.Fatalf("%s(%v): no tool error; result %s", tool, args, text(res))
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// file files a closed debate as a consensus record.
func (e *env) file(t testing.TB, id, topic string, l debate.Layer, v debate.Verdict, position string) string {
	t.Helper()
	p, err := e.cs.File(context.Background(), consensustest.Outcome(id, topic, l, v, position, "Keys leak the creation time", false))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeStarter records debate_start's requests.
type fakeStarter struct {
	mu  sync.Mutex
	got []StartInput
	err error
}

func (f *fakeStarter) StartDebate(_ context.Context, in StartInput) (StartOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, in)
	if f.err != nil {
		return StartOutput{}, f.err
	}
	return StartOutput{DebateID: debate.NewID(time.Now(), debate.Layer(in.Layer), in.Topic), PID: 42}, nil
}

// scriptAgent runs a scripted agent called name on the env's messenger
// until the test ends.
func (e *env) scriptAgent(t testing.TB, name string, role debate.Role, script string) {
	t.Helper()
	sc, err := agent.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	r := &agent.Runner{Name: name, Roles: []debate.Role{role}, Transport: e.tr, Responder: sc, Ready: func() { close(ready) },
		Registry: &agent.SessionRegistry{Registrar: e.reg, SessionID: inbox.NewID(), Model: "script"}}
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("agent %s: %v", name, err)
	}
}

// session is a debate session between the named attacker and defender.
func session(t testing.TB, topic, position, attacker, defender string) *debate.DebateSession {
	t.Helper()
	id := debate.NewID(time.Now(), debate.LayerSpec, topic)
	b := debate.DefaultBudget(debate.LayerSpec)
	b.MaxWallClockMs = 60_000
	return &debate.DebateSession{
		ID: id, Topic: topic, Layer: debate.LayerSpec, Position: position, Budget: b, Created: inbox.Now(),
		Coordinator: debate.CoordinatorName(id),
		Participants: []debate.Participant{
			{Name: attacker, Role: debate.RoleAttacker, Agent: "script:critic.json"},
			{Name: defender, Role: debate.RoleDefender, Agent: "@" + defender},
		},
	}
}

// runDebate runs the coordinator of s in the test process, its transcript
// in the env's store and its verdict filed in the env's vault and
// consensus store. It
// returns a channel that receives the outcome (or error).
func (e *env) runDebate(t testing.TB, s *debate.DebateSession) <-chan debateResult {
	t.Helper()
	log, err := e.store.Create(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan debateResult, 1)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer log.Close()
		// Filed as parley files it: the record and the vault page carry
		// the transcript's seal.
		filer := &transcripts.Filer{Store: e.store, Vault: e.cs.Vault(), Records: e.cs}
		c := &debate.Coordinator{Messenger: e.tr, Journal: log, Filer: filer, Presence: e.reg}
		o, err := c.Start(ctx, s)
		out <- debateResult{o, err}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return out
}

type debateResult struct {
	o   *debate.Outcome
	err error
}

func wait(t testing.TB, ch <-chan debateResult) *debate.Outcome {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.o
	case <-time.After(60 * time.Second):
		t.Fatal("the debate did not end")
	}
	return nil
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Scripts of the debates the tests run (as cmd/parley's tests use them).
const (
	// concedingCritic counters in round 1 and has no further objections in
	// round 2.
	concedingCritic = `{"turns":[{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":120,"text":"A UUIDv7 key starts with a timestamp."},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":30}]}`
	// holdingDefender refines its position in round 1 and holds it.
	holdingDefender = `{"turns":[{"round":1,"position":"Use UUIDv7 keys with a 24h window","tokens":100,"text":"The window bounds what leaks."}]}`
	// repeatingCritic makes the same counter every round.
	repeatingCritic = `{"turns":[{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":120,"evidence_refs":["https://example.com/uuidv7"]}]}`
	// stubbornDefender restates the opening position every round.
	stubbornDefender = `{"turns":[{"round":1,"position":"Use UUIDv7 keys","tokens":100,"text":"Nothing leaks that matters."}]}`
)
