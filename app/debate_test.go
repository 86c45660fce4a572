package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// Scripts in the voice of a storage review, not the CLI tests'.
const (
	// yieldingCritic objects in round 1 and has nothing more in round 2.
	yieldingCritic = `{"turns":[{"round":1,"position":"Compaction stalls writers for seconds","counter_to":"Compact the log every hour","confidence_change":-1,"tokens":90,"text":"A full rewrite blocks appends."},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":20}]}`
	// adjustingDefender narrows its plan in round 1 and keeps it.
	adjustingDefender = `{"turns":[{"round":1,"position":"Compact the log every hour, one segment at a time","tokens":80,"text":"Segment by segment, appends never wait on the whole log."}]}`
)

func write(t testing.TB, path, data string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// NewSession refuses a request it cannot run with an *Error that names
// the field at fault, and says whether a file is the trouble (exit 1 on
// the command line) or the request's form (exit 2): its Problem.
func TestNewSessionNamesTheFieldAtFault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := New(Options{Root: filepath.Join(dir, "root")})
	script := write(t, filepath.Join(dir, "critic.json"), yieldingCritic)
	notScript := write(t, filepath.Join(dir, "notes.json"), `{"rounds": "many"}`)
	aFile := write(t, filepath.Join(dir, "plain.txt"), "not a directory")
	pdf := write(t, filepath.Join(dir, "spec.pdf"), "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\n")
	utf16 := write(t, filepath.Join(dir, "spec-utf16.md"), "\xff\xfe#\x00 \x00S\x00p\x00e\x00c\x00")
	// Three files of 200 KB each, each under MaxContextBytes, that no turn
	// request could carry together.
	var parts []string
	for _, n := range []string{"part1.md", "part2.md", "part3.md"} {
		parts = append(parts, write(t, filepath.Join(dir, n), strings.Repeat("Each tenant gets 100 requests per second.\n", 200<<10/42)))
	}
	blank := write(t, filepath.Join(dir, "blank.md"), "\xef\xbb\xbf\n \n\t\n")
	zero := 0
	ok := DebateRequest{Layer: "plan", Topic: "Log compaction", Agents: []string{"attacker=script:" + script, "defender=@Keeper"}}
	with := func(f func(*DebateRequest)) DebateRequest {
		r := ok
		r.Agents = append([]string(nil), ok.Agents...)
		f(&r)
		return r
	}
	for name, tc := range map[string]struct {
		req         DebateRequest
		field, text string
		file        bool
	}{
		"no topic":           {with(func(r *DebateRequest) { r.Topic = "  \t" }), "", "missing topic", false},
		"no agents":          {with(func(r *DebateRequest) { r.Agents = nil }), "", "missing agents", false},
		"nothing":            {DebateRequest{}, "", "missing layer, topic and agents", false},
		"unknown layer":      {with(func(r *DebateRequest) { r.Layer = "deploy" }), FieldLayer, "deploy", false},
		"agent without role": {with(func(r *DebateRequest) { r.Agents[1] = "@Keeper" }), FieldAgent, "use ROLE=SPEC", false},
		"unknown role":       {with(func(r *DebateRequest) { r.Agents[1] = "referee=@Keeper" }), FieldAgent, "referee", false},
		"name escaping":      {with(func(r *DebateRequest) { r.Agents[1] = "defender=@../../etc" }), FieldAgent, "invalid", false},
		"unknown adapter":    {with(func(r *DebateRequest) { r.Agents[1] = "defender=carrier-pigeon:x" }), FieldAgent, "carrier-pigeon", false},
		"missing script":     {with(func(r *DebateRequest) { r.Agents[0] = "attacker=script:" + filepath.Join(dir, "gone.json") }), FieldAgent, "gone.json", true},
		"not a script":       {with(func(r *DebateRequest) { r.Agents[0] = "attacker=script:" + notScript }), FieldAgent, "", true},
		"missing context":    {with(func(r *DebateRequest) { r.Context = []string{filepath.Join(dir, "absent.md")} }), FieldContext, "absent.md", true},
		"a PDF as context":   {with(func(r *DebateRequest) { r.Context = []string{pdf} }), FieldContext, "spec.pdf is not UTF-8 text", true},
		"UTF-16 context":     {with(func(r *DebateRequest) { r.Context = []string{utf16} }), FieldContext, "spec-utf16.md is not UTF-8 text", true},
		"stdin where none":   {with(func(r *DebateRequest) { r.Context = []string{StdinContext} }), FieldContext, `"-": there is no standard input to read here`, true},
		"empty context":      {with(func(r *DebateRequest) { r.Context = []string{blank} }), FieldContext, "blank.md is empty (nothing but white space)", true},
		"context too large":  {with(func(r *DebateRequest) { r.Context = parts }), FieldContext, "too large to hand to the agents", true},
		"workspace a file":   {with(func(r *DebateRequest) { r.Workspace = aFile }), FieldWorkspace, "is not a directory", true},
		"zero rounds":        {with(func(r *DebateRequest) { r.Budget.MaxRounds = &zero }), FieldBudget, "", false},
		"no attacker":        {with(func(r *DebateRequest) { r.Agents = r.Agents[1:] }), FieldAgent, "agents: a debate needs at least one attacker; add one with agents attacker=SPEC", false},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := a.NewSession(context.Background(), tc.req)
			var ie *Error
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, %v; want an *Error", s, err)
			}
			want := ProblemInvalid
			switch {
			case tc.file:
				want = ProblemFile
			case errors.Is(err, ErrRequired):
				want = ProblemMissing
			}
			if ie.Field != tc.field || ie.Problem != want || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("%v: field %q problem %s; want field %q problem %s saying %q", err, ie.Field, ie.Problem, tc.field, want, tc.text)
			}
			if tc.field == FieldAgent && !strings.Contains(tc.req.Agents[0]+tc.req.Agents[len(tc.req.Agents)-1], ie.Value) {
				t.Errorf("%v: value %q is not the agent at fault", err, ie.Value)
			}
			// A front end words it with its own names.
			msg := ie.Format(func(f string) string { return "<" + f + ">" })
			if tc.field != "" && !strings.HasPrefix(msg, "<"+tc.field+">") {
				t.Errorf("Format: %q does not start with the front end's name of %s", msg, tc.field)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "root")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused request made the root: %v", err)
	}

	// A good request: the agents the debate starts get its names, scripts
	// an absolute path, and the overrides win over the layer's budget.
	rounds := 2
	r := with(func(r *DebateRequest) {
		r.Budget.MaxRounds = &rounds
		r.Agents = append(r.Agents, "attacker=script:"+script)
	})
	s, err := a.NewSession(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	suffix := s.ID[strings.LastIndexByte(s.ID, '-')+1:]
	names := []string{s.Participants[0].Name, s.Participants[1].Name, s.Participants[2].Name}
	if names[0] != "Attacker1-"+suffix || names[1] != "Keeper" || names[2] != "Attacker2-"+suffix {
		t.Errorf("names %v", names)
	}
	if !strings.HasPrefix(s.Participants[0].Agent, "script:/") || s.Budget.MaxRounds != 2 || s.Layer != debate.LayerPlan {
		t.Errorf("session %+v", s)
	}
}

