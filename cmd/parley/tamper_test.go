package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/web"
)

// sealedDebate is one closed debate, filed, under a root whose vault is
// <root>/vault: the original every tamper case copies.
type sealedDebate struct {
	dir, id, final string
}

// newSealedDebate runs a conceded spec debate through the CLI. With key,
// config.json signs its seal and names the public key.
func newSealedDebate(t *testing.T, key ed25519.PrivateKey) sealedDebate {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	if key != nil {
		os.MkdirAll(root, 0o700)
		os.WriteFile(filepath.Join(root, "seal.key"), []byte(base64.StdEncoding.EncodeToString(key.Seed())), 0o600)
		cfg := fmt.Sprintf(`{"seal":{"signingKey":"seal.key","publicKey":%q}}`, base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey)))
		os.WriteFile(filepath.Join(root, "config.json"), []byte(cfg), 0o600)
	}
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
		"--workspace", dir, "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if code != 0 {
		t.Fatalf("debate run: exit %d %s", code, errs)
	}
	objs := lines(t, out)
	return sealedDebate{dir: root, id: objs[len(objs)-1]["debate_id"].(string), final: "Use UUIDv7 keys with a 24h window"}
}

// copyTree copies the directory src to dst (files 0600, directories 0700).
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tamperEnv is one copy of the sealed debate, edited by a case.
type tamperEnv struct {
	t          testing.TB
	root, id   string
	transcript string
	verdict    string
	session    string
	page       string
	record     string
}

func newTamperEnv(t testing.TB, d sealedDebate) *tamperEnv {
	root := filepath.Join(t.TempDir(), "root")
	copyTree(t, d.dir, root)
	e := &tamperEnv{t: t, root: root, id: d.id}
	deb := filepath.Join(root, "debates", d.id)
	e.transcript, e.verdict, e.session = filepath.Join(deb, "transcript.jsonl"), filepath.Join(deb, "verdict.json"), filepath.Join(deb, "session.json")
	e.page = filepath.Join(root, "vault", "wiki", "debates", d.id+".md")
	e.record = filepath.Join(root, "vault", "wiki", "consensus", "spec-idempotency-keys.md")
	return e
}

func (e *tamperEnv) read(p string) []byte {
	data, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	return data
}

