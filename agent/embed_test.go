package agent_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
)

// Embed returns the vectors in the order of the texts, whatever order the
// server lists them in, and refuses an answer that does not hold exactly
// one vector per text, an error status, and a refused key, each as the
// one client's error kinds.
func TestEmbedOrdersAndChecksTheAnswer(t *testing.T) {
	answers := map[string]struct {
		status int
		body   string
	}{
		"ok":      {200, `{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}`},
		"missing": {200, `{"data":[{"index":0,"embedding":[1,0]}]}`},
		"outside": {200, `{"data":[{"index":0,"embedding":[1,0]},{"index":7,"embedding":[0,1]}]}`},
		"empty":   {200, `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[0,1]}]}`},
		"notjson": {200, `<html>`},
		"refused": {401, `{"error":{"message":"bad key"}}`},
	}
	var gotPath, gotModel string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath = r.URL.Path
		model := r.Header.Get("X-Case")
		gotModel = model
		a := answers[model]
		w.WriteHeader(a.status)
		w.Write([]byte(a.body))
	}))
	defer srv.Close()
	embed := func(name string) ([][]float32, error) {
		c, err := agent.NewOpenAIClient(agent.OpenAIConfig{ChatSettings: agent.ChatSettings{BaseURL: srv.URL + "/v1"}, Model: name, HTTPClient: &http.Client{Transport: caseHeader{name}}})
		if err != nil {
			t.Fatal(err)
		}
		return c.Embed(context.Background(), []string{"first", "second"})
	}
	v, err := embed("ok")
	if err != nil || len(v) != 2 || v[0][0] != 1 || v[1][1] != 1 {
		t.Fatalf("ok: %v %v", v, err)
	}
	if gotPath != "/v1/embeddings" || gotModel != "ok" {
		t.Errorf("posted to %s", gotPath)
	}
	for _, name := range []string{"missing", "outside", "empty", "notjson"} {
		if _, err := embed(name); !errors.Is(err, agent.ErrEndpoint) {
			t.Errorf("%s: %v, want ErrEndpoint", name, err)
		}
	}
	_, err = embed("refused")
	var he *agent.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 401 || !strings.Contains(err.Error(), "bad key") {
		t.Errorf("refused: %v", err)
	}
}

// caseHeader names the answer the fake server gives.
type caseHeader struct{ name string }

func (c caseHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Case", c.name)
	return http.DefaultTransport.RoundTrip(r)
}
