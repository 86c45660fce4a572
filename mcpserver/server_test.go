package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/inbox"
)

var allTools = []string{
	"consensus_check", "consensus_search", "consensus_show", "debate_join", "debate_leave", "debate_next_turn",
	"debate_resume", "debate_start", "debate_status", "debate_submit_turn", "gate", "recv", "send", "transcript_show",
}

func TestListTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
	}
	slices.Sort(names)
	if !slices.Equal(names, allTools) {
		t.Fatalf("tools %v, want %v", names, allTools)
	}
	required := map[string][]string{
		"consensus_check":    {"layer", "topic", "position"},
		"consensus_search":   {"query"},
		"consensus_show":     {"name"},
		"debate_start":       {"layer", "topic", "agents"},
		"debate_status":      {"id"},
		"transcript_show":    {"id"},
		"debate_join":        {"role"},
		"debate_next_turn":   {"name"},
		"debate_submit_turn": {"name", "request_id"},
		"send":               {"from", "to", "text"},
		"recv":               {"as"},
	}
	for _, tool := range res.Tools {
		in, _ := tool.InputSchema.(map[string]any)
		if in["type"] != "object" || in["properties"] == nil {
			t.Errorf("%s: input schema %v", tool.Name, in)
		}
		if out, _ := tool.OutputSchema.(map[string]any); out["type"] != "object" {
			t.Errorf("%s: no structured output schema: %v", tool.Name, tool.OutputSchema)
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		var req []string
		for _, r := range asList(in["required"]) {
			req = append(req, r.(string))
		}
		if want, ok := required[tool.Name]; ok && !slices.Equal(req, want) {
			t.Errorf("%s: required %v, want %v", tool.Name, req, want)
		}
	}
	// The gate's confidences take a number or a string ("80%").
	props := byName["gate"].InputSchema.(map[string]any)["properties"].(map[string]any)
	if ty := props["final_confidence"].(map[string]any)["type"]; !slices.Equal(asList(ty), []any{"number", "string", "null"}) {
		t.Errorf("gate final_confidence type %v", ty)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestConsensusTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.file(t, "20261130-spec-idempotency-keys-aaaaaa", "Idempotency keys", debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys")
	e.file(t, "20261130-plan-rollout-order-bbbbbb", "Rollout order", debate.LayerPlan, debate.Deadlock, "Roll out by region")
	file := filepath.Join(e.vault, filepath.FromSlash(rec))

	cases := []struct {
		name             string
		in               CheckInput
		status, record   string
		finalPos         string
		wantRelatedFirst string
	}{
		{"consistent up to case, spacing and punctuation", CheckInput{"spec", "Idempotency keys", "use  UUIDv7 keys."}, "consistent", rec, "Use UUIDv7 keys", ""},
		{"conflict", CheckInput{"spec", "Idempotency keys", "Use random keys"}, "conflict", rec, "Use UUIDv7 keys", ""},
		{"open: a deadlock binds nothing", CheckInput{"PLAN", "Rollout order", "Roll out everywhere at once"}, "open", "wiki/consensus/plan-rollout-order.md", "", ""},
		{"none, with the related record", CheckInput{"verify", "Idempotency keys", "Use UUIDv7 keys"}, "none", "", "", rec},
	}
	for _, c := range cases {
		out := ok[CheckOutput](t, e.client, "consensus_check", c.in)
		if string(out.Status) != c.status || out.Record != c.record || out.FinalPosition != c.finalPos || out.Position != c.in.Position {
			t.Errorf("%s: %+v", c.name, out)
		}
		if c.status == "conflict" && (out.File != file || out.Verdict != debate.ConsensusReached) {
			t.Errorf("%s: file %q verdict %q, want %q", c.name, out.File, out.Verdict, file)
		}
		if out.Related == nil {
			t.Errorf("%s: related is null, want a list", c.name)
		}
		if c.wantRelatedFirst != "" && (len(out.Related) == 0 || out.Related[0].Record != c.wantRelatedFirst || out.Related[0].Score <= 0) {
			t.Errorf("%s: related %+v", c.name, out.Related)
		}
	}

	hits := ok[SearchOutput](t, e.client, "consensus_search", SearchInput{Query: "idempotency"})
	if len(hits.Results) != 1 || hits.Results[0].Path != rec || hits.Results[0].Score <= 0 || hits.Results[0].FinalPosition != "Use UUIDv7 keys" {
		t.Errorf("search: %+v", hits)
	}
	if hits := ok[SearchOutput](t, e.client, "consensus_search", SearchInput{Query: "idempotency", Layer: "plan"}); len(hits.Results) != 0 {
		t.Errorf("search filtered by layer: %+v", hits)
	}

	show := ok[ShowOutput](t, e.client, "consensus_show", ShowInput{Name: "spec-idempotency-keys"})
	if show.Path != rec || show.File != file || !strings.Contains(show.Body, "## Final Position") || show.Verdict != debate.ConsensusReached {
		t.Errorf("show: %+v", show)
	}
	// By debate id and by wikilink too; the content is the Markdown body.
	if r := call(t, e.client, "consensus_show", ShowInput{Name: "20261130-spec-idempotency-keys-aaaaaa"}); r.IsError || !strings.HasPrefix(text(r), "# Idempotency keys") {
		t.Errorf("show by debate id: %s", text(r))
	}
	if r := ok[ShowOutput](t, e.client, "consensus_show", ShowInput{Name: "[[spec-idempotency-keys]]"}); r.Path != rec {
		t.Errorf("show by wikilink: %+v", r)
	}
	// And by a unique prefix of the name or of the debate id, as the CLI
	// finds it (one resolution, app.ResolveRecord).
	for _, prefix := range []string{"spec-idem", "20261130-spec-idem"} {
		if r := ok[ShowOutput](t, e.client, "consensus_show", ShowInput{Name: prefix}); r.Path != rec {
			t.Errorf("show by the prefix %q: %+v", prefix, r)
		}
	}

	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"consensus_check", CheckInput{"spek", "Idempotency keys", "x"}, `layer: unknown layer: "spek"`},
		{"consensus_check", CheckInput{"spec", " ", "x"}, "consensus_check needs layer, topic and position"},
		{"consensus_check", CheckInput{"spec", "Idempotency keys", "..."}, "position says nothing once normalized"},
		{"consensus_check", CheckInput{"spec", "Idempotency keys", strings.Repeat("x", inbox.MaxMessageBytes+1)}, "position is too long"},
		{"consensus_check", map[string]any{"layer": "spec", "topic": "t", "position": "p", "extra": 1}, `consensus_check takes no argument "extra" (it takes layer, position, topic)`},
		{"consensus_check", map[string]any{"layer": 3, "topic": "t", "position": "p"}, "layer: 3 is not a string"},
		{"consensus_search", SearchInput{Query: "x", Verdict: "MAYBE"}, "verdict: unknown verdict"},
		{"consensus_search", map[string]any{"query": "x", "limit": -1}, "limit: must be at least 1"},
		// 0 as the command line's --limit 0: refused, not read as "omitted".
		{"consensus_search", map[string]any{"query": "x", "limit": 0}, "limit: must be at least 1"},
		{"consensus_search", SearchInput{Query: "  "}, "consensus_search needs a query"},
		{"debate_status", map[string]any{"id": ""}, "debate_status needs id: a debate id, or a unique prefix of one"},
		{"transcript_show", map[string]any{"id": " "}, "transcript_show needs id"},
		{"consensus_show", ShowInput{Name: "../../etc/passwd"}, "no such consensus record"},
		{"consensus_show", ShowInput{Name: "spec-nothing"}, "no such consensus record"},
		{"consensus_show", ShowInput{Name: "a\x00b"}, "no such consensus record"},
	} {
		if msg := fails(t, e.client, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s(%v): %q, want it to say %q", c.tool, c.args, msg, c.want)
		}
	}
}

