package agent

import (
	"context"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/openaitest"
)

// The provider's settings are the client's, whole, with the model and
// the key the settings name.
func TestOpenAIConfigOfSettings(t *testing.T) {
	t.Setenv("PARLEY_TEST_SETTINGS_KEY", "sk-settings")
	s := ChatSettings{BaseURL: "http://models.internal:8080/v1", APIKeyEnv: "PARLEY_TEST_SETTINGS_KEY", Temperature: 0.25,
		MaxTokens: 17, RequestTimeout: 3 * time.Second, MaxRetries: 4, CountTotal: true, JSONMode: true}
	cfg := openAIConfig("granite-3b", s)
	if cfg.ChatSettings != s || cfg.Model != "granite-3b" || cfg.APIKey != "sk-settings" {
		t.Errorf("openAIConfig = %+v", cfg)
	}
	s.APIKeyEnv = "PARLEY_TEST_NEVER_SET"
	if cfg := openAIConfig("m", s); cfg.APIKey != "" {
		t.Errorf("an unset variable gave the key %q", cfg.APIKey)
	}
}

// End to end through Configure, as config.json's settings arrive: each
// setting shows in what the server is sent or in the turn it answers.
func TestProviderSettingsReachTheRequest(t *testing.T) {
	t.Setenv("PARLEY_TEST_PROVIDER_KEY", "sk-provider")
	srv := openaitest.New(t, func(r *openaitest.Request) openaitest.Response {
		if r.N == 1 {
			return openaitest.Status(503, "loading the model")
		}
		return openaitest.Reply(goodTurn, 900, 60)
	})
	s := ChatSettings{
		BaseURL: srv.URL(), APIKeyEnv: "PARLEY_TEST_PROVIDER_KEY", Temperature: 0.35, MaxTokens: 640,
		RequestTimeout: 30 * time.Second, MaxRetries: 1, CountTotal: true, JSONMode: true,
	}
	ads := Configure(AdapterOptions{Settings: func(kind, model string) (ChatSettings, bool) {
		return s, kind == KindOpenAI && model == "granite-3b"
	}})
	r, err := ads.New(Spec{Kind: KindOpenAI, Arg: "granite-3b"})
	if err != nil {
		t.Fatal(err)
	}
	llm, ok := r.(*LLM)
	if !ok {
		t.Fatalf("openai:granite-3b is a %T, want the turn loop", r)
	}
	tu, err := llm.Turn(context.Background(), request(1, 1))
	if err != nil {
		t.Fatalf("with one retry allowed, the second answer counts: %v", err)
	}
	if tu.Tokens != 960 {
		t.Errorf("CountTotal: %d tokens, want prompt + completion 960", tu.Tokens)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the first and one retry", len(reqs))
	}
	last := reqs[1]
	if last.Model != "granite-3b" || last.Temperature != 0.35 || last.MaxTokens != 640 ||
		last.ResponseFormat == nil || last.ResponseFormat.Type != "json_object" || last.Authorization != "Bearer sk-provider" {
		t.Errorf("request %+v", last)
	}
}
