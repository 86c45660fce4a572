package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// twoDebates runs a conceded spec debate (with checked evidence) and a
// deadlocked verify debate under a new root, through the CLI, and returns
// the root and the two ids.
func twoDebates(t *testing.T) (root, conceded, deadlocked string) {
	t.Helper()
	dir := t.TempDir()
	root = filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender, "repeater": repeatingCritic, "stubborn": stubbornDefense})
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("one line\n"), 0o600)
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
		"--workspace", dir, "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if code != 0 {
		t.Fatalf("debate run: exit %d %s", code, errs)
	}
	objs := lines(t, out)
	conceded = objs[len(objs)-1]["debate_id"].(string)
	out, _, code = dcli(t, root, "--json", "debate", "run", "--layer", "verify", "--topic", "Keys again", "--position", "Use UUIDv7 keys",
		"--agent", "attacker=script:"+s["repeater"], "--agent", "defender=script:"+s["stubborn"])
	if code != cmdutil.ExitBlocked {
		t.Fatalf("deadlock: exit %d", code)
	}
	objs = lines(t, out)
	deadlocked = objs[len(objs)-1]["debate_id"].(string)
	return root, conceded, deadlocked
}

// On a root with no debate yet, "transcripts list" (no filter) says so,
// and how to start one, as "debate list" does: not that none "match".
func TestTranscriptsListOnANewRoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "init")
	for _, cmd := range [][]string{{"transcripts", "list"}, {"debate", "list"}} {
		out, errs, code := cli(t, root, "", cmd...)
		want := "no debates yet under " + root + " (start one with parley --root " + root + " debate run)\n"
		if code != cmdutil.ExitOK || errs != "" || out != want {
			t.Errorf("%v on a new root: exit %d, stdout %q, stderr %q; want %q", cmd, code, out, errs, want)
		}
	}
}