func TestGateTool(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	hesitant := GateInput{
		Layer: "verify", Question: "Is the cache invalidated on writes?", InitialAnswer: "Yes",
		Critique:    "I think it might not be; I'm not sure the write path calls invalidate, maybe it only does so on delete.",
		FinalAnswer: "Probably not on every write", InitialConfidence: 0.9, FinalConfidence: "40%",
	}
	d := ok[gating.Decision](t, e.client, "gate", hesitant)
	if d.Outcome != gating.Debate || d.Layer != debate.LayerVerify || len(d.Cues) == 0 || d.Mode != gating.ModeModel {
		t.Errorf("hesitant: %+v", d)
	}
	// The same self-critique decided by the library directly.
	sc, err := gating.ParseJSON([]byte(`{"layer":"verify","question":"Is the cache invalidated on writes?","initial_answer":"Yes","critique":"I think it might not be; I'm not sure the write path calls invalidate, maybe it only does so on delete.","final_answer":"Probably not on every write","initial_confidence":0.9,"final_confidence":"40%"}`))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := gating.Default().Decide(sc)
	if d.Score != want.Score || d.Threshold != want.Threshold || len(d.Cues) != len(want.Cues) {
		t.Errorf("gate %v/%v, library %v/%v", d.Score, d.Threshold, want.Score, want.Threshold)
	}
	sure := ok[gating.Decision](t, e.client, "gate", GateInput{Text: "Self-critique: the tests cover every branch and pass.\nConfidence: 0.95\n", Mode: "rules"})
	if sure.Outcome != gating.Skip || sure.Mode != gating.ModeRules {
		t.Errorf("sure, rules: %+v", sure)
	}
	// Every decision went to gate.jsonl, as "parley gate" logs them.
	f, err := os.Open(filepath.Join(e.root, gating.LogName))
	if err != nil {
		t.Fatal(err)
	}
	entries, bad, err := gating.ReadLog(f)
	f.Close()
	if err != nil || bad != 0 || len(entries) != 2 || entries[0].Source != "mcp" || entries[0].Outcome != gating.Debate || entries[1].Outcome != gating.Skip {
		t.Errorf("gate.jsonl: %v bad %d %+v", err, bad, entries)
	}
	for _, c := range []struct {
		in   GateInput
		want string
	}{
		{GateInput{Critique: "  "}, "self-critique has no critique"},
		{GateInput{Critique: "fine", FinalConfidence: 1.5}, "final_confidence is 1.5"},
		{GateInput{Critique: "fine", FinalConfidence: "lots"}, "is not a number"},
		{GateInput{Critique: "fine", Layer: "design"}, `layer: unknown layer: "design"`},
		{GateInput{Critique: "fine", Mode: "vibes"}, "mode:"},
		{GateInput{Text: "Critique: fine", Critique: "fine"}, "as text or as its fields, not both"},
		{GateInput{Text: strings.Repeat("a", gating.MaxInputBytes+1)}, "larger than 1048576 bytes"},
		{GateInput{Text: "Critique: \x00binary"}, "control byte 0x00"},
	} {
		msg := fails(t, e.client, "gate", c.in)
		if !strings.Contains(msg, c.want) {
			t.Errorf("gate(%+v): %q, want %q", c.in.Critique+c.in.Text[:min(len(c.in.Text), 20)], msg, c.want)
		}
	}
}