func (e *tamperEnv) write(p string, data []byte) {
	if err := os.WriteFile(p, data, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func (e *tamperEnv) replace(p, old, new string) {
	data := e.read(p)
	if !bytes.Contains(data, []byte(old)) {
		e.t.Fatalf("%q is not in %s", old, p)
	}
	e.write(p, bytes.Replace(data, []byte(old), []byte(new), 1))
}

func (e *tamperEnv) lines() [][]byte {
	ls := bytes.SplitAfter(e.read(e.transcript), []byte("\n"))
	return ls[:len(ls)-1]
}

func (e *tamperEnv) setLines(ls [][]byte) { e.write(e.transcript, bytes.Join(ls, nil)) }

// rechain rewrites the transcript as a valid chain after edit changed the
// lines' bodies (everything before the hash), and verdict.json to match:
// what someone who knows the format and has write access can do. It
// returns the new head.
func (e *tamperEnv) rechain(edit func(i int, body []byte) []byte) string {
	const tail = len(`,"hash":"`) + 64 + len(`"}`)
	prev := transcripts.Genesis(e.id)
	var out bytes.Buffer
	var verdictData []byte
	n := 0
	for i, line := range e.lines() {
		line = bytes.TrimSuffix(line, []byte("\n"))
		body := edit(i, append([]byte(nil), line[:len(line)-tail]...))
		if body == nil {
			continue
		}
		body = append([]byte(`{"prev":"`+prev+`","seq":`+fmt.Sprint(n+1)), body[bytes.Index(body, []byte(`,"kind":`)):]...)
		sum := sha256.Sum256(body)
		prev = hex.EncodeToString(sum[:])
		out.Write(body)
		out.WriteString(`,"hash":"` + prev + `"}` + "\n")
		n++
		if bytes.Contains(body, []byte(`"kind":"verdict"`)) {
			verdictData = body[bytes.Index(body, []byte(`,"data":`))+len(`,"data":`):]
		}
	}
	e.write(e.transcript, out.Bytes())
	if _, err := os.Stat(e.verdict); err == nil {
		var v map[string]any
		json.Unmarshal(e.read(e.verdict), &v)
		var o map[string]any
		json.Unmarshal(verdictData, &o)
		for k, val := range o {
			v[k] = val
		}
		v["events"], v["head"] = n, prev
		data, _ := json.Marshal(v)
		e.write(e.verdict, data)
	}
	return prev
}

// detect runs every reader of the debate's integrity over the tampered
// copy and reports each that did not call it tampered and name want (a
// substring of the file's path, or "" for any of the debate's files).
// position is what consensus check asks about.
func (e *tamperEnv) detect(want, position string) []string {
	t := e.t
	var misses []string
	named := func(s string) bool {
		if want != "" {
			return strings.Contains(s, want)
		}
		for _, f := range []string{"transcript.jsonl", "verdict.json", "session.json", "wiki/debates/", "wiki/consensus/"} {
			if strings.Contains(s, f) {
				return true
			}
		}
		return false
	}
	out, errs, code := dcli(t, e.root, "transcripts", "verify", e.id)
	if code != cmdutil.ExitBlocked || !named(out+errs) {
		misses = append(misses, fmt.Sprintf("verify: exit %d\n%s%s", code, out, errs))
	}
	out, errs, code = dcli(t, e.root, "transcripts", "show", e.id)
	if code != cmdutil.ExitBlocked || !named(out+errs) {
		misses = append(misses, fmt.Sprintf("show: exit %d\n%s", code, errs))
	}
	// The web pages: the debate's badge, its vault page's badge, the index.
	for _, page := range []struct{ path, want string }{
		{"/debates/" + e.id, `class="integrity bad"`},
		{"/wiki/debates/" + e.id, `class="integrity bad"`},
		{"/", "✗ "},
	} {
		if page.path == "/wiki/debates/"+e.id {
			if _, err := os.Stat(e.page); err != nil {
				continue // no page to show a badge on
			}
		}
		code, body := e.get(page.path)
		if code != 200 || !strings.Contains(body, page.want) {
			misses = append(misses, fmt.Sprintf("web %s: %d, no %q", page.path, code, page.want))
		}
	}
	// consensus check never calls the record consistent.
	out, errs, code = dcli(t, e.root, "--json", "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", position)
	var res map[string]any
	json.Unmarshal([]byte(out), &res)
	switch st, _ := res["status"].(string); {
	case st == "none" && (!fileExists(e.record) || res["record"] == ""):
		// The record is gone, or edited so that it is no longer the
		// record of this question (another topic, layer or type): nothing
		// is called consistent, and the question reads as unanswered.
	case st != "tampered" || code != cmdutil.ExitBlocked:
		misses = append(misses, fmt.Sprintf("consensus check: exit %d %s %s", code, out, errs))
	}
	return misses
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// get serves one request of the web pages over the copy.
func (e *tamperEnv) get(target string) (int, string) {
	t := e.t
	st, err := transcripts.OpenStore(e.root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v, err := vault.Open(filepath.Join(e.root, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cs, err := consensus.Open(e.root, v)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	a := &factory{&cmdutil.Factory{RootFlag: e.root}}
	c, err := a.Config()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{Debates: st, Vault: v, Consensus: cs, PublicKey: c.SealPublicKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1"
	srv.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

// tamperCase is one edit of one artefact.
type tamperCase struct {
	name, want string // want: the file verify must name
	position   string // what consensus check asks; "" for the filed one
	edit       func(e *tamperEnv)
}

func tamperCases(d sealedDebate) []tamperCase {
	lineOf := func(e *tamperEnv, s string) int {
		for i, l := range e.lines() {
			if bytes.Contains(l, []byte(s)) {
				return i
			}
		}
		e.t.Fatalf("%q not in the transcript", s)
		return -1
	}
	forged := "Use random keys"
	return []tamperCase{
		// verdict.json
		{name: "verdict.json: the verdict changed", want: "verdict.json", edit: func(e *tamperEnv) {
			e.replace(e.verdict, `"verdict": "CONSENSUS_REACHED"`, `"verdict": "DEADLOCK"`)
		}},
		{name: "verdict.json: the final position changed", want: "verdict.json", edit: func(e *tamperEnv) {
			e.replace(e.verdict, `"final_position": "`+d.final, `"final_position": "Use random keys`)
		}},
		{name: "verdict.json: deleted", want: "verdict.json", edit: func(e *tamperEnv) { os.Remove(e.verdict) }},
		{name: "verdict.json: truncated", want: "verdict.json", edit: func(e *tamperEnv) { e.write(e.verdict, e.read(e.verdict)[:40]) }},
		{name: "verdict.json: deleted and the last two lines dropped", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			os.Remove(e.verdict)
			ls := e.lines()
			e.setLines(ls[:len(ls)-2])
		}},
		// session.json
		{name: "session.json: the topic changed", want: "session.json", edit: func(e *tamperEnv) {
			e.replace(e.session, `"topic": "Idempotency keys"`, `"topic": "Idempotency keys for refunds"`)
		}},
		{name: "session.json: deleted", want: "session.json", edit: func(e *tamperEnv) { os.Remove(e.session) }},
		{name: "session.json: truncated", want: "session.json", edit: func(e *tamperEnv) { e.write(e.session, e.read(e.session)[:30]) }},
		// transcript.jsonl
		{name: "transcript: a turn's position changed", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			e.replace(e.transcript, "Keys leak the creation time", "Keys leak nothing")
		}},
		{name: "transcript: a line deleted", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			ls := e.lines()
			e.setLines(append(ls[:3:3], ls[4:]...))
		}},
		{name: "transcript: truncated mid-line", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			data := e.read(e.transcript)
			e.write(e.transcript, data[:len(data)-30])
		}},
		{name: "transcript: two lines swapped", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			ls := e.lines()
			ls[2], ls[3] = ls[3], ls[2]
			e.setLines(ls)
		}},
		{name: "transcript: rewritten as a valid chain with verdict.json to match", want: "wiki/", edit: func(e *tamperEnv) {
			e.rechain(func(i int, b []byte) []byte {
				return bytes.ReplaceAll(b, []byte("Keys leak the creation time"), []byte("Keys are fine"))
			})
		}},
		{name: "transcript: rewritten to DEADLOCK, verdict.json to match, the vault page deleted", want: "wiki/", edit: func(e *tamperEnv) {
			e.rechain(func(i int, b []byte) []byte {
				return bytes.ReplaceAll(b, []byte(`"verdict":"CONSENSUS_REACHED"`), []byte(`"verdict":"DEADLOCK"`))
			})
			os.Remove(e.page)
		}},
		{name: "transcript: the seal event dropped, verdict.json and the vault page deleted", want: "wiki/consensus/", edit: func(e *tamperEnv) {
			os.Remove(e.verdict)
			os.Remove(e.page)
			e.rechain(func(i int, b []byte) []byte {
				if bytes.Contains(b, []byte(`"kind":"seal"`)) {
					return nil
				}
				return bytes.ReplaceAll(b, []byte("Keys leak the creation time"), []byte("Keys are fine"))
			})
		}},
		// the vault page
		{name: "vault page: the verdict changed", want: "wiki/debates/", edit: func(e *tamperEnv) {
			e.write(e.page, regexp.MustCompile(`(?m)^verdict: .*$`).ReplaceAll(e.read(e.page), []byte("verdict: DEADLOCK")))
		}},
		{name: "vault page: the body edited", want: "wiki/debates/", edit: func(e *tamperEnv) {
			e.replace(e.page, "Keys leak the creation time", "Keys leak nothing")
		}},
		{name: "vault page: deleted", want: "wiki/debates/", edit: func(e *tamperEnv) { os.Remove(e.page) }},
		{name: "vault page: truncated", want: "wiki/debates/", edit: func(e *tamperEnv) { e.write(e.page, e.read(e.page)[:len(e.read(e.page))/2]) }},
		// the consensus record
		{name: "record: final position and its hash forged", want: "wiki/consensus/", position: forged, edit: func(e *tamperEnv) {
			data := string(e.read(e.record))
			data = strings.Replace(data, d.final, forged, -1)
			data = regexp.MustCompile(`final_position_hash: "?[0-9a-f]{64}"?`).ReplaceAllString(data, "final_position_hash: "+debate.PositionHash(forged))
			e.write(e.record, []byte(data))
		}},
		{name: "record: forged, and the seal event's record hash rewritten to match", want: "wiki/", position: forged, edit: func(e *tamperEnv) {
			data := string(e.read(e.record))
			data = strings.Replace(data, d.final, forged, -1)
			data = regexp.MustCompile(`final_position_hash: "?[0-9a-f]{64}"?`).ReplaceAllString(data, "final_position_hash: "+debate.PositionHash(forged))
			e.write(e.record, []byte(data))
			page, err := vault.ParsePage("wiki/consensus/spec-idempotency-keys.md", []byte(data))
			if err != nil {
				e.t.Fatal(err)
			}
			h := transcripts.ContentHash(page)
			e.rechain(func(i int, b []byte) []byte {
				b = bytes.ReplaceAll(b, []byte(d.final), []byte(forged))
				b = bytes.ReplaceAll(b, []byte(debate.PositionHash(d.final)), []byte(debate.PositionHash(forged)))
				return regexp.MustCompile(`"record_hash":"[0-9a-f]{64}"`).ReplaceAll(b, []byte(`"record_hash":"`+h+`"`))
			})
		}},
		{name: "record: forged, with the seal event cut and verdict.json deleted (a filing made to look interrupted)", want: "wiki/consensus/", position: forged, edit: func(e *tamperEnv) {
			data := string(e.read(e.record))
			data = strings.Replace(data, d.final, forged, -1)
			data = regexp.MustCompile(`final_position_hash: "?[0-9a-f]{64}"?`).ReplaceAllString(data, "final_position_hash: "+debate.PositionHash(forged))
			e.write(e.record, []byte(data))
			ls := e.lines()
			if !bytes.Contains(ls[len(ls)-1], []byte(`"kind":"seal"`)) {
				e.t.Fatalf("the last line is no seal: %s", ls[len(ls)-1])
			}
			e.setLines(ls[:len(ls)-1])
			os.Remove(e.verdict)
		}},
		{name: "record: the body edited", want: "wiki/consensus/", edit: func(e *tamperEnv) {
			e.replace(e.record, "## Rationale", "## Rationale\n\nApproved by the board.")
		}},
		{name: "record: deleted", want: "wiki/consensus/", edit: func(e *tamperEnv) { os.Remove(e.record) }},
		{name: "record: truncated", want: "wiki/consensus/", edit: func(e *tamperEnv) { e.write(e.record, e.read(e.record)[:len(e.read(e.record))/2]) }},
		{name: "transcript: a line's field edited in place (line of the defender's turn)", want: "transcript.jsonl", edit: func(e *tamperEnv) {
			i := lineOf(e, `"position":"`+d.final+`"`)
			ls := e.lines()
			edited := regexp.MustCompile(`"tokens":\d+`).ReplaceAll(ls[i], []byte(`"tokens":1`))
			if bytes.Equal(edited, ls[i]) {
				e.t.Fatalf("no tokens on line %d: %s", i+1, ls[i])
			}
			ls[i] = edited
			e.setLines(ls)
		}},
	}
}

// TestTamperTable: every kind of edit to every file a debate produced is
// caught by transcripts verify and show (naming the file), by the web
// badges and index, and by consensus check, which never calls the record
// consistent. PARLEY_LONG=1 adds an edit of every line and every field.
func TestTamperTable(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	// The untouched debate is intact everywhere.
	{
		e := newTamperEnv(t, d)
		if out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id); code != 0 {
			t.Fatalf("untouched: exit %d\n%s%s", code, out, errs)
		}
		if out, _, code := dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", d.final); code != 0 || !strings.HasPrefix(out, "consistent") {
			t.Fatalf("untouched check: exit %d %s", code, out)
		}
		if code, body := e.get("/"); code != 200 || strings.Contains(body, "✗") || !strings.Contains(body, "✓ verified") {
			t.Fatalf("untouched index: %d", code)
		}
		// Filing the record again (as after an interrupted filing) rewrites
		// it as it was: the seal still holds.
		if _, errs, code := dcli(t, e.root, "consensus", "file", "--from-debate", d.id); code != 0 {
			t.Fatalf("file again: %s", errs)
		}
		if out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id); code != 0 {
			t.Fatalf("after filing again: exit %d\n%s%s", code, out, errs)
		}
	}
	cases := tamperCases(d)
	if os.Getenv("PARLEY_LONG") != "" {
		cases = append(cases, longTamperCases(t, d)...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newTamperEnv(t, d)
			c.edit(e)
			pos := c.position
			if pos == "" {
				pos = d.final
			}
			for _, m := range e.detect(c.want, pos) {
				t.Error(m)
			}
		})
	}
}