// runAgent runs a scripted agent called name on a's messenger until the
// test ends.
func runAgent(t testing.TB, a *App, name string, role debate.Role, script string) {
	t.Helper()
	sc, err := agent.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Messenger(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	r := AgentRun{Name: name, Role: role, Spec: agent.Spec{Kind: agent.KindScript, Arg: "inline"}, Responder: sc,
		SessionID: inbox.NewID(), Ready: func() { close(ready) }}
	go func() { done <- a.ServeAgent(ctx, m, r) }()
	t.Cleanup(func() { cancel(); <-done; m.Close() })
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("agent %s: %v", name, err)
	}
}

// The typed API runs a debate end to end without any front end: the
// verdict is filed in the vault, progress arrives as values, and status,
// list, watch and resume agree on the closed debate; a debate whose page
// was rewritten is not resumed.
func TestRunDebateThroughTheAPI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := New(Options{Root: filepath.Join(dir, "root")})
	runAgent(t, a, "Skeptic", debate.RoleAttacker, yieldingCritic)
	runAgent(t, a, "Planner", debate.RoleDefender, adjustingDefender)

	// A participant that is not running is named, before any turn.
	s, err := a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Log compaction", Position: "Compact the log every hour",
		Agents: []string{"attacker=@Skeptic", "defender=@Nobody"}, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	var nr *NotRunningError
	if err := a.CheckAgents(context.Background(), s); !errors.As(err, &nr) || nr.Agent != "Nobody" {
		t.Fatalf("CheckAgents: %v", err)
	}

	s, err = a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Log compaction", Position: "Compact the log every hour",
		Agents: []string{"attacker=@Skeptic", "defender=@Planner"}, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []debate.EventKind
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := a.RunDebate(ctx, s, RunOptions{Progress: func(p debate.Progress) { kinds = append(kinds, p.Event.Kind) }})
	if err != nil {
		t.Fatal(err)
	}
	if o.Verdict != debate.ConsensusReached || o.FinalPosition != "Compact the log every hour, one segment at a time" || o.Record == "" {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(filepath.Join(a.Vault(), filepath.FromSlash(o.Record))); err != nil {
		t.Errorf("the record is not in the vault: %v", err)
	}
	turns := 0
	for _, k := range kinds {
		if k == debate.EventTurn {
			turns++
		}
	}
	if len(kinds) == 0 || kinds[0] != debate.EventOpen || kinds[len(kinds)-1] != debate.EventVerdict || turns != 3 {
		t.Errorf("progress %v", kinds)
	}

	st, err := a.DebateStatus(ctx, s.ID)
	if err != nil || st.State != transcripts.StateClosed || st.Verdict != debate.ConsensusReached || st.Record != o.Record || st.Integrity != "verified" || st.ResumeRefused {
		t.Errorf("status %+v %v", st, err)
	}
	list, err := a.ListDebates(ctx)
	if err != nil || len(list) != 1 || list[0].DebateID != s.ID || list[0].Integrity != "verified" {
		t.Errorf("list %+v %v", list, err)
	}
	w, err := a.WatchDebate(ctx, s.ID, nil)
	if err != nil || w.Verdict != o.Verdict || w.Record != o.Record {
		t.Errorf("watch %+v %v", w, err)
	}
	r, err := a.ResumeDebate(ctx, s.ID, RunOptions{})
	if err != nil || r.Verdict != o.Verdict || r.Record != o.Record {
		t.Errorf("resume of a closed debate %+v %v", r, err)
	}
	loaded, err := a.LoadOutcome(ctx, s.ID)
	if err != nil || loaded.FinalPosition != o.FinalPosition {
		t.Errorf("LoadOutcome %+v %v", loaded, err)
	}

	// The readable page rewritten: resume leaves the debate as it is.
	page := filepath.Join(a.Vault(), "wiki", "debates", s.ID+".md")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	write(t, page, strings.Replace(string(b), "Compact", "Rewrite", 1))
	var te *TamperedError
	if _, err := a.ResumeDebate(ctx, s.ID, RunOptions{}); !errors.As(err, &te) || te.ID != s.ID || te.Trouble == "" {
		t.Errorf("resume of a tampered debate: %v", err)
	}
	// Status says what the list says of it.
	st, err = a.DebateStatus(ctx, s.ID)
	list, lerr := a.ListDebates(ctx)
	if err != nil || lerr != nil || len(list) != 1 || !strings.HasPrefix(st.Integrity, "TAMPERED") || st.Integrity != list[0].Integrity || !st.ResumeRefused {
		t.Errorf("status of a tampered debate says integrity %q, the list %+v (%v, %v)", st.Integrity, list, err, lerr)
	}
	if _, err := a.ResumeDebate(ctx, "20260101-plan-nothing-here-abcdef", RunOptions{}); !errors.Is(err, transcripts.ErrNotFound) {
		t.Errorf("resume of no debate: %v", err)
	}
}