func TestDebateStartStatusAndTranscript(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rounds := 2
	out := ok[StartOutput](t, e.client, "debate_start", StartInput{
		Layer: "spec", Topic: "Idempotency keys", Position: "Use UUIDv7 keys",
		Agents: []string{"attacker=script:critic.json", "defender=@Mcp"}, MaxRounds: &rounds, Timeout: "90s",
	})
	if debate.ValidateID(out.DebateID) != nil || out.PID != 42 {
		t.Errorf("start: %+v", out)
	}
	got := e.starter.got[0]
	if got.Topic != "Idempotency keys" || !slices.Equal(got.Agents, []string{"attacker=script:critic.json", "defender=@Mcp"}) || *got.MaxRounds != 2 || got.MaxTokens != nil || got.Timeout != "90s" {
		t.Errorf("the starter got %+v", got)
	}
	e.starter.err = errors.New("--agent \"defender\": use ROLE=SPEC")
	if msg := fails(t, e.client, "debate_start", StartInput{Layer: "spec", Topic: "t", Agents: []string{"defender"}}); !strings.Contains(msg, "use ROLE=SPEC") {
		t.Errorf("starter error: %q", msg)
	}

	// A real debate, run by a coordinator in this process.
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	e.scriptAgent(t, "Proposer", debate.RoleDefender, holdingDefender)
	s := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	s.Participants[1].Agent = "script:proposer.json"
	o := wait(t, e.runDebate(t, s))
	st := ok[StatusOutput](t, e.client, "debate_status", IDInput{ID: s.ID})
	if st.DebateID != s.ID || st.State != "closed" || st.Verdict != debate.ConsensusReached || st.Action != debate.ActionProceed ||
		st.Round != o.Rounds || st.Tokens != o.Tokens || st.Record != o.Record || st.MaxRounds != 3 || st.Events == 0 {
		t.Errorf("status %+v, outcome %+v", st, o)
	}
	tr := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	if !tr.Intact || tr.Verdict != debate.ConsensusReached || !strings.HasPrefix(tr.Markdown, "# Debate: Idempotency keys") || !strings.Contains(tr.Markdown, "Keys leak the creation time") {
		t.Errorf("transcript %+v", tr)
	}
	// A tampered transcript still shows, saying where it breaks.
	path := filepath.Join(e.root, "debates", s.ID, "transcript.jsonl")
	b := readFile(t, path)
	if err := os.WriteFile(path, []byte(strings.Replace(b, "Keys leak the creation time", "Keys leak the creation date", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if tr := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID}); tr.Intact || tr.BadLine == 0 || !strings.Contains(tr.Markdown, "does not verify") {
		t.Errorf("tampered transcript: intact %v line %d", tr.Intact, tr.BadLine)
	}

	for _, c := range []struct {
		tool, id, want string
	}{
		{"debate_status", "../../etc", "invalid debate id"},
		{"debate_status", "20261130-spec-nothing-here-abcdef", "no debate 20261130-spec-nothing-here-abcdef under "},
		{"debate_status", "2099", "no debate 2099 under "},
		{"transcript_show", "20261130-spec-x-aaaaaa/../..", "invalid debate id"},
		{"transcript_show", "", "transcript_show needs id"},
	} {
		if msg := fails(t, e.client, c.tool, IDInput{ID: c.id}); !strings.Contains(msg, c.want) {
			t.Errorf("%s(%q): %q, want %q", c.tool, c.id, msg, c.want)
		}
	}
}

func TestDebateStartUnavailableWithoutStarter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.cfg.Starter = nil
	if msg := fails(t, e.client, "debate_start", StartInput{Layer: "spec", Topic: "t", Agents: []string{"defender=@X"}}); !strings.Contains(msg, "not available in this server") {
		t.Errorf("%q", msg)
	}
}