// longTamperCases edits every line of the transcript (a byte changed, the
// line deleted, the transcript cut before it), every field of
// verdict.json and session.json, and every frontmatter line of the vault
// page and the record (but the keys supersession rewrites).
func longTamperCases(t *testing.T, d sealedDebate) []tamperCase {
	e := newTamperEnv(t, d)
	var out []tamperCase
	for i := range e.lines() {
		out = append(out,
			tamperCase{name: fmt.Sprintf("long: line %d edited", i+1), want: "", edit: func(e *tamperEnv) {
				ls := e.lines()
				at := bytes.Index(ls[i], []byte(`"kind":`)) + 8
				ls[i][at] ^= 1
				e.setLines(ls)
			}},
			tamperCase{name: fmt.Sprintf("long: line %d deleted", i+1), want: "", edit: func(e *tamperEnv) {
				ls := e.lines()
				e.setLines(append(ls[:i:i], ls[i+1:]...))
			}},
			tamperCase{name: fmt.Sprintf("long: cut before line %d", i+1), want: "", edit: func(e *tamperEnv) { e.setLines(e.lines()[:i]) }},
		)
	}
	for _, f := range []struct{ name, path string }{{"verdict.json", e.verdict}, {"session.json", e.session}} {
		var m map[string]any
		json.Unmarshal(e.read(f.path), &m)
		for k := range m {
			out = append(out, tamperCase{name: "long: " + f.name + " field " + k, want: f.name, edit: func(e *tamperEnv) {
				p := e.verdict
				if f.name == "session.json" {
					p = e.session
				}
				var m map[string]any
				json.Unmarshal(e.read(p), &m)
				m[k] = "tampered"
				data, _ := json.Marshal(m)
				e.write(p, data)
			}})
		}
	}
	key := regexp.MustCompile(`(?m)^([a-z_]+):.*$`)
	for _, f := range []struct{ name, path string }{{"wiki/debates/", e.page}, {"wiki/consensus/", e.record}} {
		fm := bytes.SplitN(e.read(f.path), []byte("\n---\n"), 2)[0]
		for _, m := range key.FindAllSubmatch(fm, -1) {
			k := string(m[1])
			if f.name == "wiki/consensus/" && (k == "status" || k == "superseded_by" || k == "updated") {
				continue // supersession rewrites these
			}
			out = append(out, tamperCase{name: "long: " + f.name + " key " + k, want: f.name, edit: func(e *tamperEnv) {
				p := e.page
				if f.name == "wiki/consensus/" {
					p = e.record
				}
				data := e.read(p)
				re := regexp.MustCompile(`(?m)^` + k + `:.*$`)
				e.write(p, re.ReplaceAll(data, []byte(k+`: "tampered"`)))
			}})
		}
	}
	return out
}