// A script agent written script:~/FILE (zsh does not expand the "~" in
// attacker=script:~/critic.json) is the file in the home directory, made
// absolute for the agent process. Not parallel: it sets HOME.
func TestScriptAgentUnderHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	script := write(t, filepath.Join(home, "critic.json"), yieldingCritic)
	a := New(Options{Root: filepath.Join(t.TempDir(), "root")})
	s, err := a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Log compaction",
		Agents: []string{"attacker=script:~/critic.json", "defender=@Keeper"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Participants[0].Agent != "script:"+script {
		t.Errorf("attacker %q, want script:%s", s.Participants[0].Agent, script)
	}
}

// A spec debate run from elsewhere than its workspace, or with the spec
// named by an absolute path: the agents are handed the spec under its
// path in the workspace, so that a critic citing the document by the name
// it was given cites lines the evidence check finds. (It was handed under
// the path as typed: cited so, "/abs/docs/spec.md:2" was outside_root and
// "ws/docs/spec.md:2" missing.) A file outside the workspace keeps the
// path as given.
func TestContextIsNamedAsTheWorkspaceFindsIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Saved by an editor that writes a byte order mark, which is dropped.
	spec := write(t, filepath.Join(ws, "docs", "spec.md"), "\xef\xbb\xbf# Spec\nKeys are UUIDv7.\nThey expire after 24 h.\n")
	notes := write(t, filepath.Join(dir, "notes.md"), "outside the workspace\n")
	a := New(Options{Root: filepath.Join(dir, "root")})
	critic := `{"turns":[{"round":1,"position":"Keys leak their creation time","counter_to":"Use UUIDv7 keys","evidence_refs":["docs/spec.md:2"],"confidence_change":-1,"tokens":50},{"round":2,"position":"","counter_to":"","confidence_change":0}]}`
	runAgent(t, a, "Reader", debate.RoleAttacker, critic)
	runAgent(t, a, "Author", debate.RoleDefender, `{"turns":[{"round":1,"position":"Use UUIDv7 keys","tokens":40}]}`)
	s, err := a.NewSession(context.Background(), DebateRequest{Layer: "spec", Topic: "Key format", Position: "Use UUIDv7 keys",
		Agents: []string{"attacker=@Reader", "defender=@Author"}, Workspace: ws, Context: []string{spec, notes}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Context) != 2 || s.Context[0].Ref != "docs/spec.md" || s.Context[1].Ref != notes || !strings.HasPrefix(s.Context[0].Text, "# Spec\n") {
		t.Fatalf("context %+v", s.Context)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := a.RunDebate(ctx, s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var cited []debate.EvidenceCheck
	for _, tr := range o.Turns {
		cited = append(cited, tr.Evidence...)
	}
	if len(cited) != 1 || cited[0].Ref != s.Context[0].Ref+":2" || cited[0].Status != debate.EvidenceOK {
		t.Errorf("the critic's citation of the spec by its context name: %+v", cited)
	}
}

// A closed debate needs no messenger: resumed while the messenger cannot
// be reached (config.json now names a NATS server that does not answer),
// it is shown with its verdict and record, as it is with the messenger up.
func TestResumeOfAClosedDebateNeedsNoMessenger(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	a := New(Options{Root: root})
	runAgent(t, a, "Skeptic", debate.RoleAttacker, yieldingCritic)
	runAgent(t, a, "Planner", debate.RoleDefender, adjustingDefender)
	s, err := a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Log compaction", Position: "Compact the log every hour",
		Agents: []string{"attacker=@Skeptic", "defender=@Planner"}, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := a.RunDebate(ctx, s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}

	write(t, filepath.Join(root, "config.json"), `{"transport":"nats","nats":{"url":"nats://127.0.0.1:1","retryMs":100}}`)
	down := New(Options{Root: root})
	if _, err := down.Messenger(ctx); err == nil {
		t.Fatal("the messenger of a server that does not answer opened")
	}
	r, err := down.ResumeDebate(ctx, s.ID, RunOptions{})
	if err != nil || r.Verdict != o.Verdict || r.Record != o.Record || r.FinalPosition != o.FinalPosition {
		t.Fatalf("resume of a closed debate with the messenger down: %v; want %s filed as %s", err, o.Verdict, o.Record)
	}
}