func TestSendRecv(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if err := e.tr.Create(ctx, "Bob"); err != nil {
		t.Fatal(err)
	}
	sent := ok[SendOutput](t, e.client, "send", SendInput{From: "Alice", To: "Bob", Text: "hello **Bob**", Type: "note", ReplyTo: "m-1"})
	if sent.ID == "" || sent.Type != "note" || sent.Warning != "not_active" || !strings.Contains(sent.Note, "not registered yet") {
		t.Errorf("send: %+v", sent)
	}
	if msg := fails(t, e.client, "send", SendInput{From: "Alice", To: "Bob", Text: "x", RequireLive: true}); !strings.HasPrefix(msg, "not_active: Bob is not running") {
		t.Errorf("require_live: %q", msg)
	}
	got := ok[RecvOutput](t, e.client, "recv", RecvInput{As: "Bob"})
	if len(got.Messages) != 1 || got.Messages[0]["id"] != sent.ID || got.Messages[0]["text"] != "hello **Bob**" || got.Messages[0]["replyTo"] != "m-1" || got.Messages[0]["from"] != "Alice" {
		t.Fatalf("recv: %+v", got)
	}
	// It was acknowledged: the inbox is empty now.
	if got := ok[RecvOutput](t, e.client, "recv", RecvInput{As: "Bob", WaitSeconds: 0.05}); len(got.Messages) != 0 {
		t.Errorf("recv again: %+v", got)
	}
	for i := range 3 {
		ok[SendOutput](t, e.client, "send", SendInput{From: "Alice", To: "Bob", Text: strings.Repeat("m", i+1)})
	}
	if got := ok[RecvOutput](t, e.client, "recv", RecvInput{As: "Bob", All: true}); len(got.Messages) != 3 || got.Messages[2]["text"] != "mmm" {
		t.Errorf("recv all, in order: %+v", got)
	}

	long := strings.Repeat("x", inbox.MaxNameLen+1)
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"send", SendInput{From: "Alice", To: "Nobody", Text: "x"}, `not_found: no agent "Nobody"`},
		{"send", SendInput{From: "Alice", To: "Bob", Text: " \n"}, "nothing to send"},
		{"send", SendInput{From: "Alice", To: "Bob", Text: "x", Type: "Bad Type"}, "use lower-case letters"},
		{"send", SendInput{From: "Alice", To: "Bob", Text: "x", ReplyTo: strings.Repeat("r", 201)}, "at most 200 characters"},
		{"send", SendInput{From: "Alice", To: "Bob", Text: strings.Repeat("x", inbox.MaxMessageBytes+1)}, "message too large"},
		{"recv", RecvInput{As: "Nobody"}, `not_found: no agent "Nobody"`},
		{"recv", RecvInput{As: "Bob", WaitSeconds: -1}, "wait_seconds must be 0 or more"},
	} {
		if msg := fails(t, e.client, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s(%+v): %q, want %q", c.tool, c.args, msg, c.want)
		}
	}
	// Hostile names are refused with the validator's own message, naming
	// the field as the CLI names the flag.
	for _, name := range []string{"../Bob", "a/b", "a\x00b", long, "Вob", ".hidden", "-dash", "a b"} {
		verr := inbox.ValidateName(name)
		for _, c := range []struct {
			tool, field string
			args        any
		}{
			{"send", "to", SendInput{From: "Alice", To: name, Text: "x"}},
			{"send", "from", SendInput{From: name, To: "Bob", Text: "x"}},
			{"recv", "as", RecvInput{As: name}},
			{"debate_join", "name", JoinInput{Role: "defender", Name: name}},
			{"debate_next_turn", "name", NextTurnInput{Name: name}},
			{"debate_submit_turn", "name", SubmitInput{Name: name, RequestID: "r"}},
			{"debate_leave", "name", NameInput{Name: name}},
		} {
			want := c.field + ": " + verr.Error()
			if msg := fails(t, e.client, c.tool, c.args); msg != want {
				t.Errorf("%s %s=%q: %q, want %q", c.tool, c.field, name, msg, want)
			}
		}
	}
	// Nothing reached the disk under a hostile name.
	entries, _ := os.ReadDir(filepath.Join(e.root, "inbox"))
	for _, en := range entries {
		if en.Name() != "Bob" {
			t.Errorf("unexpected inbox %q", en.Name())
		}
	}
}

