package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// fixture is a parley root and vault with real debates in them, run
// in-process by the coordinator with script agents over the in-memory
// transport, journaled by the transcripts store and filed as the CLI
// files them (consensus record, then the vault page).
type fixture struct {
	t         testing.TB
	root      string
	vaultDir  string
	workspace string
	debates   *transcripts.Store
	vault     *vault.Vault
	cs        *consensus.Store
	srv       *Server
	// budget, when set, replaces the layer's default budget.
	budget *debate.ConsensusBudget
	// context, when set, is handed to every turn of the debates started.
	context []debate.ContextItem
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	return newFixtureAt(t, dir)
}

func newFixtureAt(t testing.TB, dir string) *fixture {
	t.Helper()
	f := &fixture{t: t, root: filepath.Join(dir, "root"), vaultDir: filepath.Join(dir, "vault"), workspace: filepath.Join(dir, "workspace")}
	for _, d := range []string{f.root, f.workspace} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(f.workspace, "notes.md"), []byte("one\ntwo\nthree\n"), 0o600)
	var err error
	if f.debates, err = transcripts.OpenStore(f.root, nil); err != nil {
		t.Fatal(err)
	}
	if f.vault, err = vault.Create(f.vaultDir); err != nil {
		t.Fatal(err)
	}
	if f.cs, err = consensus.Open(f.root, f.vault); err != nil {
		t.Fatal(err)
	}
	if f.srv, err = New(Config{Debates: f.debates, Vault: f.vault, Consensus: f.cs, LivePoll: 20 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.srv.Close()
		f.cs.Close()
		f.vault.Close()
		f.debates.Close()
	})
	return f
}

// filer files as cmd/parley's debate filer does: the consensus record,
// then the vault page of the transcript.
type filer struct{ f *fixture }

func (fl filer) File(ctx context.Context, o *debate.Outcome) (string, error) {
	return (&transcripts.Filer{Store: fl.f.debates, Vault: fl.f.vault, Records: fl.f.cs}).File(ctx, o)
}

// side is one participant: a script (JSON of agent.Script) or a responder,
// and the agent spec its session records (default script:test).
type side struct {
	role    debate.Role
	script  string
	respond agent.Responder
	spec    string
}

// as records spec as the side's agent spec in the session.
func (sd side) as(spec string) side { sd.spec = spec; return sd }

func attacker(script string) side { return side{role: debate.RoleAttacker, script: script} }
func defender(script string) side { return side{role: debate.RoleDefender, script: script} }

// debateRun is a debate being run by the fixture.
type debateRun struct {
	ID   string
	done chan error
	out  *debate.Outcome
}

// wait waits for the debate's verdict.
func (r *debateRun) wait(t testing.TB) *debate.Outcome {
	t.Helper()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("debate %s: %v", r.ID, err)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("debate %s did not end", r.ID)
	}
	return r.out
}