// TestSignedSealTellsAWholeRewrite: with a signing key in config.json,
// everything rewritten consistently (transcript, verdict.json, vault page,
// record) is still caught by the signature, which only the key's holder
// can make.
func TestSignedSealTellsAWholeRewrite(t *testing.T) {
	t.Parallel()
	_, key, _ := ed25519.GenerateKey(nil)
	d := newSealedDebate(t, key)
	e := newTamperEnv(t, d)
	out, _, code := dcli(t, e.root, "transcripts", "verify", d.id)
	if code != 0 || !strings.Contains(out, "signature valid") {
		t.Fatalf("signed: exit %d\n%s", code, out)
	}
	// Rewrite the whole chain (a changed turn), the seal event pointing at
	// re-hashed files, the page and the record re-recording the new head:
	// consistent everywhere but in the signature.
	var newHead string
	var events int
	newHead = e.rechain(func(i int, b []byte) []byte {
		return bytes.ReplaceAll(b, []byte("Keys leak the creation time"), []byte("Keys are fine"))
	})
	_ = newHead
	ls := e.lines()
	events = len(ls)
	verdictHead := regexp.MustCompile(`"hash":"([0-9a-f]{64})"`).FindSubmatch(ls[events-2])[1]
	for _, p := range []string{e.page, e.record} {
		data := e.read(p)
		data = regexp.MustCompile(`transcript_head: "?[0-9a-f]{64}"?`).ReplaceAll(data, []byte("transcript_head: "+string(verdictHead)))
		data = bytes.ReplaceAll(data, []byte("Keys leak the creation time"), []byte("Keys are fine"))
		e.write(p, data)
	}
	hash := func(p, rel string) string {
		page, err := vault.ParsePage(rel, e.read(p))
		if err != nil {
			t.Fatal(err)
		}
		return transcripts.ContentHash(page)
	}
	ph, rh := hash(e.page, "wiki/debates/"+d.id+".md"), hash(e.record, "wiki/consensus/spec-idempotency-keys.md")
	e.rechain(func(i int, b []byte) []byte {
		b = regexp.MustCompile(`"head":"[0-9a-f]{64}"`).ReplaceAll(b, []byte(`"head":"`+string(verdictHead)+`"`))
		b = regexp.MustCompile(`"page_hash":"[0-9a-f]{64}"`).ReplaceAll(b, []byte(`"page_hash":"`+ph+`"`))
		return regexp.MustCompile(`"record_hash":"[0-9a-f]{64}"`).ReplaceAll(b, []byte(`"record_hash":"`+rh+`"`))
	})
	// Without the public key the rewrite would pass: with it, it does not.
	out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id)
	if code != cmdutil.ExitBlocked || !strings.Contains(out, "signature INVALID") {
		t.Errorf("a whole rewrite: exit %d\n%s%s", code, out, errs)
	}
	for _, f := range []string{"transcript.jsonl", "verdict.json", "session.json", d.id + ".md", "spec-idempotency-keys.md"} {
		if !regexp.MustCompile(`intact\s+\S*` + regexp.QuoteMeta(f)).MatchString(out) {
			t.Errorf("the rewrite is consistent but for the signature: %s not intact\n%s", f, out)
		}
	}
	if code, body := e.get("/debates/" + d.id); code != 200 || !strings.Contains(body, "signature invalid") {
		t.Errorf("web badge: %d", code)
	}
	_ = context.Background
}

