package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
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
	for name, bad := range map[string]string{
		"unknown transport": `{"transport":"redis"}`,
		"unknown nats key":  `{"transport":"nats","nats":{"server":"nats://x:1"}}`,
		"bad scheme":        `{"nats":{"url":"http://x:4222"}}`,
		"no scheme":         `{"nats":{"url":"localhost:4222"}}`,
		"empty in list":     `{"nats":{"url":"nats://a:1,"}}`,
		"replicas":          `{"nats":{"replicas":7}}`,
		"transport type":    `{"transport":1}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
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
