package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/openai"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// fakeServer is an OpenAI-compatible endpoint: /v1/embeddings maps each
// text to a bag of concepts (profile pictures are avatars), and
// /v1/chat/completions answers the judge with what judgeAnswer holds.
type fakeServer struct {
	*httptest.Server
	mu          sync.Mutex
	embedded    []string // every text sent for embedding
	judgeAnswer string
	judged      []string
}

var concepts = map[string]int{
	"avatar": 0, "profile": 0, "picture": 0, "photo": 0,
	"upload": 1, "uploads": 1, "uploaded": 1,
	"size": 2, "limit": 2, "maximum": 2, "large": 2, "big": 2,
	"banner": 3, "retry": 4, "retries": 4,
}

func embed(text string) []float32 {
	v := make([]float32, 6)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, "?.,!")
		if d, ok := concepts[w]; ok {
			v[d]++
		} else {
			v[5] += 0.1
		}
	}
	return v
}

func newFake(t *testing.T) *fakeServer {
	f := &fakeServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Model != "nomic-embed-text" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.embedded = append(f.embedded, in.Input...)
		f.mu.Unlock()
		type item struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var out struct {
			Data []item `json:"data"`
		}
		for i, s := range in.Input {
			out.Data = append(out.Data, item{embed(s), i})
		}
		json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Model    string `json:"model"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&in)
		f.mu.Lock()
		f.judged = append(f.judged, in.Messages[len(in.Messages)-1].Content)
		answer := f.judgeAnswer
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": answer}}}})
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.embedded...)
}

type env struct {
	root string
	v    *vault.Vault
}

func newEnv(t *testing.T) *env {
	dir := t.TempDir()
	v, err := vault.Create(filepath.Join(dir, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	e := &env{root: filepath.Join(dir, "root"), v: v}
	s := e.open(t)
	_, err = s.FileAll(context.Background(), []*debate.Outcome{
		outcome("20261130-spec-avatar-aaaaaa", "Avatar upload size limit", "Reject avatar uploads larger than 2 MB"),
		outcome("20261130-spec-retries-aaaaaa", "Webhook retries", "Retry a failed webhook three times"),
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return e
}

func (e *env) open(t *testing.T, opts ...consensus.Option) *consensus.Store {
	s, err := consensus.Open(e.root, e.v, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func outcome(id, topic, pos string) *debate.Outcome {
	return &debate.Outcome{
		DebateID: id, Verdict: debate.ConsensusReached, Action: debate.ActionProceed, Rule: debate.RuleConceded, FinalPosition: pos,
		Session: &debate.DebateSession{ID: id, Topic: topic, Layer: debate.LayerSpec,
			Participants: []debate.Participant{{Name: "SwiftRaven", Role: debate.RoleDefender}, {Name: "GoldFalcon", Role: debate.RoleAttacker}}},
	}
}

func client(f *fakeServer, model string) *openai.Client {
	return newClient(f.URL+"/v1", model)
}

func newClient(baseURL, model string) *openai.Client {
	c, err := openai.New(agent.OpenAIConfig{ChatSettings: agent.ChatSettings{BaseURL: baseURL}, Model: model})
	if err != nil {
		panic(err)
	}
	return c
}

func TestEmbeddingsMatchWhatWordsMiss(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFake(t)
	e := newEnv(t)
	const q, pos = "Profile picture upload size limit", "Reject profile pictures larger than 2 MB"

	// Words alone do not see that a profile picture is an avatar (a
	// position that says "avatar" would tell them).
	res, err := e.open(t).Check(ctx, debate.LayerSpec, q, pos)
	if err != nil || res.Status != consensus.CheckNone {
		t.Fatalf("lexical: %v %v", res, err)
	}
	s := e.open(t, consensus.WithEmbedder(client(f, "nomic-embed-text"), "nomic-embed-text"))
	res, err = s.Check(ctx, debate.LayerSpec, q, pos)
	if err != nil || res.Status != consensus.CheckConsistent || res.Record.Name != "spec-avatar-upload-size-limit" || res.TopicScore < consensus.EmbeddingThreshold {
		t.Fatalf("with embeddings: %+v %v", res, err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
	// Another object whose embedding is not close enough stays apart.
	res, _ = s.Check(ctx, debate.LayerSpec, "Banner upload size limit", "Reject banner uploads larger than 2 MB")
	if res.Status != consensus.CheckNone {
		t.Errorf("near-miss matched through embeddings: %+v", res)
	}
	s.Close()

	// The records' embeddings are kept in the index: a new process sends
	// only its question.
	before := len(f.texts())
	s2 := e.open(t, consensus.WithEmbedder(client(f, "nomic-embed-text"), "nomic-embed-text"))
	if res, _ := s2.Check(ctx, debate.LayerSpec, "Maximum photo upload size", pos); res.Status != consensus.CheckConsistent {
		t.Errorf("second process: %+v", res)
	}
	if got := f.texts()[before:]; len(got) != 1 || got[0] != "Maximum photo upload size" {
		t.Errorf("the second process embedded %q; the records' embeddings should come from the index", got)
	}
}

func TestJudgeDecidesUnclear(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFake(t)
	e := newEnv(t)
	const pos = "Webhooks are delivered on a best-effort basis" // words alone: unclear
	res, _ := e.open(t).Check(ctx, debate.LayerSpec, "Webhook retries", pos)
	if res.Status != consensus.CheckUnclear {
		t.Fatalf("lexical: %+v", res)
	}
	f.judgeAnswer = `{"agreement": "consistent", "reason": "Both retry a failed webhook three times."}`
	s := e.open(t, consensus.WithJudge(client(f, "qwen2.5"), "qwen2.5"))
	res, err := s.Check(ctx, debate.LayerSpec, "Webhook retries", pos)
	if err != nil || res.Status != consensus.CheckConsistent || res.Judge != "qwen2.5: Both retry a failed webhook three times." {
		t.Fatalf("judge: %+v %v", res, err)
	}
	if len(f.judged) != 1 || !strings.Contains(f.judged[0], "FILED: Retry a failed webhook three times") || !strings.Contains(f.judged[0], "NEW: "+pos) {
		t.Errorf("the judge was asked %q", f.judged)
	}
	f.judgeAnswer = "```json\n{\"agreement\": \"conflict\", \"reason\": \"Three more attempts is four in all.\"}\n```"
	if res, _ := s.Check(ctx, debate.LayerSpec, "Webhook retries", pos); res.Status != consensus.CheckConflict || !strings.Contains(res.Judge, "four in all") {
		t.Errorf("judge conflict: %+v", res)
	}
	// A rule the lexical comparison decides never reaches the judge.
	n := len(f.judged)
	if res, _ := s.Check(ctx, debate.LayerSpec, "Webhook retries", "Retry a failed webhook five times"); res.Status != consensus.CheckConflict || len(f.judged) != n {
		t.Errorf("a decided conflict went to the judge: %+v", res)
	}
	// An answer that is neither keeps unclear, with a warning.
	f.judgeAnswer = `{"agreement": "maybe"}`
	if res, _ := s.Check(ctx, debate.LayerSpec, "Webhook retries", pos); res.Status != consensus.CheckUnclear || len(res.Warnings) != 1 {
		t.Errorf("a bad judge answer: %+v", res)
	}
}

func TestEndpointDownFallsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFake(t)
	url := f.URL
	f.Close() // nothing listens there any more
	e := newEnv(t)
	c := newClient(url+"/v1", "nomic-embed-text")
	s := e.open(t, consensus.WithEmbedder(c, "nomic-embed-text"), consensus.WithJudge(c, "qwen2.5"))
	// Embeddings down: the lexical answer, with a warning.
	res, err := s.Check(ctx, debate.LayerSpec, "Profile picture upload size limit", "x")
	if err != nil || res.Status != consensus.CheckNone || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "embeddings nomic-embed-text did not answer") {
		t.Fatalf("embeddings down: %+v %v", res, err)
	}
	// Judge down: unclear stays unclear, with a warning.
	res, err = s.Check(ctx, debate.LayerSpec, "Webhook retries", "Webhooks are delivered on a best-effort basis")
	if err != nil || res.Status != consensus.CheckUnclear || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "judge qwen2.5 did not answer") {
		t.Fatalf("judge down: %+v %v", res, err)
	}
	// A lexical match never needs the endpoint.
	res, err = s.Check(ctx, debate.LayerSpec, "Avatar upload size limit", "Reject avatar uploads larger than 2 MB")
	if err != nil || res.Status != consensus.CheckConsistent || len(res.Warnings) != 0 {
		t.Errorf("lexical match: %+v %v", res, err)
	}
}
