package agent

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/openaitest"
)

// Every provider setting reaches the openai client's configuration, by
// name: a field added to ChatSettings and not passed on fails here.
func TestOpenAIConfigCarriesEverySetting(t *testing.T) {
	t.Setenv("PARLEY_TEST_SETTINGS_KEY", "sk-settings")
	var s ChatSettings
	sv := reflect.ValueOf(&s).Elem()
	for i := range sv.NumField() {
		f := sv.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("http://models.internal:8080/v" + sv.Type().Field(i).Name)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Float64:
			f.SetFloat(0.25 + float64(i))
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(17 + i))
		default:
			t.Fatalf("ChatSettings.%s: a %s this test cannot fill", sv.Type().Field(i).Name, f.Kind())
		}
	}
	s.APIKeyEnv = "PARLEY_TEST_SETTINGS_KEY"
	cfg := openAIConfig("granite-3b", s)
	cv := reflect.ValueOf(cfg)
	for i := range sv.NumField() {
		name := sv.Type().Field(i).Name
		got := cv.FieldByName(name)
		if !got.IsValid() {
			t.Errorf("OpenAIConfig has no %s", name)
			continue
		}
		if !reflect.DeepEqual(got.Interface(), sv.Field(i).Interface()) {
			t.Errorf("%s: %v reached the client as %v", name, sv.Field(i).Interface(), got.Interface())
		}
	}
	if cfg.Model != "granite-3b" || cfg.APIKey != "sk-settings" {
		t.Errorf("model %q, key %q", cfg.Model, cfg.APIKey)
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