func TestTranscriptsList(t *testing.T) {
	t.Parallel()
	root, conceded, deadlocked := twoDebates(t)
	out, errs, code := dcli(t, root, "transcripts", "list")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d %s", code, errs)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 2 { // no header row in a pipe (TestHeaderRowsOnATerminal: one on a terminal)
		t.Fatalf("list:\n%s", out)
	}
	row := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\s+spec\s+CONSENSUS_REACHED\s+2\s+250\s+verified\s+` + conceded + `\s+Idempotency keys$`)
	if !row.MatchString(rows[0]) && !row.MatchString(rows[1]) {
		t.Errorf("no row for the conceded debate:\n%s", out)
	}

	out, _, _ = dcli(t, root, "--json", "transcripts", "list")
	objs := lines(t, out)
	if len(objs) != 2 {
		t.Fatalf("--json: %s", out)
	}
	for _, o := range objs {
		for _, k := range []string{"debate_id", "created", "layer", "topic", "verdict", "rounds", "tokens", "state"} {
			if _, ok := o[k]; !ok {
				t.Errorf("--json line lacks %q: %v", k, o)
			}
		}
	}

	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"layer":         {[]string{"--layer", "verify"}, []string{deadlocked}},
		"verdict":       {[]string{"--verdict", "consensus_reached"}, []string{conceded}},
		"both":          {[]string{"--layer", "spec", "--verdict", "DEADLOCK"}, nil},
		"since an age":  {[]string{"--since", "1h"}, []string{conceded, deadlocked}},
		"since a date":  {[]string{"--since", "2099-01-01"}, nil},
		"since RFC3339": {[]string{"--since", "2000-01-01T00:00:00Z"}, []string{conceded, deadlocked}},
	} {
		out, errs, code := dcli(t, root, append([]string{"--json", "transcripts", "list"}, tc.args...)...)
		if code != 0 {
			t.Errorf("%s: exit %d %s", name, code, errs)
			continue
		}
		var got []string
		if strings.TrimSpace(out) != "" {
			for _, o := range lines(t, out) {
				got = append(got, o["debate_id"].(string))
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") && !(len(got) == 2 && len(tc.want) == 2 && got[0] == tc.want[1] && got[1] == tc.want[0]) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	if out, _, _ := dcli(t, root, "transcripts", "list", "--since", "2099-01-01"); !strings.HasPrefix(out, "no debates match under ") {
		t.Errorf("list filtering every debate out: %q, want none that match", out)
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--layer", "code"}, {"--verdict", "MAYBE"}} {
		_, errs, code := dcli(t, root, append([]string{"transcripts", "list"}, bad...)...)
		if code != cmdutil.ExitUsage || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d %q", bad, code, errs)
		}
	}
}

func TestTranscriptsShow(t *testing.T) {
	t.Parallel()
	root, id, other := twoDebates(t)
	out, errs, code := dcli(t, root, "transcripts", "show", id)
	if code != 0 || errs != "" {
		t.Fatalf("show: exit %d %s", code, errs)
	}
	for _, want := range []string{"Debate " + id, "Topic:        Idempotency keys", "Integrity:    intact, 9 events, sealed by verdict.json", "File:         intact wiki/debates/" + id + ".md",
		"── Round 1 ──", "(attacker) · 120 tokens · confidence -1 · line 3", "  Position: Keys leak the creation time", "  Counters: Use UUIDv7 keys",
		"  Evidence: notes.md:1 — ok", "(defender) · 100 tokens · confidence 0", "── Round 2 ──", "  No further objections",
		"══ Verdict: CONSENSUS_REACHED → proceed (conceded)", "   Final position: Use UUIDv7 keys with a 24h window", "Record: wiki/consensus/spec-idempotency-keys.md"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	md, _, code := dcli(t, root, "transcripts", "show", id, "--format", "md")
	if code != 0 || !strings.HasPrefix(md, "# Debate: Idempotency keys") || !strings.Contains(md, "[[spec-idempotency-keys]]") {
		t.Errorf("md: exit %d\n%s", code, md)
	}
	html, _, code := dcli(t, root, "transcripts", "show", id, "--format", "html")
	if code != 0 || !strings.HasPrefix(html, "<!doctype html>") || !strings.Contains(html, `class="integrity ok"`) || !strings.Contains(html, "<h2>Round 2</h2>") {
		t.Errorf("html: exit %d\n%s", code, html)
	}
	for _, args := range [][]string{{"transcripts", "show", id, "--format", "json"}, {"--json", "transcripts", "show", id}} {
		js, _, code := dcli(t, root, args...)
		var v struct {
			ID        string `json:"debate_id"`
			Integrity struct {
				Intact bool `json:"intact"`
				Files  []struct {
					File   string `json:"file"`
					Status string `json:"status"`
				} `json:"files"`
			} `json:"integrity"`
			Rounds []struct {
				Entries []struct {
					Turn struct {
						Agent    string `json:"agent"`
						Position string `json:"position"`
						Evidence []struct {
							Status string `json:"status"`
						} `json:"evidence"`
					} `json:"turn"`
				} `json:"entries"`
			} `json:"rounds"`
			Verdict struct {
				Verdict string `json:"verdict"`
			} `json:"verdict"`
		}
		if code != 0 || json.Unmarshal([]byte(js), &v) != nil || v.ID != id || !v.Integrity.Intact || len(v.Integrity.Files) != 5 || v.Integrity.Files[3].File != "wiki/debates/"+id+".md" || v.Integrity.Files[3].Status != "intact" ||
			len(v.Rounds) != 2 || v.Rounds[0].Entries[0].Turn.Position != "Keys leak the creation time" || v.Rounds[0].Entries[0].Turn.Evidence[0].Status != "ok" ||
			v.Verdict.Verdict != "CONSENSUS_REACHED" || strings.Count(strings.TrimSpace(js), "\n") != 0 {
			t.Errorf("%v: exit %d\n%s", args, code, js)
		}
	}
	for _, bad := range []struct {
		args []string
		code int
	}{
		{[]string{"transcripts", "show", id, "--format", "pdf"}, cmdutil.ExitUsage},
		{[]string{"transcripts", "show", "../../etc"}, cmdutil.ExitError},
		{[]string{"transcripts", "show", "20260101-spec-nothing-abcdef"}, cmdutil.ExitError},
	} {
		if _, errs, code := dcli(t, root, bad.args...); code != bad.code || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d %q", bad.args, code, errs)
		}
	}

	// Tampered: a banner naming the first bad line, in every format, exit 3.
	path := filepath.Join(root, "debates", id, "transcript.jsonl")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte("Keys leak the creation time"), []byte("Keys leak nothing"), 1), 0o600)
	out, errs, code = dcli(t, root, "transcripts", "show", id)
	if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "!! TAMPERED: line 3 its content does not match its hash") ||
		!strings.Contains(out, "line 3  UNVERIFIED") || !strings.Contains(out, "Keys leak nothing") ||
		!strings.Contains(out, "See: parley --root "+root+" transcripts verify "+id) ||
		!strings.Contains(errs, "transcript.jsonl differs: line 3 its content") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("tampered show: exit %d, stderr %q\n%s", code, errs, out)
	}
	md, _, code = dcli(t, root, "transcripts", "show", id, "--format", "md")
	if code != cmdutil.ExitBlocked || !strings.Contains(md, "> [!danger] TAMPERED: this transcript does not verify\n> Line 3") {
		t.Errorf("tampered md: exit %d\n%s", code, md)
	}
	html, _, _ = dcli(t, root, "transcripts", "show", id, "--format", "html")
	if !strings.Contains(html, `class="banner tampered" role="alert"`) || !strings.Contains(html, "Line 3 its content does not match its hash") {
		t.Errorf("tampered html:\n%s", html)
	}

	// The vault page's check: a page whose recorded head is not the chain's.
	page := filepath.Join(root, "vault", "wiki", "debates", other+".md")
	data, _ = os.ReadFile(page)
	head := regexp.MustCompile(`transcript_head: "([0-9a-f]{64})"`).FindSubmatch(data)
	if head == nil {
		t.Fatalf("the vault page records no head:\n%s", data)
	}
	if out, _, code := dcli(t, root, "transcripts", "show", other); code != 0 || !strings.Contains(out, "File:         intact wiki/debates/"+other+".md") {
		t.Fatalf("before: exit %d\n%s", code, out)
	}
	os.WriteFile(page, bytes.Replace(data, head[1], bytes.Repeat([]byte("0"), 64), 1), 0o600)
	out, errs, code = dcli(t, root, "transcripts", "show", other)
	if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "!! TAMPERED: wiki/debates/"+other+".md differs: it records head 000000000000") ||
		!strings.Contains(out, "File:         differs wiki/debates/"+other+".md") || !strings.Contains(errs, "records head") {
		t.Errorf("a vault page that differs: exit %d %q\n%s", code, errs, out)
	}
}

// startServe runs "parley serve" in-process until the returned stop is
// called; it returns the URL it prints.
func startServe(t *testing.T, args ...string) (url string, stderr *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	stderr = &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, strings.NewReader(""), &out, stderr) }()
	re := regexp.MustCompile(`http://[0-9.:\[\]]+/`)
	deadline := time.Now().Add(20 * time.Second)
	for url == "" {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve printed no URL: %q %q", out.String(), stderr.String())
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve ended: %v %q", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		url = re.FindString(out.String())
	}
	return url, stderr, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop")
			return nil
		}
	}
}

