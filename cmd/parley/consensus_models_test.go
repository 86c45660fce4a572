package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
)

// consensus.judge in config.json reaches the endpoint of the openai
// section, and its reason shows in the answer; with the endpoint down the
// answer stays unclear with a warning.
func TestConsensusCheckJudgeFromConfig(t *testing.T) {
	t.Parallel()
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		calls++
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{
			"content": `{"agreement":"consistent","reason":"Same header, same rule."}`}}}})
	}))
	defer srv.Close()
	c := newCLIEnv(t)
	c.fileDebates(t, consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false))
	writeConfig := func(url string) {
		cfg := `{"openai": {"baseUrl": "` + url + `/v1"}, "consensus": {"judge": "openai:qwen2.5"}}`
		if err := os.WriteFile(filepath.Join(c.root, "config.json"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeConfig(srv.URL)
	out, errOut, code := c.run(t, "--json", "consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "Clients send a key of their own with each request")
	var got struct {
		Status string `json:"status"`
		Judge  string `json:"judge"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got.Status != "consistent" || got.Judge != "qwen2.5: Same header, same rule." || calls != 1 {
		t.Fatalf("judge: exit %d %+v %v calls %d\n%s%s", code, got, err, calls, out, errOut)
	}
	srv.Close()
	out, errOut, code = c.run(t, "consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "Clients send a key of their own with each request")
	if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "unclear: ") || !strings.Contains(errOut, "judge qwen2.5 did not answer") {
		t.Errorf("judge down: exit %d\n%s%s", code, out, errOut)
	}
	writeConfig("ftp://nope")
	if _, errOut, code := c.run(t, "consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "x"); code == 0 || !strings.Contains(errOut, "baseUrl") {
		t.Errorf("bad config: exit %d %s", code, errOut)
	}
}