// TestSignedSealTellsARewriteMadeToLookInterrupted: with a public key, a
// debate rewritten whole (its final position changed) and made to look
// like a filing a crash interrupted (no seal event, no verdict.json, so
// nothing to sign) binds nothing: check answers tampered until resume
// seals and signs it, never consistent with the forged position.
func TestSignedSealTellsARewriteMadeToLookInterrupted(t *testing.T) {
	t.Parallel()
	_, key, _ := ed25519.GenerateKey(nil)
	d := newSealedDebate(t, key)
	e := newTamperEnv(t, d)
	forged := "Use random keys"
	e.rechain(func(i int, b []byte) []byte {
		if bytes.Contains(b, []byte(`"kind":"seal"`)) {
			return nil
		}
		b = bytes.ReplaceAll(b, []byte(d.final), []byte(forged))
		return bytes.ReplaceAll(b, []byte(debate.PositionHash(d.final)), []byte(debate.PositionHash(forged)))
	})
	os.Remove(e.verdict)
	ls := e.lines()
	head := regexp.MustCompile(`"hash":"([0-9a-f]{64})"`).FindSubmatch(ls[len(ls)-1])[1]
	for _, p := range []string{e.page, e.record} {
		data := e.read(p)
		data = regexp.MustCompile(`transcript_head: "?[0-9a-f]{64}"?`).ReplaceAll(data, []byte("transcript_head: "+string(head)))
		data = regexp.MustCompile(`final_position_hash: "?[0-9a-f]{64}"?`).ReplaceAll(data, []byte("final_position_hash: "+debate.PositionHash(forged)))
		e.write(p, bytes.ReplaceAll(data, []byte(d.final), []byte(forged)))
	}
	out, _, code := dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", forged)
	resume := suggest.CommandLine("parley", "--root", e.root, "debate", "resume", d.id) + " seals and signs it"
	if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "tampered") || !strings.Contains(out, resume) {
		t.Errorf("check: exit %d, want %q\n%s", code, resume, out)
	}
	// verify says no signature vouches yet, and the command that seals it.
	if out, _, _ := dcli(t, e.root, "transcripts", "verify", d.id); !strings.Contains(out, "signature NONE YET") ||
		!strings.Contains(out, "an interrupted debate: "+suggest.CommandLine("parley", "--root", e.root, "debate", "resume", d.id)+")") {
		t.Errorf("verify of the unsealed debate:\n%s", out)
	}
	// Resumed, the filing is sealed and signed: the record binds again.
	if _, errs, code := dcli(t, e.root, "debate", "resume", d.id); code != 0 {
		t.Fatalf("resume: exit %d %s", code, errs)
	}
	out, _, code = dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", forged)
	if code != 0 || !strings.HasPrefix(out, "consistent") {
		t.Errorf("check after resume: exit %d\n%s", code, out)
	}
}