// start starts a debate on its own goroutine; the agents stop when it
// ends. Call wait to collect it.
func (f *fixture) start(layer debate.Layer, topic, position string, sides ...side) *debateRun {
	f.t.Helper()
	id := debate.NewID(time.Now(), layer, topic)
	b := debate.DefaultBudget(layer)
	// A debate held open until the test releases it (waitingSides) must
	// still be running when a slow test on a busy machine gets to it: the
	// wall clock is far longer than any test, which ends it by its script
	// or its release.
	b.MaxWallClockMs = (10 * time.Minute).Milliseconds()
	if f.budget != nil {
		b = *f.budget
	}
	sess := &debate.DebateSession{
		ID: id, Topic: topic, Layer: layer, Position: position, Budget: b, Created: inbox.Now(),
		Coordinator: debate.CoordinatorName(id), Workspace: f.workspace, Context: f.context,
	}
	tr := inbox.NewMemTransport()
	ctx, cancel := context.WithCancel(context.Background())
	var stops []chan error
	n := map[debate.Role]int{}
	for _, sd := range sides {
		n[sd.role]++
		name := fmt.Sprintf("%s%s%d-%s", strings.ToUpper(string(sd.role)[:1]), string(sd.role)[1:], n[sd.role], id[len(id)-6:])
		spec := sd.spec
		if spec == "" {
			spec = "script:test"
		}
		sess.Participants = append(sess.Participants, debate.Participant{Name: name, Role: sd.role, Agent: spec})
		resp := sd.respond
		if resp == nil {
			s, err := agent.ParseScript([]byte(sd.script))
			if err != nil {
				f.t.Fatalf("script: %v", err)
			}
			resp = s
		}
		ready, done := make(chan struct{}), make(chan error, 1)
		go func() {
			done <- (&agent.Runner{Name: name, Roles: []debate.Role{sd.role}, Transport: tr, Responder: resp, Ready: func() { close(ready) }}).Run(ctx)
		}()
		select {
		case <-ready:
		case err := <-done:
			f.t.Fatalf("agent %s: %v", name, err)
		}
		stops = append(stops, done)
	}
	log, err := f.debates.Create(ctx, sess)
	if err != nil {
		f.t.Fatal(err)
	}
	run := &debateRun{ID: id, done: make(chan error, 1)}
	go func() {
		c := &debate.Coordinator{Messenger: tr, Journal: log, Filer: filer{f}, Pages: debate.PageFunc(func(ctx context.Context, name string) (bool, error) {
			_, err := f.vault.Resolve(name)
			return err == nil || errors.Is(err, vault.ErrAmbiguous), nil
		})}
		o, err := c.Start(ctx, sess)
		log.Close()
		cancel()
		for _, d := range stops {
			if aerr := <-d; aerr != nil && err == nil {
				err = aerr
			}
		}
		run.out = o
		run.done <- err
	}()
	return run
}

// run runs a debate to its verdict and returns its id.
func (f *fixture) run(layer debate.Layer, topic, position string, sides ...side) string {
	f.t.Helper()
	r := f.start(layer, topic, position, sides...)
	r.wait(f.t)
	return r.ID
}

// turns writes a script of entries "round|position|counter_to|confidence|tokens|text|ref,ref".
func turns(entries ...string) string {
	var out []map[string]any
	for _, e := range entries {
		p := strings.Split(e, "|")
		for len(p) < 7 {
			p = append(p, "")
		}
		var round, cc, tokens int
		fmt.Sscan(p[0], &round)
		fmt.Sscan(p[3], &cc)
		fmt.Sscan(p[4], &tokens)
		m := map[string]any{"round": round, "position": p[1], "counter_to": p[2], "confidence_change": cc, "tokens": tokens, "text": p[5]}
		if p[6] != "" {
			m["evidence_refs"] = strings.Split(p[6], ",")
		}
		out = append(out, m)
	}
	b, _ := json.Marshal(map[string]any{"turns": out})
	return string(b)
}

// The debates of the fixtures.
var (
	conceding = []side{
		attacker(turns("1|Keys leak the creation time|Use UUIDv7 keys|-1|120|UUIDv7 embeds a millisecond timestamp.\nAnyone who sees a key learns when the payment was made.|notes.md:2,https://www.rfc-editor.org/rfc/rfc9562,[[glossary]]",
			"2||||30|")),
		defender(turns("1|Use UUIDv7 keys with a 24h window||0|100|The 24h window bounds what a key reveals to a day.")),
	}
	deadlocked = []side{
		attacker(turns("1|Rate limits belong in the gateway|Rate limits live in each service|-1|90|One place to change them.")),
		defender(turns("1|Rate limits live in each service||0|80|Each service knows its own costs.")),
	}
)

// tamperFile replaces the first old with new in debate id's transcript.
func (f *fixture) tamperFile(id, old, new string) {
	f.t.Helper()
	p := filepath.Join(f.root, "debates", id, transcripts.TranscriptFile)
	data, err := os.ReadFile(p)
	if err != nil {
		f.t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		f.t.Fatalf("%q is not in the transcript of %s", old, id)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o600); err != nil {
		f.t.Fatal(err)
	}
}

// lineOf is the transcript line (1-based) that first holds s.
func (f *fixture) lineOf(id, s string) int {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.root, "debates", id, transcripts.TranscriptFile))
	if err != nil {
		f.t.Fatal(err)
	}
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		f.t.Fatalf("%q is not in the transcript of %s", s, id)
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}
