package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	stdjson "encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// piAgent stands in for a pi agent using pi-messenger: it writes its own
// registration and message files in pi-messenger's shapes, with the
// standard library only, and reads only what a pi agent reads of a
// message — its text, id and from. It knows nothing of parley's API.
type piAgent struct {
	t    *testing.T
	root string
	name string
	// answer is what the agent decides to argue, given the request's
	// round and the standing position the text shows.
	answer func(round int, standing string) (position, counter string, confidence int, argument string)
	// replyTo: whether its send tool sets replyTo (pi-messenger's may not).
	replyTo bool
	// fenced: whether it wraps the JSON in a ```json fence with prose.
	fenced bool

	mu      sync.Mutex
	answers int
}

// register writes registry/<name>.json the way pi-messenger does: no
// parley keys (no host, heartbeatAt, roles, protocol); pid is this live
// process.
func (p *piAgent) register() {
	p.t.Helper()
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	reg := map[string]any{
		"name": p.name, "pid": os.Getpid(), "sessionId": "pi-session-" + p.name, "cwd": p.root,
		"model": "claude-sonnet-4", "startedAt": now, "isHuman": false,
		"session":  map[string]any{"toolCalls": 3, "tokens": 1200, "filesModified": []string{}},
		"activity": map[string]any{"lastActivityAt": now},
	}
	b, _ := stdjson.MarshalIndent(reg, "", "  ")
	for _, d := range []string{filepath.Join(p.root, "registry"), filepath.Join(p.root, "inbox", p.name)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			p.t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(p.root, "registry", p.name+".json"), b, 0o600); err != nil {
		p.t.Fatal(err)
	}
}

var (
	piJSONBlock = regexp.MustCompile("(?s)plain messages.*?```json\n(.*?)\n```")
	piStanding  = regexp.MustCompile(`\*\*Defender's standing position:\*\* (.*)`)
	piRound     = regexp.MustCompile(`# Debate turn: round (\d+)`)
)

// serve answers every request in its inbox until ctx ends.
func (p *piAgent) serve(ctx context.Context) {
	dir := filepath.Join(p.root, "inbox", p.name)
	for ctx.Err() == nil {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			b, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			var m struct {
				ID   string `json:"id"`
				From string `json:"from"`
				Text string `json:"text"`
			}
			if stdjson.Unmarshal(b, &m) != nil {
				continue // being written
			}
			os.Remove(path) // pi-messenger deletes what it processed
			p.reply(m.ID, m.From, m.Text)
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// reply does what the request's text says: it fills in the JSON object
// the text shows and sends it as the text of a plain message.
func (p *piAgent) reply(id, from, text string) {
	block := piJSONBlock.FindStringSubmatch(text)
	if block == nil {
		p.t.Errorf("%s: the request does not say what to write:\n%s", p.name, text)
		return
	}
	var obj map[string]any
	if err := stdjson.Unmarshal([]byte(block[1]), &obj); err != nil {
		p.t.Errorf("%s: the JSON the request shows does not parse: %v\n%s", p.name, err, block[1])
		return
	}
	round := 0
	if r := piRound.FindStringSubmatch(text); r != nil {
		fmt.Sscan(r[1], &round)
	}
	standing := ""
	if s := piStanding.FindStringSubmatch(text); s != nil {
		standing = s[1]
	}
	pos, counter, cc, arg := p.answer(round, standing)
	obj["position"], obj["counter_to"], obj["confidence_change"], obj["text"] = pos, counter, cc, arg
	obj["evidence_refs"] = []string{}
	j, _ := stdjson.Marshal(obj)
	body := string(j)
	if p.fenced {
		body = "Here is my turn.\n\n```json\n" + body + "\n```\n"
	}
	msg := map[string]any{
		"id": newUUID(), "from": p.name, "to": from, "text": body,
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), "replyTo": nil,
	}
	if p.replyTo {
		msg["replyTo"] = id
	}
	b, _ := stdjson.Marshal(msg)
	var rnd [4]byte
	rand.Read(rnd[:])
	name := fmt.Sprintf("%d-%s.json", time.Now().UnixMilli(), hex.EncodeToString(rnd[:]))
	if err := os.WriteFile(filepath.Join(p.root, "inbox", from, name), b, 0o600); err != nil {
		p.t.Errorf("%s: %v", p.name, err)
	}
	p.mu.Lock()
	p.answers++
	p.mu.Unlock()
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Two agents written the way pi-messenger writes — its registration shape,
// plain message files whose text is the turn's JSON object (one fenced in
// prose and replying, one bare without replyTo) — attack and defend in a
// debate that ends with a verdict and is filed.
func TestPiAgentsDebate(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	const refined = "Shard the ledger by account id with consistent hashing, and move hot accounts to dedicated shards"
	critic := &piAgent{t: t, root: root, name: "PiCritic", replyTo: true, fenced: true,
		answer: func(round int, standing string) (string, string, int, string) {
			if round == 1 {
				return "A hash of the account id puts every hot account's writes on one shard", standing, -1, "Hot accounts exist."
			}
			return "", "", 0, "That answers it."
		}}
	proposer := &piAgent{t: t, root: root, name: "PiProposer",
		answer: func(round int, standing string) (string, string, int, string) {
			return refined, "", 0, "Dedicated shards take the hot accounts."
		}}
	critic.register()
	proposer.register()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, p := range []*piAgent{critic, proposer} {
		wg.Add(1)
		go func() { defer wg.Done(); p.serve(ctx) }()
	}
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"--root", root, "--json", "debate", "run", "--layer", "plan", "--topic", "Ledger sharding",
		"--position", "Shard the ledger by account id with consistent hashing", "--timeout", "60s",
		"--agent", "attacker=@PiCritic", "--agent", "defender=@PiProposer"}, strings.NewReader(""), &out, &errb)
	cancel()
	wg.Wait()
	if code := cmdutil.ExitCode(err, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	v := verdictLineOf(t, out.String())
	if v["verdict"] != "CONSENSUS_REACHED" || v["rule"] != "conceded" || v["final_position"] != refined || v["record"] == "" {
		t.Fatalf("verdict %v\n%s", v, out.String())
	}
	if critic.answers != 2 || proposer.answers != 1 {
		t.Fatalf("answers: critic %d, proposer %d", critic.answers, proposer.answers)
	}
	for _, o := range lines(t, out.String()) {
		if o["event"] == "rejected" || o["event"] == "forfeit" {
			t.Errorf("a pi turn was not accepted: %v", o)
		}
	}
	got := debateTurns(t, root, v["debate_id"].(string))
	want := []string{
		`r1 attacker PiCritic "A hash of the account id puts every hot account's writes on one shard" 0`,
		`r1 defender PiProposer "` + refined + `" 0`,
		`r2 attacker PiCritic "" 0`,
	}
	if len(got.turns) != len(want) {
		t.Fatalf("turns %q", got.turns)
	}
	for i := range want {
		// Tokens are estimated (a pi agent reports none): compare the rest.
		if g := got.turns[i][:strings.LastIndexByte(got.turns[i], ' ')]; g != want[i][:strings.LastIndexByte(want[i], ' ')] {
			t.Errorf("turn %d: %s, want %s", i, got.turns[i], want[i])
		}
	}
}
