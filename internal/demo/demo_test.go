package demo

import (
	"errors"

	json "github.com/goccy/go-json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/escalation"
)

// Root never hands out a directory that holds anything: a new or empty
// one is used as it is, one with a user's file gets a new demo-* inside
// it (a fresh one each time), and a path that is not a directory is
// ErrDir, with nothing made.
func TestRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new", "deeper")
	if got, err := Root(fresh); err != nil || got != fresh {
		t.Fatalf("a new dir: %q, %v", got, err)
	}
	if got, err := Root(fresh); err != nil || got != fresh {
		t.Fatalf("an empty dir: %q, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(fresh, "config.json"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Root(fresh)
	if err != nil || filepath.Dir(a) != fresh || !strings.HasPrefix(filepath.Base(a), "demo-") {
		t.Fatalf("a dir with a file: %q, %v", a, err)
	}
	b, _ := Root(fresh)
	if a == b {
		t.Fatalf("two runs share %s", a)
	}
	file := filepath.Join(fresh, "config.json")
	if _, err := Root(file); !errors.Is(err, ErrDir) {
		t.Fatalf("a file as the dir: %v, want ErrDir", err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "{}\n" {
		t.Fatalf("the user's file changed: %q %v", b, err)
	}
}

// An event prints as a JSON object with its kind, time and fields, or as a
// timed line; an escalation as the decision and escalate's own line.
func TestEventForms(t *testing.T) {
	t.Parallel()
	e := Event{Kind: EventSent, At: 1500 * time.Microsecond, Data: map[string]any{"from": "Ana"}, Text: "Ana → Bo"}
	obj := e.JSON().(map[string]any)
	if obj["event"] != EventSent || obj["t_ms"] != 1.5 || obj["from"] != "Ana" {
		t.Errorf("JSON %v", obj)
	}
	if got := e.Line(); got != "[     1.5 ms] Ana → Bo" {
		t.Errorf("Line %q", got)
	}
	esc := Event{Kind: EventEscalation, Escalation: &Escalation{Decision: escalation.Decision{TaskID: "7"}, Line: `{"task_id":"7"}`}}
	if esc.Line() != `{"task_id":"7"}` {
		t.Errorf("escalation line %q", esc.Line())
	}
	if !strings.Contains(strings.ReplaceAll(mustJSON(t, esc.JSON()), " ", ""), `"event":"escalation","task_id":"7"`) {
		t.Errorf("escalation JSON %s", mustJSON(t, esc.JSON()))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
