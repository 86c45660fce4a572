package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/gating"
)

// A broken <root>/gate/model.json fails the gate tool alone, as it fails
// "parley gate" alone: the server starts and its other tools answer. The
// model is read for each gate call, as the command line reads it, so a
// model installed or removed while the server runs counts from the next
// call.
func TestBrokenGateModelFailsOnlyTheGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	a := app.New(app.Options{Root: root})
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	model := filepath.Join(root, filepath.FromSlash(gating.ModelName))
	if err := os.MkdirAll(filepath.Dir(model), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, []byte(`{"bad":`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, closeSrv, err := FromApp(a, b, AppOptions{})
	if err != nil {
		t.Fatalf("a broken gate model stopped the whole server: %v", err)
	}
	defer closeSrv()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()

	if out := ok[CheckOutput](t, cs, "consensus_check", CheckInput{Layer: "spec", Topic: "Rate limits", Position: "A token bucket"}); out.Status != "none" {
		t.Errorf("consensus_check: %+v", out)
	}
	critique := GateInput{Critique: "I am not sure the retry logic is right.", FinalConfidence: 0.5}
	if msg := fails(t, cs, "gate", critique); !strings.Contains(msg, "model.json") || !strings.Contains(msg, a.CommandLine("gate", "learn", "--reset")) {
		t.Errorf("gate with a broken model: %q", msg)
	}
	rules := critique
	rules.Mode = "rules"
	if d := ok[GateOutput](t, cs, "gate", rules); d.Mode != gating.ModeRules {
		t.Errorf("gate --mode rules needs no model: %+v", d)
	}
	if err := os.Remove(model); err != nil {
		t.Fatal(err)
	}
	if d := ok[GateOutput](t, cs, "gate", critique); d.Mode != gating.ModeModel || d.Model != "embedded" {
		t.Errorf("with the broken model removed, the embedded one decides: %+v", d)
	}
}

// The server reads debates and never closes one (debate_start runs each in
// a process of its own, which signs its seal): a signing key it could not
// use does not stop it, as it does not stop "parley consensus check"; only
// a debate_start is refused, as "parley debate start" is.
func TestUnusableSigningKeyDoesNotStopTheServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	key, err := app.NewSealKey(filepath.Join(dir, "seal.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(key.SigningKey, 0o644); err != nil { // readable by others: refused for signing
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"seal": key})
	if err := os.WriteFile(filepath.Join(root, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Root: root})
	if _, err := a.WriteDebates(); err == nil {
		t.Fatal("the key is usable after all: the test proves nothing")
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv, closeSrv, err := FromApp(a, b, AppOptions{})
	if err != nil {
		t.Fatalf("a signing key the server never uses stopped it: %v", err)
	}
	defer closeSrv()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if out := ok[CheckOutput](t, cs, "consensus_check", CheckInput{Layer: "spec", Topic: "Rate limits", Position: "A token bucket"}); out.Status != "none" {
		t.Errorf("consensus_check: %+v", out)
	}
}

// A vault that was named (--vault, $PARLEY_VAULT) and does not exist stops
// the server, as it stops "parley consensus check", and is not made: a
// misspelt --vault in a client's configuration made an empty vault there,
// and every consensus_check answered "none" (nothing filed) to questions
// the real vault settles. So does a default vault that is gone although a
// debate of the root filed its record there.
func TestMissingVaultStopsTheServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	root, vault := filepath.Join(dir, "root"), filepath.Join(dir, "misspelt-vault")
	a := app.New(app.Options{Root: root, Vault: vault})
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, closeSrv, err := FromApp(a, b, AppOptions{})
	if err == nil {
		closeSrv()
		t.Fatal("the server started over a vault that is not there")
	}
	if !errors.Is(err, app.ErrNoVault) || !strings.Contains(err.Error(), vault) {
		t.Errorf("error %q, want app.ErrNoVault naming %s", err, vault)
	}
	if _, err := os.Stat(vault); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the missing vault was made: %v", err)
	}

	// The root's own vault, which a root that filed nothing has yet to
	// make, is made as before.
	a = app.New(app.Options{Root: root})
	if _, closeSrv, err = FromApp(a, b, AppOptions{}); err != nil {
		t.Fatalf("a new root's own vault: %v", err)
	}
	closeSrv()
}
