package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The API key of an openai: agent comes from the environment variable
// config.json names (openai.apiKeyEnv, or a model's own entry), read by
// the agent processes debate run starts; and openai.templates (relative to
// the root) replaces the embedded prompts file by file. Not parallel: it
// sets the variables for those processes.
func TestOpenAIKeyAndTemplatesFromConfig(t *testing.T) {
	t.Setenv("PARLEY_TEST_OPENAI_KEY", "sk-section")
	t.Setenv("PARLEY_TEST_OPENAI_KEY_DEFENDER", "sk-defender")
	srv := fakeDebater(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "prompts"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "prompts", "attacker-spec.tmpl"), []byte("A custom critic of {{.Topic}}."), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"openai":{"baseUrl":%q,"apiKeyEnv":"PARLEY_TEST_OPENAI_KEY","templates":"prompts","models":{"proposer-8b":{"apiKeyEnv":"PARLEY_TEST_OPENAI_KEY_DEFENDER"}}}}`, srv.URL())
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
		"--agent", "attacker=openai:critic-8b", "--agent", "defender=openai:proposer-8b")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	want := map[string]string{"critic-8b": "Bearer sk-section", "proposer-8b": "Bearer sk-defender"}
	seen := map[string]int{}
	for _, r := range srv.Requests() {
		if r.Authorization != want[r.Model] {
			t.Errorf("a request for %s carries Authorization %q, want %q", r.Model, r.Authorization, want[r.Model])
		}
		seen[r.Model]++
		custom := r.Messages[0].Content == "A custom critic of Idempotency keys."
		if _, role := r.Turn(); custom != (role == "attacker") {
			t.Errorf("the %s's system prompt: %q", role, r.Messages[0].Content)
		}
	}
	if seen["critic-8b"] == 0 || seen["proposer-8b"] == 0 {
		t.Fatalf("requests per model %v", seen)
	}
}