// TestKeygenSignsSeals: the key and the config lines "transcripts keygen"
// prints make every seal signed and checked; the key file is the owner's
// only and is never replaced.
func TestKeygenSignsSeals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	dcli(t, root, "init")
	keyFile := filepath.Join(dir, "seal.key")
	out, errs, code := dcli(t, root, "--json", "transcripts", "keygen", keyFile)
	if code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errs)
	}
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	os.WriteFile(filepath.Join(root, "config.json"), []byte(strings.TrimSpace(out)), 0o600)
	if _, _, code := dcli(t, root, "transcripts", "keygen", keyFile); code != cmdutil.ExitError {
		t.Errorf("keygen over an existing key: exit %d", code)
	}
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	out, errs, code = dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys",
		"--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if code != 0 {
		t.Fatalf("debate run: %s", errs)
	}
	objs := lines(t, out)
	id := objs[len(objs)-1]["debate_id"].(string)
	if out, _, code := dcli(t, root, "transcripts", "verify", id); code != 0 || !strings.Contains(out, "signature valid") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
}

// TestAPersonsOwnKeysAreNotTampering: keys a person adds to a record or a
// debate page (Obsidian properties, aliases, cssclasses) and CRLF line
// ends (an editor's, git's autocrlf) leave the seal holding, and check
// answers from the record; a change to one of parley's own keys, even
// one a person might touch (tags), is still tampering.
func TestAPersonsOwnKeysAreNotTampering(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	e := newTamperEnv(t, d)
	for _, p := range []string{e.record, e.page} {
		page, err := vault.ParsePage("x.md", e.read(p))
		if err != nil {
			t.Fatal(err)
		}
		for k := range page.Meta {
			if !slices.Contains(transcripts.OwnKeys, k) {
				t.Errorf("%s: parley writes %q, which transcripts.OwnKeys lacks: a person's edit of it would not be seen", p, k)
			}
		}
		e.replace(p, "\ntopic: ", "\naliases:\n  - \"the key rule\"\ncssclasses: wide\npublish: true\ntopic: ")
		e.write(p, bytes.ReplaceAll(e.read(p), []byte("\n"), []byte("\r\n")))
	}
	if out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id); code != 0 {
		t.Errorf("a person's keys and CRLF: verify exit %d\n%s%s", code, out, errs)
	}
	if out, _, code := dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", d.final); code != 0 || !strings.HasPrefix(out, "consistent") {
		t.Errorf("a person's keys and CRLF: check exit %d %s", code, out)
	}
	e.write(e.record, regexp.MustCompile(`(?m)^tags: (.*)\]\r$`).ReplaceAll(e.read(e.record), []byte(`tags: $1, "mine"]`+"\r")))
	if !bytes.Contains(e.read(e.record), []byte(`"mine"]`)) {
		t.Fatal("no tags line edited")
	}
	if out, _, code := dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", d.final); code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "tampered") {
		t.Errorf("tags changed: check exit %d %s", code, out)
	}
}

