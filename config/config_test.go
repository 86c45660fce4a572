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
