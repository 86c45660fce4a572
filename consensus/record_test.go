package consensus

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	goyaml "github.com/goccy/go-yaml"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// frontmatterOf splits a record and parses its frontmatter with goccy/go-yaml,
// a YAML parser independent of the yaml.v3 that vault reads with.
func frontmatterOf(t *testing.T, page string) (map[string]any, string) {
	t.Helper()
	if !strings.HasPrefix(page, "---\n") {
		t.Fatalf("no frontmatter:\n%s", page)
	}
	end := strings.Index(page[4:], "\n---\n")
	if end < 0 {
		t.Fatalf("unclosed frontmatter:\n%s", page)
	}
	var m map[string]any
	if err := goyaml.Unmarshal([]byte(page[4:4+end+1]), &m); err != nil {
		t.Fatalf("goccy/go-yaml: %v\n%s", err, page)
	}
	return m, page[4+end+5:]
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// headings returns the "#" and "##" headings of a body, in order.
func headings(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ") {
			out = append(out, line)
		}
	}
	return out
}

func TestFileEachVerdict(t *testing.T) {
	t.Parallel()
	base := []string{"# Idempotency key design", "## Final Position", "## Key Rounds Summary", "## Evidence References", "## Rationale"}
	for _, tc := range []struct {
		name     string
		verdict  debate.Verdict
		agreed   bool
		action   string
		final    string
		extra    []string
		rows     []string
		contains []string
	}{
		{
			name: "consensus", verdict: debate.ConsensusReached, action: "proceed", final: defPos,
			rows: []string{
				"| 1 | GoldFalcon: Derive the key from a hash of the request body instead | SwiftRaven: Use a client-supplied Idempotency-Key header, stored for 24 hours | 1 new counter(s); defender states its position |",
				"| 2 | GoldFalcon: _no further objections_ | — | attackers concede |",
			},
			contains: []string{
				"> " + defPos,
				"- [[idempotency-notes]] — ok (wiki; cited by SwiftRaven, round 1)",
				"- ` [[no-such-page]] ` — missing (wiki; cited by SwiftRaven, round 1)",
				"- ` api/handler.go:10-20 ` — ok (range; cited by GoldFalcon, round 1)",
				"- `` https://example.com/rfc?a=1&b=`x` `` — unchecked (url; cited by GoldFalcon, round 1)",
				"GoldFalcon had no further objections in round 2.",
				"closed by the rule `conceded` after 2 round(s), 300 token(s)",
			},
		},
		{
			name: "deadlock", verdict: debate.Deadlock, action: "escalate",
			extra: []string{"## Positions", "## Deadlock Analysis"},
			rows: []string{
				"| 2 | GoldFalcon: Derive the key from a hash of the request body instead | SwiftRaven: Use a client-supplied Idempotency-Key header, stored for 24 hours | 1 repeated counter(s); defender holds |",
			},
			contains: []string{
				"_No position was agreed._",
				"### Defender: SwiftRaven\n\n> " + defPos,
				"### Attacker: GoldFalcon\n\n> " + attPos,
				"- GoldFalcon repeated in round 2 the counter first made in round 1: " + attPos,
				"escalated to a person",
			},
		},
		{
			name: "budget agreed", verdict: debate.BudgetExhausted, agreed: true, action: "proceed", final: "Keys expire after one hour",
			extra: []string{"## Last Positions", "## Exhaustion Analysis"},
			rows:  []string{"| 3 | GoldFalcon: Keys expire after one hour | SwiftRaven: Keys expire after one hour | 1 new counter(s); defender adopts GoldFalcon's position |"},
			contains: []string{
				"The round budget ran out: 3 of 3 round(s) complete, 600 of 6000 token(s) spent.",
				"Every participant asserted the same position in round 3; that last agreed position stands",
			},
		},
		{
			name: "budget not agreed", verdict: debate.BudgetExhausted, action: "escalate",
			extra:    []string{"## Last Positions", "## Exhaustion Analysis"},
			contains: []string{"_No position was agreed._", "No position was asserted by every participant in the same round"},
		},
		{
			name: "timeout", verdict: debate.Timeout, action: "escalate",
			extra: []string{"## Last Positions", "## Partial Transcript"},
			rows:  []string{"| 1 | GoldFalcon: Derive the key from a hash of the request body instead | SwiftRaven: _forfeited (deadline)_ | 1 new counter(s); SwiftRaven forfeits (deadline) |"},
			contains: []string{
				"This transcript is partial: it holds the 1 turn(s) recorded before the stop.",
				"- round 1, attacker GoldFalcon: " + attPos,
				"- round 1, defender SwiftRaven: _forfeited (deadline: no reply in 30 s)_",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			id := "20261130-spec-idempotency-key-design-abcdef"
			e.page(t, "wiki/debates/"+id+".md", "---\ntype: debate\n---\n# transcript\n")
			e.page(t, "wiki/concepts/idempotency-notes.md", "# notes\n")
			o := outcome(id, "Idempotency key design", debate.LayerSpec, tc.verdict, tc.agreed)
			p := e.file(t, o)
			if p != "wiki/consensus/spec-idempotency-key-design.md" {
				t.Fatalf("path %q", p)
			}
			page := e.read(t, p)
			fm, body := frontmatterOf(t, page)

			keys := []string{"type", "layer", "verdict", "date", "participants", "topic", "related", "status", "created", "updated", "tags",
				"debate_id", "debate_started", "action", "final_position", "final_position_hash", "supersedes", "superseded_by"}
			order := regexp.MustCompile(`(?m)^([a-z_]+):`).FindAllStringSubmatch(page[:strings.Index(page[4:], "\n---\n")+4], -1)
			var got []string
			for _, m := range order {
				got = append(got, m[1])
			}
			if !slices.Equal(got, keys) {
				t.Errorf("keys %v\nwant %v", got, keys)
			}
			want := map[string]any{
				"type": "consensus", "layer": "spec", "verdict": string(tc.verdict), "topic": "Idempotency key design",
				"status": "active", "debate_id": id, "action": tc.action, "supersedes": nil, "superseded_by": nil,
			}
			for k, v := range want {
				if fm[k] != v {
					t.Errorf("%s = %#v, want %#v", k, fm[k], v)
				}
			}
			if d := fm["date"]; d != "2026-11-30" {
				t.Errorf("date %#v", d)
			}
			if got := strs(fm["participants"]); !slices.Equal(got, []string{"SwiftRaven", "GoldFalcon"}) {
				t.Errorf("participants %v", got)
			}
			if got := strs(fm["related"]); !slices.Equal(got, []string{"[[" + id + "]]"}) {
				t.Errorf("related %v", got)
			}
			if got := strs(fm["tags"]); !slices.Equal(got, []string{"consensus", "spec"}) {
				t.Errorf("tags %v", got)
			}
			if fm["created"] != "2026-11-30T09:01:00.000Z" || fm["updated"] != "2026-11-30T09:01:00.000Z" {
				t.Errorf("created %v updated %v", fm["created"], fm["updated"])
			}
			if tc.final != "" {
				if fm["final_position"] != tc.final || fm["final_position_hash"] != debate.PositionHash(tc.final) {
					t.Errorf("final %v %v", fm["final_position"], fm["final_position_hash"])
				}
			} else if fm["final_position"] != nil || fm["final_position_hash"] != nil {
				t.Errorf("a %s record binds %v", tc.name, fm["final_position"])
			}

			if got, want := headings(body), append(slices.Clone(base), tc.extra...); !slices.Equal(got, want) {
				t.Errorf("sections %q\nwant %q", got, want)
			}
			if tc.rows != nil && !strings.Contains(body, "| Round | Attacker | Defender | Outcome |\n|-------|----------|----------|---------|\n") {
				t.Errorf("no rounds table:\n%s", body)
			}
			for _, s := range append(tc.rows, tc.contains...) {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %q:\n%s", s, body)
				}
			}

			// Every wikilink of the record and of the index page resolves.
			for _, path := range []string{p, "wiki/consensus/" + IndexName} {
				pg, err := e.v.ReadPage(path)
				if err != nil {
					t.Fatal(err)
				}
				links := pg.Links()
				if len(links) == 0 {
					t.Errorf("%s has no wikilinks", path)
				}
				for _, l := range links {
					if _, err := e.v.Resolve(l.Target); err != nil {
						t.Errorf("%s: %s does not resolve: %v", path, l, err)
					}
				}
			}

			// The Store reads back what it wrote.
			r, _, err := e.s.Record(context.Background(), "spec-idempotency-key-design")
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict || string(r.Action) != tc.action || r.FinalPosition != tc.final || r.Slug != "idempotency-key-design" ||
				r.Binding() != (tc.final != "") || r.DebateID != id || r.Status != StatusActive {
				t.Errorf("read back %+v", r)
			}
		})
	}
}

func TestIndexPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.file(t, outcome("20261130-spec-idempotency-abcdef", "Idempotency | key [design]", debate.LayerSpec, debate.ConsensusReached, false))
	e.file(t, outcome("20261130-plan-rollout-abcdef", "Rollout plan", debate.LayerPlan, debate.Deadlock, false))
	page := e.read(t, "wiki/consensus/"+IndexName)
	fm, body := frontmatterOf(t, page)
	if fm["type"] != "index" || fm["title"] != "Consensus Records" {
		t.Errorf("index frontmatter %v", fm)
	}
	for _, row := range []string{
		"| 2026-11-30 | plan | [[plan-rollout-plan\\|Rollout plan]] | DEADLOCK | active |",
		"| 2026-11-30 | spec | [[spec-idempotency-key-design\\|Idempotency / key (design)]] | CONSENSUS_REACHED | active |",
	} {
		if !strings.Contains(body, row) {
			t.Errorf("index lacks %q:\n%s", row, body)
		}
	}
	if strings.Index(body, "plan-rollout") > strings.Index(body, "spec-idempotency") {
		t.Error("index is not newest first")
	}
	pg, err := e.v.ReadPage("wiki/consensus/" + IndexName)
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for _, l := range pg.Links() {
		targets = append(targets, l.Target+"|"+l.Alias)
	}
	if !slices.Equal(targets, []string{"plan-rollout-plan|Rollout plan", "spec-idempotency-key-design|Idempotency / key (design)"}) {
		t.Errorf("index links %v", targets)
	}
	// The index page is not a record.
	recs, err := e.s.Records(context.Background(), Filter{})
	if err != nil || len(recs) != 2 {
		t.Errorf("records %v %v", recs, err)
	}
}

func TestHostileTopicsReadBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i, topic := range []string{
		"Quote \"this\": a colon, a # hash",
		"line one\nline two\n---\nnot: yaml",
		"--- leading dashes",
		"Ünïcödé тема 東京 🦜",
		"<script>alert(1)</script> | pipes | [[link]] `code` *em*",
		"no",
		"tab\there \x1b[31mred\u009b1m\rcr \u2028ls\u0085nel \ufeffbom \x00nul",
	} {
		id := "20261130-verify-hostile-abcde" + string(rune('a'+i))
		o := outcome(id, topic, debate.LayerVerify, debate.ConsensusReached, false)
		if strings.ContainsFunc(topic, unicode.IsControl) {
			o.Turns[0].Evidence = append(o.Turns[0].Evidence, debate.EvidenceCheck{Ref: topic, Kind: "file", Status: debate.EvidenceMissing, Detail: topic})
		}
		p := e.file(t, o)
		fm, body := frontmatterOf(t, e.read(t, p))
		if fm["topic"] != topic {
			t.Errorf("topic %q read back as %q", topic, fm["topic"])
		}
		r, _, err := e.s.Record(context.Background(), id)
		if err != nil || r.Topic != strings.TrimSpace(topic) {
			t.Errorf("%q: record %+v %v", topic, r, err)
		}
		title := strings.SplitN(body, "\n", 2)[0]
		if strings.Count(title, "\n") != 0 || !strings.HasPrefix(title, "# ") {
			t.Errorf("title %q", title)
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, "[[link]]") {
			t.Errorf("%q: raw syntax reached the body:\n%s", topic, body)
		}
		for _, r := range body {
			if r != '\n' && unicode.IsControl(r) {
				t.Errorf("%q: control %U in the body", topic, r)
			}
		}
	}
	pg, err := e.v.ReadPage("wiki/consensus/" + IndexName)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range pg.Links() {
		if _, err := e.v.Resolve(l.Target); err != nil {
			t.Errorf("index link %s: %v", l, err)
		}
	}
}

func TestRenderedRecordIsSafeHTML(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := outcome("20261130-spec-html-abcdef", "<img src=x onerror=alert(1)>", debate.LayerSpec, debate.ConsensusReached, false)
	o.FinalPosition = "<script>steal()</script> & [click](javascript:alert(1))"
	o.Turns[0].Evidence = append(o.Turns[0].Evidence, debate.EvidenceCheck{Ref: "docs/x.md", Kind: "file", Status: debate.EvidenceMissing, Detail: "<b>no</b> such | file_name"})
	p := e.file(t, o)
	pg, err := e.v.ReadPage(p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := vault.Render(&b, pg.Body, e.v.Resolver(func(p, h string) string { return "/" + p })); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<img", `href="javascript`} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("rendered record contains %q", bad)
		}
	}
	if !strings.Contains(b.String(), "&lt;script&gt;steal()&lt;/script&gt; &amp; [click](javascript:alert(1))") {
		t.Errorf("position text lost:\n%s", b.String())
	}
	// An evidence check's detail reads as written: escaped once, not twice.
	if !strings.Contains(b.String(), "missing: &lt;b&gt;no&lt;/b&gt; such | file_name (file;") {
		t.Errorf("evidence detail not shown as written:\n%s", b.String())
	}
}
