package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/web"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// vaultFiles lists the files under the root's vault wiki (records, pages).
func vaultFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(filepath.Join(root, "vault", "wiki"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// An agent whose model endpoint cannot be used never produces a turn: the
// debate ends UNAVAILABLE at its first request, naming the agent and the
// cause with what to do, files nothing in the vault, and exits 3 — long
// before the wall clock. Not parallel: it sets an environment variable
// that the agent processes read.
func TestUnavailableEndpoints(t *testing.T) {
	keyEnv := "PARLEY_TEST_UNSET_KEY_" + strings.ToUpper(strings.ReplaceAll(t.Name(), "/", "_"))
	os.Unsetenv(keyEnv)
	answer := func(code int, msg string) func(r *openaitest.Request) openaitest.Response {
		return func(*openaitest.Request) openaitest.Response { return openaitest.Status(code, msg) }
	}
	const wallClock = 10 * time.Minute
	cases := []struct {
		name string
		// baseURL is the endpoint config.json names.
		baseURL func(t *testing.T) string
		kind    debate.UnavailableKind
		// want are the parts of the one line that says what to do.
		want []string
	}{
		{"401 with the key's variable unset", func(t *testing.T) string {
			return openaitest.New(t, answer(401, "Incorrect API key provided")).URL()
		}, debate.UnavailableAuth, []string{"HTTP 401", "Incorrect API key provided", "$" + keyEnv, "openai.apiKeyEnv", "not set"}},
		{"403", func(t *testing.T) string {
			return openaitest.New(t, answer(403, "this project may not use the model")).URL()
		}, debate.UnavailableAuth, []string{"HTTP 403", "$" + keyEnv, "not set"}},
		{"404 from a base URL without /v1", func(t *testing.T) string {
			return strings.TrimSuffix(openaitest.New(t, answer(200, "unused")).URL(), "/v1")
		}, debate.UnavailableNotFound, []string{"HTTP 404", "/chat/completions", "openai.baseUrl", "/v1"}},
		{"500 forever", func(t *testing.T) string {
			return openaitest.New(t, answer(500, "the GPU fell over")).URL()
		}, debate.UnavailableServer, []string{"HTTP 500", "the GPU fell over", "after 2 retries", "openai.maxRetries"}},
		{"closed port", func(t *testing.T) string {
			return "http://" + closedPort(t) + "/v1"
		}, debate.UnavailableUnreachable, []string{"connection refused", "openai.baseUrl"}},
		{"https against a plain-HTTP server", func(t *testing.T) string {
			return "https://" + strings.TrimPrefix(openaitest.New(t, answer(200, "unused")).URL(), "http://")
		}, debate.UnavailableUnreachable, []string{"does not speak TLS", "openai.baseUrl", "http://127.0.0.1:"}},
		{"empty replies", func(t *testing.T) string {
			return openaitest.New(t, func(*openaitest.Request) openaitest.Response { return openaitest.Reply("", 10, 0) }).URL()
		}, debate.UnavailableFailed, []string{"sent no text", "the reply is empty", "model server's log"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := c.baseURL(t)
			for _, asJSON := range []bool{false, true} {
				root := filepath.Join(t.TempDir(), "root")
				if err := os.MkdirAll(root, 0o700); err != nil {
					t.Fatal(err)
				}
				writeConfig(t, root, fmt.Sprintf(`{"openai":{"baseUrl":%q,"apiKeyEnv":%q,"maxRetries":2}}`, base, keyEnv))
				args := []string{"debate", "run", "--layer", "spec", "--topic", "Cache invalidation strategy",
					"--position", "Invalidate on write through a change feed", "--timeout", wallClock.String(),
					"--agent", "attacker=openai:critic-model", "--agent", "defender=openai:defender-model"}
				if asJSON {
					args = append([]string{"--json"}, args...)
				}
				start := time.Now()
				out, errs, code := dcli(t, root, args...)
				took := time.Since(start)
				t.Logf("json=%v: exit %d after %v (wall clock %v)", asJSON, code, took.Round(time.Millisecond), wallClock)
				if code != cmdutil.ExitUnavailable {
					t.Fatalf("exit %d, want %d (unavailable)\nstdout:\n%s\nstderr:\n%s", code, cmdutil.ExitUnavailable, out, errs)
				}
				if took >= wallClock/2 {
					t.Fatalf("took %v: the debate waited out the wall clock", took)
				}
				if files := vaultFiles(t, root); len(files) != 0 {
					t.Fatalf("an unavailable debate wrote to the vault: %v", files)
				}
				if asJSON {
					v := verdictLineOf(t, out)
					u, _ := v["unavailable"].(map[string]any)
					if v["verdict"] != "UNAVAILABLE" || v["action"] != "escalate" || v["record"] != "" || u == nil ||
						u["kind"] != string(c.kind) || !strings.HasPrefix(fmt.Sprint(u["agent"]), "Attacker1-") {
						t.Fatalf("verdict line %v", v)
					}
					for _, w := range c.want {
						if !strings.Contains(fmt.Sprint(u["detail"], " ", u["hint"]), w) {
							t.Errorf("the cause lacks %q: %v", w, u)
						}
					}
					if errs != "" {
						t.Errorf("stderr under --json: %q", errs)
					}
					continue
				}
				// The cause is on the terminal once, on one line that names
				// the agent and says what to do.
				all := out + errs
				var causeLines []string
				for _, l := range strings.Split(all, "\n") {
					if strings.Contains(l, c.want[0]) {
						causeLines = append(causeLines, l)
					}
				}
				if len(causeLines) != 1 {
					t.Fatalf("the cause is on %d lines, want 1:\n%s", len(causeLines), all)
				}
				for _, w := range append(c.want, "Attacker1-", "is unavailable") {
					if !strings.Contains(causeLines[0], w) {
						t.Errorf("the cause line lacks %q: %s", w, causeLines[0])
					}
				}
				for _, w := range []string{"UNAVAILABLE → escalate (unavailable)", "none filed"} {
					if !strings.Contains(out, w) {
						t.Errorf("output lacks %q:\n%s", w, out)
					}
				}
				if strings.Contains(all, "reply rejected") {
					t.Errorf("an unavailable endpoint shows up as rejected replies:\n%s", all)
				}
			}
		})
	}
}

// An UNAVAILABLE debate is kept whole in its transcript and verdict.json,
// and transcripts list, transcripts show and the web page show it, with
// the agent and the cause; there is no vault page to check.
func TestUnavailableDebateIsShownNotFiled(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, root, fmt.Sprintf(`{"openai":{"baseUrl":"http://%s/v1"}}`, closedPort(t)))
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "plan", "--topic", "Queue backpressure",
		"--agent", "attacker=script:"+writeScripts(t, t.TempDir(), map[string]string{"c": repeatingCritic})["c"],
		"--agent", "defender=openai:planner")
	if code != cmdutil.ExitUnavailable {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	v := verdictLineOf(t, out)
	id := v["debate_id"].(string)
	u := v["unavailable"].(map[string]any)
	// The attacker argued; the defender, which never did, is the one named.
	if !strings.HasPrefix(u["agent"].(string), "Defender-") || u["kind"] != "unreachable" {
		t.Fatalf("unavailable %v", u)
	}
	ver, err := openStore(t, root).Verdict(id)
	if err != nil || ver.Verdict != debate.Unavailable || ver.Record != "" || ver.Unavailable == nil || ver.Unavailable.Agent != u["agent"] {
		t.Fatalf("verdict.json: %v %+v", err, ver)
	}
	out, _, code = dcli(t, root, "--json", "transcripts", "list")
	if code != 0 || !strings.Contains(out, `"UNAVAILABLE"`) {
		t.Errorf("transcripts list: exit %d: %s", code, out)
	}
	out, _, code = dcli(t, root, "transcripts", "show", id)
	if code != 0 || !strings.Contains(out, "UNAVAILABLE") || !strings.Contains(out, "connection refused") || strings.Contains(out, "Vault page") {
		t.Errorf("transcripts show: exit %d:\n%s", code, out)
	}
	h := webHandler(t, root)
	res, body := webGet(t, h, "/debates/"+id)
	if res != 200 || !strings.Contains(body, "UNAVAILABLE") || !strings.Contains(body, "connection refused") {
		t.Errorf("web page: %d\n%s", res, body)
	}
	if files := vaultFiles(t, root); len(files) != 0 {
		t.Errorf("vault files %v", files)
	}
}

func webHandler(t *testing.T, root string) http.Handler {
	t.Helper()
	st := openStore(t, root)
	v, err := vault.Open(filepath.Join(root, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	cs, err := consensus.Open(root, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	srv, err := web.New(web.Config{Debates: st, Vault: v, Consensus: cs})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func webGet(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil))
	return rec.Code, rec.Body.String()
}

// A participant that cannot start — an exec: command that does not exist,
// an agent process that exits before it registers — makes the debate
// UNAVAILABLE at once, naming it and why.
func TestUnavailableWhenAnAgentCannotStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "prompts"), 0o700); err != nil {
		t.Fatal(err)
	}
	// A prompt template that does not parse: the openai agent's process
	// stops before it registers.
	os.WriteFile(filepath.Join(root, "prompts", "defender-spec.tmpl"), []byte("{{.Broken"), 0o600)
	writeConfig(t, root, `{"openai":{"templates":"prompts"}}`)
	critic := writeScripts(t, dir, map[string]string{"c": repeatingCritic})["c"]
	for _, c := range []struct {
		defender string
		kind     string
		want     []string
	}{
		{"exec:/nonexistent/debater --fast", "cannot_start", []string{"/nonexistent/debater", "cannot start", "check the command"}},
		{"openai:local-model", "cannot_start", []string{"exited", "before it registered", "defender-spec.tmpl", "logs/Defender-"}},
	} {
		out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Retry budget "+c.defender,
			"--agent", "attacker=script:"+critic, "--agent", "defender="+c.defender)
		if code != cmdutil.ExitUnavailable {
			t.Fatalf("%s: exit %d: %s\n%s", c.defender, code, errs, out)
		}
		u := verdictLineOf(t, out)["unavailable"].(map[string]any)
		line := fmt.Sprint(u["detail"], "; ", u["hint"])
		if u["kind"] != c.kind || !strings.HasPrefix(u["agent"].(string), "Defender-") {
			t.Errorf("%s: %v", c.defender, u)
		}
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: the cause lacks %q: %s", c.defender, w, line)
			}
		}
	}
}