func TestResources(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rec := e.file(t, "20261130-spec-idempotency-keys-aaaaaa", "Idempotency keys", debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys")
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	e.scriptAgent(t, "Proposer", debate.RoleDefender, holdingDefender)
	s := session(t, "Cache invalidation", "Invalidate on write", "Critic", "Proposer")
	wait(t, e.runDebate(t, s))

	tmpl, err := e.client.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var templates []string
	for _, rt := range tmpl.ResourceTemplates {
		templates = append(templates, rt.URITemplate)
	}
	if !slices.Equal(templates, []string{"parley://consensus/{name}", "parley://debates/{id}"}) && !slices.Equal(templates, []string{"parley://debates/{id}", "parley://consensus/{name}"}) {
		t.Errorf("templates %v", templates)
	}
	list, err := e.client.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]*mcp.Resource{}
	for _, r := range list.Resources {
		uris[r.URI] = r
	}
	recURI, debURI := ConsensusURI("spec-idempotency-keys"), DebateURI(s.ID)
	if len(uris) != 3 || uris[recURI] == nil || uris[debURI] == nil || uris[recURI].Title != "Idempotency keys" || uris[recURI].MIMEType != "text/markdown" {
		t.Fatalf("resources %v", list.Resources)
	}
	read := func(uri string) string {
		t.Helper()
		r, err := e.client.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(r.Contents) != 1 || r.Contents[0].URI != uri || r.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("read %s: %+v", uri, r.Contents)
		}
		return r.Contents[0].Text
	}
	if got, want := read(recURI), readFile(t, filepath.Join(e.vault, filepath.FromSlash(rec))); got != want {
		t.Errorf("record resource:\n%s\nwant the file:\n%s", got, want)
	}
	if got := read(debURI); !strings.HasPrefix(got, "# Debate: Cache invalidation") || !strings.Contains(got, "CONSENSUS_REACHED") {
		t.Errorf("debate resource: %s", got)
	}
	// A record filed later is listed at the next list; the resource is the
	// template's too, read without listing.
	e.file(t, "20261130-plan-rollout-order-bbbbbb", "Rollout order", debate.LayerPlan, debate.Deadlock, "Roll out by region")
	if got := read(ConsensusURI("plan-rollout-order")); !strings.Contains(got, `verdict: "DEADLOCK"`) {
		t.Errorf("unlisted record: %s", got)
	}
	if list, _ := e.client.ListResources(ctx, nil); len(list.Resources) != 4 {
		t.Errorf("after filing: %d resources", len(list.Resources))
	}
	for _, uri := range []string{
		ConsensusURI("spec-nothing"), ConsensusURI("../../etc/passwd"), ConsensusURI("..%2Fx"), ConsensusURI("spec-idempotency-keys.md"),
		DebateURI("20261130-spec-nothing-here-abcdef"), DebateURI("../x"), "parley://other/x", "file:///etc/passwd",
	} {
		if _, err := e.client.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: no error", uri)
		}
	}
}

