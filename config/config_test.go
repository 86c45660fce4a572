package config

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
)

func TestLoadMissingIsDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget(debate.LayerPlan) != debate.DefaultBudget(debate.LayerPlan) {
		t.Fatalf("plan budget %+v", c.Budget(debate.LayerPlan))
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{"debate":{"budgets":{"spec":{"maxRounds":5}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Budget(debate.LayerSpec); b.MaxRounds != 5 || b.MaxTokens != 6000 {
		t.Fatalf("spec budget %+v", b)
	}
	for name, bad := range map[string]string{
		"unknown key":   `{"debate":{"budget":{}}}`,
		"unknown top":   `{"colour":"red"}`,
		"unknown layer": `{"debate":{"budgets":{"code":{"maxRounds":1}}}}`,
		"zero rounds":   `{"debate":{"budgets":{"spec":{"maxRounds":0}}}}`,
		"not json":      `{debate`,
		"trailing":      `{} {}`,
		"negative":      `{"messenger":{"reconcileMs":-1}}`,
		// Trailing data that json.Decoder.More does not see.
		"trailing bracket": `{"transport":"nats"}]`,
		"trailing brace":   `{}}`,
		"not an object":    `null`,
		// A layer is named in lower case: "Spec" would be accepted and
		// then never applied (Budget looks up "spec").
		"layer in capitals": `{"debate":{"budgets":{"Spec":{"maxRounds":9}}}}`,
		"layer twice":       `{"debate":{"budgets":{"SPEC":{"maxRounds":9},"spec":{"maxRounds":2}}}}`,
		// A key given twice: one of the two values would silently lose.
		"duplicate key":        `{"transport":"nats","transport":"file"}`,
		"duplicate nested key": `{"messenger":{"reconcileMs":5,"reconcileMs":6}}`,
		"duplicate in a list":  `{"openai":{"models":{"a":{"maxTokens":1,"maxTokens":2}}}}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	// Keys that differ only in case are different model names.
	c, err = Parse([]byte(`{"openai":{"models":{"llama":{"maxTokens":1},"Llama":{"maxTokens":2}}}}`))
	if err != nil || c.OpenAI.Endpoint("llama").MaxTokens != 1 || c.OpenAI.Endpoint("Llama").MaxTokens != 2 {
		t.Errorf("two models differing in case: %v", err)
	}
	if _, err := Parse([]byte("  \n")); err != nil {
		t.Errorf("an empty file is all defaults: %v", err)
	}
	// A UTF-8 file saved with a byte order mark (Notepad, PowerShell) is
	// read as the JSON after it, not refused as "not one JSON object".
	if c, err := Parse([]byte("\ufeff{\"debate\":{\"budgets\":{\"spec\":{\"maxRounds\":5}}}}\r\n")); err != nil || c.Budget(debate.LayerSpec).MaxRounds != 5 {
		t.Errorf("a file with a byte order mark: %v", err)
	}
	if _, err := Parse([]byte("\ufeff")); err != nil {
		t.Errorf("a byte order mark alone is an empty file: %v", err)
	}
}

// A setting's key matches whatever its case ("ReconcileMs" sets
// reconcileMs), so two spellings of one key in a section are the same
// setting given twice, refused in one line naming both, rather than one
// value silently dropped. A key in another case alone still sets its
// setting, and the keys of a map (model names) stay distinct by case.
func TestKeyGivenTwiceInAnotherCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"messenger":{"reconcileMs":1000,"ReconcileMs":5}}`:             `messenger.ReconcileMs is given twice, as "reconcileMs" and "ReconcileMs" (a key matches whatever its case); keep one`,
		`{"transport":"nats","Transport":"file"}`:                        `Transport is given twice, as "transport" and "Transport"`,
		`{"openai":{"baseUrl":"http://a/v1","baseURL":"http://b/v1"}}`:   `openai.baseURL is given twice, as "baseUrl" and "baseURL"`,
		`{"debate":{"budgets":{"spec":{"maxRounds":5,"maxrounds":2}}}}`:  `debate.budgets.spec.maxrounds is given twice, as "maxRounds" and "maxrounds"`,
		`{"openai":{"models":{"m":{"jsonMode":true,"JSONMode":false}}}}`: `openai.models.m.JSONMode is given twice, as "jsonMode" and "JSONMode"`,
		`{"Messenger":{"heartbeatTtlMs":2000},"messenger":{}}`:           `messenger is given twice, as "Messenger" and "messenger"`,
	} {
		_, err := Parse([]byte(in))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(fmt.Sprint(err), want) || strings.Contains(fmt.Sprint(err), "\n") {
			t.Errorf("%s: %v; want one line of ErrInvalid saying %q", in, err, want)
		}
	}
	c, err := Parse([]byte(`{"Messenger":{"ReconcileMs":250}}`))
	if err != nil || c.Messenger.ReconcileMs != 250 {
		t.Errorf("a key in another case alone: %v, reconcileMs %v; want 250", err, c)
	}
	c, err = Parse([]byte(`{"openai":{"models":{"llama":{"maxTokens":1},"Llama":{"maxTokens":2}}}}`))
	if err != nil || c.OpenAI.Endpoint("llama").MaxTokens != 1 || c.OpenAI.Endpoint("Llama").MaxTokens != 2 {
		t.Errorf("two models differing in case: %v", err)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"nope":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), FileName) {
		t.Fatalf("err = %v", err)
	}
}

func TestEscalationAndOpenAISections(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{
		"escalation":{"defender":"script:defender.json","attacker":"openai:qwen2.5:7b","workspace":"ws","gateMode":"rules"},
		"openai":{"baseUrl":"http://127.0.0.1:8080/v1","apiKeyEnv":"LOCAL_KEY","temperature":0,"maxRetries":2,
		          "models":{"qwen2.5:7b":{"baseUrl":"http://127.0.0.1:11434/v1","countTokens":"total"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Escalation.Attacker != "openai:qwen2.5:7b" || c.Escalation.GateMode != "rules" {
		t.Fatalf("escalation %+v", c.Escalation)
	}
	// A model's entry overrides the section, which overrides the defaults.
	e := c.OpenAI.Endpoint("qwen2.5:7b")
	if e.BaseURL != "http://127.0.0.1:11434/v1" || e.CountTokens != CountTotal || e.APIKeyEnv != "LOCAL_KEY" || *e.Temperature != 0 || *e.MaxRetries != 2 || e.RequestTimeoutMs != DefaultRequestTimeoutMs {
		t.Fatalf("endpoint of the model %+v", e)
	}
	if e := c.OpenAI.Endpoint("other"); e.BaseURL != "http://127.0.0.1:8080/v1" || e.CountTokens != CountCompletion {
		t.Fatalf("endpoint of another model %+v", e)
	}
	if e := (&Config{}).OpenAI.Endpoint("m"); e.BaseURL != DefaultOpenAIBaseURL || *e.Temperature != DefaultTemperature || *e.MaxRetries != DefaultMaxRetries || *e.JSONMode {
		t.Fatalf("defaults %+v", e)
	}
	for name, bad := range map[string]string{
		"one agent only":   `{"escalation":{"defender":"script:d.json"}}`,
		"bad spec":         `{"escalation":{"defender":"script:","attacker":"exec:true"}}`,
		"bad gate mode":    `{"escalation":{"gateMode":"coin"}}`,
		"unknown esc key":  `{"escalation":{"defendr":"script:d.json"}}`,
		"bad base url":     `{"openai":{"baseUrl":"localhost:11434"}}`,
		"bad env name":     `{"openai":{"apiKeyEnv":"MY KEY"}}`,
		"hot temperature":  `{"openai":{"temperature":3}}`,
		"retries":          `{"openai":{"maxRetries":-1}}`,
		"count":            `{"openai":{"countTokens":"prompt"}}`,
		"model bad url":    `{"openai":{"models":{"m":{"baseUrl":"ftp://x"}}}}`,
		"model unknown":    `{"openai":{"models":{"m":{"url":"http://x"}}}}`,
		"empty model name": `{"openai":{"models":{" ":{}}}}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	// Keys that differ only in case are different model names.
	c, err = Parse([]byte(`{"openai":{"models":{"llama":{"maxTokens":1},"Llama":{"maxTokens":2}}}}`))
	if err != nil || c.OpenAI.Endpoint("llama").MaxTokens != 1 || c.OpenAI.Endpoint("Llama").MaxTokens != 2 {
		t.Errorf("two models differing in case: %v", err)
	}
	if _, err := Parse([]byte("  \n")); err != nil {
		t.Errorf("an empty file is all defaults: %v", err)
	}
	// A UTF-8 file saved with a byte order mark (Notepad, PowerShell) is
	// read as the JSON after it, not refused as "not one JSON object".
	if c, err := Parse([]byte("\ufeff{\"debate\":{\"budgets\":{\"spec\":{\"maxRounds\":5}}}}\r\n")); err != nil || c.Budget(debate.LayerSpec).MaxRounds != 5 {
		t.Errorf("a file with a byte order mark: %v", err)
	}
	if _, err := Parse([]byte("\ufeff")); err != nil {
		t.Errorf("a byte order mark alone is an empty file: %v", err)
	}
}

// The effective configuration is a complete config.json: every default
// written out, and parsing it back gives the same settings.
func TestEffectiveRoundTrips(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{"debate":{"budgets":{"plan":{"maxRounds":5}}},"openai":{"models":{"m":{"maxTokens":512}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := c.Effective()
	if *e.Debate.Budgets[debate.LayerPlan].MaxRounds != 5 || *e.Debate.Budgets[debate.LayerSpec].MaxTokens != 6000 ||
		e.Messenger.ReconcileMs != DefaultReconcileMs || e.Escalation.GateMode != DefaultGateMode ||
		e.OpenAI.BaseURL != DefaultOpenAIBaseURL || e.OpenAI.Models["m"].MaxTokens != 512 || e.OpenAI.Models["m"].BaseURL != DefaultOpenAIBaseURL {
		t.Fatalf("effective %+v", e)
	}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatalf("the effective config does not parse back: %v\n%s", err, data)
	}
	again, _ := json.Marshal(back.Effective())
	if string(again) != string(data) {
		t.Fatalf("round trip differs:\n%s\n%s", data, again)
	}
	for _, l := range debate.Layers {
		if back.Budget(l) != c.Budget(l) {
			t.Errorf("%s budget %+v, want %+v", l, back.Budget(l), c.Budget(l))
		}
	}
}

// "parley config show" prints every setting config.json gives, not only
// the sections with defaults: the consensus models and the seal's keys
// too, which the effective configuration once left out ("consensus": {},
// "seal": {}), so that it showed signing off while it was on, and a copy
// of it as config.json turned signing and the judge off.
func TestEffectiveKeepsEverySetting(t *testing.T) {
	t.Parallel()
	const pub = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
	c, err := Parse([]byte(`{"consensus":{"embeddings":"openai:nomic-embed-text","judge":"openai:qwen2.5:7b"},` +
		`"seal":{"signingKey":"/etc/parley/seal.key","publicKey":"` + pub + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := c.Effective()
	if e.Consensus != c.Consensus || e.Seal != c.Seal {
		t.Fatalf("effective consensus %+v, seal %+v; want %+v, %+v", e.Consensus, e.Seal, c.Consensus, c.Seal)
	}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil || back.Consensus != c.Consensus || back.Seal != c.Seal {
		t.Fatalf("parsed back: %+v, %+v, %v\n%s", back.Consensus, back.Seal, err, data)
	}
}

func TestResolve(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for in, want := range map[string]string{"": "", "/abs/x": "/abs/x", "rel/x": filepath.Join("/root", "rel/x"),
		"~/keys/seal.key": filepath.Join(home, "keys/seal.key"), "~": home, "~other/x": filepath.Join("/root", "~other/x")} {
		if got := Resolve("/root", in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
	// A path of config.json written with "~/" is the home's, as in a
	// shell, not a directory called "~" in the root.
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, FileName), []byte(`{"nats":{"credentials":"~/nats.creds"},"escalation":{"workspace":"~/src"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if c.NATS.Credentials != filepath.Join(home, "nats.creds") || Resolve(root, c.Escalation.Workspace) != filepath.Join(home, "src") {
		t.Errorf("credentials %q, workspace %q", c.NATS.Credentials, Resolve(root, c.Escalation.Workspace))
	}
}

func TestTransport(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{}`))
	if err != nil || c.UseNATS() {
		t.Fatalf("default: %+v, %v; want the file transport", c, err)
	}
	c, err = Parse([]byte(`{"transport":"nats","nats":{"url":"nats://a:4222, tls://b:4222","credentials":"/etc/parley/user.creds","replicas":3}}`))
	if err != nil || !c.UseNATS() || c.NATS.Replicas != 3 || c.NATS.Credentials != "/etc/parley/user.creds" {
		t.Fatalf("nats: %+v, %v", c, err)
	}
	if c, err := Parse([]byte(`{"transport":"file","nats":{"url":"nats://x:1"}}`)); err != nil || c.UseNATS() {
		t.Fatalf("a nats section with the file transport: %+v, %v", c, err)
	}
	// The effective configuration names the transport and the server.
	e := (&Config{}).Effective()
	if e.Transport != TransportFile || e.NATS.URL != DefaultNATSURL || e.NATS.Replicas != 1 || e.NATS.RetryMs != DefaultNATSRetryMs {
		t.Fatalf("effective defaults: %q %+v", e.Transport, e.NATS)
	}
	if e := c.Effective(); e.Transport != TransportNATS || e.NATS.Replicas != 3 || e.NATS.Credentials != "/etc/parley/user.creds" {
		t.Fatalf("effective: %q %+v", e.Transport, e.NATS)
	}
	for name, bad := range map[string]string{
		"unknown nats key": `{"transport":"nats","nats":{"server":"nats://x:1"}}`,
		"bad scheme":       `{"nats":{"url":"http://x:4222"}}`,
		"no scheme":        `{"nats":{"url":"localhost:4222"}}`,
		"empty in list":    `{"nats":{"url":"nats://a:1,"}}`,
		"replicas":         `{"nats":{"replicas":7}}`,
		"transport type":   `{"transport":1}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	// Keys that differ only in case are different model names.
	c, err = Parse([]byte(`{"openai":{"models":{"llama":{"maxTokens":1},"Llama":{"maxTokens":2}}}}`))
	if err != nil || c.OpenAI.Endpoint("llama").MaxTokens != 1 || c.OpenAI.Endpoint("Llama").MaxTokens != 2 {
		t.Errorf("two models differing in case: %v", err)
	}
	if _, err := Parse([]byte("  \n")); err != nil {
		t.Errorf("an empty file is all defaults: %v", err)
	}
	// A UTF-8 file saved with a byte order mark (Notepad, PowerShell) is
	// read as the JSON after it, not refused as "not one JSON object".
	if c, err := Parse([]byte("\ufeff{\"debate\":{\"budgets\":{\"spec\":{\"maxRounds\":5}}}}\r\n")); err != nil || c.Budget(debate.LayerSpec).MaxRounds != 5 {
		t.Errorf("a file with a byte order mark: %v", err)
	}
	if _, err := Parse([]byte("\ufeff")); err != nil {
		t.Errorf("a byte order mark alone is an empty file: %v", err)
	}
}

func TestLoadResolvesCredentialsAgainstTheRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"transport":"nats","nats":{"credentials":"nats/user.creds"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil || c.NATS.Credentials != filepath.Join(dir, "nats", "user.creds") {
		t.Fatalf("Load = %+v, %v", c, err)
	}
}

// With a relative root (the default, .parley), the files config.json
// names relative to it resolve to where they are wherever parley runs
// from, and "config show" (the effective configuration) names them so
// that it reads back as the same settings: not ".parley/user.creds",
// which config.json would resolve again, to .parley/.parley/user.creds.
func TestRelativeRootPathsReadBackTheSame(t *testing.T) {
	t.Chdir(t.TempDir()) // not parallel: the working directory is the process's
	if err := os.MkdirAll(".parley", 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(".parley", FileName), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write([]byte(`{"transport":"nats","nats":{"credentials":"nats/user.creds"},"seal":{"signingKey":"seal.key"}}`))
	c, err := Load(".parley")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	creds, key := filepath.Join(wd, ".parley", "nats", "user.creds"), filepath.Join(wd, ".parley", "seal.key")
	if c.NATS.Credentials != creds || c.Seal.SigningKey != key {
		t.Fatalf("credentials %q, signing key %q; want %q, %q", c.NATS.Credentials, c.Seal.SigningKey, creds, key)
	}
	shown, err := json.Marshal(c.Effective())
	if err != nil {
		t.Fatal(err)
	}
	write(shown)
	back, err := Load(".parley")
	if err != nil || back.NATS.Credentials != creds || back.Seal.SigningKey != key {
		t.Fatalf("config show as config.json reads back as credentials %q, signing key %q (%v); want %q, %q", back.NATS.Credentials, back.Seal.SigningKey, err, creds, key)
	}
}

// FuzzParse feeds arbitrary bytes to the config decoder: it never panics
// or hangs, and a config it accepts reads back the same through Effective.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"debate":{"budgets":{"spec":{"maxRounds":5}}}}`, `{"transport":"nats","nats":{"url":"nats://a:1","replicas":3}}`,
		`{"openai":{"models":{"m":{"baseUrl":"http://x/v1"}}},"escalation":{"defender":"script:a","attacker":"@B"}}`,
		`{"a":[x`, `{"a":[[[[`, `{"a":{"b":1,"b":2}}`, `{}]`, `null`, `{"messenger":{"reconcileMs":1e3}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		b, err := json.Marshal(c.Effective())
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(b)
		if err != nil {
			t.Fatalf("effective config %s does not parse back: %v", b, err)
		}
		for _, l := range debate.Layers {
			if back.Budget(l) != c.Budget(l) {
				t.Fatalf("%s budget %+v read back as %+v", l, c.Budget(l), back.Budget(l))
			}
		}
	})
}

// A config.json that is not a regular file is a clear error, at once: a
// directory, and a named pipe (which, opened without O_NONBLOCK, blocked
// every parley command in open(2) for good).
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		plant func(path string) error
	}{
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"named pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := tc.plant(filepath.Join(dir, FileName)); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := Load(dir); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not a regular file") {
					t.Fatalf("err = %v, want ErrInvalid naming a file that is not regular", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Load blocked on it")
			}
		})
	}
}

// A root that is a file (--root /etc/passwd) is not a directory, said as
// such: nothing is wrong with a config, there is none to read.
func TestLoadOfARootThatIsAFile(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(root, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(root)
	if !errors.Is(err, ErrNotDirectory) || errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "config") ||
		!strings.Contains(err.Error(), "the root "+root+" is not a directory") || !strings.Contains(err.Error(), "--root") {
		t.Fatalf("err = %v, want ErrNotDirectory saying the root is not a directory and what to give --root", err)
	}
}

// The openai section is the openai provider's settings, model by model;
// other chat providers have no section here and keep their defaults.
func TestChatSettings(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{"openai":{"baseUrl":"http://127.0.0.1:8080/v1","apiKeyEnv":"LOCAL_KEY","maxRetries":3,"jsonMode":true,
		"models":{"judge-7b":{"requestTimeoutMs":5000,"countTokens":"total","temperature":0.7,"maxTokens":900}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := c.ChatSettings(agent.KindOpenAI, "judge-7b")
	want := agent.ChatSettings{BaseURL: "http://127.0.0.1:8080/v1", APIKeyEnv: "LOCAL_KEY", Temperature: 0.7, MaxTokens: 900,
		RequestTimeout: 5 * time.Second, MaxRetries: 3, CountTotal: true, JSONMode: true}
	if !ok || s != want {
		t.Fatalf("judge-7b: %+v %v, want %+v", s, ok, want)
	}
	s, ok = c.ChatSettings(agent.KindOpenAI, "other")
	if !ok || s.CountTotal || s.Temperature != DefaultTemperature || s.RequestTimeout != DefaultRequestTimeoutMs*time.Millisecond {
		t.Fatalf("other: %+v %v", s, ok)
	}
	if s, ok := c.ChatSettings("another-provider", "judge-7b"); ok || s != (agent.ChatSettings{}) {
		t.Fatalf("another provider: %+v %v", s, ok)
	}
}

// Every millisecond setting is refused, with its key and its bound, when
// it is negative or longer than parley ever waits; a value at the bound is
// kept. A huge heartbeat TTL once overflowed time.Duration and made
// "parley watch" panic; a huge reconcile period became a 1 ms rescan loop.
func TestMillisecondSettingsAreBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key   string // as the error names it
		json  func(v int64) string
		bound int64
	}{
		{"messenger.reconcileMs", func(v int64) string { return fmt.Sprintf(`{"messenger":{"reconcileMs":%d}}`, v) }, 3_600_000},
		{"messenger.heartbeatTtlMs", func(v int64) string { return fmt.Sprintf(`{"messenger":{"heartbeatTtlMs":%d}}`, v) }, 86_400_000},
		{"nats.retryMs", func(v int64) string { return fmt.Sprintf(`{"nats":{"retryMs":%d}}`, v) }, 3_600_000},
		{"openai.requestTimeoutMs", func(v int64) string { return fmt.Sprintf(`{"openai":{"requestTimeoutMs":%d}}`, v) }, 86_400_000},
		{"openai.models.qwen.requestTimeoutMs", func(v int64) string {
			return fmt.Sprintf(`{"openai":{"models":{"qwen":{"requestTimeoutMs":%d}}}}`, v)
		}, 86_400_000},
		{"debate.budgets.verify.maxWallClockMs", func(v int64) string {
			return fmt.Sprintf(`{"debate":{"budgets":{"verify":{"maxWallClockMs":%d}}}}`, v)
		}, 604_800_000},
	} {
		t.Run(tc.key, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse([]byte(tc.json(tc.bound))); err != nil {
				t.Errorf("%s at its bound %d: %v", tc.key, tc.bound, err)
			}
			for _, v := range []int64{-1, tc.bound + 1, 10_000_000_000_000, math.MaxInt64} {
				_, err := Parse([]byte(tc.json(v)))
				msg := fmt.Sprint(err)
				if !errors.Is(err, ErrInvalid) || strings.Contains(msg, "\n") ||
					!strings.Contains(msg, tc.key) || !strings.Contains(msg, strconv.FormatInt(tc.bound, 10)) {
					t.Errorf("%s %d: %v; want one line of ErrInvalid naming the key and its bound %d", tc.key, v, err, tc.bound)
				}
			}
		})
	}
}

// An escalation agent of a kind no adapter makes ("bogus:…", "scirpt:…")
// is refused when config.json is read, naming the key and the kinds to
// use: found only when a DRIFT record needed a debate, it was decided
// "hold: unavailable" and logged as escalated, a configuration mistake
// recorded as a decision. Every kind an agent may have is kept.
func TestEscalationAgentKindIsChecked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ defender, attacker, key, kind string }{
		{"bogus:defender.json", "script:attacker.json", "escalation.defender", "bogus"},
		{"script:defender.json", "scirpt:attacker.json", "escalation.attacker", "scirpt"},
	} {
		_, err := Parse([]byte(fmt.Sprintf(`{"escalation":{"defender":%q,"attacker":%q}}`, tc.defender, tc.attacker)))
		msg := fmt.Sprint(err)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(msg, tc.key+": ") || !strings.Contains(msg, fmt.Sprintf("unknown kind %q", tc.kind)) ||
			!strings.Contains(msg, "script:…") || !strings.Contains(msg, "@NAME") {
			t.Errorf("defender %s, attacker %s: %v; want ErrInvalid naming %s, the unknown kind %q and the kinds to use", tc.defender, tc.attacker, err, tc.key, tc.kind)
		}
	}
	// One running agent for both sides is refused too: it stopped the run
	// at the first record that needed a debate.
	if _, err := Parse([]byte(`{"escalation":{"defender":"@Rook","attacker":"@Rook"}}`)); !errors.Is(err, ErrInvalid) ||
		!strings.Contains(fmt.Sprint(err), "escalation.defender and attacker: both are the running agent @Rook") {
		t.Errorf("@Rook on both sides: %v; want ErrInvalid naming it", err)
	}
	for _, spec := range []string{"script:d.json", "Script:d.json", "exec:./agent --role defender", "openai:qwen2.5:7b", "@Rook"} {
		if _, err := Parse([]byte(fmt.Sprintf(`{"escalation":{"defender":%q,"attacker":"exec:true"}}`, spec))); err != nil {
			t.Errorf("defender %s: %v", spec, err)
		}
	}
}

// A heartbeat TTL under a second is refused, with the key and the range:
// renewed every third of it by a durable write, the registration of an
// agent that runs would go stale between renewals, and the agent would
// count as dead (and be pruned) while it runs. A second is kept, and 0 is
// the default.
func TestHeartbeatTTLHasALowerBound(t *testing.T) {
	t.Parallel()
	for _, v := range []int{1, 30, 999} {
		_, err := Parse([]byte(fmt.Sprintf(`{"messenger":{"heartbeatTtlMs":%d}}`, v)))
		want := fmt.Sprintf("messenger.heartbeatTtlMs %d: use 1000 (a second) to 86400000 (a day), or 0 for the default (30000)", v)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("heartbeatTtlMs %d: %v; want ErrInvalid saying %q", v, err, want)
		}
	}
	for v, want := range map[int]time.Duration{0: 0, 1000: time.Second, 3000: 3 * time.Second} {
		c, err := Parse([]byte(fmt.Sprintf(`{"messenger":{"heartbeatTtlMs":%d}}`, v)))
		if err != nil || c.Messenger.HeartbeatTTL() != want {
			t.Errorf("heartbeatTtlMs %d: %v, %v; want %v", v, c, err, want)
		}
	}
}

// The durations a Config hands out never overflow, even for one built in
// code that Parse never checked: a value past its bound is the bound.
func TestDurationsNeverOverflow(t *testing.T) {
	t.Parallel()
	huge := math.MaxInt
	c := &Config{Messenger: Messenger{ReconcileMs: huge, HeartbeatTTLMs: huge}, NATS: NATS{RetryMs: huge}}
	c.OpenAI.RequestTimeoutMs = huge
	for name, got := range map[string]time.Duration{
		"reconcile":       c.Messenger.Reconcile(),
		"heartbeat TTL":   c.Messenger.HeartbeatTTL(),
		"retry":           c.NATS.Retry(),
		"request timeout": c.OpenAI.Endpoint("any").RequestTimeout(),
	} {
		if got <= 0 || got > 7*24*time.Hour {
			t.Errorf("%s of %d ms: %v", name, huge, got)
		}
	}
	c = &Config{Messenger: Messenger{ReconcileMs: 250, HeartbeatTTLMs: 3000}, NATS: NATS{RetryMs: -5}}
	if c.Messenger.Reconcile() != 250*time.Millisecond || c.Messenger.HeartbeatTTL() != 3*time.Second || c.NATS.Retry() != 0 {
		t.Errorf("ordinary values: %v %v %v", c.Messenger.Reconcile(), c.Messenger.HeartbeatTTL(), c.NATS.Retry())
	}
}

// What the decoder says about config.json is worded for the person who
// wrote it: the key as config.json spells it and the kind of value it
// takes, never a Go struct ("Go struct field Config.openai.temperature of
// type float64"); an unknown key with the object it is in and where it is
// in the file, and the key of that object it is close to, or, for a
// setting put one level off, where it goes (never "did you mean" the very
// key that was written).
func TestParseErrorsNameTheKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"openai":{"temperature":"hot"}}`, "openai.temperature: give a number, not a string"},
		{`{"messenger":{"reconcileMs":"1s"}}`, "messenger.reconcileMs: give a whole number, not a string"},
		{`{"openai":{"jsonMode":"yes"}}`, "openai.jsonMode: give true or false, not a string"},
		{`{"escalation":{"defender":7}}`, "escalation.defender: give a string, not a number"},
		{`{"debate":{"budgets":{"spec":{"maxRounds":2.5}}}}`, "debate.budgets.spec.maxRounds: give a whole number, not 2.5"},
		{`{"debate":{"budgets":{"spec":{"maxRound":5}}}}`, `line 1, column 31: unknown key "maxRound" in debate.budgets.spec (did you mean "maxRounds"?)`},
		{`{"escalation":{"defendr":"x"}}`, `unknown key "defendr" in escalation (did you mean "defender"?)`},
		{`{"colour":"red"}`, `unknown key "colour" at the top level (its keys are: consensus, debate, escalation, messenger, nats, openai, seal, transport)`},
		{`{"openai":{"models":{"qwen":{"temprature":1}}}}`, `unknown key "temprature" in openai.models.qwen (did you mean "temperature"?)`},
		// A setting one level off: where it goes.
		{`{"debate":{"maxRounds":5}}`, `line 1, column 12: unknown key "maxRounds" in debate: it goes in debate.budgets.<layer>`},
		{"{\n  \"maxRounds\": 5\n}", `line 2, column 3: unknown key "maxRounds" at the top level: it goes in debate.budgets.<layer>`},
		{`{"reconcileMs":500}`, `unknown key "reconcileMs" at the top level: it goes in messenger`},
		{`{"escalation":{"baseUrl":"http://127.0.0.1:8080/v1"}}`, `unknown key "baseUrl" in escalation: it goes in openai or openai.models.<model>`},
		{`{"debate":{"budgets":{"spec":{"judge":"openai:x"}}}}`, `unknown key "judge" in debate.budgets.spec: it goes in consensus`},
		// A slip in the JSON itself says where it is in the file.
		{"\n{\n  \"debate\": {\n    \"budgets\": {\"spec\": {\"maxRounds\": 5,}}\n  }\n}\n", "invalid config: line 4, column 41: invalid character '}'"},
		{"\ufeff{\"messenger\": {\"reconcileMs\": 1000}\n \"transport\": \"file\"}", "invalid config: line 2, column 2: invalid character '\"' after object key:value pair"},
		{"{\n  \"messenger\": {\"reconcileMs\": 1000},\n", "invalid config: the file ends before its JSON is complete (a } or ] is missing?)"},
		// A comment, as in a JSONC or YAML file, is named as one.
		{"{\n  // faster wake-ups\n  \"messenger\": {\"reconcileMs\": 500}\n}", "invalid config: line 2, column 3: a comment: JSON has none, remove it"},
		{"/* parley */ {}", "invalid config: line 1, column 1: a comment: JSON has none, remove it"},
		{"# parley\n{}", "invalid config: line 1, column 1: a comment: JSON has none, remove it"},
	} {
		_, err := Parse([]byte(tc.in))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "did you mean \"maxRounds\"?") && strings.Contains(tc.in, "\"maxRounds\"") {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// A root whose seal section cannot sign what its readers check refuses to
// sign at all: a debate closed with a key that is not seal.publicKey's
// private half, or with none while seal.publicKey is set, would read as
// tampered the moment it is filed.
func TestSealSigningKeyMustMatchThePublicKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile := func(name string) (string, ed25519.PublicKey) {
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(base64.StdEncoding.EncodeToString(priv.Seed())+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p, pub
	}
	mine, minePub := keyFile("mine.key")
	_, otherPub := keyFile("other.key")
	b64 := base64.StdEncoding.EncodeToString
	for name, tc := range map[string]struct {
		seal     Seal
		mismatch bool
		signs    bool
	}{
		"none":                 {},
		"signing key alone":    {seal: Seal{SigningKey: mine}, signs: true},
		"the matching pair":    {seal: Seal{SigningKey: mine, PublicKey: b64(minePub)}, signs: true},
		"another's public key": {seal: Seal{SigningKey: mine, PublicKey: b64(otherPub)}, mismatch: true},
		"public key alone":     {seal: Seal{PublicKey: b64(minePub)}, mismatch: true},
	} {
		t.Run(name, func(t *testing.T) {
			c := &Config{Seal: tc.seal}
			key, err := c.SealSigningKey()
			if got := errors.Is(err, ErrSealKeyMismatch); got != tc.mismatch {
				t.Fatalf("mismatch %v, want %v: %v", got, tc.mismatch, err)
			}
			if tc.mismatch && !strings.Contains(err.Error(), "seal.signingKey") {
				t.Errorf("the error does not say what to set: %v", err)
			}
			if !tc.mismatch && err != nil {
				t.Fatal(err)
			}
			if (key != nil) != tc.signs {
				t.Errorf("key %v, want one: %v", key != nil, tc.signs)
			}
			if tc.signs && !key.Public().(ed25519.PublicKey).Equal(minePub) {
				t.Error("not the key in the file")
			}
		})
	}
}