// TestAStatusFlippedByHandIsTampering: the seal leaves status and
// superseded_by out of a record's hash because a later filing flips them;
// a record that says superseded when no record supersedes it was edited
// by hand, and is tampered everywhere (never intact, and never "none"
// from check, which would drop a binding consensus unnoticed). A real
// supersession still verifies.
func TestAStatusFlippedByHandIsTampering(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	for name, by := range map[string]string{
		"no superseded_by":           "",
		"superseded_by no page":      `"[[spec-idempotency-keys-9]]"`,
		"superseded_by its own page": `"[[` + d.id + `]]"`,
	} {
		e := newTamperEnv(t, d)
		data := regexp.MustCompile(`(?m)^status: .*$`).ReplaceAll(e.read(e.record), []byte(`status: "superseded"`))
		e.write(e.record, regexp.MustCompile(`(?m)^superseded_by:.*$`).ReplaceAll(data, []byte("superseded_by: "+by)))
		out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id)
		if code != cmdutil.ExitBlocked || !strings.Contains(out, "differs   wiki/consensus/spec-idempotency-keys.md: it says status \"superseded\"") {
			t.Errorf("%s: verify exit %d\n%s%s", name, code, out, errs)
		}
		out, _, code = dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", d.final)
		if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "tampered") {
			t.Errorf("%s: check exit %d %s", name, code, out)
		}
	}
}

// TestCutTranscriptIsReportedOnce: a transcript cut short, or gone, is
// one line of the report (not "intact" and "missing" both), the report
// names every file once, and no line speaks of line 0 or -1.
func TestCutTranscriptIsReportedOnce(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	for name, edit := range map[string]func(e *tamperEnv){
		"cut":   func(e *tamperEnv) { e.setLines(e.lines()[:4]) },
		"empty": func(e *tamperEnv) { e.write(e.transcript, nil) },
		"gone":  func(e *tamperEnv) { os.Remove(e.transcript) },
		"line 1 edited": func(e *tamperEnv) {
			ls := e.lines()
			ls[0] = bytes.Replace(ls[0], []byte(`"seq":1`), []byte(`"seq":1 `), 1)
			e.setLines(ls)
		},
	} {
		e := newTamperEnv(t, d)
		edit(e)
		out, errs, code := dcli(t, e.root, "transcripts", "verify", d.id)
		if code != cmdutil.ExitBlocked {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errs)
		}
		seen := map[string]int{}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) >= 2 && (f[0] == "intact" || f[0] == "missing" || f[0] == "differs" || f[0] == "unchecked" || f[0] == "pending") {
				seen[strings.TrimSuffix(f[1], ":")]++
			}
		}
		for file, n := range seen {
			if n > 1 {
				t.Errorf("%s: %s is named %d times\n%s", name, file, n, out)
			}
		}
		if len(seen) < 3 || strings.Contains(out, "line 0") || strings.Contains(out, "line -1") || strings.Contains(out, "TAMPERED at line 1: \n") {
			t.Errorf("%s: report\n%s", name, out)
		}
	}
}