func TestParseURI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		uri, kind, name string
	}{
		{"parley://consensus/spec-x", "consensus", "spec-x"},
		{"parley://consensus/spec-x-2", "consensus", "spec-x-2"},
		{"parley://debates/20261130-spec-x-abcdef", "debates", "20261130-spec-x-abcdef"},
		{"parley://consensus/", "", ""},
		{"parley://consensus/a/b", "", ""},
		{"parley://consensus/..", "", ""},
		{"parley://consensus/.hidden", "", ""},
		{"parley://consensus/x.md", "", ""},
		{"parley://debates/../../x", "", ""},
		{"https://consensus/x", "", ""},
	} {
		kind, name, err := ParseURI(c.uri)
		if kind != c.kind || name != c.name || (err == nil) != (c.kind != "") {
			t.Errorf("ParseURI(%q) = %q %q %v", c.uri, kind, name, err)
		}
		if err != nil && !errors.Is(err, ErrInvalidInput) {
			t.Errorf("ParseURI(%q): %v is not ErrInvalidInput", c.uri, err)
		}
	}
}

func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"parley://consensus/spec-x", "parley://debates/20261130-spec-x-abcdef", "parley://consensus/../x", "parley://debates/", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		kind, name, err := ParseURI(uri)
		if err != nil {
			return
		}
		if name == "" || strings.ContainsAny(name, "/\\\x00") || strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
			t.Fatalf("ParseURI(%q) accepted %q %q", uri, kind, name)
		}
		if kind == "debates" && debate.ValidateID(name) != nil {
			t.Fatalf("ParseURI(%q) accepted an invalid id %q", uri, name)
		}
	})
}

