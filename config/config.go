// Package config reads <root>/config.json, parley's optional settings file.
// A missing file means all defaults; an unknown key is an error, so that a
// misspelt setting never silently does nothing.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// FileName is the settings file's name under the root.
const FileName = "config.json"

// MaxBytes bounds config.json.
const MaxBytes = 1 << 20

// ErrInvalid wraps every problem with a config file's content.
var ErrInvalid = errors.New("invalid config")

// Config is the whole of config.json. Every section is optional.
type Config struct {
	Debate     Debate     `json:"debate"`
	Messenger  Messenger  `json:"messenger"`
	Escalation Escalation `json:"escalation"`
	OpenAI     OpenAI     `json:"openai"`
}

// Debate holds debate settings.
type Debate struct {
	// Budgets overrides the budget of each layer ("spec", "plan", "verify").
	Budgets map[debate.Layer]debate.BudgetOverride `json:"budgets,omitempty"`
}

// Messenger holds file-messenger settings.
type Messenger struct {
	// ReconcileMs is the period of the inbox reconciliation scan (default 1000).
	ReconcileMs int `json:"reconcileMs,omitempty"`
	// HeartbeatTTLMs is how old a heartbeat may be before its agent counts
	// as dead (default 30000).
	HeartbeatTTLMs int `json:"heartbeatTtlMs,omitempty"`
}

// Defaults of the messenger section (the packages' own defaults, repeated
// here so that "parley config show" can print them).
const (
	DefaultReconcileMs    = 1000
	DefaultHeartbeatTTLMs = 30000
)

// Budget returns the effective budget of layer l: the default with the
// config's override applied.
func (c *Config) Budget(l debate.Layer) debate.ConsensusBudget {
	return debate.DefaultBudget(l).Apply(c.Debate.Budgets[l])
}

// Load reads <root>/config.json. A missing file yields the defaults.
func Load(root string) (*Config, error) {
	f, err := os.Open(filepath.Join(root, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalid, f.Name(), MaxBytes)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return c, nil
}

// Parse decodes config.json content strictly: unknown keys, unknown layers
// and invalid budgets are errors wrapping ErrInvalid.
func Parse(data []byte) (*Config, error) {
	c := &Config{}
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalid)
	}
	for l := range c.Debate.Budgets {
		if _, err := debate.ParseLayer(string(l)); err != nil {
			return nil, fmt.Errorf("%w: debate.budgets: %v", ErrInvalid, err)
		}
		if err := c.Budget(l).Validate(); err != nil {
			return nil, fmt.Errorf("%w: debate.budgets.%s: %v", ErrInvalid, l, err)
		}
	}
	if c.Messenger.ReconcileMs < 0 || c.Messenger.HeartbeatTTLMs < 0 {
		return nil, fmt.Errorf("%w: messenger durations must not be negative", ErrInvalid)
	}
	if err := c.Escalation.validate(); err != nil {
		return nil, fmt.Errorf("%w: escalation.%v", ErrInvalid, err)
	}
	if err := c.OpenAI.validate(); err != nil {
		return nil, fmt.Errorf("%w: openai.%v", ErrInvalid, err)
	}
	return c, nil
}
