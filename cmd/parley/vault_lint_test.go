package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
)

// vault lint reports each kind of finding, exits 3 while anything is
// found, and 0 once the vault is clean.
func TestVaultLint(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	ws := t.TempDir()
	src := filepath.Join(ws, "api", "handler.go")
	if err := os.MkdirAll(filepath.Dir(src), 0o700); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, "line "+string(rune('a'+i%26)))
	}
	writeSrc := func(ls []string) {
		if err := os.WriteFile(src, []byte(strings.Join(ls, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeSrc(lines)
	f, _ := os.Open(src)
	hash, err := debate.HashLines(f, 10, 20)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cited := consensustest.Outcome("20261130-spec-cache-aaaaaa", "Cache lifetime for product pages", debate.LayerSpec, debate.ConsensusReached,
		"Cache product pages for 10 minutes", "Cache product pages for an hour", false)
	cited.Turns[1].Evidence = []debate.EvidenceCheck{{Ref: "api/handler.go:10-20", Kind: "range", Status: debate.EvidenceOK, Hash: hash}}
	other := consensustest.Outcome("20261130-spec-cachettl-bbbbbb", "How long are product pages cached?", debate.LayerSpec, debate.ConsensusReached,
		"Cache product pages for 30 minutes", "Do not cache product pages", false)
	c.fileDebates(t, cited, other)

	lint := func() ([]app.LintFinding, int) {
		out, errOut, code := c.run(t, "--json", "vault", "lint", "--workspace", ws)
		var found []app.LintFinding
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			var f app.LintFinding
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Fatalf("%v: %q (%s)", err, line, errOut)
			}
			found = append(found, f)
		}
		return found, code
	}
	kinds := func(found []app.LintFinding) map[string][]app.LintFinding {
		m := map[string][]app.LintFinding{}
		for _, f := range found {
			m[f.Kind] = append(m[f.Kind], f)
		}
		return m
	}

	found, code := lint()
	k := kinds(found)
	if code != cmdutil.ExitBlocked {
		t.Errorf("exit %d with findings %+v", code, found)
	}
	// The two records answer one question with 10 and 30 minutes.
	if cs := k["contradiction"]; len(cs) != 1 || cs[0].Page != "wiki/consensus/spec-cache-lifetime-for-product-pages.md" ||
		cs[0].Other != "wiki/consensus/spec-how-long-are-product-pages-cached.md" || len(cs[0].Differences) != 1 || cs[0].Differences[0] != "10 minutes → 30 minutes" {
		t.Errorf("contradictions %+v", cs)
	}
	// No debate pages exist (filed without transcripts' pages): each record
	// links to its debate, which is missing.
	if bl := k["broken_link"]; len(bl) != 2 || !hasLink(bl, "wiki/consensus/spec-cache-lifetime-for-product-pages.md", "[[20261130-spec-cache-aaaaaa]]") {
		t.Errorf("broken links %+v", bl)
	}
	if len(k["stale"]) != 0 || len(k["orphan"]) != 0 {
		t.Errorf("stale or orphan before any change: %+v", found)
	}

	// A hand-written note nobody links to is an orphan; a link to nowhere
	// in it is broken.
	note := filepath.Join(c.vault, "wiki", "notes", "caching.md")
	os.MkdirAll(filepath.Dir(note), 0o700)
	os.WriteFile(note, []byte("# Caching\n\nSee [[no-such-note]] and [[spec-cache-lifetime-for-product-pages]].\n"), 0o600)
	k = kinds(mustLint(t, lint))
	if o := k["orphan"]; len(o) != 1 || o[0].Page != "wiki/notes/caching.md" {
		t.Errorf("orphans %+v", o)
	}
	if !hasLink(k["broken_link"], "wiki/notes/caching.md", "[[no-such-note]]") {
		t.Errorf("broken link of the note missing: %+v", k["broken_link"])
	}

	// The cited lines change: the record is stale. Lines outside the
	// range do not matter.
	lines[0] = "changed outside the range"
	writeSrc(lines)
	if st := kinds(mustLint(t, lint))["stale"]; len(st) != 0 {
		t.Errorf("a change outside the cited lines made the record stale: %+v", st)
	}
	lines[14] = "changed inside the range"
	writeSrc(lines)
	st := kinds(mustLint(t, lint))["stale"]
	if len(st) != 1 || st[0].Page != "wiki/consensus/spec-cache-lifetime-for-product-pages.md" || st[0].Ref != "api/handler.go:10-20" || !strings.Contains(st[0].Problem, "changed") {
		t.Errorf("stale after a change %+v", st)
	}
	writeSrc(lines[:12])
	if st := kinds(mustLint(t, lint))["stale"]; len(st) != 1 || !strings.Contains(st[0].Problem, "gone") {
		t.Errorf("stale after truncation %+v", st)
	}
	os.Remove(src)
	if st := kinds(mustLint(t, lint))["stale"]; len(st) != 1 || st[0].Problem != "the file is gone" {
		t.Errorf("stale after removal %+v", st)
	}

	// Human output names every finding, one line each.
	out, errOut, code := c.run(t, "vault", "lint", "--workspace", ws)
	for _, want := range []string{"contradiction wiki/consensus/spec-cache-lifetime-for-product-pages.md", "orphan", "stale", "broken_link"} {
		if !strings.Contains(out, want) {
			t.Errorf("human output lacks %q:\n%s", want, out)
		}
	}
	if code != cmdutil.ExitBlocked || !strings.Contains(errOut, "finding(s)") {
		t.Errorf("human: exit %d %s", code, errOut)
	}
}

// A clean vault exits 0.
func TestVaultLintClean(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	if _, errOut, code := c.run(t, "init"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	out, errOut, code := c.run(t, "vault", "lint", "--workspace", t.TempDir())
	if code != 0 || !strings.Contains(out, "nothing found") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func mustLint(t *testing.T, lint func() ([]app.LintFinding, int)) []app.LintFinding {
	t.Helper()
	found, code := lint()
	if len(found) > 0 && code != cmdutil.ExitBlocked {
		t.Fatalf("findings with exit %d", code)
	}
	return found
}

func hasLink(fs []app.LintFinding, page, link string) bool {
	for _, f := range fs {
		if f.Page == page && f.Link == link {
			return true
		}
	}
	return false
}

// Two records of one question that both still say active (an Obsidian
// "duplicate" of a record, edited) contradict each other, though only one
// of them is the question's current record.
func TestVaultLintSameQuestionTwice(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	c.fileDebates(t, consensustest.Outcome("20261130-spec-session-cccccc", "Session timeout", debate.LayerSpec, debate.ConsensusReached,
		"Expire idle sessions after 30 minutes", "Never expire sessions", false))
	dir := filepath.Join(c.vault, "wiki", "consensus")
	data, err := os.ReadFile(filepath.Join(dir, "spec-session-timeout.md"))
	if err != nil {
		t.Fatal(err)
	}
	copied := strings.ReplaceAll(string(data), "30 minutes", "90 minutes")
	if err := os.WriteFile(filepath.Join(dir, "spec-session-timeout 1.md"), []byte(copied), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.run(t, "--json", "vault", "lint", "--workspace", t.TempDir())
	var found []app.LintFinding
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var f app.LintFinding
		if json.Unmarshal([]byte(line), &f) == nil && f.Kind == "contradiction" {
			found = append(found, f)
		}
	}
	if code != cmdutil.ExitBlocked || len(found) != 1 || len(found[0].Differences) != 1 || !strings.Contains(found[0].Differences[0], "30 minutes") || !strings.Contains(found[0].Differences[0], "90 minutes") {
		t.Errorf("exit %d, contradictions %+v\n%s%s", code, found, out, errOut)
	}
}

// A record whose frontmatter cannot be edited in place (an anchor on its
// status that another key aliases) does not stop the filing that
// supersedes it, nor any later one: the new record is the question's
// answer, the old page keeps its words, and vault lint says what to fix.
func TestFilingGoesOnPastARecordItCannotEdit(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	c.fileDebates(t, consensustest.Outcome("20261130-spec-ttl-dddddd", "Cache TTL", debate.LayerSpec, debate.ConsensusReached,
		"Cache entries expire after 300 seconds", "Never expire", false))
	old := filepath.Join(c.vault, "wiki", "consensus", "spec-cache-ttl.md")
	data, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "status: \"active\"\n", "status: &st \"active\"\nmirror: *st\n", 1)
	if edited == string(data) {
		t.Fatalf("no status line in\n%s", data)
	}
	if err := os.WriteFile(old, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	c.fileDebates(t,
		consensustest.Outcome("20261201-spec-ttl-eeeeee", "Cache TTL", debate.LayerSpec, debate.ConsensusReached,
			"Cache entries expire after 900 seconds", "Never expire", false),
		consensustest.Outcome("20261201-spec-buttons-ffffff", "Button colour", debate.LayerSpec, debate.ConsensusReached,
			"Primary buttons are blue", "Primary buttons are green", false))
	if now, _ := os.ReadFile(old); string(now) != edited {
		t.Errorf("the page parley could not edit changed:\n%s", now)
	}
	out, _, code := c.run(t, "consensus", "check", "--layer", "spec", "--topic", "Cache TTL", "--position", "Cache entries expire after 900 seconds")
	if code != 0 || !strings.Contains(out, "spec-cache-ttl-2") {
		t.Errorf("check answered from the old record: exit %d\n%s", code, out)
	}
	out, _, code = c.run(t, "--json", "vault", "lint", "--workspace", t.TempDir())
	var unsup []app.LintFinding
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var f app.LintFinding
		if json.Unmarshal([]byte(line), &f) == nil && f.Kind == app.LintUnsuperseded {
			unsup = append(unsup, f)
		}
	}
	if code != cmdutil.ExitBlocked || len(unsup) != 1 || unsup[0].Page != "wiki/consensus/spec-cache-ttl.md" ||
		unsup[0].Other != "wiki/consensus/spec-cache-ttl-2.md" || !strings.Contains(unsup[0].Problem, "by hand") {
		t.Errorf("exit %d, unsuperseded %+v\n%s", code, unsup, out)
	}
	// Without --json the line says what to set by hand too.
	out, _, code = c.run(t, "vault", "lint", "--workspace", t.TempDir())
	if code != cmdutil.ExitBlocked || !strings.Contains(out, "unsuperseded") || !strings.Contains(out, "set status: superseded") {
		t.Errorf("text lint: exit %d\n%s", code, out)
	}
}

// Filing a filed debate again (consensus file --from-debate, a filing
// finished after a crash) leaves the record as it stands: a person's
// keys and notes stay, byte for byte; a record that is gone is written
// again.
func TestFilingAgainKeepsAPersonsWords(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	o := consensustest.Outcome("20261130-spec-logs-gggggg", "Log retention", debate.LayerSpec, debate.ConsensusReached,
		"Keep logs for 30 days", "Keep logs forever", false)
	c.fileDebates(t, o)
	rec := filepath.Join(c.vault, "wiki", "consensus", "spec-log-retention.md")
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(string(data), "\ntopic: ", "\naliases: [\"old retention rule\"]\ntopic: ", 1) + "\n## Why we chose it\nLegal asked (LEG-12).\n"
	if err := os.WriteFile(rec, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	fileAgain := func() {
		t.Helper()
		if out, errOut, code := c.run(t, "consensus", "file", "--from-debate", o.DebateID); code != 0 {
			t.Fatalf("file again: exit %d\n%s%s", code, out, errOut)
		}
	}
	fileAgain()
	if now, _ := os.ReadFile(rec); string(now) != mine {
		t.Errorf("filing again rewrote the record:\n%s", now)
	}
	os.Remove(rec)
	fileAgain()
	if now, err := os.ReadFile(rec); err != nil || !strings.Contains(string(now), "Keep logs for 30 days") {
		t.Errorf("a record that was gone was not written again: %v", err)
	}
}

// A vault whose debates ran in different workspaces (the demo's spec
// debate and its escalated one) lints clean: each record's cited lines
// are read in its own debate's workspace, as session.json records it,
// unless --workspace names one for all. A line changed there is stale.
func TestVaultLintReadsEachDebatesWorkspace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	var ws []string
	for i, topic := range []string{"Idempotency keys", "Session tokens"} {
		w := filepath.Join(dir, fmt.Sprintf("ws%d", i))
		if err := os.MkdirAll(w, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w, "notes.md"), []byte(fmt.Sprintf("workspace %d\n", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
		if _, errs, code := dcli(t, root, "debate", "run", "--layer", "spec", "--topic", topic, "--position", "Use UUIDv7 keys",
			"--workspace", w, "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"]); code != 0 {
			t.Fatalf("debate run: exit %d %s", code, errs)
		}
	}
	if out, errs, code := dcli(t, root, "vault", "lint"); code != 0 {
		t.Errorf("a clean vault of two workspaces: exit %d\n%s%s", code, out, errs)
	}
	if err := os.WriteFile(filepath.Join(ws[1], "notes.md"), []byte("changed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := dcli(t, root, "vault", "lint")
	if code != cmdutil.ExitBlocked || strings.Count(out, "\n") != 1 || !strings.Contains(out, "stale") || !strings.Contains(out, "spec-session-tokens.md") {
		t.Errorf("a cited line changed: exit %d\n%s", code, out)
	}
	// --workspace reads every record's lines there.
	if out, _, code := dcli(t, root, "vault", "lint", "--workspace", ws[0]); code != cmdutil.ExitBlocked || !strings.Contains(out, "spec-session-tokens.md") || strings.Contains(out, "spec-idempotency-keys.md") {
		t.Errorf("--workspace: exit %d\n%s", code, out)
	}
}