// mustJSON is v as JSON, for messages.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestWaitArg(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		seconds float64
		want    time.Duration
		bad     bool
	}{
		{0, 0, false},
		{0.25, 250 * time.Millisecond, false},
		{30, MaxWait, false},
		{31, MaxWait, false},
		// Past what a time.Duration holds: cut, not overflowed into a
		// negative wait.
		{1e300, MaxWait, false},
		{math.Inf(1), MaxWait, false},
		{-1, 0, true},
		{math.Inf(-1), 0, true},
		{math.NaN(), 0, true},
	} {
		got, err := waitArg(c.seconds)
		if c.bad {
			if !errors.Is(err, ErrInvalidInput) {
				t.Errorf("waitArg(%v): %v, %v, want an invalid-input error", c.seconds, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("waitArg(%v) = %v, %v, want %v", c.seconds, got, err, c.want)
		}
	}
}

// The gate tool answers as "parley gate --json" does: with the short id
// its decision is logged under in gate.jsonl, which "parley gate label
// --decision ID" takes.
func TestGateToolReturnsTheLoggedID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := ok[GateOutput](t, e.client, "gate", GateInput{Critique: "I am not sure the retry logic is right; maybe it double-charges.", FinalConfidence: "80%"})
	f, err := os.Open(filepath.Join(e.root, gating.LogName))
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := gating.ReadLog(f)
	f.Close()
	if err != nil || len(entries) != 1 {
		t.Fatalf("gate.jsonl: %v, %d entries", err, len(entries))
	}
	if d.ID == "" || d.ID != entries[0].ID || d.Outcome != entries[0].Outcome {
		t.Errorf("the tool said id %q (%s), gate.jsonl logged %q (%s)", d.ID, d.Outcome, entries[0].ID, entries[0].Outcome)
	}
}

// consensus_check's description is all an agent reads before it acts on a
// status: it names every status the check returns, and says "do not" of
// each one on which "parley consensus check" exits 3.
func TestConsensusCheckDescriptionNamesEveryStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tools, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, tool := range tools.Tools {
		if tool.Name == "consensus_check" {
			desc = tool.Description
		}
	}
	for _, st := range []consensus.CheckStatus{
		consensus.CheckConsistent, consensus.CheckConflict, consensus.CheckUnclear, consensus.CheckOpen, consensus.CheckNone, consensus.CheckTampered,
	} {
		i := strings.Index(desc, string(st)+":")
		if i < 0 {
			t.Errorf("the description does not say what %q means: %s", st, desc)
			continue
		}
		clause, _, _ := strings.Cut(desc[i:], ";")
		if blocks := (&app.CheckResult{Status: st}).Blocks(false); blocks != strings.Contains(clause, "do not") {
			t.Errorf("%q blocks %v, the description says %q", st, blocks, clause)
		}
	}
}

// A message file of the inbox that cannot be read is set aside, and recv
// names it in set_aside rather than answering an empty inbox as if
// nothing had come; the messages after it are returned.
func TestRecvNamesWhatItSetAside(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.tr.Create(context.Background(), "Bob"); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%013d-000000-dead.json", time.Now().Add(-time.Hour).UnixMilli())
	p := filepath.Join(e.root, "inbox", "Bob", name)
	if err := os.WriteFile(p, []byte(`{"id":"x","from":`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	ok[SendOutput](t, e.client, "send", SendInput{From: "Alice", To: "Bob", Text: "fine"})
	got := ok[RecvOutput](t, e.client, "recv", RecvInput{As: "Bob", All: true})
	bad := filepath.Join(e.root, "inbox", "Bob", "bad", name)
	if len(got.Messages) != 1 || got.Messages[0]["text"] != "fine" || len(got.SetAside) != 1 ||
		!strings.Contains(got.SetAside[0], "could not be read and was set aside in "+bad+": malformed message") {
		t.Fatalf("recv: %+v; want the message and the file set aside in %s", got, bad)
	}
}

// The gate tool's description names the command that labels a decision
// as one to run on the server's root, and never as "--debate|--skip",
// which a shell runs as "--debate" piped into a command "--skip": the
// decision labelled debate whichever was meant.
func TestGateDescriptionNamesARunnableLabelCommand(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *Config) {
		c.CommandLine = func(args ...string) string { return "parley --root /r " + strings.Join(args, " ") }
	})
	tools, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "gate" {
			continue
		}
		if d := tool.Description; !strings.Contains(d, "parley --root /r gate label --decision ID --debate (or --skip)") || strings.Contains(d, "|") {
			t.Errorf("gate's description: %q", d)
		}
		return
	}
	t.Fatal("no gate tool")
}