func TestServeCLI(t *testing.T) {
	t.Parallel()
	root, id, _ := twoDebates(t)
	url, _, stop := startServe(t, "--root", root, "serve", "--addr", "127.0.0.1:0")
	res, err := http.Get(url + "debates/" + id)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") || !strings.Contains(string(body), "✓ verified") {
		t.Logf("%s", body)
		t.Errorf("GET the debate: %d %v", res.StatusCode, res.Header)
	}
	if err := stop(); err != nil {
		t.Errorf("serve after Ctrl-C: %v", err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("still serving after it stopped")
	}

	// Another address needs --allow-remote, and then warns.
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		_, errs, code := dcli(t, root, "serve", "--addr", addr)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--allow-remote") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("--addr %s: exit %d %q", addr, code, errs)
		}
	}
	// An address that is not HOST:PORT is refused before anything
	// listens, as mcp --http refuses it.
	for _, addr := range []string{"127.0.0.1:http", "127.0.0.1:99999", "localhost"} {
		_, errs, code := dcli(t, root, "serve", "--addr", addr, "--allow-remote")
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--addr") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("--addr %s: exit %d %q, want exit 2 naming --addr", addr, code, errs)
		}
	}
	// The warning says where it serves, never the listener's [::]:PORT,
	// which nobody typed and no browser takes; the URL printed is one that
	// opens from this machine, not http://0.0.0.0:PORT/.
	everyURL, stderr, stop := startServe(t, "--root", root, "serve", "--addr", "0.0.0.0:0", "--allow-remote")
	if !strings.HasPrefix(everyURL, "http://127.0.0.1:") {
		t.Errorf("--addr 0.0.0.0:0 printed %s, want http://127.0.0.1:PORT/", everyURL)
	} else if res, err := http.Get(everyURL); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %v %v", everyURL, res, err)
	} else {
		res.Body.Close()
	}
	if err := stop(); err != nil {
		t.Error(err)
	}
	if w := stderr.String(); !strings.Contains(w, "parley: warning: serving every network interface, port ") ||
		!strings.Contains(w, "no authentication") || strings.Contains(w, "[::]") {
		t.Errorf("no warning for a remote address, or not one naming every network interface and the port without [::]: %q", w)
	}
	if _, errs, code := dcli(t, filepath.Join(t.TempDir(), "none"), "serve", "--addr", "127.0.0.1:0"); code != cmdutil.ExitError || !strings.Contains(errs, "init makes one") {
		t.Errorf("no root: exit %d %q", code, errs)
	}
	// An address in use says so, and what to do.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, errs, code := dcli(t, root, "serve", "--addr", ln.Addr().String()); code != cmdutil.ExitError || !strings.Contains(errs, ln.Addr().String()+" is in use") ||
		!strings.Contains(errs, "another --addr") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("address in use: exit %d %q", code, errs)
	}
}