// A debate whose vault is gone (removed, or --vault misspelt) is not
// "intact": the seal names its page and its record, and both are missing
// with the vault they should be in, as one missing record is.
func TestVaultGoneIsNotIntact(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	typo := filepath.Join(t.TempDir(), "vualt")
	for _, args := range [][]string{{"--vault", typo, "transcripts", "verify", d.id}, {"--vault", typo, "transcripts", "show", d.id}} {
		out, errs, code := dcli(t, d.dir, args...)
		if code != cmdutil.ExitBlocked || !strings.Contains(out+errs, "there is no vault at "+typo) || strings.HasPrefix(out, d.id+": intact") {
			t.Errorf("%v: exit %d\n%s%s", args[2:4], code, out, errs)
		}
	}
	if out, _, _ := dcli(t, d.dir, "--vault", typo, "transcripts", "list"); strings.Contains(out, " verified ") {
		t.Errorf("transcripts list calls it verified:\n%s", out)
	}
	if err := os.RemoveAll(filepath.Join(d.dir, "vault")); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := dcli(t, d.dir, "transcripts", "verify", d.id); code != cmdutil.ExitBlocked || !strings.Contains(out, "missing") {
		t.Errorf("verify with the vault removed: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(typo); err == nil {
		t.Errorf("a read made the vault %s", typo)
	}
}

// A record renamed in the vault still holds what was filed: renamed by
// hand (mv), or in Obsidian, which also rewrites every link to it (the
// debate page's, and the supersedes of the record that superseded it),
// both debates verify, the renamed record is named with the name it was
// filed under, and a lookup answers from it. A link retargeted to another
// page, or a "rename" whose filed name is still a file, is still an edit.
func TestARenamedRecordStillVerifies(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	e := newTamperEnv(t, d)
	dir := t.TempDir()
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	out, errs, code := dcli(t, e.root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
		"--workspace", dir, "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if code != 0 {
		t.Fatalf("second debate run: exit %d %s", code, errs)
	}
	objs := lines(t, out)
	second := objs[len(objs)-1]["debate_id"].(string)
	newer := filepath.Join(filepath.Dir(e.record), "spec-idempotency-keys-2.md")
	if !bytes.Contains(e.read(newer), []byte(`supersedes: "[[spec-idempotency-keys]]"`)) {
		t.Fatalf("the second record does not supersede the first:\n%s", e.read(newer))
	}
	wiki := filepath.Join(e.root, "vault", "wiki")
	renamed := filepath.Join(filepath.Dir(e.record), "Key rule.md")
	obsidianRename := func(e *tamperEnv, from, to string) {
		t.Helper()
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
		old := regexp.MustCompile(`\[\[spec-idempotency-keys([\]|#])`)
		filepath.WalkDir(wiki, func(p string, de fs.DirEntry, err error) error {
			if err == nil && !de.IsDir() && strings.HasSuffix(p, ".md") {
				e.write(p, old.ReplaceAll(e.read(p), []byte("[[Key rule$1")))
			}
			return nil
		})
	}
	verify := func(id string) (string, int) {
		out, errs, code := dcli(t, e.root, "transcripts", "verify", id)
		return out + errs, code
	}

	// By hand: the file alone.
	if err := os.Rename(e.record, renamed); err != nil {
		t.Fatal(err)
	}
	if out, code := verify(d.id); code != 0 || !strings.Contains(out, "intact    wiki/consensus/Key rule.md (renamed since it was filed as wiki/consensus/spec-idempotency-keys.md)") {
		t.Errorf("renamed by hand: verify exit %d\n%s", code, out)
	}
	os.Rename(renamed, e.record)

	// In Obsidian: the file and every link to it.
	obsidianRename(e, e.record, renamed)
	if !bytes.Contains(e.read(newer), []byte(`supersedes: "[[Key rule]]"`)) || !bytes.Contains(e.read(e.page), []byte("[[Key rule]]")) {
		t.Fatal("the links were not rewritten")
	}
	for _, id := range []string{d.id, second} {
		if out, code := verify(id); code != 0 {
			t.Errorf("renamed in Obsidian: verify %s exit %d\n%s", id, code, out)
		}
	}
	if out, _, code := dcli(t, e.root, "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", d.final); code != 0 || !strings.HasPrefix(out, "consistent") {
		t.Errorf("renamed in Obsidian: check exit %d %s", code, out)
	}

	// A link retargeted to another page is an edit.
	page := e.read(e.page)
	e.write(e.page, bytes.ReplaceAll(page, []byte("[[Key rule]]"), []byte("[[spec-idempotency-keys-2]]")))
	if out, code := verify(d.id); code != cmdutil.ExitBlocked || !strings.Contains(out, "differs   wiki/debates/"+d.id+".md") {
		t.Errorf("the page's record link retargeted: verify exit %d\n%s", code, out)
	}
	e.write(e.page, page)

	// A filed name that is still a file is no rename: the links that now
	// lead elsewhere are edits.
	e.write(e.record, e.read(renamed))
	if out, code := verify(second); code != cmdutil.ExitBlocked || !strings.Contains(out, "differs   wiki/consensus/spec-idempotency-keys-2.md") {
		t.Errorf("supersedes retargeted while the filed record is there: verify exit %d\n%s", code, out)
	}
}