// On close, debate run writes the debate's readable page into the vault,
// whose frontmatter alone tells the story in Obsidian: type, layer,
// verdict, topic, participants, date, the chain's head (what verify
// reports) and a wikilink to the consensus record, which the body links
// too.
func TestVaultPageWrittenOnClose(t *testing.T) {
	t.Parallel()
	root, id, other := twoDebates(t)
	v, err := vault.Open(filepath.Join(root, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, c := range []struct {
		id, layer, verdict, topic, record string
	}{
		{id, "spec", "CONSENSUS_REACHED", "Idempotency keys", "spec-idempotency-keys"},
		{other, "verify", "DEADLOCK", "Keys again", "verify-keys-again"},
	} {
		page, err := v.ReadPage(transcripts.PagePath(c.id))
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		rep, err := openStore(t, root).Verify(c.id)
		if err != nil || !rep.Intact {
			t.Fatalf("verify %s: %+v %v", c.id, rep, err)
		}
		m := page.Meta
		link := "[[" + c.record + "]]"
		// The page records the chain at the verdict, the line before the
		// seal event; the seal event records the page's body by hash.
		events, _ := openStore(t, root).Events(c.id)
		seal := string(events[len(events)-1].Data)
		if m["type"] != "debate" || m["layer"] != c.layer || m["verdict"] != c.verdict || m["topic"] != c.topic || m["debate_id"] != c.id ||
			m["record"] != link || fmt.Sprint(m[transcripts.PageEventsKey]) != fmt.Sprint(rep.Events-1) || m["date"] == nil ||
			!strings.Contains(seal, `"head":"`+m[transcripts.PageHeadKey].(string)+`"`) ||
			!strings.Contains(seal, `"page_hash":"`+transcripts.ContentHash(page)+`"`) {
			t.Errorf("%s: frontmatter %v, seal %s, record %s", c.id, m, seal, link)
		}
		if ps, _ := m["participants"].([]any); len(ps) != 2 {
			t.Errorf("%s: participants %v", c.id, m["participants"])
		}
		if !strings.Contains(string(page.Body), link) {
			t.Errorf("%s: the body does not link the record:\n%s", c.id, page.Body)
		}
		if _, err := os.Stat(filepath.Join(root, "vault", "wiki", "consensus", c.record+".md")); err != nil {
			t.Errorf("%s: the linked record: %v", c.id, err)
		}
	}
}
